//! The exit statuses of `acctemu`, in one table: every subcommand ends with one of these, so a
//! script can tell a bad input from a bad command line from code that did not run to its end.
//!
//! | status | meaning |
//! |-------:|---------|
//! | 0 | done: the code ran to its expected end (return to the sentinel, `rfi` where a path ends with it), a `--check` matched |
//! | 1 | an error in the input (file, source, object, harness, patch, snapshot) or a `--check` that found differences |
//! | 2 | a usage error: an unknown flag or subcommand, a malformed or meaningless flag value, a workload refused as too large |
//! | 3 | the emulated code stopped before its expected end: instruction budget exhausted, interruption or fault, undecodable or unsupported instruction, a halt |
//!
//! A panic of the tool itself exits with Rust's 101; no input should reach one.

use super::CliError;
use std::process::ExitCode;

/// One row of the table in the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// 0: done.
    Ok,
    /// 1: an error in the input, or a `--check` mismatch.
    Error,
    /// 2: a usage error.
    Usage,
    /// 3: the emulated code stopped before its expected end.
    Stopped,
}

impl Status {
    /// The numeric status.
    pub const fn code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Error => 1,
            Status::Usage => 2,
            Status::Stopped => 3,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s.code())
    }
}

impl CliError {
    /// Which row of the exit-status table this error ends the process with.
    pub fn status(&self) -> Status {
        match self {
            CliError::Usage(_) => Status::Usage,
            CliError::Stopped { .. } => Status::Stopped,
            CliError::Scenario(e) if e.stopped_short() => Status::Stopped,
            CliError::Run(e) if matches!(**e, emu_core::run::RunError::Exec { .. }) => Status::Stopped,
            _ => Status::Error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_four_distinct_codes() {
        let codes = [Status::Ok, Status::Error, Status::Usage, Status::Stopped].map(Status::code);
        assert_eq!(codes, [0, 1, 2, 3]);
    }

    #[test]
    fn errors_map_onto_the_table() {
        assert_eq!(CliError::Usage("x".into()).status(), Status::Usage);
        assert_eq!(CliError::Stopped { report: String::new(), stop: "x".into() }.status(), Status::Stopped);
        assert_eq!(CliError::SnapshotMismatch("x".into()).status(), Status::Error);
        let budget = arch_ia64::scenario::ScenarioError::Budget {
            path: "syscall_enter",
            end: emu_core::scenario::PathEnd::Return,
            max_insns: 1,
            pc: 0,
        };
        assert_eq!(CliError::from(budget).status(), Status::Stopped);
    }
}
