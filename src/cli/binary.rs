//! Source files that are not text: an ELF object or other binary given to a command that
//! reads assembly source is refused with what the file is and which command takes it, instead
//! of assembling its bytes as lines.

use super::CliError;
use std::path::Path;

/// What to tell the user about `bytes` if they are not source text, or `None` for text.
fn binary_problem(bytes: &[u8]) -> Option<String> {
    if emu_core::elf::is_elf(bytes) {
        let machine = emu_core::elf::machine(bytes).map_or_else(
            || "truncated header".to_string(),
            |m| format!("{}, e_machine {m}", emu_core::elf::machine_name(m)),
        );
        return Some(format!(
            "an ELF object ({machine}), not assembly source: `acctemu run FILE` runs IA-64, x86-64 and s390x \
             objects, `acctemu disasm FILE` disassembles IA-64 ones"
        ));
    }
    let raw = "a binary file, not assembly source (`acctemu disasm --base ADDR FILE` disassembles raw IA-64 bundles)";
    if let Some(at) = bytes.iter().position(|b| *b == 0) {
        return Some(format!("{raw}: it has a NUL byte at offset {at:#x}"));
    }
    if let Err(e) = std::str::from_utf8(bytes) {
        let at = e.valid_up_to();
        let byte = bytes.get(at).copied().unwrap_or(0);
        return Some(format!("{raw}: it is not UTF-8 text (byte {byte:#04x} at offset {at:#x})"));
    }
    None
}

/// The text of the source file `path` read as `bytes`, for `command` (`asm`, `run`, `diff`).
///
/// # Errors
/// [`CliError::NotSource`] when the bytes are an ELF object or not text.
pub fn source_text(path: &Path, bytes: &[u8], command: &str) -> Result<String, CliError> {
    match binary_problem(bytes) {
        Some(what) => Err(CliError::NotSource { path: path.to_path_buf(), command: command.to_string(), what }),
        None => Ok(String::from_utf8_lossy(bytes).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_source_and_binaries_are_named() {
        assert_eq!(binary_problem(b"\t.text\nf:\n\tnop.m 0\n"), None);
        assert_eq!(binary_problem("// caf\u{e9}\n".as_bytes()), None);
        let mut elf = vec![0u8; 64];
        elf[..6].copy_from_slice(b"\x7fELF\x02\x01");
        elf[18] = 62;
        assert!(binary_problem(&elf).is_some_and(|m| m.starts_with("an ELF object (x86-64, e_machine 62)")));
        assert!(binary_problem(b"ab\0c").is_some_and(|m| m.ends_with("a NUL byte at offset 0x2")));
        assert!(binary_problem(b"ab\xffc").is_some_and(|m| m.ends_with("(byte 0xff at offset 0x2)")));
    }
}
