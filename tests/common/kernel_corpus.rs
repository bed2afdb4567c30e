//! Issue 13's kernel corpus (include with `#[path = "common/kernel_corpus.rs"] mod kernel_corpus;`
//! beside `mod common;`): every `.S` under arch/ia64 of Linux 6.1 (kernel/, lib/,
//! scripts/; not the linker scripts), each build of it (arch/ia64/lib/Makefile's
//! `AFLAGS___*` build idiv32.S and idiv64.S four times), under
//! `tests/data/kernel/ia64-6.1.config` with and without CONFIG_VIRT_CPU_ACCOUNTING_NATIVE,
//! preprocessed by acctemu's own preprocessor with the flags and generated headers
//! `emu_core::kernel::KernelTree` derives, and `asm-offsets.h` from acctemu's generator.
//!
//! The build is out of tree: the objtree is a scratch directory that receives the generated
//! headers (so `gcc -E` reads the same files) and, when `ia64-linux-gnu-ld` exists, the gate
//! DSO `gate.so` that gate-data.S `.incbin`s, linked from gate.S and gate.lds.S as
//! arch/ia64/kernel/Makefile.gate links it.

#![allow(dead_code)] // each test that includes this uses a part of it

use emu_core::kernel::{KernelConfig, KernelTree};
use emu_core::preprocess::{preprocess, FsLoader, OverlayLoader, PreprocessOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One build of one corpus file.
pub struct CorpusBuild {
    /// `arch/ia64/lib/idiv32.S (__divsi3.o) [acct]`.
    pub label: String,
    /// The file, relative to the tree.
    pub file: String,
    /// A file-name stem unique within the corpus (`lib-idiv32-udiv-acct`).
    pub stem: String,
    /// The `-D`s this build adds to the file's others (arch/ia64/lib/Makefile's `AFLAGS___*`).
    pub defines: Vec<&'static str>,
    /// The preprocessor options of this build.
    pub options: PreprocessOptions,
    /// acctemu's preprocessed text, or its error.
    pub text: Result<String, String>,
}

/// The configured, generated build of the tree the corpus reads.
pub struct Corpus {
    /// The objtree holding the generated headers (and gate.so when it could be linked).
    pub objtree: PathBuf,
    /// Every build.
    pub builds: Vec<CorpusBuild>,
}

/// The `.S` files of the corpus, relative to the tree, sorted.
pub fn files(tree: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["arch/ia64/kernel", "arch/ia64/lib", "arch/ia64/scripts"] {
        let Ok(entries) = std::fs::read_dir(tree.join(dir)) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".S") && !name.ends_with(".lds.S") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

/// The builds of `file`: a name suffix, a stem suffix and the extra `-D`s.
fn variants(file: &str) -> Vec<(String, String, Vec<&'static str>)> {
    let base = file.rsplit('/').next().unwrap_or(file);
    let stem = match base {
        "idiv32.S" => "si3",
        "idiv64.S" => "di3",
        _ => return vec![(String::new(), String::new(), Vec::new())],
    };
    [("div", vec![]), ("udiv", vec!["UNSIGNED"]), ("mod", vec!["MODULO"]), ("umod", vec!["UNSIGNED", "MODULO"])]
        .into_iter()
        .map(|(op, d)| (format!(" (__{op}{stem}.o)"), format!("-{op}"), d))
        .collect()
}

/// The corpus's configuration, with or without the accounting option.
pub fn config(accounting: bool) -> KernelConfig {
    let path = crate::common::root().join("tests/data/kernel/ia64-6.1.config");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut config = KernelConfig::parse("ia64-6.1.config", &text).expect("the corpus configuration parses");
    if accounting {
        config.set("VIRT_CPU_ACCOUNTING_NATIVE", "y");
    }
    config
}

/// Every build of the corpus under the corpus's configuration, with or without the
/// accounting option: [`prepare_with`].
pub fn prepare(tree: &Path, objtree: &Path, accounting: bool, ld: Option<&Path>) -> Corpus {
    let flavour = if accounting { "acct" } else { "base" };
    prepare_with(tree, objtree, &config(accounting), flavour, ld)
}

/// The page size `config` selects (`CONFIG_IA64_PAGE_SIZE_*KB`).
pub fn page_size(config: &KernelConfig) -> u64 {
    [4u64, 8, 16, 64]
        .into_iter()
        .find(|kb| config.get(&format!("IA64_PAGE_SIZE_{kb}KB")) == Some("y"))
        .expect("the configuration selects a page size")
        * 1024
}

/// Every build of the corpus under `config`, preprocessed, with the generated headers
/// written into `objtree`; `flavour` ends each build's stem and label. `ld`, when given,
/// links gate.so there for gate-data.S.
pub fn prepare_with(tree: &Path, objtree: &Path, config: &KernelConfig, flavour: &str, ld: Option<&Path>) -> Corpus {
    let config = config.clone();
    let kt = KernelTree { srctree: tree.to_path_buf(), objtree: Some(objtree.to_path_buf()) };
    let offsets = arch_ia64::asm_offsets::generate(tree, &config, &FsLoader).expect("asm-offsets generates");
    let build = kt.build(&PreprocessOptions::new(), &config, Some(&offsets), &FsLoader).expect("kernel build");
    for (path, text) in build.generated.files() {
        std::fs::create_dir_all(path.parent().expect("generated header directory")).expect("objtree");
        std::fs::write(path, text).expect("generated header");
    }
    let loader = OverlayLoader::new(build.generated.clone(), &FsLoader);
    let mut builds = Vec::new();
    for file in files(tree) {
        let path = tree.join(&file);
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let short = file.trim_start_matches("arch/ia64/").trim_end_matches(".S").replace('/', "-");
        for (label_suffix, stem_suffix, extra) in variants(&file) {
            let mut options = build.options.clone();
            options.defines.extend(extra.iter().map(|d| (d.to_string(), "1".to_string())));
            let extra = extra.clone();
            let text = preprocess(&path.display().to_string(), &source, &options, &loader)
                .map(|p| p.text)
                .map_err(|e| e.to_string());
            builds.push(CorpusBuild {
                label: format!("{file}{label_suffix} [{flavour}]"),
                file: file.clone(),
                stem: format!("{short}{stem_suffix}-{flavour}"),
                defines: extra,
                options,
                text,
            });
        }
    }
    if let Some(ld) = ld {
        link_gate_dso(tree, objtree, &builds, ld, &build.options, &loader);
    }
    Corpus { objtree: objtree.to_path_buf(), builds }
}

/// Makefile.gate: gate.lds from gate.lds.S (`cpp -P -C -U$(ARCH) -DLINKER_SCRIPT`), gate.o
/// from gate.S, then gate.so as `-shared -s -soname=linux-gate.so.1 --hash-style=sysv -T
/// gate.lds`. gate.o is assembled by GNU as (the objects under test are the
/// corpus's, not the DSO, whose bytes both assemblers then `.incbin` alike).
fn link_gate_dso(
    tree: &Path,
    objtree: &Path,
    builds: &[CorpusBuild],
    ld: &Path,
    options: &PreprocessOptions,
    loader: &dyn emu_core::preprocess::SourceLoader,
) {
    let dir = objtree.join("arch/ia64/kernel");
    std::fs::create_dir_all(&dir).expect("objtree kernel directory");
    let lds_path = tree.join("arch/ia64/kernel/gate.lds.S");
    let lds_src = std::fs::read_to_string(&lds_path).expect("gate.lds.S");
    let mut lds_opts = options.clone();
    lds_opts.defines.push(("LINKER_SCRIPT".into(), "1".into()));
    lds_opts.undefines.push("ia64".into());
    let lds =
        preprocess(&lds_path.display().to_string(), &lds_src, &lds_opts, loader).expect("gate.lds.S preprocesses");
    std::fs::write(dir.join("gate.lds"), lds.text).expect("gate.lds");
    let Some(gate) = builds.iter().find(|b| b.file == "arch/ia64/kernel/gate.S") else { return };
    let Ok(text) = &gate.text else { return };
    let gate_s = dir.join("gate.s");
    std::fs::write(&gate_s, text).expect("gate.s");
    let as_ = ld.with_file_name(ld.file_name().unwrap().to_string_lossy().replace("-ld", "-as"));
    let ok = |c: &mut Command| c.status().is_ok_and(|s| s.success());
    assert!(
        ok(Command::new(&as_).args(["-x", "-mconstant-gp", "-o"]).arg(dir.join("gate.o")).arg(&gate_s)),
        "GNU as failed on gate.S"
    );
    assert!(
        ok(Command::new(ld)
            .args(["-shared", "-s", "-soname=linux-gate.so.1", "--hash-style=sysv", "-T"])
            .arg(dir.join("gate.lds"))
            .arg("-o")
            .arg(dir.join("gate.so"))
            .arg(dir.join("gate.o"))),
        "ld failed to link gate.so"
    );
}

/// acctemu's object of `b` (`-x -mconstant-gp`, as the kernel assembles), `.incbin` files
/// found from `objtree`.
pub fn acctemu_object(b: &CorpusBuild, objtree: &Path) -> Result<Vec<u8>, String> {
    let text = b.text.as_ref().map_err(|e| format!("{}: acctemu's preprocessor: {e}", b.label))?;
    let opts = PreprocessOptions::new().include_dir(objtree);
    let mut asm = arch_ia64::asm::assemble(&format!("{}.s", b.stem), text, &opts, &FsLoader)
        .map_err(|d| format!("{}: acctemu's assembler: {d}", b.label))?;
    asm.elf.e_flags |= arch_ia64::asm::object::EF_IA_64_CONS_GP;
    asm.object_file().map_err(|e| format!("{}: acctemu's object writer: {e}", b.label))
}

/// GNU as's object of `b`, assembled in `objtree` (where the build runs it) into
/// `objtree/STEM.o`; the object's path.
pub fn gas_object(b: &CorpusBuild, objtree: &Path, gas: &Path) -> Result<PathBuf, String> {
    let text = b.text.as_ref().map_err(|e| format!("{}: acctemu's preprocessor: {e}", b.label))?;
    let (src, obj) = (objtree.join(format!("{}.s", b.stem)), objtree.join(format!("{}.o", b.stem)));
    std::fs::write(&src, text).map_err(|e| format!("{}: {e}", src.display()))?;
    let out = Command::new(gas)
        .args(["-x", "-mconstant-gp", "-o"])
        .arg(&obj)
        .arg(&src)
        .current_dir(objtree)
        .output()
        .map_err(|e| format!("running {}: {e}", gas.display()))?;
    if !out.status.success() {
        return Err(format!("{}: GNU as failed: {}", b.label, String::from_utf8_lossy(&out.stderr)));
    }
    Ok(obj)
}

/// Where two ELF objects differ, by section: `None` when the files are identical.
pub fn object_difference(ours: &[u8], theirs: &[u8]) -> Option<String> {
    if ours == theirs {
        return None;
    }
    let (Ok(a), Ok(b)) = (goblin::elf::Elf::parse(ours), goblin::elf::Elf::parse(theirs)) else {
        return Some("one of the objects is not valid ELF".into());
    };
    let name = |e: &goblin::elf::Elf<'_>, i: usize| {
        e.section_headers.get(i).and_then(|h| e.shdr_strtab.get_at(h.sh_name)).unwrap_or("?").to_string()
    };
    let bytes = |file: &[u8], h: &goblin::elf::SectionHeader| {
        if h.sh_type == goblin::elf::section_header::SHT_NOBITS {
            return Vec::new();
        }
        let start = h.sh_offset as usize;
        file.get(start..start + h.sh_size as usize).unwrap_or_default().to_vec()
    };
    let mut out = Vec::new();
    if a.section_headers.len() != b.section_headers.len() {
        out.push(format!("{} sections, GNU as {}", a.section_headers.len(), b.section_headers.len()));
    }
    for (i, (ha, hb)) in a.section_headers.iter().zip(&b.section_headers).enumerate() {
        let (na, nb) = (name(&a, i), name(&b, i));
        if na != nb {
            out.push(format!("section {i} is {na}, GNU as {nb}"));
            continue;
        }
        let (da, db) = (bytes(ours, ha), bytes(theirs, hb));
        if da != db {
            let at = da.iter().zip(&db).position(|(x, y)| x != y).unwrap_or(da.len().min(db.len()));
            out.push(format!("{na}: {} bytes (GNU as {}), first difference at {at:#x}", da.len(), db.len()));
        } else if (ha.sh_flags, ha.sh_addralign, ha.sh_link, ha.sh_info, ha.sh_entsize)
            != (hb.sh_flags, hb.sh_addralign, hb.sh_link, hb.sh_info, hb.sh_entsize)
        {
            out.push(format!("{na}: header fields differ"));
        }
    }
    if out.is_empty() {
        out.push(format!("the files differ outside section contents ({} bytes, GNU as {})", ours.len(), theirs.len()));
    }
    Some(out.join("; "))
}
