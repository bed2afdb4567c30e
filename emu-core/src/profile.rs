//! Where the cycles went, for every core (issue 16): per instruction group and per symbol, the
//! cycles charged, the times it ran, and each wait with its cause.
//!
//! A [`Profile`] is built either from a recorded [`Timeline`] ([`Profile::from_timeline`]:
//! x86 and s390, or any core asked for `--timeline`) or from a core's own per-group counters
//! ([`Profile::charge`]: the ia64 CPU's profile), then given the timeline's waits
//! ([`Profile::attach_waits`]). The charging rule is the same either way: a group is charged
//! the cycles from the issue of the group before it to its own issue, so a stall is charged to
//! the group that waited. Groups are keyed by the address of their first instruction
//! (`addr | slot`: ia64 bundle | slot; x86 and s390 have slot 0).
//!
//! ```
//! use emu_core::profile::Profile;
//! use emu_core::timing::{GroupRecord, Reg, SlotRef, StallCause, Timeline};
//! let slot = |addr| SlotRef { text: format!("insn@{addr:#x}"), ..SlotRef::new(addr, 0, false) };
//! let wait = (StallCause::Register(Reg::Named("rax")), 3);
//! let timeline = Timeline {
//!     groups: vec![
//!         GroupRecord { first_cycle: 0, slots: vec![slot(0x10)], waited: vec![] },
//!         GroupRecord { first_cycle: 4, slots: vec![slot(0x14)], waited: vec![wait] },
//!     ],
//! };
//! let profile = Profile::from_timeline(&timeline, 5);
//! let g = &profile.groups[&0x14];
//! assert_eq!((g.cycles, g.runs, g.waited()), (5, 1, 3));
//! assert_eq!(g.why(), "dependency on rax (3)");
//! ```

use std::collections::BTreeMap;

use crate::diff::GroupCost;
use crate::image::Image;
use crate::timing::{StallCause, Timeline};

/// The cost of one instruction group over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupProfile {
    /// Cycles charged to the group.
    pub cycles: u64,
    /// Times the group started.
    pub runs: u64,
    /// Instructions executed in it.
    pub instructions: u64,
    /// Each wait met in the group, in the order met, with the cycles it cost.
    pub waits: Vec<(StallCause, u64)>,
    /// The group's instructions as disassembly, `;`-separated (from the timeline; empty when
    /// built from counters alone).
    pub text: String,
}

impl GroupProfile {
    /// Cycles the group spent waiting, over all its causes.
    pub fn waited(&self) -> u64 {
        self.waits.iter().map(|(_, c)| c).sum()
    }

    /// The waits as text, in the order met: `dependency on r22 (20), port M0 busy (1)`.
    pub fn why(&self) -> String {
        let parts: Vec<String> = self.waits.iter().map(|(cause, cycles)| format!("{cause} ({cycles})")).collect();
        parts.join(", ")
    }
}

/// The cost of one symbol (the groups from its address up to the next symbol's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SymbolProfile {
    /// The symbol, or the address in hex when none covers the code.
    pub name: String,
    /// Cycles charged to its groups.
    pub cycles: u64,
    /// Instructions executed in it.
    pub instructions: u64,
    /// Cycles waited, by cause (summed: causes that repeat add up).
    pub waits: BTreeMap<StallCause, u64>,
}

/// Where the cycles went, by instruction group (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// The groups, by the address of their first instruction (`addr | slot`).
    pub groups: BTreeMap<u64, GroupProfile>,
}

impl Profile {
    /// A profile with no groups.
    pub fn new() -> Profile {
        Profile::default()
    }

    /// Charges `cycles` and `instructions` to the group starting at `start`, one more run of it
    /// when `runs` says so (a core's own counters, fed group by group).
    pub fn charge(&mut self, start: u64, cycles: u64, runs: u64, instructions: u64) {
        let g = self.groups.entry(start).or_default();
        g.cycles += cycles;
        g.runs += runs;
        g.instructions += instructions;
    }

    /// The profile of a recorded timeline: each group charged the cycles from the issue of
    /// the group before it to its own (the first group: none), and the last one also the
    /// cycles from its issue to `end_cycle` (the run's total), so the charges add up to the
    /// run's cycles from its first issue. Slots' texts become the groups' texts, and each
    /// group gets its waits ([`Profile::attach_waits`]).
    pub fn from_timeline(timeline: &Timeline, end_cycle: u64) -> Profile {
        let mut profile = Profile::new();
        let mut last: Option<u64> = None;
        let count = timeline.groups.len();
        for (i, g) in timeline.groups.iter().enumerate() {
            let Some(first) = g.slots.first() else { continue };
            let start = first.addr | u64::from(first.slot);
            let mut cycles = g.first_cycle.saturating_sub(last.unwrap_or(g.first_cycle));
            if i + 1 == count {
                cycles += end_cycle.saturating_sub(g.first_cycle);
            }
            last = Some(g.first_cycle);
            profile.charge(start, cycles, 1, g.slots.len() as u64);
            let entry = profile.groups.entry(start).or_default();
            if entry.text.is_empty() {
                let texts: Vec<&str> = g.slots.iter().map(|s| s.text.as_str()).collect();
                entry.text = texts.join(" ; ");
            }
        }
        profile.attach_waits(timeline);
        profile
    }

