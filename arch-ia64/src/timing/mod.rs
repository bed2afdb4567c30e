//! Itanium 2 (Madison, 1.5 GHz) cycle model. Figures and rules come from
//! `shared/reference/itanium2-timing.md` ("ref. §n"); every figure is a field of
//! [`Itanium2Params`] with its source key, and [`Itanium2Params::explain_model`] lists them.
//!
//! # Rules
//!
//! **Issue (ref. §1).** Instructions issue in program order. An *issue group* is what issues in
//! one cycle: consecutive slots of at most two bundles (the dispersal window,
//! `bundles_per_cycle`). A group ends, and the next instruction starts a new group one cycle later:
//! - at a stop (template stop bits, including the mid-bundle stops of MI;;I and M;;MI);
//! - when the next slot would be in a third bundle;
//! - when the port the next slot needs is taken (charged "port X busy", 1 cycle);
//! - by the split-issue rules (charged "split issue: ...", 1 cycle when the next slot was in the window):
//!   MBB or BBB as the first bundle; MLX as the second bundle after MII; BBB as the second bundle after
//!   anything but MII/MMI/MFI/MMF/MLX ([GCC] allowed pairs); after a real branch in the B slot of
//!   MIB/MFB/MMB (it goes to B2); after a semaphore, `invala`, or a Fence-class op ([KAPI] implicit
//!   stop after mf.a; the table's Fence class also holds mf and fwb, which get it too); after
//!   Serialize-class ops ([GATE] srlz.d "forces split-issue"; srlz.i and sync.i share the class) and
//!   after `epc` ([GATE] "causes split-issue");
//! - after a taken branch ([`Itanium2::taken_branch`]) or an [`Event`].
//!
//! **Ports (ref. §1).** M0-M3, I0-I1, F0-F1, B0-B2. M slots: loads, chk, invala on M0/M1; stores,
//! semaphores, setf on M2/M3; srlz, sync.i, mf, fwb, flushrs, loadrs on M0 only; AR/CR/PSR moves,
//! getf, alloc, probe, thash/ttag/tpa/tak on M2 only; A-type ops, FP loads, nops and fc (GUESS: no
//! source names its port) on any M port.
//! M-slot instructions may be reordered to reach their ports ([GCC], [KAPI]), so an M slot fits if
//! all of the group's M instructions can be given distinct allowed ports. I slots take the lowest
//! free I port in order ([GCC]: first I slot I0, next I1); shifts/extr/dep, tbit/tnat, moves to and
//! from pr, br, ar.pfs/lc/ec and `mov =ip` need I0. The L+X pair of MLX takes I0 in the first bundle,
//! I1 in the second; no F port ([KAPI] over [GCC]). F slots take F0 in the first bundle, F1 in the
//! second. B slots of MBB/BBB are positional (slot n to Bn); in MIB/MFB/MMB a nop, hint or break
//! goes to B0 and anything else to B2. Class-specific B restrictions ([KAPI] B2-only, B1 for epc)
//! are not applied: dispersal is positional.
//!
//! **Nops.** Dispersal goes by template, so a nop, hint or break takes a port of its slot type like
//! any other instruction, but the most flexible one: any M port, the next I port, the positional F
//! or B port. This is what makes [GCC]'s template-pair rules (MII+MLX, MIB+BBB) fall out of the
//! port counts, and why MII+MII splits before the second bundle's I slots. Predicated-off
//! instructions take ports too (dispersal happens before predicates are read).
//!
//! **Scoreboard (ref. §2).** One ready cycle per register resource ([`Res::index`]) and per consumer
//! lane: data (operands, store data, a non-branch's qualifying predicate), address (load/store
//! base), branch (a branch's predicate, branch register, ar.pfs). A producer issued at cycle c
//! makes its destinations ready at c + latency, where the latency depends on its class and, for
//! AR/CR moves, on the register (see the fields of [`Itanium2Params`]). Special cases: compare ->
//! branch 0 but -> anything else 1; load -> address 2, load -> data 1; for loads only the first
//! destination is the loaded value, others are the post-increment base (1); mov to br -> branch 7
//! (GUESS) vs -> mov-from-br 1; mov.i ar.pfs -> br.ret 0. An instruction whose source is not ready
//! delays its whole issue group to that cycle (see *Lockstep*); the wait is charged
//! "dependency on <reg>" (GRs by their logical name, [`Src::logical`]).
//! A predicated-off instruction waits only for its qualifying predicate and writes nothing,
//! except compares and tbit/tnat, which always write (the `.unc` forms clear their targets even
//! when predicated off; for other forms this over-estimates by at most one cycle). Source for
//! "predicated off does not wait": eWeek, "64-Bit CPUs: What You Need to Know" (2002), p. 14:
//! a predicated instruction that would stall for an operand is killed early, since the predicate
//! is resolved about when the dependency is detected (written about the first Itanium; no
//! Itanium 2 text found says otherwise).
//!
//! **Lockstep (issue 15).** An issue group (what disperses in one cycle) moves down the pipeline
//! as one: a stall holds every instruction of the group, earlier and later slots alike, and
//! nothing of the group starts (no latency begins, no result is produced) before all of it can.
//! So the group's cycle is the latest ready cycle over the sources of all its slots, and every
//! destination the group writes becomes ready at that cycle plus its latency, whatever the slot
//! order inside the group. The model sees slots one at a time, so when a later slot of a group
//! waits it re-times the destinations the group's earlier slots already wrote (in program order)
//! and moves the group's timeline record. Each wait is charged to the slot whose source was late,
//! for the cycles it added, so the group's total stall does not depend on slot order (which
//! register a "dependency on" line names can: the first late source seen is charged first).
//! Sources (no text consulted states the partial-group rule in so many words; the evidence, all
//! of it pointing this way, is in `shared/reference/timing-facts-z13-itanium2.md` part B):
//! - Intel, *Itanium 2 Processor Reference Manual for Software Development and Optimization*
//!   (251110), performance-monitor events as quoted there ([PFM]): BACK_END_BUBBLE.ALL counts
//!   "full pipe bubbles in main pipe", and BE_EXE_BUBBLE.{GRALL, GRGR, FRALL, ARCR, PR, CANCEL,
//!   BANK_SWITCH} "back-end was stalled by exe due to" a register dependency: a dependency stall
//!   is raised at EXE and stalls the back end (the main pipe, all its ports), not one slot.
//!   The manual's own pipeline chapter could not be retrieved (search corpora, 2026-12-02).
//! - The pipeline IPG ROT / EXP REN REG EXE DET WRB ([STAL], [OSDEV]): dispersal (EXP) sends a
//!   whole group to its ports in one cycle and the back end has one stall signal per stage.
//! - McNairy & Soltis, "Itanium 2 Processor Microarchitecture", IEEE Micro 23(2), 2003: "executing
//!   up to six instructions at a time" through the two-bundle dispersal; only its first page was
//!   retrievable, which does not state the stall rule.
//! - Intel C++ compiler documentation, "Instruction Scheduling for the Itanium 2 Processor"
//!   ([ICC]): MM results into integer consumers are scoreboarded and "the subsequent use will
//!   simply stall until the data is ready" (stall on use, at EXE).
//!
//! *Split issue and stalls.* A group that does not fit its ports, or that a template or class
//! rule splits (see *Issue*), issues as two issue groups: the first part at cycle c, the rest at
//! c + 1 at the earliest. Each part is in lockstep on its own: a stall of the first part holds the
//! first part and so delays the rest by as much (the rest cannot disperse before the cycle after
//! the first part's); a stall of the rest holds only the rest, never the part already issued; a
//! stall of the rest that overlaps the split cycle costs nothing extra (the split's one cycle is
//! charged, then only the wait beyond it). The same holds for every later part.
//!
//! *Held-group ITC (issue 15).* The cycle [`Itanium2::issue`] returns for a slot is its group's
//! cycle as far as the group has been seen: when a later slot of the same group waits, earlier
//! slots have already been given the earlier cycle. Cycle counts, the scoreboard and the
//! timeline are re-timed; a value the CPU derived from an earlier slot's cycle, the ITC value a
//! `mov r=ar.itc` read (or the offset a `mov ar.itc=` set), is moved by the CPU when the model
//! reports the wait ([`Itanium2::note_clock_use`], [`Itanium2::settle_clock_uses`]; why that
//! is exact is in `held.rs`). The per-group profile needs no such fix: it charges each slot
//! the cycles since the slot before, so a group's total is its last slot's cycle less the last
//! cycle of the group before, whatever the order. Neither seed 004's `diff` run nor the
//! real-file kernel run (`tests/ia64_kernel_accounting.rs`) has an ar.itc access that a later
//! slot of its group holds (counted 2026-12-02 by instrumenting both), so their figures do not
//! move; `tests/ia64_held_itc.rs` and the permutation test exercise it.
//!
//! **Events.** A taken branch adds `taken_branch_bubble` cycles before the next group ("branch").
//! [`Event::Break`], [`Event::Interruption`] and [`Event::Rfi`] add their named costs (charged
//! "interruption", "interruption" and "branch"); [`Event::Epc`] adds `epc_cost` ("split issue: epc").
//! All four costs are GUESSes: the reference gives none.
//!
//! **Ignored.** Caches (every load hits L1D; FP loads 6), branch prediction (no mispredicts; no
//! source gives the penalty), parallel-FP ops taking both F ports, variable shifts (the table gives
//! them the ishf class: 1 cycle, I0 only), the +1 of MM ops into integer consumers, the +1 of setf
//! into getf/stf, the "first in group" rule of flushrs/loadrs/alloc (the assembler enforces it),
//! and PSR as a scoreboard resource (`Res` has none, so rsm/ssm latencies apply only to listed dsts).

