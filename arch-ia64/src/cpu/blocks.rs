//! Running blocks (issue 17): the operations of a block one after the other with no per-slot
//! bookkeeping, the timing model fed every slot when it is on, and at the exit the counts the
//! block retired (constants of the exit), the move to the next slot or branch target, and the
//! next block by its cached index.
//!
//! Exactness: a block runs only when the per-slot step would take its fast path (no interrupt
//! pending, no profile, no translation, no timeline), when the whole block fits the budget and
//! when the scenario's end label is not one of its inner slots; an operation that changes what
//! the block depends on (the renaming, a pending interrupt, translation) leaves it after
//! itself. Everything a slot does is what the per-slot step does for it, in the same order.
//!
//! With the model on, a block whose planned groups the model can issue in one step
//! (`Itanium2::begin_block`, w8-itimed) runs its operations as with the model off, each at its
//! group's cycle, and the model is told once at the exit which were predicated off; otherwise
//! group by group, or slot by slot.

mod untimed;

use super::{CpuConfig, Ia64Cpu};
use crate::block::{run_op, Block, Exit, Kind, Out, NONE};
use crate::exec::interrupt::Interruption;
use crate::exec::predecode::Exec;
use crate::exec::{execute, nullified, Ctx, ExecError, ExecResult, Flow};
use crate::state::State;
use emu_core::cpu::{Ran, RanEnd, RunError, StepEvent, StopWhen};
use emu_core::memory::Memory;

/// What a block run left for the run loop.
pub(super) enum BlockRun {
    /// The block ran and the run goes on.
    Continue,
    /// The run ends here.
    End(RanEnd),
    /// An emulator error (with the slots executed before it).
    Error(RunError<ExecError>),
    /// No block runs here now: the per-slot step runs one slot.
    PerSlot,
}

/// Where execution left a block.
enum Leave {
    /// Past its last slot, with no taken branch.
    End,
    /// At operation `k`, whose flow is not the next slot (a taken branch, a fault, `rfi`).
    At(usize, ExecResult),
    /// At operation `k`, a specialised branch taken to the target.
    Taken(usize, u64),
    /// After operation `k`, which changed what the block depends on.
    After(usize),
    /// At operation `k`, a `break` with its IIM.
    Break(usize, u64),
}

/// The reference executor on one slot of a block, at `cycle`.
#[inline(never)]
fn generic(st: &mut State, mem: &mut Memory, e: &Exec, x: &Exit, cycle: u64, cpu: &CpuConfig) -> ExecResult {
    // The per-slot step runs every slot with IP and PSR.ri naming it.
    st.ip = x.ip;
    st.psr = st.psr.with_ri(x.slot);
    let ctx = Ctx {
        ip: x.ip,
        slot: x.slot,
        itc: cycle.wrapping_mul(cpu.itc_per_cycle).wrapping_add(st.itc_offset),
        gate: cpu.gate,
    };
    execute(st, mem, e, &ctx)
}

/// Operation `k` of block `b` run by the reference executor at the cycle `cycle` gives for
/// its exit: `Some` when execution leaves the block there. (The renaming cannot have changed
/// since the block began: an operation that changes it leaves the block.)
#[inline(never)]
fn generic_op(
    st: &mut State,
    mem: &mut Memory,
    b: &Block,
    k: usize,
    cycle: impl FnOnce(&Exit) -> u64,
    config: &CpuConfig,
) -> Option<Leave> {
    let (Some(e), Some(x)) = (b.execs.get(k), b.exits.get(k)) else { return Some(Leave::After(k)) };
    let key = st.gr.rename_key();
    match generic(st, mem, e, x, cycle(x), config) {
        Ok(Flow::Next) => {
            st.gr.set_bank(st.psr.bank());
            changed(st, key).then_some(Leave::After(k))
        }
        flow => Some(Leave::At(k, flow)),
    }
}

/// What operation `k` of block `b`, a reference-executor slot whose predicate is false, still
/// does.
#[inline(never)]
fn nullified_at(st: &mut State, b: &Block, k: usize) {
    if let Some(e) = b.execs.get(k) {
        nullified(st, e);
    }
}

/// Whether a slot changed what a block run depends on: the renaming its operands were
/// resolved for, or the conditions of the block engine (no pending interrupt, no translation).
#[inline]
fn changed(st: &State, key: u64) -> bool {
    st.gr.rename_key() != key || !st.interrupts.idle() || st.tlb.enabled
}

