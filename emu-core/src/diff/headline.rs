//! The first lines of a cycle-diff: which version is cheaper and by how much, the overhead
//! ratio against the baseline, and each version's accounting verdict, every figure computed
//! from the reports; and the short names the columns are headed with.

use super::naming::{head, MAX_HEAD};
use super::{AccountingVerdict, CycleDiff, Side};

/// The column heads of A, B and the baseline: [`head`]s of the sides' names, B marked `'`
/// when it still shares A's, and `A`/`B` when even that collides.
pub fn column_names(d: &CycleDiff) -> (String, String, Option<String>) {
    let a = head(&d.a.name);
    let mut b = head(&d.b.name);
    if b == a {
        b = format!("{}'", b.chars().take(MAX_HEAD - 1).collect::<String>());
    }
    let base = d.baseline.as_ref().map(|s| head(&s.name));
    if b == a || base.as_ref().is_some_and(|n| *n == a || *n == b) {
        return ("A".into(), "B".into(), base.map(|_| "base".into()));
    }
    (a, b, base)
}

/// Cycles per event of a side: its entry plus exit paths.
pub(super) fn per_event(s: &Side) -> f64 {
    s.report.per_syscall.cycles.mean
}

/// `cycles` at the side's clock, in nanoseconds (`None` without a clock).
pub(super) fn nanos(s: &Side, cycles: f64) -> Option<f64> {
    let hz = s.report.workload.cpu_hz;
    (hz > 0).then(|| cycles * 1e9 / hz as f64)
}

pub use crate::scenario::verdict::clock_text;

/// The bucket of a verdict furthest off the truth, as `stime -14.8%` (`-` when none has a
/// percentage).
fn worst(v: &AccountingVerdict) -> String {
    v.buckets
        .iter()
        .filter_map(|b| b.error_percent.map(|e| (b.bucket, e)))
        .max_by(|x, y| x.1.abs().total_cmp(&y.1.abs()))
        .map_or_else(|| "-".to_string(), |(bucket, e)| format!("{bucket} {e:+.1}%"))
}

/// `correct (stime -14.8%)` or `WRONG (utime -100.0%)`: against the truth, within its
/// tolerance or not, and the bucket furthest off.
pub fn verdict_word(v: &AccountingVerdict) -> String {
    let word = if v.correct { "within tolerance" } else { "WRONG, beyond tolerance" };
    format!("{word} ({})", worst(v))
}

/// The headline: one sentence per finding, each ending in a full stop, in the order a reviewer
/// asks: which version is cheaper, what the overhead over the baseline is, and whether each
/// version accounts the true time and whether they agree with each other.
pub fn headline(d: &CycleDiff) -> Vec<String> {
    let (na, nb, nbase) = column_names(d);
    let event = if d.a.report.workload.guest { "hypercall" } else { "system call" };
    let (ca, cb) = (per_event(&d.a), per_event(&d.b));
    let delta = cb - ca;
    let ns = |c: f64| nanos(&d.b, c.abs()).map_or_else(String::new, |n| format!(", {n:.1} ns"));
    let mut out = Vec::new();
    let pct = |x: f64, of: f64| if of == 0.0 { String::new() } else { format!(" ({:+.1}%{})", x * 100.0 / of, ns(x)) };
    out.push(if delta.abs() < 0.05 {
        format!("{nb} and {na} cost the same: {cb:.1} cycles per {event}.")
    } else if delta < 0.0 {
        format!("{nb} saves {:.1} cycles per {event}{} over {na} ({cb:.1} against {ca:.1}).", -delta, pct(delta, ca))
    } else {
        format!("{nb} costs {delta:.1} cycles per {event} more{} than {na} ({cb:.1} against {ca:.1}).", pct(delta, ca))
    });
    if let (Some(base), Some(nbase)) = (&d.baseline, &nbase) {
        let t = per_event(base);
        let (oa, ob) = (ca - t, cb - t);
        let ratio = if oa == 0.0 { String::new() } else { format!(", {:.2}x {na}'s", ob / oa) };
        out.push(format!("Overhead over {nbase}: {nb} {ob:+.1}, {na} {oa:+.1} cycles{ratio}."));
    }
    out.push(format!(
        "Against the true time: {na} {}, {nb} {}.",
        verdict_word(&d.a_verdict),
        verdict_word(&d.b_verdict)
    ));
    let agree = if d.same_accounting() { "agree" } else { "DISAGREE" };
    out.push(format!("With each other: {na} and {nb} {agree} on utime/stime within tolerance."));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_people_write_them() {
        assert_eq!(clock_text(1_500_000_000), "1.5 GHz");
        assert_eq!(clock_text(3_000_000_000), "3 GHz");
        assert_eq!(clock_text(800_000_000), "800 MHz");
    }
}
