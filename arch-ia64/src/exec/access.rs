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
use emu_core::memory::Memory;

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

/// Loads `size` bytes (1, 2, 4, 8) at `addr` in the data endianness of PSR.be.
pub(super) fn load(st: &State, mem: &Memory, ctx: &Ctx, addr: u64, size: u8) -> Result<u64, Trap> {
    let mut buf = [0u8; 8];
    let n = usize::from(size.min(8));
    let addr = data_address(st, ctx, addr, n, Access::Read)?;
    mem.read_bytes(addr, &mut buf[..n]).map_err(|f| memory(ctx, f))?;
    Ok(if st.psr.contains(Psr::BE) {
        buf[..n].iter().fold(0u64, |v, b| (v << 8) | u64::from(*b))
    } else {
        u64::from_le_bytes(buf)
    })
}

/// Stores the low `size` bytes of `value` at `addr` in the data endianness of PSR.be.
pub(super) fn store(st: &State, mem: &mut Memory, ctx: &Ctx, addr: u64, size: u8, value: u64) -> Result<(), Trap> {
    let n = usize::from(size.min(8));
    let addr = data_address(st, ctx, addr, n, Access::Write)?;
    let le = value.to_le_bytes();
    let mut buf = [0u8; 8];
    buf[..n].copy_from_slice(&le[..n]);
    if st.psr.contains(Psr::BE) {
        buf[..n].reverse();
    }
    mem.write_bytes(addr, &buf[..n]).map_err(|f| memory(ctx, f))
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