/// Slots of a block issued one by one (the model declined the group step), nops included,
/// each then run: what the per-slot step does for them. `Some` when execution leaves the block.
#[inline(never)]
fn timed_slots(
    st: &mut State,
    mem: &mut Memory,
    t: &mut crate::timing::Itanium2,
    config: &CpuConfig,
    b: &crate::block::Block,
    slots: &[crate::block::TimedSlot],
    key: u64,
) -> Option<Leave> {
    let per_cycle = config.itc_per_cycle;
    for ts in slots {
        let executes = ts.qp == 0 || st.p(ts.qp);
        let cycle = {
            let gr = &st.gr;
            t.issue_prepared(&ts.timing, ts.ip, ts.slot, executes, |n| gr.res(n))
        };
        let mut leave = None;
        let mut ok = true;
        let mut check = false;
        let k = ts.op as usize;
        if let (Some(op), Some(e), Some(x)) = (b.ops.get(k), b.execs.get(k), b.exits.get(k)) {
            if executes {
                match run_op(op.kind, st, mem) {
                    Out::Next => {}
                    Out::Taken(target) => leave = Some(Leave::Taken(k, target)),
                    Out::Break(imm) => leave = Some(Leave::Break(k, imm)),
                    Out::Generic => match generic(st, mem, e, x, cycle, config) {
                        Ok(Flow::Next) => check = true,
                        flow => {
                            ok = flow.is_ok();
                            leave = Some(Leave::At(k, flow));
                        }
                    },
                }
            } else if op.kind == Kind::Generic {
                nullified(st, e);
            }
        }
        // Held-group ITC (issue 15), as the per-slot step.
        if let (Some(clock), true, true) = (ts.clock, executes, ok) {
            t.note_clock_use(clock);
        }
        t.settle_clock_uses(|clock, held| crate::code::hold_clock_use(st, clock, held.wrapping_mul(per_cycle)));
        if check {
            st.gr.set_bank(st.psr.bank());
            if changed(st, key) {
                leave = Some(Leave::After(k));
            }
        }
        if leave.is_some() {
            return leave;
        }
    }
    None
}

/// A block's operations after the model began it whole at `start` (the block step): each
/// operation at its group's cycle, predicated-off ones noted for the model's end of the block.
#[inline(always)]
fn block_step(
    st: &mut State,
    mem: &mut Memory,
    t: &mut crate::timing::Itanium2,
    config: &CpuConfig,
    b: &crate::block::Block,
    start: u64,
) -> Leave {
    let bt = &b.timing;
    let groups = || b.segments.iter().map(|s| s.resolved.as_ref());
    let mut skipped = 0u64;
    for (k, op) in b.ops.iter().enumerate() {
        if op.qp != 0 && !st.p(op.qp) {
            skipped |= 1 << k;
            if op.kind == Kind::Generic {
                nullified_at(st, b, k);
            }
            continue;
        }
        let leave = match run_op(op.kind, st, mem) {
            Out::Next => continue,
            Out::Taken(target) => Leave::Taken(k, target),
            Out::Break(imm) => Leave::Break(k, imm),
            Out::Generic => match generic_op(st, mem, b, k, |_| start + bt.offset(k), config) {
                None => continue,
                Some(leave) => leave,
            },
        };
        t.exit_block(bt, k, skipped, groups(), matches!(leave, Leave::After(_)));
        return leave;
    }
    t.end_block(bt, skipped);
    Leave::End
}

impl Ia64Cpu {
    /// Whether blocks may run now (otherwise every slot takes the per-slot step).
    #[inline]
    pub(super) fn blocks_apply(&self) -> bool {
        self.state.interrupts.idle()
            && self.profile.is_none()
            && !self.state.tlb.enabled
            && self.timing.as_ref().is_none_or(|t| t.timeline().is_none())
    }

