//! A simplified in-order cycle model of the IBM z13 (5.0 GHz): instructions complete one after
//! another, each costing its class's figure ([`S390Params`]); a taken branch adds a redirect
//! bubble; SS instructions add a per-8-bytes cost; STPT, SPT, STCK and STCKF have their own
//! costs. The z13 is superscalar and out of order: this model deliberately ignores overlap,
//! dependencies, caches, TLBs and mispredictions, so it over-predicts long independent chains
//! and is meant to compare paths of the same shape (the accounting before and after a change).
//!
//! The timer instructions read the clock at their issue cycle: [`S390Model::now`] before
//! their cost is added.

mod params;

pub use params::{Class, S390Params, TimerKind};

use emu_core::timing::{StallCause, TimingSummary};

/// What the model needs of one executed instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssueInfo {
    /// Timing class.
    pub class: Class,
    /// Whether a branch was taken.
    pub taken: bool,
    /// Bytes an SS instruction processed.
    pub ss_len: u64,
}

/// The model's clock and counters.
#[derive(Debug, Clone)]
pub struct S390Model {
    params: S390Params,
    now: u64,
    summary: TimingSummary,
}

impl S390Model {
    /// A model at cycle 0.
    pub fn new(params: S390Params) -> S390Model {
        S390Model { params, now: 0, summary: TimingSummary::default() }
    }

    /// The parameters.
    pub fn params(&self) -> &S390Params {
        &self.params
    }

    /// The current cycle.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Lets `cycles` pass.
    pub fn advance(&mut self, cycles: u64) {
        self.now = self.now.saturating_add(cycles);
    }

    /// The cost of one instruction in cycles, without the taken-branch bubble.
    pub fn cost(&self, i: &IssueInfo) -> u64 {
        let p = &self.params;
        match i.class {
            Class::Simple => p.simple,
            Class::Load => p.load,
            Class::Store => p.store,
            Class::Storage => p.storage + p.storage_per_8 * (i.ss_len.saturating_sub(1) / 8),
            Class::Branch => p.branch,
            Class::Mul => p.mul,
            Class::Div => p.div,
            Class::Timer(kind) => match kind {
                TimerKind::Stpt => p.stpt,
                TimerKind::Spt => p.spt,
                TimerKind::Stckf => p.stckf,
                TimerKind::Stck | TimerKind::Ectg => p.stck,
            },
            Class::Serial => p.serial,
        }
    }

    /// Issues one instruction; returns the cycle it started at.
    pub fn issue(&mut self, i: &IssueInfo) -> u64 {
        let start = self.now;
        let bubble = if i.taken && i.class == Class::Branch { self.params.taken } else { 0 };
        self.now = self.now.saturating_add(self.cost(i)).saturating_add(bubble);
        self.summary.instructions += 1;
        self.summary.groups += 1;
        if bubble > 0 {
            self.summary.add_stall(&StallCause::Branch, bubble);
        }
        start
    }

    /// Totals so far.
    pub fn summary(&self) -> TimingSummary {
        TimingSummary { cycles: self.now, ..self.summary.clone() }
    }

    /// See [`S390Params::explain_model`].
    pub fn explain_model(&self) -> String {
        self.params.explain_model()
    }
}

/// CPU-timer / TOD units (4096 per µs) elapsed after `cycles` at `freq_mhz`.
pub fn units_of(cycles: u64, freq_mhz: u64) -> u64 {
    let u = u128::from(cycles) * 4096 / u128::from(freq_mhz.max(1));
    u64::try_from(u).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_and_units() {
        let mut m = S390Model::new(S390Params::default());
        let b = IssueInfo { class: Class::Branch, taken: true, ss_len: 0 };
        assert_eq!(m.issue(&b), 0);
        assert_eq!(m.now(), 3);
        let t = IssueInfo { class: Class::Timer(TimerKind::Stckf), taken: false, ss_len: 0 };
        assert_eq!(m.issue(&t), 3);
        assert_eq!(m.now(), 15);
        assert_eq!(units_of(5000, 5000), 4096);
        assert!(m.explain_model().contains("stpt"));
        assert_eq!(m.summary().stalls.get("branch"), Some(&2));
    }
}
