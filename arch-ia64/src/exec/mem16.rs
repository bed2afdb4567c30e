//! The 16-byte accesses with ar.csd (SDM vol. 3 ld, st, cmpxchg "sixteen_byte_form"):
//! `ld16` puts the 8 bytes at the address into r1 and the next 8 into ar.csd, `st16` stores
//! r2 and then ar.csd, `cmp8xchg16` compares the 8 bytes at r3 with ar.ccv and, when equal,
//! stores r2 at `r3 & !8` and ar.csd at `(r3 & !8) + 8`. ld16/st16 must be 16-byte aligned
//! and cmp8xchg16 8-byte aligned whatever PSR.ac (Unaligned Data Reference otherwise).

use super::access::{gr, gr_no_nat, load, set_gr, store};
use super::interrupt::{nat_consumption, unaligned_reference, DataRef};
use super::op::Op;
use super::predecode::Exec;
use super::{unimplemented, Ctx, ExecResult, Flow, Trap};
use crate::state::psr::Psr;
use crate::state::State;
use emu_core::memory::Memory;

/// ar.csd.
const CSD: usize = crate::regs::ar::CSD as usize;

/// The architecture's fixed alignment of a 16-byte form (independent of PSR.ac).
fn aligned(addr: u64, size: u8, what: &str, read: bool, write: bool) -> Result<(), Trap> {
    if addr & (u64::from(size) - 1) == 0 {
        return Ok(());
    }
    Err(unaligned_reference(what, size, DataRef { addr, read, write }))
}

/// The data register `r` of a store; a NaT there is a Register NaT Consumption fault.
fn store_data(st: &State, r: i64) -> Result<u64, Trap> {
    let (value, nat) = gr(st, r);
    if nat {
        return Err(nat_consumption(&format!("r{r} stored")));
    }
    Ok(value)
}

/// The 16-byte store both st16 and cmp8xchg16 end with: `value` at `addr`, ar.csd at
/// `addr + 8`, and the ALAT entries overlapping the 16 bytes dropped.
fn store_with_csd(st: &mut State, mem: &mut Memory, ctx: &Ctx, addr: u64, value: u64) -> Result<(), Trap> {
    store(st, mem, ctx, addr, 8, value)?;
    store(st, mem, ctx, addr.wrapping_add(8), 8, st.ar[CSD])?;
    super::alat::invalidate(st, addr, 16);
    Ok(())
}

/// Executes ld16, st16 or cmp8xchg16.
pub(super) fn execute(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    // Which half goes where in big-endian mode is not modelled.
    if st.psr.contains(Psr::BE) {
        return Err(unimplemented(ctx, "16-byte access with PSR.be = 1"));
    }
    match e.op {
        Op::Load16 => {
            let addr = gr_no_nat(st, o[2], "load address")?;
            aligned(addr, 16, "ld16", true, false)?;
            let lo = load(st, mem, ctx, addr, 8)?;
            let hi = load(st, mem, ctx, addr.wrapping_add(8), 8)?;
            set_gr(st, o[0], lo, false)?;
            st.ar[CSD] = hi;
        }
        Op::Store16 => {
            let addr = gr_no_nat(st, o[0], "store address")?;
            let value = store_data(st, o[1])?;
            aligned(addr, 16, "st16", false, true)?;
            store_with_csd(st, mem, ctx, addr, value)?;
        }
        Op::Cmp8xchg16 => {
            let addr = gr_no_nat(st, o[1], "semaphore address")?;
            let value = store_data(st, o[2])?;
            aligned(addr, 8, "cmp8xchg16", true, true)?;
            let old = load(st, mem, ctx, addr, 8)?;
            if old == st.ar[super::super::state::ar::CCV as usize] {
                store_with_csd(st, mem, ctx, addr & !8, value)?;
            }
            set_gr(st, o[0], old, false)?;
        }
        _ => {}
    }
    Ok(Flow::Next)
}
