//! Timing once per issue group (issue 17, w7-itime): what [`Itanium2::issue_prepared`] does slot
//! by slot, done for a whole planned issue group in one step when the outcome is known to be
//! the same.
//!
//! Group formation is static (the [`super::Plan`] a slot opens), and so are its slots' lanes,
//! latencies and registers but for renaming. [`Itanium2::prepare_group`] gathers them once per
//! group at load time ([`GroupTiming`]); [`GroupTiming::resolve`] names the physical resources
//! for one renaming ([`ResolvedGroup`], which a block engine keeps per frame and bank);
//! [`Itanium2::begin_group`] opens the group and [`Itanium2::end_group`] closes it after the
//! CPU executed its slots.
//!
//! # Why the group step is exact
//! Slot by slot, a group that never waits (every source the model looks at is ready by the
//! cycle the group opens in) issues all its slots at that cycle, the opening cycle; each slot
//! writes its destinations at that cycle in program order, and the only other effects are the
//! counts, the opening's split or port charge (made by the same code here) and the group's
//! bookkeeping. So when [`Itanium2::begin_group`] finds every live-in source of every slot
//! ready by the opening cycle, the group step writes the same scoreboard, counts the same
//! instructions, nops, groups and stalls and returns the cycle `issue_prepared` would have
//! returned for each slot. The check is conservative in two ways, both only costing a fall-back
//! to the per-slot path (never a different result): it looks at every source, where a
//! predicated-off slot waits only for its predicate; and it looks at the board as it was before
//! the group for a register an earlier slot of the group writes with latency 0 through the
//! reader's lane (slot by slot such a read is ready at once when the writer executed, and reads
//! the same board entry when it did not).
//!
//! # When a group can never take the step ([`Itanium2::prepare_group`] gives `None`)
//! - *The slots are not the plan's.* `slots` must be exactly the `plan.len` slots (an MLX pair
//!   counted once) of the first slot's plan, at most six.
//! - *An intra-group read through a lane with a latency.* A slot reads a register that an
//!   earlier slot of the group writes, and that writer's latency through the reader's lane is
//!   not 0. Slot by slot, the reader then waits for the writer if the writer executed (and
//!   reads the old value if not): which one is known only once the predicates are, after the
//!   group's cycle was handed out. (The architecture forbids such reads inside an instruction
//!   group, so compiled and assembled code has none; the 0-latency cases, compare -> branch and
//!   `mov ar.pfs` -> `br.ret`, are legal and allowed here.) [`GroupTiming::resolve`] repeats
//!   the check on physical resources, so a renaming that maps two names to one register is
//!   also caught (the resolved group then never begins).
//! - *A renaming-changing instruction anywhere but the last slot.* Slot by slot, a slot's
//!   general registers are renamed when it issues, after the slots before it executed; the
//!   group step resolves them all before the first. Instructions that can change the renaming
//!   ([`changes_renaming`]): `cover`, `clrrrb` (the rotating base), `bsw` (PSR.bn), and every
//!   branch class (`br.call`/`brl.call` and `br.ret` move the frame, `rfi` may restore it and
//!   the bank, and the modulo-scheduled loop branches `br.ctop`/`cexit`/`wtop`/`wexit`, which
//!   share the `Branch` timing class with `br.cond`, rotate even when they fall through).
//!   `alloc` is not among them: it changes sof, sol and sor but not the frame base, and it may
//!   change sor only while every rotating base is 0 (otherwise it faults), so every logical
//!   register renames to the same physical one after it (`state/rse.rs`, `RegFile::res`;
//!   checked by `alloc_keeps_every_renaming` in the tests). Interruptions change the bank, but
//!   a slot that raises one is the last slot issued (`issued` in [`Itanium2::end_group`]).
//!
//! # When a prepared group does not take the step this time ([`Itanium2::begin_group`] gives `None`)
//! - a timeline is recording (slot records, ports and producers are kept per slot);
//! - the open group has not closed (the slot would join it rather than open a group: the CPU
//!   stopped a group mid-way without a branch or event, and issues on slot by slot);
//! - some live-in source is not ready by the opening cycle in its lane (the group would wait:
//!   the per-slot path charges the wait to the slot and source it belongs to).
//!
//! In all these cases nothing changed, and the CPU issues the group's slots with
//! [`Itanium2::issue_prepared`] as before.
//!
//! # Between the two calls
//! The CPU executes the group's slots with the cycle `begin_group` returned (its ITC reads use
//! it), and may note clock uses ([`Itanium2::note_clock_use`]) as it does after each
//! `issue_prepared`: they are noted at the group's cycle. [`Itanium2::settle_clock_uses`] has
//! nothing to move inside a group that took the step (it does not wait), but the uses stay
//! noted for the slots of the same group issued slot by slot afterwards (a group stopped
//! mid-way), exactly as if every slot had been issued slot by slot.

use super::group::Plan;
use super::prepared::{RegOperand, SlotTiming};
use super::scoreboard::{is_branch, Lane, Latency};
use super::{Block, Itanium2};
use crate::res::Res;
use crate::table::TimingClass;

