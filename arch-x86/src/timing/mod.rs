//! x86-64 cycle model of one modern out-of-order core: Golden Cove (Sapphire Rapids) by default,
//! Zen 4 as a second preset because the calibration machine measured as one (see `params`, and
//! `arch-x86/timing-data/calibration.txt`). Every figure is a field of [`X86Params`];
//! [`X86Model::explain_model`] lists them with sources and GUESS marks.
//!
//! # Rules
//!
//! **Dispatch (front end).** Instructions dispatch in program order, at most `issue_width` per
//! cycle (a *group*). An instruction cannot dispatch before the one `rob_size` earlier retired
//! (charged "port reorder buffer busy").
//!
//! **Execution (dataflow).** An instruction executes at the first cycle at or after its dispatch
//! when its sources are ready ([`XReg`] scoreboard: 16 GPRs and the flags as one register) and a
//! pipe of its group is free (pipes are counted per class group, not per port: `alu_pipes`,
//! `shift_pipes`, `slow_int_pipes`, `load_pipes`, `store_pipes`, `branch_pipes`; a later
//! instruction may take a pipe in an earlier cycle than a stalled earlier one). Its destinations
//! are ready at execution + its class latency. [`X86Model::issue`] returns the execution cycle:
//! what `rdtsc` reads. Instructions retire in order when complete; [`X86Model::now`] is the
//! retirement of the last one (or the front end's position, if later).
//!
//! **Memory.** A load's value is ready `load` cycles after it executes (every load hits L1D), unless
//! one of the last 16 stores overlaps it: contained in the newest such store, the value is ready
//! `store_forward` after both the load executes and the store's data is ready; partly covered,
//! `store_forward_fail` after the store's data. A store's data is ready when it executes (all its
//! sources ready); an RMW's when its ALU step completes.
//!
//! **Division.** div/idiv latency by operand size and signedness (`div8`..`idiv64`); one divider,
//! busy `div_busy32` or `div_busy64` cycles per division (charged "port divider busy").
//!
//! **Branches.** Every branch is predicted correctly (no mispredictions modelled). A taken jmp/jcc
//! ends the dispatch group; the next instruction dispatches `1 + taken_branch_bubble` cycles later
//! (charged "branch"). A call dispatches the next instruction `call` cycles later, a ret `ret`
//! cycles later (their targets are predicted: ret does not wait for its load).
//! The stack engine: push, pop, call, ret, pushf and popf neither wait for nor delay rsp.
//!
//! **Microcode and serialisation.** rdtsc, pushf and popf are microcode-sequencer instructions
//! (issue 15): the front end is held only while their uops are delivered (`*_uops` /
//! `ms_uops_per_cycle` cycles, rounded up), and one sequencer runs them one after another: each
//! starts no earlier than the previous one's start plus that one's back-to-back cost (`rdtsc`,
//! `pushf`, `popf`; charged "port microcode (<kind>)"). Independent work overlaps them, as it
//! does on the hardware; holding the front end for the whole cost made every path with a clock
//! read or an irqsave pair over-predict. rdtsc's result is ready `rdtsc_latency` after it
//! executes, but it completes (for whatever waits for completion) only when the sequencer is done
//! with it; a sequencer instruction does not start before an earlier locked RMW completed, and a
//! locked RMW dispatched while a microcoded one is in flight costs `lock_after_microcode` more ([CAL-GC]
//! pushf_popf_lock, rdtsc_lock). cli, sti and pause still hold the front end for their cost. rdtscp, lfence,
//! mfence and locked RMWs first wait until every earlier instruction has completed; after lfence
//! and mfence nothing dispatches until `lfence`/`mfence` cycles later; rdtscp holds the front end
//! for its cost; a locked RMW completes `locked_rmw` cycles after executing and no later load or
//! store executes before that (charged "dependency on <kind> serialisation").
//!
//! **Stalls.** The summary charges front-end delays (branch, microcode, serialisation, ROB) and,
//! for an instruction that extends the latest completion while it waited for a source, the
//! smaller of that extension and the wait ("dependency on rax"). Charges never exceed the cycles.
//!
//! **Ignored.** Caches and TLBs, branch mispredictions, macro-fusion of cmp/test+jcc, the
//! immediate folding that lets some cores run `add r,imm` chains faster than 1 per cycle
//! (shared/reference/x86-host.md saw 0.2 cycles per op; a latency table over-predicts such
//! chains), partial-register and partial-flag merges, the stack-sync uop after explicit rsp use,
//! store commit bandwidth, and the pipe ring forgetting reservations more than 256 cycles apart.

