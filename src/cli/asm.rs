//! `acctemu asm FILE.S`: assemble, report warnings, write an ELF object (or with `--raw` the
//! `.text` bytes) and/or a listing.

use super::{listing, read, CliError};
use arch_ia64::asm::Assembly;
use emu_core::error::Diagnostic;
use std::path::{Path, PathBuf};

/// What `acctemu asm` was asked to do.
#[derive(Debug, Clone, Default)]
pub struct AsmRequest {
    /// The source file.
    pub file: PathBuf,
    /// `-D NAME[=VALUE]` arguments, in order.
    pub defines: Vec<String>,
    /// `-I DIR` arguments, in order.
    pub include_dirs: Vec<PathBuf>,
    /// Where to write the output: an ELF relocatable object, or with `raw` the `.text` bytes.
    pub output: Option<PathBuf>,
    /// Write the raw `.text` bytes instead of an ELF object.
    pub raw: bool,
    /// `-m` options (`constant-gp`, `auto-pic`): the object's e_flags, as GNU as sets them.
    pub machine: Vec<String>,
    /// Whether to render the per-slot listing.
    pub listing: bool,
    /// `-U`, `-include` and the kernel-tree flags.
    pub pp: super::kernel::PpArgs,
    /// GNU as's `-x` options, last one wins (`""` for a bare `-x`, `"auto"` for `-xauto`, ...);
    /// none given means explicit mode, as the kernel assembles (issue 13).
    pub dv_modes: Vec<String>,
}

/// What a successful run produced: text for stdout and warnings for stderr.
#[derive(Debug, Clone, Default)]
pub struct AsmOutcome {
    /// The listing, or a one-line summary when no listing was asked for.
    pub stdout: String,
    /// The assembler's warnings (dependency violations and the like).
    pub warnings: Vec<Diagnostic>,
}

/// Assembles the request's file and writes its `.text` bytes when asked.
///
/// # Errors
/// The source cannot be read, the assembler reports errors, or the output cannot be written.
pub fn run(req: &AsmRequest) -> Result<AsmOutcome, CliError> {
    let bytes = read(&req.file)?;
    let text = super::binary::source_text(&req.file, &bytes, "asm")?;
    let pp = req.pp.prepare(&req.defines, &req.include_dirs)?;
    let name = req.file.display().to_string();
    let mut e_flags = arch_ia64::asm::object::EF_IA_64_ABI64;
    for m in &req.machine {
        e_flags |= match m.as_str() {
            "constant-gp" => arch_ia64::asm::object::EF_IA_64_CONS_GP,
            "auto-pic" => arch_ia64::asm::object::EF_IA_64_NOFUNCDESC_CONS_GP,
            other => {
                return Err(CliError::Usage(format!(
                    "asm: unknown machine option `-m{other}` (known: -mconstant-gp, -mauto-pic)"
                )))
            }
        };
    }
    let mut mode = arch_ia64::asm::DvMode::Explicit;
    for arg in &req.dv_modes {
        mode = arch_ia64::asm::DvMode::from_gas_arg(arg).map_err(|e| CliError::Usage(format!("asm: {e}")))?;
    }
    let mut asm =
        arch_ia64::asm::assemble_in_mode(&name, &text, &pp.options, &pp.loader(), mode).map_err(CliError::Assemble)?;
    asm.elf.e_flags = e_flags;
    let code = text_bytes(&asm, &name)?;
    let mut written = String::new();
    if let Some(out) = &req.output {
        if req.raw {
            write(out, code)?;
            written = format!(" to {}", out.display());
        } else {
            let object = asm.object_file().map_err(|e| CliError::ObjectFile(e.to_string()))?;
            write(out, &object)?;
            written = format!(", ELF object of {} bytes to {}", object.len(), out.display());
        }
    }
    let stdout = if req.listing {
        listing::render(&asm.listing)
    } else {
        format!("{name}: {} bytes of .text ({} bundles){written}\n", code.len(), code.len() / 16)
    };
    Ok(AsmOutcome { stdout, warnings: asm.warnings })
}

fn text_bytes<'a>(asm: &'a Assembly, name: &str) -> Result<&'a [u8], CliError> {
    asm.image.section(".text").map(|s| s.data.as_slice()).ok_or_else(|| CliError::NoText(name.to_string()))
}

fn write(path: &Path, data: &[u8]) -> Result<(), CliError> {
    std::fs::write(path, data).map_err(|source| CliError::Io { path: path.to_path_buf(), source })
}
