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
//! the same board entry when it did not). A group whose only wait is its unpredicated first
//! slot's is exact the same way at the held cycle (see the `begin_group` list below).
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
//!   (`prepared::changes_renaming`): `cover`, `clrrrb` (the rotating base), `bsw` (PSR.bn),
//!   and every branch class (`br.call`/`brl.call` and `br.ret` move the frame, `rfi` may
//!   restore it and the bank, and the modulo-scheduled loop branches
//!   `br.ctop`/`cexit`/`wtop`/`wexit`, which share the `Branch` timing class with `br.cond`,
//!   rotate even when they fall through).
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
//! - some live-in source is not ready by the opening cycle in its lane, unless the wait is the
//!   first slot's alone: an unpredicated first slot waits for its own sources before any slot
//!   of the group issued, so slot by slot every slot gets the held cycle and nothing is
//!   re-timed, and the group step charges the wait as the first slot would (to its first
//!   source with the latest ready cycle). A wait of a later slot, or of a predicated first slot
//!   (whether it waits for its operands depends on its predicate), goes slot by slot: the slots
//!   before the one that waits are given the earlier cycle there, which a single group cycle
//!   cannot express.
//!
//! In all these cases nothing changed, and the CPU issues the group's slots with
//! [`Itanium2::issue_prepared`] as before.
//!
//! # What the caller guarantees
//! - `begin_group` is called where the CPU is about to issue the group's first slot, with that
//!   slot's bundle address, and with a [`ResolvedGroup`] resolved under the renaming (frame,
//!   rotating base, PSR.bn) in force then: a block engine keys its resolved groups by what
//!   renaming depends on, as it does its pre-resolved operands.
//! - Every `begin_group` that returned a cycle is followed by one `end_group`, with nothing in
//!   between but the slots' execution and [`Itanium2::note_clock_use`]; `taken_branch`,
//!   `event`, `advance` and `redirect` for the group's last issued slot come after
//!   `end_group`.
//! - `executed` has the bit of every issued slot whose qualifying predicate was true (a slot
//!   with no predicate, qp = p0, always; `br.wtop`/`br.wexit` always, as the CPU's
//!   `executes`).
//!
//! # Between the two calls
//! The CPU executes the group's slots with the cycle `begin_group` returned (its ITC reads use
//! it), and may note clock uses ([`Itanium2::note_clock_use`]) as it does after each
//! `issue_prepared`: they are noted at the group's cycle. [`Itanium2::settle_clock_uses`] has
//! nothing to move inside a group that took the step (no slot of it waits once the first
//! slot's wait is over), but the uses stay noted for the slots of the same group issued slot by
//! slot afterwards (a group stopped mid-way), exactly as if every slot had been issued slot by
//! slot.
//!
//! # Cost (host instructions, callgrind, `group_issue_callgrind_driver`)
//! The `acctemu bench` ALU loop body (three groups of three slots, a taken `br.cloop`): 179.5
//! per slot through `issue_prepared`, 146 per group (48.7 per slot) through
//! `begin_group`/`end_group`, the taken branch included in both. What is left per group is
//! the group bookkeeping the per-slot path keeps (about 20 stores), about 4.5 per live-in source
//! and 13 per destination.

use super::group::{Close, Full, Group, Plan};
use super::prepared::{RegOperand, SlotTiming};
use super::scoreboard::{flat_index, Lane, Latency, FLAT_LEN, NEVER_WRITTEN};
use super::{Cause, Itanium2};
use crate::res::Res;

/// Slots in one issue group at most (two bundles).
const MAX_SLOTS: usize = 6;
/// Sources in one issue group at most (six per slot).
const MAX_SRCS: usize = MAX_SLOTS * 6;
/// Destinations in one issue group at most (three per slot).
const MAX_DSTS: usize = MAX_SLOTS * 3;

