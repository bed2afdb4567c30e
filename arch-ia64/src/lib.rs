//! IA-64 (Itanium) support for acctemu: the instruction table, an assembler bit-exact with
//! GNU as 2.40 in explicit-stop mode, and a decoder/formatter matching
//! `ia64-linux-gnu-objdump -d`.
//!
//! Sources: Intel Itanium Architecture Software Developer's Manual rev. 2.3 (vol. 3 ch. 4
//! for formats), and the checked facts in `shared/reference/ia64-encoding.md` and
//! `gas-ia64-bundling.md`.

pub mod asm;
pub mod asm_offsets;
// The fast engine (issue 17).
pub mod block;
pub mod bundle;
mod code;
pub mod cpu;
pub mod decode;
pub mod disasm;
pub mod elf;
pub mod encode;
pub mod exec;
pub mod format;
pub mod fpu;
// Kernel exception-table fixups for the library routines (issue 14, i14-lib).
pub mod kernel_extable;
pub mod link;
// Kernel harness (issue 14).
pub mod kernel;
pub mod kernel_c; // the kernel's accounting C as stubs (issue 14, i14-acct)
pub mod object_relocs;
pub mod profile;
pub mod regs;
pub mod reloc;
pub mod res;
pub mod run;
pub mod scenario;
pub mod snapshot;
pub mod state;
pub mod stub_call;
pub mod table;
pub mod timing;
