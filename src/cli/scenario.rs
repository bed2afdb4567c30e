//! `acctemu scenario TRACE`: a workload of system calls through a catalogue trace's real
//! entry, exit and tick paths; prints cycles per path and true against accounted time.

use super::CliError;
use emu_core::scenario::{run as run_workload, ScenarioReport, Workload};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Cycles per second of the clock the command line gives workloads on (the Itanium 2's; each
/// trace adapts them to its core, [`traces::Trace::workload`]).
pub use traces::IA64_CPU_HZ;

/// Runs shorter than this many system calls finish too fast for a progress bar.
pub const PROGRESS_MIN_SYSCALLS: u64 = 200_000;

/// Output format of `acctemu scenario`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ScenarioFormat {
    /// The report as a text table.
    Text,
    /// The report as JSON.
    Json,
}

/// What `acctemu scenario` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioRequest {
    /// Catalogue name of the trace (`ia64/syscall/v2`).
    pub trace: String,
    /// The workload (`cpu_hz` is the trace architecture's).
    pub workload: Workload,
    /// The most paths the workload may run (see [`super::limits`]).
    pub max_paths: u64,
    /// Output format.
    pub format: ScenarioFormat,
    /// `--trace-out`, `--pressure`: the chosen call's timeline (issue 18, w7-traceout).
    pub calls: super::call_trace::CallFlags,
}

/// Runs the request: looks the trace up, prepares it and runs the workload.
///
/// # Errors
/// An unknown trace, a trace that does not assemble or set up, a path that fails.
pub fn run(req: &ScenarioRequest) -> Result<String, CliError> {
    let trace = traces::find(&req.trace).ok_or_else(|| {
        let names: Vec<&str> = traces::catalogue().iter().map(|t| t.name).collect();
        CliError::Usage(format!("no trace `{}` in the catalogue (known: {})", req.trace, names.join(", ")))
    })?;
    check_workload(&req.workload)?;
    check_workload_paths(trace, &req.workload)?;
    super::limits::check(trace, &req.workload, req.max_paths)?;
    // --trace-out / --pressure: the same workload, its chosen call's timelines kept (issue 18).
    if req.calls.any() {
        use super::call_trace::{after_calls, trace_arch, traced};
        use super::trace_out::{call_places, Call};
        req.calls.check(req.format == ScenarioFormat::Json, None)?;
        let t = traced(trace, None, &req.workload)?;
        let places = call_places(&t, Some((trace.source_name, trace.source)));
        let (arch, workload) = (trace_arch(trace.arch), trace.workload(&req.workload));
        let call = Call { name: trace.name.to_string(), arch, workload: &workload, traced: &t, places: &places };
        return Ok(render(&t.report, req.format)? + &after_calls(&req.calls, &[call])?);
    }
    let bar = progress_bar(req.workload.syscalls);
    let report = trace.run(&req.workload, &mut |done| bar.set_position(done));
    bar.finish_and_clear();
    render(&report?, req.format)
}

/// Checks the workload's size before anything runs: at least one system call, an interrupt
/// period of at least one, and phases that fit [`emu_core::scenario::MAX_WORKLOAD_CYCLES`]. (The
/// paths it runs on a trace are [`super::limits::check`]'s.)
///
/// # Errors
/// A workload that is empty or too long, naming the arguments that make it.
pub fn check_workload(w: &Workload) -> Result<(), CliError> {
    if w.syscalls == 0 {
        return Err(CliError::Usage(
            "--syscalls 0: a workload of no system calls measures nothing (every figure would be 0); give N >= 1"
                .into(),
        ));
    }
    if w.irq_every == Some(0) {
        return Err(CliError::Usage(
            "--irq-every 0: an interrupt every 0th user phase cannot be meant; give N >= 1, or leave the flag \
             out for no interrupts"
                .into(),
        ));
    }
    match w.span() {
        Some(_) => Ok(()),
        None => Err(CliError::Usage(format!(
            "--syscalls {} with --user-cycles {} and --kernel-cycles {} spans more than {} cycles \
             (the 64-bit clocks would overflow)",
            w.syscalls,
            w.user_cycles,
            w.kernel_cycles,
            emu_core::scenario::MAX_WORKLOAD_CYCLES
        ))),
    }
}

/// Checks, before anything runs, that `trace` binds the paths every step of workload `w` takes:
/// `guest_exit` and `guest_enter` under `--guest`, else `syscall_enter` and `syscall_exit`.
///
/// # Errors
/// A missing path, naming the trace, the paths it does bind and (for `--guest`) the flag.
pub fn check_workload_paths(trace: &traces::Trace, w: &Workload) -> Result<(), CliError> {
    let (flag, needed) =
        if w.guest { ("--guest: ", ["guest_exit", "guest_enter"]) } else { ("", ["syscall_enter", "syscall_exit"]) };
    let bound: Vec<&str> = trace.bindings.iter().map(|b| b.kind.name()).collect();
    match needed.iter().find(|n| !bound.contains(n)) {
        None => Ok(()),
        Some(missing) => {
            let hint = if bound.contains(&"call") { "; `acctemu sweep` runs its calls" } else { "" };
            Err(CliError::Usage(format!(
                "{flag}trace {} binds no `{missing}` path (it binds {}){hint}",
                trace.name,
                bound.join(", ")
            )))
        }
    }
}

