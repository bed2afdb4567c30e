//! `acctemu sweep`: how the cycles of catalogue traces vary with a parameter.
//!
//! Two kinds of parameter:
//! - **calls**: the cycles of one call of an x86 helper — the CPU count for
//!   `x86/timer-target/*` (seed 001), the missed periods for `x86/sched-avg/*` (seed 003);
//! - **workloads**: a full scenario (as `acctemu scenario` runs it) of a trace with system-call
//!   paths (`ia64/syscall/*`, `x86/nohz-syscall/*`, `s390/vtime/*`) with one of its workload
//!   values — `hz`, `user-cycles`, `kernel-cycles`, `syscalls` — taken from the sweep and the
//!   others from the workload flags; each point reports cycles and instructions per system
//!   call and true against accounted utime and stime.
//!
//! Points (trace x value) run in parallel on all cores (rayon) under one progress bar (drawn
//! only when stderr is a terminal); the results come in a fixed order whatever the
//! scheduling, and contain nothing of the host, so two runs print the same bytes. The result
//! is a table, JSON, and an SVG plot of any numeric field of the points (`--y`, [`metric`]),
//! titled with the model, its clock and the workload.

use super::scenario::{check_workload, check_workload_paths};
use super::CliError;
use emu_core::plot::{line_chart, Chart, Series};
use emu_core::scenario::{ScenarioReport, Spread, TimeCheck, Workload};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

pub mod metric;

/// What a sweep varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Param {
    /// Number of CPUs, one of them housekeeping (`x86/timer-target/*`).
    Cpus,
    /// Periods of sysctl_sched_time_avg / 2 since the last update (`x86/sched-avg/*`).
    MissedPeriods,
    /// Timer ticks per second of a scenario (`ia64/syscall/*`, `s390/vtime/*`; 0: no ticks).
    Hz,
    /// User-mode cycles before each system call of a scenario.
    UserCycles,
    /// Kernel cycles inside each system call of a scenario.
    KernelCycles,
    /// Number of system calls of a scenario.
    Syscalls,
}

/// What `acctemu sweep` was asked to do.
#[derive(Debug, Clone)]
pub struct SweepRequest {
    /// Catalogue names of the x86 traces to compare.
    pub traces: Vec<String>,
    /// The parameter.
    pub param: Param,
    /// First value.
    pub from: u64,
    /// Last value (inclusive).
    pub to: u64,
    /// Step.
    pub step: u64,
    /// The workload of a scenario parameter's points (the swept value replaces its own);
    /// `cpus` and `missed-periods` do not use it.
    pub workload: Workload,
    /// The most paths all the points together may run (see [`super::limits`]).
    pub max_paths: u64,
    /// JSON instead of a table.
    pub json: bool,
    /// Write an SVG plot here.
    pub svg: Option<PathBuf>,
    /// `--y`: the metric plotted and added to the table, by its path in a point's JSON
    /// ([`metric::WORKLOAD_METRICS`], [`metric::CALL_METRICS`]); `None`: cycles.
    pub y: Option<String>,
}

/// One point: the parameter value and each trace's cycles.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    /// Parameter value.
    pub value: u64,
    /// Cycles of one call, per trace (in the request's order).
    pub cycles: Vec<u64>,
    /// Instructions of one call, per trace.
    pub instructions: Vec<u64>,
}

/// A finished sweep.
#[derive(Debug, Clone, Serialize)]
pub struct Sweep {
    /// The parameter.
    pub param: Param,
    /// The traces, in column order.
    pub traces: Vec<String>,
    /// The points in value order.
    pub points: Vec<Point>,
}

fn usage(msg: String) -> CliError {
    CliError::Usage(msg)
}

/// Most points one sweep runs (each is a full run; more is a mistyped range).
pub const MAX_POINTS: u64 = 10_000;

