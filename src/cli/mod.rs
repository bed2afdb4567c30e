//! The subcommands' work and rendering; argument parsing stays in `main.rs`.

pub mod asm;
pub mod attribution;
pub mod bench;
pub mod bench_host; // CPU time, peak memory and callgrind counts of `bench` (issue 17, w5-bench)
pub mod binary;
pub mod call_trace; // scenario/diff --trace-out and --pressure (issue 18, w7-traceout)
pub mod catalogue;
pub mod core;
pub mod diff;
pub mod disasm;
pub mod exit;
pub mod kernel;
// Kernel trees (issue 14).
pub mod kernel_tree;
pub mod limits;
pub mod listing;
pub mod patch;
pub mod patch_tree; // several files, -R, offsets and fuzz (issue 14, i14-acct)
pub mod places;
pub mod plain_diff;
pub mod pressure; // --pressure, resource pressure per port (issue 18, w6-perfetto)
pub mod run;
pub mod scenario;
pub mod seed004_v1; // the V.1 tree of Linux 6.1 (issue 14, i14-acct)
pub mod sweep;
#[cfg(test)]
mod test_support;
pub mod trace_out; // --trace-out, Chrome/Perfetto JSON (issue 18, w6-perfetto)

use emu_core::input::{read_file_limited, Limits};
use emu_core::run::RunError;
use std::path::PathBuf;

/// Why a subcommand failed; `main` prints it to stderr and exits with the status
/// [`CliError::status`] gives it (the table is in [`exit`]).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O failure.
        #[source]
        source: std::io::Error,
    },
    /// An object file could not be loaded (any core).
    #[error("{}: {source}", path.display())]
    Object {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (the core's loader error, boxed: some are large).
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The assembler rejected the source; the diagnostics say where and why.
    #[error("{0}")]
    Assemble(emu_core::error::Diagnostics),
    /// A harness could not be used.
    #[error("{0}")]
    Setup(emu_core::error::Diagnostic),
    /// A run could not be set up or failed, on any core (an execution error names the
    /// instruction and its address).
    #[error("{0}")]
    Run(Box<RunError<ExecFailure>>),
    /// A scenario path (or its set-up call) did not run to its end, or its counters could not
    /// be read (any core: the emulator error is boxed).
    #[error("{0}")]
    Scenario(emu_core::scenario::ScenarioError<emu_core::scenario::ArchError>),
    /// `--check` found differences (the text lists them).
    #[error("{0}")]
    SnapshotMismatch(String),
    /// A workload of `acctemu bench` did not load or run to its end.
    #[error("bench: {0}")]
    Bench(String),
    /// The command line is inconsistent, or a flag value cannot be meant.
    #[error("{0}")]
    Usage(String),
    /// Objects could not be linked (linking, issue 14): the message names the objects and
    /// symbols.
    #[error("{0}")]
    Link(Box<emu_core::link::LinkError>),
    /// A kernel tree did not build, link or run (`scenario --tree`, `diff --tree`; issue 14):
    /// the message names the file, line or symbol.
    #[error("{0}")]
    Kernel(String),
    /// A run stopped before its expected end: `main` prints the report to stdout as usual,
    /// this message to stderr, and exits with [`exit::Status::Stopped`].
    #[error("the run stopped before its expected end (a return to the sentinel or rfi): {stop}")]
    Stopped {
        /// The report, for stdout.
        report: String,
        /// Why it stopped.
        stop: String,
    },
    /// The assembled program has no `.text` section to write.
    #[error("{0}: nothing assembled into .text")]
    NoText(String),
    /// The source assembled but no ELF object can be written for it (issue 13).
    #[error("{0}")]
    ObjectFile(String),
    /// A `--patch` is malformed or does not apply (the error names the hunk and its line).
    #[error("{0}")]
    Patch(#[from] patch::PatchError),
    /// A source of a compiled core (x86-64, s390x) did not compile, or its compiler is not
    /// installed (the message names the package).
    #[error("{}: {source}", path.display())]
    Compile {
        /// The source.
        path: PathBuf,
        /// Why.
        #[source]
        source: emu_core::cc::CcError,
    },
    /// A command that reads assembly source was given an object or another binary file.
    #[error("{}: {command}: {what}", path.display())]
    NotSource {
        /// The file.
        path: PathBuf,
        /// The subcommand (`asm`, `run`, `diff`).
        command: String,
        /// What the file is and which command takes it.
        what: String,
    },
    /// A compiled trace changed by `--patch` or `-D` could not be rebuilt: the patch does not
    /// apply, the compiler is missing or failed, a bound symbol is gone.
    #[error("{0}")]
    Rebuild(Box<traces::rebuild::RebuildError>),
}

/// A core's execution error, whichever the core ([`CliError::Run`]).
#[derive(Debug)]
pub struct ExecFailure(pub Box<dyn std::error::Error + Send + Sync>);

impl std::fmt::Display for ExecFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ExecFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl CliError {
    /// Whether the message is a diagnostic that starts with its own place and severity
    /// (`file:line:col: error: ...`, `--set r1=x: error: ...`); `main` prints those as they are
    /// and the others after `acctemu: error: `.
    pub fn is_diagnostic(&self) -> bool {
        match self {
            CliError::Assemble(_) | CliError::Setup(_) => true,
            CliError::Run(e) => matches!(**e, RunError::Assemble(_) | RunError::Setup(_)),
            _ => false,
        }
    }

    /// The run error of any core.
    pub fn run<E: std::error::Error + Send + Sync + 'static>(e: RunError<E>) -> CliError {
        CliError::Run(Box::new(match e {
            RunError::Assemble(d) => RunError::Assemble(d),
            RunError::Elf(e) => RunError::Elf(e),
            RunError::Setup(d) => RunError::Setup(d),
            RunError::Exec { error, executed } => RunError::Exec { error: ExecFailure(Box::new(error)), executed },
        }))
    }

    /// The object `path` did not load: `source` says why.
    pub fn object(path: &std::path::Path, source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> CliError {
        CliError::Object { path: path.to_path_buf(), source: source.into() }
    }
}

/// The size limits of this process: set once by `main` from `--max-input-size` and
/// `--max-output-size`, the defaults otherwise. Kept here rather than in every request so
/// that each file a subcommand reads goes through [`read`] with the same limit.
static LIMITS: std::sync::OnceLock<Limits> = std::sync::OnceLock::new();

/// Sets the size limits for the rest of the process; only the first call has an effect
/// (`main` makes it before running anything).
pub fn set_limits(limits: Limits) {
    let _ = LIMITS.set(limits);
}

/// The size limits in force.
pub fn limits() -> Limits {
    LIMITS.get().copied().unwrap_or_default()
}

/// Preprocessor options with no defines and the process's [`limits`].
pub fn preprocess_options() -> emu_core::preprocess::PreprocessOptions {
    emu_core::preprocess::PreprocessOptions { limits: limits(), ..Default::default() }
}

/// Reads a whole file, at most the input size limit, naming it in the error.
pub fn read(path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    read_file_limited(path, limits().max_input_size)
        .map_err(|e| CliError::Io { path: path.to_path_buf(), source: e.into() })
}

impl<E: std::error::Error + Send + Sync + 'static> From<emu_core::scenario::ScenarioError<E>> for CliError {
    fn from(e: emu_core::scenario::ScenarioError<E>) -> CliError {
        CliError::Scenario(e.erased())
    }
}