mod block;
mod class;
mod fast;
mod params;
mod pipes;
mod plan;
mod stores;

#[cfg(test)]
mod calib_tests;
#[cfg(test)]
mod tests;

pub use block::BlockTiming;
pub use class::{Microcode, Serialise, TimingClass};
pub use fast::IssueRec;
pub use params::{Core, X86Params, PRESETS};

use std::fmt;

use emu_core::timing::{GroupRecord, Producer, Reg, SlotRef, StallCause, Timeline, TimingSummary};
use pipes::Pipes;
use stores::{Forward, Stores};

/// A register as the scoreboard sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum XReg {
    /// General register 0-15 in encoding order (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8..r15).
    Gpr(u8),
    /// RFLAGS, as one register (partial-flag writes are not tracked apart).
    Flags,
}

/// GPR names in encoding order.
const GPR_NAMES: [&str; 16] =
    ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];

/// rsp's encoding number (the stack engine's register).
const RSP: u8 = 4;
/// Scoreboard slot of the flags.
const FLAGS: usize = 16;

impl XReg {
    /// Scoreboard slot; `None` for a GPR number above 15.
    #[inline]
    fn index(self) -> Option<usize> {
        match self {
            XReg::Gpr(n) if n < 16 => Some(usize::from(n)),
            XReg::Gpr(_) => None,
            XReg::Flags => Some(FLAGS),
        }
    }
}

impl XReg {
    /// The register as a stall record names it.
    fn reg(self) -> Reg {
        match self {
            XReg::Gpr(n) => match GPR_NAMES.get(usize::from(n)) {
                Some(name) => Reg::Named(name),
                None => Reg::Numbered { prefix: "gpr", number: u16::from(n), suffix: "" },
            },
            XReg::Flags => Reg::Named("rflags"),
        }
    }
}

impl fmt::Display for XReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.reg().fmt(f)
    }
}

/// What the model needs to know about one executed instruction.
#[derive(Debug, Clone, Copy)]
pub struct IssueInfo<'a> {
    /// Its address (for the timeline).
    pub addr: u64,
    /// Its timing class.
    pub class: TimingClass,
    /// Registers read (address registers included).
    pub srcs: &'a [XReg],
    /// Registers written.
    pub dsts: &'a [XReg],
    /// The memory it read: address and size in bytes.
    pub load: Option<(u64, u8)>,
    /// The memory it wrote: address and size in bytes.
    pub store: Option<(u64, u8)>,
    /// For a branch: whether it was taken (jmp, call and ret always are).
    pub taken: bool,
}

/// The running totals, cheap to read at every path boundary (the runner's shared type, issue 16).
pub use emu_core::cpu::Counts;

/// Pipe groups (ports simplified to counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Alu,
    Shift,
    SlowInt,
    Load,
    Store,
    Branch,
}

/// Why something waited (allocation-free until a record needs text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    Dep(XReg),
    Memory,
    Serial(Serialise),
    Microcode(Microcode),
    Divider,
    Rob,
    Branch,
}

/// Stall counter slots: the 17 scoreboard registers, then one per other cause.
const MEMORY_SLOT: usize = FLAGS + 1;
const SERIAL_SLOT: usize = MEMORY_SLOT + 1;
const MICROCODE_SLOT: usize = SERIAL_SLOT + Serialise::ALL.len();
const DIVIDER_SLOT: usize = MICROCODE_SLOT + Microcode::ALL.len();
const ROB_SLOT: usize = DIVIDER_SLOT + 1;
const BRANCH_SLOT: usize = ROB_SLOT + 1;
const CAUSES: usize = BRANCH_SLOT + 1;
const _: () = assert!(CAUSES < 32);