/// Slots in one issue group at most (two bundles).
const MAX_SLOTS: usize = 6;
/// Sources in one issue group at most (six per slot).
const MAX_SRCS: usize = MAX_SLOTS * 6;
/// Destinations in one issue group at most (three per slot).
const MAX_DSTS: usize = MAX_SLOTS * 3;

/// Whether an instruction of `class` can change how logical general registers rename (see the
/// module doc): such an instruction may only be the last slot of a group that takes the step.
pub(crate) fn changes_renaming(class: TimingClass) -> bool {
    is_branch(class) || matches!(class, TimingClass::Cover | TimingClass::Clrrrb | TimingClass::Bsw)
}

#[derive(Debug, Clone, Copy)]
struct GroupSrc {
    reg: RegOperand,
    lane: Lane,
    slot: u8,
}

#[derive(Debug, Clone, Copy)]
struct GroupDst {
    reg: RegOperand,
    lat: Latency,
    slot: u8,
}

const NO_SRC: GroupSrc = GroupSrc { reg: RegOperand::Fixed(Res::gr_static(0)), lane: Lane::Data, slot: 0 };
const NO_DST: GroupDst = GroupDst { reg: RegOperand::Fixed(Res::gr_static(0)), lat: Latency::all(0), slot: 0 };

/// A planned issue group's timing facts, worked out once from its slots' `SlotTiming`s.
#[derive(Debug, Clone)]
pub struct GroupTiming {
    plan: Plan,
    srcs: [GroupSrc; MAX_SRCS],
    n_srcs: u8,
    dsts: [GroupDst; MAX_DSTS],
    n_dsts: u8,
    /// Bit i: slot i is a nop or hint.
    nop_mask: u8,
    /// Bit i: slot i writes its destinations even when predicated off.
    always_mask: u8,
}

/// One destination of a resolved group: the resource, its latencies, the slot that writes it.
#[derive(Debug, Clone, Copy)]
struct ResolvedDst {
    res: Res,
    lat: Latency,
    slot: u8,
}

/// The same with every register resolved to its physical `Res` for one renaming (frame+bank).
#[derive(Debug, Clone)]
pub struct ResolvedGroup {
    plan: Plan,
    /// False when two of the group's names resolved to one register with an intra-group read
    /// through a latency (see the module doc): the group then never begins.
    ok: bool,
    /// The distinct (resource, lane) pairs the group's slots read.
    live: [(Res, Lane); MAX_SRCS],
    n_live: u8,
    dsts: [ResolvedDst; MAX_DSTS],
    n_dsts: u8,
    nop_mask: u8,
    always_mask: u8,
    n_nops: u8,
}

impl Itanium2 {
    /// The facts of the planned group whose slots (in order, exactly the `plan.len` slots of the
    /// opening slot's `SlotTiming::plan`) are `slots`; `None` when the group can never take the
    /// group step (the list and the reason for each rule are in the module doc: the slots are
    /// not the plan's; an intra-group read of a register an earlier slot of the group writes
    /// through a lane whose latency is not 0; a renaming-changing instruction anywhere but the
    /// last slot).
    pub fn prepare_group(&self, slots: &[SlotTiming]) -> Option<GroupTiming> {
        let first = slots.first()?;
        let plan = first.plan;
        if slots.len() != usize::from(plan.len) || slots.len() > MAX_SLOTS {
            return None;
        }
        let last = slots.len() - 1;
        let mut g = GroupTiming {
            plan,
            srcs: [NO_SRC; MAX_SRCS],
            n_srcs: 0,
            dsts: [NO_DST; MAX_DSTS],
            n_dsts: 0,
            nop_mask: 0,
            always_mask: 0,
        };
        for (k, t) in slots.iter().enumerate() {
            if t.renames && k != last {
                return None;
            }
            let slot = k as u8; // k < MAX_SLOTS
            g.nop_mask |= u8::from(t.nop) << slot;
            g.always_mask |= u8::from(t.always_writes) << slot;
            for s in t.srcs() {
                let earlier = &g.dsts[..usize::from(g.n_dsts)];
                if earlier.iter().any(|d| d.reg == s.reg && d.lat.of(s.lane) != 0) {
                    return None;
                }
                *g.srcs.get_mut(usize::from(g.n_srcs))? = GroupSrc { reg: s.reg, lane: s.lane, slot };
                g.n_srcs += 1;
            }
            for d in t.dsts() {
                *g.dsts.get_mut(usize::from(g.n_dsts))? = GroupDst { reg: d.reg, lat: d.lat, slot };
                g.n_dsts += 1;
            }
        }
        Some(g)
    }
}