// timing once per block (issue 17, w8-itimed)
mod block_issue;
mod group;
// timing once per issue group (issue 17, w7-itime)
mod group_issue;
// held-group ITC (issue 15)
mod held;
mod params;
mod ports;
mod prepared;
mod scoreboard;

#[cfg(test)]
mod tests;

// lockstep (issue 15)
#[cfg(test)]
mod lockstep_tests;

// timing once per issue group (issue 17, w7-itime)
#[cfg(test)]
mod group_issue_tests;

// timing once per block (issue 17, w8-itimed)
#[cfg(test)]
mod block_issue_tests;

// timing once per block (issue 17, w8-itimed)
pub use block_issue::{BlockGroup, BlockTiming};
pub use group::{plan, Plan, SlotShape};
// timing once per issue group (issue 17, w7-itime)
pub use group_issue::{GroupTiming, ResolvedGroup};
pub use held::ClockUse;
pub use params::Itanium2Params;
pub use prepared::{RegOperand, SlotTiming};

use crate::bundle::{SlotUnit, Template};
use crate::res::{Res, RES_COUNT, STACKED_PHYS};
use crate::table::TimingClass;
use emu_core::timing::{GroupRecord, Producer, Reg, SlotRef, StallCause, Timeline, TimingSummary};
use group::{Block, Close, Full, Group};
use ports::{PortBusy, Split};
use scoreboard::{lane, latency, Lane, Latency, Scoreboard};

