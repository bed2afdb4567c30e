//! The user program a path starts from and returns to: a frame of stacked registers holding
//! known values (so the round trip's preservation of the user's register stack shows), then
//! an endless loop entering the kernel through one entry kind. The driver
//! ([`super::paths`]) counts returns to the user text and stops after the N-th.
//!
//! The entry sequences follow what user code does (reference `linux-ia64-paths.md` section
//! 7): `break 0x100000` with r15 = the number (code outside libc, or no AT_SYSINFO), and
//! glibc's `br.call b6=b7` to AT_SYSINFO = `__kernel_syscall_via_epc` with ar.pfs saved in
//! r11. With no calls the program only spins: the interval timer interrupts it.
//!
//! The program is assembled by acctemu and loaded at [`super::layout::USER_TEXT`]; it has
//! no relocations (the gate's address is an immediate), so it runs wherever it is loaded.

use crate::asm::assemble;
use emu_core::error::Diagnostics;
use emu_core::preprocess::{MemLoader, PreprocessOptions};

/// One system call of the user program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserEntry {
    /// `break 0x100000` with r15 = `nr`.
    Break {
        /// System-call number.
        nr: u64,
        /// out0.. (at most 8).
        args: Vec<u64>,
    },
    /// `br.call b6=b7`, b7 = the gate's `__kernel_syscall_via_epc` at `gate_entry`.
    Epc {
        /// System-call number.
        nr: u64,
        /// out0.. (at most 8).
        args: Vec<u64>,
        /// Address of `__kernel_syscall_via_epc`.
        gate_entry: u64,
    },
}

/// Values of the user's stacked registers r32-r39 before the first entry: distinct, with
/// no NaT, so a corrupted or reordered frame shows in the snapshot.
pub const USER_LOCALS: [u64; 8] = [
    0x1111_0000_0000_0032,
    0x1111_0000_0000_0033,
    0x1111_0000_0000_0034,
    0x1111_0000_0000_0035,
    0x1111_0000_0000_0036,
    0x1111_0000_0000_0037,
    0x1111_0000_0000_0038,
    0x1111_0000_0000_0039,
];

/// The assembly text of the user program: `calls` in order, over and over; with no calls,
/// a spin loop (for the timer to interrupt).
pub fn source(calls: &[UserEntry]) -> String {
    let mut s = String::from("\t.text\n\t.global user_main\n\t.proc user_main\nuser_main:\n");
    // 8 locals (and ar.pfs in r40), 8 outputs: the frame the kernel must give back intact.
    s.push_str("\talloc r40=ar.pfs,0,9,8,0\n\t;;\n");
    for (i, v) in USER_LOCALS.iter().enumerate() {
        s.push_str(&format!("\tmovl r{}={v:#x}\n\t;;\n", 32 + i));
    }
    let args = |s: &mut String, nr: u64, args: &[u64]| {
        s.push_str(&format!("\tmovl r15={nr}\n\t;;\n"));
        for (i, a) in args.iter().take(8).enumerate() {
            s.push_str(&format!("\tmovl r{}={a:#x}\n\t;;\n", 41 + i));
        }
    };
    s.push_str(".Lagain:\n");
    if calls.is_empty() {
        s.push_str("\tadds r39=1,r39\n\t;;\n");
    }
    for call in calls {
        match call {
            UserEntry::Break { nr, args: a } => {
                args(&mut s, *nr, a);
                s.push_str("\tbreak.m 0x100000\n\t;;\n");
            }
            UserEntry::Epc { nr, args: a, gate_entry } => {
                s.push_str(&format!("\tmovl r14={gate_entry:#x}\n\t;;\n\tmov b7=r14\n\t;;\n"));
                args(&mut s, *nr, a);
                s.push_str("\tmov r11=ar.pfs\n\t;;\n\tbr.call.sptk.many b6=b7\n\t;;\n\tmov ar.pfs=r11\n\t;;\n");
            }
        }
    }
    s.push_str("\tbr.cond.sptk.many .Lagain\n\t;;\n\t.endp user_main\n");
    s
}

/// The user program's code bytes (one `.text` section, no relocations).
///
/// # Errors
/// The generated text does not assemble (a bug here, reported with its lines).
pub fn assemble_program(calls: &[UserEntry]) -> Result<Vec<u8>, Diagnostics> {
    let text = source(calls);
    let asm = assemble("<user program>.s", &text, &PreprocessOptions::new(), &MemLoader::new())?;
    Ok(asm.object.iter().find(|s| s.name == ".text").map(|s| s.data.clone()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_program_assembles() {
        let b = UserEntry::Break { nr: 1041, args: vec![] };
        let e = UserEntry::Epc { nr: 1057, args: vec![0], gate_entry: 0xa000_0000_0004_0000 };
        for e in [vec![b.clone()], vec![e.clone()], vec![], vec![b, e]] {
            let code = assemble_program(&e).unwrap();
            assert!(!code.is_empty() && code.len().is_multiple_of(16), "{e:?}");
        }
    }
}
