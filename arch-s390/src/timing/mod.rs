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

mod costs;
mod inflight;
mod memo;
mod params;
mod plan;
mod reserve;

pub use crate::decode::deps::{deps, Deps, Regs};
pub use params::{Class, Cost, Grouping, S390Params, TimerKind, Unit, PRESETS};
pub use plan::IssuePlan;

pub(crate) use memo::BlockTiming;

use reserve::Reservations;

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
        IssueInfo { addr: insn.addr, class: insn.class, taken, ss_len, deps: insn.deps }
    }
}

fn kind(u: Unit) -> usize {
    match u {
        Unit::Fxu => 0,
        Unit::Lsu => 1,
        Unit::Bru => 2,
        Unit::Millicode => 3,
    }
}

/// Stall causes the model charges, counted per kind and turned into the summary's text keys
/// only when a summary is built.
const CAUSES: [StallCause; 3] =
    [StallCause::Split("serialisation drain"), StallCause::Split("serialisation refill"), StallCause::Branch];
const DRAIN: usize = 0;
const REFILL: usize = 1;
const BRANCH: usize = 2;

/// The model's clock, pipeline state and counters.
#[derive(Debug, Clone)]
pub struct S390Model {
    params: S390Params,
    /// `params`' cost of every class (issue 17).
    costs: costs::Costs,
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
    inflight: inflight::Inflight,
    summary: TimingSummary,
    /// Cycles charged per [`CAUSES`] entry, and whether it was ever charged (a zero charge
    /// still lists the cause in the summary).
    stalls: [(bool, u64); CAUSES.len()],
    /// Operand waits charged per operand ([`operand_reg`]), as `stalls`.
    operand_stalls: [(bool, u64); CC + 1],
    /// The dispatch groups, when asked for (issue 16: `run --timeline`).
    timeline: Option<Timeline>,
    /// Pipeline states the per-block timing has seen ([`memo`]).
    states: memo::States,
    /// The interned state the pipeline is in, when known; the pipeline fields may lag it.
    known: Option<memo::Known>,
}

