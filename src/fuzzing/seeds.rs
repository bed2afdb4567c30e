//! The fuzz targets' seed inputs, named where they already live in the repository (the IA-64
//! corpus and its GNU as objects, the core tests' and traces' objects, the trace harnesses)
//! rather than copied. Only inputs with no other home sit in `fuzz/seeds/<target>/`.
//! `fuzz/run-all.sh` writes them into each target's corpus (`cargo run --example fuzz_seeds`);
//! `tests/fuzz_regressions.rs` runs them through the targets.

use std::path::Path;

/// One seed input of one target.
#[derive(Debug, Clone)]
pub struct Seed {
    /// The target it feeds (a name of [`super::TARGETS`]).
    pub target: &'static str,
    /// A file name for it in a corpus directory.
    pub name: String,
    /// The input bytes.
    pub data: Vec<u8>,
}

/// IA-64 corpus sources the assembler target starts from.
const ASSEMBLE: &[&str] = &[
    "alu",
    "branch_call",
    "branch_long",
    "directives",
    "dv_gr",
    "expr",
    "fp",
    "mov_ar",
    "seed004",
    "stops",
    "system",
    "templates",
];
/// IA-64 corpus sources the preprocessor target starts from.
const PREPROCESS: &[&str] = &["directives", "expr", "seed004_cpp"];
/// Corpus programs whose GNU as `.text` seeds the decoder and the IA-64 core.
const BUNDLES: &[&str] = &["alu", "atomic", "branch_call", "branch_long", "fp", "mov_ar", "store", "system"];
/// GNU as objects that seed the IA-64 loader.
const IA64_OBJECTS: &[&str] = &["alu", "branch_call", "dv_br", "mov_ar", "system"];
/// Objects that seed each compiled-code loader; their `.text` seeds the core.
const X86_OBJECTS: &[&str] = &[
    "arch-x86/tests/data/ops.o",
    "traces/x86/obj/sched-avg-loop.o",
    "traces/x86/obj/sched-avg-div.o",
    "traces/x86/obj/timer-target-new.o",
];
const S390_OBJECTS: &[&str] =
    &["arch-s390/tests/data/ops.o", "arch-s390/tests/data/refops.o", "traces/s390/obj/vtime-delayed.o"];
/// Harnesses of every core that seed the harness target.
const HARNESSES: &[&str] = &[
    "tests/data/ia64/account_sys_enter.toml",
    "traces/ia64/syscall-none.toml",
    "traces/ia64/syscall-v1.toml",
    "traces/ia64/syscall-v2.toml",
    "traces/x86/harness/nohz-sched-clock.toml",
    "traces/x86/harness/timer-target.toml",
    "traces/s390/harness/vtime-4.11.toml",
];

const SOURCES: &str = "tests/corpus/ia64/src";
const GOLDEN: &str = "tests/corpus/ia64/golden";

/// Every seed, read from the repository at `root`.
///
/// # Errors
/// A named file that cannot be read, a `.text.hex` that is not hex, or an object without a
/// `.text` the loader accepts, each naming the file.
pub fn seeds(root: &Path) -> Result<Vec<Seed>, String> {
    let read = |rel: &str| std::fs::read(root.join(rel)).map_err(|e| format!("{rel}: {e}"));
    let mut out = Vec::new();
    let mut add = |target: &'static str, name: &str, data: Vec<u8>| {
        out.push(Seed { target, name: name.replace('/', "_"), data });
    };
    for n in ASSEMBLE {
        add("assemble_ia64", &format!("{n}.S"), read(&format!("{SOURCES}/{n}.S"))?);
    }
    for n in PREPROCESS {
        add("preprocess", &format!("{n}.S"), read(&format!("{SOURCES}/{n}.S"))?);
    }
    for n in BUNDLES {
        let rel = format!("{GOLDEN}/{n}.text.hex");
        let bytes = hex(&read(&rel)?).ok_or_else(|| format!("{rel}: not hex"))?;
        add("decode_ia64", &format!("{n}.bin"), bytes.clone());
        add("run_ia64", &format!("{n}.bin"), bytes);
    }
    for n in IA64_OBJECTS {
        add("elf_ia64", &format!("{n}.o"), read(&format!("{GOLDEN}/{n}.o"))?);
    }
    for rel in X86_OBJECTS {
        let object = read(rel)?;
        let image = arch_x86::run::load_object(&object).map_err(|e| format!("{rel}: {e}"))?;
        add("run_x86", &format!("{rel}.text"), text_of(&image).ok_or_else(|| format!("{rel}: no .text"))?);
        add("elf_x86", rel, object);
    }
    for rel in S390_OBJECTS {
        let object = read(rel)?;
        let image = arch_s390::run::load_object(&object).map_err(|e| format!("{rel}: {e}"))?;
        add("run_s390", &format!("{rel}.text"), text_of(&image).ok_or_else(|| format!("{rel}: no .text"))?);
        add("elf_s390", rel, object);
    }
    for rel in HARNESSES {
        add("harness", rel, read(rel)?);
    }
    // Inputs that exist only as seeds.
    for (target, _) in super::TARGETS {
        let dir = root.join("fuzz/seeds").join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            add(target, &name, data);
        }
    }
    Ok(out)
}

/// The bytes of a `.text.hex` file (hex digits, any whitespace).
fn hex(text: &[u8]) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits.chunks(2).map(|pair| std::str::from_utf8(pair).ok().and_then(|s| u8::from_str_radix(s, 16).ok())).collect()
}

/// The `.text` section of a loaded object.
fn text_of(image: &emu_core::image::Image) -> Option<Vec<u8>> {
    image.sections.iter().find(|s| s.name == ".text").map(|s| s.data.clone())
}
