//! The C-preprocessor subset kernel `.S` files need, with a map back to the sources.
//!
//! The output keeps one line per input line: directive lines, skipped lines and lines
//! swallowed by a backslash splice or a multi-line comment come out empty, and an
//! `#include` line is replaced by the lines of the included file. [`LineMap`] gives the
//! origin of every output line.
//!
//! Assembly-specific choices, matching `cpp -x assembler-with-cpp`: `#` starts a
//! directive only as the first token of a line; `;;` is not a comment; `.` is not part
//! of identifiers; unterminated quotes are ordinary characters; invalid `##` pastes
//! keep the separate tokens. `__ASSEMBLER__` is predefined to 1, and `__FILE__` and
//! `__LINE__` work. Unlike cpp, unknown directives are errors, and a function-like
//! macro invocation must close its parentheses on the same logical line.
//!
//! A line with macros comes out spelled as cpp prints it: tokens separated where the source
//! had whitespace, and at the edges of an expansion or a substituted argument wherever cpp's
//! printer adds a space so that two tokens cannot read as one (`16 +2` for `TI_FLAGS+LONG`).
//! `-include` files run before the main file; [`OverlayLoader`] serves generated headers
//! from memory (see `crate::kernel` for a kernel tree's).
//!
//! Not supported: `#include_next`, `__VA_OPT__`, `#assert`, `__COUNTER__` and other
//! GNU built-ins.

mod directive;
mod expand;
mod expr;
mod lines;
mod overlay;
mod token;
mod verbatim;

pub use overlay::OverlayLoader;
pub use verbatim::verbatim;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::error::{Diagnostic, SourceLoc};
use crate::input::{read_text_limited, InputError, Limits};
use directive::Pp;

/// A problem on the current logical line: column and message.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PpError {
    col: u32,
    message: String,
}

/// Command-line style settings: `-D`, `-U` and `-I`, and the size limits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreprocessOptions {
    /// `-D NAME=VALUE` pairs in order; `NAME` may be `F(x)` for a function-like macro.
    pub defines: Vec<(String, String)>,
    /// `-U NAME`, applied after all `defines` (so `-U` wins whatever the order).
    pub undefines: Vec<String>,
    /// `-I` directories, searched in order after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-include FILE` arguments, in order: each is processed as if `#include "FILE"` were
    /// a line before the main file's first, searched first as given (relative to the
    /// working directory), then in `include_dirs`, as cpp does.
    pub forced_includes: Vec<PathBuf>,
    /// Size limits: each included file may hold at most `max_input_size` bytes, and an
    /// assembler fed by this preprocessor produces at most `max_output_size` bytes.
    pub limits: Limits,
}

impl PreprocessOptions {
    /// Options with nothing set.
    pub fn new() -> PreprocessOptions {
        PreprocessOptions::default()
    }

    /// The same options plus `-D name=value`.
    pub fn defined(mut self, name: impl Into<String>, value: impl Into<String>) -> PreprocessOptions {
        self.defines.push((name.into(), value.into()));
        self
    }

    /// The same options plus `-U name`.
    pub fn undefined(mut self, name: impl Into<String>) -> PreprocessOptions {
        self.undefines.push(name.into());
        self
    }

    /// The same options plus `-I dir`.
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> PreprocessOptions {
        self.include_dirs.push(dir.into());
        self
    }

    /// The same options plus `-include file`.
    pub fn forced_include(mut self, file: impl Into<PathBuf>) -> PreprocessOptions {
        self.forced_includes.push(file.into());
        self
    }
}

/// Split a `-D` argument: `NAME=VALUE` gives `(NAME, VALUE)`, a bare `NAME` means `1`.
pub fn parse_define(arg: &str) -> (String, String) {
    match arg.split_once('=') {
        Some((name, value)) => (name.to_string(), value.to_string()),
        None => (arg.to_string(), "1".to_string()),
    }
}

/// Where `#include`d text comes from.
pub trait SourceLoader {
    /// The text of the file at `path`; `ErrorKind::NotFound` lets the search go on.
    ///
    /// # Errors
    /// Any I/O error reading the file.
    fn load(&self, path: &Path) -> std::io::Result<String>;

    /// [`load`](SourceLoader::load), refusing a file of more than `limit` bytes. The
    /// default loads the whole text first; a loader that reads files must override it so
    /// that an endless file (`/dev/zero`) stops at the limit.
    ///
    /// # Errors
    /// As [`load`](SourceLoader::load), and `InvalidData` past the limit.
    fn load_limited(&self, path: &Path, limit: u64) -> std::io::Result<String> {
        let text = self.load(path)?;
        if text.len() as u64 > limit {
            let e = InputError::TooLarge { limit, size: Some(text.len() as u64), special: None };
            return Err(e.into());
        }
        Ok(text)
    }

    /// The bytes of the file at `path` (for `.incbin`), refusing more than `limit` bytes.
    /// The default serves the text [`load_limited`](SourceLoader::load_limited) gives; a
    /// loader that reads files overrides it so that a binary file need not be UTF-8.
    ///
    /// # Errors
    /// As [`load_limited`](SourceLoader::load_limited).
    fn load_bytes(&self, path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
        self.load_limited(path, limit).map(String::into_bytes)
    }
}

/// Reads included files from the file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct FsLoader;

