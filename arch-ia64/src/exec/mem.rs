//! Loads, stores, FP memory moves and the atomic read-modify-write instructions (SDM vol. 3
//! ld, st, ldf, stf, xchg, cmpxchg, fetchadd; spill/fill NaT handling per
//! `reference/ia64-system.md` section 6). Memory is one coherent CPU's view: no caches, no
//! ordering effects; stores remove the ALAT entries they overlap (`alat.rs`).

use super::access::{fr, gr, gr_no_nat, load, load_bytes, set_fr, set_gr, store, store_bytes};
use super::interrupt::{nat_consumption, nat_consumption_non_access, unaligned_reference, DataRef, NON_ACCESS_LFETCH};
use super::op::{FpFormat, LoadKind, Op, Update};
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow, Trap};
use crate::state::ar;
use crate::state::fr::Fr;
use crate::state::psr::Psr;
use crate::state::State;
use emu_core::memory::Memory;

/// The UNAT bit that a spill or fill at `addr` uses (address bits 8:3).
fn unat_bit(addr: u64) -> u64 {
    1u64 << ((addr >> 3) & 63)
}

/// Checks the alignment of a data access of `size` bytes at `addr` (SDM vol. 1 section 4.5):
/// a semaphore must be naturally aligned whatever PSR.ac; any other access faults when
/// misaligned while PSR.ac is set. With PSR.ac clear an unaligned ordinary access is done in
/// full when it stays within one L1D line and faults when it crosses one (`unaligned.rs`).
pub(super) fn check_aligned(
    st: &State,
    addr: u64,
    size: u8,
    semaphore: bool,
    what: &str,
    rw: (bool, bool),
) -> Result<(), Trap> {
    // Every access size is a power of two.
    let aligned = addr & (u64::from(size.max(1)) - 1) == 0;
    // Without PSR.ac, Itanium 2 completes a misaligned access within one line (issue 12).
    let hardware = !(semaphore || st.psr.contains(Psr::AC)) && super::unaligned::handled_in_hardware(addr, size);
    if aligned || hardware {
        return Ok(());
    }
    Err(unaligned_reference(what, size, DataRef { addr, read: rw.0, write: rw.1 }))
}

/// Natural alignment of an FP memory format (extended and spill images: 16 bytes).
pub(super) fn fp_size(format: FpFormat) -> u8 {
    match format {
        FpFormat::Spill | FpFormat::Extended => 16,
        FpFormat::Integer | FpFormat::Double => 8,
        FpFormat::Single => 4,
    }
}

/// Reads and writes of a semaphore, for ISR.r and ISR.w.
const READ_WRITE: (bool, bool) = (true, true);
pub(super) const READ: (bool, bool) = (true, false);
const WRITE: (bool, bool) = (false, true);

/// Adds the post-increment to the base register `base_op` (operand index of `[r3]`).
pub(super) fn post_increment(st: &mut State, e: &Exec, base_op: usize, update: Update) -> Result<(), Trap> {
    let inc_op = base_op + if base_op == 0 { 2 } else { 1 };
    let (inc, inc_nat) = match update {
        Update::None => return Ok(()),
        Update::Reg => gr(st, e.ops[inc_op]),
        Update::Imm => (e.ops[inc_op] as u64, false),
    };
    let (base, base_nat) = gr(st, e.ops[base_op]);
    set_gr(st, e.ops[base_op], base.wrapping_add(inc), base_nat | inc_nat)
}

/// ldfps/ldfpd/ldfp8 (SDM vol. 3 ldfp pseudo-code), in its order: f1 and f2 in the same bank
/// (both odd or both even; FR rotation is not modelled, so the numbers are the physical ones)
/// and f0/f1 as a target are Illegal Operations, before the address is used; a NaT base is
/// Register NaT Consumption as for the other FP loads (whose `.s`/`.a`/`.c` types the executor
/// also runs as plain loads); the pair is one access of twice the element size, so the alignment
/// checked (under PSR.ac, as for ldf) is 8 bytes for ldfps and 16 for ldfpd/ldfp8. f1 gets the
/// value at the lower address, f2 the next one, each in the byte order of PSR.be; the M12 form
/// then adds the pair size to r3.
fn load_fp_pair(
    st: &mut State,
    mem: &Memory,
    e: &Exec,
    ctx: &Ctx,
    format: FpFormat,
    update: Update,
) -> Result<(), Trap> {
    let (f1, f2) = (e.ops[0], e.ops[1]);
    if (f1 ^ f2) & 1 == 0 {
        return Err(super::interrupt::illegal_operation(&format!("ldfp with f{f1} and f{f2} in the same bank")));
    }
    for f in [f1, f2] {
        if f < 2 {
            return Err(super::interrupt::illegal_operation(&format!("write to f{f}")));
        }
    }
    if update == Update::Imm {
        // check_target_register(r3) precedes the access: rewriting r3 with its own value
        // fails (r0, outside the frame) exactly when the update would.
        let (base, nat) = gr(st, e.ops[2]);
        set_gr(st, e.ops[2], base, nat)?;
    }
    let addr = gr_no_nat(st, e.ops[2], "load address")?;
    let elem = fp_size(format);
    check_aligned(st, addr, elem * 2, false, "FP load pair", READ)?;
    let lo = load_fr(st, mem, ctx, addr, format)?;
    let hi = load_fr(st, mem, ctx, addr.wrapping_add(u64::from(elem)), format)?;
    set_fr(st, f1, lo)?;
    set_fr(st, f2, hi)?;
    post_increment(st, e, 2, update)
}