/// How an instruction reads one source register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// An operand value (also the branch register or ar.pfs a branch reads).
    Data,
    /// The base address of a load or store.
    Address,
    /// The data a store writes.
    StoreData,
    /// The qualifying predicate of a branch (compare -> branch has latency 0).
    BranchPredicate,
    /// The qualifying predicate of anything else.
    Predicate,
}

/// One source register of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Src {
    /// The physical resource (scoreboard index).
    pub res: Res,
    /// How it is read.
    pub role: Role,
    /// For a general register, its logical number, used in stall texts ("r16" rather than the
    /// stacked or banked physical name).
    pub logical: Option<u8>,
}

/// What the model needs to know about one slot.
#[derive(Debug, Clone, Copy)]
pub struct IssueInfo<'a> {
    /// Address of the bundle.
    pub bundle: u64,
    /// Its template (units and stops).
    pub template: Template,
    /// Slot index 0-2 (an MLX long instruction is slot 1 or 2; a second call for the same MLX
    /// bundle with unit L/X is its other half and costs nothing).
    pub slot: u8,
    /// Timing class of the instruction's table row.
    pub class: TimingClass,
    /// Unit of the slot.
    pub unit: SlotUnit,
    /// Whether it is a nop or hint (counted apart).
    pub nop: bool,
    /// Registers read.
    pub srcs: &'a [Src],
    /// Registers written (for loads: the loaded value first, then the updated base).
    pub dsts: &'a [Res],
    /// Whether the qualifying predicate is true.
    pub executes: bool,
}

