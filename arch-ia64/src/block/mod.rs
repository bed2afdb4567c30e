//! The fast engine (issue 17): per-form handlers chosen once, when code is loaded, for the
//! instructions that make up most of the executed slots (integer ALU forms, plain loads and
//! stores), with their operands pre-extracted into a compact record ([`Fast`]), so a step runs
//! one small match arm instead of the reference executor's dispatch through [`crate::exec`].
//!
//! A handler covers only the common case of its form and declines (returns `None`, having
//! changed nothing) whenever anything unusual could happen: a NaT operand, an unaligned or
//! translated address, a memory fault, a target register that cannot be written. The CPU then
//! runs the reference executor on the same slot, which raises the fault or does the unusual
//! case exactly as before; so the fast engine can never differ from the reference one
//! (`tests/ia64_block_diff.rs` checks it on random programs, the corpus and every IA-64
//! catalogue scenario). [`Engine::Reference`] runs the reference executor for every slot.

//!
//! Blocks (issue 17, w7-iblock): `Ia64Cpu::run_until` goes block to block ([`build`]): the
//! straight-line slots from an entry to the first that can branch, nops removed, operands
//! resolved to physical registers for one renaming ([`op`]), successors cached by index
//! ([`cache`]), exits only at taken branches, faults and events (the CPU's block runner).

mod build;
mod cache;
mod fast;
mod op;

pub(crate) use build::{Block, Exit, TimedSlot, NONE};
pub(crate) use cache::Blocks;
pub(crate) use fast::{run, Fast};
pub(crate) use op::{run as run_op, run_at as run_op_at, Kind, Out};

/// Which executor a CPU uses for instruction semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The per-form handlers prepared at load time, falling back to the reference executor
    /// for everything else (the default).
    #[default]
    Fast,
    /// The reference interpreter only ([`crate::exec::execute`] for every slot): the oracle
    /// the fast engine is tested against.
    Reference,
}