impl GroupTiming {
    /// Resolves the logical GRs with `rename` (the register file's `res`).
    pub fn resolve(&self, rename: impl Fn(u8) -> Res) -> ResolvedGroup {
        let mut r = ResolvedGroup {
            plan: self.plan,
            ok: true,
            live: [(Res::gr_static(0), Lane::Data); MAX_SRCS],
            n_live: 0,
            dsts: [ResolvedDst { res: Res::gr_static(0), lat: Latency::all(0), slot: 0 }; MAX_DSTS],
            n_dsts: 0,
            nop_mask: self.nop_mask,
            always_mask: self.always_mask,
            n_nops: self.nop_mask.count_ones() as u8,
        };
        let dsts = &self.dsts[..usize::from(self.n_dsts)];
        for (out, d) in r.dsts.iter_mut().zip(dsts) {
            *out = ResolvedDst { res: d.reg.resolve(&rename), lat: d.lat, slot: d.slot };
        }
        r.n_dsts = self.n_dsts;
        for s in &self.srcs[..usize::from(self.n_srcs)] {
            let res = s.reg.resolve(&rename);
            let written = &r.dsts[..usize::from(r.n_dsts)];
            if written.iter().any(|d| d.slot < s.slot && d.res == res && d.lat.of(s.lane) != 0) {
                r.ok = false;
            }
            let n = usize::from(r.n_live);
            if !r.live[..n].contains(&(res, s.lane)) {
                if let Some(slot) = r.live.get_mut(n) {
                    *slot = (res, s.lane);
                    r.n_live += 1;
                }
            }
        }
        r
    }
}

impl ResolvedGroup {
    /// How many slots the group has (an MLX pair counted once).
    pub fn len(&self) -> usize {
        usize::from(self.plan.len)
    }

    /// Whether the group has no slots (never: a plan holds its opening slot).
    pub fn is_empty(&self) -> bool {
        self.plan.len == 0
    }
}

impl Itanium2 {
    /// Opens the group whose first slot is at `bundle` and issues it whole when doing so is
    /// exactly what `issue_prepared` slot by slot would do (no timeline recording, every live-in
    /// source ready by the group's cycle in its lane, ...): returns the group's cycle (what
    /// `issue_prepared` would return for each of its slots). `None`: nothing changed; the CPU
    /// issues the group's slots one by one with `issue_prepared` as today.
    #[inline]
    pub fn begin_group(&mut self, g: &ResolvedGroup, bundle: u64) -> Option<u64> {
        let joins = self.group.open && self.group.closed.is_none();
        if !g.ok || joins || self.timeline.is_some() {
            return None;
        }
        let start = self.now();
        // One max-plus step: the latest ready cycle over the group's live-ins (no branch per
        // source).
        let live = &g.live[..usize::from(g.n_live).min(MAX_SRCS)];
        let latest = live.iter().fold(0, |m, &(res, lane)| m.max(self.board.ready(res, lane)));
        if latest > start {
            return None;
        }
        let block = match self.group.closed {
            Some(close) if self.group.open => Block::Closed(close),
            _ => Block::NoGroup,
        };
        self.open_group(bundle, block);
        self.group.start_planned(bundle, &g.plan);
        // Until `end_group` says how many issued, none has.
        self.remaining = g.plan.len;
        self.plan_end = g.plan.end;
        Some(self.cycle)
    }

    /// Ends a group `begin_group` opened: `issued` slots of it issued (fewer than all when a
    /// slot took a branch or faulted; the CPU then calls `taken_branch`/`event` as today, after
    /// this), `executed` bit i set when slot i's predicate was true. Counts instructions and
    /// nops, writes the destinations (of executed slots, or `always_writes` ones) at the group's
    /// cycle with their latencies, and leaves the model exactly as `issue_prepared` would have.
    ///
    /// `issued` is at least 1 (the slot that branched or faulted was issued) and at most the
    /// group's length; values outside are taken as the nearest of those.
    #[inline]
    pub fn end_group(&mut self, g: &ResolvedGroup, issued: usize, executed: u8) {
        let len = g.plan.len;
        let issued = (issued.min(usize::from(len)).max(1)) as u8; // ≤ MAX_SLOTS
        let cycle = self.cycle;
        self.instructions += u64::from(issued);
        let dsts = &g.dsts[..usize::from(g.n_dsts).min(MAX_DSTS)];
        if issued == len {
            self.nops += u64::from(g.n_nops);
            let writes = executed | g.always_mask;
            for d in dsts {
                if writes & (1 << d.slot) != 0 {
                    self.board.write(d.res, cycle, d.lat);
                }
            }
            self.remaining = 0;
            self.group.closed = Some(self.plan_end);
            return;
        }
        self.end_part(g, dsts, issued, executed);
    }

    /// `end_group` for a group stopped before its last slot: the group stays open for the
    /// rest of its slots, which join it through `issue_prepared` and may still hold it, so its
    /// writes are kept for re-timing as the per-slot path keeps them (lockstep).
    #[inline(never)]
    fn end_part(&mut self, g: &ResolvedGroup, dsts: &[ResolvedDst], issued: u8, executed: u8) {
        let cycle = self.cycle;
        let issued_mask = (1u8 << issued) - 1;
        self.nops += u64::from((g.nop_mask & issued_mask).count_ones());
        let writes = (executed | g.always_mask) & issued_mask;
        for d in dsts.iter().filter(|d| writes & (1 << d.slot) != 0) {
            self.board.write(d.res, cycle, d.lat);
            self.written.push(d.res, d.lat);
        }
        self.remaining = g.plan.len - issued;
        if self.remaining == 0 {
            self.group.closed = Some(self.plan_end);
        }
    }
}