impl S390Model {
    /// A model at cycle 0.
    pub fn new(params: S390Params) -> S390Model {
        S390Model {
            units: Reservations::default(),
            costs: costs::Costs::new(&params),
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
            inflight: inflight::Inflight::default(),
            summary: TimingSummary::default(),
            stalls: [(false, 0); CAUSES.len()],
            operand_stalls: [(false, 0); CC + 1],
            timeline: None,
            states: memo::States::default(),
            known: None,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &S390Params {
        &self.params
    }

    /// The current cycle: everything issued has completed, or the current group dispatches.
    pub fn now(&self) -> u64 {
        if let Some(now) = self.known_now() {
            return now;
        }
        self.complete.max(self.group_cycle)
    }

    /// Lets `cycles` pass with nothing executing: the pipeline drains.
    pub fn advance(&mut self, cycles: u64) {
        self.leave();
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
        let cycle = self.open_group_untimed(not_before);
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
        let mut left = set;
        let mut latest = 0;
        while left != 0 {
            let r = left.trailing_zeros() as usize;
            latest = latest.max(self.reg_ready.get(r).copied().unwrap_or(0));
            left &= left - 1;
        }
        latest
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
        self.leave();
        let c = self.costs.cost(&self.params, i.class, i.ss_len, i.deps.storage);
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
            self.stall(DRAIN, d - before);
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
        let mut needs = [(0, 0, 0); 2];
        let mut n = 0;
        for &(u, busy) in c.units.iter().filter(|(_, busy)| *busy > 0) {
            if let Some(slot) = needs.get_mut(n) {
                *slot = (kind(u), busy, self.capacity(u));
                n += 1;
            }
        }
        let needs = needs.get(..n).unwrap_or_default();
        self.units.forget_before(self.group_cycle);
        start = self.units.earliest(start, needs);
        for &(k, busy, _) in needs {
            self.units.hold(start, k, busy);
        }
        let finish = start.saturating_add(c.latency);
        let mut writes = i.deps.writes;
        while writes != 0 {
            let r = writes.trailing_zeros() as usize;
            if let Some(slot) = self.reg_ready.get_mut(r) {
                *slot = finish;
            }
            if let Some(p) = self.reg_producer.get_mut(r) {
                *p = (i.addr, c.latency);
            }
            writes &= writes - 1;
        }
        if i.deps.writes_cc {
            self.cc_ready = finish;
            self.cc_producer = (i.addr, c.latency);
        }
        let charged = operand_wait.min(finish.saturating_sub(self.complete.max(d)));
        if let Some((r, pc, latency)) = waited_on.filter(|_| charged > 0) {
            self.stall_operand(r, pc, latency, charged);
        }
        if let Some(slot) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()).and_then(|g| g.slots.last_mut()) {
            slot.done = Some(finish);
            // The unit held longest names it (FXU for most, LSU for storage operands).
            slot.unit = Some(needs.iter().max_by_key(|(_, busy, _)| *busy).map_or("none", |(k, _, _)| UNIT_NAMES[*k]));
        }
        self.complete = self.complete.max(finish);
        for _ in 0..uops {
            self.inflight.push_back(self.complete);
        }
        if c.serialising {
            self.group_used = None;
            self.fetch_ready = self.complete.saturating_add(self.params.serial_refill);
            self.stall(REFILL, self.params.serial_refill);
        }
        if i.taken && matches!(i.class, Class::Branch | Class::BranchCount | Class::Call) {
            self.group_used = None;
            if self.params.taken > 0 {
                self.fetch_ready = self.fetch_ready.max(d.saturating_add(1 + self.params.taken));
                self.stall(BRANCH, self.params.taken);
            }
        }
        self.summary.instructions += 1;
        start
    }

    /// Totals so far.
    pub fn summary(&self) -> TimingSummary {
        let mut s = TimingSummary { cycles: self.now(), ..self.summary.clone() };
        for (cause, &(charged, cycles)) in CAUSES.iter().zip(&self.stalls) {
            if charged {
                s.add_stall(cause, cycles);
            }
        }
        for (r, &(charged, cycles)) in self.operand_stalls.iter().enumerate() {
            if charged {
                s.add_stall(&StallCause::Register(operand_reg(r)), cycles);
            }
        }
        s
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
    /// Returned as the operand's index ([`operand_reg`]: 0-15 GPRs, 16-31 FPRs, [`CC`]).
    fn last_operand(&self, i: &IssueInfo, late: u64) -> Option<(usize, u64, u64)> {
        let regs = |set: Regs, less: u64| (0..32usize).filter(move |r| set & (1 << r) != 0).map(move |r| (r, less));
        let mut best: Option<(u64, usize, (u64, u64))> = None;
        for (r, less) in regs(i.deps.addr, 0).chain(regs(i.deps.data, late)) {
            let ready = self.reg_ready.get(r).copied().unwrap_or(0).saturating_sub(less);
            if best.as_ref().is_none_or(|(b, _, _)| ready > *b) {
                best = Some((ready, r, self.reg_producer.get(r).copied().unwrap_or((0, 0))));
            }
        }
        if i.deps.reads_cc && best.as_ref().is_none_or(|(b, _, _)| self.cc_ready > *b) {
            best = Some((self.cc_ready, CC, self.cc_producer));
        }
        best.map(|(_, r, (pc, latency))| (r, pc, latency))
    }

    /// Counts `cycles` lost waiting for operand `r` (an index of [`operand_reg`]) produced at
    /// `pc` with `latency`; the producer is named only on the timeline, which allocates.
    fn stall_operand(&mut self, r: usize, pc: u64, latency: u64, cycles: u64) {
        if let Some((charged, total)) = self.operand_stalls.get_mut(r) {
            *charged = true;
            *total += cycles;
        }
        if let Some(g) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            let producer = Producer { addr: pc, slot: 0, latency, text: String::new() };
            g.waited.push((StallCause::Produced(operand_reg(r), producer), cycles));
        }
    }

    /// Counts `cycles` lost to `cause`, and notes it on the open group when recording.
    fn stall(&mut self, cause: usize, cycles: u64) {
        if let Some((charged, total)) = self.stalls.get_mut(cause) {
            *charged = true;
            *total += cycles;
        }
        if let Some(g) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            if let Some(c) = CAUSES.get(cause).filter(|_| cycles > 0) {
                g.waited.push((c.clone(), cycles));
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
/// The units' names, indexed by [`kind`].
const UNIT_NAMES: [&str; 4] = ["FXU", "LSU", "BRU", "millicode"];

/// The operand index of the condition code (after the 16 GPRs and 16 FPRs).
const CC: usize = 32;

/// The register an operand index names (0-15 `rN`, 16-31 `fN`, [`CC`] `cc`).
fn operand_reg(r: usize) -> Reg {
    match u16::try_from(r) {
        Ok(n @ 0..=15) => Reg::Numbered { prefix: "r", number: n, suffix: "" },
        Ok(n @ 16..=31) => Reg::Numbered { prefix: "f", number: n - 16, suffix: "" },
        _ => Reg::Named("cc"),
    }
}

/// CPU-timer / TOD units (4096 per µs) elapsed after `cycles` at `freq_mhz`.
pub fn units_of(cycles: u64, freq_mhz: u64) -> u64 {
    let u = u128::from(cycles) * 4096 / u128::from(freq_mhz.max(1));
    u64::try_from(u).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests;