impl Cause {
    fn stall(self) -> StallCause {
        match self {
            Cause::Dep(r) => StallCause::Register(r.reg()),
            Cause::Memory => StallCause::StoreForward,
            Cause::Serial(kind) => StallCause::Serialisation(kind.name()),
            Cause::Microcode(kind) => StallCause::Microcode(kind.name()),
            Cause::Divider => StallCause::Unit("divider"),
            Cause::Rob => StallCause::Unit("reorder buffer"),
            Cause::Branch => StallCause::Branch,
        }
    }

    /// Slot in the stall counters.
    fn slot(self) -> usize {
        match self {
            Cause::Dep(r) => r.index().unwrap_or(FLAGS),
            Cause::Memory => MEMORY_SLOT,
            Cause::Serial(kind) => SERIAL_SLOT + kind as usize,
            Cause::Microcode(kind) => MICROCODE_SLOT + kind as usize,
            Cause::Divider => DIVIDER_SLOT,
            Cause::Rob => ROB_SLOT,
            Cause::Branch => BRANCH_SLOT,
        }
    }

    /// Every cause, one per counter slot, for building the summary.
    const ALL: [Cause; CAUSES] = {
        let mut all = [Cause::Branch; CAUSES];
        let mut n = 0;
        while n < 16 {
            all[n] = Cause::Dep(XReg::Gpr(n as u8));
            n += 1;
        }
        all[FLAGS] = Cause::Dep(XReg::Flags);
        all[MEMORY_SLOT] = Cause::Memory;
        let mut k = 0;
        while k < Serialise::ALL.len() {
            all[SERIAL_SLOT + k] = Cause::Serial(Serialise::ALL[k]);
            k += 1;
        }
        let mut k = 0;
        while k < Microcode::ALL.len() {
            all[MICROCODE_SLOT + k] = Cause::Microcode(Microcode::ALL[k]);
            k += 1;
        }
        all[DIVIDER_SLOT] = Cause::Divider;
        all[ROB_SLOT] = Cause::Rob;
        all
    };
}

/// A class's front-end rule: nothing dispatches before `after` cycles past its dispatch (or,
/// `from_start`, its execution), the delay charged to `cause`; `if_taken`: only when the
/// branch is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hold {
    from_start: bool,
    after: u64,
    cause: Cause,
    if_taken: bool,
}

impl Hold {
    /// The rule of `class` under `p`, if it has one.
    fn of(p: &X86Params, class: TimingClass) -> Option<Hold> {
        use TimingClass as T;
        let at = |after, cause| Some(Hold { from_start: false, after, cause, if_taken: false });
        let after_start = |after, cause| Some(Hold { from_start: true, after, cause, if_taken: false });
        match class {
            T::Jmp | T::JmpIndirect => at(1 + p.taken_branch_bubble, Cause::Branch),
            T::Jcc => {
                Some(Hold { from_start: false, after: 1 + p.taken_branch_bubble, cause: Cause::Branch, if_taken: true })
            }
            T::Call | T::CallIndirect => at(p.call.max(1), Cause::Branch),
            T::Ret => at(p.ret.max(1), Cause::Branch),
            T::Rdtsc => at(p.delivery(p.rdtsc_uops), Cause::Microcode(Microcode::Rdtsc)),
            T::Popf => at(p.delivery(p.popf_uops), Cause::Microcode(Microcode::Popf)),
            T::Pause => at(p.pause, Cause::Microcode(Microcode::Pause)),
            T::Pushf => at(p.delivery(p.pushf_uops), Cause::Microcode(Microcode::PushfCliSti)),
            T::Cli => at(p.cli, Cause::Microcode(Microcode::PushfCliSti)),
            T::Sti => at(p.sti, Cause::Microcode(Microcode::PushfCliSti)),
            T::Rdtscp => after_start(p.rdtscp, Cause::Serial(Serialise::Rdtscp)),
            T::Lfence => after_start(p.lfence, Cause::Serial(Serialise::Lfence)),
            T::Mfence => after_start(p.mfence, Cause::Serial(Serialise::Mfence)),
            _ => None,
        }
    }
}

