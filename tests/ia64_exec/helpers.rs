//! Helpers for the execution tests: assemble and run a snippet, read registers back.

use arch_ia64::asm::assemble;
use arch_ia64::run::{run_source, RunConfig, RunError};
use emu_core::harness::Harness;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::report::RunReport;
use emu_core::snapshot::Value;

/// `body` as a function `f` that returns through b0 (the default harness's sentinel).
pub fn wrap(body: &str) -> String {
    format!("\t.text\n\t.global f\nf:\n{body}\n\tbr.ret.sptk.many b0 ;;\n")
}

/// Runs a whole source file with `cfg`.
pub fn try_run_cfg(src: &str, cfg: &RunConfig) -> Result<RunReport, RunError> {
    run_source("t.S", src, cfg)
}

/// The execution error a run of `body` (wrapped as [`wrap`] does) stops with; any other
/// outcome fails the test.
pub fn exec_error(body: &str, cfg: &RunConfig) -> arch_ia64::exec::ExecError {
    match try_run_cfg(&wrap(body), cfg) {
        Err(RunError::Exec { error, .. }) => error,
        Err(other) => panic!("expected an execution error, got {other}"),
        Ok(r) => panic!("expected an execution error, the run stopped with: {}", r.stop),
    }
}

/// Runs a whole source file with `cfg`; a failure fails the test with the emulator's message.
pub fn run_cfg(src: &str, cfg: &RunConfig) -> RunReport {
    match try_run_cfg(src, cfg) {
        Ok(r) => r,
        Err(e) => panic!("run failed: {e}\n--- source ---\n{src}"),
    }
}

/// Runs `body` (wrapped by [`wrap`]) under the default harness and checks it returned.
pub fn run(body: &str) -> RunReport {
    let r = run_cfg(&wrap(body), &RunConfig::default());
    assert_eq!(r.stop, "returned to the sentinel", "run did not return normally");
    r
}

/// Parses a harness text (named `h.toml` in locations).
pub fn harness(text: &str) -> Harness {
    match Harness::parse("h.toml", text) {
        Ok(h) => h,
        Err(e) => panic!("harness does not parse: {e}"),
    }
}

/// A configuration with `harness` and no stop on rfi (handlers return into the test).
pub fn with_harness(text: &str) -> RunConfig {
    RunConfig { harness: Some(harness(text)), stop_on_rfi: false, ..RunConfig::default() }
}

/// A register's 64-bit value from the final snapshot.
pub fn reg(r: &RunReport, name: &str) -> u64 {
    match r.snapshot.register(name) {
        Some(Value::Hex(v)) => *v,
        other => panic!("register {name} not in the snapshot as a word: {other:?}"),
    }
}

/// Whether a general register's NaT bit is set at the end.
pub fn nat(r: &RunReport, name: &str) -> bool {
    matches!(r.snapshot.register(&format!("{name}.nat")), Some(Value::Bool(true)))
}

/// Predicate register `n` at the end.
pub fn p(r: &RunReport, n: u32) -> bool {
    reg(r, "pr") >> n & 1 == 1
}

/// The address of symbol `name` once `src` is assembled.
pub fn symbol(src: &str, name: &str) -> u64 {
    let asm = match assemble("t.S", src, &PreprocessOptions::new(), &FsLoader) {
        Ok(a) => a,
        Err(e) => panic!("does not assemble: {e}"),
    };
    match asm.image.symbol(name) {
        Some(s) => s.value,
        None => panic!("no symbol {name}"),
    }
}

/// The end address of the first code section of `src`.
pub fn text_end(src: &str) -> u64 {
    let asm = match assemble("t.S", src, &PreprocessOptions::new(), &FsLoader) {
        Ok(a) => a,
        Err(e) => panic!("does not assemble: {e}"),
    };
    let s = &asm.image.sections[0];
    s.addr + s.data.len() as u64
}
