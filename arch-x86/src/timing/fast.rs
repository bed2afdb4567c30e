//! Pre-decoded issue records and the issue step that reads them (issue 17).
//!
//! [`IssueRec`] holds what [`X86Model::issue`] works out from an [`super::IssueInfo`] on every
//! call and that never changes for one instruction: its class's plan slot, its sources and
//! destinations as scoreboard indices (the stack engine's rsp already taken out), and which of
//! the rare rules (serialisation, the divider, the microcode sequencer, a front-end hold) can
//! apply at all. [`X86Model::issue_rec`] is [`X86Model::issue`] over such a record: the same
//! rules in the same order, so every cycle and stall charge is the same (the block engine's
//! differential test, `arch-x86/tests/block_diff.rs`, checks it); it keeps no timeline, and the
//! CPU calls it only while none is recorded.

use super::{
    plan, Cause, Forward, Hold, Serialise, TimingClass, X86Model, XReg, CAUSES, FLAGS, MEMORY_SLOT, ROB_SLOT, RSP,
};

/// Scoreboard entries (16 GPRs and the flags): a record lists each at most once.
const ENTRIES: usize = FLAGS + 1;
/// A scoreboard slot never written: always ready (pads the source list).
const SRC_PAD: u8 = ENTRIES as u8;
/// A scoreboard slot never read (pads the destination list).
const DST_PAD: u8 = ENTRIES as u8 + 1;
/// Sources and destinations looked at without a loop; a record with more has the rest in
/// `srcs`/`dsts` past these.
const FAST_SRCS: usize = 4;
const FAST_DSTS: usize = 3;

/// The run-time-invariant part of one instruction as the timing model sees it, resolved
/// against one model's parameters ([`IssueRec::new`]): a record is only valid for the model it
/// was built with (the CPU rebuilds its blocks when the model is replaced).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssueRec {
    /// The instruction's address (the producer a later wait names).
    pub addr: u64,
    /// Its timing class.
    pub class: TimingClass,
    /// Register result latency of the class.
    lat: u64,
    /// Pipe group index and the group's pipe count (`count` 0: no pipe, the group unused).
    pub(super) pipe: u8,
    pub(super) pipe_count: u64,
    /// Plan slot of the class (for the rare rules).
    slot: u8,
    pub(super) nsrc: u8,
    pub(super) ndst: u8,
    /// Scoreboard indices read, in [`super::IssueInfo::srcs`] order (the first latest one is
    /// the cause charged); rsp left out for stack-engine classes.
    pub(super) srcs: [u8; ENTRIES],
    /// Scoreboard indices written, rsp left out for stack-engine classes.
    pub(super) dsts: [u8; ENTRIES],
    /// The first [`FAST_SRCS`] sources and [`FAST_DSTS`] destinations, padded.
    srcs4: [u8; FAST_SRCS],
    dsts3: [u8; FAST_DSTS],
    /// A stack-engine class writing rsp: rsp is ready no later than dispatch.
    pub(super) rsp_dst: bool,
    /// Serialising, a division, a sequencer instruction or a locked RMW.
    pub(super) rare: bool,
    /// Its class's front-end rule (branches, microcode, fences), resolved.
    pub(super) hold: Option<Hold>,
    /// How a load's value is timed ([`LoadKind`]).
    load: LoadKind,
    /// A store's data is the result (read-modify-writes), not the execution start.
    store_value: bool,
    /// A locked read-modify-write.
    locked: bool,
}

/// How [`X86Model::issue`] times the value of a load, by class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LoadKind {
    /// ret and locked RMWs: the load is not timed (ret's target is predicted).
    Untimed,
    /// load and pop: the loaded value is the result; the access starts at execution.
    Plain,
    /// popf: starts at execution, result after its latency.
    PlainLatency,
    /// cmpxchg: no earlier than its own latency.
    Cmpxchg,
    /// ALU with a memory operand: an ALU step after the load.
    Alu,
    /// Anything else: its latency after the load.
    Latency,
}

