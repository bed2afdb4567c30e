//! An out-of-order, superscalar cycle model of the IBM z13 (and the z14/z15 presets,
//! [`S390Params::preset`]).
//!
//! Instructions dispatch in program order in decoder groups of up to three micro-ops, two groups
//! a cycle; cracked instructions start a group and take two slots, group-alone ones (calls,
//! MVC, LM/STM, STCK ...) fill whole groups, branch-on-count ends its group, and so does a
//! taken branch. Each instruction then issues when its address registers, its data registers
//! and (when it reads it) the condition code are ready, and a unit of its kind (FXU, LSU,
//! branch, the millicode sequencer) is free; its results are ready `latency` cycles later.
//! Completion is in order; at most `window` micro-ops are in flight. A serialising instruction
//! (STCK, LPSWE, SVC ...) waits for everything older to complete, and nothing younger dispatches
//! until it has completed and the front end has refilled. Branches are predicted correctly (the
//! paths run warm); caches always hit.
//!
//! The model's clock ([`S390Model::now`]) is the later of the in-order completion of everything
//! issued so far and the current dispatch cycle: the timer instructions read the clock there.

mod deps;
mod params;

pub use deps::{deps, Deps, Regs};
pub use params::{Class, Cost, Grouping, S390Params, TimerKind, Unit, PRESETS};

use std::collections::{BTreeMap, VecDeque};

use emu_core::timing::{GroupRecord, Producer, Reg, SlotRef, StallCause, Timeline, TimingSummary};

use crate::decode::Insn;

/// What the model needs of one executed instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssueInfo {
    /// Address of the instruction (a register wait names it as the producer, issue 16).
    pub addr: u64,
    /// Timing class.
    pub class: Class,
    /// Whether a branch was taken.
    pub taken: bool,
    /// Bytes an SS instruction processed.
    pub ss_len: u64,
    /// Registers and condition code read and written.
    pub deps: Deps,
}

impl IssueInfo {
    /// The issue information of `insn` as executed (`taken`: it jumped; `ss_len`: the bytes an
    /// SS instruction processed).
    pub fn of(insn: &Insn, taken: bool, ss_len: u64) -> IssueInfo {
        IssueInfo { addr: insn.addr, class: insn.class, taken, ss_len, deps: deps(insn) }
    }
}

/// Units in use per cycle, by kind (FXU, LSU, branch, millicode): an instruction that waits
/// for its operands does not hold a unit while it waits, so a younger one can use it earlier.
#[derive(Debug, Clone, Default)]
struct Reservations {
    used: BTreeMap<u64, [u64; 4]>,
}

fn kind(u: Unit) -> usize {
    match u {
        Unit::Fxu => 0,
        Unit::Lsu => 1,
        Unit::Bru => 2,
        Unit::Millicode => 3,
    }
}

impl Reservations {
    fn free(&self, cycle: u64, u: Unit, cap: u64) -> bool {
        self.used.get(&cycle).and_then(|c| c.get(kind(u))).is_none_or(|n| *n < cap)
    }

    /// The first cycle at or after `from` when every unit of `units` is free for its cycles.
    fn earliest(&self, from: u64, units: &[(Unit, u64, u64)]) -> u64 {
        let mut s = from;
        // Each failed probe moves past one cycle some reservation holds, so this ends.
        while !units.iter().all(|&(u, busy, cap)| (s..s.saturating_add(busy)).all(|c| self.free(c, u, cap))) {
            s = s.saturating_add(1);
        }
        s
    }

    fn hold(&mut self, start: u64, u: Unit, busy: u64) {
        for c in start..start.saturating_add(busy) {
            if let Some(n) = self.used.entry(c).or_insert([0; 4]).get_mut(kind(u)) {
                *n += 1;
            }
        }
    }

    /// Forgets the cycles before `cycle` (nothing can issue there any more).
    fn forget_before(&mut self, cycle: u64) {
        self.used = self.used.split_off(&cycle);
    }
}

