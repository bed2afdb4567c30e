//! A cycle-diff as text: the headline, the legend of column heads, the model and workload,
//! the per-path table (cycles, ns at the model's clock, overhead over the baseline), where the
//! difference comes from (labels, then instruction groups matched by code, the smallest
//! folded), and the accounting against the truth and between the versions; and the same
//! wrapped to 72 columns of plain ASCII for a mail ([`Layout::Mail`]).

use super::headline::{clock_text, column_names, headline, nanos, per_event};
use super::{CycleDiff, GroupDelta, Side};
use crate::scenario::{PathKind, TimeCheck};
use std::fmt::Write as _;

/// Changes smaller than this many cycles per system call are noise: folded into one row.
pub const NOISE: f64 = 0.05;

/// The widest a mail line may be.
pub const MAIL_WIDTH: usize = 72;

/// How a diff is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// For a terminal: long instruction lists stay on one line.
    Text,
    /// For a mail: plain ASCII, every line at most [`MAIL_WIDTH`] columns.
    Mail,
}

/// What to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Text or mail.
    pub layout: Layout,
    /// The most instruction-group rows shown; the rest are folded into one `other` row.
    pub top: usize,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions { layout: Layout::Text, top: 8 }
    }
}

/// Column heads and the rows' figure getter.
struct Names {
    a: String,
    b: String,
    base: Option<String>,
}

fn mean(s: &Side, path: PathKind) -> f64 {
    s.report.path(path).map_or(0.0, |p| p.cycles.mean)
}

fn ratio(a: f64, b: f64) -> String {
    if a == 0.0 {
        "-".to_string()
    } else {
        format!("{:.3}", b / a)
    }
}

/// The diff laid out as `opts` says.
pub fn render(d: &CycleDiff, opts: RenderOptions) -> String {
    let (a, b, base) = column_names(d);
    let n = Names { a, b, base };
    let mut out = String::new();
    for line in headline(d) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", legend(&n.a, &d.a));
    let _ = writeln!(out, "{}", legend(&n.b, &d.b));
    if let (Some(base), Some(name)) = (&d.baseline, &n.base) {
        let _ = writeln!(out, "{} (the baseline)", legend(name, base));
    }
    let _ = writeln!(out, "{}\n", model_and_workload(d));
    table(&mut out, d, &n);
    if d.a.groups.is_empty() && d.b.groups.is_empty() {
        // Every core attributes its groups; none recorded means the runs had no timing model.
        let _ = writeln!(out, "\n(no per-group attribution: the runs recorded no issue groups)");
    } else {
        attribution(&mut out, d, &n, opts);
    }
    accounting(&mut out, d, &n);
    match opts.layout {
        Layout::Text => out,
        Layout::Mail => mail(&out),
    }
}

/// `v2+stop = v2+ia64-v2-stop.diff: ia64/syscall/v2 patched by ...`: a column head, the
/// side's name and how it was built.
fn legend(head: &str, s: &Side) -> String {
    let mut line = format!("{head} = {}", s.name);
    if !s.built.is_empty() {
        line.push_str(&format!(": {}", s.built));
    }
    line
}

/// `B-A` and `B/A` of two column heads, each `change` or `ratio` when it does not fit its column.
pub(super) fn delta_heads(a: &str, b: &str) -> (String, String) {
    let (delta, quotient) = (format!("{b}-{a}"), format!("{b}/{a}"));
    // The ratio column is one narrower than the others.
    let delta = if delta.chars().count() <= super::naming::MAX_HEAD { delta } else { "change".to_string() };
    let quotient = if quotient.chars().count() < super::naming::MAX_HEAD { quotient } else { "ratio".to_string() };
    (delta, quotient)
}

/// `model: Itanium 2 at 1.5 GHz; workload: 10000 system calls, ...`.
fn model_and_workload(d: &CycleDiff) -> String {
    let w = &d.a.report.workload;
    let (event, outer) = if w.guest { ("guest hypercalls", "guest") } else { ("system calls", "user") };
    let model = if d.a.model.is_empty() { "the core's model".to_string() } else { d.a.model.clone() };
    format!(
        "model: {model} at {}; workload: {} {event}, {} {outer} + {} kernel cycles each, HZ {}",
        clock_text(w.cpu_hz),
        w.syscalls,
        w.user_cycles,
        w.kernel_cycles,
        w.hz
    )
}

