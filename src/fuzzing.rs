//! One entry point per fuzz target (`fuzz/fuzz_targets/*.rs`), each feeding raw bytes through
//! the same library functions the command line uses. The regression tests
//! (`tests/fuzz_regressions.rs`) call these very functions on the inputs the fuzzers found, so a
//! target and its regression test exercise identical code.
//!
//! Every function returns `Ok` or the typed error's message; a panic is the bug being hunted.
//! Inputs never touch the file system: includes resolve through a [`MemLoader`].

mod seeds;

pub use seeds::{seeds, Seed};

use arch_ia64::asm::assemble;
use emu_core::harness::Harness;
use emu_core::image::{Image, Section, SectionKind};
use emu_core::memory::Endian;
use emu_core::preprocess::{MemLoader, PreprocessOptions};

/// Name of the fuzzed source text in diagnostics (`fuzz.S:line:col`).
pub const SOURCE_NAME: &str = "fuzz.S";
/// Name of the fuzzed harness text in diagnostics (`fuzz.toml:line:col`).
pub const HARNESS_NAME: &str = "fuzz.toml";
/// Load address of the random code the core targets run.
pub const CODE_BASE: u64 = 0x0001_0000;
/// Instruction budget of the core targets: small, so a random loop ends quickly.
pub const BUDGET: u64 = 2_000;
/// Largest input the targets look at; longer ones are cut (libFuzzer's own cap is 4096).
pub const MAX_LEN: usize = 64 * 1024;

/// The catalogue trace whose source the patch target changes.
pub const PATCH_TRACE: &str = "ia64/syscall/v1";

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_LEN)]).into_owned()
}

/// Include files the fuzzed sources may name (`#include "fuzz.h"`, `<asm/fuzz.h>`), so the
/// include and macro machinery runs without reading the disk.
fn loader() -> MemLoader {
    MemLoader::new()
        .with("fuzz.h", "#define FUZZ_ONE 1\n#define FUZZ_ADD(a, b) ((a) + (b))\n#define FUZZ_STR(x) #x\n")
        .with("inc/asm/fuzz.h", "#ifndef FUZZ_GUARD\n#define FUZZ_GUARD\n#include \"fuzz.h\"\n#endif\n")
        .with("self.h", "#include \"self.h\"\n")
}

fn options() -> PreprocessOptions {
    PreprocessOptions::new().defined("CONFIG_FUZZ", "1").defined("HZ", "250").include_dir("inc")
}

/// The C-preprocessor subset on `data` as source text.
///
/// # Errors
/// The preprocessor's diagnostic (`fuzz.S:line:col: error: ...`).
pub fn preprocess(data: &[u8]) -> Result<(), String> {
    let src = text(data);
    emu_core::preprocess::preprocess(SOURCE_NAME, &src, &options(), &loader()).map(drop).map_err(|e| e.to_string())
}

/// The IA-64 assembler on `data` as source text, as `acctemu asm --listing` does it: assemble,
/// take `.text`, render the listing.
///
/// # Errors
/// The assembler's diagnostics (each `fuzz.S:line:col: error: ...`).
pub fn assemble_ia64(data: &[u8]) -> Result<(), String> {
    let src = text(data);
    let asm = assemble(SOURCE_NAME, &src, &options(), &loader()).map_err(|e| e.to_string())?;
    let _ = crate::cli::listing::render(&asm.listing);
    Ok(())
}

/// The IA-64 decoder on `data` as bundles: each whole bundle decoded and every slot formatted
/// as objdump does, the raw-file disassembly of `acctemu disasm FILE.bin --base B`, and the
/// executor's predecoding of the same bytes. A tail of 8 to 15 bytes past the last whole
/// bundle also gives the load address `B` (its last 8 bytes, little-endian), as `--base` may
/// be anything; otherwise it is [`CODE_BASE`].
///
/// # Errors
/// Never: undecodable bundles are part of the output, not errors.
pub fn decode_ia64(data: &[u8]) -> Result<(), String> {
    use arch_ia64::format::{format_raw_slot, format_slot, NoSymbols};
    let data = &data[..data.len().min(MAX_LEN)];
    let base = match data.len() % 16 {
        8.. => data.last_chunk::<8>().map_or(CODE_BASE, |b| u64::from_le_bytes(*b)),
        _ => CODE_BASE,
    };
    for (i, chunk) in data.chunks_exact(16).enumerate() {
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(chunk);
        let ip = base.wrapping_add(16 * i as u64);
        if let Ok(b) = arch_ia64::decode::decode_bundle(bytes) {
            for slot in 0..3 {
                let _ = format_slot(&b, slot, ip, &NoSymbols);
            }
        }
        for slot in 0..3 {
            let _ = format_raw_slot(bytes, slot, ip, &NoSymbols);
        }
    }
    let _ = arch_ia64::decode::decode_all(data);
    let _ = arch_ia64::disasm::disassemble_bytes(data, base);
    let _ = arch_ia64::exec::predecode::predecode(base, data);
    Ok(())
}

