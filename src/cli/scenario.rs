//! `acctemu scenario TRACE`: a workload of system calls through a catalogue trace's real
//! entry, exit and tick paths; prints cycles per path and true against accounted time.

use super::compiled::setup_error;
use super::CliError;
use arch_ia64::run::{prepare, RunConfig, SENTINEL};
use arch_ia64::scenario::{Accounting, Bindings, End, Ia64Scenario, PathBinding, Start, DEFAULT_PATH_BUDGET};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::{Env, Harness};
use emu_core::image::Image;
use emu_core::scenario::{run as run_workload, PathKind, ScenarioReport, Workload};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Cycles per second of the modelled ia64 processor (Itanium 2 Madison, 1.5 GHz).
pub const IA64_CPU_HZ: u64 = 1_500_000_000;

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
    let bar = progress_bar(req.workload.syscalls);
    let report = run_trace(trace, &req.workload, &mut |done| bar.set_position(done));
    bar.finish_and_clear();
    render(&report?, req.format)
}

/// The workload `w` (given on the Itanium 2 clock, as the command line takes it) as it runs on
/// `trace`'s core: the x86 and s390x cores have their own clocks, and the x86 traces their
/// compiled-in HZ (see [`super::scenario_x86::workload`]).
pub fn arch_workload(trace: &traces::Trace, w: &Workload) -> Workload {
    match trace.arch {
        traces::Arch::X86_64 => super::scenario_x86::workload(w),
        traces::Arch::S390x => super::scenario_s390::workload(w),
        traces::Arch::Ia64 => w.clone(),
    }
}

