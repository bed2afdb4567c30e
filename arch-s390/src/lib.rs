//! s390x support for acctemu: a simplified core that runs the integer subset gcc -O2
//! -march=z196 emits for kernel-style C plus the timer/PSW instructions of the kernel's
//! entry paths, loaded from big-endian ELF objects, with an out-of-order z13 timing model
//! (and z14/z15 presets).
//!
//! - [`reloc`]: s390x relocation rules for [`emu_core::elf::load`].
//! - [`optable`]: the own opcode table, operand shapes and privileged list.
//! - [`decode`]: capstone decoding, once per image, into compact own records.
//! - [`state`]: registers, PSW, CC, prefix, CPU timer and TOD bases.
//! - [`exec`]: the semantics of each operation family, CC exact.
//! - [`cpu`]: [`cpu::S390Cpu`], the core as the machine loop sees it.
//! - [`block`]: the block engine its `run_until` runs (issue 17).
//! - [`snapshot`]: the state as an ordered snapshot.
//! - [`run`]: loading and running a function under the s390x ELF ABI (`acctemu run`).
//! - [`scenario`]: the adapter that drives bound paths through a scenario.
//! - [`timing`]: the cycle model.

pub mod block;
pub mod cpu;
pub mod decode;
pub mod exec;
pub mod optable;
pub mod reloc;
pub mod run;
pub mod scenario;
pub mod snapshot;
pub mod state;
pub mod timing;
