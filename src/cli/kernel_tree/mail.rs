//! `acctemu diff --tree ... --format mail` (and of two `ia64/linux-6.1/*` traces): the
//! kernel-tree diff as plain ASCII of at most 72 columns for a patch review (issue 18). A
//! headline first (which tree is cheaper per iteration of seed 004's loop, or per entry kind
//! without the check; in cycles, % and ns at the model's clock; the overhead ratio over the
//! accounting-off tree; each side's verdict against the true time), the legend, the model and
//! workload line, the tables, the verdicts and their reasons.

use super::{Measured, TreeRequest, TreeSide};
use arch_ia64::kernel_c::check::{AccountingCheck, CheckDiff};
use arch_ia64::kernel_c::truth::FieldVerdict;
use emu_core::diff::headline::clock_text;
use emu_core::diff::naming;
use std::fmt::Write as _;

/// The model's clock (the ITC runs at it), Hz.
const CLOCK_HZ: u64 = 1_500_000_000;

/// Column heads of A, B and the accounting-off tree: the names' short forms when they are
/// whole and differ (`v1`, `v2`, `none`), else `A`, `B`, `none`.
fn heads(a: &TreeSide, b: &TreeSide) -> (String, String) {
    match (naming::whole_head(&a.label), naming::whole_head(&b.label)) {
        (Some(ha), Some(hb)) if ha != hb && ha != "none" && hb != "none" => (ha, hb),
        _ => ("A".into(), "B".into()),
    }
}

/// `ns` cycles of the model's clock.
fn nanos(cycles: f64) -> f64 {
    cycles * 1e9 / CLOCK_HZ as f64
}

/// `v1 WRONG (utime -100.0%, stime -97.9%)`.
fn verdict(head: &str, c: &AccountingCheck) -> String {
    let v = &c.run.verdict;
    let word = if v.correct() { "within tolerance" } else { "WRONG, beyond tolerance" };
    format!("{head} {word} (utime {:+.1}%, stime {:+.1}%)", v.utime.percent(), v.stime.percent())
}

/// The headline's sentences.
fn headline((ha, hb): (&str, &str), (a, b): (&Measured, &Measured), delta: Option<&CheckDiff>) -> Vec<String> {
    let mut out = Vec::new();
    let compare = |what: &str, ca: f64, cb: f64| {
        let d = cb - ca;
        let pct = if ca == 0.0 { String::new() } else { format!("{:+.1}%, ", d * 100.0 / ca) };
        if d.abs() < 0.05 {
            format!("{hb} and {ha} cost the same: {cb:.1} cycles per {what}.")
        } else if d < 0.0 {
            format!(
                "{hb} saves {:.1} cycles per {what} ({pct}{:.1} ns) over {ha} ({cb:.1} against {ca:.1}).",
                -d,
                nanos(-d)
            )
        } else {
            format!(
                "{hb} costs {d:.1} cycles per {what} more ({pct}{:.1} ns) than {ha} ({cb:.1} against {ca:.1}).",
                nanos(d)
            )
        }
    };
    match (&a.check, &b.check) {
        (Some(ca), Some(cb)) => {
            out.push(compare("iteration of seed 004's loop", ca.cycles_per_iteration, cb.cycles_per_iteration));
        }
        _ => {
            if let (Some((ka, ra)), Some((_, rb))) = (a.paths.first(), b.paths.first()) {
                out.push(compare(&format!("{} round trip", ka.name()), ra.mean_cycles(1), rb.mean_cycles(1)));
                let (ia, ib) = (ra.mean_instructions(1), rb.mean_instructions(1));
                out.push(format!(
                    "Instructions per {} round trip: {hb} {ib:.1}, {ha} {ia:.1} ({:+.1}).",
                    ka.name(),
                    ib - ia
                ));
            }
        }
    }
    if let Some(d) = delta {
        if let Some(it) = d.calls.last() {
            let ratio =
                d.ratio.map_or_else(String::new, |r| format!(", {r:.2}x {ha}'s (seed 004 gives 0.670 for V.2/V.1)"));
            out.push(format!(
                "Overhead over none: {hb} {:+.1}, {ha} {:+.1} cycles per iteration{ratio}.",
                it.b_overhead(),
                it.a_overhead()
            ));
        }
    }
    if let (Some(ca), Some(cb)) = (&a.check, &b.check) {
        out.push(format!("Against the true time: {}, {}.", verdict(ha, ca), verdict(hb, cb)));
    }
    out
}

fn field_row(out: &mut String, name: &str, a: &FieldVerdict, b: &FieldVerdict) {
    let _ = writeln!(
        out,
        "  {name:<6}{:>10}{:>10}{:>+8.1}%{:>10}{:>10}{:>+8.1}%",
        a.true_ns,
        a.reported_ns,
        a.percent(),
        b.true_ns,
        b.reported_ns,
        b.percent()
    );
}

