//! The result of a scenario: streamed per-path statistics, the true and accounted times, and
//! their rendering as a text table (JSON comes from serde).

use serde::Serialize;
use std::fmt;

use super::{PathKind, PathRun, Workload};

pub mod verdict;

/// Running count, sum, minimum and maximum of path runs: constant memory for any run length.
#[derive(Debug, Clone, Default)]
pub(super) struct Accumulator {
    calls: u64,
    cycles: u64,
    min: u64,
    max: u64,
    instructions: u64,
    nops: u64,
    groups: u64,
}

impl Accumulator {
    pub(super) fn add(&mut self, run: &PathRun) {
        self.min = if self.calls == 0 { run.cycles } else { self.min.min(run.cycles) };
        self.max = self.max.max(run.cycles);
        self.calls += 1;
        self.cycles = self.cycles.saturating_add(run.cycles);
        self.instructions = self.instructions.saturating_add(run.instructions);
        self.nops = self.nops.saturating_add(run.nops);
        self.groups = self.groups.saturating_add(run.groups);
    }

    pub(super) fn calls(&self) -> u64 {
        self.calls
    }

    pub(super) fn stats(&self) -> CallStats {
        let per_call = |sum: u64| if self.calls == 0 { 0.0 } else { sum as f64 / self.calls as f64 };
        CallStats {
            calls: self.calls,
            cycles: Spread { min: self.min, mean: per_call(self.cycles), max: self.max },
            total_cycles: self.cycles,
            instructions: per_call(self.instructions),
            nops: per_call(self.nops),
            groups: per_call(self.groups),
        }
    }
}

/// Minimum, mean and maximum of a per-call figure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// Smallest value.
    pub min: u64,
    /// Mean value.
    pub mean: f64,
    /// Largest value.
    pub max: u64,
}

/// Statistics of the runs of one path (or of entry + exit per system call).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallStats {
    /// How many times it ran.
    pub calls: u64,
    /// Cycles per call.
    pub cycles: Spread,
    /// Cycles of all calls together.
    pub total_cycles: u64,
    /// Mean instructions per call, nops included.
    pub instructions: f64,
    /// Mean nops per call.
    pub nops: f64,
    /// Mean issue groups per call.
    pub groups: f64,
}

/// The statistics of one bound path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathReport {
    /// Which path.
    pub path: PathKind,
    /// Its statistics.
    #[serde(flatten)]
    pub stats: CallStats,
}

/// Ticks taken, by the mode they interrupted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct TickCounts {
    /// Ticks that split a user phase.
    pub user: u64,
    /// Ticks that split a kernel phase.
    pub kernel: u64,
    /// Ticks that split a guest phase.
    #[serde(skip_serializing_if = "is_zero")]
    pub guest: u64,
    /// Ticks that fell due while a tick was handled and merged into it.
    pub coalesced: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// True against accounted time, in cycles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TimeCheck {
    /// What the workload really spent.
    pub truth: u64,
    /// What the accounting scheme recorded during the run.
    pub accounted: u64,
    /// `accounted - truth` (saturated to the i64 range).
    pub error: i64,
    /// `error / truth`; `None` when the truth is zero.
    pub relative_error: Option<f64>,
    /// Whether `|error|` is at most the run's tolerance (the cycles spent in paths).
    pub within_tolerance: bool,
}

impl TimeCheck {
    /// Compares `accounted` with `truth` under `tolerance`.
    pub fn new(truth: u64, accounted: u64, tolerance: u64) -> TimeCheck {
        let diff = i128::from(accounted) - i128::from(truth);
        let error = i64::try_from(diff).unwrap_or(if diff < 0 { i64::MIN } else { i64::MAX });
        TimeCheck {
            truth,
            accounted,
            error,
            relative_error: (truth > 0).then(|| diff as f64 / truth as f64),
            within_tolerance: diff.unsigned_abs() <= u128::from(tolerance),
        }
    }
}

/// Everything a scenario found out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioReport {
    /// The workload that ran.
    pub workload: Workload,
    /// Cycles between ticks, when ticks ran (HZ given and a tick path bound).
    pub tick_period: Option<u64>,
    /// Cycles of the whole run.
    pub cycles: u64,
    /// Per path that ran, in [`PathKind::ALL`] order.
    pub paths: Vec<PathReport>,
    /// Entry plus exit path of each system call.
    pub per_syscall: CallStats,
    /// Ticks taken.
    pub ticks: TickCounts,
    /// Interrupts (IrqEnter/IrqExit pairs) taken.
    pub irqs: u64,
    /// User time: true against accounted.
    pub utime: TimeCheck,
    /// System time: true against accounted.
    pub stime: TimeCheck,
    /// Guest time, when the scheme keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guest: Option<TimeCheck>,
    /// Hard-interrupt time, when the scheme keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardirq: Option<TimeCheck>,
    /// Soft-interrupt time, when the scheme keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub softirq: Option<TimeCheck>,
    /// Cycles spent in paths: the most an accounting that stamps inside the paths may be off.
    pub tolerance: u64,
}