impl Param {
    /// The name `--param` takes.
    pub fn name(self) -> &'static str {
        match self {
            Param::Cpus => "cpus",
            Param::MissedPeriods => "missed-periods",
            Param::Hz => "hz",
            Param::UserCycles => "user-cycles",
            Param::KernelCycles => "kernel-cycles",
            Param::Syscalls => "syscalls",
        }
    }

    /// Whether the parameter is a workload value, each point a full scenario (else each point
    /// is one call of an x86 helper).
    pub fn is_workload(self) -> bool {
        !matches!(self, Param::Cpus | Param::MissedPeriods)
    }

    /// The harness value of a trace's call this parameter varies (`None`: a workload value).
    pub fn knob(self) -> Option<traces::Knob> {
        match self {
            Param::Cpus => Some(traces::Knob::Cpus),
            Param::MissedPeriods => Some(traces::Knob::MissedPeriods),
            Param::Hz | Param::UserCycles | Param::KernelCycles | Param::Syscalls => None,
        }
    }

    /// `base` with this parameter set to `value` (a call parameter leaves it as it is).
    pub fn apply(self, base: &Workload, value: u64) -> Workload {
        let mut w = base.clone();
        match self {
            Param::Hz => w.hz = value,
            Param::UserCycles => w.user_cycles = value,
            Param::KernelCycles => w.kernel_cycles = value,
            Param::Syscalls => w.syscalls = value,
            Param::Cpus | Param::MissedPeriods => {}
        }
        w
    }
}

/// Checks, before anything runs, that `param` means something for `trace` under the
/// workload `base`.
///
/// # Errors
/// A parameter that does not apply, naming the parameter, the trace and why.
pub fn check_applies(trace: &traces::Trace, param: Param, base: &Workload) -> Result<(), CliError> {
    let not = |why: String| usage(format!("sweep: --param {} does not apply to {}: {why}", param.name(), trace.name));
    if let Some(knob) = param.knob() {
        return match trace.knob {
            Some(k) if k == knob => Ok(()),
            _ => Err(not(knob.what().to_string())),
        };
    }
    if let Err(CliError::Usage(why)) = check_workload_paths(trace, base) {
        let why = why.split("; ").next().unwrap_or_default().to_string();
        return Err(not(format!(
            "{why}; hz, user-cycles, kernel-cycles and syscalls run workloads through a \
             trace's system-call paths (its guest paths under --guest)"
        )));
    }
    match trace.compiled_hz() {
        Some(hz) if param == Param::Hz => Err(not(format!(
            "its C is compiled with HZ {hz} ({}), so its ticks run at that rate whatever --hz says \
             (only --hz 0, no ticks, changes them)",
            trace.source_name
        ))),
        _ => Ok(()),
    }
}

/// The values `--from`, `--to` and `--step` give.
///
/// # Errors
/// A zero step, `--from` after `--to`, more than [`MAX_POINTS`] values; each names its
/// arguments.
pub fn values(from: u64, to: u64, step: u64) -> Result<Vec<u64>, CliError> {
    if step == 0 {
        return Err(usage("sweep: --step 0: the step must be at least 1".into()));
    }
    if from > to {
        return Err(usage(format!("sweep: --from {from} is greater than --to {to}")));
    }
    let points = ((to - from) / step).saturating_add(1);
    if points > MAX_POINTS {
        return Err(usage(format!(
            "sweep: --from {from} --to {to} --step {step} gives {points} points; at most {MAX_POINTS} are allowed"
        )));
    }
    Ok((0..points).map(|i| from + i * step).collect())
}

