//! The subcommands' work and rendering; argument parsing stays in `main.rs`.

pub mod asm;
pub mod catalogue;
pub mod compiled;
pub mod diff;
pub mod disasm;
pub mod listing;
pub mod plain_diff;
pub mod run;
pub mod scenario;
pub mod scenario_s390;
pub mod scenario_x86;
pub mod sweep;

use std::path::PathBuf;

/// Why a subcommand failed; `main` prints it to stderr and exits with status 1.
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
    /// The command line is inconsistent.
    #[error("{0}")]
    Usage(String),
    /// The assembled program has no `.text` section to write.
    #[error("{0}: nothing assembled into .text")]
    NoText(String),
}

/// Reads a whole file, naming it in the error.
pub fn read(path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|source| CliError::Io { path: path.to_path_buf(), source })
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