/// The x86-64 timing model: feed it every executed instruction in program order.
#[derive(Debug, Clone)]
pub struct X86Model {
    params: X86Params,
    /// `issue_width`, at least 1 (what dispatch compares with).
    width: u64,
    /// Per-class rules resolved against `params` (issue 17).
    plans: plan::Plans,
    /// Ready cycle per GPR, then the flags. Spare slots past the flags (issue 17): an
    /// [`IssueRec`] pads its source list with slot 17 (never written: always ready) and its
    /// destination list with slot 18 (never read); 32 slots let an index be masked, not checked.
    ready: [u64; 32],
    /// Beside each ready cycle, the last writer: its address and result latency (issue 16:
    /// a register wait names its producer).
    producer: [(u64, u64); 32],
    /// Cycle of the open dispatch group and how many dispatched in it.
    fe_cycle: u64,
    fe_used: u64,
    has_group: bool,
    /// Earliest cycle the next instruction may dispatch in.
    fe_min: u64,
    /// Cause and size of the pending front-end delay, charged when the next group opens.
    fe_cause: Option<Cause>,
    /// Retirement cycle of each of the last `rob_size` instructions (ring).
    rob: Vec<u64>,
    seq: u64,
    /// `seq` modulo the ROB size, kept by increment (a division per instruction shows).
    rob_pos: usize,
    last_retire: u64,
    /// Latest completion of anything issued so far.
    max_complete: u64,
    /// No load or store executes before this (after a locked RMW).
    mem_floor: u64,
    divider_free: u64,
    /// The microcode sequencer (rdtsc, pushf, popf) is free from this cycle (issue 15).
    microcode_free: u64,
    /// Completion of the last microcoded instruction.
    microcode_done: u64,
    pipes: [Pipes; 6],
    stores: Stores,
    instructions: u64,
    nops: u64,
    groups: u64,
    /// Cycles charged per cause slot; slots from [`CAUSES`] on are spares nothing reports.
    stalls: [u64; 32],
    timeline: Option<Timeline>,
    /// Blocks [`X86Model::issue_block`] applied in one step, and issued record by record.
    block_outcomes: [u64; 2],
}

impl X86Model {
    /// A model at cycle 0 with every register ready.
    pub fn new(params: X86Params) -> X86Model {
        let rob = vec![0; usize::try_from(params.rob_size.max(1)).unwrap_or(1)];
        let mut model = X86Model {
            width: params.issue_width.max(1),
            params,
            plans: plan::EMPTY,
            ready: [0; 32],
            producer: [(0, 0); 32],
            fe_cycle: 0,
            fe_used: 0,
            has_group: false,
            fe_min: 0,
            fe_cause: None,
            rob,
            seq: 0,
            rob_pos: 0,
            last_retire: 0,
            max_complete: 0,
            mem_floor: 0,
            divider_free: 0,
            microcode_free: 0,
            microcode_done: 0,
            pipes: [Pipes::new(), Pipes::new(), Pipes::new(), Pipes::new(), Pipes::new(), Pipes::new()],
            stores: Stores::new(),
            instructions: 0,
            nops: 0,
            groups: 0,
            stalls: [0; 32],
            timeline: None,
            block_outcomes: [0; 2],
        };
        model.plans = plan::plans(&model);
        model
    }

    /// The figures in use.
    pub fn params(&self) -> &X86Params {
        &self.params
    }

    /// The parameter table with sources and GUESS marks.
    pub fn explain_model(&self) -> String {
        self.params.explain_model()
    }

    /// TSC value for a model cycle (`tsc_per_kcycle` / 1000 ticks per cycle), for rdtsc.
    pub fn tsc_of(&self, cycle: u64) -> u64 {
        let ticks = u128::from(cycle) * u128::from(self.params.tsc_per_kcycle) / 1000;
        u64::try_from(ticks).unwrap_or(u64::MAX)
    }