    /// Runs blocks from the current slot, block to block through their cached successors,
    /// until one exits other than by falling through or taking its last branch, or the next
    /// one cannot run (`hint`: the first block's index if a chained exit knew it; set to the
    /// next block's when the last exit knows it).
    #[inline]
    pub(super) fn run_block(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
        executed: &mut u64,
        hint: &mut u32,
    ) -> BlockRun {
        let pc = self.state.ip | u64::from(self.state.psr.ri());
        let mut index = std::mem::replace(hint, NONE);
        if self.blocks.list.get(index as usize).map(|b| b.entry) != Some(pc) {
            index = self.block_at(pc);
        }
        if self.timing.is_none() {
            return self.run_untimed(index, mem, stop, until_pc, executed, hint);
        }
        // Once a block has run, the caller's loop must check the budget before a per-slot step.
        let mut idle = BlockRun::PerSlot;
        loop {
            let Some(b) = self.blocks.list.get_mut(index as usize) else { return idle };
            if !b.runs_within(*executed, stop.max_insns, until_pc.unwrap_or(u64::MAX)) {
                return idle;
            }
            idle = BlockRun::Continue;
            b.resolve_for(&self.state.gr);
            let i = index as usize;
            let leave = self.run_timed(i, mem);
            match self.next_block(i, leave, stop, until_pc, executed, hint) {
                Ok(next) => index = next,
                Err(BlockRun::PerSlot) => return idle,
                Err(run) => return run,
            }
        }
    }

    /// Moves on from block `index` as `leave` says: `Ok` with the next block's index when the
    /// run goes on block to block, else what [`Ia64Cpu::run_block`] returns ([`BlockRun::PerSlot`]
    /// meaning "what it returns when no block runs next").
    #[inline(always)]
    fn next_block(
        &mut self,
        i: usize,
        leave: Leave,
        stop: &StopWhen,
        until_pc: Option<u64>,
        executed: &mut u64,
        hint: &mut u32,
    ) -> Result<u32, BlockRun> {
        let Some(b) = self.blocks.list.get(i) else { return Err(BlockRun::PerSlot) };
        let last = b.ops.len().wrapping_sub(1);
        match leave {
            // Through the end: the fall-through block next.
            Leave::End => {
                let (fall, next, slots) = (b.fall, b.fall_next, b.slots);
                self.retire(slots, b.nops, b.groups);
                *executed += u64::from(slots);
                self.state.ip = fall.0;
                self.state.psr = self.state.psr.with_ri(fall.1);
                let pc = fall.0 | u64::from(fall.1);
                if until_pc == Some(pc) {
                    return Err(BlockRun::End(RanEnd::Pc));
                }
                Ok(if next != NONE { next } else { self.successor(i, pc, false) })
            }
            // The block's own branch taken: its target's block next (as `conclude` does).
            // A specialised branch changes nothing the block engine depends on but the renaming
            // (calls and returns), which the next block checks.
            Leave::Taken(k, target) if k == last => self.taken(i, k, target, false, stop, until_pc, executed, hint),
            // A branch the reference executor took moves on the same way; it may also have
            // switched the bank or raised the engine's conditions.
            Leave::At(k, Ok(Flow::Branch(target))) if k == last => {
                self.taken(i, k, target, true, stop, until_pc, executed, hint)
            }
            // Any other exit (a slot that changed the renaming, `break`, a fault, `rfi`): when
            // the run goes on at a known block and blocks may still run, that block next, as
            // the run loop would go on (w9-iv2: no return to it, no lookup).
            leave => match self.leave(i, leave, stop, until_pc, executed, hint) {
                BlockRun::Continue if *hint != NONE && self.blocks_apply() => Ok(std::mem::replace(hint, NONE)),
                run => Err(run),
            },
        }
    }