/// One point of a workload sweep: a trace's scenario at one value of the parameter.
#[derive(Debug, Clone, Serialize)]
pub struct WorkloadPoint {
    /// The trace.
    pub trace: String,
    /// The parameter's value.
    pub value: u64,
    /// The workload that ran, on the trace's core (its clock; the x86 traces' ticks at their
    /// compiled-in HZ).
    pub workload: Workload,
    /// Cycles between ticks, when ticks ran.
    pub tick_period: Option<u64>,
    /// Cycles of entry plus exit path per system call (guest exit plus enter per hypercall
    /// under `--guest`).
    pub cycles_per_syscall: Spread,
    /// Mean instructions of entry plus exit path per system call, nops included.
    pub instructions_per_syscall: f64,
    /// Ticks taken.
    pub ticks: emu_core::scenario::TickCounts,
    /// True against accounted user time, in cycles.
    pub utime: TimeCheck,
    /// True against accounted system time, in cycles.
    pub stime: TimeCheck,
    /// True against accounted guest time, when the trace keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guest: Option<TimeCheck>,
    /// True against accounted hard-interrupt time, when the trace keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardirq: Option<TimeCheck>,
    /// True against accounted soft-interrupt time, when the trace keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub softirq: Option<TimeCheck>,
    /// The run's tolerance: the cycles spent in paths.
    pub tolerance: u64,
    /// Whether both utime and stime stayed within the tolerance.
    pub within_tolerance: bool,
}

impl WorkloadPoint {
    fn new(trace: &str, value: u64, r: ScenarioReport) -> WorkloadPoint {
        WorkloadPoint {
            trace: trace.to_string(),
            value,
            tick_period: r.tick_period,
            cycles_per_syscall: r.per_syscall.cycles,
            instructions_per_syscall: r.per_syscall.instructions,
            ticks: r.ticks,
            within_tolerance: r.utime.within_tolerance && r.stime.within_tolerance,
            utime: r.utime,
            stime: r.stime,
            guest: r.guest,
            hardirq: r.hardirq,
            softirq: r.softirq,
            tolerance: r.tolerance,
            workload: r.workload,
        }
    }
}

/// A finished workload sweep.
#[derive(Debug, Clone, Serialize)]
pub struct WorkloadSweep {
    /// The parameter.
    pub param: Param,
    /// The traces, in the order given.
    pub traces: Vec<String>,
    /// The parameter's values, ascending.
    pub values: Vec<u64>,
    /// One per trace and value: by trace (in the order given), then by value.
    pub points: Vec<WorkloadPoint>,
}

/// A finished sweep of either kind (JSON: the kind's own fields).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    /// One call per point (`cpus`, `missed-periods`).
    Calls(Sweep),
    /// One scenario per point (`hz`, `user-cycles`, `kernel-cycles`, `syscalls`).
    Workloads(WorkloadSweep),
}