    /// Issues one executed instruction (in program order) and returns the cycle it executes in;
    /// for rdtsc/rdtscp that is the cycle whose TSC it reads. O(1); allocates only when recording.
    pub fn issue(&mut self, i: &IssueInfo) -> u64 {
        use TimingClass as T;
        self.instructions += 1;
        if i.class == T::Nop {
            self.nops += 1;
        }
        // `slot` maps every class into the table (plan.rs tests it), so this cannot panic.
        let plan = self.plans[plan::slot(i.class)];
        let (stack_engine, serialising) = (plan.stack_engine, plan.serialising);
        let dispatch = self.dispatch(i.addr);

        // Execution: sources, serialisation, memory ordering, then a pipe.
        let mut start = dispatch;
        let mut cause: Option<Cause> = None;
        // The writer of the register waited for, read before this instruction's own writes.
        let mut producer: Option<(u64, u64)> = None;
        for &src in i.srcs {
            if stack_engine && src == XReg::Gpr(RSP) {
                continue;
            }
            let ready = src.index().and_then(|k| self.ready.get(k)).copied().unwrap_or(0);
            if ready > start {
                start = ready;
                cause = Some(Cause::Dep(src));
                producer = src.index().and_then(|k| self.producer.get(k)).copied();
            }
        }
        if let Some(kind) = serialising.filter(|_| self.max_complete > start) {
            start = self.max_complete;
            cause = Some(Cause::Serial(kind));
        }
        if (i.load.is_some() || i.store.is_some()) && self.mem_floor > start {
            start = self.mem_floor;
            cause = Some(Cause::Serial(Serialise::LockedRmw));
        }
        if let T::Div { bytes, .. } = i.class {
            if self.divider_free > start {
                start = self.divider_free;
                cause = Some(Cause::Divider);
            }
            let busy = if bytes >= 8 { self.params.div_busy64 } else { self.params.div_busy32 };
            self.divider_free = start + busy;
        }
        // The microcode sequencer (issue 15): one rdtsc/pushf/popf at a time, none before an
        // earlier locked RMW completed ([CAL-GC] pushf_popf_lock, rdtsc_lock).
        let sequenced = plan.sequenced;
        if let Some((kind, busy)) = sequenced {
            if self.mem_floor > start {
                start = self.mem_floor;
                cause = Some(Cause::Serial(Serialise::LockedRmw));
            }
            if self.microcode_free > start {
                start = self.microcode_free;
                cause = Some(Cause::Microcode(kind));
            }
            self.microcode_free = start + busy;
        }
        // A locked RMW dispatched while a microcoded instruction is in flight pays
        // `lock_after_microcode`.
        let lock_extra = if i.class == T::LockedRmw && self.microcode_done > dispatch {
            self.params.lock_after_microcode
        } else {
            0
        };
        if let Some((group, count)) = plan.pipe {
            if let Some(p) = self.pipes.get_mut(group as usize) {
                start = p.reserve(start, count);
            }
        }

        // Results. A pure load's address registers are its sources, so its access starts at
        // `start`; any other class's memory operand is assumed to have its address ready at
        // dispatch (IssueInfo does not split address from data sources).
        let lat = match plan.latency {
            Some(lat) => lat,
            None => self.latency(i.class),
        };
        let mut value = start + lat;
        let mut mem_wait = 0;
        if let Some((addr, size)) = i.load.filter(|_| !matches!(i.class, T::Ret | T::LockedRmw)) {
            let plain = matches!(i.class, T::Load | T::Pop | T::Popf);
            let from = if plain { start } else { dispatch.max(self.mem_floor) };
            let hit = from + self.params.load;
            let loaded = match self.stores.lookup(addr, size) {
                Forward::None => hit,
                Forward::Full(ready) => from.max(ready) + self.params.store_forward,
                Forward::Partial(ready) => from.max(ready + self.params.store_forward_fail),
            };
            mem_wait = loaded.saturating_sub(hit);
            value = match i.class {
                T::Load | T::Pop => loaded,
                T::Cmpxchg => loaded.max(start + self.params.cmpxchg),
                T::LoadAlu | T::Rmw => loaded.max(start) + self.params.alu,
                _ => loaded.max(start) + lat,
            };
        }
        if i.class == T::LockedRmw {
            value += lock_extra;
            self.mem_floor = value;
        }
        for &dst in i.dsts {
            if stack_engine && dst == XReg::Gpr(RSP) {
                if let Some(r) = self.ready.get_mut(usize::from(RSP)) {
                    *r = (*r).max(dispatch);
                }
                continue;
            }
            if let Some(r) = dst.index().and_then(|k| self.ready.get_mut(k)) {
                *r = value;
            }
            if let Some(p) = dst.index().and_then(|k| self.producer.get_mut(k)) {
                *p = (i.addr, value.saturating_sub(start));
            }
        }
        if let Some((addr, size)) = i.store {
            let data = if matches!(i.class, T::Rmw | T::LockedRmw | T::Cmpxchg) { value } else { start };
            self.stores.push(addr, size, data);
        }

        // Completion and in-order retirement; a microcoded instruction completes when the
        // sequencer is done with it, whatever its result latency.
        let mut complete = value.max(start + 1);
        if let Some((_, busy)) = sequenced {
            complete = complete.max(start + busy);
            self.microcode_done = complete;
        }
        let extends = complete.saturating_sub(self.max_complete.max(self.fe_cycle + 1));
        if let Some(c) = cause {
            self.charge_from(c, producer, (start - dispatch).min(extends));
        }
        self.charge(Cause::Memory, mem_wait.min(extends.saturating_sub(start - dispatch)));
        if let Some(slot) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()).and_then(|g| g.slots.last_mut()) {
            slot.done = Some(complete);
            slot.unit = Some(unit_name(i.class));
        }
        self.max_complete = self.max_complete.max(complete);
        self.last_retire = self.last_retire.max(complete);
        let slot = self.rob_slot();
        if let Some(r) = self.rob.get_mut(slot) {
            *r = self.last_retire;
        }
        self.seq += 1;
        self.rob_pos += 1;
        if self.rob_pos >= self.rob.len() {
            self.rob_pos = 0;
        }