    /// Block `i`'s last operation `k` branched to `target` (`generic`: the reference executor
    /// ran it): retires the block, moves there and gives the target's block, as
    /// [`Ia64Cpu::next_block`] does.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn taken(
        &mut self,
        i: usize,
        k: usize,
        target: u64,
        generic: bool,
        stop: &StopWhen,
        until_pc: Option<u64>,
        executed: &mut u64,
        hint: &mut u32,
    ) -> Result<u32, BlockRun> {
        let Some(b) = self.blocks.list.get(i) else { return Err(BlockRun::PerSlot) };
        let Some(x) = b.exits.get(k).copied() else { return Err(BlockRun::PerSlot) };
        let (cached, at) = (b.taken_next, x.ip | u64::from(x.slot));
        self.retire(x.insns, x.nops, x.groups_before + 1);
        *executed += u64::from(x.insns);
        if let Some(t) = &mut self.timing {
            t.taken_branch();
        }
        let pc = target & !0xF;
        self.state.ip = pc;
        self.state.psr = self.state.psr.with_ri(0);
        if generic {
            self.state.gr.set_bank(self.state.psr.bank());
        }
        let event = if target == self.config.sentinel { StepEvent::Sentinel } else { StepEvent::Continue };
        if let Some(end) = Ran::after_step(event, at, pc, stop, until_pc) {
            return Err(BlockRun::End(end));
        }
        let index = if cached.0 == pc && cached.1 != NONE { cached.1 } else { self.successor(i, pc, true) };
        if generic && (!self.state.interrupts.idle() || self.state.tlb.enabled) {
            *hint = index;
            return Err(BlockRun::PerSlot);
        }
        Ok(index)
    }

    /// A block's slots with the model on: the whole block in one step when the model can
    /// (w8-itimed's block step: only its operations run, nops skipped), else group by group,
    /// each issued whole when the model can (w7-itime's group step), else slot by slot, nops
    /// included.
    #[inline(always)]
    fn run_timed(&mut self, index: usize, mem: &mut Memory) -> Leave {
        let Ia64Cpu { state: st, blocks, config, timing, .. } = self;
        let (Some(b), Some(t)) = (blocks.list.get(index), timing.as_mut()) else { return Leave::End };
        let key = st.gr.rename_key();
        if let Some(start) = t.begin_block(&b.timing) {
            return block_step(st, mem, t, config, b, start);
        }
        for seg in &b.segments {
            let Some(slots) = b.timed.get(seg.first..seg.first + seg.len) else { return Leave::End };
            let whole = match (&seg.resolved, slots.first()) {
                (Some(g), Some(first)) => t.begin_group(g, first.ip).map(|cycle| (g, cycle)),
                _ => None,
            };
            let Some((g, cycle)) = whole else {
                if let Some(leave) = timed_slots(st, mem, t, config, b, slots, key) {
                    return leave;
                }
                continue;
            };
            // The group issues whole at `cycle`: no slot of it waits, so nothing is held.
            let mut executed = 0u8;
            let Some(ops) = b.ops.get(seg.ops.clone()) else { return Leave::End };
            for (k, op) in (seg.ops.start..).zip(ops) {
                let executes = op.qp == 0 || st.p(op.qp);
                executed |= u8::from(executes) << op.pos;
                let leave = if executes {
                    match run_op(op.kind, st, mem) {
                        Out::Next => None,
                        Out::Taken(target) => Some(Leave::Taken(k, target)),
                        Out::Break(imm) => Some(Leave::Break(k, imm)),
                        Out::Generic => {
                            let (Some(e), Some(x)) = (b.execs.get(k), b.exits.get(k)) else { return Leave::End };
                            match generic(st, mem, e, x, cycle, config) {
                                Ok(Flow::Next) => {
                                    if let Some(clock) = op.clock {
                                        t.note_clock_use(clock);
                                    }
                                    st.gr.set_bank(st.psr.bank());
                                    changed(st, key).then_some(Leave::After(k))
                                }
                                flow => Some(Leave::At(k, flow)),
                            }
                        }
                    }
                } else {
                    if op.kind == Kind::Generic {
                        if let Some(e) = b.execs.get(k) {
                            nullified(st, e);
                        }
                    }
                    None
                };
                if let Some(leave) = leave {
                    t.end_group(g, usize::from(op.pos) + 1, executed);
                    return leave;
                }
            }
            t.end_group(g, slots.len(), executed);
        }
        Leave::End
    }

    /// Retires what the block ran up to its exit and moves execution on.
    fn leave(
        &mut self,
        index: usize,
        leave: Leave,
        stop: &StopWhen,
        until_pc: Option<u64>,
        executed: &mut u64,
        hint: &mut u32,
    ) -> BlockRun {
        let Some(b) = self.blocks.list.get(index) else { return BlockRun::PerSlot };
        let (last_op, fall, slots, nops, groups) = (b.ops.len().wrapping_sub(1), b.fall, b.slots, b.nops, b.groups);
        let exit = |k: usize| b.exits.get(k).copied();
        let leave_imm = if let Leave::Break(_, imm) = leave { imm } else { 0 };
        let (k, flow) = match leave {
            Leave::End => {
                self.retire(slots, nops, groups);
                self.state.ip = fall.0;
                self.state.psr = self.state.psr.with_ri(fall.1);
                *executed += u64::from(slots);
                let pc = fall.0 | u64::from(fall.1);
                if until_pc == Some(pc) {
                    return BlockRun::End(RanEnd::Pc);
                }
                *hint = self.successor(index, pc, false);
                return BlockRun::Continue;
            }
            Leave::After(k) => {
                let Some(x) = exit(k) else { return BlockRun::PerSlot };
                self.retire(x.insns, x.nops, x.groups_before + u32::from(x.stop_after));
                self.state.ip = x.next.0;
                self.state.psr = self.state.psr.with_ri(x.next.1);
                *executed += u64::from(x.insns);
                let pc = x.next.0 | u64::from(x.next.1);
                if until_pc == Some(pc) {
                    return BlockRun::End(RanEnd::Pc);
                }
                *hint = self.block_at(pc);
                return BlockRun::Continue;
            }
            Leave::At(k, flow) => (k, Some(flow)),
            Leave::Taken(k, target) => (k, Some(Ok(Flow::Branch(target)))),
            Leave::Break(k, _) => (k, None),
        };
        let Some(x) = exit(k) else { return BlockRun::PerSlot };
        // Every exit through here ends its instruction group; an error leaves IP at the slot.
        self.retire(x.insns, x.nops, x.groups_before + 1);
        self.state.ip = x.ip;
        self.state.psr = self.state.psr.with_ri(x.slot);
        let event = match (flow, leave_imm) {
            (Some(flow), _) => self.conclude(flow, (x.ip, x.slot), x.next, x.ip, false),
            // Raised here, unboxed, as the per-slot step does.
            (None, imm) => {
                let int = Interruption::break_instruction(imm);
                let event = self.interrupt(&int, x.ip, x.slot, x.next);
                if event.is_ok() {
                    self.state.gr.set_bank(self.state.psr.bank());
                }
                event
            }
        };
        let event = match event {
            Ok(event) => event,
            Err(error) => return BlockRun::Error(RunError { error, executed: *executed + u64::from(x.insns) - 1 }),
        };
        *executed += u64::from(x.insns);
        let pc = self.state.ip | u64::from(self.state.psr.ri());
        if let Some(end) = Ran::after_step(event, x.ip | u64::from(x.slot), pc, stop, until_pc) {
            return BlockRun::End(end);
        }
        if k == last_op && matches!(event, StepEvent::Continue | StepEvent::Sentinel) {
            *hint = self.successor(index, pc, true);
        }
        BlockRun::Continue
    }

    /// The block at `pc` (bundle | slot), built on first use; `NONE` when none can start there.
    #[inline]
    fn block_at(&mut self, pc: u64) -> u32 {
        let stubs = &self.stubs;
        let model = self.timing.as_ref();
        self.blocks.at(&mut self.code, pc, |ip| stubs.as_ref().is_some_and(|t| t.borrow().is_entry(ip)), model)
    }

    /// Counts what a block run retired: slots, nops and (model off) ended groups.
    #[inline]
    fn retire(&mut self, slots: u32, nops: u32, groups: u32) {
        self.instructions += u64::from(slots);
        self.nops += u64::from(nops);
        if self.timing.is_none() {
            self.untimed_cycles += u64::from(groups);
            self.untimed_groups += u64::from(groups);
        }
    }

    /// The block at `pc` after block `index` fell through (`taken` false) or took its branch,
    /// from its cache or looked up and cached there.
    #[inline]
    fn successor(&mut self, index: usize, pc: u64, taken: bool) -> u32 {
        let cached = self.blocks.list.get(index).map(|b| {
            if taken {
                b.taken_next
            } else {
                (b.fall.0 | u64::from(b.fall.1), b.fall_next)
            }
        });
        if let Some((at, next)) = cached {
            if at == pc && next != NONE {
                return next;
            }
        }
        let next = self.block_at(pc);
        if let Some(b) = self.blocks.list.get_mut(index) {
            if taken {
                // Only a target with a block, and never the sentinel (see `Block::taken_next`).
                if next != NONE && pc != self.config.sentinel {
                    b.taken_next = (pc, next);
                }
            } else {
                b.fall_next = next;
            }
        }
        next
    }
}