impl ScenarioReport {
    /// The statistics of `path`, if it ran.
    pub fn path(&self, path: PathKind) -> Option<&CallStats> {
        self.paths.iter().find(|p| p.path == path).map(|p| &p.stats)
    }

    /// One line a reader takes in first: cycles (and ns at the model's clock) per event, and
    /// whether the accounting is within its tolerance of the truth, with each kept time's
    /// error: `141.0 cycles (94.0 ns at 1.5 GHz) per system call; accounting within tolerance
    /// of the truth: utime +5.34%, stime -18.16%`.
    pub fn summary(&self) -> String {
        let w = &self.workload;
        let event = if w.guest { "hypercall" } else { "system call" };
        let cycles = self.per_syscall.cycles.mean;
        let ns = if w.cpu_hz > 0 {
            format!(" ({:.1} ns at {})", cycles * 1e9 / w.cpu_hz as f64, verdict::clock_text(w.cpu_hz))
        } else {
            String::new()
        };
        let verdict = verdict::AccountingVerdict::of(self);
        let errors: Vec<String> = verdict
            .buckets
            .iter()
            .map(|b| {
                format!("{} {}", b.bucket, b.error_percent.map_or_else(|| "-".to_string(), |e| format!("{e:+.2}%")))
            })
            .collect();
        let word = if verdict.correct { "within tolerance of" } else { "WRONG, beyond tolerance of" };
        format!("{cycles:.1} cycles{ns} per {event}; accounting {word} the truth: {}", errors.join(", "))
    }

    /// Every time check the scheme keeps, named: utime, stime, then guest, hardirq and softirq
    /// when present.
    pub fn time_checks(&self) -> impl Iterator<Item = (&'static str, &TimeCheck)> {
        let optional = [("guest", &self.guest), ("hardirq", &self.hardirq), ("softirq", &self.softirq)];
        [("utime", &self.utime), ("stime", &self.stime)]
            .into_iter()
            .chain(optional.into_iter().filter_map(|(name, t)| t.as_ref().map(|t| (name, t))))
    }
}

impl fmt::Display for ScenarioReport {
    /// A one-line summary, the workload line, a table of paths, the tick and interrupt counts,
    /// and the time checks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.workload;
        let (events, outer, per_event) = if w.guest {
            ("guest hypercalls", "guest", "per hypercall")
        } else {
            ("system calls", "user", "per syscall")
        };
        writeln!(f, "{}\n", self.summary())?;
        write!(
            f,
            "workload: {} {events}, {} {outer} + {} kernel cycles each, ",
            w.syscalls, w.user_cycles, w.kernel_cycles
        )?;
        match self.tick_period {
            Some(p) => writeln!(f, "HZ {} at {} Hz (a tick every {p} cycles)", w.hz, w.cpu_hz)?,
            None if w.hz > 0 => writeln!(f, "no ticks (HZ {} but no tick path bound)", w.hz)?,
            None => writeln!(f, "no ticks")?,
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:<14} {:>10} {:>8} {:>10} {:>8} {:>8} {:>7} {:>7}",
            "path", "calls", "min", "mean", "max", "insns", "nops", "groups"
        )?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, s: &CallStats| {
            writeln!(
                f,
                "{name:<14} {:>10} {:>8} {:>10.1} {:>8} {:>8.1} {:>7.1} {:>7.1}",
                s.calls, s.cycles.min, s.cycles.mean, s.cycles.max, s.instructions, s.nops, s.groups
            )
        };
        for p in &self.paths {
            row(f, p.path.name(), &p.stats)?;
        }
        row(f, per_event, &self.per_syscall)?;
        writeln!(f)?;
        write!(f, "ticks: {} in user, {} in kernel, ", self.ticks.user, self.ticks.kernel)?;
        if w.guest {
            write!(f, "{} in guest, ", self.ticks.guest)?;
        }
        writeln!(f, "{} coalesced; interrupts: {}", self.ticks.coalesced, self.irqs)?;
        writeln!(f, "total cycles: {}", self.cycles)?;
        writeln!(f)?;
        let buckets = [("guest", &self.guest), ("hardirq", &self.hardirq), ("softirq", &self.softirq)];
        let optional: Vec<_> = buckets.into_iter().filter_map(|(name, t)| t.as_ref().map(|t| (name, t))).collect();
        let width = optional.iter().map(|(name, _)| name.len()).fold(6, usize::max);
        writeln!(f, "{:<width$} {:>16} {:>16} {:>14} {:>10}", "time", "true", "accounted", "error", "relative")?;
        for (name, t) in [("utime", &self.utime), ("stime", &self.stime)].into_iter().chain(optional) {
            let rel = t.relative_error.map_or_else(|| "-".to_string(), |r| format!("{:+.4}%", r * 100.0));
            let mark = if t.within_tolerance { "" } else { "  (beyond tolerance)" };
            writeln!(f, "{name:<width$} {:>16} {:>16} {:>+14} {rel:>10}{mark}", t.truth, t.accounted, t.error)?;
        }
        writeln!(f, "tolerance (cycles spent in paths): {}", self.tolerance)
    }
}