        self.front_end_after_class(i.class, i.taken, dispatch, start);
        start
    }

    /// Cycles elapsed: the retirement of everything issued, or the front end's position if later.
    pub fn now(&self) -> u64 {
        let fe = if self.has_group { self.fe_cycle + 1 } else { self.fe_cycle };
        self.last_retire.max(fe).max(self.fe_min)
    }

    /// Lets `cycles` pass for work outside the modelled instructions; nothing issued after starts
    /// before `now() + cycles`.
    pub fn advance(&mut self, cycles: u64) {
        self.fe_min = self.now() + cycles;
        self.fe_cause = None;
        self.has_group = false;
    }

    /// Totals so far.
    pub fn counts(&self) -> Counts {
        Counts { cycles: self.now(), instructions: self.instructions, nops: self.nops, groups: self.groups }
    }

    /// Cycles, instructions, nops, groups and cycles charged per cause.
    pub fn summary(&self) -> TimingSummary {
        let mut s = TimingSummary {
            cycles: self.now(),
            instructions: self.instructions,
            nops: self.nops,
            groups: self.groups,
            ..TimingSummary::default()
        };
        for cause in Cause::ALL {
            if let Some(&c) = self.stalls.get(cause.slot()).filter(|&&c| c > 0) {
                s.add_stall(&cause.stall(), c);
            }
        }
        s
    }

    /// Starts or stops recording the [`Timeline`] (one group per dispatch cycle).
    pub fn set_timeline(&mut self, on: bool) {
        match (on, self.timeline.is_some()) {
            (true, false) => self.timeline = Some(Timeline::default()),
            (false, true) => self.timeline = None,
            _ => {}
        }
    }

    /// The dispatch groups so far, if recording (slot texts empty: the CPU fills them).
    pub fn timeline(&self) -> Option<&Timeline> {
        self.timeline.as_ref()
    }

    /// The recorded timeline, for filling in slot texts.
    pub fn timeline_mut(&mut self) -> Option<&mut Timeline> {
        self.timeline.as_mut()
    }

    /// Finds the dispatch cycle of the next instruction and records it.
    fn dispatch(&mut self, addr: u64) -> u64 {
        let mut c = self.fe_min.max(self.fe_cycle);
        if self.has_group && c == self.fe_cycle && self.fe_used >= self.width {
            c += 1;
        }
        let rob_free = self.rob.get(self.rob_slot()).copied().unwrap_or(0);
        let mut rob_wait = 0;
        if self.seq >= self.params.rob_size && rob_free > c {
            rob_wait = rob_free - c;
            c = rob_free;
        }
        if !self.has_group || c != self.fe_cycle {
            let pending = self.fe_cause.take();
            let lost = self.fe_min.saturating_sub(self.fe_cycle + u64::from(self.has_group));
            self.fe_cycle = c;
            self.fe_used = 0;
            self.has_group = true;
            self.groups += 1;
            if let Some(t) = self.timeline.as_mut() {
                t.groups.push(GroupRecord { first_cycle: c, slots: Vec::new(), waited: Vec::new() });
            }
            if let Some(cause) = pending {
                self.charge(cause, lost);
            }
            self.charge(Cause::Rob, rob_wait);
        }
        self.fe_used += 1;
        if let Some(g) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            g.slots.push(SlotRef::new(addr, 0, false));
        }
        c
    }

    /// Front-end effects of an instruction that dispatched at `dispatch` and executes at `start`.
    fn front_end_after_class(&mut self, class: TimingClass, taken: bool, dispatch: u64, start: u64) {
        if let Some(h) = Hold::of(&self.params, class) {
            self.hold_front_end(h, taken, dispatch, start);
        }
    }

    /// Applies the front-end rule `h` of an instruction that dispatched at `dispatch`, executes
    /// at `start` and (a branch) was `taken` or not.
    #[inline]
    fn hold_front_end(&mut self, h: Hold, taken: bool, dispatch: u64, start: u64) {
        if h.if_taken && !taken {
            return;
        }
        let min = if h.from_start { start } else { dispatch } + h.after;
        if min > self.fe_min.max(self.fe_cycle + 1) {
            self.fe_min = min;
            self.fe_cause = Some(h.cause);
        } else if min > self.fe_cycle {
            // Ends the group without losing a cycle.
            self.fe_min = self.fe_min.max(min);
        }
    }

    /// For a sequencer instruction: its stall kind and how long it keeps the sequencer.
    #[inline]
    fn sequenced(&self, class: TimingClass) -> Option<(Microcode, u64)> {
        let p = &self.params;
        match class {
            TimingClass::Rdtsc => Some((Microcode::Rdtsc, p.rdtsc)),
            TimingClass::Popf => Some((Microcode::Popf, p.popf)),
            TimingClass::Pushf => Some((Microcode::PushfCliSti, p.pushf)),
            _ => None,
        }
    }

    #[inline]
    fn rob_slot(&self) -> usize {
        self.rob_pos
    }

    #[inline]
    fn pipe_count(&self, g: Group) -> u64 {
        let p = &self.params;
        match g {
            Group::Alu => p.alu_pipes,
            Group::Shift => p.shift_pipes,
            Group::SlowInt => p.slow_int_pipes,
            Group::Load => p.load_pipes,
            Group::Store => p.store_pipes,
            Group::Branch => p.branch_pipes,
        }
    }

    /// Register result latency of a class (loads add theirs on top in `issue`).
    #[inline]
    fn latency(&self, class: TimingClass) -> u64 {
        use TimingClass as T;
        let p = &self.params;
        match class {
            T::Alu => p.alu,
            T::Lea => p.lea,
            T::Mov => p.mov,
            T::MovImm => p.mov_imm,
            T::Movzx => p.movzx,
            T::Shift => p.shift,
            T::ShiftCl => p.shift_cl,
            T::Rotate => p.rotate,
            T::Bit => p.bit,
            T::BitScan => p.bit_scan,
            T::Popcnt => p.popcnt,
            T::Imul => p.imul,
            T::Mul => p.mul,
            T::Div { bytes, signed } => match (bytes, signed) {
                (1, false) => p.div8,
                (2, false) => p.div16,
                (4, false) => p.div32,
                (_, false) => p.div64,
                (1, true) => p.idiv8,
                (2, true) => p.idiv16,
                (4, true) => p.idiv32,
                (_, true) => p.idiv64,
            },
            T::Cmov => p.cmov,
            T::Setcc => p.setcc,
            T::Cqo => p.cqo,
            T::Xchg => p.xchg,
            T::LockedRmw => p.locked_rmw,
            T::Cmpxchg => p.cmpxchg,
            T::Rdtsc => p.rdtsc_latency,
            T::Rdtscp => p.rdtscp,
            T::Popf => p.popf,
            T::Pushf => p.pushf,
            T::Load | T::Pop => p.load,
            T::LoadAlu | T::Rmw => p.load + p.alu,
            T::Store | T::Push | T::Call | T::CallIndirect | T::Ret | T::Jmp | T::JmpIndirect | T::Jcc => 1,
            T::Cli | T::Sti | T::Lfence | T::Mfence | T::Pause | T::Nop => 0,
        }
    }

    /// [`X86Model::charge`], the timeline naming the instruction that produced a register
    /// waited for.
    fn charge_from(&mut self, cause: Cause, producer: Option<(u64, u64)>, cycles: u64) {
        match (cause, producer) {
            (Cause::Dep(r), Some((pc, latency))) if cycles > 0 && self.timeline.is_some() => {
                if let Some(c) = self.stalls.get_mut(cause.slot()) {
                    *c += cycles;
                }
                let produced =
                    StallCause::Produced(r.reg(), Producer { addr: pc, slot: 0, latency, text: String::new() });
                if let Some(g) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
                    g.waited.push((produced, cycles));
                }
            }
            _ => self.charge(cause, cycles),
        }
    }

    /// Counts `cycles` lost to `cause` and notes it on the open group when recording.
    #[inline]
    fn charge(&mut self, cause: Cause, cycles: u64) {
        if cycles == 0 {
            return;
        }
        if let Some(c) = self.stalls.get_mut(cause.slot()) {
            *c += cycles;
        }
        if let Some(g) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            g.waited.push((cause.stall(), cycles));
        }
    }
}

