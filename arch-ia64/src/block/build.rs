//! Building a block (issue 17): the straight-line run of slots from an entry (bundle | slot)
//! to the first slot that can branch, the end of the decoded code, a stub's entry or a size
//! cap. Nops become no operation at all: they are counted with the slots around them, and what
//! each exit has retired is a constant of the block ([`Exit`]).

use super::fast::Fast;
use super::op::{resolve, BlockOp, Kind};
use crate::code::Code;
use crate::exec::op::{BrKind, Op};
use crate::exec::predecode::{Exec, SlotRec};
use crate::state::rse::RegFile;
use crate::timing::{BlockGroup, BlockTiming, ClockUse, GroupTiming, Itanium2, ResolvedGroup, SlotTiming};

/// Slots a block holds at most (bounds the work a budget check must allow for).
pub(crate) const MAX_SLOTS: u32 = 48;

/// No block (a successor not yet known, or an entry where no block can start).
pub(crate) const NONE: u32 = u32::MAX;

/// What has retired when execution leaves a block at one of its operations, and where it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exit {
    /// The operation's bundle and slot.
    pub(crate) ip: u64,
    pub(crate) slot: u8,
    /// Its fall-through slot.
    pub(crate) next: (u64, u8),
    /// Slots retired from the block's entry up to and including this one, and the nops among
    /// them.
    pub(crate) insns: u32,
    pub(crate) nops: u32,
    /// Instruction groups ended (stops passed) before this slot.
    pub(crate) groups_before: u32,
    /// Whether a stop follows this slot.
    pub(crate) stop_after: bool,
}

/// What a run through a block up to one of its two chained exits retires (the fall-through,
/// the last operation's taken branch), as the model-off chain adds it (w9-iuntimed): the
/// exit's constants, widened once at build time.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Retired {
    pub(crate) slots: u64,
    pub(crate) nops: u64,
    /// Instruction groups ended (each taken branch ends one).
    pub(crate) groups: u64,
}

/// One slot of a block as the timing model is fed it (every slot, nops included).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimedSlot {
    pub(crate) timing: SlotTiming,
    pub(crate) ip: u64,
    pub(crate) slot: u8,
    /// The qualifying predicate, 0 when the slot always executes (the loop branches).
    pub(crate) qp: u8,
    pub(crate) clock: Option<ClockUse>,
    /// Index of its operation in [`Block::ops`], or [`NONE`] for a nop.
    pub(crate) op: u32,
}

/// A planned issue group of a block (model on): its slots in [`Block::timed`], and its
/// timing facts when the model can issue it whole (w7-itime's group step), resolved for
/// [`Block::key`].
#[derive(Debug, Clone)]
pub(crate) struct Segment {
    pub(crate) first: usize,
    pub(crate) len: usize,
    /// Its operations (nops left out): a range of [`Block::ops`].
    pub(crate) ops: std::ops::Range<usize>,
    group: Option<GroupTiming>,
    pub(crate) resolved: Option<ResolvedGroup>,
}

/// A block: its operations (nops removed) resolved for one renaming, what each exit has
/// retired, its timing facts, and its successors once known.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// The entry and the last slot's address (bundle | slot).
    pub(crate) entry: u64,
    pub(crate) last: u64,
    /// Where execution goes after the last slot when it does not branch.
    pub(crate) fall: (u64, u8),
    /// Slots, nops and instruction group ends (stops) of a run through the whole block.
    pub(crate) slots: u32,
    pub(crate) nops: u32,
    pub(crate) groups: u32,
    /// The operations in logical form, resolved into [`Block::ops`] for [`Block::key`].
    logical: Vec<Fast>,
    pub(crate) ops: Vec<BlockOp>,
    pub(crate) key: u64,
    /// Per operation: its predecoded record (for the reference executor) and its exit.
    pub(crate) execs: Vec<Exec>,
    pub(crate) exits: Vec<Exit>,
    /// Every slot, for the timing model, and the planned groups they form from the entry.
    pub(crate) timed: Vec<TimedSlot>,
    pub(crate) segments: Vec<Segment>,
    /// Its planned groups as one step (w8-itimed's block step), for [`Block::key`].
    pub(crate) timing: BlockTiming,
    /// The fall-through successor's index, and the last taken successor (target, index):
    /// a target is cached only with a block to run there and never for the sentinel, so a
    /// branch to the cached target goes straight on (the target starts as an address no
    /// branch reaches).
    pub(crate) fall_next: u32,
    pub(crate) taken_next: (u64, u32),
    /// What running through the block retires, and up to its last operation's taken branch.
    pub(crate) through: Retired,
    pub(crate) branch: Retired,
    /// Whether any operation has a qualifying predicate (the model-off loop tests none
    /// otherwise).
    pub(crate) predicated: bool,
}