/// The model's clock, pipeline state and counters.
#[derive(Debug, Clone)]
pub struct S390Model {
    params: S390Params,
    /// Dispatch cycle of the current (last opened) group.
    group_cycle: u64,
    /// Micro-ops in the current group; `None` when the group is closed.
    group_used: Option<u64>,
    /// Groups dispatched in `group_cycle`.
    groups_in_cycle: u64,
    /// The earliest cycle the next group can dispatch (serialisation, taken branch, idle time).
    fetch_ready: u64,
    reg_ready: [u64; 32],
    cc_ready: u64,
    /// Beside each ready cycle, the last writer: its address and latency (issue 16).
    reg_producer: [(u64, u64); 32],
    cc_producer: (u64, u64),
    units: Reservations,
    /// In-order completion of everything issued.
    complete: u64,
    /// Completion cycles of the micro-ops in flight, oldest first.
    inflight: VecDeque<u64>,
    summary: TimingSummary,
    /// The dispatch groups, when asked for (issue 16: `run --timeline`).
    timeline: Option<Timeline>,
}

impl S390Model {
    /// A model at cycle 0.
    pub fn new(params: S390Params) -> S390Model {
        S390Model {
            units: Reservations::default(),
            params,
            group_cycle: 0,
            group_used: None,
            groups_in_cycle: 0,
            fetch_ready: 0,
            reg_ready: [0; 32],
            cc_ready: 0,
            reg_producer: [(0, 0); 32],
            cc_producer: (0, 0),
            complete: 0,
            inflight: VecDeque::new(),
            summary: TimingSummary::default(),
            timeline: None,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &S390Params {
        &self.params
    }

    /// The current cycle: everything issued has completed, or the current group dispatches.
    pub fn now(&self) -> u64 {
        self.complete.max(self.group_cycle)
    }

    /// Lets `cycles` pass with nothing executing: the pipeline drains.
    pub fn advance(&mut self, cycles: u64) {
        let t = self.now().saturating_add(cycles);
        self.complete = t;
        self.fetch_ready = t;
        self.group_cycle = t;
        self.group_used = None;
        self.groups_in_cycle = 0;
        self.inflight.clear();
        self.units.forget_before(t);
    }

    /// Opens a new group at the earliest cycle allowed from `not_before`; returns its cycle.
    fn open_group(&mut self, not_before: u64) -> u64 {
        let mut cycle = self.group_cycle;
        if self.groups_in_cycle >= self.params.groups_per_cycle {
            cycle += 1;
        }
        let want = not_before.max(self.fetch_ready);
        if want > cycle {
            cycle = want;
        }
        if cycle != self.group_cycle {
            self.groups_in_cycle = 0;
        }
        self.group_cycle = cycle;
        self.groups_in_cycle += 1;
        self.group_used = Some(0);
        self.summary.groups += 1;
        if let Some(t) = self.timeline.as_mut() {
            t.groups.push(GroupRecord { first_cycle: cycle, slots: Vec::new(), waited: Vec::new() });
        }
        cycle
    }

    /// The dispatch cycle of an instruction of `uops` micro-ops grouped as `g`, at or after
    /// `not_before`.
    fn dispatch(&mut self, g: Grouping, not_before: u64) -> u64 {
        let size = self.params.group_size.max(1);
        match g {
            Grouping::Normal | Grouping::EndGroup => {
                let fits = self.group_used.is_some_and(|u| u < size) && self.group_cycle >= not_before;
                let cycle = if fits { self.group_cycle } else { self.open_group(not_before) };
                let used = self.group_used.unwrap_or(0) + 1;
                self.group_used = if g == Grouping::EndGroup || used >= size { None } else { Some(used) };
                cycle
            }
            Grouping::Cracked => {
                let cycle = self.open_group(not_before);
                self.group_used = if size > 2 { Some(2) } else { None };
                cycle
            }
            Grouping::Alone(n) => {
                let cycle = self.open_group(not_before);
                for _ in 1..n {
                    self.open_group(not_before);
                }
                // The timeline shows the instruction once, at its first group.
                if let Some(t) = self.timeline.as_mut() {
                    t.groups.truncate(t.groups.len().saturating_sub(usize::from(n.max(1)) - 1));
                }
                self.group_used = None;
                cycle
            }
        }
    }

    /// The latest cycle any register in `set` becomes ready.
    fn ready(&self, set: Regs) -> u64 {
        (0..32usize)
            .filter(|r| set & (1 << r) != 0)
            .map(|r| self.reg_ready.get(r).copied().unwrap_or(0))
            .max()
            .unwrap_or(0)
    }

    fn capacity(&self, u: Unit) -> u64 {
        match u {
            Unit::Fxu => self.params.fxu,
            Unit::Lsu => self.params.lsu,
            Unit::Bru => self.params.bru,
            Unit::Millicode => 1,
        }
        .max(1)
    }

    /// Issues one instruction; returns the cycle it started executing.
    pub fn issue(&mut self, i: &IssueInfo) -> u64 {
        let c = self.params.cost(i.class, i.ss_len, i.deps.storage);
        let uops = match c.grouping {
            Grouping::Normal | Grouping::EndGroup => 1,
            Grouping::Cracked => 2,
            Grouping::Alone(n) => u64::from(n) * self.params.group_size,
        };
        // Window: the oldest micro-ops must complete before these enter.
        let window = usize::try_from(self.params.window.max(uops)).unwrap_or(usize::MAX);
        let mut not_before = 0;
        while self.inflight.len() + usize::try_from(uops).unwrap_or(0) > window {
            not_before = not_before.max(self.inflight.pop_front().unwrap_or(0));
        }
        if c.serialising {
            not_before = not_before.max(self.complete);
        }
        let before = self.group_cycle.max(self.fetch_ready);
        let d = self.dispatch(c.grouping, not_before);
        if let Some(g) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            g.slots.push(SlotRef::new(0, 0, false));
        }
        if c.serialising && d > before {
            self.stall(StallCause::Split("serialisation drain"), d - before);
        }

        // The register operand of a storage-operand operation is read after the address
        // ([Z13TD] ReadAdvance RegReadAdv = LSULatency).
        let late = if i.deps.storage && i.class != Class::Store { self.params.load } else { 0 };
        let mut start = d.max(self.ready(i.deps.addr)).max(self.ready(i.deps.data).saturating_sub(late));
        if i.deps.reads_cc {
            start = start.max(self.cc_ready);
        }
        // Issue 16: the operand wait, charged below as far as it delays completion, and the
        // operand it waited for (read before this instruction's own writes).
        let operand_wait = start - d;
        let waited_on = if operand_wait > 0 { self.last_operand(i, late) } else { None };
        let needs: Vec<(Unit, u64, u64)> =
            c.units.iter().filter(|(_, busy)| *busy > 0).map(|&(u, busy)| (u, busy, self.capacity(u))).collect();
        start = self.units.earliest(start, &needs);
        for &(u, busy, _) in &needs {
            self.units.hold(start, u, busy);
        }
        if self.units.used.len() > 4096 {
            self.units.forget_before(self.group_cycle);
        }
        let finish = start.saturating_add(c.latency);
        for r in 0..32usize {
            if i.deps.writes & (1 << r) != 0 {
                if let Some(slot) = self.reg_ready.get_mut(r) {
                    *slot = finish;
                }
                if let Some(p) = self.reg_producer.get_mut(r) {
                    *p = (i.addr, c.latency);
                }
            }
        }
        if i.deps.writes_cc {
            self.cc_ready = finish;
            self.cc_producer = (i.addr, c.latency);
        }
        let charged = operand_wait.min(finish.saturating_sub(self.complete.max(d)));
        if let Some((reg, pc, latency)) = waited_on.filter(|_| charged > 0) {
            self.stall(
                StallCause::Produced(reg, Producer { addr: pc, slot: 0, latency, text: String::new() }),
                charged,
            );
        }
        if let Some(slot) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()).and_then(|g| g.slots.last_mut()) {
            slot.done = Some(finish);
            // The unit held longest names it (FXU for most, LSU for storage operands).
            slot.unit = Some(needs.iter().max_by_key(|(_, busy, _)| *busy).map_or("none", |(u, _, _)| unit_name(*u)));
        }
        self.complete = self.complete.max(finish);
        for _ in 0..uops {
            self.inflight.push_back(self.complete);
        }
        if c.serialising {
            self.group_used = None;
            self.fetch_ready = self.complete.saturating_add(self.params.serial_refill);
            self.stall(StallCause::Split("serialisation refill"), self.params.serial_refill);
        }
        if i.taken && matches!(i.class, Class::Branch | Class::BranchCount | Class::Call) {
            self.group_used = None;
            if self.params.taken > 0 {
                self.fetch_ready = self.fetch_ready.max(d.saturating_add(1 + self.params.taken));
                self.stall(StallCause::Branch, self.params.taken);
            }
        }
        self.summary.instructions += 1;
        start
    }

