//! Bounded reading of every file the tool takes as input, and the size limits it enforces.
//!
//! A file is read through [`read_file_limited`], which never reads more than the limit plus
//! one byte: `/dev/zero`, `/dev/urandom` or a huge file given as a source, an include, a
//! harness, an object or a patch fails quickly with an error naming the file and the limit,
//! instead of reading gigabytes. The limits are [`Limits`]; the command line overrides them
//! with `--max-input-size` and `--max-output-size`.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The default for [`Limits::max_input_size`]: 16 MiB, nearly twice a 1,000,000-instruction
/// source (9 MB of `nop.m 0` lines). The assembler holds about 1 KB per instruction (its
/// statements, bundles and listing), so this bounds its memory to a couple of GB.
pub const DEFAULT_MAX_INPUT_SIZE: u64 = 16 << 20;

/// The default for [`Limits::max_output_size`]: 16 MiB of `.skip` and `.align` output. Padding
/// in a code section is filler bundles, each costing as much memory as an instruction, so
/// 16 MiB of it (a million bundles) costs what the largest default input does.
pub const DEFAULT_MAX_OUTPUT_SIZE: u64 = 16 << 20;

/// Size limits on what the tool reads and produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest file read, in bytes (each file: a source, every include, a harness, ...).
    pub max_input_size: u64,
    /// Largest total, in bytes, that an assembly's `.skip`/`.space` and `.align` padding may
    /// add over all its sections (`.bss` included). These are the only directives whose
    /// output is not bounded by the input's size: an instruction or data directive yields a
    /// few bytes per source byte at most.
    pub max_output_size: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_input_size: DEFAULT_MAX_INPUT_SIZE, max_output_size: DEFAULT_MAX_OUTPUT_SIZE }
    }
}

/// Why a file could not be read. The message does not repeat the path: callers put it in
/// front (`FILE: message`), or in the diagnostic's location for an include.
#[derive(Debug)]
pub enum InputError {
    /// The operating system refused (no such file, permission, not UTF-8, ...).
    Io(std::io::Error),
    /// The path names a directory.
    Directory,
    /// The file holds more than the limit.
    TooLarge {
        /// The limit in bytes.
        limit: u64,
        /// The file's size when the file system knows it (a regular file).
        size: Option<u64>,
        /// What the path is when it is not a regular file ("character device", "FIFO", ...).
        special: Option<&'static str>,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) => write!(f, "{e}"),
            InputError::Directory => write!(f, "is a directory, not a file"),
            InputError::TooLarge { limit, size: Some(size), .. } => write!(
                f,
                "file is {size} bytes, over the input size limit of {limit} bytes (raise it with --max-input-size)"
            ),
            InputError::TooLarge { limit, special, .. } => write!(
                f,
                "{} gives more than the input size limit of {limit} bytes (raise it with --max-input-size)",
                special.unwrap_or("file")
            ),
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<InputError> for std::io::Error {
    /// Keeps the kind of an OS error (an include search goes on past `NotFound`); the size
    /// errors become `InvalidData` with their message.
    fn from(e: InputError) -> std::io::Error {
        match e {
            InputError::Io(io) => io,
            InputError::Directory => std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()),
            InputError::TooLarge { .. } => std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
        }
    }
}

/// What a non-regular file is, for messages.
fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let ft = meta.file_type();
    if ft.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_char_device() {
            return Some("character device");
        }
        if ft.is_block_device() {
            return Some("block device");
        }
        if ft.is_fifo() {
            return Some("FIFO");
        }
        if ft.is_socket() {
            return Some("socket");
        }
    }
    Some("special file")
}

/// Reads the whole file at `path`, refusing one of more than `limit` bytes.
///
/// A regular file larger than the limit is refused from its metadata without reading it;
/// anything else (a device, a FIFO) is read up to `limit + 1` bytes, so an endless source
/// such as `/dev/zero` costs at most the limit in time and memory.
///
/// # Errors
/// [`InputError::Io`] when the file cannot be opened or read, [`InputError::Directory`] for
/// a directory, [`InputError::TooLarge`] past the limit.
pub fn read_file_limited(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let meta = std::fs::metadata(path).map_err(InputError::Io)?;
    if meta.is_dir() {
        return Err(InputError::Directory);
    }
    let special = special_kind(&meta);
    if special.is_none() && meta.len() > limit {
        return Err(InputError::TooLarge { limit, size: Some(meta.len()), special });
    }
    let file = std::fs::File::open(path).map_err(InputError::Io)?;
    // The length is only a hint (the file may grow); never reserve more than the limit.
    let hint = usize::try_from(meta.len().min(limit)).unwrap_or(0);
    let mut data = Vec::with_capacity(hint);
    file.take(limit.saturating_add(1)).read_to_end(&mut data).map_err(InputError::Io)?;
    if data.len() as u64 > limit {
        return Err(InputError::TooLarge { limit, size: special.is_none().then_some(data.len() as u64), special });
    }
    Ok(data)
}

/// [`read_file_limited`] for text: the bytes must be UTF-8.
///
/// # Errors
/// As [`read_file_limited`], and [`InputError::Io`] (`InvalidData`) for text that is not UTF-8.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, InputError> {
    let bytes = read_file_limited(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        InputError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (invalid byte at offset {at})"),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, data: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("acctemu-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, data).unwrap();
        path
    }

    #[test]
    fn files_up_to_the_limit_are_read_and_larger_ones_refused() {
        let path = temp("ten", b"0123456789");
        assert_eq!(read_file_limited(&path, 10).unwrap(), b"0123456789");
        let e = read_file_limited(&path, 9).unwrap_err();
        assert_eq!(
            e.to_string(),
            "file is 10 bytes, over the input size limit of 9 bytes (raise it with --max-input-size)"
        );
    }

    #[test]
    fn directories_and_missing_files_are_named() {
        let dir = std::env::temp_dir();
        assert_eq!(read_file_limited(&dir, 100).unwrap_err().to_string(), "is a directory, not a file");
        let e = read_file_limited(Path::new("/nonexistent/acctemu/x.S"), 100).unwrap_err();
        assert!(matches!(&e, InputError::Io(io) if io.kind() == std::io::ErrorKind::NotFound), "{e}");
        assert_eq!(std::io::Error::from(e).kind(), std::io::ErrorKind::NotFound);
    }

    /// `/dev/zero` never ends: only the limit plus one byte is read.
    #[cfg(unix)]
    #[test]
    fn endless_devices_stop_at_the_limit() {
        let e = read_file_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "character device gives more than the input size limit of 1048576 bytes (raise it with --max-input-size)"
        );
        assert!(read_file_limited(Path::new("/dev/null"), 10).unwrap().is_empty());
    }

    #[test]
    fn text_must_be_utf8() {
        let path = temp("latin1", b"ok\xe9");
        assert_eq!(read_text_limited(&path, 100).unwrap_err().to_string(), "not UTF-8 text (invalid byte at offset 2)");
    }
}
