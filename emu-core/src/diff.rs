//! Cycle-diff of two accounting versions run on the same workload: cycles per system call
//! side by side, where the difference comes from (by label and by instruction group), and
//! whether both account the same user and system time, and whether each accounts the true
//! time within its tolerance ([`AccountingVerdict`]). Groups are matched by code
//! ([`align`]), the text starts with a headline ([`headline`]) and comes as text or as a
//! mail ([`render`]).

pub mod align;
pub mod headline;
pub mod naming;
pub mod render;

use crate::scenario::ScenarioReport;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// The cost of one instruction group over a whole scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupCost {
    /// The label (symbol) the group belongs to.
    pub label: String,
    /// Ordinal of the group within its label (0 = first group after the label).
    pub index: usize,
    /// Address of the group's first instruction (bundle | slot).
    pub addr: u64,
    /// The group's instructions as disassembly, `;`-separated.
    pub text: String,
    /// Cycles charged to the group over the whole run.
    pub cycles: u64,
    /// Times the group ran.
    pub runs: u64,
    /// Why it waited, in one representative system call ("dependency on r22 (20)"), if it did.
    pub why: String,
}

/// One version: its scenario report and its group costs.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// What the side is: a trace name or file, or a changed version's name
    /// (`v2+ia64-v2-stop.diff`, `v1 (-DFOO)`; see [`naming::name_side`]).
    pub name: String,
    /// How it was built, for the legend (empty for a side that is its name unchanged).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub built: String,
    /// The timing model that ran it (`Itanium 2 (Madison)`), for the report's model line.
    pub model: String,
    /// The scenario report.
    pub report: ScenarioReport,
    /// Where its cycles went.
    pub groups: Vec<GroupCost>,
}

/// Cycles per system call of one label in A and B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LabelDelta {
    /// The label.
    pub label: String,
    /// Cycles per system call in A.
    pub a: f64,
    /// Cycles per system call in B.
    pub b: f64,
}

/// Instruction groups matched between A and B by code ([`align::align`]): one group with the
/// same code on both sides, or the run of changed groups between two such.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupDelta {
    /// Label and ordinals, e.g. `ia64_leave_syscall#3`, or `f#2-3->#2-4` where B's ordinals
    /// differ.
    pub place: String,
    /// A's group text, groups separated by ` ;; ` (empty when A has no such group).
    pub a_text: String,
    /// B's group text.
    pub b_text: String,
    /// Cycles per system call in A.
    pub a: f64,
    /// Cycles per system call in B.
    pub b: f64,
    /// Why A's group waited (see [`GroupCost::why`]).
    pub a_why: String,
    /// Why B's group waited.
    pub b_why: String,
    /// Groups in the row (the larger side's count).
    pub groups: usize,
    /// Whether both sides run the same code here (only the cost differs).
    pub same_code: bool,
}

pub use crate::scenario::verdict::{AccountingVerdict, BucketVerdict};

/// The comparison of two sides (and optionally a baseline without accounting).
#[derive(Debug, Clone, Serialize)]
pub struct CycleDiff {
    /// Version A.
    pub a: Side,
    /// Version B.
    pub b: Side,
    /// The reference (e.g. no accounting), for the overhead of each version.
    pub baseline: Option<Side>,
    /// Per label, sorted by |B - A| descending.
    pub by_label: Vec<LabelDelta>,
    /// Every group of both sides matched by code ([`align::align`]), in label and code
    /// order; the rendering sorts them and folds the small ones.
    pub by_group: Vec<GroupDelta>,
    /// |A - B| of accounted utime and stime, in cycles.
    pub accounting_gap: (u64, u64),
    /// The most two in-path accountings may differ: the larger side's cycles spent in paths.
    pub tolerance: u64,
    /// Whether A accounts the truth.
    pub a_verdict: AccountingVerdict,
    /// Whether B accounts the truth.
    pub b_verdict: AccountingVerdict,
}