/// Whether `e` can leave the straight line: a block ends after it so its successors chain.
fn can_branch(e: &Exec) -> bool {
    matches!(e.op, Op::Branch { .. } | Op::Rfi | Op::ChkA { .. } | Op::ChkS { .. } | Op::Break)
}

impl Block {
    /// The block from `entry` (bundle | slot), or `None` when not even its first slot can be
    /// in one (no code, an undecodable slot, a stub's entry). `stub` says whether a bundle
    /// address is a stub's entry.
    pub(crate) fn build(
        code: &mut Code,
        entry: u64,
        stub: impl Fn(u64) -> bool,
        model: Option<&Itanium2>,
    ) -> Option<Block> {
        let mut b = Block {
            entry,
            last: entry,
            fall: (entry & !0xF, (entry & 0xF) as u8),
            slots: 0,
            nops: 0,
            groups: 0,
            logical: Vec::new(),
            ops: Vec::new(),
            key: u64::MAX,
            execs: Vec::new(),
            exits: Vec::new(),
            timed: Vec::new(),
            segments: Vec::new(),
            timing: BlockTiming::default(),
            fall_next: NONE,
            taken_next: (u64::MAX, NONE),
            through: Retired::default(),
            branch: Retired::default(),
            predicated: false,
        };
        let (mut ip, mut slot) = b.fall;
        while b.slots < MAX_SLOTS {
            if slot == 0 && stub(ip) {
                break;
            }
            let Some(bundle) = code.find(ip) else { break };
            let flow = bundle.flow;
            let Some(here) = bundle.slots.get(usize::from(slot)).filter(|_| slot <= flow.last_slot) else { break };
            let SlotRec::Insn(e) = here.rec else { break };
            let next = if slot < flow.last_slot { (ip, slot + 1) } else { (ip.wrapping_add(16), 0) };
            let stop_after = flow.stop_after(slot);
            let always = matches!(e.op, Op::Branch { kind: BrKind::Wtop | BrKind::Wexit, .. });
            let qp = if always { 0 } else { e.qp };
            b.slots += 1;
            b.nops += u32::from(e.nop);
            let op = if e.nop {
                NONE
            } else {
                b.logical.push(Fast::in_block(&e, ip, here.fast));
                // b.ops.len() < MAX_SLOTS ≤ u8::MAX
                let index = b.ops.len() as u8;
                b.ops.push(BlockOp { kind: Kind::Generic, qp, pos: 0, clock: here.clock, index });
                b.execs.push(e);
                b.exits.push(Exit {
                    ip,
                    slot,
                    next,
                    insns: b.slots,
                    nops: b.nops,
                    groups_before: b.groups,
                    stop_after,
                });
                (b.ops.len() - 1) as u32
            };
            b.timed.push(TimedSlot { timing: here.timing, ip, slot, qp, clock: here.clock, op });
            b.groups += u32::from(stop_after);
            b.last = ip | u64::from(slot);
            b.fall = next;
            (ip, slot) = next;
            if can_branch(&e) {
                break;
            }
        }
        b.through = Retired { slots: b.slots.into(), nops: b.nops.into(), groups: b.groups.into() };
        if let Some(x) = b.exits.last() {
            b.branch = Retired { slots: x.insns.into(), nops: x.nops.into(), groups: u64::from(x.groups_before) + 1 };
        }
        b.predicated = b.ops.iter().any(|op| op.qp != 0);
        if let Some(model) = model {
            b.segments = segments(model, &b.timed);
            for seg in &b.segments {
                for (j, ts) in b.timed[seg.first..seg.first + seg.len].iter().enumerate() {
                    if let Some(op) = b.ops.get_mut(ts.op as usize) {
                        op.pos = j as u8; // j < plan length ≤ 6
                    }
                }
            }
        }
        (b.slots > 0).then_some(b)
    }

