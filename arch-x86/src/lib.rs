//! x86-64 support for acctemu: a simplified core that runs the integer subset gcc -O2
//! emits for kernel-style C, loaded from ELF objects, with a documented timing model.
//!
//! - [`reloc`]: x86-64 relocation rules for [`emu_core::elf::load`].
//! - [`decode`]: iced-x86 decoding, once per image, into compact own records.
//! - [`optable`]: one row per supported mnemonic: operation, semantics family, operand size
//!   and timing class rule, read by the decoder, the executor and the timing model.
//! - [`state`]: registers, RFLAGS and the TSC's offset.
//! - [`exec`]: the semantics of each operation family, RFLAGS exact.
//! - [`cpu`]: [`cpu::X86Cpu`], the core as the machine loop sees it.
//! - [`block`]: the block engine `Cpu::run_until` runs: pre-decoded blocks with specialised
//!   handlers and timing issue records (issue 17).
//! - [`snapshot`]: the state as an ordered snapshot.
//! - [`run`]: loading and running a function under the SysV ABI (`acctemu run`).
//! - [`timing`]: the cycle model.

pub mod block;
pub mod cpu;
pub mod decode;
pub mod exec;
pub mod insn;
pub mod optable;
pub mod reloc;
pub mod run;
pub mod scenario;
pub mod snapshot;
pub mod state;
pub mod timing;