/// The FP register value of one `format` element in memory at `addr` (ldf and ldfp).
pub(super) fn load_fr(st: &State, mem: &Memory, ctx: &Ctx, addr: u64, format: FpFormat) -> Result<Fr, Trap> {
    Ok(match format {
        FpFormat::Spill => {
            let mut b = [0u8; 16];
            load_bytes(st, mem, ctx, addr, &mut b)?;
            Fr::from_spill_image(b)
        }
        FpFormat::Extended => {
            let mut b = [0u8; 10];
            load_bytes(st, mem, ctx, addr, &mut b)?;
            Fr::from_extended_image(b)
        }
        FpFormat::Integer => Fr::integer(load(st, mem, ctx, addr, 8)?),
        FpFormat::Double => crate::fpu::memfmt::from_double(load(st, mem, ctx, addr, 8)?),
        FpFormat::Single => crate::fpu::memfmt::from_single(load(st, mem, ctx, addr, 4)? as u32),
    })
}

/// `lfetch` (SDM vol. 3 lfetch pseudo-code). With no caches the prefetch itself does nothing;
/// what remains architectural is, in order: the update forms' target check on r3 (r0 or outside
/// the frame is an Illegal Operation), for `.fault` with PSR.ed clear a NaT address (Register NaT
/// Consumption, ISR.na) and the translation a 1-byte load would make (an unmapped or unreadable
/// address stops as a load's does; alignment, and so PSR.ac, never matters for one byte), and
/// the base update, whose NaT is r3's, or'ed with r2's in the register form. The non-faulting
/// form never faults: a NaT or unreachable address only skips the prefetch.
fn lfetch(st: &mut State, mem: &Memory, e: &Exec, ctx: &Ctx, fault: bool, update: Update) -> Result<(), Trap> {
    let (addr, addr_nat) = gr(st, e.ops[0]);
    if update != Update::None {
        // check_target_register(r3): rewriting r3 with its own value fails exactly when the
        // update would, before anything else can fault.
        set_gr(st, e.ops[0], addr, addr_nat)?;
    }
    // PSR.ed suppresses the prefetch and its faults, so an OS can skip a faulting lfetch
    // (SDM vol. 3 lfetch description).
    if fault && !st.psr.contains(Psr::ED) {
        if addr_nat {
            return Err(nat_consumption_non_access(
                &format!("r{} as lfetch.fault address", e.ops[0]),
                NON_ACCESS_LFETCH,
            ));
        }
        // Its translation faults are those of a non-access reference (ISR.na, code 4).
        let pa = super::tlb::data_address_as(
            st,
            ctx,
            addr,
            1,
            crate::state::tlb::Access::Read,
            Some(super::tlb::non_access::LFETCH),
        )?;
        mem.read_bytes(pa, &mut [0u8; 1]).map_err(|f| super::memory(ctx, f))?;
    }
    match update {
        Update::None => Ok(()),
        Update::Reg => {
            let (inc, inc_nat) = gr(st, e.ops[1]);
            set_gr(st, e.ops[0], addr.wrapping_add(inc), addr_nat | inc_nat)
        }
        Update::Imm => set_gr(st, e.ops[0], addr.wrapping_add(e.ops[1] as u64), addr_nat),
    }
}

