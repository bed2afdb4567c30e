//! Where one run's cycles went, from its timeline, on any core: each issue group (IA-64
//! instruction group, x86 dispatch group, s390 decoder group) is charged the cycles from the
//! previous group's issue to its own, that is the cycles it waited and the one it issued in
//! (the last group also the cycles until the run's end, its results' latency), summed over
//! the times it ran, named by the symbol its first instruction lies in, with the reasons it
//! waited; and the comparison of two runs by symbol and by group, as the scenario diff shows it
//! per system call; groups matched by code. The charges add up to the run's cycles.

use emu_core::diff::{GroupCost, GroupDelta};
use emu_core::image::Image;
use emu_core::report::RunReport;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One group's totals while the timeline is read.
#[derive(Default)]
struct Acc {
    text: String,
    cycles: u64,
    runs: u64,
    /// Cycles per cause, in the order the causes were first met.
    waits: Vec<(String, u64)>,
}

/// The groups of `report`'s timeline (none without one), in address order within each symbol.
pub fn groups(image: &Image, report: &RunReport) -> Vec<GroupCost> {
    let Some(timeline) = &report.timeline else { return Vec::new() };
    let mut by_start: BTreeMap<(u64, u8), Acc> = BTreeMap::new();
    let mut previous_end = 0;
    let last = timeline.groups.len().saturating_sub(1);
    for (i, g) in timeline.groups.iter().enumerate() {
        let Some(first) = g.slots.first() else { continue };
        let issued = g.first_cycle + 1;
        let charge = issued.saturating_sub(previous_end)
            + if i == last { report.summary.cycles.saturating_sub(issued) } else { 0 };
        previous_end = issued;
        let acc = by_start.entry((first.addr, first.slot)).or_insert_with(|| Acc {
            text: g.slots.iter().map(|s| s.text.trim()).collect::<Vec<_>>().join(" ; "),
            ..Acc::default()
        });
        acc.cycles += charge;
        acc.runs += 1;
        for (cause, cycles) in &g.waited {
            let cause = cause.to_string();
            match acc.waits.iter_mut().find(|(c, _)| *c == cause) {
                Some((_, total)) => *total += cycles,
                None => acc.waits.push((cause, *cycles)),
            }
        }
    }
    let mut per_label: BTreeMap<String, usize> = BTreeMap::new();
    by_start
        .into_iter()
        .map(|((addr, slot), acc)| {
            let label = image.symbolize(addr).map_or_else(|| format!("{addr:#x}"), |(name, _)| name.to_string());
            let ordinal = per_label.entry(label.clone()).or_insert(0);
            let index = *ordinal;
            *ordinal += 1;
            let why: Vec<String> = acc.waits.iter().map(|(cause, cycles)| format!("{cause} ({cycles})")).collect();
            GroupCost {
                label,
                index,
                addr: addr | u64::from(slot),
                text: acc.text,
                cycles: acc.cycles,
                runs: acc.runs,
                why: why.join(", "),
            }
        })
        .collect()
}

fn delta(a: u64, b: u64) -> i128 {
    i128::from(b) - i128::from(a)
}

