//! Pre-decoded issue records (issue 17): everything [`S390Model::issue`] works out of an
//! instruction that does not change at run time (its class's cost, micro-ops, the units it
//! holds with their capacities, the window room it needs, its register sets), made once when
//! the block engine first reaches the instruction, so issuing it is a few array reads and
//! max operations. Stall causes are still charged only when a wait happens.
//!
//! [`S390Model::issue_planned`] does exactly what [`S390Model::issue`] does (the block
//! differential test, `tests/block_diff.rs`, holds them to the same cycles, stall tables and
//! timelines); with a timeline recording it hands the instruction to [`S390Model::issue`]
//! itself, and the SS classes, whose cost grows with the bytes processed, get their record
//! when they issue.

use super::{kind, Class, Cost, Grouping, IssueInfo, S390Model, BRANCH, CC, DRAIN, REFILL};
use crate::decode::Insn;

/// One instruction's static issue record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssuePlan {
    /// The instruction as [`S390Model::issue`] takes it (not taken, no SS length).
    pub(super) info: IssueInfo,
    /// Its class's cost.
    pub(super) cost: Cost,
    /// An SS class: costed per instruction from the bytes processed.
    pub(super) dynamic: bool,
    /// Micro-ops it occupies.
    pub(super) uops: u64,
    /// Micro-ops that may stay in flight when it enters the window.
    pub(super) keep: usize,
    /// Units held: kind index, cycles, capacity (the first `n_needs`).
    pub(super) needs: [(usize, u64, u64); 2],
    pub(super) n_needs: usize,
    /// How much later than the address its register operand is read.
    pub(super) late: u64,
    /// A taken branch ends its group (branches, branch on count, calls).
    pub(super) branchy: bool,
}

impl S390Model {
    /// The issue record of `insn` under this model's parameters.
    pub fn plan(&self, insn: &Insn) -> IssuePlan {
        let info = IssueInfo::of(insn, false, 0);
        let cost = self.costs.cost(&self.params, insn.class, 0, insn.deps.storage);
        self.plan_with(info, cost)
    }

    /// The record of `insn` as an SS instruction processing `ss_len` bytes (MVC's length is
    /// in the instruction, so its block handler's record is static).
    pub(crate) fn plan_sized(&self, insn: &Insn, ss_len: u64) -> IssuePlan {
        let info = IssueInfo::of(insn, false, ss_len);
        let cost = self.costs.cost(&self.params, insn.class, ss_len, insn.deps.storage);
        IssuePlan { dynamic: false, ..self.plan_with(info, cost) }
    }

    /// The record of `info` costing `cost`.
    fn plan_with(&self, info: IssueInfo, cost: Cost) -> IssuePlan {
        let uops = match cost.grouping {
            Grouping::Normal | Grouping::EndGroup => 1,
            Grouping::Cracked => 2,
            Grouping::Alone(n) => u64::from(n) * self.params.group_size,
        };
        let window = usize::try_from(self.params.window.max(uops)).unwrap_or(usize::MAX);
        let keep = window - usize::try_from(uops).unwrap_or(0).min(window);
        let mut needs = [(0, 0, 0); 2];
        let mut n_needs = 0;
        for &(u, busy) in cost.units.iter().filter(|(_, busy)| *busy > 0) {
            if let Some(slot) = needs.get_mut(n_needs) {
                *slot = (kind(u), busy, self.capacity(u));
                n_needs += 1;
            }
        }
        let late = if info.deps.storage && info.class != Class::Store { self.params.load } else { 0 };
        IssuePlan {
            info,
            cost,
            dynamic: matches!(info.class, Class::SsMove | Class::SsOp),
            uops,
            keep,
            needs,
            n_needs,
            late,
            branchy: matches!(info.class, Class::Branch | Class::BranchCount | Class::Call),
        }
    }

    /// Issues the instruction `p` records (`taken`: it jumped; `ss_len`: the bytes an SS
    /// instruction processed), exactly as [`S390Model::issue`] would; returns the cycle it
    /// started executing.
    #[inline]
    pub fn issue_planned(&mut self, p: &IssuePlan, taken: bool, ss_len: u64) -> u64 {
        if self.timeline.is_some() {
            return self.issue(&IssueInfo { taken, ss_len, ..p.info });
        }
        if p.dynamic {
            // The SS classes: costed for the bytes this one processed.
            let cost = self.costs.cost(&self.params, p.info.class, ss_len, p.info.deps.storage);
            let now = self.plan_with(p.info, cost);
            return self.issue_untimed(&now, taken);
        }
        self.issue_untimed(p, taken)
    }

