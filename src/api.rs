//! The library's way to run code on any core in a few lines (issue 16): a [`Run`] of a source
//! or an object, with defines, a harness, register settings and an entry, giving a
//! [`RunReport`] (cycles, stalls, counters, the final [`Snapshot`] to assert on, with insta
//! or by hand). It goes through the same core dispatch as `acctemu run`
//! ([`crate::cli::core`]), so a result here is the command line's.

use crate::cli::core::{dispatch, Arch, Finished, Program, RunPrograms, RunSpec};
use crate::cli::CliError;
use emu_core::harness::Harness;
use emu_core::report::RunReport;
use emu_core::snapshot::Snapshot;
use std::path::PathBuf;

/// Why a [`Run`] gave no report: the command line's errors (a source that does not assemble
/// or compile, a harness or register error, an execution error at a pc, a run that stopped
/// before its end).
pub type Error = CliError;

/// One run to make: what runs, on which core, from which state.
///
/// The core is an object's ELF machine; a source runs on IA-64 (acctemu's assembler) unless
/// [`Run::arch`] names x86-64 or s390x, whose sources (C, `.s`, `.S`) are compiled with
/// `gcc -c` or `s390x-linux-gnu-gcc -c` ([`emu_core::cc`]).
#[derive(Debug, Clone)]
pub struct Run {
    program: Program,
    arch: Option<Arch>,
    harness: Option<(String, String)>,
    spec: RunSpec,
}

impl Run {
    /// A source given as text; `name` names it in messages, and its suffix tells gcc the
    /// language (`.c`, `.s`, `.S`).
    pub fn source(name: &str, text: &str) -> Run {
        Run::of(Program { file: PathBuf::from(name), content: Some(text.as_bytes().to_vec()), ..Program::default() })
    }

    /// An ELF object (IA-64, x86-64 or s390x) given as bytes; `name` names it in messages.
    pub fn object(name: &str, bytes: &[u8]) -> Run {
        Run::of(Program { file: PathBuf::from(name), content: Some(bytes.to_vec()), ..Program::default() })
    }

    /// A source or object file, read when the run starts.
    pub fn file(path: impl Into<PathBuf>) -> Run {
        Run::of(Program::file(path))
    }

    fn of(program: Program) -> Run {
        Run { program, arch: None, harness: None, spec: RunSpec::default() }
    }

    /// The core of a source (an object's must agree).
    pub fn arch(mut self, arch: Arch) -> Run {
        self.arch = Some(arch);
        self
    }

    /// A preprocessor definition, `NAME` or `NAME=VALUE` (`-D`).
    pub fn define(mut self, define: &str) -> Run {
        self.program.defines.push(define.to_string());
        self
    }

    /// The harness (TOML text: regions, registers, counters), instead of the core's default.
    pub fn harness(mut self, name: &str, text: &str) -> Run {
        self.harness = Some((name.to_string(), text.to_string()));
        self
    }

    /// Sets a register before the run, as `--set NAME=VALUE` does (the value may be an
    /// expression of the harness's regions and symbols: `stack.top-16`, `data+8`).
    pub fn set(mut self, register: &str, value: &str) -> Run {
        self.spec.sets.push((register.to_string(), value.to_string()));
        self
    }

    /// The entry symbol (else the harness's, else the start of the code).
    pub fn entry(mut self, symbol: &str) -> Run {
        self.spec.entry = Some(symbol.to_string());
        self
    }

    /// An `#include` directory of a source (`-I`).
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> Run {
        self.spec.include_dirs.push(dir.into());
        self
    }

    /// The instruction budget (default one million).
    pub fn max_insns(mut self, max_insns: u64) -> Run {
        self.spec.max_insns = max_insns;
        self
    }

    /// Records the timeline ([`RunReport::timeline`]).
    pub fn timeline(mut self) -> Run {
        self.spec.timeline = true;
        self
    }

    /// Runs, and gives the report with whether the code reached its expected end.
    ///
    /// # Errors
    /// Load, assembly, compile, harness, register and execution errors.
    pub fn finish(&self) -> Result<Finished, Error> {
        let mut spec = self.spec.clone();
        if let Some((name, text)) = &self.harness {
            spec.harness = Some(Harness::parse(name, text).map_err(CliError::Setup)?);
        }
        let bytes = self.program.bytes()?;
        let arch = Arch::of_input(&self.program.file, &bytes, self.arch)?;
        let mut done = dispatch(arch, RunPrograms { programs: std::slice::from_ref(&self.program), spec: &spec })
            .map_err(|e| e.error)?;
        done.pop().ok_or_else(|| CliError::Usage("run: nothing ran".into()))
    }

    /// Runs to the expected end (a return to the sentinel, or an `rfi`) and gives the report.
    ///
    /// # Errors
    /// As [`Run::finish`], and [`CliError::Stopped`] when the code stopped before its end (the
    /// budget, an interruption, a halt).
    pub fn report(&self) -> Result<RunReport, Error> {
        let done = self.finish()?;
        if done.ended {
            Ok(done.report)
        } else {
            let stop = done.report.stop.clone();
            Err(CliError::Stopped { report: done.report.summary.to_string(), stop })
        }
    }

    /// Runs to the expected end and gives the final architectural state.
    ///
    /// # Errors
    /// As [`Run::report`].
    pub fn snapshot(&self) -> Result<Snapshot, Error> {
        self.report().map(|r| r.snapshot)
    }
}
