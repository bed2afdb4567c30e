//! `acctemu asm FILE.S`: assemble, report warnings, write `.text` and/or a listing.

use super::{listing, read, CliError};
use arch_ia64::asm::{assemble, Assembly};
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
    /// Where to write the raw `.text` bytes.
    pub output: Option<PathBuf>,
    /// Whether to render the per-slot listing.
    pub listing: bool,
    /// `-U`, `-include` and the kernel-tree flags.
    pub pp: super::kernel::PpArgs,
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
    let asm = assemble(&name, &text, &pp.options, &pp.loader()).map_err(CliError::Assemble)?;
    let code = text_bytes(&asm, &name)?;
    if let Some(out) = &req.output {
        write(out, code)?;
    }
    let stdout = if req.listing {
        listing::render(&asm.listing)
    } else {
        let written = req.output.as_ref().map_or(String::new(), |o| format!(" to {}", o.display()));
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