    /// [`S390Model::issue_planned`] with no timeline recording and a record that is not an SS
    /// one (the block engine checks the timeline once per block and sends its SS handler,
    /// MVC, through [`S390Model::issue_planned`]).
    #[inline(always)]
    pub fn issue_untimed(&mut self, p: &IssuePlan, taken: bool) -> u64 {
        // The pipeline fields first, if the per-block timing left them behind.
        self.leave();
        let c = &p.cost;
        // The in-flight completions only grow (each is the in-order completion so far), so
        // the latest one removed is the last.
        let mut not_before = self.inflight.pop_to(p.keep);
        let mut before = 0;
        if c.serialising {
            not_before = not_before.max(self.complete);
            before = self.group_cycle.max(self.fetch_ready);
        }
        let d = match c.grouping {
            Grouping::Normal => self.dispatch_one(false, not_before),
            Grouping::EndGroup => self.dispatch_one(true, not_before),
            g => self.dispatch(g, not_before),
        };
        if c.serialising && d > before {
            self.stall(DRAIN, d - before);
        }
        // The operand ready last, found as `last_operand` finds it (addresses, then data, then
        // the CC; the first of the latest), in the same pass as the readiness.
        let deps = &p.info.deps;
        let (mut top, mut top_r) = (0u64, CC);
        let mut left = deps.addr;
        while left != 0 {
            let r = (left.trailing_zeros() & 31) as usize;
            if self.reg_ready[r] > top {
                (top, top_r) = (self.reg_ready[r], r);
            }
            left &= left - 1;
        }
        let mut left = deps.data;
        while left != 0 {
            let r = (left.trailing_zeros() & 31) as usize;
            let ready = self.reg_ready[r].saturating_sub(p.late);
            if ready > top {
                (top, top_r) = (ready, r);
            }
            left &= left - 1;
        }
        if deps.reads_cc && self.cc_ready > top {
            (top, top_r) = (self.cc_ready, CC);
        }
        let mut start = d.max(top);
        let operand_wait = start - d;
        let needs = p.needs.get(..p.n_needs).unwrap_or_default();
        self.units.forget_before(self.group_cycle);
        start = self.units.take(start, needs);
        let finish = start.saturating_add(c.latency);
        // The wait is charged as far as it delays completion, naming the producer as it was
        // before this instruction's own writes.
        if operand_wait > 0 {
            let charged = operand_wait.min(finish.saturating_sub(self.complete.max(d)));
            if charged > 0 {
                let (pc, latency) = if top_r == CC { self.cc_producer } else { self.reg_producer[top_r & 31] };
                self.stall_operand(top_r, pc, latency, charged);
            }
        }
        let mut writes = deps.writes;
        while writes != 0 {
            let r = (writes.trailing_zeros() & 31) as usize;
            self.reg_ready[r] = finish;
            self.reg_producer[r] = (p.info.addr, c.latency);
            writes &= writes - 1;
        }
        if deps.writes_cc {
            self.cc_ready = finish;
            self.cc_producer = (p.info.addr, c.latency);
        }
        self.complete = self.complete.max(finish);
        self.inflight.push_n(self.complete, p.uops);
        if c.serialising {
            self.group_used = None;
            self.fetch_ready = self.complete.saturating_add(self.params.serial_refill);
            self.stall(REFILL, self.params.serial_refill);
        }
        if taken && p.branchy {
            self.group_used = None;
            if self.params.taken > 0 {
                self.fetch_ready = self.fetch_ready.max(d.saturating_add(1 + self.params.taken));
                self.stall(BRANCH, self.params.taken);
            }
        }
        self.summary.instructions += 1;
        start
    }

    /// [`S390Model::dispatch`] for a one-slot instruction (`ends`: it ends its group), with no
    /// timeline recording.
    #[inline(always)]
    fn dispatch_one(&mut self, ends: bool, not_before: u64) -> u64 {
        let size = self.params.group_size.max(1);
        let cycle = match self.group_used {
            Some(u) if u < size && self.group_cycle >= not_before => self.group_cycle,
            _ => self.open_group_untimed(not_before),
        };
        let used = self.group_used.unwrap_or(0) + 1;
        self.group_used = if ends || used >= size { None } else { Some(used) };
        cycle
    }

    /// Opens a new group at the earliest cycle allowed from `not_before`, recording nothing;
    /// returns its cycle ([`S390Model::open_group`] adds the timeline record).
    #[inline(always)]
    pub(super) fn open_group_untimed(&mut self, not_before: u64) -> u64 {
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
        cycle
    }
}
