//! The block engine (issue 17): [`crate::cpu::S390Cpu`]'s [`emu_core::cpu::Cpu::run_until`]
//! runs straight-line blocks of pre-decoded instructions instead of one
//! [`emu_core::cpu::Cpu::step`] per instruction.
//!
//! A block is built the first time execution reaches its start address: the instructions
//! from there up to the first one that can leave the straight line (a branch, a call, SVC,
//! LPSWE, a privileged instruction, one that may raise a program interruption) other than an
//! unconditional relative branch or call, which the block follows (a trace), each with its
//! specialised handler ([`Fast`]) and its issue record for the timing model
//! ([`crate::timing::IssuePlan`]). Blocks remember up to two successors by exit address, so
//! a loop goes from block to block without a map lookup. The code is not self-modifying
//! (the loops, the traces and the test objects never store into their code), so blocks, like
//! the decoded instructions they come from, are never invalidated; a block decodes the
//! instructions after its first one before they run, which is only wrong for code written
//! after execution first reached it.
//!
//! The reference path ([`Engine::Steps`]: one `step` per instruction) stays selectable; the
//! differential test `tests/block_diff.rs` holds the two to the same registers, memory,
//! cycles, stall tables and timelines.

mod fast;
mod run;

pub(crate) use fast::Fast;

use std::collections::HashMap;

use emu_core::code_cache::InsnIndex;

use crate::timing::{BlockTiming, IssuePlan};

/// How [`emu_core::cpu::Cpu::run_until`] runs the s390x core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// Pre-decoded blocks with specialised handlers (the default).
    #[default]
    Blocks,
    /// The reference interpreter: one [`emu_core::cpu::Cpu::step`] per instruction.
    Steps,
}

/// The most instructions one block holds (a long straight line is split; the next block
/// starts where it stopped).
const MAX_BLOCK: usize = 64;

/// No block (an empty chain slot).
const NO_BLOCK: u32 = u32::MAX;

/// One pre-decoded instruction of a block.
#[derive(Debug, Clone)]
pub(crate) struct Rec {
    /// Its handler.
    fast: Fast,
    /// The decoded instruction (the generic path, error messages, timeline labels).
    insn: InsnIndex,
    /// Its address.
    addr: u64,
    /// The address after it.
    next: u64,
    /// Its length in bytes.
    len: u8,
    /// An unconditional branch the block goes on through ([`Rec::go_through`]).
    through: bool,
    /// Its issue record, when the core has a timing model.
    plan: Option<IssuePlan>,
}

/// A straight line of instructions.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// The lowest and highest addresses of the instructions after the first.
    lo: u64,
    hi: u64,
    recs: Vec<Rec>,
    /// The configured sentinel is the address of an instruction after the first: reaching it
    /// ends a run, so the block runs one step at a time.
    sentinel_inside: bool,
    /// Successors seen: exit address and block.
    chain: [(u64, u32); 2],
    /// Its timing per block, when the core has a model and no instruction of the block is
    /// costed or clocked per run ([`BlockTiming::new`]).
    timing: Option<BlockTiming>,
}

impl Block {
    /// Whether `pc` is the address of an instruction after the first.
    fn inside(&self, pc: u64) -> bool {
        (self.lo..=self.hi).contains(&pc)
    }
}

impl Rec {
    /// Makes this unconditional branch one the block goes on through to `target`, the next
    /// record: its handler does what the branch does but jump, and a run stopped after it
    /// goes on at `target`. Its issue record stays the taken branch's.
    fn go_through(&mut self, target: u64) {
        self.fast = self.fast.through();
        self.next = target;
        self.through = true;
    }
}

/// Every block built so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct Blocks {
    list: Vec<Block>,
    by_start: HashMap<u64, u32>,
}

impl Blocks {
    /// Blocks built so far.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Over every block timed per block: block runs timed in one step from an entry state
    /// seen before, and ones timed per instruction (first seen, or a partial run).
    pub(crate) fn timing_counts(&self) -> (u64, u64) {
        self.list.iter().filter_map(|b| b.timing.as_ref()).fold((0, 0), |(h, m), t| {
            let (hits, misses) = t.hits_misses();
            (h + u64::from(hits), m + u64::from(misses))
        })
    }
}
