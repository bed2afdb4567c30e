//! Advanced and speculative loads, their checks and the ALAT instructions (SDM vol. 1
//! section 4.4.5, vol. 3 ld/ldf/chk/invala): `ld.a`/`ld.sa`/`ldf.a`/`ldf.sa` allocate an entry
//! for their target register, check loads (`.c.nc`, `.c.clr`, `.c.clr.acq`) reload only when
//! the entry is missing, `chk.a` branches to recovery code on a miss, stores and semaphores
//! remove the entries they overlap (`invalidate`), `invala`/`invala.e` remove entries.
//!
//! Modelled limits: entries are removed only by those instructions and by capacity; a write to
//! a tagged register by another instruction does not remove its entry (SDM vol. 1 4.4.5.3
//! leaves that to software), nor do RSE spills or context switches (no other CPU exists).

use super::access::{gr, set_fr, set_gr};
use super::interrupt::nat_consumption;
use super::mem::{check_aligned, fp_size, load_fr, post_increment, READ};
use super::op::{AlatLoad, FpFormat, Op};
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow, Trap};
use crate::state::alat::AlatReg;
use crate::state::fr::Fr;
use crate::state::psr::Psr;
use crate::state::State;
use emu_core::memory::Memory;

/// Removes the ALAT entries a store of `size` bytes at `addr` overlaps.
pub(super) fn invalidate(st: &mut State, addr: u64, size: u64) {
    st.alat.invalidate_overlap(addr, size);
}

/// The ALAT tag of GR `r`: its physical register, so renamed stacked registers differ.
fn gr_tag(st: &State, r: i64) -> AlatReg {
    AlatReg::Gr(st.gr.res(r as u8))
}

/// The bytes an FP load of `format` reads (the overlap an entry covers).
fn fp_bytes(format: FpFormat) -> u8 {
    match format {
        FpFormat::Extended => 10,
        other => fp_size(other),
    }
}

/// Whether `kind` defers faults into the target (speculative).
fn speculative(kind: AlatLoad) -> bool {
    matches!(kind, AlatLoad::Speculative | AlatLoad::SpecAdvanced)
}

/// Whether a check load finds its entry: then nothing is loaded (and `.clr` removes it).
fn check_hit(st: &mut State, kind: AlatLoad, tag: AlatReg) -> bool {
    let hit = matches!(kind, AlatLoad::CheckClear | AlatLoad::CheckNoClear) && st.alat.hit(tag);
    if hit && kind == AlatLoad::CheckClear {
        st.alat.remove(tag);
    }
    hit
}

/// After the load: `.a`, an undeferred `.sa` and a missing `.c.nc` allocate; a deferred
/// `.sa` leaves the register without an entry.
fn after_load(st: &mut State, kind: AlatLoad, tag: AlatReg, addr: u64, size: u8, deferred: bool) {
    match kind {
        AlatLoad::Advanced | AlatLoad::CheckNoClear => st.alat.allocate(tag, addr, size),
        AlatLoad::SpecAdvanced if !deferred => st.alat.allocate(tag, addr, size),
        AlatLoad::SpecAdvanced => st.alat.remove(tag),
        AlatLoad::Speculative | AlatLoad::CheckClear => {}
    }
}

/// Executes an ALAT or speculative-FP operation.
pub(super) fn execute(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::LoadAlat { size, kind, update } => {
            let tag = gr_tag(st, o[0]);
            if !check_hit(st, kind, tag) {
                let (addr, addr_nat) = gr(st, o[1]);
                let loaded = load_int(st, mem, ctx, addr, addr_nat, size, kind, o[1])?;
                set_gr(st, o[0], loaded.unwrap_or(0), loaded.is_none())?;
                // The tag is taken after the write: the target is the same physical register.
                after_load(st, kind, gr_tag(st, o[0]), addr, size, loaded.is_none());
            }
            post_increment(st, e, 1, update)?;
        }
        Op::LoadFpAlat { format, kind, update } => {
            let tag = AlatReg::Fr(o[0] as u8);
            if !check_hit(st, kind, tag) {
                let (addr, addr_nat) = gr(st, o[1]);
                let ed = speculative(kind) && st.psr.contains(Psr::ED);
                let loaded = if addr_nat || ed {
                    if !speculative(kind) {
                        return Err(nat_consumption(&format!("r{} as load address", o[1])));
                    }
                    None
                } else {
                    match check_aligned(st, addr, fp_size(format), false, "FP load", READ)
                        .and_then(|()| load_fr(st, mem, ctx, addr, format))
                    {
                        Ok(v) => Some(v),
                        Err(_) if speculative(kind) => None,
                        Err(t) => return Err(t),
                    }
                };
                // A deferred FP fault is the NaTVal (SDM vol. 1 section 5.1.2).
                set_fr(st, o[0], loaded.unwrap_or(Fr::NATVAL))?;
                after_load(st, kind, tag, addr, fp_bytes(format), loaded.is_none());
            }
            post_increment(st, e, 1, update)?;
        }
        Op::ChkA { fp, clr } => {
            let tag = if fp { AlatReg::Fr(o[0] as u8) } else { gr_tag(st, o[0]) };
            if !st.alat.hit(tag) {
                return Ok(Flow::Branch(o[1] as u64));
            }
            if clr {
                st.alat.remove(tag);
            }
        }
        Op::Invala => st.alat.clear(),
        Op::InvalaE { fp } => {
            let tag = if fp { AlatReg::Fr(o[0] as u8) } else { gr_tag(st, o[0]) };
            st.alat.remove(tag);
        }
        _ => {}
    }
    Ok(Flow::Next)
}

/// The integer load of an advanced or check load: `None` when a `.sa` defers its fault (a NaT
/// address or a failing access); a non-speculative load takes the fault.
#[allow(clippy::too_many_arguments)] // the operands of one load
fn load_int(
    st: &State,
    mem: &Memory,
    ctx: &Ctx,
    addr: u64,
    addr_nat: bool,
    size: u8,
    kind: AlatLoad,
    base: i64,
) -> Result<Option<u64>, Trap> {
    // PSR.ed makes a speculative load defer without accessing memory (SDM vol. 2, PSR.ed).
    if addr_nat || (speculative(kind) && st.psr.contains(Psr::ED)) {
        if speculative(kind) {
            return Ok(None);
        }
        return Err(nat_consumption(&format!("r{base} as load address")));
    }
    match check_aligned(st, addr, size, false, "load", READ)
        .and_then(|()| super::access::load(st, mem, ctx, addr, size))
    {
        Ok(v) => Ok(Some(v)),
        Err(_) if speculative(kind) => Ok(None),
        Err(t) => Err(t),
    }
}