#[derive(Debug, Clone, Copy)]
struct GroupSrc {
    reg: RegOperand,
    lane: Lane,
    slot: u8,
    /// A qualifying predicate (waited for even when the slot is predicated off).
    predicate: bool,
    /// The logical GR number, for the stall text of a wait.
    logical: Option<u8>,
}

#[derive(Debug, Clone, Copy)]
struct GroupDst {
    reg: RegOperand,
    lat: Latency,
    slot: u8,
}

/// The scoreboard position of a resource never written (always ready).
const PADDING: u16 = (NEVER_WRITTEN * 4) as u16;
/// Live-ins checked without a loop.
const FIXED_LIVE: usize = 4;

const NO_SRC: GroupSrc =
    GroupSrc { reg: RegOperand::Fixed(Res::gr_static(0)), lane: Lane::Data, slot: 0, predicate: false, logical: None };
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

/// One destination of a resolved group: the resource, its latencies, and the bit of the slot
/// that writes it.
#[derive(Debug, Clone, Copy)]
pub(super) struct ResolvedDst {
    /// Its latencies through the data, address and branch lanes (32 bytes an entry, so the
    /// write loop steps by a power of two).
    pub(super) lanes: [u64; 3],
    pub(super) res: Res,
    pub(super) bit: u8,
}

impl ResolvedDst {
    fn lat(&self) -> Latency {
        let [d, a, b] = self.lanes;
        Latency::from_lanes([d, a, b, 0])
    }
}