/// The comparison of two runs' groups: cycles by symbol, then the groups whose cost, code or
/// waits changed, matched by code ([`emu_core::diff::align::align`]: one inserted stop shows
/// where it is, not as every later group shifted), largest change first (at most
/// `max_groups`), each with its instructions and why it waited on each side.
pub fn render_diff(a: &[GroupCost], b: &[GroupCost], max_groups: usize) -> String {
    let mut out = String::new();
    let mut labels: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for g in a {
        labels.entry(&g.label).or_default().0 += g.cycles;
    }
    for g in b {
        labels.entry(&g.label).or_default().1 += g.cycles;
    }
    let mut labels: Vec<(&str, (u64, u64))> = labels.into_iter().collect();
    labels.sort_by(|x, y| delta(y.1 .0, y.1 .1).abs().cmp(&delta(x.1 .0, x.1 .1).abs()).then(x.0.cmp(y.0)));
    let _ = writeln!(out, "where the cycles go, by symbol:");
    let _ = writeln!(out, "  {:<32}{:>10}{:>10}{:>10}", "symbol", "A", "B", "B-A");
    for (label, (ca, cb)) in &labels {
        let _ = writeln!(out, "  {label:<32}{ca:>10}{cb:>10}{:>+10}", delta(*ca, *cb));
    }
    let mut changed: Vec<GroupDelta> = emu_core::diff::align::align(a, b, 1.0, 1.0)
        .into_iter()
        .filter(|r| r.a != r.b || !r.same_code || r.a_why != r.b_why)
        .collect();
    changed.sort_by(|x, y| (y.b - y.a).abs().total_cmp(&(x.b - x.a).abs()).then(x.place.cmp(&y.place)));
    let _ = writeln!(out, "\nby instruction group (largest changes first):");
    if changed.is_empty() {
        let _ = writeln!(out, "  (no group changed)");
    }
    let none = |t: &str| if t.is_empty() { "(none)".to_string() } else { t.to_string() };
    for g in changed.iter().take(max_groups) {
        let _ = writeln!(out, "  {:<32}{:>10.0}{:>10.0}{:>+10.0}", g.place, g.a, g.b, g.b - g.a);
        if g.same_code && g.a_text == g.b_text {
            let _ = writeln!(out, "      {}", g.a_text);
        } else {
            code_lines(&mut out, "A", &none(&g.a_text));
            code_lines(&mut out, "B", &none(&g.b_text));
        }
        match (g.a_why.as_str(), g.b_why.as_str()) {
            ("", "") => {}
            (wa, wb) if wa == wb => {
                let _ = writeln!(out, "      waits: {wa}");
            }
            (wa, wb) => {
                let show = |w: &str| if w.is_empty() { "no wait".to_string() } else { w.to_string() };
                let _ = writeln!(out, "      waits: A {}; B {}", show(wa), show(wb));
            }
        }
    }
    if changed.len() > max_groups {
        let _ = writeln!(out, "  ... and {} more", changed.len() - max_groups);
    }
    out
}

/// `      A: group`, each further group of a run (` ;; `-separated) on a line of its own.
fn code_lines(out: &mut String, side: &str, text: &str) {
    for (i, group) in text.split(" ;; ").enumerate() {
        let lead = if i == 0 { format!("      {side}: ") } else { " ".repeat(9) };
        let _ = writeln!(out, "{lead}{group}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emu_core::image::{Binding, Section, SectionKind, Symbol, SymbolKind};
    use emu_core::memory::Endian;
    use emu_core::snapshot::Snapshot;
    use emu_core::timing::{GroupRecord, SlotRef, StallCause, Timeline, TimingSummary};

    fn slot(addr: u64, text: &str) -> SlotRef {
        SlotRef { text: text.into(), ..SlotRef::new(addr, 0, false) }
    }

    fn function(name: &str, value: u64) -> Symbol {
        Symbol {
            name: name.into(),
            value,
            section: Some(0),
            binding: Binding::Global,
            kind: SymbolKind::Function,
            size: 0x10,
        }
    }

    #[test]
    fn each_group_is_charged_until_the_next_and_named_by_its_symbol() {
        let mut image = Image::new(Endian::Little);
        image.sections.push(Section {
            name: ".text".into(),
            addr: 0x1000,
            data: vec![0; 0x20],
            kind: SectionKind::Code,
            align: 16,
        });
        image.symbols.extend([function("f", 0x1000), function("g", 0x1010)]);
        let group =
            |first_cycle, addr, text: &str, waited| GroupRecord { first_cycle, slots: vec![slot(addr, text)], waited };
        let timeline = Timeline {
            groups: vec![
                group(0, 0x1000, "a", vec![]),
                group(3, 0x1010, "b", vec![(StallCause::Branch, 2)]),
                group(4, 0x1000, "a", vec![]),
            ],
        };
        let report = RunReport {
            stop: String::new(),
            summary: TimingSummary { cycles: 6, ..TimingSummary::default() },
            counters: Vec::new(),
            timeline: Some(timeline),
            snapshot: Snapshot::new(),
            initial: None,
        };
        let g = groups(&image, &report);
        let got: Vec<(&str, usize, u64, u64, &str)> =
            g.iter().map(|g| (g.label.as_str(), g.index, g.cycles, g.runs, g.why.as_str())).collect();
        let branch = format!("{} (2)", StallCause::Branch);
        // f: the cycle it first issued in, then its second issue and the cycle after it.
        assert_eq!(got, vec![("f", 0, 1 + 2, 2, ""), ("g", 0, 3, 1, branch.as_str())]);
        let text = render_diff(&g, &g[..1], 12);
        assert!(text.contains("  g                                        3         0        -3"), "{text}");
    }
}
