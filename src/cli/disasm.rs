//! `acctemu disasm FILE`: objdump-style text of an ELF object or of raw bundles.

use super::{read, CliError};
use arch_ia64::{disasm, elf};
use std::path::Path;

/// The disassembly of `path`: objdump's `-d` text for an ELF object (detected by its
/// magic; `-dr` with `reloc`), objdump's lines without headers for anything else (raw
/// bundles at `base`, which have no relocations).
///
/// # Errors
/// The file cannot be read, or starts like an ELF file but is not a loadable IA-64 object.
pub fn run(path: &Path, base: u64, reloc: bool) -> Result<String, CliError> {
    let bytes = read(path)?;
    if elf::is_elf(&bytes) {
        disasm::objdump_object(&path.display().to_string(), &bytes, reloc)
            .map_err(|source| CliError::object(path, source))
    } else {
        Ok(disasm::disassemble_bytes(&bytes, base))
    }
}