/// Costs the model charges outside ordinary issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `break` raised its interruption (pipeline flush; `break_cost`).
    Break,
    /// `rfi` resumed the interrupted code (`rfi_cost`); the CPU does not also call `taken_branch`.
    Rfi,
    /// `epc` promoted the privilege level (`epc_cost`).
    Epc,
    /// Any other interruption was delivered (`interruption_cost`).
    Interruption,
}

/// A cause of lost cycles, kept allocation-free until a record needs text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    Dep(Res, Option<u8>),
    Port(PortBusy),
    Split(Split),
    Branch,
    Interruption,
}

impl Cause {
    fn stall(self) -> StallCause {
        match self {
            Cause::Dep(_, Some(n)) => {
                StallCause::Register(Reg::Numbered { prefix: "r", number: u16::from(n), suffix: "" })
            }
            Cause::Dep(res, None) => StallCause::Register(res.reg()),
            Cause::Port(p) => StallCause::Unit(p.name()),
            Cause::Split(s) => StallCause::Split(s.text()),
            Cause::Branch => StallCause::Branch,
            Cause::Interruption => StallCause::Interruption,
        }
    }
}

/// Cycles lost per cause.
#[derive(Debug, Clone)]
struct Stalls {
    dep_logical: [u64; 128],
    dep_res: Vec<u64>,
    port: [u64; PortBusy::COUNT],
    split: [u64; Split::COUNT],
    branch: u64,
    interruption: u64,
}

/// The running totals of a model, cheap to read at every path boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Cycles so far.
    pub cycles: u64,
    /// Instructions issued, nops included.
    pub instructions: u64,
    /// Nops issued.
    pub nops: u64,
    /// Instruction groups issued.
    pub groups: u64,
}

/// The Itanium 2 timing model: feed it every slot in program order, either described in full
/// ([`Itanium2::issue`]) or prepared at load time ([`Itanium2::issue_prepared`]).
#[derive(Debug, Clone)]
pub struct Itanium2 {
    params: Itanium2Params,
    board: Scoreboard,
    group: Group,
    /// Slots still to join a planned group after the last one issued.
    remaining: u8,
    /// How the planned group ends once `remaining` runs out.
    plan_end: Close,
    cycle: u64,
    next_min: u64,
    last_long: Option<u64>,
    instructions: u64,
    nops: u64,
    groups: u64,
    stalls: Stalls,
    timeline: Option<Timeline>,
    pending: Vec<(StallCause, u64)>,
    /// Beside the scoreboard's ready cycles, each resource's last writer (bundle | slot) and
    /// its latencies, kept only while a timeline records (issue 16: a register wait names its
    /// producer). Written where the scoreboard is, read only when charging a wait.
    producers: Vec<Option<(u64, u8, Latency)>>,
    /// Lockstep (issue 15): what the open issue group's slots wrote, re-timed to the group's
    /// cycle whenever a later slot of the group makes the whole group wait.
    written: GroupWrites,
    /// Held-group ITC (issue 15): the open group's `ar.itc` accesses, moved when it waits.
    clock_uses: held::ClockUses,
}

/// The destinations the open issue group has written so far, in program order: at most six
/// slots of at most three destinations each (lockstep, issue 15).
#[derive(Debug, Clone, Copy)]
struct GroupWrites {
    res: [Res; GroupWrites::CAP],
    lat: [Latency; GroupWrites::CAP],
    len: usize,
}

impl GroupWrites {
    const CAP: usize = 18;

    fn new() -> GroupWrites {
        GroupWrites { res: [Res::gr_static(0); GroupWrites::CAP], lat: [Latency::all(0); GroupWrites::CAP], len: 0 }
    }