impl IssueRec {
    /// The record of an instruction at `addr` of `class` reading `srcs` and writing `dsts`
    /// (registers above 15 are never waited for, as in [`X86Model::issue`]).
    pub fn new(model: Option<&X86Model>, addr: u64, class: TimingClass, srcs: &[XReg], dsts: &[XReg]) -> IssueRec {
        use TimingClass as T;
        let stack_engine = matches!(class, T::Push | T::Pop | T::Call | T::CallIndirect | T::Ret | T::Pushf | T::Popf);
        let slot = plan::slot(class);
        // Without a model nothing reads the figures.
        let plan = model.and_then(|m| m.plans.get(slot)).copied().unwrap_or(plan::EMPTY[0]);
        let (pipe, pipe_count) = plan.pipe.map_or((0, 0), |(g, n)| (g as u8, n));
        let mut rec = IssueRec {
            addr,
            class,
            lat: plan.latency.or_else(|| model.map(|m| m.latency(class))).unwrap_or(0),
            pipe,
            pipe_count,
            load: match class {
                T::Ret | T::LockedRmw => LoadKind::Untimed,
                T::Load | T::Pop => LoadKind::Plain,
                T::Popf => LoadKind::PlainLatency,
                T::Cmpxchg => LoadKind::Cmpxchg,
                T::LoadAlu | T::Rmw => LoadKind::Alu,
                _ => LoadKind::Latency,
            },
            store_value: matches!(class, T::Rmw | T::LockedRmw | T::Cmpxchg),
            locked: class == T::LockedRmw,
            slot: slot as u8,
            nsrc: 0,
            ndst: 0,
            srcs: [0; ENTRIES],
            dsts: [0; ENTRIES],
            srcs4: [SRC_PAD; FAST_SRCS],
            dsts3: [DST_PAD; FAST_DSTS],
            rsp_dst: false,
            rare: class.serialises().is_some()
                || matches!(class, T::Div { .. } | T::Rdtsc | T::Popf | T::Pushf | T::LockedRmw),
            hold: model.and_then(|m| Hold::of(&m.params, class)),
        };
        for &src in srcs {
            let Some(k) = src.index() else { continue };
            // A repeated source cannot be later than itself: the first stays the cause.
            if (stack_engine && src == XReg::Gpr(RSP)) || rec.srcs[..usize::from(rec.nsrc)].contains(&(k as u8)) {
                continue;
            }
            rec.srcs[usize::from(rec.nsrc)] = k as u8;
            rec.nsrc += 1;
        }
        for &dst in dsts {
            if stack_engine && dst == XReg::Gpr(RSP) {
                rec.rsp_dst = true;
                continue;
            }
            let Some(k) = dst.index() else { continue };
            if rec.dsts[..usize::from(rec.ndst)].contains(&(k as u8)) {
                continue;
            }
            rec.dsts[usize::from(rec.ndst)] = k as u8;
            rec.ndst += 1;
        }
        for (fast, &k) in rec.srcs4.iter_mut().zip(&rec.srcs[..usize::from(rec.nsrc)]) {
            *fast = k;
        }
        for (fast, &k) in rec.dsts3.iter_mut().zip(&rec.dsts[..usize::from(rec.ndst)]) {
            *fast = k;
        }
        rec
    }
}

/// "No cause" among the stall slots.
const NO_CAUSE: usize = CAUSES;

impl X86Model {
    /// Whether a timeline is being recorded (then the CPU issues through [`X86Model::issue`]).
    #[inline]
    pub fn recording(&self) -> bool {
        self.timeline.is_some()
    }

    /// [`X86Model::issue`] for a pre-decoded record, with no timeline recorded: the same
    /// cycles, stall charges and state, except that the instruction and nop totals are left to
    /// the caller ([`X86Model::count_issued`], once per block). `load`, `store` and `taken` are
    /// what the instruction did. Causes are kept as their stall-counter slots: without a
    /// timeline a charge is one add.
    #[inline(always)]
    pub fn issue_rec(&mut self, r: &IssueRec, load: Option<(u64, u8)>, store: Option<(u64, u8)>, taken: bool) -> u64 {
        let dispatch = self.dispatch_fast();
        self.issue_at(r, dispatch, load, store, taken)
    }