/// The bar counting finished points: drawn on stderr only when it is a terminal.
fn progress_bar(points: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(points as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {human_pos}/{human_len} points, eta {eta}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Runs `f` on every (trace, value) point in parallel on all cores, ticking one bar per
/// finished point. The results come by trace, then value, whatever the scheduling; the
/// first error in that order wins.
fn run_points<T, F>(traces: &[&'static traces::Trace], values: &[u64], f: F) -> Result<Vec<T>, CliError>
where
    T: Send,
    F: Fn(&'static traces::Trace, u64) -> Result<T, CliError> + Sync,
{
    let jobs: Vec<(&'static traces::Trace, u64)> =
        traces.iter().flat_map(|&t| values.iter().map(move |&v| (t, v))).collect();
    let bar = progress_bar(jobs.len());
    let results: Vec<Result<T, CliError>> = jobs
        .par_iter()
        .map(|&(t, v)| {
            let r = f(t, v);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    results.into_iter().collect()
}

/// Runs the sweep.
///
/// # Errors
/// Unknown traces, a parameter that does not apply to one of them, a workload too long for
/// the clocks, a run that fails.
pub fn sweep(req: &SweepRequest) -> Result<Outcome, CliError> {
    if req.traces.is_empty() {
        return Err(usage("sweep: name at least one trace".into()));
    }
    let values = values(req.from, req.to, req.step)?;
    let traces: Vec<&'static traces::Trace> = req
        .traces
        .iter()
        .map(|n| traces::find(n).ok_or_else(|| usage(format!("sweep: no trace named `{n}` (see `acctemu list`)"))))
        .collect::<Result<_, _>>()?;
    for t in &traces {
        check_applies(t, req.param, &req.workload)?;
    }
    if !req.param.is_workload() {
        return call_sweep(req, &traces, &values).map(Outcome::Calls);
    }
    for &v in &values {
        check_workload(&req.param.apply(&req.workload, v))
            .map_err(|e| usage(format!("sweep: --param {} {v}: {e}", req.param.name())))?;
    }
    check_size(req, &traces, &values)?;
    let points = run_points(&traces, &values, |trace, value| {
        let report = trace.run(&req.param.apply(&req.workload, value), &mut |_| {})?;
        Ok(WorkloadPoint::new(trace.name, value, report))
    })?;
    Ok(Outcome::Workloads(WorkloadSweep { param: req.param, traces: req.traces.clone(), values, points }))
}

/// Refuses a sweep whose points' flags cannot be meant on a trace, or whose points together
/// would run more than `--max-paths` paths (the largest point is named with its estimate).
fn check_size(req: &SweepRequest, traces: &[&'static traces::Trace], values: &[u64]) -> Result<(), CliError> {
    let mut total = 0u64;
    let mut largest: Option<(&'static traces::Trace, u64, super::limits::PathCounts)> = None;
    for &trace in traces {
        for &v in values {
            let w = req.param.apply(&req.workload, v);
            super::limits::check_rates(trace, &w)
                .map_err(|e| usage(format!("sweep: --param {} {v}: {e}", req.param.name())))?;
            let counts = super::limits::path_counts(trace, &w);
            total = total.saturating_add(counts.total());
            if largest.is_none_or(|(_, _, c)| counts.total() > c.total()) {
                largest = Some((trace, v, counts));
            }
        }
    }
    let Some((trace, v, counts)) = largest else { return Ok(()) };
    let w = req.param.apply(&req.workload, v);
    let what = format!(
        "{} points; the largest, --param {} {v}: {}",
        traces.len() * values.len(),
        req.param.name(),
        super::limits::describe(trace, &w, &counts)
    );
    super::limits::check_total(total, req.max_paths, &what, None).map_err(|e| usage(format!("sweep: {e}")))
}

/// The sweep of a call parameter: one call per point.
fn call_sweep(req: &SweepRequest, traces: &[&'static traces::Trace], values: &[u64]) -> Result<Sweep, CliError> {
    let knob =
        req.param.knob().ok_or_else(|| usage(format!("sweep: --param {} is a workload value", req.param.name())))?;
    let results = run_points(traces, values, |trace, value| Ok(trace.call_point(knob, value)?))?;
    let mut points: Vec<Point> = values
        .iter()
        .map(|&value| Point { value, cycles: vec![0; traces.len()], instructions: vec![0; traces.len()] })
        .collect();
    // `results` is by trace, then value.
    for (i, (c, n)) in results.into_iter().enumerate() {
        let (t, v) = (i / values.len(), i % values.len());
        points[v].cycles[t] = c;
        points[v].instructions[t] = n;
    }
    Ok(Sweep { param: req.param, traces: req.traces.clone(), points })
}

/// The head of the `--y` column of a workload table (none without `--y`).
fn extra_head(req: &SweepRequest, y: &metric::Metric) -> String {
    match &req.y {
        Some(_) => format!("  {:>16}", y.path),
        None => String::new(),
    }
}

fn label(p: Param) -> &'static str {
    match p {
        Param::Cpus => "CPUs (one housekeeping)",
        Param::MissedPeriods => "missed periods",
        Param::Hz => "HZ",
        Param::UserCycles => "user cycles per syscall",
        Param::KernelCycles => "kernel cycles per syscall",
        Param::Syscalls => "system calls",
    }
}

fn write_svg(path: &PathBuf, svg: &str) -> Result<(), CliError> {
    std::fs::write(path, svg).map_err(|source| CliError::Io { path: path.clone(), source })
}

/// Runs the request and renders it; writes the SVG when asked.
///
/// # Errors
/// As [`sweep`], or an unwritable SVG file.
pub fn run(req: &SweepRequest) -> Result<String, CliError> {
    // Before anything runs: a mistyped metric should not cost a sweep.
    let name = req.y.as_deref().unwrap_or("cycles");
    let y = metric::resolve(name, !req.param.is_workload(), event(req))?;
    match sweep(req)? {
        Outcome::Calls(s) => render_calls(req, &s, &y),
        Outcome::Workloads(s) => render_workloads(req, &s, &y),
    }
}

/// What a workload sweep's paths run per: a system call, or a hypercall under `--guest`.
fn event(req: &SweepRequest) -> &'static str {
    if req.workload.guest {
        "hypercall"
    } else {
        "system call"
    }
}

/// The timing model of a trace's core, as the traces run it (each core's default preset).
fn model(trace: &str) -> &'static str {
    match traces::find(trace).map(|t| t.arch) {
        Some(traces::Arch::Ia64) => "Itanium 2 model",
        Some(traces::Arch::X86_64) => "x86-64 Zen 4 model",
        Some(traces::Arch::S390x) => "s390x z13 model",
        None => "unknown model",
    }
}

/// `hz` cycles per second as a reader writes a clock: `1.5 GHz`, `5 GHz`.
fn clock(hz: u64) -> String {
    let ghz = format!("{:.3}", hz as f64 / 1e9);
    format!("{} GHz", ghz.trim_end_matches('0').trim_end_matches('.'))
}

/// The models of `traces` (each once), at their clocks: `Itanium 2 model at 1.5 GHz`.
fn models(traces: &[String], clocks: &[Option<u64>]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for (t, c) in traces.iter().zip(clocks) {
        let m = match c {
            Some(hz) => format!("{} at {}", model(t), clock(*hz)),
            None => model(t).to_string(),
        };
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    seen.join(", ")
}

/// `v` as a table or title shows a metric: whole numbers as they are, others to 4 decimals.
fn number(v: Option<f64>, m: &metric::Metric) -> String {
    let unit = if m.scale == 100.0 { "%" } else { "" };
    match v {
        Some(v) if (v * m.scale).fract() == 0.0 && v.abs() < 1e15 => format!("{}{unit}", v * m.scale),
        Some(v) => format!("{:.4}{unit}", v * m.scale),
        None => "-".into(),
    }
}

fn json<T: Serialize>(value: &T) -> Result<String, CliError> {
    serde_json::to_string_pretty(value).map(|t| t + "\n").map_err(|e| CliError::Usage(e.to_string()))
}

/// A call point's value of metric `y` for trace `t`.
fn call_value(p: &Point, t: usize, y: &metric::Metric) -> u64 {
    if y.path == "instructions" {
        p.instructions[t]
    } else {
        p.cycles[t]
    }
}

fn render_calls(req: &SweepRequest, s: &Sweep, y: &metric::Metric) -> Result<String, CliError> {
    if let Some(path) = &req.svg {
        let series: Vec<Series> = s
            .traces
            .iter()
            .enumerate()
            .map(|(t, name)| Series {
                name: name.clone(),
                points: s.points.iter().map(|p| (p.value as f64, call_value(p, t, y) as f64)).collect(),
            })
            .collect();
        let title = format!("{} vs {}", y.what, label(s.param));
        // The x86 model's clock: the calibration TSC over its TSC ticks per cycle.
        let clocks: Vec<Option<u64>> = s
            .traces
            .iter()
            .map(|t| {
                let arch = traces::find(t).map(|t| match t.arch {
                    traces::Arch::Ia64 => super::core::Arch::Ia64,
                    traces::Arch::X86_64 => super::core::Arch::X86_64,
                    traces::Arch::S390x => super::core::Arch::S390x,
                });
                arch.and_then(|a| super::trace_out::clock_mhz(a, None).ok()).map(|mhz| mhz * 1_000_000)
            })
            .collect();
        let subtitle = format!("{}; one call of the helper per point", models(&s.traces, &clocks));
        let chart =
            Chart { title: &title, subtitle: &subtitle, x_label: label(s.param), y_label: &y.axis, series: &series };
        write_svg(path, &line_chart(&chart))?;
    }
    if req.json {
        return json(s);
    }
    let mut out = String::new();
    let _ = write!(out, "{:>16}", label(s.param));
    for t in &s.traces {
        let _ = write!(out, "  {t:>24}");
    }
    out.push('\n');
    for p in &s.points {
        let _ = write!(out, "{:>16}", p.value);
        for t in 0..s.traces.len() {
            let _ = write!(out, "  {:>24}", call_value(p, t, y));
        }
        out.push('\n');
    }
    if y.path != "cycles" {
        let _ = writeln!(out, "({})", y.axis);
    }
    Ok(out)
}

/// `relative` as a signed percentage, `-` when there is no truth to compare with.
fn percent(relative: Option<f64>) -> String {
    relative.map_or_else(|| "-".to_string(), |r| format!("{:+.4}%", r * 100.0))
}

/// The workload of a sweep's points in words, the swept value named as such: `20000 system
/// calls of 1500 user + 300 kernel cycles, ticks at HZ swept`.
fn workload_line(param: Param, w: &Workload, event: &str) -> String {
    // The swept value reads `swept` where its number would be: `20000 hypercalls of swept
    // user + 300 kernel cycles`, not `of user-cycles swept + 300 kernel cycles`.
    let swept = |p: Param, text: String| if p == param { "swept".to_string() } else { text };
    let calls = match param {
        Param::Syscalls => format!("a swept number of {event}s"),
        _ => format!("{} {event}s", w.syscalls),
    };
    let user = swept(Param::UserCycles, w.user_cycles.to_string());
    let kernel = swept(Param::KernelCycles, w.kernel_cycles.to_string());
    let ticks = match param {
        Param::Hz => "ticks at HZ swept".to_string(),
        _ if w.hz == 0 => "no ticks".to_string(),
        _ => format!("ticks at {} Hz", w.hz),
    };
    format!("{calls} of {user} user + {kernel} kernel cycles, {ticks}")
}

fn render_workloads(req: &SweepRequest, s: &WorkloadSweep, y: &metric::Metric) -> Result<String, CliError> {
    let event = event(req);
    // Each point's metric, looked up in the JSON `--format json` prints.
    let values: Vec<Option<f64>> =
        s.points.iter().map(|p| serde_json::to_value(p).ok().and_then(|v| metric::lookup(&v, &y.path))).collect();
    if let Some(path) = &req.svg {
        let series: Vec<Series> = s
            .traces
            .iter()
            .enumerate()
            .map(|(t, name)| {
                let range = t * s.values.len()..(t + 1) * s.values.len();
                Series {
                    name: name.clone(),
                    points: s.points[range.clone()]
                        .iter()
                        .zip(&values[range])
                        .filter_map(|(p, v)| v.map(|v| (p.value as f64, v * y.scale)))
                        .collect(),
                }
            })
            .collect();
        let clocks: Vec<Option<u64>> =
            (0..s.traces.len()).map(|t| s.points.get(t * s.values.len()).map(|p| p.workload.cpu_hz)).collect();
        let x_label = match s.param {
            Param::Hz => "HZ (timer ticks per second)".to_string(),
            Param::UserCycles => format!("user cycles before each {event}"),
            Param::KernelCycles => format!("kernel cycles inside each {event}"),
            Param::Syscalls => format!("{event}s"),
            p => label(p).to_string(),
        };
        let short = match s.param {
            Param::Hz => "HZ".to_string(),
            _ => x_label.clone(),
        };
        let title = format!("{} vs {short}", y.what);
        let workload = s.points.first().map_or_else(String::new, |p| workload_line(s.param, &p.workload, event));
        let subtitle = format!("{}; {workload}", models(&s.traces, &clocks));
        let x_label = x_label.as_str();
        let chart = Chart { title: &title, subtitle: &subtitle, x_label, y_label: &y.axis, series: &series };
        write_svg(path, &line_chart(&chart))?;
    }
    if req.json {
        return json(s);
    }
    let width = s.traces.iter().map(String::len).max().unwrap_or(0).max("trace".len());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:>14}  {:>14}  {:>12}  {:>14}  {:>14}  {:>10}  {:>14}  {:>14}  {:>10}  within tolerance{}",
        "trace",
        s.param.name(),
        "cycles/call",
        "insns/call",
        "utime true",
        "utime acct",
        "utime err",
        "stime true",
        "stime acct",
        "stime err",
        extra_head(req, y),
    );
    for (p, v) in s.points.iter().zip(&values) {
        let verdict = if p.within_tolerance { "yes" } else { "no" };
        // With a --y column after it, the verdict is padded to its head's width.
        let (verdict, extra) = match req.y {
            Some(_) => (format!("{verdict:<16}"), format!("  {:>16}", number(*v, y))),
            None => (verdict.to_string(), String::new()),
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>14}  {:>14.1}  {:>12.1}  {:>14}  {:>14}  {:>10}  {:>14}  {:>14}  {:>10}  {verdict}{extra}",
            p.trace,
            p.value,
            p.cycles_per_syscall.mean,
            p.instructions_per_syscall,
            p.utime.truth,
            p.utime.accounted,
            percent(p.utime.relative_error),
            p.stime.truth,
            p.stime.accounted,
            percent(p.stime.relative_error),
        );
    }
    let _ = writeln!(
        out,
        "(per {event}: entry + exit paths; times in cycles of each trace's core; error = (accounted - true) / true; \
         tolerance = cycles spent in paths)"
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{ia64_workload, trace};
    use super::*;

    fn base() -> Workload {
        ia64_workload(10, 1500, 1024)
    }

    #[test]
    fn a_workload_parameter_replaces_only_its_own_value() {
        let b = base();
        assert_eq!(Param::Hz.apply(&b, 7), Workload { hz: 7, ..b.clone() });
        assert_eq!(Param::UserCycles.apply(&b, 7), Workload { user_cycles: 7, ..b.clone() });
        assert_eq!(Param::KernelCycles.apply(&b, 7), Workload { kernel_cycles: 7, ..b.clone() });
        assert_eq!(Param::Syscalls.apply(&b, 7), Workload { syscalls: 7, ..b.clone() });
        assert_eq!(Param::Cpus.apply(&b, 7), b);
        assert!(Param::Hz.is_workload() && !Param::MissedPeriods.is_workload());
    }

    #[test]
    fn parameters_apply_to_their_traces_only() {
        let b = base();
        for name in ["ia64/syscall/none", "s390/vtime/delayed", "x86/nohz-syscall/v4.5-rc1"] {
            for p in [Param::UserCycles, Param::KernelCycles, Param::Syscalls] {
                assert!(check_applies(trace(name), p, &b).is_ok(), "{name} {}", p.name());
            }
        }
        assert!(check_applies(trace("ia64/syscall/v1"), Param::Hz, &b).is_ok());
        assert!(check_applies(trace("x86/timer-target/new"), Param::Cpus, &b).is_ok());
        assert!(check_applies(trace("x86/sched-avg/div"), Param::MissedPeriods, &b).is_ok());
        for (name, p) in [
            ("x86/nohz-syscall/patch1", Param::Hz),
            ("x86/timer-target/new", Param::Syscalls),
            ("ia64/syscall/v1", Param::MissedPeriods),
            ("s390/vtime/delayed", Param::Cpus),
        ] {
            match check_applies(trace(name), p, &b) {
                Err(CliError::Usage(m)) => {
                    assert!(m.contains(&format!("--param {} does not apply to {name}", p.name())), "{m}");
                }
                other => panic!("{name} {}: {other:?}", p.name()),
            }
        }
    }
}