/// The same with every register resolved to its physical `Res` for one renaming (frame+bank).
#[derive(Debug, Clone)]
pub struct ResolvedGroup {
    pub(super) plan: Plan,
    /// False when two of the group's names resolved to one register with an intra-group read
    /// through a latency (see the module doc): the group then never begins.
    pub(super) ok: bool,
    /// The distinct (resource, lane) pairs the group's slots read, as scoreboard positions
    /// ([`flat_index`]); the unused entries name a resource that is never written, so the
    /// first few can be checked without looking at `n_live`.
    pub(super) live: [u16; MAX_SRCS],
    pub(super) n_live: u8,
    pub(super) dsts: [ResolvedDst; MAX_DSTS],
    pub(super) n_dsts: u8,
    nop_mask: u8,
    pub(super) always_mask: u8,
    /// Bit i: slot i has destinations it writes only when its predicate is true.
    cond_mask: u8,
    pub(super) n_nops: u8,
    /// The first slot's sources in order (resource, lane, logical GR), for a group whose only
    /// wait is the first slot's (see [`Itanium2::begin_group`]); empty when the first slot has a
    /// qualifying predicate (whether it waits for its other sources is known only once the
    /// predicate is).
    first: [(Res, Lane, Option<u8>); 6],
    n_first: u8,
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
                *g.srcs.get_mut(usize::from(g.n_srcs))? =
                    GroupSrc { reg: s.reg, lane: s.lane, slot, predicate: s.predicate, logical: s.logical };
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
            live: [PADDING; MAX_SRCS],
            n_live: 0,
            dsts: [ResolvedDst { lanes: [0; 3], res: Res::gr_static(0), bit: 0 }; MAX_DSTS],
            n_dsts: 0,
            nop_mask: self.nop_mask,
            always_mask: self.always_mask,
            cond_mask: 0,
            n_nops: self.nop_mask.count_ones() as u8,
            first: [(Res::gr_static(0), Lane::Data, None); 6],
            n_first: 0,
        };
        let first = self.srcs[..usize::from(self.n_srcs)].iter().filter(|s| s.slot == 0);
        if !first.clone().any(|s| s.predicate) {
            for (out, s) in r.first.iter_mut().zip(first) {
                *out = (s.reg.resolve(&rename), s.lane, s.logical);
                r.n_first += 1;
            }
        }
        let dsts = &self.dsts[..usize::from(self.n_dsts)];
        for (out, d) in r.dsts.iter_mut().zip(dsts) {
            let [data, address, branch, _] = d.lat.lanes();
            *out = ResolvedDst { lanes: [data, address, branch], res: d.reg.resolve(&rename), bit: 1 << d.slot };
            r.cond_mask |= (1 << d.slot) & !self.always_mask;
        }
        r.n_dsts = self.n_dsts;
        for s in &self.srcs[..usize::from(self.n_srcs)] {
            let res = s.reg.resolve(&rename);
            let mut earlier = r.dsts[..usize::from(r.n_dsts)].iter().filter(|d| d.bit < 1 << s.slot);
            if earlier.any(|d| d.res == res && d.lat().of(s.lane) != 0) {
                r.ok = false;
            }
            // RES_COUNT * 3 fits in 16 bits.
            let at = flat_index(res, s.lane) as u16;
            let n = usize::from(r.n_live);
            if !r.live[..n].contains(&at) {
                if let Some(slot) = r.live.get_mut(n) {
                    *slot = at;
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
    #[inline(always)]
    pub fn begin_group(&mut self, g: &ResolvedGroup, bundle: u64) -> Option<u64> {
        let joins = self.group.open & self.group.closed.is_none();
        if !g.ok | joins | self.timeline.is_some() {
            return None;
        }
        let start = self.now();
        // Issue 17 (w8-itimed): nothing on the board is ready later than the horizon, so a
        // group opening at or after it need not look at its sources.
        if self.board.horizon() > start {
            // One max-plus step: the latest ready cycle over the group's live-ins, a load and a
            // maximum each (the first few unconditionally: the list is padded).
            let board = self.board.flat();
            let at = |i: u16| board.get(usize::from(i) & (FLAT_LEN - 1)).copied().unwrap_or(0);
            let [a, b, c, d, ..] = g.live;
            let mut latest = at(a).max(at(b)).max(at(c)).max(at(d));
            if usize::from(g.n_live) > FIXED_LIVE {
                let rest = g.live.get(FIXED_LIVE..usize::from(g.n_live)).unwrap_or(&[]);
                latest = rest.iter().fold(latest, |m, &i| m.max(at(i)));
            }
            if latest > start {
                return self.begin_held(g, bundle, start, latest);
            }
        }
        self.open_planned(g, bundle, start);
        Some(start)
    }

    /// Opens `g` at `start` (`now()`) with nothing to wait for: `open_group`'s work and the
    /// planned group's state once every slot issued (`end_group` corrects it for a group
    /// stopped early).
    #[inline(always)]
    pub(super) fn open_planned(&mut self, g: &ResolvedGroup, bundle: u64, start: u64) {
        self.open_untimed(bundle, start);
        self.planned(g, bundle);
    }

    /// The open group's state once every slot of `g` (opened at `bundle`) issued.
    #[inline(always)]
    pub(super) fn planned(&mut self, g: &ResolvedGroup, bundle: u64) {
        self.group.start_planned(bundle, &g.plan);
        self.group.closed = Some(g.plan.end);
        self.remaining = 0;
        self.plan_end = g.plan.end;
    }

    /// `begin_group` for a group that waits: it still takes the step when the wait is the first
    /// slot's alone (an unpredicated first slot whose sources make the group's cycle, with every
    /// later slot's source ready by then). Slot by slot the first slot then waits before any
    /// slot issued, so every slot is given the held cycle and nothing needs re-timing; the wait
    /// is charged as `wait_for_sources` charges it, to the first source with the latest ready
    /// cycle.
    #[inline(never)]
    fn begin_held(&mut self, g: &ResolvedGroup, bundle: u64, start: u64, latest: u64) -> Option<u64> {
        let first = g.first.get(..usize::from(g.n_first)).unwrap_or(&[]);
        let mut held = start;
        let mut late = None;
        for &(res, lane, logical) in first {
            let ready = self.board.ready(res, lane);
            if ready > held {
                held = ready;
                late = Some((res, logical));
            }
        }
        let (res, logical) = late?;
        if latest > held {
            return None;
        }
        self.open_untimed(bundle, start);
        self.cycle = held;
        self.charge(Cause::Dep(res, logical.filter(|_| res.is_gr())), held - start, true);
        self.planned(g, bundle);
        Some(held)
    }

    /// What `open_group` does for a planned group when no timeline records, at `start`
    /// (`now()`), inline: the split or port charge of the rule that closed the last group, the
    /// group count, and the group's writes and clock uses forgotten.
    #[inline(always)]
    pub(super) fn open_untimed(&mut self, bundle: u64, start: u64) {
        let cause = open_cause(&self.group, bundle);
        self.cycle = start;
        self.groups += 1;
        self.written.len = 0;
        self.clock_uses.clear();
        if let Some(cause) = cause {
            self.charge(cause, 1, true);
        }
    }

    /// Ends a group `begin_group` opened: `issued` slots of it issued (fewer than all when a
    /// slot took a branch or faulted; the CPU then calls `taken_branch`/`event` as today, after
    /// this), `executed` bit i set when slot i's predicate was true. Counts instructions and
    /// nops, writes the destinations (of executed slots, or `always_writes` ones) at the group's
    /// cycle with their latencies, and leaves the model exactly as `issue_prepared` would have.
    ///
    /// `issued` is at least 1 (the slot that branched or faulted was issued) and at most the
    /// group's length; values outside are taken as the nearest of those.
    #[inline(always)]
    pub fn end_group(&mut self, g: &ResolvedGroup, issued: usize, executed: u8) {
        let len = g.plan.len;
        let cycle = self.cycle;
        if usize::from(len) <= issued && executed & g.cond_mask == g.cond_mask {
            // The common case: the whole group issued, and every slot with destinations wrote
            // them.
            self.instructions += u64::from(len);
            self.nops += u64::from(g.n_nops);
            for d in g.dsts.get(..usize::from(g.n_dsts)).unwrap_or(&[]) {
                let [data, address, branch] = d.lanes;
                self.board.write_lanes(d.res.index(), cycle, [data, address, branch, 0]);
            }
            return;
        }
        let dsts = g.dsts.get(..usize::from(g.n_dsts)).unwrap_or(&[]);
        self.end_some(g, dsts, issued, executed | g.always_mask);
    }

    /// `end_group` when a slot was predicated off or the group stopped before its last slot.
    /// A stopped group stays open for the rest of its slots, which join it through
    /// `issue_prepared` and may still hold it, so its writes are kept for re-timing as the
    /// per-slot path keeps them (lockstep).
    #[inline(never)]
    fn end_some(&mut self, g: &ResolvedGroup, dsts: &[ResolvedDst], issued: usize, writes: u8) {
        let len = g.plan.len;
        let issued = issued.clamp(1, usize::from(len)) as u8; // ≤ MAX_SLOTS
        let cycle = self.cycle;
        let issued_mask = ((1u16 << issued) - 1) as u8;
        let writes = writes & issued_mask;
        self.instructions += u64::from(issued);
        self.nops += u64::from((g.nop_mask & issued_mask).count_ones());
        let whole = issued == len;
        for d in dsts.iter().filter(|d| writes & d.bit != 0) {
            self.board.write(d.res, cycle, d.lat());
            if !whole {
                self.written.push(d.res, d.lat());
            }
        }
        if !whole {
            self.remaining = len - issued;
            self.group.closed = None;
        }
    }
}

/// The split or port rule `open_group` charges when a planned group opens at `bundle` after
/// `group` (one cycle, or none).
#[inline(always)]
pub(super) fn open_cause(group: &Group, bundle: u64) -> Option<Cause> {
    // Most groups end at a stop or a taken branch: nothing to charge.
    match group.closed {
        Some(Close::Stop | Close::Branch) => None,
        _ if !group.open => None,
        Some(Close::Full(Full::Pair(s))) => Some(Cause::Split(s)),
        Some(Close::Full(Full::Port(p))) => Some(Cause::Port(p)),
        Some(Close::Split(s)) if group.in_window(bundle) => Some(Cause::Split(s)),
        _ => None,
    }
}