    /// Totals so far.
    pub fn summary(&self) -> TimingSummary {
        TimingSummary { cycles: self.now(), ..self.summary.clone() }
    }

    /// Cycles, instructions and decoder groups so far, without the stall table (issue 16).
    pub fn counts(&self, instructions: u64) -> emu_core::cpu::Counts {
        emu_core::cpu::Counts { cycles: self.now(), instructions, nops: 0, groups: self.summary.groups }
    }

    /// See [`S390Params::explain_model`].
    pub fn explain_model(&self) -> String {
        self.params.explain_model()
    }

    // timeline (issue 16)

    /// The operand of `i` ready last (the first such: addresses, then data, then the CC) and
    /// its producer's address and latency.
    fn last_operand(&self, i: &IssueInfo, late: u64) -> Option<(Reg, u64, u64)> {
        let regs = |set: Regs, less: u64| (0..32u16).filter(move |r| set & (1 << r) != 0).map(move |r| (r, less));
        let mut best: Option<(u64, Reg, (u64, u64))> = None;
        for (r, less) in regs(i.deps.addr, 0).chain(regs(i.deps.data, late)) {
            let ready = self.reg_ready.get(usize::from(r)).copied().unwrap_or(0).saturating_sub(less);
            if best.as_ref().is_none_or(|(b, _, _)| ready > *b) {
                let reg = if r < 16 {
                    Reg::Numbered { prefix: "r", number: r, suffix: "" }
                } else {
                    Reg::Numbered { prefix: "f", number: r - 16, suffix: "" }
                };
                best = Some((ready, reg, self.reg_producer.get(usize::from(r)).copied().unwrap_or((0, 0))));
            }
        }
        if i.deps.reads_cc && best.as_ref().is_none_or(|(b, _, _)| self.cc_ready > *b) {
            best = Some((self.cc_ready, Reg::Named("cc"), self.cc_producer));
        }
        best.map(|(_, reg, (pc, latency))| (reg, pc, latency))
    }

