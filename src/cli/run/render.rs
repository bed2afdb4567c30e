//! How `acctemu run` shows a report as text (issue 18): quiet by default (the summary and the
//! registers the run changed), the full state with `-v`, and a `--check` as its differences
//! only, each value in decimal and hex, then a one-line verdict.

use super::super::places::{timeline_text, Places};
use emu_core::report::RunReport;
use emu_core::snapshot::{diff, Change, Snapshot, SnapshotDiff, Value};
use std::fmt::Write as _;

/// The stop, the totals, the counters and, when asked (`timeline`: the source places to show
/// under each group), the timeline: what every text form starts with.
fn summary(out: &mut String, rep: &RunReport, timeline: Option<&Places>) {
    let _ = writeln!(out, "stop: {}", rep.stop);
    let _ = writeln!(out, "{}", rep.summary);
    if !rep.counters.is_empty() {
        let _ = writeln!(out, "counters:");
        for c in &rep.counters {
            let _ = writeln!(out, "  {:<20} {:>20} {}", c.name, c.value, c.unit);
        }
    }
    if let (Some(places), Some(t)) = (timeline, &rep.timeline) {
        let _ = writeln!(out, "timeline:\n{}", timeline_text(t, places));
    }
}

/// `-v`: the summary, then every register and memory window as the snapshot file writes them.
pub fn full(rep: &RunReport, timeline: Option<&Places>) -> String {
    let mut out = String::new();
    summary(&mut out, rep, timeline);
    let _ = writeln!(out, "final state:");
    out.push_str(&rep.snapshot.to_yaml());
    out
}

/// The default: the summary, then the registers whose value at the stop differs from the one
/// at entry (the harness's and `--set`'s), old and new. Registers the run adds to the snapshot
/// (`counter.NAME`) are left out: the counters table above shows them.
pub fn quiet(rep: &RunReport, timeline: Option<&Places>) -> String {
    let mut out = String::new();
    summary(&mut out, rep, timeline);
    let Some(initial) = &rep.initial else {
        // A report without its entry state (not one `run` makes) can only be shown whole.
        let _ = writeln!(out, "final state:");
        out.push_str(&rep.snapshot.to_yaml());
        return out;
    };
    let changes: Vec<Change> = diff(initial, &rep.snapshot)
        .changes
        .into_iter()
        .filter(|c| !matches!(c, Change::Register { old: None, .. }))
        .collect();
    let total = initial.registers.len();
    let changed = changes.iter().filter(|c| matches!(c, Change::Register { .. })).count();
    if changes.is_empty() {
        let _ = writeln!(out, "registers changed by the run: none of {total} (-v shows them all)");
        return out;
    }
    let _ = writeln!(out, "registers changed by the run: {changed} of {total} (-v shows them all):");
    out.push_str(&table(["register", "at entry", "at the stop"], &changes));
    out
}

/// `--check`: the differences between the snapshot expected and the state at the stop, then
/// the verdict.
pub fn check(path: &str, expected: &Snapshot, d: &SnapshotDiff) -> String {
    let total = expected.registers.len();
    if d.is_empty() {
        return format!("snapshot {path}: matches ({total} registers)\n");
    }
    let registers = d.changes.iter().filter(|c| matches!(c, Change::Register { .. })).count();
    let memory = d.changes.len() - registers;
    let mut out = table(["register", "expected", "actual"], &d.changes);
    let mut what = format!("{registers} of {total} registers");
    if memory > 0 {
        let _ = write!(what, " and {memory} memory lines");
    }
    let _ = writeln!(out, "snapshot {path}: differs in {what} (-v shows the whole state)");
    out
}

/// A value as the tables show it: a word in decimal and hex, a flag or text as it is.
fn cell(value: Option<&Value>) -> (String, String) {
    match value {
        Some(Value::Hex(v)) => (decimal(*v), format!("({v:#x})")),
        Some(other) => (other.to_string(), String::new()),
        None => ("(absent)".into(), String::new()),
    }
}

/// A word in decimal: signed when it reads as a small negative number (a count or offset
/// gone below zero), unsigned otherwise (addresses, masks), as a reader would write it.
fn decimal(v: u64) -> String {
    // Two's complement of at most 32 bits' magnitude: -1, -16, an errno.
    let signed = v as i64;
    if (-(1i64 << 32)..0).contains(&signed) {
        signed.to_string()
    } else {
        v.to_string()
    }
}

/// A table row: the name, then each side as its decimal (or flag, or text) and its hex.
struct Row {
    name: String,
    old: (String, String),
    new: (String, String),
}

/// One row per change: its name and both sides, each column's decimal right-aligned and its
/// hex after it, so equal magnitudes line up.
fn table(heads: [&str; 3], changes: &[Change]) -> String {
    let rows: Vec<Row> = changes
        .iter()
        .map(|c| match c {
            Change::Register { name, old, new } => {
                Row { name: name.clone(), old: cell(old.as_ref()), new: cell(new.as_ref()) }
            }
            Change::Window { name, old, new } => {
                let addr = |a: &Option<u64>| cell(a.map(Value::Hex).as_ref());
                Row { name: format!("memory {name} at"), old: addr(old), new: addr(new) }
            }
            Change::Memory { window, offset, old, new } => {
                let line = |l: &Option<String>| cell(l.clone().map(Value::Text).as_ref());
                Row { name: format!("memory {window}+{offset:#x}"), old: line(old), new: line(new) }
            }
        })
        .collect();
    let width = |f: &dyn Fn(&Row) -> usize, head: usize| rows.iter().map(f).chain(std::iter::once(head)).max();
    let name_w = width(&|r| r.name.len(), heads[0].len()).unwrap_or(0);
    let old_dec = width(&|r| r.old.0.len(), 0).unwrap_or(0);
    let old_hex = width(&|r| r.old.1.len(), 0).unwrap_or(0);
    let old_w = (old_dec + 1 + old_hex).max(heads[1].len());
    let new_dec = width(&|r| r.new.0.len(), 0).unwrap_or(0);
    let mut out = String::new();
    let _ = writeln!(out, "  {:<name_w$}  {:<old_w$}  {}", heads[0], heads[1], heads[2]);
    for Row { name, old: (od, oh), new: (nd, nh) } in &rows {
        let old = format!("{od:>old_dec$} {oh}");
        let line = format!("  {name:<name_w$}  {old:<old_w$}  {nd:>new_dec$} {nh}");
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

#[cfg(test)]
mod tests;