    fn push(&mut self, res: Res, lat: Latency) {
        if let (Some(r), Some(l)) = (self.res.get_mut(self.len), self.lat.get_mut(self.len)) {
            *r = res;
            *l = lat;
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = (Res, Latency)> + '_ {
        self.res.iter().copied().zip(self.lat.iter().copied()).take(self.len)
    }
}

/// Whether instructions of `class` write their destinations even when predicated off (the
/// `.unc` compares clear both targets; for the other compare forms this over-estimates by at
/// most one cycle).
pub(crate) fn writes_when_predicated_off(class: TimingClass) -> bool {
    matches!(class, TimingClass::Compare | TimingClass::Tbit)
}

impl Itanium2 {
    /// A model at cycle 0 with every register ready; keeps a [`Timeline`] if `record_timeline`.
    pub fn new(params: Itanium2Params, record_timeline: bool) -> Itanium2 {
        Itanium2 {
            params,
            board: Scoreboard::new(),
            group: Group::default(),
            remaining: 0,
            plan_end: Close::Full(Full::Window),
            cycle: 0,
            next_min: 0,
            last_long: None,
            instructions: 0,
            nops: 0,
            groups: 0,
            stalls: Stalls {
                dep_logical: [0; 128],
                dep_res: vec![0; RES_COUNT],
                port: [0; PortBusy::COUNT],
                split: [0; Split::COUNT],
                branch: 0,
                interruption: 0,
            },
            timeline: record_timeline.then(Timeline::default),
            pending: Vec::new(),
            producers: Vec::new(),
            written: GroupWrites::new(),
            clock_uses: held::ClockUses::new(),
        }
    }

    /// The figures in use.
    pub fn params(&self) -> &Itanium2Params {
        &self.params
    }

    /// The issue group a slot opens, given it and the slots that follow it in fall-through
    /// order ([`plan`] with this model's dispersal window).
    pub fn plan(&self, run: impl IntoIterator<Item = SlotShape>) -> Plan {
        plan(run, self.params.bundles_per_cycle)
    }

    /// Issues one slot (call for every slot reached, in program order, nops and predicated-off
    /// ones included) and returns the cycle it issues in. O(1); allocates only when recording.
    /// Works the issue group out as it goes; the CPU uses [`Itanium2::issue_prepared`].
    pub fn issue(&mut self, info: &IssueInfo) -> u64 {
        let shape = info.shape();
        let long = matches!(info.unit, SlotUnit::L | SlotUnit::X);
        if long && self.group.open && self.last_long == Some(info.bundle) {
            return self.cycle;
        }
        self.last_long = long.then_some(info.bundle);
        self.count(info.nop);
        if let Err(block) = self.group.try_join(&shape, self.params.bundles_per_cycle) {
            self.open_group(info.bundle, block);
            self.group.start(&shape);
        }
        let srcs = info.srcs.iter().map(|s| {
            let predicate = matches!(s.role, Role::Predicate | Role::BranchPredicate);
            (s.res, lane(info.class, s.role), predicate, s.logical)
        });
        self.wait_for_sources(srcs, info.executes);
        self.record_slot(info.bundle, info.slot, info.nop);
        let need = ports::need(info.template, info.slot, info.unit, info.class, 0);
        self.record_port(need, None);
        if info.executes || writes_when_predicated_off(info.class) {
            for (i, &dst) in info.dsts.iter().enumerate() {
                let lat = latency(&self.params, info, i, dst);
                self.board.write(dst, self.cycle, lat);
                self.note_producer(dst, info.bundle, info.slot, lat);
                self.written.push(dst, lat);
                self.record_port(need, Some(lat));
            }
        }
        self.group.close_after(&shape);
        self.cycle
    }

    /// Issues one slot prepared by [`Itanium2::prepare`] at `bundle`/`slot`; `rename` maps a
    /// logical general register to its physical resource now. Gives the same cycles as
    /// [`Itanium2::issue`] when every slot of the run is issued this way.
    #[inline]
    pub fn issue_prepared(
        &mut self,
        t: &SlotTiming,
        bundle: u64,
        slot: u8,
        executes: bool,
        rename: impl Fn(u8) -> Res,
    ) -> u64 {
        self.count(t.nop);
        if self.group.open && self.group.closed.is_none() {
            self.remaining = self.remaining.saturating_sub(1);
        } else {
            let block = match self.group.closed {
                Some(close) if self.group.open => Block::Closed(close),
                _ => Block::NoGroup,
            };
            self.open_group(bundle, block);
            self.group.start_planned(bundle, &t.plan);
            self.remaining = t.plan.len.saturating_sub(1);
            self.plan_end = t.plan.end;
        }
        let srcs = t.srcs().iter().map(|s| (s.reg.resolve(&rename), s.lane, s.predicate, s.logical));
        self.wait_for_sources(srcs, executes);
        self.record_slot(bundle, slot, t.nop);
        if let Some(need) = t.need {
            self.record_port(need, None);
        }
        if executes || t.always_writes {
            for dst in t.dsts() {
                let res = dst.reg.resolve(&rename);
                self.board.write(res, self.cycle, dst.lat);
                self.note_producer(res, bundle, slot, dst.lat);
                self.written.push(res, dst.lat);
                if let Some(need) = t.need {
                    self.record_port(need, Some(dst.lat));
                }
            }
        }
        if self.remaining == 0 {
            self.group.closed = Some(self.plan_end);
        }
        self.cycle
    }