    /// Gives each group the waits of the timeline's issue groups whose first instruction lies
    /// between the group's start and the next group's (an ia64 instruction group can issue in
    /// several issue groups), in the timeline's order.
    pub fn attach_waits(&mut self, timeline: &Timeline) {
        let mut waits: BTreeMap<u64, Vec<(StallCause, u64)>> = BTreeMap::new();
        for g in &timeline.groups {
            if let Some(first) = g.slots.first() {
                waits.entry(first.addr | u64::from(first.slot)).or_default().extend(g.waited.iter().cloned());
            }
        }
        let starts: Vec<u64> = self.groups.keys().copied().collect();
        for (i, start) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(u64::MAX);
            let found: Vec<(StallCause, u64)> = waits.range(*start..end).flat_map(|(_, w)| w.iter().cloned()).collect();
            if let Some(g) = self.groups.get_mut(start) {
                g.waits = found;
            }
        }
    }

    /// Adds `other`'s groups to these: cycles, runs and instructions summed, waits appended
    /// (a profile of several runs, e.g. one per path).
    pub fn merge(&mut self, other: Profile) {
        for (start, g) in other.groups {
            let entry = self.groups.entry(start).or_default();
            entry.cycles += g.cycles;
            entry.runs += g.runs;
            entry.instructions += g.instructions;
            entry.waits.extend(g.waits);
            if entry.text.is_empty() {
                entry.text = g.text;
            }
        }
    }

    /// Each group's cycles, runs and instructions multiplied by `n`: a profile of one run
    /// standing for `n` alike (waits, per occurrence, stay as met).
    pub fn repeated(mut self, n: u64) -> Profile {
        for g in self.groups.values_mut() {
            g.cycles = g.cycles.saturating_mul(n);
            g.runs = g.runs.saturating_mul(n);
            g.instructions = g.instructions.saturating_mul(n);
        }
        self
    }

    /// The cycles charged in all.
    pub fn cycles(&self) -> u64 {
        self.groups.values().map(|g| g.cycles).sum()
    }

    /// The groups summed by the symbol their start follows (`image.symbolize`; `0x...` where
    /// none does), most cycles first, then by name. `code_addr` maps a group key to the code
    /// address symbolized (ia64: the bundle, `key & !0xf`).
    pub fn by_symbol(&self, image: &Image, code_addr: &dyn Fn(u64) -> u64) -> Vec<SymbolProfile> {
        let mut by: BTreeMap<String, SymbolProfile> = BTreeMap::new();
        for (&start, g) in &self.groups {
            let name = label(image, code_addr(start));
            let s = by.entry(name.clone()).or_insert_with(|| SymbolProfile { name, ..SymbolProfile::default() });
            s.cycles += g.cycles;
            s.instructions += g.instructions;
            for (cause, cycles) in &g.waits {
                *s.waits.entry(cause.clone()).or_insert(0) += cycles;
            }
        }
        let mut out: Vec<SymbolProfile> = by.into_values().collect();
        out.sort_by(|a, b| b.cycles.cmp(&a.cycles).then_with(|| a.name.cmp(&b.name)));
        out
    }

    /// The groups as a cycle-diff compares them ([`GroupCost`]): named by the symbol they
    /// follow and numbered within it in address order, with their text (`text` of the group
    /// key, else the timeline's) and why they waited. `code_addr` as for
    /// [`Profile::by_symbol`].
    pub fn named_groups(
        &self,
        image: &Image,
        code_addr: &dyn Fn(u64) -> u64,
        text: &dyn Fn(u64) -> Option<String>,
    ) -> Vec<GroupCost> {
        let mut per_label: BTreeMap<String, usize> = BTreeMap::new();
        let mut out = Vec::with_capacity(self.groups.len());
        for (&addr, g) in &self.groups {
            let label = label(image, code_addr(addr));
            let index = per_label.entry(label.clone()).or_insert(0);
            out.push(GroupCost {
                label,
                index: *index,
                addr,
                text: text(addr).unwrap_or_else(|| g.text.clone()),
                cycles: g.cycles,
                runs: g.runs,
                why: g.why(),
            });
            *index += 1;
        }
        out
    }
}

/// The symbol `addr` follows, else the address in hex.
fn label(image: &Image, addr: u64) -> String {
    image.symbolize(addr).map_or_else(|| format!("0x{addr:x}"), |(n, _)| n.to_string())
}

#[cfg(test)]
mod tests;