    /// The rest of [`X86Model::issue_rec`] for a record already dispatched at `dispatch`.
    #[inline(always)]
    pub(super) fn issue_at(
        &mut self,
        r: &IssueRec,
        dispatch: u64,
        load: Option<(u64, u8)>,
        store: Option<(u64, u8)>,
        taken: bool,
    ) -> u64 {
        let mut start = dispatch;
        let mut cause = NO_CAUSE;
        // As many of the padded first sources as the record has (a pad is always ready).
        let fast_srcs = match r.nsrc {
            0 => &r.srcs4[..0],
            1 => &r.srcs4[..1],
            2 => &r.srcs4[..2],
            _ => &r.srcs4[..],
        };
        for &k in fast_srcs {
            let ready = self.ready[usize::from(k) & 31];
            if ready > start {
                start = ready;
                // A scoreboard index is its register's stall slot (`Cause::slot`).
                cause = usize::from(k);
            }
        }
        if usize::from(r.nsrc) > FAST_SRCS {
            for &k in r.srcs.get(FAST_SRCS..usize::from(r.nsrc)).unwrap_or(&[]) {
                let ready = self.ready.get(usize::from(k)).copied().unwrap_or(0);
                if ready > start {
                    start = ready;
                    cause = usize::from(k);
                }
            }
        }
        let memory = load.is_some() || store.is_some();
        let mut sequenced = None;
        let mut lock_extra = 0;
        if r.rare {
            (sequenced, lock_extra) =
                self.rare_rules(r.class, usize::from(r.slot), memory, dispatch, &mut start, &mut cause);
        } else if memory && self.mem_floor > start {
            start = self.mem_floor;
            cause = Cause::Serial(Serialise::LockedRmw).slot();
        }
        if r.pipe_count != 0 {
            if let Some(p) = self.pipes.get_mut(usize::from(r.pipe)) {
                start = p.reserve(start, r.pipe_count);
            }
        }

        let mut value = start + r.lat;
        let mut mem_wait = 0;
        if let Some((addr, size)) = load.filter(|_| r.load != LoadKind::Untimed) {
            value = self.load_value(r, addr, size, dispatch, start, &mut mem_wait);
        }
        if r.locked {
            value += lock_extra;
            self.mem_floor = value;
        }
        let produced = (r.addr, value.saturating_sub(start));
        let fast_dsts = match r.ndst {
            0 => &r.dsts3[..0],
            1 => &r.dsts3[..1],
            2 => &r.dsts3[..2],
            _ => &r.dsts3[..],
        };
        for &k in fast_dsts {
            self.ready[usize::from(k) & 31] = value;
            self.producer[usize::from(k) & 31] = produced;
        }
        if usize::from(r.ndst) > FAST_DSTS {
            for &k in r.dsts.get(FAST_DSTS..usize::from(r.ndst)).unwrap_or(&[]) {
                if let Some(slot) = self.ready.get_mut(usize::from(k)) {
                    *slot = value;
                }
                if let Some(p) = self.producer.get_mut(usize::from(k)) {
                    *p = produced;
                }
            }
        }
        if r.rsp_dst {
            if let Some(slot) = self.ready.get_mut(usize::from(RSP)) {
                *slot = (*slot).max(dispatch);
            }
        }
        if let Some((addr, size)) = store {
            self.stores.push(addr, size, if r.store_value { value } else { start });
        }

        let mut complete = value.max(start + 1);
        if let Some((_, busy)) = sequenced {
            complete = complete.max(start + busy);
            self.microcode_done = complete;
        }
        let extends = complete.saturating_sub(self.max_complete.max(self.fe_cycle + 1));
        let waited = start - dispatch;
        // `NO_CAUSE` is a spare counter no summary reads: charging it is cheaper than a test.
        self.stalls[cause & 31] += waited.min(extends);
        if mem_wait > 0 {
            if let Some(c) = self.stalls.get_mut(MEMORY_SLOT) {
                *c += mem_wait.min(extends.saturating_sub(waited));
            }
        }
        self.max_complete = self.max_complete.max(complete);
        self.last_retire = self.last_retire.max(complete);
        if let Some(slot) = self.rob.get_mut(self.rob_pos) {
            *slot = self.last_retire;
        }
        self.seq += 1;
        self.rob_pos += 1;
        if self.rob_pos >= self.rob.len() {
            self.rob_pos = 0;
        }
        if let Some(h) = r.hold {
            self.hold_front_end(h, taken, dispatch, start);
        }
        start
    }

    /// Adds `instructions` issued through [`X86Model::issue_rec`], `nops` of them of the nop
    /// class, to the totals.
    #[inline]
    pub fn count_issued(&mut self, instructions: u64, nops: u64) {
        self.instructions += instructions;
        self.nops += nops;
    }

    /// When a load's value is ready (store forwarding included), as [`X86Model::issue`] times
    /// it; `mem_wait` gets the cycles beyond an L1 hit.
    #[inline(always)]
    fn load_value(&self, r: &IssueRec, addr: u64, size: u8, dispatch: u64, start: u64, mem_wait: &mut u64) -> u64 {
        let plain = matches!(r.load, LoadKind::Plain | LoadKind::PlainLatency);
        let from = if plain { start } else { dispatch.max(self.mem_floor) };
        let hit = from + self.params.load;
        let loaded = match self.stores.lookup(addr, size) {
            Forward::None => hit,
            Forward::Full(ready) => from.max(ready) + self.params.store_forward,
            Forward::Partial(ready) => from.max(ready + self.params.store_forward_fail),
        };
        *mem_wait = loaded.saturating_sub(hit);
        match r.load {
            LoadKind::Plain => loaded,
            LoadKind::Cmpxchg => loaded.max(start + self.params.cmpxchg),
            LoadKind::Alu => loaded.max(start) + self.params.alu,
            LoadKind::PlainLatency | LoadKind::Latency | LoadKind::Untimed => loaded.max(start) + r.lat,
        }
    }