/// The unit a class executes on, as a timeline shows it: its pipe group, else what carries it.
fn unit_name(class: TimingClass) -> &'static str {
    use TimingClass as T;
    match (pipe_group(class), class) {
        (Some(Group::Alu), _) => "ALU",
        (Some(Group::Shift), _) => "shift",
        (Some(Group::SlowInt), _) => "slow-int",
        (Some(Group::Load), _) => "load",
        (Some(Group::Store), _) => "store",
        (Some(Group::Branch), _) => "branch",
        (None, T::Div { .. }) => "divider",
        (None, T::Rdtsc | T::Rdtscp | T::Pause | T::Cli | T::Sti) => "microcode",
        (None, T::Lfence | T::Mfence) => "fence",
        (None, _) => "rename",
    }
}

/// The pipe group a class executes on (`None`: eliminated at rename, or microcode/fences whose
/// cost the front-end rules carry).
fn pipe_group(class: TimingClass) -> Option<Group> {
    use TimingClass as T;
    match class {
        T::Alu | T::Lea | T::MovImm | T::Movzx | T::Bit | T::Cmov | T::Setcc | T::Cqo | T::Xchg => Some(Group::Alu),
        T::Shift | T::ShiftCl | T::Rotate => Some(Group::Shift),
        T::BitScan | T::Popcnt | T::Imul | T::Mul => Some(Group::SlowInt),
        T::Load | T::LoadAlu | T::Rmw | T::Pop | T::Cmpxchg | T::LockedRmw | T::Popf => Some(Group::Load),
        T::Store | T::Push | T::Pushf => Some(Group::Store),
        T::Call | T::CallIndirect | T::Ret | T::Jmp | T::JmpIndirect | T::Jcc => Some(Group::Branch),
        T::Mov | T::Div { .. } | T::Rdtsc | T::Rdtscp | T::Lfence | T::Mfence | T::Pause | T::Nop | T::Cli | T::Sti => {
            None
        }
    }
}
