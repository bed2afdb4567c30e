//! What a workload of `scenario`, `diff` and `sweep` would run, worked out before anything runs:
//! how many paths (system-call or hypercall pairs, interrupt pairs, ticks: total cycles over
//! cycles per tick), so a workload that would take days, or whose flags cannot be meant (a tick
//! more often than the clock cycles), is refused with an estimate instead of run.

use super::CliError;
use emu_core::scenario::{PathKind, Workload};
use traces::PathKind as Bound;

/// The default of `--max-paths`: about a minute or two of a release build on one core (an ia64
/// system-call path runs in the order of a microsecond), far beyond the README's workloads.
pub const DEFAULT_MAX_PATHS: u64 = 100_000_000;

/// The paths a workload runs on a trace, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathCounts {
    /// Entry and exit paths: two per system call (or guest hypercall).
    pub events: u64,
    /// Interrupt enter and exit paths: two per `--irq-every` user phases, when bound.
    pub irqs: u64,
    /// Tick paths: the workload's cycles over the tick period, when ticks are on and bound.
    pub ticks: u64,
}

impl PathCounts {
    /// All paths.
    pub fn total(&self) -> u64 {
        self.events.saturating_add(self.irqs).saturating_add(self.ticks)
    }
}

/// Whether `trace` binds both interrupt paths, which `--irq-every` runs.
fn has_irq_paths(trace: &traces::Trace) -> bool {
    trace.binding(Bound::IrqEnter).is_some() && trace.binding(Bound::IrqExit).is_some()
}

/// The paths workload `w` (on the Itanium 2 clock, as the flags give it) runs on `trace`'s
/// core. Ticks are counted over the user and kernel phases; the paths' own cycles add a few more
/// (hence an estimate).
pub fn path_counts(trace: &traces::Trace, w: &Workload) -> PathCounts {
    let w = trace.workload(w);
    let events = w.syscalls.saturating_mul(2);
    let irqs = match w.irq_every {
        Some(n) if n > 0 && has_irq_paths(trace) => (w.syscalls / n).saturating_mul(2),
        _ => 0,
    };
    let ticks = match (w.tick_period(), trace.binding(Bound::Tick).is_some()) {
        (Some(period), true) => w.span().unwrap_or(u64::MAX) / period,
        _ => 0,
    };
    PathCounts { events, irqs, ticks }
}

/// Refuses what `w` cannot mean on `trace`: a tick rate above the clock of its core (the
/// period would be rounded up to one cycle), `--irq-every` on a trace with no interrupt paths
/// (it would silently run none).
///
/// # Errors
/// A usage error naming the flag, the trace and what the flag would have meant.
pub fn check_rates(trace: &traces::Trace, w: &Workload) -> Result<(), CliError> {
    let aw = trace.workload(w);
    if aw.hz > aw.cpu_hz {
        return Err(CliError::Usage(format!(
            "--hz {}: more ticks per second than the {} Hz clock of {}'s core has cycles (a tick \
             every {:.3} cycles cannot be modelled); give at most --hz {}, or 0 for no ticks",
            aw.hz,
            aw.cpu_hz,
            trace.name,
            aw.cpu_hz as f64 / aw.hz as f64,
            aw.cpu_hz
        )));
    }
    if w.irq_every.is_some() && !has_irq_paths(trace) {
        return Err(CliError::Usage(format!(
            "--irq-every: trace {} binds no irq_enter and irq_exit paths, so it would run no interrupts",
            trace.name
        )));
    }
    Ok(())
}

/// Refuses a total of `paths` paths above `max_paths`, explaining where they come from
/// (`what`, e.g. the counts of one workload) and, when it can, the emulated instructions they
/// would take (from `probe`, a short run giving instructions per path).
///
/// # Errors
/// A usage error with the estimate, the limit and the flag that raises it.
pub fn check_total(paths: u64, max_paths: u64, what: &str, insns: Option<f64>) -> Result<(), CliError> {
    if paths <= max_paths {
        return Ok(());
    }
    let insns = insns.map(|i| format!(", ~{} emulated instructions", approx(i))).unwrap_or_default();
    Err(CliError::Usage(format!(
        "this workload would run ~{} paths{insns} ({what}); the limit is {} paths: reduce the workload \
         or raise the limit with --max-paths",
        approx(paths as f64),
        approx(max_paths as f64)
    )))
}

/// Checks workload `w` on `trace` against `max_paths` (see [`check_rates`] for the rest).
///
/// # Errors
/// As [`check_rates`] and [`check_total`].
pub fn check(trace: &traces::Trace, w: &Workload, max_paths: u64) -> Result<(), CliError> {
    check_rates(trace, w)?;
    let counts = path_counts(trace, w);
    if counts.total() <= max_paths {
        return Ok(());
    }
    check_total(counts.total(), max_paths, &describe(trace, w, &counts), instructions(trace, w, &counts))
}

