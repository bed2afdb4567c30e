//! `.incbin "file"[, skip[, count]]`: files a source includes as bytes.
//!
//! The files are read before assembly starts, so the assembler itself never touches a
//! loader. The search is gas's: the name as written (relative to the current directory, or
//! absolute), then each `-I` directory in order.

use super::syntax::{DirArg, Statement, StmtKind};
use emu_core::preprocess::{PreprocessOptions, SourceLoader};
use std::collections::HashMap;
use std::path::Path;

/// Each file name an `.incbin` of `statements` gives, with its bytes or why it could not be
/// read (reported where the directive is).
pub(crate) fn read_files(
    statements: &[Statement],
    opts: &PreprocessOptions,
    loader: &dyn SourceLoader,
) -> HashMap<String, Result<Vec<u8>, String>> {
    let mut files = HashMap::new();
    for stmt in statements {
        let StmtKind::Directive(name, args) = &stmt.kind else { continue };
        if name != ".incbin" {
            continue;
        }
        let Some(DirArg::Str(file)) = args.first().map(|a| &a.value) else { continue };
        if files.contains_key(file) {
            continue;
        }
        files.insert(file.clone(), find(file, opts, loader));
    }
    files
}

fn find(file: &str, opts: &PreprocessOptions, loader: &dyn SourceLoader) -> Result<Vec<u8>, String> {
    let limit = opts.limits.max_input_size;
    let given = Path::new(file);
    let candidates = std::iter::once(given.to_path_buf())
        .chain(opts.include_dirs.iter().filter(|_| given.is_relative()).map(|d| d.join(given)));
    for path in candidates {
        match loader.load_bytes(&path, limit) {
            Ok(bytes) => return Ok(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
        }
    }
    // gas's message.
    Err(format!("file not found: {file}"))
}

/// The part of `bytes` that `skip` and `count` select, or gas's error.
pub(crate) fn select(bytes: &[u8], skip: i64, count: Option<i64>) -> Result<&[u8], String> {
    let size = bytes.len() as i64;
    let end = count.map_or(size, |c| skip.saturating_add(c));
    if skip < 0 || count.is_some_and(|c| c < 0) || skip > size || end > size {
        return Err(format!(
            "skip ({skip}) or count ({}) invalid for file size ({size})",
            count.unwrap_or(size - skip.clamp(0, size))
        ));
    }
    Ok(&bytes[skip as usize..end as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    use emu_core::preprocess::MemLoader;

    fn data_of(src: &str, loader: &MemLoader) -> Result<Vec<u8>, String> {
        let opts = PreprocessOptions::new().include_dir("inc");
        let a = crate::asm::assemble("t.s", src, &opts, loader).map_err(|d| d.to_string())?;
        Ok(a.object.iter().find(|s| s.name == ".data").map(|s| s.data.clone()).unwrap_or_default())
    }

    #[test]
    fn the_file_is_found_as_given_or_under_an_include_directory() {
        let mut loader = MemLoader::new();
        loader.insert("inc/blob", "ABCDEF".to_string());
        assert_eq!(data_of("\t.data\n\t.incbin \"blob\",1,3\n", &loader).unwrap(), b"BCD");
        assert_eq!(data_of("\t.data\n\t.incbin \"inc/blob\"\n", &loader).unwrap(), b"ABCDEF");
        let e = data_of("\t.data\n\t.incbin \"nothing\"\n", &loader).unwrap_err();
        assert!(e.contains("t.s:2:2") && e.contains("file not found: nothing"), "{e}");
    }

    #[test]
    fn skip_and_count_select_a_slice_or_fail_as_gas_does() {
        let b = [1, 2, 3, 4];
        assert_eq!(select(&b, 0, None), Ok(&b[..]));
        assert_eq!(select(&b, 1, Some(2)), Ok(&b[1..3]));
        assert_eq!(select(&b, 4, None), Ok(&b[4..]));
        assert_eq!(select(&b, 2, Some(3)), Err("skip (2) or count (3) invalid for file size (4)".into()));
        assert!(select(&b, 5, None).is_err());
        assert!(select(&b, -1, None).is_err());
    }
}
