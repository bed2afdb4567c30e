//! `acctemu sweep`: cycles of one call of x86 trace functions as a parameter varies — the CPU
//! count for `x86/timer-target/*` (seed 001), the missed periods for `x86/sched-avg/*`
//! (seed 003). Points run in parallel on all cores; the result is a table, JSON, and an SVG
//! plot.

use super::scenario_x86::load_with_harness;
use super::CliError;
use arch_x86::run::{prepare, RunConfig};
use emu_core::cpu::{Cpu, StopWhen};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::Harness;
use emu_core::plot::{line_chart, Series};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What a sweep varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Param {
    /// Number of CPUs, one of them housekeeping (`x86/timer-target/*`).
    Cpus,
    /// Periods of sysctl_sched_time_avg / 2 since the last update (`x86/sched-avg/*`).
    MissedPeriods,
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
    /// JSON instead of a table.
    pub json: bool,
    /// Write an SVG plot here.
    pub svg: Option<PathBuf>,
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
        }
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

/// The harness text and, for sched-avg, the rq.clock to poke, of one point.
fn harness_for(trace: &traces::Trace, param: Param, value: u64) -> Result<(String, Option<u64>), CliError> {
    match (param, trace.name) {
        (Param::Cpus, n) if n.starts_with("x86/timer-target/") => {
            let this = if value > 2 { 2 } else { 1 };
            let text = traces::timer_target::harness(value, this)
                .ok_or_else(|| usage(format!("--param cpus: {value} is outside 2..=256 CPUs")))?;
            Ok((text, None))
        }
        (Param::MissedPeriods, n) if n.starts_with("x86/sched-avg/") => {
            // The harness's rq: age_stamp 1 s, sysctl_sched_time_avg 1000 ms, so a period is
            // 500 ms; the clock lands 0.4 period into the last one, as in the committed harness.
            let period = 500_000_000u64;
            let overflow = || usage(format!("--param missed-periods: {value} periods overflow the 64-bit clock"));
            let clock = value
                .checked_mul(period)
                .and_then(|c| c.checked_add(1_000_000_000))
                .and_then(|c| c.checked_add(period * 2 / 5))
                .ok_or_else(overflow)?;
            Ok((trace.harness.to_string(), Some(clock)))
        }
        _ => Err(usage(format!("--param {} does not apply to {}", param.name(), trace.name))),
    }
}

/// Runs one call of `trace` at `value`: (cycles, instructions).
fn point(trace: &'static traces::Trace, param: Param, value: u64) -> Result<(u64, u64), CliError> {
    let (text, clock) = harness_for(trace, param, value)?;
    let harness = Harness::parse(trace.harness_name, &text).map_err(CliError::Setup)?;
    // Load with this point's harness: its regions are the C's externs.
    let bytes = trace.object.ok_or_else(|| usage(format!("{} has no object", trace.name)))?;
    let image = load_with_harness(trace.harness_name, &text, bytes)?;
    let cfg = RunConfig { harness: Some(harness), ..RunConfig::default() };
    let (mut machine, _) = prepare(&image, &cfg).map_err(|e| {
        CliError::Setup(Diagnostic::error(SourceLoc::new(trace.harness_name.into(), 0, 0), e.to_string()))
    })?;
    if let Some(clock) = clock {
        // rdi holds rq (the harness's argument); rq.clock is its first field.
        let rq = machine.cpu.state.reg(7);
        machine.mem.write_u64(rq, clock).map_err(|e| usage(format!("rq.clock: {e}")))?;
    }
    let stop = StopWhen { on_sentinel: true, on_rfi: true, on_interruption: true, max_insns: 10_000_000 };
    let reason = machine.run(&stop).map_err(|e| usage(format!("{} at {value}: {}", trace.name, e)))?;
    if !matches!(reason, emu_core::cpu::StopReason::Sentinel) {
        return Err(usage(format!("{} at {value}: stopped with {reason}", trace.name)));
    }
    Ok((machine.cpu.cycles(), machine.cpu.instructions()))
}

/// Runs the sweep.
///
/// # Errors
/// Unknown or non-x86 traces, a parameter that does not apply, a run that fails.
pub fn sweep(req: &SweepRequest) -> Result<Sweep, CliError> {
    if req.traces.is_empty() {
        return Err(usage("sweep: name at least one trace".into()));
    }
    let values = values(req.from, req.to, req.step)?;
    let traces: Vec<&'static traces::Trace> = req
        .traces
        .iter()
        .map(|n| traces::find(n).ok_or_else(|| usage(format!("sweep: no trace named `{n}` (see `acctemu list`)"))))
        .collect::<Result<_, _>>()?;
    let jobs: Vec<(usize, usize)> = (0..values.len()).flat_map(|v| (0..traces.len()).map(move |t| (v, t))).collect();
    let results: Vec<Result<(u64, u64), CliError>> =
        jobs.par_iter().map(|&(v, t)| point(traces[t], req.param, values[v])).collect();
    let mut points: Vec<Point> = values
        .iter()
        .map(|&value| Point { value, cycles: vec![0; traces.len()], instructions: vec![0; traces.len()] })
        .collect();
    for (&(v, t), r) in jobs.iter().zip(results) {
        let (c, i) = r?;
        points[v].cycles[t] = c;
        points[v].instructions[t] = i;
    }
    Ok(Sweep { param: req.param, traces: req.traces.clone(), points })
}

fn label(p: Param) -> &'static str {
    match p {
        Param::Cpus => "CPUs (one housekeeping)",
        Param::MissedPeriods => "missed periods",
    }
}

/// Runs the request and renders it; writes the SVG when asked.
///
/// # Errors
/// As [`sweep`], or an unwritable SVG file.
pub fn run(req: &SweepRequest) -> Result<String, CliError> {
    let s = sweep(req)?;
    if let Some(path) = &req.svg {
        let series: Vec<Series> = s
            .traces
            .iter()
            .enumerate()
            .map(|(t, name)| Series {
                name: name.clone(),
                points: s.points.iter().map(|p| (p.value as f64, p.cycles[t] as f64)).collect(),
            })
            .collect();
        let svg = line_chart(&format!("cycles per call vs {}", label(s.param)), label(s.param), "cycles", &series);
        std::fs::write(path, svg).map_err(|source| CliError::Io { path: path.clone(), source })?;
    }
    if req.json {
        return serde_json::to_string_pretty(&s).map(|t| t + "\n").map_err(|e| CliError::Usage(e.to_string()));
    }
    let mut out = String::new();
    let _ = write!(out, "{:>16}", label(s.param));
    for t in &s.traces {
        let _ = write!(out, "  {t:>24}");
    }
    out.push('\n');
    for p in &s.points {
        let _ = write!(out, "{:>16}", p.value);
        for c in &p.cycles {
            let _ = write!(out, "  {c:>24}");
        }
        out.push('\n');
    }
    Ok(out)
}
