//! The harness's `ia64_handle_irq`: an assembly stand-in for `arch/ia64/kernel/irq_ia64.c`
//! (it reads and writes control registers, which a Rust stub cannot), assembled by acctemu
//! and linked with the kernel's objects.
//!
//! What it keeps of the C function (`irq_ia64.c` `ia64_handle_irq`): the loop over the
//! vectors cr.ivr hands out until the spurious vector 15, a `cr.eoi` write per vector, and
//! for the timer vector what `timer_interrupt` (`time.c`) does to the timer: cr.itm moves
//! one tick interval on from its last value (the interval is the 8-byte word at
//! [`TICK_INTERVAL_SYMBOL`], data the harness binds and writes, as the kernel keeps
//! `local_cpu_data->itm_delta`). The C the tick reaches besides (the accounting
//! of the tick, `account_process_tick` and the vtime functions) is the function
//! `timer_interrupt(irq, dev_id)` the stand-in calls, bound to a stub like every other C
//! function (its default binding returns IRQ_HANDLED at no cost). Not kept: the TPR raise
//! around the handler and `irq_enter`/`irq_exit` (no nested interrupt can arrive here: one
//! source, re-armed a tick later).

use crate::asm::{assemble, Assembly};
use emu_core::error::Diagnostics;
use emu_core::preprocess::{MemLoader, PreprocessOptions};

/// The undefined data symbol holding the tick interval in ITC ticks.
pub const TICK_INTERVAL_SYMBOL: &str = "acctemu_tick_interval";

/// The stand-in's source for timer vector `vector`.
pub fn source(vector: u64) -> String {
    format!(
        "\t.text\n\t.global ia64_handle_irq\n\t.proc ia64_handle_irq\nia64_handle_irq:\n\
         \t.prologue\n\t.save ar.pfs, r34\n\talloc r34=ar.pfs,2,3,2,0\n\t.save rp, r35\n\tmov r35=b0\n\t.body\n\
         \tmov r36=in0\n\t;;\n\
         .Lvector:\n\
         \tmovl r14={vector:#x}\n\t;;\n\
         \tcmp.ne p6,p7=r14,r36\n\t;;\n\
         (p7)\tmov r15=cr.itm\n\
         (p7)\tmovl r16={TICK_INTERVAL_SYMBOL}\n\t;;\n\
         (p7)\tld8 r16=[r16]\n\t;;\n\
         (p7)\tadd r15=r15,r16\n\t;;\n\
         (p7)\tmov cr.itm=r15\n\
         \tmov out0=r36\n\
         \tmov out1=r0\n\t;;\n\
         \tsrlz.d\n\
         (p7)\tbr.call.sptk.many b0=timer_interrupt\n\t;;\n\
         \tmov cr.eoi=r0\n\t;;\n\
         \tsrlz.d\n\t;;\n\
         \tmov r36=cr.ivr\n\t;;\n\
         \tsrlz.d\n\t;;\n\
         \tcmp.ne p6,p0=15,r36\n\
         (p6)\tbr.cond.sptk.few .Lvector\n\t;;\n\
         \tmov ar.pfs=r34\n\
         \tmov b0=r35\n\t;;\n\
         \tbr.ret.sptk.many b0\n\t;;\n\
         \t.endp ia64_handle_irq\n"
    )
}

/// The stand-in assembled (an object to link with the kernel's).
///
/// # Errors
/// The text does not assemble (a bug here, reported with its lines).
pub fn assemble_handler(vector: u64) -> Result<Assembly, Diagnostics> {
    let mut asm =
        assemble("<harness ia64_handle_irq>.s", &source(vector), &PreprocessOptions::new(), &MemLoader::new())?;
    asm.elf.e_flags |= crate::asm::object::EF_IA_64_CONS_GP;
    Ok(asm)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_handler_assembles_to_an_object() {
        let asm = super::assemble_handler(0xef).unwrap();
        assert!(asm.object_file().is_ok());
        assert!(asm.relocs.iter().any(|r| r.symbol == "timer_interrupt"));
        assert!(asm.relocs.iter().any(|r| r.symbol == super::TICK_INTERVAL_SYMBOL));
    }
}
