//! `sweep --y METRIC`: which number of each point a sweep plots (issue 18), by its path in the
//! point's JSON (`stime.relative_error`), with the words and unit its chart shows.

use super::super::CliError;

/// The metrics of a workload sweep: every numeric field of a point's report (its JSON, as
/// `--format json` prints it), by path; `cycles` and `instructions` are short for the per-call
/// figures. `guest`, `hardirq` and `softirq` exist on the traces that keep those times.
pub const WORKLOAD_METRICS: &[&str] = &[
    "cycles",
    "instructions",
    "cycles_per_syscall.mean",
    "cycles_per_syscall.min",
    "cycles_per_syscall.max",
    "instructions_per_syscall",
    "utime.relative_error",
    "utime.error",
    "utime.truth",
    "utime.accounted",
    "stime.relative_error",
    "stime.error",
    "stime.truth",
    "stime.accounted",
    "guest.relative_error",
    "guest.error",
    "guest.truth",
    "guest.accounted",
    "hardirq.relative_error",
    "hardirq.error",
    "hardirq.truth",
    "hardirq.accounted",
    "softirq.relative_error",
    "softirq.error",
    "softirq.truth",
    "softirq.accounted",
    "ticks.user",
    "ticks.kernel",
    "ticks.coalesced",
    "tick_period",
    "tolerance",
    "workload.syscalls",
    "workload.user_cycles",
    "workload.kernel_cycles",
    "workload.hz",
    "workload.cpu_hz",
    "workload.irq_every",
];

/// The metrics of a call sweep (`cpus`, `missed-periods`): one call's cycles and instructions.
pub const CALL_METRICS: &[&str] = &["cycles", "instructions"];

/// A metric the user named, resolved: where it is in a point and how a chart shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// The path in a point's JSON (`cycles` resolved to `cycles_per_syscall.mean`).
    pub path: String,
    /// What the title calls it.
    pub what: String,
    /// The y axis's label, with the unit.
    pub axis: String,
    /// The factor from the point's value to the plotted one (100 for a ratio shown in %).
    pub scale: f64,
}

/// `name` as a metric of a sweep whose points are `event`s (`system call`, `hypercall`), or of
/// a call sweep when `calls`.
///
/// # Errors
/// A name that is no metric, with the list of those there are.
pub fn resolve(name: &str, calls: bool, event: &str) -> Result<Metric, CliError> {
    let known = if calls { CALL_METRICS } else { WORKLOAD_METRICS };
    if !known.contains(&name) {
        let kind = if calls { "a call sweep (cpus, missed-periods)" } else { "a workload sweep" };
        return Err(CliError::Usage(format!(
            "sweep: --y {name}: no such metric of {kind}; the metrics are: {}",
            known.join(", ")
        )));
    }
    if calls {
        let unit = if name == "cycles" { "cycles" } else { "instructions" };
        return Ok(Metric {
            path: name.into(),
            what: format!("{unit} per call"),
            axis: format!("{unit} per call"),
            scale: 1.0,
        });
    }
    let path = match name {
        "cycles" => "cycles_per_syscall.mean",
        "instructions" => "instructions_per_syscall",
        other => other,
    };
    let (head, leaf) = path.split_once('.').unwrap_or((path, ""));
    let time = |t: &str| match t {
        "utime" => "user time",
        "stime" => "system time",
        "guest" => "guest time",
        "hardirq" => "hard-interrupt time",
        _ => "soft-interrupt time",
    };
    let per = format!("per {event} (entry + exit paths)");
    let (what, axis, scale) = match (head, leaf) {
        ("cycles_per_syscall", stat) => (format!("{stat} cycles {per}"), format!("cycles {per}"), 1.0),
        ("instructions_per_syscall", _) => (format!("instructions {per}"), format!("instructions {per}"), 1.0),
        (t, "relative_error") => {
            (format!("{} accounting error", time(t)), format!("{t} error in %: (accounted - true) / true"), 100.0)
        }
        (t, "error") => (format!("{} accounting error", time(t)), format!("{t} accounted - true, cycles"), 1.0),
        (t, "truth") => (format!("true {}", time(t)), format!("{t} true, cycles"), 1.0),
        (t, "accounted") => (format!("accounted {}", time(t)), format!("{t} accounted, cycles"), 1.0),
        ("ticks", kind) => (format!("{kind} ticks"), format!("{kind} ticks taken"), 1.0),
        ("tick_period", _) => ("cycles between ticks".into(), "cycles between ticks".into(), 1.0),
        ("tolerance", _) => ("tolerance".into(), "tolerance (cycles spent in paths)".into(), 1.0),
        (_, field) => (format!("workload {field}"), format!("workload {field}"), 1.0),
    };
    Ok(Metric { path: path.into(), what, axis, scale })
}

/// The value at `path` (dotted) in `point`, when it is a number there (an absent time check,
/// no ticks' period, an error with no truth to compare are `None`).
pub fn lookup(point: &serde_json::Value, path: &str) -> Option<f64> {
    path.split('.').try_fold(point, |v, key| v.get(key))?.as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_paths_words_and_units() {
        let m = resolve("stime.relative_error", false, "system call").expect("a metric");
        assert_eq!(m.path, "stime.relative_error");
        assert_eq!((m.what.as_str(), m.scale), ("system time accounting error", 100.0));
        assert!(m.axis.contains("in %"), "{m:?}");
        let m = resolve("cycles", false, "hypercall").expect("a metric");
        assert_eq!(m.path, "cycles_per_syscall.mean");
        assert_eq!(m.axis, "cycles per hypercall (entry + exit paths)");
        assert_eq!(resolve("instructions", true, "").expect("a metric").axis, "instructions per call");
    }

    #[test]
    fn an_unknown_metric_lists_the_known_ones() {
        match resolve("stime.relative", false, "system call") {
            Err(CliError::Usage(m)) => {
                assert!(m.starts_with("sweep: --y stime.relative: no such metric of a workload sweep"), "{m}");
                assert!(m.contains("stime.relative_error, stime.error"), "{m}");
            }
            other => panic!("{other:?}"),
        }
        assert!(resolve("stime.relative_error", true, "").is_err(), "a call sweep has no times");
    }

    #[test]
    fn lookup_follows_the_path_to_a_number() {
        let v = serde_json::json!({"stime": {"relative_error": -0.25, "truth": 8}, "tick_period": null});
        assert_eq!(lookup(&v, "stime.relative_error"), Some(-0.25));
        assert_eq!(lookup(&v, "stime.truth"), Some(8.0));
        assert_eq!(lookup(&v, "tick_period"), None);
        assert_eq!(lookup(&v, "guest.truth"), None);
    }
}