/// One per-event figure of a side.
type Figure = fn(&Side) -> f64;

fn table(out: &mut String, d: &CycleDiff, n: &Names) {
    let w = &d.a.report.workload;
    let (per, into, out_of) = if w.guest {
        ("cycles per hypercall", "guest exit", "guest enter")
    } else {
        ("cycles per system call", "syscall entry", "syscall exit")
    };
    let (delta, quotient) = delta_heads(&n.a, &n.b);
    let _ = write!(out, "{per:<23}");
    if let Some(base) = &n.base {
        let _ = write!(out, "{base:>10}");
    }
    let _ = writeln!(out, "{:>10}{:>10}{:>10}{:>9}", n.a, n.b, delta, quotient);
    let rows: [(&str, Figure); 5] = [
        (into, |s| mean(s, s.report.workload.event_paths().0)),
        (out_of, |s| mean(s, s.report.workload.event_paths().1)),
        ("entry + exit", per_event),
        ("instructions", |s| s.report.per_syscall.instructions),
        ("instruction groups", |s| s.report.per_syscall.groups),
    ];
    let row = |out: &mut String, name: &str, get: &dyn Fn(&Side) -> Option<f64>, with_ratio: bool| {
        let _ = write!(out, "{name:<23}");
        if let Some(base) = &d.baseline {
            let _ = write!(out, "{:>10}", get(base).map_or_else(String::new, |v| format!("{v:.1}")));
        }
        let (Some(va), Some(vb)) = (get(&d.a), get(&d.b)) else {
            let _ = writeln!(out);
            return;
        };
        let _ = write!(out, "{va:>10.1}{vb:>10.1}{:>+10.1}", vb - va);
        let _ = if with_ratio { writeln!(out, "{:>9}", ratio(va, vb)) } else { writeln!(out) };
    };
    for (i, (name, get)) in rows.iter().enumerate() {
        row(out, name, &|s| Some(get(s)), true);
        if i == 2 {
            let clock = format!("  ns at {}", clock_text(w.cpu_hz));
            row(out, &clock, &|s| nanos(s, per_event(s)), false);
        }
    }
    if let Some(base) = &d.baseline {
        let t = per_event(base);
        let name = format!("overhead over {}", n.base.as_deref().unwrap_or("baseline"));
        let (oa, ob) = (per_event(&d.a) - t, per_event(&d.b) - t);
        let _ = writeln!(out, "{name:<23}{:>10}{oa:>+10.1}{ob:>+10.1}{:>+10.1}{:>9}", "", ob - oa, ratio(oa, ob));
    }
}

/// Rows sorted largest change first, the noise and the rows beyond `top` folded.
struct Folded<'a> {
    shown: Vec<&'a GroupDelta>,
    other: (usize, f64),
    noise: (usize, f64),
}

fn fold(rows: &[GroupDelta], top: usize) -> Folded<'_> {
    let mut sorted: Vec<&GroupDelta> = rows.iter().filter(|r| !(r.same_code && r.b == r.a)).collect();
    sorted.sort_by(|x, y| (y.b - y.a).abs().total_cmp(&(x.b - x.a).abs()).then(x.place.cmp(&y.place)));
    let (mut shown, mut other, mut noise) = (Vec::new(), (0, 0.0), (0, 0.0));
    for r in sorted {
        let d = r.b - r.a;
        if d.abs() < NOISE {
            noise = (noise.0 + r.groups, noise.1 + d);
        } else if shown.len() < top {
            shown.push(r);
        } else {
            other = (other.0 + r.groups, other.1 + d);
        }
    }
    Folded { shown, other, noise }
}

fn groups(n: usize) -> String {
    if n == 1 {
        "1 group".to_string()
    } else {
        format!("{n} groups")
    }
}

