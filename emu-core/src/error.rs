//! Locations and diagnostics shared by every front end (preprocessor, assemblers, loaders).

use std::fmt;
use std::sync::Arc;

/// A place in a source file: file name, 1-based line and 1-based column.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceLoc {
    /// File name as the user gave it (or as an `#include` resolved it).
    pub file: Arc<str>,
    /// 1-based line number in that file.
    pub line: u32,
    /// 1-based column (in characters) on that line; 0 when unknown.
    pub col: u32,
}

impl SourceLoc {
    /// A location in `file` at `line`:`col`.
    pub fn new(file: Arc<str>, line: u32, col: u32) -> SourceLoc {
        SourceLoc { file, line, col }
    }

    /// The same place at another column.
    pub fn with_col(&self, col: u32) -> SourceLoc {
        SourceLoc { file: self.file.clone(), line: self.line, col }
    }

    /// A whole file (or another named input) as the place: shown as the name alone.
    pub fn file(name: impl Into<Arc<str>>) -> SourceLoc {
        SourceLoc { file: name.into(), line: 0, col: 0 }
    }

    /// A command-line argument as the place (`--entry`, `--set r12=stack.top`): shown as the
    /// argument alone.
    pub fn argument(text: impl Into<Arc<str>>) -> SourceLoc {
        SourceLoc::file(text)
    }

    /// The place of an error about an input whose name the caller knows and the reporting
    /// code does not (an image without code, say); [`Diagnostic::in_file`] fills it in.
    pub fn unknown() -> SourceLoc {
        SourceLoc::file(UNKNOWN_INPUT)
    }

    /// Whether this is [`SourceLoc::unknown`].
    pub fn is_unknown(&self) -> bool {
        self.line == 0 && &*self.file == UNKNOWN_INPUT
    }
}

/// The name [`SourceLoc::unknown`] shows until a caller replaces it.
const UNKNOWN_INPUT: &str = "<input>";

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.file)
        } else if self.col == 0 {
            write!(f, "{}:{}", self.file, self.line)
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.col)
        }
    }
}

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The input is suspicious but was processed (e.g. a dependency violation).
    Warning,
    /// The input could not be processed.
    Error,
}

/// A message about user input, tied to the place it concerns.
///
/// Displayed as `file:line:col: error: message`, then the source line (as
/// [`crate::echo::echo_line`] cuts and escapes it) and a caret under the column, then any notes (`file:line:col: note: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// Where the problem is.
    pub loc: SourceLoc,
    /// What is wrong, in one sentence without a trailing period.
    pub message: String,
    /// The text of the source line, when known (shown under the message).
    pub source_line: Option<String>,
    /// Further locations with a message each (e.g. "this is the conflicting write").
    pub notes: Vec<(SourceLoc, String)>,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn error(loc: SourceLoc, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, loc, message: message.into(), source_line: None, notes: Vec::new() }
    }

    /// A warning at `loc`.
    pub fn warning(loc: SourceLoc, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, loc, message: message.into(), source_line: None, notes: Vec::new() }
    }

    /// The same diagnostic showing `line` as its source line.
    pub fn with_source_line(mut self, line: impl Into<String>) -> Diagnostic {
        self.source_line = Some(line.into());
        self
    }

    /// The same diagnostic located at `file` when its place was [`SourceLoc::unknown`] (an
    /// error about a whole input, raised by code that does not know the input's name).
    pub fn in_file(mut self, file: &str) -> Diagnostic {
        if self.loc.is_unknown() {
            self.loc = SourceLoc::file(file);
        }
        self
    }

    /// The same diagnostic with one more note.
    pub fn with_note(mut self, loc: SourceLoc, message: impl Into<String>) -> Diagnostic {
        self.notes.push((loc, message.into()));
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        // A message can quote user text (a huge token, control bytes): shown through the echo.
        write!(f, "{}: {}: {}", self.loc, kind, crate::echo::escape_message(&self.message))?;
        if let Some(line) = &self.source_line {
            // Through the shared echo: a line can be megabytes long or hold control bytes.
            let echo = crate::echo::echo_line(line, self.loc.col);
            write!(f, "\n    {}", echo.text)?;
            if let Some(pad) = echo.caret_pad {
                write!(f, "\n    {pad}^")?;
            }
        }
        for (loc, note) in &self.notes {
            write!(f, "\n{loc}: note: {}", crate::echo::escape_message(note))?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// One or more diagnostics; the error type of whole-file operations such as assembling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics(vec![d])
    }
}