    fn count(&mut self, nop: bool) {
        self.instructions += 1;
        self.nops += u64::from(nop);
    }

    /// The slot just issued was a taken branch: the group ends and the next one waits
    /// `taken_branch_bubble` extra cycles ("branch").
    pub fn taken_branch(&mut self) {
        self.group.closed = Some(Close::Branch);
        let bubble = self.params.taken_branch_bubble;
        self.next_min = self.next_min.max(self.cycle + 1 + bubble);
        // issue 17 (w7-itime): once per taken branch, so the untimed count skips `charge`.
        if self.timeline.is_none() {
            self.stalls.branch += bubble;
        } else {
            self.charge(Cause::Branch, bubble, false);
        }
    }

    /// Charges an event's named cost; the open group ends.
    pub fn event(&mut self, e: Event) {
        let (cost, cause) = match e {
            Event::Break => (self.params.break_cost, Cause::Interruption),
            Event::Interruption => (self.params.interruption_cost, Cause::Interruption),
            Event::Rfi => (self.params.rfi_cost, Cause::Branch),
            Event::Epc => (self.params.epc_cost, Cause::Split(Split::Epc)),
        };
        self.next_min = self.now() + cost;
        // A split already pending (epc's) keeps its own charge.
        if !matches!(self.group.closed, Some(Close::Split(_))) {
            self.group.closed = Some(Close::Event);
        }
        self.charge(cause, cost, false);
    }

    /// The first cycle a new issue group could start in: elapsed cycles so far. (An instruction
    /// reading ar.itc should use the cycle [`Itanium2::issue`] returned for it, noted with
    /// [`Itanium2::note_clock_use`].)
    pub fn now(&self) -> u64 {
        if self.group.open {
            self.next_min.max(self.cycle + 1)
        } else {
            self.next_min
        }
    }

    /// Execution moved somewhere other than the fall-through slot without a branch (a harness
    /// set the IP): the open group ends, at no cost.
    pub fn redirect(&mut self) {
        if self.group.open && self.group.closed.is_none() {
            self.group.closed = Some(Close::Full(Full::Window));
        }
    }

    /// Lets `cycles` pass for work outside the modelled instructions (scenarios); ends the group.
    pub fn advance(&mut self, cycles: u64) {
        self.next_min = self.now() + cycles;
        if self.group.open {
            self.group.closed = Some(Close::Event);
        }
    }

    /// Starts or stops recording the [`Timeline`] (a scenario records one representative
    /// system call, not millions).
    pub fn set_timeline(&mut self, on: bool) {
        match (on, self.timeline.is_some()) {
            (true, false) => self.timeline = Some(Timeline::default()),
            (false, true) => self.timeline = None,
            _ => {}
        }
    }

    /// The running totals without the stall table.
    pub fn counts(&self) -> Counts {
        Counts { cycles: self.now(), instructions: self.instructions, nops: self.nops, groups: self.groups }
    }

    /// Cycles, instructions, nops, groups and stalls by cause (builds the stall table; use
    /// [`Itanium2::counts`] where only the counts are needed).
    pub fn summary(&self) -> TimingSummary {
        let mut s = TimingSummary {
            cycles: self.now(),
            instructions: self.instructions,
            nops: self.nops,
            groups: self.groups,
            ..TimingSummary::default()
        };
        let st = &self.stalls;
        for (n, &c) in st.dep_logical.iter().enumerate() {
            if c > 0 {
                s.add_stall(&Cause::Dep(Res::gr_static(0), u8::try_from(n).ok()).stall(), c);
            }
        }
        for res in all_res() {
            if let Some(&c) = st.dep_res.get(res.index()).filter(|&&c| c > 0) {
                s.add_stall(&Cause::Dep(res, None).stall(), c);
            }
        }
        for (i, &c) in st.port.iter().enumerate() {
            if let Some(p) = PortBusy::from_index(i).filter(|_| c > 0) {
                s.add_stall(&Cause::Port(p).stall(), c);
            }
        }
        for split in Split::ALL {
            if let Some(&c) = st.split.get(split.index()).filter(|&&c| c > 0) {
                s.add_stall(&Cause::Split(split).stall(), c);
            }
        }
        if st.branch > 0 {
            s.add_stall(&StallCause::Branch, st.branch);
        }
        if st.interruption > 0 {
            s.add_stall(&StallCause::Interruption, st.interruption);
        }
        s
    }