/// Instruction budget of the ELF targets' runs: the point is the set-up of the loaded image.
const ELF_BUDGET: u64 = 64;

/// An IA-64 ELF object loaded as `acctemu run FILE.o` loads it, disassembled as
/// `acctemu disasm FILE.o` prints it, then set up and run under the default harness for
/// [`ELF_BUDGET`] instructions.
///
/// # Errors
/// The loader's error, or the run's.
pub fn elf_ia64(data: &[u8]) -> Result<(), String> {
    let image = arch_ia64::elf::load(data).map_err(|e| e.to_string())?;
    let _ = arch_ia64::disasm::objdump("fuzz.o", &image);
    let _ = arch_ia64::disasm::objdump_object("fuzz.o", data, true);
    let image = arch_ia64::elf::load_for_run(data).map_err(|e| e.to_string())?;
    let cfg = arch_ia64::run::RunConfig { max_insns: ELF_BUDGET, ..Default::default() };
    arch_ia64::run::run_image(&image, &cfg).map(drop).map_err(|e| e.to_string())
}

/// An x86-64 ELF object loaded as `acctemu run FILE.o` loads it, then set up and run under
/// the default harness for [`ELF_BUDGET`] instructions.
///
/// # Errors
/// The loader's error, or the run's.
pub fn elf_x86(data: &[u8]) -> Result<(), String> {
    let image = arch_x86::run::load_object(data).map_err(|e| e.to_string())?;
    let cfg = arch_x86::run::RunConfig { max_insns: ELF_BUDGET, ..Default::default() };
    arch_x86::run::run_image(&image, &cfg).map(drop).map_err(|e| e.to_string())
}

/// An s390x ELF object loaded as `acctemu run FILE.o` loads it, then set up and run under
/// the default harness for [`ELF_BUDGET`] instructions.
///
/// # Errors
/// The loader's error, or the run's.
pub fn elf_s390(data: &[u8]) -> Result<(), String> {
    let image = arch_s390::run::load_object(data).map_err(|e| e.to_string())?;
    let cfg = arch_s390::run::RunConfig { max_insns: ELF_BUDGET, ..Default::default() };
    arch_s390::run::run_image(&image, &cfg).map(drop).map_err(|e| e.to_string())
}

/// A tiny image for the harness target: one bundle (ia64) or a return (x86, s390) at
/// [`CODE_BASE`], with a label the harness can name as its entry.
fn stub_image(endian: Endian, code: &[u8]) -> Image {
    let mut image = Image::new(endian);
    image.sections.push(Section {
        name: ".text".into(),
        addr: CODE_BASE,
        data: code.to_vec(),
        kind: SectionKind::Code,
        align: 16,
    });
    image.symbols.push(emu_core::image::Symbol {
        name: "fuzz_entry".into(),
        value: CODE_BASE,
        section: Some(0),
        binding: emu_core::image::Binding::Global,
        kind: emu_core::image::SymbolKind::Function,
        size: code.len() as u64,
    });
    image
}

/// `br.ret.sptk.many b0 ;;` in an MIB bundle with two nops.
const IA64_RET: [u8; 16] = [0x11, 0, 0, 0, 0x01, 0, 0, 0, 0, 0x02, 0, 0x80, 0, 0x80, 0, 0x84];