    /// [`X86Model::dispatch`] without a timeline; a new group is opened out of line.
    #[inline(always)]
    pub(super) fn dispatch_fast(&mut self) -> u64 {
        let mut c = self.fe_min.max(self.fe_cycle);
        if self.has_group && c == self.fe_cycle && self.fe_used >= self.width {
            c += 1;
        }
        // `seq >= rob_size` needs no test: until then the slot was never written and holds 0.
        let rob_free = self.rob.get(self.rob_pos).copied().unwrap_or(0);
        let mut rob_wait = 0;
        if rob_free > c {
            rob_wait = rob_free - c;
            c = rob_free;
        }
        if !self.has_group || c != self.fe_cycle {
            self.open_group(c, rob_wait);
        }
        self.fe_used += 1;
        c
    }

    /// Opens the dispatch group of cycle `c`, charging the pending front-end delay and the
    /// reorder buffer's wait as [`X86Model::dispatch`] does.
    #[inline(never)]
    fn open_group(&mut self, c: u64, rob_wait: u64) {
        let pending = self.fe_cause.take();
        let lost = self.fe_min.saturating_sub(self.fe_cycle + u64::from(self.has_group));
        self.fe_cycle = c;
        self.fe_used = 0;
        self.has_group = true;
        self.groups += 1;
        if let Some(cause) = pending {
            if let Some(n) = self.stalls.get_mut(cause.slot()) {
                *n += lost;
            }
        }
        if let Some(n) = self.stalls.get_mut(ROB_SLOT) {
            *n += rob_wait;
        }
    }

    /// The serialisation, divider, locked-RMW floor and sequencer rules of
    /// [`X86Model::issue`], in its order; returns the sequencer use and a locked RMW's extra
    /// latency.
    #[inline(never)]
    fn rare_rules(
        &mut self,
        class: TimingClass,
        slot: usize,
        memory: bool,
        dispatch: u64,
        start: &mut u64,
        cause: &mut usize,
    ) -> (Option<(super::Microcode, u64)>, u64) {
        let (serialising, sequenced) = match self.plans.get(slot) {
            Some(p) => (p.serialising, p.sequenced),
            None => (None, None),
        };
        if let Some(kind) = serialising.filter(|_| self.max_complete > *start) {
            *start = self.max_complete;
            *cause = Cause::Serial(kind).slot();
        }
        if memory && self.mem_floor > *start {
            *start = self.mem_floor;
            *cause = Cause::Serial(Serialise::LockedRmw).slot();
        }
        if let TimingClass::Div { bytes, .. } = class {
            if self.divider_free > *start {
                *start = self.divider_free;
                *cause = Cause::Divider.slot();
            }
            let busy = if bytes >= 8 { self.params.div_busy64 } else { self.params.div_busy32 };
            self.divider_free = *start + busy;
        }
        if let Some((kind, busy)) = sequenced {
            if self.mem_floor > *start {
                *start = self.mem_floor;
                *cause = Cause::Serial(Serialise::LockedRmw).slot();
            }
            if self.microcode_free > *start {
                *start = self.microcode_free;
                *cause = Cause::Microcode(kind).slot();
            }
            self.microcode_free = *start + busy;
        }
        let lock_extra = if class == TimingClass::LockedRmw && self.microcode_done > dispatch {
            self.params.lock_after_microcode
        } else {
            0
        };
        (sequenced, lock_extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_drop_the_stack_engines_rsp_and_repeats() {
        let model = X86Model::new(super::super::X86Params::default());
        let r = IssueRec::new(
            Some(&model),
            0x10,
            TimingClass::Push,
            &[XReg::Gpr(4), XReg::Gpr(3), XReg::Gpr(3), XReg::Flags],
            &[XReg::Gpr(4), XReg::Gpr(99)],
        );
        assert_eq!(&r.srcs[..usize::from(r.nsrc)], &[3, 16]);
        assert_eq!(r.ndst, 0);
        assert!(r.rsp_dst);
        let a = IssueRec::new(Some(&model), 0x10, TimingClass::Alu, &[XReg::Gpr(4)], &[XReg::Gpr(4), XReg::Flags]);
        assert_eq!(&a.srcs[..usize::from(a.nsrc)], &[4]);
        assert_eq!(&a.dsts[..usize::from(a.ndst)], &[4, 16]);
        assert!(!a.rsp_dst && !a.rare && a.hold.is_none());
    }
}