    /// The issue groups so far, if recording. Slot texts are empty: the CPU, which has the
    /// disassembly, fills them through [`Itanium2::timeline_mut`].
    pub fn timeline(&self) -> Option<&Timeline> {
        self.timeline.as_ref()
    }

    /// The recorded timeline, for filling in slot texts.
    pub fn timeline_mut(&mut self) -> Option<&mut Timeline> {
        self.timeline.as_mut()
    }

    /// Counts a new issue group for the slot at `bundle`, charging the split or port rule that
    /// ended the last one (`block`). The caller then fills in the group's members.
    fn open_group(&mut self, bundle: u64, block: Block) {
        let cause = match block {
            Block::Split(s) | Block::Closed(Close::Full(Full::Pair(s))) => Some(Cause::Split(s)),
            Block::Port(p) | Block::Closed(Close::Full(Full::Port(p))) => Some(Cause::Port(p)),
            Block::Closed(Close::Split(s)) if self.group.in_window(bundle) => Some(Cause::Split(s)),
            _ => None,
        };
        let start = self.now();
        self.cycle = start;
        self.groups += 1;
        self.written.len = 0;
        self.clock_uses.clear();
        if let Some(t) = self.timeline.as_mut() {
            let waited = std::mem::take(&mut self.pending);
            t.groups.push(GroupRecord { first_cycle: start, slots: Vec::new(), waited });
        }
        if let Some(cause) = cause {
            self.charge(cause, 1, true);
        }
    }

    /// Delays the open group until every source waited for is ready: (resource, lane, whether
    /// it is a qualifying predicate, logical GR number). A predicated-off instruction waits
    /// only for its predicate.
    #[inline]
    fn wait_for_sources(&mut self, srcs: impl Iterator<Item = (Res, Lane, bool, Option<u8>)>, executes: bool) {
        // The latest ready cycle so far starts at the group's cycle: only a later one waits
        // (kept apart from who set it so the common no-wait case compares plain integers).
        let mut latest_ready = self.cycle;
        let mut latest: Option<(Res, Option<u8>, Lane)> = None;
        for (res, lane, predicate, logical) in srcs {
            if !executes && !predicate {
                continue;
            }
            let ready = self.board.ready(res, lane);
            if ready > latest_ready {
                latest_ready = ready;
                latest = Some((res, logical, lane));
            }
        }
        if let Some((res, logical, lane)) = latest {
            let ready = latest_ready;
            let wait = ready - self.cycle;
            self.cycle = ready;
            self.hold_group();
            let cause = Cause::Dep(res, logical.filter(|_| res.is_gr()));
            self.charge(cause, wait, true);
            self.name_producer(cause, res, lane);
        }
    }

    /// Lockstep (issue 15): the open issue group now issues at `self.cycle`, so the slots of it
    /// already seen start their latencies there too (in program order, as they were written),
    /// and its timeline record moves with it.
    fn hold_group(&mut self) {
        for (res, lat) in self.written.iter() {
            self.board.write(res, self.cycle, lat);
        }
        if let Some(group) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            if !group.slots.is_empty() {
                // The slots already recorded issue later with the group: so do their results
                // (issue 18).
                let delay = self.cycle.saturating_sub(group.first_cycle);
                for done in group.slots.iter_mut().filter_map(|s| s.done.as_mut()) {
                    *done += delay;
                }
                group.first_cycle = self.cycle;
            }
        }
    }

    // producers (issue 16, w5-core)

    /// Remembers that `slot` of `bundle` wrote `res` with latencies `lat`, when a timeline
    /// records.
    #[inline]
    fn note_producer(&mut self, res: Res, bundle: u64, slot: u8, lat: Latency) {
        if self.timeline.is_none() {
            return;
        }
        self.note_producer_recorded(res, bundle, slot, lat);
    }