/// A harness (the one TOML format every core reads) parsed as `--harness H.toml` parses it,
/// then used to set up each core on a stub program and run it to its end, as `acctemu run`
/// would.
///
/// # Errors
/// The parse or set-up diagnostic (`fuzz.toml:line:col: ...`), or a run error.
pub fn harness(data: &[u8]) -> Result<(), String> {
    let h = Harness::parse(HARNESS_NAME, &text(data)).map_err(|e| e.to_string())?;
    let ia64 = arch_ia64::run::RunConfig { harness: Some(h.clone()), max_insns: 16, ..Default::default() };
    let r1 = arch_ia64::run::run_image(&stub_image(Endian::Little, &IA64_RET), &ia64).map(drop);
    let x86 = arch_x86::run::RunConfig { harness: Some(h.clone()), max_insns: 16, ..Default::default() };
    let r2 = arch_x86::run::run_image(&stub_image(Endian::Little, &[0xc3]), &x86).map(drop);
    let s390 = arch_s390::run::RunConfig { harness: Some(h), max_insns: 16, ..Default::default() };
    // br %r14
    let r3 = arch_s390::run::run_image(&stub_image(Endian::Big, &[0x07, 0xfe]), &s390).map(drop);
    r1.map_err(|e| e.to_string())?;
    r2.map_err(|e| e.to_string())?;
    r3.map_err(|e| e.to_string())
}

/// `data` as a unified diff applied to [`PATCH_TRACE`]'s source as `acctemu diff TRACE
/// --patch P` applies it, then the result assembled with the trace's defines.
///
/// # Errors
/// The patch does not parse or apply, or the patched source does not assemble.
pub fn patch(data: &[u8]) -> Result<(), String> {
    let trace = traces::find(PATCH_TRACE).ok_or_else(|| format!("no trace {PATCH_TRACE}"))?;
    let patched = crate::cli::plain_diff::apply_patch(trace.source, trace.source_name, "fuzz.diff", &text(data))
        .map_err(|e| e.to_string())?;
    assemble(trace.source_name, &patched, &trace.preprocess_options(), &loader()).map(drop).map_err(|e| e.to_string())
}

/// `data` (whole bundles) as the `.text` of an image run on the IA-64 core under the default
/// harness and the timing model, for at most [`BUDGET`] instructions.
///
/// # Errors
/// A run error naming the pc.
pub fn run_ia64(data: &[u8]) -> Result<(), String> {
    let code = &data[..(data.len().min(MAX_LEN) / 16) * 16];
    if code.is_empty() {
        return Ok(());
    }
    let cfg = arch_ia64::run::RunConfig { max_insns: BUDGET, ..Default::default() };
    arch_ia64::run::run_image(&stub_image(Endian::Little, code), &cfg).map(drop).map_err(|e| e.to_string())
}

/// `data` as x86-64 code run under the default harness and timing model for at most
/// [`BUDGET`] instructions.
///
/// # Errors
/// A run error naming the pc.
pub fn run_x86(data: &[u8]) -> Result<(), String> {
    let code = &data[..data.len().min(MAX_LEN)];
    if code.is_empty() {
        return Ok(());
    }
    let cfg = arch_x86::run::RunConfig { max_insns: BUDGET, ..Default::default() };
    arch_x86::run::run_image(&stub_image(Endian::Little, code), &cfg).map(drop).map_err(|e| e.to_string())
}

/// `data` as s390x code run under the default harness and timing model for at most
/// [`BUDGET`] instructions.
///
/// # Errors
/// A run error naming the pc.
pub fn run_s390(data: &[u8]) -> Result<(), String> {
    let code = &data[..data.len().min(MAX_LEN)];
    if code.is_empty() {
        return Ok(());
    }
    let cfg = arch_s390::run::RunConfig { max_insns: BUDGET, ..Default::default() };
    arch_s390::run::run_image(&stub_image(Endian::Big, code), &cfg).map(drop).map_err(|e| e.to_string())
}

/// A fuzz target's entry point: `Ok`, or the typed error's message.
pub type Target = fn(&[u8]) -> Result<(), String>;

/// Every target by name, as the fuzz crate and the regression tests list them.
pub const TARGETS: &[(&str, Target)] = &[
    ("preprocess", preprocess),
    ("assemble_ia64", assemble_ia64),
    ("decode_ia64", decode_ia64),
    ("elf_ia64", elf_ia64),
    ("elf_x86", elf_x86),
    ("elf_s390", elf_s390),
    ("harness", harness),
    ("patch", patch),
    ("run_ia64", run_ia64),
    ("run_x86", run_x86),
    ("run_s390", run_s390),
];
