//! The x86-64 block engine (issue 17): code decoded once into straight-line blocks of
//! pre-decoded records, each with a specialised handler ([`fast::Fast`]) and its timing model
//! issue record ([`crate::timing::IssueRec`]), chained to their successors, run by
//! [`crate::cpu::X86Cpu`]'s `Cpu::run_until` without leaving the CPU between instructions.
//!
//! A block starts where execution first reaches an address and runs to the first branch (jcc,
//! ret, indirect jmp and call; hlt and undecodable forms end one too), at most [`MAX_BLOCK`]
//! instructions, and never into the sentinel: a direct call or jmp is followed into its target,
//! and every other instruction but the last falls through to the next, so the stop rules
//! (sentinel, `until_pc`, budget) are checked at block exits, or inside the one block `until_pc`
//! falls in. Code is not self-modifying here (as for the decode cache it is
//! built on): a block, once built, is what runs at its address until new code is added.
//!
//! The per-step interpreter ([`crate::cpu::X86Cpu`]'s `step`) stays the reference:
//! [`Engine::Step`] selects it, and `arch-x86/tests/block_diff.rs` holds the two to identical
//! states, cycles, stall tables and timelines.

pub(crate) mod fast;
mod flags;
mod run;

use std::collections::HashMap;

use emu_core::code_cache::InsnIndex;

use crate::decode::{Insn, Op};
use crate::timing::{BlockTiming, IssueRec, X86Model};
use fast::Fast;

/// Which engine `Cpu::run_until` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// Pre-decoded blocks with specialised handlers (the default).
    #[default]
    Block,
    /// One `Cpu::step` per instruction: the reference interpreter.
    Step,
}

/// Instructions per block at most (compiled code rarely runs longer without a branch).
pub const MAX_BLOCK: usize = 64;

/// No block (an unresolved successor).
const NONE: u32 = u32::MAX;

/// One pre-decoded instruction.
#[derive(Debug, Clone)]
pub(crate) struct Rec {
    /// Specialised handler, or [`Fast::Generic`].
    pub(crate) fast: Fast,
    /// What the timing model needs of it.
    pub(crate) issue: IssueRec,
    /// The decoded instruction (for the executor, timelines and error messages).
    pub(crate) insn: InsnIndex,
    /// Address of the next instruction.
    pub(crate) next: u64,
    /// Counted as a nop by the CPU (nop, endbr64, pause).
    pub(crate) nop: bool,
    /// Counted as a nop by the timing model (the nop class: nop, endbr64).
    pub(crate) class_nop: bool,
    /// rdtsc/rdtscp: issued before it executes (its result is the issue cycle).
    pub(crate) clock: bool,
    /// Its status flags are dead when its whole block runs ([`flags`]).
    pub(crate) flags_dead: bool,
}

impl Rec {
    fn new(i: &Insn, index: InsnIndex, model: Option<&X86Model>) -> Rec {
        Rec {
            fast: Fast::of(i),
            issue: IssueRec::new(model, i.addr, i.class, &i.srcs, &i.dsts),
            class_nop: i.class == crate::timing::TimingClass::Nop,
            insn: index,
            next: i.next(),
            nop: matches!(i.op, Op::Nop | Op::Endbr64 | Op::Pause),
            clock: matches!(i.op, Op::Rdtsc | Op::Rdtscp),
            flags_dead: false,
        }
    }
}

/// A straight-line run of records.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// First record in [`Blocks::recs`].
    pub(crate) first: u32,
    /// Records.
    pub(crate) len: u32,
    /// The lowest and highest instruction addresses in it (a followed call or jmp may go
    /// backwards), bounding where `until_pc` can fall inside it.
    pub(crate) lo: u64,
    pub(crate) hi: u64,
    /// The block after falling through the last instruction, once known.
    pub(crate) fall: u32,
    /// Records counted as nops by the CPU, and by the timing model.
    pub(crate) nops: u32,
    pub(crate) class_nops: u32,
    /// The block a taken jump led to last time, and that jump's target (ret and indirect jumps
    /// change target; direct ones keep it).
    pub(crate) jump: (u64, u32),
    /// Its timing as a whole, for a block of register-only forms under a model
    /// ([`crate::timing::BlockTiming`]).
    pub(crate) timing: Option<Box<BlockTiming>>,
}