    // issue 17 (w6-block2): the recording half out of line, so the check above inlines.
    #[inline(never)]
    fn note_producer_recorded(&mut self, res: Res, bundle: u64, slot: u8, lat: Latency) {
        if self.producers.is_empty() {
            self.producers = vec![None; RES_COUNT];
        }
        if let Some(p) = self.producers.get_mut(res.index()) {
            *p = Some((bundle, slot, lat));
        }
    }

    /// Names, on the wait just charged for `cause` (the last one recorded), the instruction
    /// that produced `res` and its latency through `lane`.
    fn name_producer(&mut self, cause: Cause, res: Res, lane: Lane) {
        let Some(&Some((addr, slot, lat))) = self.producers.get(res.index()) else { return };
        let Some(group) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) else { return };
        let StallCause::Register(reg) = cause.stall() else { return };
        if let Some(entry) = group.waited.last_mut().filter(|(c, _)| matches!(c, StallCause::Register(r) if *r == reg))
        {
            entry.0 = StallCause::Produced(reg, Producer { addr, slot, latency: lat.of(lane), text: String::new() });
        }
    }

    #[inline]
    fn record_slot(&mut self, bundle: u64, slot: u8, nop: bool) {
        if let Some(group) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) {
            if group.slots.is_empty() {
                group.first_cycle = self.cycle;
            }
            group.slots.push(SlotRef::new(bundle, slot, nop));
        }
    }

    // timeline ports (issue 18, w6-perfetto)

    /// Notes on the slot just recorded the port it used (`need`, placed by its bundle's
    /// position in the group) and, for each result, when it is ready (`lat` through the data
    /// lane; the latest one counts).
    fn record_port(&mut self, need: ports::Need, lat: Option<Latency>) {
        let cycle = self.cycle;
        let Some(group) = self.timeline.as_mut().and_then(|t| t.groups.last_mut()) else { return };
        let first = group.slots.first().map(|s| s.addr);
        let Some(slot) = group.slots.last_mut() else { return };
        let position = u8::from(first.is_some_and(|a| a != slot.addr));
        let name = need.timeline_name(position);
        slot.unit = (!name.is_empty()).then_some(name);
        if let Some(lat) = lat {
            let done = cycle + lat.of(Lane::Data);
            slot.done = Some(slot.done.map_or(done, |d| d.max(done)));
        }
    }

    /// Counts `cycles` lost to `cause`; when recording, notes it on the open group (`in_group`) or
    /// on the next one.
    fn charge(&mut self, cause: Cause, cycles: u64, in_group: bool) {
        if cycles == 0 {
            return;
        }
        let st = &mut self.stalls;
        let counter = match cause {
            Cause::Dep(_, Some(n)) => st.dep_logical.get_mut(usize::from(n)),
            Cause::Dep(res, None) => st.dep_res.get_mut(res.index()),
            Cause::Port(p) => st.port.get_mut(p.index()),
            Cause::Split(s) => st.split.get_mut(s.index()),
            Cause::Branch => Some(&mut st.branch),
            Cause::Interruption => Some(&mut st.interruption),
        };
        if let Some(c) = counter {
            *c += cycles;
        }
        if let Some(t) = self.timeline.as_mut() {
            let entry = (cause.stall(), cycles);
            match t.groups.last_mut().filter(|_| in_group) {
                Some(group) => group.waited.push(entry),
                None => self.pending.push(entry),
            }
        }
    }
}

impl IssueInfo<'_> {
    /// The part of the slot group formation looks at.
    pub fn shape(&self) -> SlotShape {
        SlotShape { bundle: self.bundle, template: self.template, slot: self.slot, unit: self.unit, class: self.class }
    }
}

/// Every resource id, each once (for naming the dependency counters).
fn all_res() -> impl Iterator<Item = Res> {
    (0..16u8)
        .map(Res::gr_static)
        .chain((16..32u8).map(|n| Res::gr_banked(n, 1)))
        .chain((16..32u8).map(|n| Res::gr_banked(n, 0)))
        .chain((0..STACKED_PHYS).map(Res::gr_stacked))
        .chain((0..128u8).map(Res::fr))
        .chain((0..64u8).map(Res::pr))
        .chain((0..8u8).map(Res::br))
        .chain((0..128u8).map(Res::ar))
        .chain((0..128u8).map(Res::cr))
}
