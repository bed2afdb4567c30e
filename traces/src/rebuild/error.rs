//! Why a rebuild failed: one error type for every step.

use std::path::PathBuf;

use crate::patch_tree::TreePatchError;

/// Why a compiled trace could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    /// The trace is assembled by the tool (IA-64), not compiled.
    #[error("{trace} is an {arch} trace: it is assembled, not compiled")]
    NotCompiled {
        /// The trace.
        trace: &'static str,
        /// Its architecture's name.
        arch: &'static str,
    },
    /// A `-D` that is not `NAME[=VALUE]` with a C identifier for NAME.
    #[error("-D{define}: `{name}` is not a macro name (letters, digits and `_`, not starting with a digit)")]
    BadDefine {
        /// The argument as given.
        define: String,
        /// The name part.
        name: String,
    },
    /// The patch does not parse.
    #[error("{0}")]
    Patch(#[from] TreePatchError),
    /// The patch changes a file the trace is not built from.
    #[error("{patch}:{line}: `{file}` is not a source of {trace} (its sources: {sources})")]
    UnknownFile {
        /// The patch's name.
        patch: String,
        /// 1-based line of the file's `--- ` header.
        line: usize,
        /// The path the patch names.
        file: String,
        /// The trace.
        trace: &'static str,
        /// The trace's source files, comma-separated.
        sources: String,
    },
    /// The patch deletes one of the trace's sources.
    #[error("{patch}:{line}: deletes `{file}`, a source {trace} is built from")]
    Deletes {
        /// The patch's name.
        patch: String,
        /// 1-based line of the file's `--- ` header.
        line: usize,
        /// The file.
        file: String,
        /// The trace.
        trace: &'static str,
    },
    /// A hunk's context or removed lines are nowhere in the file.
    #[error("{patch}:{line}: hunk #{hunk} does not apply to {file} of {trace}")]
    DoesNotApply {
        /// The patch's name.
        patch: String,
        /// 1-based line of the hunk's `@@` header.
        line: usize,
        /// 1-based hunk number within its file.
        hunk: usize,
        /// The file.
        file: String,
        /// The trace.
        trace: &'static str,
    },
    /// The compiler or linker is not installed.
    #[error(
        "{trace}: the source changed, so the committed object cannot be used and the trace must be rebuilt, \
         but the {role} `{program}` is not installed (Debian package `{package}`; {env} names another)"
    )]
    Missing {
        /// The trace.
        trace: &'static str,
        /// `compiler` or `linker`.
        role: &'static str,
        /// The program looked for.
        program: String,
        /// The Debian package that installs it.
        package: &'static str,
        /// The environment variable that overrides it.
        env: &'static str,
    },
    /// The compiler or linker ran and failed (its diagnostics follow).
    #[error("{trace}: rebuilding failed: `{command}` in {dir}:\n{stderr}")]
    Tool {
        /// The trace.
        trace: &'static str,
        /// The command line.
        command: String,
        /// The temporary directory it ran in (removed afterwards).
        dir: String,
        /// What it printed on stderr.
        stderr: String,
    },
    /// The rebuilt object lacks a symbol the trace binds a path to.
    #[error(
        "{trace}: the rebuilt object does not define `{symbol}`, which the trace binds to its {path} path \
         (a rebuilt trace keeps its harness and bindings)"
    )]
    Unbound {
        /// The trace.
        trace: &'static str,
        /// The missing symbol.
        symbol: &'static str,
        /// The path kind's name.
        path: &'static str,
    },
    /// The rebuilt object is not an ELF object this module can read.
    #[error("{trace}: the rebuilt object does not parse: {message}")]
    BadObject {
        /// The trace.
        trace: &'static str,
        /// goblin's message.
        message: String,
    },
    /// Writing or reading the temporary build directory failed.
    #[error("{trace}: {what} {}: {source}", path.display())]
    Io {
        /// The trace.
        trace: &'static str,
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The failure.
        #[source]
        source: std::io::Error,
    },
}