/// Every block built so far, by start address.
#[derive(Debug, Clone, Default)]
pub(crate) struct Blocks {
    pub(crate) recs: Vec<Rec>,
    pub(crate) blocks: Vec<Block>,
    by_addr: HashMap<u64, u32>,
}

/// Whether an instruction ends a block: it may transfer control or stop.
fn ends_block(i: &Insn) -> bool {
    matches!(i.op, Op::Jcc | Op::Jmp | Op::Call | Op::Ret | Op::Hlt | Op::Unsupported)
}

impl Blocks {
    /// Forgets every block (new code was added).
    pub(crate) fn clear(&mut self) {
        self.recs.clear();
        self.blocks.clear();
        self.by_addr.clear();
    }

    /// The block starting at `addr`, if built.
    #[inline]
    pub(crate) fn find(&self, addr: u64) -> Option<u32> {
        self.by_addr.get(&addr).copied()
    }

    /// Builds the block at `addr` from the instructions `fetch` gives (its index in the decode
    /// cache and the record); `fetch` fails only for the first instruction's error to count,
    /// later failures just end the block before them. `sentinel`: no instruction falls through to
    /// it inside a block.
    pub(crate) fn build<E>(
        &mut self,
        addr: u64,
        sentinel: u64,
        model: Option<&X86Model>,
        mut fetch: impl FnMut(u64) -> Result<(InsnIndex, Rec, bool), E>,
    ) -> Result<u32, E> {
        let first = self.recs.len() as u32;
        let mut at = addr;
        let (mut lo, mut hi) = (addr, addr);
        loop {
            let (index, rec, ends) = match fetch(at) {
                Ok(got) => got,
                Err(e) if at == addr => return Err(e),
                Err(_) => break,
            };
            debug_assert_eq!(rec.insn, index);
            let next = rec.next;
            // A direct call or jmp is followed into its target (the block goes on there), unless
            // the target is the sentinel or already in this block.
            let follow = match rec.fast {
                Fast::Call { target, .. } | Fast::Jmp { target } => Some(target),
                _ => None,
            };
            lo = lo.min(at);
            hi = hi.max(at);
            self.recs.push(rec);
            let built = self.recs.get(first as usize..).unwrap_or(&[]);
            if built.len() >= MAX_BLOCK {
                break;
            }
            at = match (ends, follow) {
                (true, Some(t)) if t != sentinel && !built.iter().any(|r| r.issue.addr == t) => t,
                (true, _) => break,
                (false, _) if next == sentinel || next <= at => break,
                (false, _) => next,
            };
        }
        let id = self.blocks.len() as u32;
        let len = self.recs.len() as u32 - first;
        flags::mark_dead_flags(self.recs.get_mut(first as usize..).unwrap_or(&mut []));
        let recs = self.recs.get(first as usize..).unwrap_or(&[]);
        let nops = recs.iter().filter(|r| r.nop).count() as u32;
        let class_nops = recs.iter().filter(|r| r.class_nop).count() as u32;
        let timing = match model {
            Some(m) if recs.iter().all(|r| r.fast.registers_only()) => {
                m.plan_block(&recs.iter().map(|r| r.issue).collect::<Vec<_>>()).map(Box::new)
            }
            _ => None,
        };
        self.blocks.push(Block { first, len, lo, hi, nops, class_nops, fall: NONE, jump: (0, NONE), timing });
        self.by_addr.insert(addr, id);
        Ok(id)
    }
}

/// A record of the instruction `i` (at `index` in the decode cache) for `model`'s parameters,
/// and whether it ends its block.
pub(crate) fn record(i: &Insn, index: InsnIndex, model: Option<&X86Model>) -> (InsnIndex, Rec, bool) {
    (index, Rec::new(i, index, model), ends_block(i))
}
