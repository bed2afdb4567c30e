//! The serializable result of one run; rendering it (text or JSON) is the CLI's job.

use serde::Serialize;

use crate::harness::CounterValue;
use crate::snapshot::Snapshot;
use crate::timing::{Timeline, TimingSummary};

/// Everything one `acctemu run` found out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunReport {
    /// Why the run stopped, as [`crate::cpu::StopReason`] displays it.
    pub stop: String,
    /// Cycle, instruction and stall totals.
    pub summary: TimingSummary,
    /// The harness's counters, read after the run.
    pub counters: Vec<CounterValue>,
    /// Issue groups, when the user asked for them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
    /// Architectural state at the stop.
    pub snapshot: Snapshot,
    /// Architectural state at entry, the harness's and the overrides' values applied, when
    /// the runner kept it: what `acctemu run` compares the stop's state with to print only
    /// the registers that changed (issue 18). Not serialized: the JSON stays the stop's.
    #[serde(skip)]
    pub initial: Option<Snapshot>,
}

#[cfg(test)]
mod tests;