    /// Whether the whole block may run now: it fits the run's budget after `executed` slots,
    /// and the end label `until` (`u64::MAX`: none) is not one of its inner slots.
    #[inline(always)]
    pub(crate) fn runs_within(&self, executed: u64, max_insns: u64, until: u64) -> bool {
        executed + u64::from(self.slots) <= max_insns && !(until > self.entry && until <= self.last)
    }

    /// Resolves the operations for the renaming `gr` has, unless they already are.
    #[inline]
    pub(crate) fn resolve_for(&mut self, gr: &RegFile) {
        if gr.rename_key() != self.key {
            self.resolve_now(gr);
        }
    }

    /// Resolves the operations for the renaming `gr` has (off the hot path: a block is
    /// mostly entered under the renaming it last ran with).
    #[inline(never)]
    fn resolve_now(&mut self, gr: &RegFile) {
        for (op, &f) in self.ops.iter_mut().zip(&self.logical) {
            op.kind = resolve(f, gr);
        }
        for s in &mut self.segments {
            s.resolved = s.group.as_ref().map(|g| g.resolve(|n| gr.res(n)));
        }
        if !self.segments.is_empty() {
            let timed = &self.timed;
            let groups = self.segments.iter().map(|s| block_group(s, timed.get(s.first..s.first + s.len)));
            self.timing.rebuild(groups, self.ops.len());
        }
        self.key = gr.rename_key();
    }
}

/// A segment as the block step takes it (`slots`: its timed slots).
fn block_group<'a>(s: &'a Segment, slots: Option<&[TimedSlot]>) -> BlockGroup<'a> {
    let slots = slots.unwrap_or(&[]);
    let (mut ops, mut clocks) = ([None; 6], [None; 6]);
    for ((out, clock), t) in ops.iter_mut().zip(&mut clocks).zip(slots) {
        *out = u8::try_from(t.op).ok();
        *clock = t.clock;
    }
    BlockGroup {
        group: s.resolved.as_ref().filter(|_| slots.len() <= 6),
        bundle: slots.first().map_or(0, |t| t.ip),
        ops,
        clocks,
    }
}

/// The planned issue groups `timed` forms when its first slot opens one: each slot that opens
/// a group takes its plan's length of slots; a group the block ends inside of is issued slot
/// by slot. (A block entered inside an open group finds the model joining it, and the group
/// step declines: then its slots issue one by one, as they must.)
fn segments(model: &Itanium2, timed: &[TimedSlot]) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut first = 0;
    while let Some(t) = timed.get(first) {
        let len = usize::from(t.timing.plan.len).max(1);
        let slots: Option<Vec<SlotTiming>> =
            timed.get(first..first + len).map(|s| s.iter().map(|t| t.timing).collect());
        let group = slots.and_then(|s| model.prepare_group(&s));
        let len = len.min(timed.len() - first);
        let mut ops = timed[first..first + len].iter().filter(|t| t.op != NONE).map(|t| t.op as usize);
        let start = ops.next();
        let end = ops.next_back().or(start).map_or(0, |k| k + 1);
        let start = start.unwrap_or(end);
        out.push(Segment { first, len, ops: start..end, group, resolved: None });
        first += len;
    }
    out
}