impl SourceLoader for FsLoader {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        self.load_limited(path, Limits::default().max_input_size)
    }

    fn load_limited(&self, path: &Path, limit: u64) -> std::io::Result<String> {
        Ok(read_text_limited(path, limit)?)
    }

    fn load_bytes(&self, path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
        Ok(crate::input::read_file_limited(path, limit)?)
    }
}

/// Serves included files from memory (tests, or sources embedded in a scenario).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemLoader {
    files: HashMap<PathBuf, String>,
}

/// `a/./b` and `./b` name the same in-memory file as `a/b` and `b`.
fn normalize(path: &Path) -> PathBuf {
    path.components().filter(|c| *c != Component::CurDir).collect()
}

impl MemLoader {
    /// An empty set of files.
    pub fn new() -> MemLoader {
        MemLoader::default()
    }

    /// Add (or replace) the file at `path`.
    pub fn insert(&mut self, path: impl AsRef<Path>, text: impl Into<String>) {
        self.files.insert(normalize(path.as_ref()), text.into());
    }

    /// The files, in no particular order.
    pub fn files(&self) -> impl Iterator<Item = (&Path, &str)> {
        self.files.iter().map(|(p, t)| (p.as_path(), t.as_str()))
    }

    /// The same loader with one more file.
    pub fn with(mut self, path: impl AsRef<Path>, text: impl Into<String>) -> MemLoader {
        self.insert(path, text);
        self
    }
}

impl SourceLoader for MemLoader {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, format!("{}: not found", path.display())))
    }
}

/// Where one output line came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineOrigin {
    /// File name (the main file's name as given, or an include's resolved path).
    pub file: Arc<str>,
    /// 1-based line in that file.
    pub line: u32,
    /// The output line has the same columns as the source line (no macro expanded,
    /// no splice or multi-line comment), so columns can be passed through.
    pub verbatim: bool,
}

/// Output line number (1-based) to original file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMap {
    main: Arc<str>,
    origins: Vec<LineOrigin>,
    sources: lines::SourceSet,
}

impl LineMap {
    /// Origin of output line `line`, with column 0.
    ///
    /// Line 0 and lines past the end (an assembler's "unexpected end of file") map to
    /// the last line's origin; an empty output maps to line 1 of the main file.
    pub fn origin(&self, line: u32) -> SourceLoc {
        self.origin_col(line, 0)
    }

    /// Origin of column `col` of output line `line`: the column is kept when the line
    /// is [verbatim](LineOrigin::verbatim), otherwise it becomes 0 (unknown).
    pub fn origin_col(&self, line: u32, col: u32) -> SourceLoc {
        if let Some(o) = self.get(line) {
            return SourceLoc::new(o.file.clone(), o.line, if o.verbatim { col } else { 0 });
        }
        match self.origins.last() {
            Some(o) => SourceLoc::new(o.file.clone(), o.line, 0),
            None => SourceLoc::new(self.main.clone(), 1, 0),
        }
    }

    /// The full origin record of output line `line`.
    pub fn get(&self, line: u32) -> Option<&LineOrigin> {
        self.origins.get((line as usize).checked_sub(1)?)
    }

    /// The original text of the source line output line `line` came from (for a
    /// diagnostic's source line).
    pub fn source_line(&self, line: u32) -> Option<&str> {
        let o = self.get(line)?;
        self.sources.line(&o.file, o.line)
    }

    /// Number of output lines.
    pub fn len(&self) -> usize {
        self.origins.len()
    }

    /// Whether there are no output lines.
    pub fn is_empty(&self) -> bool {
        self.origins.is_empty()
    }
}

/// Result of [`preprocess`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preprocessed {
    /// The output, one `\n`-terminated line per [`LineMap`] entry.
    pub text: String,
    /// Origin of every output line.
    pub lines: LineMap,
    /// `#warning` messages, in order.
    pub warnings: Vec<Diagnostic>,
}

/// Preprocess `text`, the contents of `file`, loading includes through `loader`.
///
/// # Errors
/// The first problem found, as a [`Diagnostic`] with file, line, column (when known)
/// and the source line: bad directives, `#error`, unbalanced conditionals, bad
/// expressions, missing includes, runaway expansion or include depth over 64.
pub fn preprocess(
    file: &str,
    text: &str,
    opts: &PreprocessOptions,
    loader: &dyn SourceLoader,
) -> Result<Preprocessed, Diagnostic> {
    let mut pp = Pp {
        macros: HashMap::new(),
        opts,
        loader,
        out: String::new(),
        map: Vec::new(),
        sources: lines::SourceSet::default(),
        warnings: Vec::new(),
    };
    let cmdline = |e: PpError| Diagnostic::error(SourceLoc::new(Arc::from("<command-line>"), 1, 0), e.message);
    pp.define("__ASSEMBLER__", "1").map_err(cmdline)?;
    for (name, value) in &opts.defines {
        pp.define(name, value).map_err(cmdline)?;
    }
    for name in &opts.undefines {
        pp.macros.remove(name);
    }
    let main: Arc<str> = Arc::from(file);
    for forced in &opts.forced_includes {
        pp.forced_include(forced)?;
    }
    pp.run_file(main.clone(), text, 0)?;
    Ok(Preprocessed {
        text: pp.out,
        lines: LineMap { main, origins: pp.map, sources: pp.sources },
        warnings: pp.warnings,
    })
}

impl LineMap {
    /// The text of the original source line that `loc` names (file and line), if that file
    /// was read during preprocessing.
    pub fn source_line_at(&self, loc: &SourceLoc) -> Option<&str> {
        self.sources.line(&loc.file, loc.line)
    }
}