fn attribution(out: &mut String, d: &CycleDiff, n: &Names, opts: RenderOptions) {
    let (delta, _) = delta_heads(&n.a, &n.b);
    let labels: Vec<_> = d.by_label.iter().filter(|l| (l.b - l.a).abs() >= NOISE).collect();
    let event = if d.a.report.workload.guest { "hypercall" } else { "system call" };
    let _ = writeln!(out, "\nwhere the difference comes from (cycles per {event}):");
    // The groups cover the paths that keep a profile; say so when they miss the change.
    let attributed: f64 = d.by_label.iter().map(|l| l.b - l.a).sum();
    let measured = per_event(&d.b) - per_event(&d.a);
    if (attributed - measured).abs() > 0.5 {
        let _ = writeln!(
            out,
            "  (the groups below add up to {attributed:+.1} of the {measured:+.1} cycles per {event} measured: \
             the rest is in paths that ran without a group profile)"
        );
    }
    if labels.is_empty() {
        let _ = writeln!(out, "  no label's cost changed by {NOISE} cycles per call or more");
    } else {
        let _ = writeln!(out, "  {:<32}{:>10}{:>10}{:>10}", "by label", n.a, n.b, delta);
        for l in &labels {
            let _ = writeln!(out, "  {:<32}{:>10.2}{:>10.2}{:>+10.2}", l.label, l.a, l.b, l.b - l.a);
        }
    }
    let f = fold(&d.by_group, opts.top);
    if f.shown.is_empty() && f.other.0 == 0 && f.noise.0 == 0 {
        let _ = writeln!(out, "  no instruction group changed");
        return;
    }
    let _ = writeln!(out, "\n  {:<32}{:>10}{:>10}{:>10}", "by instruction group (by code)", n.a, n.b, delta);
    for g in &f.shown {
        let _ = writeln!(out, "  {:<32}{:>10.2}{:>10.2}{:>+10.2}", g.place, g.a, g.b, g.b - g.a);
        let none = |t: &str| if t.is_empty() { "(none)".to_string() } else { t.to_string() };
        if g.same_code && g.a_text == g.b_text {
            let _ = writeln!(out, "      same code: {}", g.a_text);
        } else {
            code_lines(out, &n.a, &none(&g.a_text));
            code_lines(out, &n.b, &none(&g.b_text));
        }
        match (g.a_why.is_empty(), g.b_why.is_empty()) {
            (true, true) => {}
            _ if g.a_why == g.b_why => {
                let _ = writeln!(out, "      waits: {}", g.a_why);
            }
            _ => {
                let show = |w: &str| if w.is_empty() { "no wait".to_string() } else { w.to_string() };
                let _ = writeln!(out, "      waits: {} {}; {} {}", n.a, show(&g.a_why), n.b, show(&g.b_why));
            }
        }
    }
    if f.other.0 > 0 {
        let _ = writeln!(out, "  other ({}, {:+.2} cycles)", groups(f.other.0), f.other.1);
    }
    if f.noise.0 > 0 {
        let _ =
            writeln!(out, "  noise ({} under {NOISE} cycles per call, {:+.2} cycles)", groups(f.noise.0), f.noise.1);
    }
}

/// `      v1: group` and each further group of a run (` ;; `-separated) on a line of its own
/// under the first.
fn code_lines(out: &mut String, side: &str, text: &str) {
    let head = format!("      {side}: ");
    for (i, group) in text.split(" ;; ").enumerate() {
        let lead = if i == 0 { head.clone() } else { " ".repeat(head.len()) };
        let _ = writeln!(out, "{lead}{group}");
    }
}

fn percent(t: &TimeCheck) -> String {
    t.relative_error.map_or_else(|| "-".to_string(), |r| format!("{:+.2}%", r * 100.0))
}