    /// Counts `cycles` lost to `cause`, and notes it on the open group when recording.
    fn stall(&mut self, cause: StallCause, cycles: u64) {
        self.summary.add_stall(&cause, cycles);
        if let Some(g) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            if cycles > 0 {
                g.waited.push((cause, cycles));
            }
        }
    }

    /// Starts or stops recording the [`Timeline`] (one record per decoder group).
    pub fn set_timeline(&mut self, on: bool) {
        match (on, self.timeline.is_some()) {
            (true, false) => self.timeline = Some(Timeline::default()),
            (false, true) => self.timeline = None,
            _ => {}
        }
    }

    /// The decoder groups so far, if recording.
    pub fn timeline(&self) -> Option<&Timeline> {
        self.timeline.as_ref()
    }

    /// Names the instruction [`S390Model::issue`] recorded last (the model sees its class only).
    pub fn label_last(&mut self, addr: u64, text: String) {
        if let Some(s) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()).and_then(|g| g.slots.last_mut()) {
            s.addr = addr;
            s.text = text;
        }
    }
}

/// A unit as a timeline names it.
fn unit_name(u: Unit) -> &'static str {
    match u {
        Unit::Fxu => "FXU",
        Unit::Lsu => "LSU",
        Unit::Bru => "BRU",
        Unit::Millicode => "millicode",
    }
}

/// CPU-timer / TOD units (4096 per µs) elapsed after `cycles` at `freq_mhz`.
pub fn units_of(cycles: u64, freq_mhz: u64) -> u64 {
    let u = u128::from(cycles) * 4096 / u128::from(freq_mhz.max(1));
    u64::try_from(u).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests;