impl From<traces::BindError> for CliError {
    fn from(e: traces::BindError) -> CliError {
        match e {
            traces::BindError::Assemble(d) => CliError::Assemble(d),
            traces::BindError::Setup(d) => CliError::Setup(d),
            traces::BindError::Scenario(e) => CliError::Scenario(e),
            traces::BindError::Point(m) => CliError::Usage(m),
        }
    }
}

/// Runs `w` on a prepared scenario machine, with a progress bar on stderr for long runs
/// when stderr is a terminal, and renders the report.
///
/// # Errors
/// A path that does not run to its end, unreadable counters.
pub fn run_prepared<M>(s: &mut M, w: &Workload, format: ScenarioFormat) -> Result<String, CliError>
where
    M: emu_core::scenario::ScenarioMachine,
    CliError: From<M::Error>,
{
    let bar = progress_bar(w.syscalls);
    let report = run_workload(s, w, &mut |done| bar.set_position(done));
    bar.finish_and_clear();
    render(&report?, format)
}

/// The report as text or JSON.
///
/// # Errors
/// JSON serialization failed (it does not for these types).
pub fn render(report: &ScenarioReport, format: ScenarioFormat) -> Result<String, CliError> {
    match format {
        ScenarioFormat::Text => Ok(report.to_string()),
        ScenarioFormat::Json => {
            Ok(serde_json::to_string_pretty(report).map_err(|e| CliError::Usage(e.to_string()))? + "\n")
        }
    }
}

/// A bar counting system calls, drawn only for long runs on a terminal.
fn progress_bar(syscalls: u64) -> ProgressBar {
    if syscalls < PROGRESS_MIN_SYSCALLS || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(syscalls), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {human_pos}/{human_len} system calls, eta {eta}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use arch_ia64::scenario::example;

    fn workload(syscalls: u64) -> Workload {
        super::super::test_support::ia64_workload(syscalls, 1000, 1000)
    }

    #[test]
    fn text_and_json_reports_of_the_example() {
        let Ok(mut s) = example::scenario(example::VIRTUAL) else { panic!("example does not build") };
        let text = run_prepared(&mut s, &workload(50), ScenarioFormat::Text).unwrap_or_else(|e| panic!("{e}"));
        assert!(text.contains("syscall_enter") && text.contains("utime"), "{text}");
        let Ok(mut s) = example::scenario(example::VIRTUAL) else { panic!("example does not build") };
        let json = run_prepared(&mut s, &workload(50), ScenarioFormat::Json).unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(v["per_syscall"]["calls"], 50);
        assert_eq!(v["paths"][1]["path"], "syscall_exit");
    }

    #[test]
    fn path_failures_are_cli_errors() {
        let Ok(mut s) =
            example::scenario(arch_ia64::scenario::Accounting::Virtual { utime_addr: 1 << 40, stime_addr: 0 })
        else {
            panic!("example does not build")
        };
        match run_prepared(&mut s, &workload(1), ScenarioFormat::Text) {
            Err(CliError::Scenario(e)) => assert!(e.to_string().contains("accounted utime"), "{e}"),
            other => panic!("expected a scenario error, got {other:?}"),
        }
    }

    #[test]
    fn every_ia64_catalogue_trace_runs_a_small_workload() {
        for trace in traces::catalogue().iter().filter(|t| t.arch == traces::Arch::Ia64) {
            let req = ScenarioRequest {
                trace: trace.name.to_string(),
                workload: workload(100),
                max_paths: super::super::limits::DEFAULT_MAX_PATHS,
                format: ScenarioFormat::Text,
                calls: Default::default(),
            };
            match run(&req) {
                Ok(text) => assert!(text.contains("per syscall           100"), "{}\n{text}", trace.name),
                Err(e) => panic!("{}: {e}", trace.name),
            }
        }
    }

    #[test]
    fn unknown_traces_are_named() {
        let req = ScenarioRequest {
            trace: "ia64/nope".into(),
            workload: workload(1),
            max_paths: super::super::limits::DEFAULT_MAX_PATHS,
            format: ScenarioFormat::Text,
            calls: Default::default(),
        };
        match run(&req) {
            Err(CliError::Usage(m)) => assert!(m.contains("ia64/nope") && m.contains("ia64/syscall/v2"), "{m}"),
            other => panic!("expected a usage error, got {other:?}"),
        }
    }
}
