//! The model-off block chain (issue 17, w9-iuntimed): block after block through their cached
//! successors with the least work between two blocks. A block's two chained exits (its
//! fall-through and its last operation's taken branch) retire precomputed constants
//! ([`crate::block::Block::through`], [`crate::block::Block::branch`]) and go to a cached
//! successor; every other exit, and a successor not yet cached, takes the general exit
//! handling ([`Ia64Cpu::next_block`]), which does what the per-slot step does.
//!
//! Exactness: as [`Ia64Cpu::run_block`]'s chain; the end label is compared as a plain
//! address (`u64::MAX` for none: no slot address ends in 0xF), and a cached taken target is
//! never the sentinel, so reaching it is the `Continue` event.

use super::{generic_op, nullified_at, BlockRun, Leave};
use crate::block::{run_op_at, Block, Kind, Out, NONE};
use crate::cpu::{CpuConfig, Ia64Cpu};
use crate::state::State;
use emu_core::cpu::{RanEnd, StopWhen};
use emu_core::memory::Memory;

/// How a block's operations ended, model off: through its end, by its last operation's
/// specialised branch (the two exits the chain takes itself), or otherwise (the exit left in
/// the runner's `slow`, so this stays two words the chain tests in registers).
enum Done {
    End,
    Taken(u64),
    Slow,
}

/// A block's operations with the model off (`PREDICATED`: whether any has a qualifying
/// predicate to test; `cycles`: the untimed cycle count, which stays that of the block's
/// entry while it runs, for the ITC a reference-executor slot reads). The loop touches only
/// the operations; what the reference executor needs (records, exits) is read off the hot
/// path.
#[inline(always)]
fn run_ops<const PREDICATED: bool>(
    st: &mut State,
    mem: &mut Memory,
    b: &Block,
    cycles: &u64,
    config: &CpuConfig,
    slow: &mut Leave,
) -> Done {
    for op in &b.ops {
        if PREDICATED && op.qp != 0 && !st.p(op.qp) {
            if op.kind == Kind::Generic {
                nullified_at(st, b, usize::from(op.index));
            }
            continue;
        }
        match run_op_at(&op.kind, st, mem) {
            Out::Next => {}
            // Only a branch gives `Taken`, and a block ends at its first branch.
            Out::Taken(target) => return Done::Taken(target),
            Out::Break(imm) => {
                *slow = Leave::Break(usize::from(op.index), imm);
                return Done::Slow;
            }
            Out::Generic => {
                let k = usize::from(op.index);
                if let Some(leave) = generic_op(st, mem, b, k, |x| *cycles + u64::from(x.groups_before), config) {
                    *slow = leave;
                    return Done::Slow;
                }
            }
        }
    }
    Done::End
}

impl Ia64Cpu {
    /// [`Ia64Cpu::run_block`] with the model off, from block `index`. IP and PSR.ri are
    /// written when the chain stops or takes the general exit handling, not between two
    /// blocks: nothing a block's operations do reads them (a reference-executor slot sets
    /// them for itself). Not inlined into [`Ia64Cpu::run_block`]: the chain's loop gets the
    /// host registers to itself (a call per chain, not per block).
    #[inline(never)]
    pub(super) fn run_untimed(
        &mut self,
        mut index: u32,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
        executed: &mut u64,
        hint: &mut u32,
    ) -> BlockRun {
        let until = until_pc.unwrap_or(u64::MAX);
        // Once a block has run, the caller's loop must check the budget before a per-slot step.
        let mut ran = false;
        // Where the chain is when IP and PSR.ri do not say it yet (`u64::MAX`: they do).
        let mut parked = u64::MAX;
        // A block's exit when it is not one the chain takes itself.
        let mut slow = Leave::End;
        let idle = |cpu: &mut Ia64Cpu, ran: bool, parked: u64| {
            cpu.park(parked);
            if ran {
                BlockRun::Continue
            } else {
                BlockRun::PerSlot
            }
        };
        loop {
            let i = index as usize;
            // The block stays borrowed from the run of its operations to its exit's counts
            // (one lookup a block).
            let Ia64Cpu { state: st, blocks, config, untimed_cycles, instructions, nops, untimed_groups, .. } = self;
            let Some(b) = blocks.list.get_mut(i) else { return idle(self, ran, parked) };
            if !b.runs_within(*executed, stop.max_insns, until) {
                return idle(self, ran, parked);
            }
            ran = true;
            b.resolve_for(&st.gr);
            let b = &*b;
            let done = if b.predicated {
                run_ops::<true>(st, mem, b, untimed_cycles, config, &mut slow)
            } else {
                run_ops::<false>(st, mem, b, untimed_cycles, config, &mut slow)
            };
            let (retired, pc, next) = match done {
                Done::End => (&b.through, b.fall.0 | u64::from(b.fall.1), b.fall_next),
                Done::Taken(target) if target == b.taken_next.0 => (&b.branch, target, b.taken_next.1),
                done => {
                    let leave = match done {
                        Done::Taken(target) => Leave::Taken(b.ops.len().wrapping_sub(1), target),
                        Done::End | Done::Slow => std::mem::replace(&mut slow, Leave::End),
                    };
                    self.park(parked);
                    parked = u64::MAX;
                    match self.next_block(i, leave, stop, until_pc, executed, hint) {
                        Ok(next) => {
                            index = next;
                            continue;
                        }
                        Err(BlockRun::PerSlot) => return BlockRun::Continue,
                        Err(run) => return run,
                    }
                }
            };
            *instructions += retired.slots;
            *nops += retired.nops;
            *untimed_cycles += retired.groups;
            *untimed_groups += retired.groups;
            *executed += retired.slots;
            parked = pc;
            if pc == until {
                self.park(pc);
                return BlockRun::End(RanEnd::Pc);
            }
            index = if next != NONE { next } else { self.successor(i, pc, false) };
        }
    }

    /// Sets IP and PSR.ri to `pc` (bundle | slot) unless it is `u64::MAX`.
    #[inline(always)]
    fn park(&mut self, pc: u64) {
        if pc != u64::MAX {
            self.state.ip = pc & !0xF;
            self.state.psr = self.state.psr.with_ri((pc & 0xF) as u8);
        }
    }
}