/// Executes a memory instruction.
pub(super) fn access(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::Load { size, kind, update, .. } => {
            let (addr, addr_nat) = gr(st, o[1]);
            // PSR.ed: a speculative load defers without accessing memory (issue 12).
            let ed = kind == LoadKind::Speculative && st.psr.contains(Psr::ED);
            let loaded = if addr_nat || ed {
                if kind == LoadKind::Speculative {
                    None
                } else {
                    return Err(nat_consumption(&format!("r{} as load address", o[1])));
                }
            } else {
                match check_aligned(st, addr, size, false, "load", READ).and_then(|()| load(st, mem, ctx, addr, size)) {
                    Ok(v) => Some(v),
                    // A speculative load defers its fault into the target's NaT bit.
                    Err(_) if kind == LoadKind::Speculative => None,
                    Err(t) => return Err(t),
                }
            };
            let (value, nat) = match (loaded, kind) {
                (None, _) => (0, true),
                (Some(v), LoadKind::Fill) => (v, st.ar[ar::UNAT as usize] & unat_bit(addr) != 0),
                (Some(v), _) => (v, false),
            };
            set_gr(st, o[0], value, nat)?;
            post_increment(st, e, 1, update)?;
        }
        Op::Store { size, spill, update, .. } => {
            let addr = gr_no_nat(st, o[0], "store address")?;
            let (value, nat) = gr(st, o[1]);
            if nat && !spill {
                return Err(nat_consumption(&format!("r{} stored", o[1])));
            }
            check_aligned(st, addr, size, false, "store", WRITE)?;
            store(st, mem, ctx, addr, size, value)?;
            st.alat.invalidate_overlap(addr, u64::from(size)); // ALAT (issue 12)
            if spill {
                let unat = &mut st.ar[ar::UNAT as usize];
                *unat = if nat { *unat | unat_bit(addr) } else { *unat & !unat_bit(addr) };
            }
            post_increment(st, e, 0, update)?;
        }
        Op::LoadFp { format, update } => {
            let addr = gr_no_nat(st, o[1], "load address")?;
            check_aligned(st, addr, fp_size(format), false, "FP load", READ)?;
            let value = load_fr(st, mem, ctx, addr, format)?;
            set_fr(st, o[0], value)?;
            post_increment(st, e, 1, update)?;
        }
        Op::LoadFpPair { format, update } => load_fp_pair(st, mem, e, ctx, format, update)?,
        Op::StoreFp { format, update } => {
            let addr = gr_no_nat(st, o[0], "store address")?;
            check_aligned(st, addr, fp_size(format), false, "FP store", WRITE)?;
            let f = fr(st, o[1]);
            // Only the spill form may store a NaTVal (SDM vol. 3 stf).
            if f == Fr::NATVAL && format != FpFormat::Spill {
                return Err(nat_consumption(&format!("NaTVal in f{} stored", o[1])));
            }
            match format {
                FpFormat::Spill => store_bytes(st, mem, ctx, addr, &f.spill_image())?,
                FpFormat::Extended => store_bytes(st, mem, ctx, addr, &f.extended_image())?,
                FpFormat::Integer => store(st, mem, ctx, addr, 8, f.sig)?,
                FpFormat::Double => store(st, mem, ctx, addr, 8, crate::fpu::memfmt::to_double(f))?,
                FpFormat::Single => store(st, mem, ctx, addr, 4, u64::from(crate::fpu::memfmt::to_single(f)))?,
            }
            st.alat.invalidate_overlap(addr, u64::from(fp_size(format))); // ALAT (issue 12)
            post_increment(st, e, 0, update)?;
        }
        Op::Lfetch { fault, update } => lfetch(st, mem, e, ctx, fault, update)?,
        Op::Xchg { size } => {
            let addr = gr_no_nat(st, o[1], "semaphore address")?;
            let (new, nat) = gr(st, o[2]);
            if nat {
                return Err(nat_consumption(&format!("r{} stored", o[2])));
            }
            // Register NaT consumption outranks the unaligned reference (SDM vol. 2 section 5.6).
            check_aligned(st, addr, size, true, "xchg", READ_WRITE)?;
            // A semaphore is checked for both rights at once (translation, issue 12).
            super::tlb::data_address(st, ctx, addr, usize::from(size), crate::state::tlb::Access::ReadWrite)?;
            let old = load(st, mem, ctx, addr, size)?;
            store(st, mem, ctx, addr, size, new)?;
            st.alat.invalidate_overlap(addr, u64::from(size)); // ALAT (issue 12)
            set_gr(st, o[0], old, false)?;
        }
        Op::Cmpxchg { size } => {
            let addr = gr_no_nat(st, o[1], "semaphore address")?;
            let (new, nat) = gr(st, o[2]);
            if nat {
                return Err(nat_consumption(&format!("r{} stored", o[2])));
            }
            // Register NaT consumption outranks the unaligned reference (SDM vol. 2 section 5.6).
            check_aligned(st, addr, size, true, "cmpxchg", READ_WRITE)?;
            // A semaphore is checked for both rights at once (translation, issue 12).
            super::tlb::data_address(st, ctx, addr, usize::from(size), crate::state::tlb::Access::ReadWrite)?;
            let old = load(st, mem, ctx, addr, size)?;
            // The zero-extended memory value is compared with all 64 bits of ar.ccv (SDM
            // vol. 3 cmpxchg), so a ccv with high bits set never matches a short operand.
            if old == st.ar[ar::CCV as usize] {
                store(st, mem, ctx, addr, size, new)?;
                st.alat.invalidate_overlap(addr, u64::from(size)); // ALAT (issue 12)
            }
            set_gr(st, o[0], old, false)?;
        }
        Op::Fetchadd { size } => {
            let addr = gr_no_nat(st, o[1], "semaphore address")?;
            check_aligned(st, addr, size, true, "fetchadd", READ_WRITE)?;
            // A semaphore is checked for both rights at once (translation, issue 12).
            super::tlb::data_address(st, ctx, addr, usize::from(size), crate::state::tlb::Access::ReadWrite)?;
            let old = load(st, mem, ctx, addr, size)?;
            store(st, mem, ctx, addr, size, old.wrapping_add(o[2] as u64))?;
            st.alat.invalidate_overlap(addr, u64::from(size)); // ALAT (issue 12)
            set_gr(st, o[0], old, false)?;
        }
        _ => {}
    }
    Ok(Flow::Next)
}
