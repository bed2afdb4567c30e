//! Register and memory access for the semantic functions: the bank from the PSR, the
//! register stack through the CFM, data endianness from PSR.be, address translation (when the
//! harness enables it), and the faults each raises.

use super::interrupt::{illegal_operation, nat_consumption};
use super::tlb::data_address;
use super::{memory, Ctx, Trap};
use crate::state::fr::Fr;
use crate::state::psr::Psr;
use crate::state::tlb::Access;
use crate::state::State;
use emu_core::memory::{Endian, Memory};

/// Reads GR `r` with its NaT bit.
///
/// A stacked register outside the current frame reads as 0: its contents are undefined
/// architecturally (SDM vol. 1 section 4.1), and nothing the paths do depends on them.
pub(super) fn gr(st: &State, r: i64) -> (u64, bool) {
    st.gr.read_or_zero(r as u8)
}

/// Writes GR `r`; writing r0 or a stacked register outside the frame is an illegal operation.
pub(super) fn set_gr(st: &mut State, r: i64, value: u64, nat: bool) -> Result<(), Trap> {
    st.gr.write(r as u8, value, nat).map_err(|e| illegal_operation(&e.to_string()))
}

/// Reads GR `r` for a use that may not consume a NaT (addresses, moves to special registers).
pub(super) fn gr_no_nat(st: &State, r: i64, what: &str) -> Result<u64, Trap> {
    match gr(st, r) {
        (_, true) => Err(nat_consumption(&format!("r{r} used as {what}"))),
        (v, false) => Ok(v),
    }
}

/// Reads FR `f`.
pub(super) fn fr(st: &State, f: i64) -> Fr {
    st.fr.get(f as usize).copied().unwrap_or(Fr::ZERO)
}

/// Writes FR `f`; f0 and f1 are constants, so writing them is an illegal operation.
pub(super) fn set_fr(st: &mut State, f: i64, v: Fr) -> Result<(), Trap> {
    let f = f as usize;
    if f < 2 || f >= st.fr.len() {
        return Err(illegal_operation(&format!("write to f{f}")));
    }
    st.fr[f] = v;
    // PSR.mfl/mfh record that the low or high FR partition was modified.
    st.psr.insert(if f < 32 { Psr::MFL } else { Psr::MFH });
    Ok(())
}

/// Loads `size` bytes (1, 2, 4, 8) at `addr` in the data endianness of PSR.be, through the
/// memory's typed accesses (no byte buffer per access, issue 17).
pub(super) fn load(st: &State, mem: &Memory, ctx: &Ctx, addr: u64, size: u8) -> Result<u64, Trap> {
    let n = usize::from(size.min(8));
    let addr = data_address(st, ctx, addr, n, Access::Read)?;
    mem.read_sized_in(addr, n, data_order(st)).map_err(|f| memory(ctx, f))
}

/// Stores the low `size` bytes of `value` at `addr` in the data endianness of PSR.be, through
/// the memory's typed accesses.
pub(super) fn store(st: &State, mem: &mut Memory, ctx: &Ctx, addr: u64, size: u8, value: u64) -> Result<(), Trap> {
    let n = usize::from(size.min(8));
    let addr = data_address(st, ctx, addr, n, Access::Write)?;
    mem.write_sized_in(addr, n, value, data_order(st)).map_err(|f| memory(ctx, f))
}

/// The fast handlers' common case of a data read (issue 17): `size` bytes (1, 2, 4, 8) at a
/// naturally aligned, untranslated `addr` that reads, in PSR.be's byte order. `None` when it
/// does not apply (alignment then cannot fault whatever PSR.ac, and translation is the
/// identity), having changed nothing: the reference executor then runs the slot. Inlined
/// whole into the block and per-slot handlers: the memory's fast path is a few compares.
#[inline(always)]
pub(crate) fn read_plain(st: &State, mem: &Memory, addr: u64, size: u8) -> Option<u64> {
    if st.tlb.enabled || addr & (u64::from(size) - 1) != 0 {
        return None;
    }
    mem.read_sized_in(addr, plain_size(size), data_order(st)).ok()
}

/// The fast handlers' common case of a data write (issue 17): the low `size` bytes of `value`
/// to a naturally aligned, untranslated, writable `addr`, in PSR.be's byte order; the ALAT
/// entries it overlaps go. `false` when it does not apply or faults, having changed nothing.
#[inline(always)]
pub(crate) fn write_plain(st: &mut State, mem: &mut Memory, addr: u64, size: u8, value: u64) -> bool {
    if st.tlb.enabled || addr & (u64::from(size) - 1) != 0 {
        return false;
    }
    if mem.write_sized_in(addr, plain_size(size), value, data_order(st)).is_err() {
        return false;
    }
    // Most paths run with an empty ALAT: nothing to invalidate then.
    if !st.alat.entries().is_empty() {
        st.alat.invalidate_overlap(addr, u64::from(size));
    }
    true
}

/// The bytes a plain access of `size` moves: 1, 2 or 4, else 8.
#[inline(always)]
fn plain_size(size: u8) -> usize {
    match size {
        1 => 1,
        2 => 2,
        4 => 4,
        _ => 8,
    }
}

/// The data byte order PSR.be selects (SDM vol. 2 section 3.3.2).
#[inline(always)]
fn data_order(st: &State) -> Endian {
    if st.psr.contains(Psr::BE) {
        Endian::Big
    } else {
        Endian::Little
    }
}

/// Reads raw bytes (FP images) at `addr`.
pub(super) fn load_bytes(st: &State, mem: &Memory, ctx: &Ctx, addr: u64, out: &mut [u8]) -> Result<(), Trap> {
    let addr = data_address(st, ctx, addr, out.len(), Access::Read)?;
    mem.read_bytes(addr, out).map_err(|f| memory(ctx, f))
}

/// Writes raw bytes (FP images) at `addr`.
pub(super) fn store_bytes(st: &State, mem: &mut Memory, ctx: &Ctx, addr: u64, bytes: &[u8]) -> Result<(), Trap> {
    let addr = data_address(st, ctx, addr, bytes.len(), Access::Write)?;
    mem.write_bytes(addr, bytes).map_err(|f| memory(ctx, f))
}