impl CycleDiff {
    /// Compares `a` and `b` (same workload) and, when given, both against `baseline`.
    pub fn new(a: Side, b: Side, baseline: Option<Side>) -> CycleDiff {
        let per_call = |s: &Side, cycles: u64| cycles as f64 / s.report.workload.syscalls.max(1) as f64;
        let mut labels: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        for g in &a.groups {
            labels.entry(g.label.clone()).or_default().0 += per_call(&a, g.cycles);
        }
        for g in &b.groups {
            labels.entry(g.label.clone()).or_default().1 += per_call(&b, g.cycles);
        }
        let mut by_label: Vec<LabelDelta> =
            labels.into_iter().map(|(label, (a, b))| LabelDelta { label, a, b }).collect();
        by_label.sort_by(|x, y| (y.b - y.a).abs().total_cmp(&(x.b - x.a).abs()).then(x.label.cmp(&y.label)));
        let by_group = align::align(&a.groups, &b.groups, per_call(&a, 1), per_call(&b, 1));
        let accounting_gap = (
            a.report.utime.accounted.abs_diff(b.report.utime.accounted),
            a.report.stime.accounted.abs_diff(b.report.stime.accounted),
        );
        let tolerance = a.report.tolerance.max(b.report.tolerance);
        let (a_verdict, b_verdict) = (AccountingVerdict::of(&a.report), AccountingVerdict::of(&b.report));
        CycleDiff { a, b, baseline, by_label, by_group, accounting_gap, tolerance, a_verdict, b_verdict }
    }

    /// Whether A and B account the same user and system time within [`CycleDiff::tolerance`].
    pub fn same_accounting(&self) -> bool {
        self.accounting_gap.0 <= self.tolerance && self.accounting_gap.1 <= self.tolerance
    }
}

impl CycleDiff {
    /// The diff laid out for a mail: plain ASCII, at most [`render::MAIL_WIDTH`] columns, at
    /// most `top` instruction-group rows.
    pub fn mail(&self, top: usize) -> String {
        render::render(self, render::RenderOptions { layout: render::Layout::Mail, top })
    }

    /// The diff as text for a terminal with at most `top` instruction-group rows.
    pub fn text(&self, top: usize) -> String {
        render::render(self, render::RenderOptions { layout: render::Layout::Text, top })
    }
}

impl fmt::Display for CycleDiff {
    /// [`CycleDiff::text`] with the default number of rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render::render(self, render::RenderOptions::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::TimeCheck;

    /// The numbers of issue #11's report: B's utime 360709 of 1500000 (-75.95%) under a
    /// tolerance of 135139 cycles is wrong, whatever A does.
    #[test]
    fn a_side_beyond_its_tolerance_is_wrong_and_says_by_how_much() {
        let (utime, stime) = (TimeCheck::new(1_500_000, 360_709, 135_139), TimeCheck::new(435_139, 1_935_074, 135_139));
        let v = AccountingVerdict::from_checks([("utime", &utime), ("stime", &stime)].into_iter(), 135_139);
        assert!(!v.correct);
        assert_eq!(v.to_string(), "WRONG: utime -75.95% (BEYOND ±9.01%), stime +344.70% (BEYOND ±31.06%)");
        assert_eq!(v.buckets[0].tolerance_percent.map(|t| (t * 100.0).round()), Some(901.0));
    }

    #[test]
    fn a_side_within_its_tolerance_is_correct() {
        let (utime, stime) = (TimeCheck::new(1_500_000, 1_498_500, 2_000), TimeCheck::new(400_000, 401_200, 2_000));
        let v = AccountingVerdict::from_checks([("utime", &utime), ("stime", &stime)].into_iter(), 2_000);
        assert!(v.correct);
        assert_eq!(v.to_string(), "correct: utime -0.10% (within ±0.13%), stime +0.30% (within ±0.50%)");
    }

    /// One kept bucket off the truth makes the side wrong; a zero truth has no percentages and
    /// states the bound in cycles.
    #[test]
    fn every_kept_bucket_counts_and_a_zero_truth_is_stated_in_cycles() {
        let ok = TimeCheck::new(1_000, 1_000, 10);
        let guest = TimeCheck::new(0, 50, 10);
        let v = AccountingVerdict::from_checks([("utime", &ok), ("stime", &ok), ("guest", &guest)].into_iter(), 10);
        assert!(!v.correct);
        assert!(v.to_string().ends_with(", guest - (BEYOND ±10 cycles)"), "{v}");
        assert_eq!(v.buckets[2].error_percent, None);
    }
}