/// Where the paths of one workload come from, in words: `2000 system-call paths, ~6.8e11 tick
/// paths = 1.0e18 cycles / 1464843 cycles per tick at 1024 Hz`.
pub fn describe(trace: &traces::Trace, w: &Workload, counts: &PathCounts) -> String {
    let aw = trace.workload(w);
    let kind = if w.guest { "hypercall" } else { "system-call" };
    let mut parts = vec![format!("{} {kind} paths", approx(counts.events as f64))];
    if counts.irqs > 0 {
        parts.push(format!("{} interrupt paths", approx(counts.irqs as f64)));
    }
    if counts.ticks > 0 {
        let period = aw.tick_period().unwrap_or(1);
        parts.push(format!(
            "~{} tick paths = {} cycles / {period} cycles per tick at {} Hz",
            approx(counts.ticks as f64),
            approx(aw.span().unwrap_or(u64::MAX) as f64),
            aw.hz
        ));
    }
    format!("{}: {}", trace.name, parts.join(", "))
}

/// The emulated instructions `counts` would take on `trace`, from a probe: one system call
/// (and one interrupt, one tick when the workload has them) of the same workload, whose
/// instructions per path scale to the counts. `None` when the probe does not run.
pub fn instructions(trace: &traces::Trace, w: &Workload, counts: &PathCounts) -> Option<f64> {
    let aw = trace.workload(w);
    let probe = Workload {
        syscalls: 1,
        // One tick falls due inside the user phase: the probe then times the tick path too.
        user_cycles: aw.tick_period().map_or(w.user_cycles, |p| p.saturating_add(1)),
        irq_every: w.irq_every.map(|_| 1),
        ..w.clone()
    };
    let report = trace.run(&probe, &mut |_| {}).ok()?;
    let per = |kinds: &[PathKind]| -> f64 {
        let found = report.paths.iter().filter(|p| kinds.contains(&p.path));
        found.map(|p| p.stats.instructions).sum::<f64>() / kinds.len() as f64
    };
    let (enter, exit) = w.event_paths();
    Some(
        counts.events as f64 * per(&[enter, exit])
            + counts.irqs as f64 * per(&[PathKind::IrqEnter, PathKind::IrqExit])
            + counts.ticks as f64 * per(&[PathKind::Tick]),
    )
}

/// `x` as people read a count: exact below a million, else `6.8e11`.
pub fn approx(x: f64) -> String {
    if x < 1e6 {
        format!("{}", x.round() as u64)
    } else {
        format!("{x:.1e}")
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{ia64_workload as ia64, trace};
    use super::*;

    #[test]
    fn ticks_are_the_cycles_over_the_period() {
        let t = trace("ia64/syscall/v1");
        let c = path_counts(t, &ia64(1000, 1_000_000_000_000_000, 1024));
        assert_eq!(c.events, 2000);
        // (1e15 + 300) * 1000 cycles / (1.5e9 / 1024 = 1464843 cycles per tick).
        assert_eq!(c.ticks, (1_000_000_000_000_300u64 * 1000) / 1_464_843);
        assert_eq!(path_counts(t, &ia64(1000, 1500, 0)).ticks, 0);
    }

    #[test]
    fn the_default_workload_is_far_below_the_limit() {
        let t = trace("ia64/syscall/v2");
        assert!(check(t, &ia64(10_000, 1500, 1024), DEFAULT_MAX_PATHS).is_ok());
    }

    #[test]
    fn a_huge_workload_is_refused_with_an_estimate() {
        let t = trace("ia64/syscall/v1");
        match check(t, &ia64(1000, 1_000_000_000_000_000, 1024), DEFAULT_MAX_PATHS) {
            Err(CliError::Usage(m)) => {
                assert!(m.contains("~6.8e11 paths"), "{m}");
                assert!(m.contains("1464843 cycles per tick"), "{m}");
                assert!(m.contains("emulated instructions"), "{m}");
                assert!(m.contains("--max-paths"), "{m}");
            }
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn a_tick_rate_above_the_clock_is_refused() {
        let t = trace("ia64/syscall/v1");
        match check_rates(t, &ia64(10, 1500, 1_000_000_000_000)) {
            Err(CliError::Usage(m)) => assert!(m.contains("--hz 1000000000000") && m.contains("1500000000"), "{m}"),
            other => panic!("expected a usage error, got {other:?}"),
        }
        assert!(check_rates(t, &ia64(10, 1500, 1_500_000_000)).is_ok());
    }

    #[test]
    fn approximations_read_as_counts() {
        assert_eq!(approx(2000.0), "2000");
        assert_eq!(approx(6.8e11), "6.8e11");
    }
}