fn accounting(out: &mut String, d: &CycleDiff, n: &Names) {
    let (a, b) = (&d.a.report, &d.b.report);
    let _ = writeln!(out, "\naccounting on the same workload (cycles; error = (accounted - true) / true):");
    let _ = writeln!(out, "  {:<8}{:>12}{:>12}{:>9}{:>12}{:>9}", "time", "true", n.a, "error", n.b, "error");
    let both: Vec<(&str, &TimeCheck, &TimeCheck)> = a
        .time_checks()
        .filter_map(|(name, ta)| b.time_checks().find(|(nb, _)| *nb == name).map(|(_, tb)| (name, ta, tb)))
        .collect();
    for (name, ta, tb) in both {
        let _ = writeln!(
            out,
            "  {name:<8}{:>12}{:>12}{:>9}{:>12}{:>9}",
            ta.truth,
            ta.accounted,
            percent(ta),
            tb.accounted,
            percent(tb)
        );
    }
    let _ = writeln!(out, "\nagainst the truth (tolerance: each version's cycles spent in paths):");
    let _ = writeln!(out, "  {} {}; tolerance {} cycles", n.a, d.a_verdict, d.a_verdict.tolerance);
    let _ = writeln!(out, "  {} {}; tolerance {} cycles", n.b, d.b_verdict, d.b_verdict.tolerance);
    let _ = writeln!(
        out,
        "with each other: {} and {} {} (|{}-{}| utime {}, stime {}; tolerance {}); agreeing is not being correct",
        n.a,
        n.b,
        if d.same_accounting() { "agree" } else { "DISAGREE" },
        n.a,
        n.b,
        d.accounting_gap.0,
        d.accounting_gap.1,
        d.tolerance
    );
}

/// `text` as plain ASCII, every line wrapped to at most [`MAIL_WIDTH`] columns (between
/// instructions in a list of them, else at spaces), a continued line indented four more than
/// the line it continues.
pub fn mail(text: &str) -> String {
    let ascii = text.replace('±', "+/-").replace('×', "x").replace('−', "-").replace('→', "->");
    let mut out = String::new();
    for line in ascii.lines() {
        wrap(&mut out, line);
    }
    out
}

fn wrap(out: &mut String, line: &str) {
    let indent = line.len() - line.trim_start().len();
    let cont = " ".repeat((indent + 4).min(MAIL_WIDTH / 2));
    let mut current = " ".repeat(indent);
    // Nothing but indentation on the line yet.
    let mut fresh = true;
    // Instruction lists break between instructions, anything else between words.
    let body = line.trim_start();
    let words: Vec<String> = if body.contains(" ; ") {
        let parts: Vec<&str> = body.split(" ; ").collect();
        let last = parts.len() - 1;
        parts.iter().enumerate().map(|(i, p)| if i < last { format!("{p} ;") } else { p.to_string() }).collect()
    } else {
        body.split(' ').map(str::to_string).collect()
    };
    for word in &words {
        if !fresh && current.chars().count() + 1 + word.chars().count() > MAIL_WIDTH {
            let _ = writeln!(out, "{current}");
            current.clone_from(&cont);
            fresh = true;
        }
        if !fresh {
            current.push(' ');
        }
        current.push_str(word);
        fresh = false;
    }
    // A single word longer than the width is cut; nothing a diff prints is.
    while current.chars().count() > MAIL_WIDTH {
        let head: String = current.chars().take(MAIL_WIDTH).collect();
        let _ = writeln!(out, "{head}");
        current = format!("{cont}{}", current.chars().skip(MAIL_WIDTH).collect::<String>());
    }
    let _ = writeln!(out, "{current}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_wraps_long_lines_at_spaces_and_keeps_short_ones() {
        let long = format!("  {}", ["word"; 30].join(" "));
        let m = mail(&format!("short ± line\n{long}\n\n"));
        assert!(m.starts_with("short +/- line\n  word word"), "{m}");
        assert!(m.lines().all(|l| l.len() <= MAIL_WIDTH), "{m}");
        assert!(m.lines().nth(2).is_some_and(|l| l.starts_with("      word")), "{m}");
        assert_eq!(m.split_whitespace().filter(|w| *w == "word").count(), 30);
        assert!(m.ends_with("\n\n"), "{m:?}");
    }
}