/// Prepares catalogue trace `trace` on its architecture's core and runs workload `w` (as
/// [`arch_workload`] adapts it) through it; `progress` is called as
/// [`emu_core::scenario::run`] calls it. The checks of [`check_workload`] and
/// [`check_workload_paths`] are the caller's.
///
/// # Errors
/// A trace that does not assemble or set up, a path that fails.
pub fn run_trace(
    trace: &traces::Trace,
    w: &Workload,
    progress: &mut dyn FnMut(u64),
) -> Result<ScenarioReport, CliError> {
    let w = arch_workload(trace, w);
    match trace.arch {
        traces::Arch::X86_64 => {
            let mut s = super::scenario_x86::prepare(trace, &w)?;
            Ok(run_workload(&mut s, &w, progress)?)
        }
        traces::Arch::S390x => {
            let mut s = super::scenario_s390::prepare(trace)?;
            Ok(run_workload(&mut s, &w, progress)?)
        }
        traces::Arch::Ia64 => {
            let mut s = prepare_trace(trace, &w)?;
            Ok(run_workload(&mut s, &w, progress)?)
        }
    }
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

/// A catalogue trace assembled, set up under its harness and bound for workload `w`
/// (tick sampling charges `w`'s tick period per tick).
///
/// # Errors
/// The trace does not assemble, its harness is wrong, a bound symbol or counter is missing.
pub fn prepare_trace(trace: &traces::Trace, w: &Workload) -> Result<Ia64Scenario, CliError> {
    prepare_trace_timed(trace, w, true)
}

/// Like [`prepare_trace`] for an image of the trace's source as changed by the user (a
/// patched or differently configured version): same harness, same bindings by symbol.
///
/// # Errors
/// Harness or binding errors.
pub fn prepare_trace_image(trace: &traces::Trace, image: &Image, w: &Workload) -> Result<Ia64Scenario, CliError> {
    prepare_trace_image_timed(trace, image, w, true)
}

/// [`prepare_trace`] with the Itanium 2 timing model on or off (off: one cycle per
/// instruction group, as `acctemu run --no-timing`).
///
/// # Errors
/// As [`prepare_trace`].
pub fn prepare_trace_timed(trace: &traces::Trace, w: &Workload, timing: bool) -> Result<Ia64Scenario, CliError> {
    let image = trace.assemble().map_err(CliError::Assemble)?.image;
    prepare_trace_image_timed(trace, &image, w, timing)
}

fn prepare_trace_image_timed(
    trace: &traces::Trace,
    image: &Image,
    w: &Workload,
    timing: bool,
) -> Result<Ia64Scenario, CliError> {
    let image = image.clone();
    let harness = Harness::parse(trace.harness_name, trace.harness).map_err(CliError::Setup)?;
    let cfg = RunConfig { harness: Some(harness), timing, ..RunConfig::default() };
    let (machine, harness) = prepare(&image, &cfg).map_err(CliError::Run)?;
    let iva = machine.cpu.state.cr.get(usize::from(arch_ia64::state::cr::IVA)).copied().unwrap_or(0);
    let bindings = bindings(trace, &image, &harness, iva, w.tick_period().unwrap_or(0))?;
    arch_ia64::scenario::bind(machine, bindings).map_err(|e| setup_error(trace, e.to_string()))
}

/// Translates the trace's symbolic bindings into addresses of `image` under `harness`.
/// An interrupt path's start symbol must be where cr.iva vectors the external interrupt.
fn bindings(
    trace: &traces::Trace,
    image: &Image,
    harness: &Harness,
    iva: u64,
    period: u64,
) -> Result<Bindings, CliError> {
    let outer = emu_core::setup::image_symbols(image, SENTINEL);
    let env = harness.env(&outer).map_err(CliError::Setup)?;
    let setup = |msg: String| CliError::Setup(Diagnostic::error(SourceLoc::new(trace.harness_name.into(), 0, 0), msg));
    let symbol = |name: &str| {
        env.lookup(name).ok_or_else(|| setup(format!("trace {}: bound symbol `{name}` is not defined", trace.name)))
    };
    let mut paths = Vec::new();
    for b in trace.bindings {
        let path = PathKind::from_name(b.kind.name())
            .ok_or_else(|| setup(format!("trace {}: unknown path `{}`", trace.name, b.kind.name())))?;
        // Interrupt paths are entered the way the hardware enters them, through cr.iva.
        let start = match path {
            PathKind::Tick | PathKind::IrqEnter => {
                let handler = iva.wrapping_add(u64::from(arch_ia64::exec::interrupt::vector::EXTERNAL));
                if symbol(b.start)? != handler {
                    return Err(setup(format!(
                        "trace {}: `{}` path starts at `{}`, but cr.iva + 0x3000 is {handler:#x}",
                        trace.name,
                        b.kind.name(),
                        b.start
                    )));
                }
                Start::ExternalInterrupt
            }
            _ => Start::At(symbol(b.start)?),
        };
        let end = match b.end {
            traces::PathEnd::Symbol(name) => End::Label(symbol(name)?),
            traces::PathEnd::Rfi => End::Rfi,
        };
        paths.push(PathBinding { path, start, end });
    }
    let counter = |name: &str| counter_address(trace, harness, &env, name);
    let accounting = match trace.accounting {
        traces::Accounting::Virtual { utime_counter, stime_counter } => {
            Accounting::Virtual { utime_addr: counter(utime_counter)?, stime_addr: counter(stime_counter)? }
        }
        traces::Accounting::TickSampling { utime_counter, stime_counter } => Accounting::TickSampling {
            utime_addr: counter(utime_counter)?,
            stime_addr: counter(stime_counter)?,
            cycles_per_tick: period,
        },
    };
    Ok(Bindings { paths, accounting, max_insns: DEFAULT_PATH_BUDGET })
}

/// The address of the harness counter `name` (which must be 8 bytes wide).
pub(super) fn counter_address(
    trace: &traces::Trace,
    harness: &Harness,
    env: &Env<'_>,
    name: &str,
) -> Result<u64, CliError> {
    let c = harness.counters.iter().find(|c| c.name == name).ok_or_else(|| {
        CliError::Setup(Diagnostic::error(
            SourceLoc::new(trace.harness_name.into(), 0, 0),
            format!("trace {}: the harness has no counter `{name}`", trace.name),
        ))
    })?;
    if c.width != 8 {
        return Err(CliError::Setup(
            c.address.origin.error(format!("counter `{name}` must be 8 bytes wide for a scenario")),
        ));
    }
    if let Some(field) = c.address.offset_name().filter(|n| env.lookup(n).is_none()) {
        // The build names the fields it keeps; one it lacks means the harness was written for
        // another layout, and reading there would report a stale or foreign field as the time.
        return Err(CliError::Setup(c.address.origin.error(format!(
            "trace {}: counter `{name}` is at `{}`, but the code that runs does not define `{field}`: \
             the harness's layout does not match this build (its defines or patch); give a harness for it",
            trace.name,
            c.address.text.trim()
        ))));
    }
    env.eval(&c.address).map_err(CliError::Setup)
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
        };
        match run(&req) {
            Err(CliError::Usage(m)) => assert!(m.contains("ia64/nope") && m.contains("ia64/syscall/v2"), "{m}"),
            other => panic!("expected a usage error, got {other:?}"),
        }
    }
}