/// The diff of two trees laid out for a mail (wrapped to 72 columns by the caller).
pub(super) fn render(
    req: &TreeRequest,
    b_side: &TreeSide,
    a: &Measured,
    b: &Measured,
    none: Option<&str>,
    delta: Option<&CheckDiff>,
) -> String {
    let (ha, hb) = heads(&req.a, b_side);
    let mut out = String::new();
    for line in headline((&ha, &hb), (a, b), delta) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out);
    let legend = |head: &str, s: &TreeSide| {
        let what = match (&s.config_text, &s.config) {
            (Some((name, _)), _) => name.clone(),
            (None, Some(p)) => p.display().to_string(),
            (None, None) => format!("{}/.config", s.tree.display()),
        };
        // A tree named by its path is not named twice.
        let tree = s.tree.display().to_string();
        let mut line = if s.label == tree {
            format!("{head} = {tree} with {what}")
        } else {
            format!("{head} = {}: {tree} with {what}", s.label)
        };
        if let Some(o) = &s.overlay {
            line.push_str(&format!(", {}'s files over it", o.display()));
        }
        if !s.replaced.is_empty() {
            let files: Vec<&str> = s.replaced.iter().map(|(p, _)| p.as_str()).collect();
            line.push_str(&format!(", {} made in memory (seed 004's patch reversed)", files.join(" ")));
        }
        if let Some(p) = &s.patch {
            line.push_str(&format!(", patched by {}", p.display()));
        }
        line
    };
    let _ = writeln!(out, "{}", legend(&ha, &req.a));
    let _ = writeln!(out, "{}", legend(&hb, b_side));
    if let Some(n) = none {
        let _ = writeln!(out, "none = {n} (the accounting config off)");
    }
    let hz = a.check.as_ref().map_or_else(String::new, |c| format!(", HZ {}", c.config.hz));
    let _ = writeln!(
        out,
        "model: Itanium 2 (Madison) at {}; the trees' ivt.S, entry.S, fsys.S and gate.S run from user mode back, \
         {} round trips per entry kind{hz}\n",
        clock_text(CLOCK_HZ),
        req.calls
    );
    let d = format!("{hb}-{ha}");
    if !a.paths.is_empty() {
        let insns = if d.len() <= 5 { format!("insns {d}") } else { "insns B-A".to_string() };
        let _ = writeln!(out, "cycles per round trip{:>9}{:>10}{:>10}{:>12}", ha, hb, d, insns);
        for ((k, ra), (_, rb)) in a.paths.iter().zip(&b.paths) {
            let (ca, cb) = (ra.mean_cycles(1), rb.mean_cycles(1));
            let di = rb.mean_instructions(1) - ra.mean_instructions(1);
            let _ = writeln!(out, "  {:<19}{ca:>9.1}{cb:>10.1}{:>+10.1}{di:>+12.1}", k.name(), cb - ca);
        }
    }
    if let Some(dl) = delta {
        let _ = writeln!(out, "\nseed 004's loop, tick-less, kernel cycles per call:");
        let _ = writeln!(
            out,
            "  {:<10}{:>8}{:>8}{:>8}{:>8}{:>10}{:>10}",
            "call", "none", ha, hb, d, "over none", "over none"
        );
        let _ = writeln!(out, "  {:<10}{:>8}{:>8}{:>8}{:>8}{:>10}{:>10}", "", "", "", "", "", ha, hb);
        for c in &dl.calls {
            let _ = writeln!(
                out,
                "  {:<10}{:>8.1}{:>8.1}{:>8.1}{:>+8.1}{:>+10.1}{:>+10.1}",
                c.name,
                c.none,
                c.a,
                c.b,
                c.delta(),
                c.a_overhead(),
                c.b_overhead()
            );
        }
        let _ = writeln!(out, "  (getpid takes the light-weight fsys path, the others epc and fsys_bubble_down)");
    }
    if let (Some(ca), Some(cb)) = (&a.check, &b.check) {
        let _ = writeln!(out, "\naccounting with ticks and task switches (ns; error = (accounted - true) / true):");
        let _ = writeln!(
            out,
            "  {:<6}{:>10}{:>10}{:>9}{:>10}{:>10}{:>9}",
            "time", "true", ha, "error", "true", hb, "error"
        );
        field_row(&mut out, "utime", &ca.run.verdict.utime, &cb.run.verdict.utime);
        field_row(&mut out, "stime", &ca.run.verdict.stime, &cb.run.verdict.stime);
        let _ = writeln!(out, "\nagainst the truth:");
        for (head, c) in [(&ha, ca), (&hb, cb)] {
            let _ = writeln!(out, "  {}; tolerance {} ns", verdict(head, c), c.run.verdict.tolerance_ns);
            for why in &c.run.verdict.reasons {
                let _ = writeln!(out, "    why: {why}");
            }
        }
    }
    out
}
