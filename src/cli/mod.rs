//! The subcommands' work and rendering; argument parsing stays in `main.rs`.

pub mod asm;
pub mod bench;
pub mod bench_host; // CPU time, peak memory and callgrind counts of `bench` (issue 17, w5-bench)
pub mod binary;
pub mod catalogue;
pub mod compiled;
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
pub mod plain_diff;
pub mod run;
pub mod scenario;
pub mod scenario_s390;
pub mod scenario_x86;
pub mod seed004_v1; // the V.1 tree of Linux 6.1 (issue 14, i14-acct)
pub mod sweep;
#[cfg(test)]
mod test_support;

use emu_core::input::{read_file_limited, Limits};
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
    /// An object file could not be loaded.
    #[error("{}: {source}", path.display())]
    Elf {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: arch_ia64::elf::ElfError,
    },
    /// The assembler rejected the source; the diagnostics say where and why.
    #[error("{0}")]
    Assemble(emu_core::error::Diagnostics),
    /// A harness could not be used.
    #[error("{0}")]
    Setup(emu_core::error::Diagnostic),
    /// A run could not be set up or failed.
    #[error("{0}")]
    Run(arch_ia64::run::RunError),
    /// A scenario path did not run to its end, or its counters could not be read.
    #[error("{0}")]
    Scenario(arch_ia64::scenario::ScenarioError),
    /// An x86 scenario path did not run to its end.
    #[error("{0}")]
    ScenarioX86(arch_x86::scenario::ScenarioError),
    /// An s390x scenario path (or its set-up call) did not run to its end.
    #[error("{0}")]
    ScenarioS390(arch_s390::scenario::ScenarioError),
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
    /// An x86-64 or s390x object could not be loaded.
    #[error("{}: {source}", path.display())]
    Object {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (boxed: its relocation variants are large).
        #[source]
        source: Box<emu_core::elf::ElfError>,
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
    /// An x86-64 run failed (the error names the instruction and its address).
    #[error("{0}")]
    RunX86(Box<arch_x86::run::RunError>),
    /// An s390x run failed (the error names the instruction and its address).
    #[error("{0}")]
    RunS390(Box<arch_s390::run::RunError>),
}

impl CliError {
    /// Whether the message is a diagnostic that starts with its own place and severity
    /// (`file:line:col: error: ...`, `--set r1=x: error: ...`); `main` prints those as they are
    /// and the others after `acctemu: error: `.
    pub fn is_diagnostic(&self) -> bool {
        use arch_ia64::run::RunError as Ia64;
        match self {
            CliError::Assemble(_) | CliError::Setup(_) | CliError::Run(Ia64::Assemble(_) | Ia64::Setup(_)) => true,
            CliError::RunX86(e) => matches!(**e, arch_x86::run::RunError::Setup(_)),
            CliError::RunS390(e) => matches!(**e, arch_s390::run::RunError::Setup(_)),
            _ => false,
        }
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

impl From<arch_ia64::scenario::ScenarioError> for CliError {
    fn from(e: arch_ia64::scenario::ScenarioError) -> CliError {
        CliError::Scenario(e)
    }
}

impl From<arch_x86::scenario::ScenarioError> for CliError {
    fn from(e: arch_x86::scenario::ScenarioError) -> CliError {
        CliError::ScenarioX86(e)
    }
}

impl From<arch_s390::scenario::ScenarioError> for CliError {
    fn from(e: arch_s390::scenario::ScenarioError) -> CliError {
        CliError::ScenarioS390(e)
    }
}
