//! Running the system forms' handlers chosen at predecode ([`Special`], `special.rs`;
//! issue 17, w7-isys): each does the common case of its form and declines (returns `None`,
//! having changed nothing) whenever anything unusual could happen, so that the executor
//! runs the generic semantics instead.

use super::access::{read_plain, write_plain};
use super::alu::{mask as bit_mask, relation};
use super::fp_bits::fmerge;
use super::special::{ArDst, ArSrc, Special, Upd};
use super::{Ctx, Flow};
use crate::state::psr::Psr;
use crate::state::{ar, State};
use emu_core::memory::Memory;

/// Runs `s` on the state if its common case applies, returning where execution goes; `None`
/// when it does not apply (nothing has changed then) and the generic semantics must run.
/// The caller has checked the qualifying predicate and the privilege level.
#[inline]
pub(super) fn run(s: Special, st: &mut State, mem: &mut Memory, ctx: &Ctx) -> Option<Flow> {
    // The forms that read the slot's address or clock; every other runs as a block op does.
    let done = match s {
        Special::MovFromAr { d, ar: ArSrc::Itc } => {
            !(st.psr.contains(Psr::SI) && st.psr.cpl() != 0) && st.gr.try_write(d, ctx.itc, false)
        }
        Special::MovToAr { ar: ArDst::Itc, src } => match st.gr.read_fast(src) {
            (v, false) => write_itc(st, v, ctx.itc),
            (_, true) => false,
        },
        Special::MovToArImm { ar: ArDst::Itc, imm } => write_itc(st, imm as u64, ctx.itc),
        Special::MovFromIp { d } => st.gr.try_write(d, ctx.ip, false),
        // No handler (alloc, cover, bsw, rfi, ...): no call to find that out (w9-iv2).
        Special::None => false,
        s => run_plain(s, st, mem),
    };
    done.then_some(Flow::Next)
}

/// `mov ar.itc=v` at clock `itc`: cpl 0 only; the clock's offset moves.
#[inline]
fn write_itc(st: &mut State, v: u64, itc: u64) -> bool {
    if st.psr.cpl() != 0 {
        return false;
    }
    st.itc_offset = st.itc_offset.wrapping_add(v.wrapping_sub(itc));
    true
}

/// Runs a handler that needs neither the slot's address nor the clock (w8-iv2: what
/// [`Special::runs_plain`] admits, the block engine's system op, with no `Ctx` and no
/// `Result`); `true` when it ran, `false` (nothing changed) when the generic semantics must
/// run: the forms that need the address or the clock always decline here. The caller has
/// checked the qualifying predicate and the privilege level.
#[inline]
pub(crate) fn run_plain(s: Special, st: &mut State, mem: &mut Memory) -> bool {
    match s {
        Special::None
        | Special::MovFromIp { .. }
        | Special::MovFromAr { ar: ArSrc::Itc, .. }
        | Special::MovToAr { ar: ArDst::Itc, .. }
        | Special::MovToArImm { ar: ArDst::Itc, .. } => false,
        Special::Load { d, base, size, fill, upd } => load(st, mem, d, base, size, fill, upd),
        Special::Store { base, src, size, spill, upd } => store(st, mem, base, src, size, spill, upd),
        Special::MovFromAr { d, ar } => st.gr.try_write(d, read_ar(st, ar), false),
        Special::MovToAr { ar, src } => match st.gr.read_fast(src) {
            (v, false) => write_ar(st, ar, v),
            (_, true) => false,
        },
        Special::MovToArImm { ar, imm } => write_ar(st, ar, imm as u64),
        Special::MovFromCr { d, cr, interruption } => {
            !(interruption && st.psr.contains(Psr::IC)) && st.gr.try_write(d, st.cr[usize::from(cr)], false)
        }
        Special::MovToCr { cr, src, interruption } => match st.gr.read_fast(src) {
            (v, false) if !(interruption && st.psr.contains(Psr::IC)) => {
                st.cr[usize::from(cr)] = v;
                true
            }
            _ => false,
        },
        Special::MovFromBr { d, b } => st.gr.try_write(d, st.br[usize::from(b)], false),
        Special::MovToBr { b, src } => match st.gr.read_fast(src) {
            (v, false) => {
                st.br[usize::from(b)] = v;
                true
            }
            (_, true) => false,
        },
        Special::MovFromPr { d } => st.gr.try_write(d, st.pr | 1, false),
        Special::MovToPr { src, mask } => match st.gr.read_fast(src) {
            (v, false) => {
                st.pr = ((st.pr & !mask) | (v & mask)) | 1;
                true
            }
            (_, true) => false,
        },
        Special::Movl { d, imm } => st.gr.try_write(d, imm, false),
        Special::PsrMask { bits, set } => {
            let now = st.psr.bits();
            st.psr = Psr::from_bits_retain(if set { now | bits } else { now & !bits });
            true
        }
        Special::Nothing => true,
        Special::Invala => {
            st.alat.clear();
            true
        }
        Special::Cmp { p1, p2, a, b, rel, four } => {
            let ((a, na), (b, nb)) = (st.gr.read_fast(a), st.gr.read_fast(b));
            compare(st, p1, p2, relation(rel, a, b, four), na | nb);
            true
        }
        Special::CmpImm { p1, p2, imm, b, rel, four } => {
            let (b, nb) = st.gr.read_fast(b);
            compare(st, p1, p2, relation(rel, imm as u64, b, four), nb);
            true
        }
        Special::Extr { d, src, pos, len, signed } => {
            let (a, na) = st.gr.read_fast(src);
            let len = u32::from(len);
            let field = (a >> pos) & bit_mask(len);
            let v = if signed && len < 64 && (field >> (len - 1)) & 1 == 1 { field | !bit_mask(len) } else { field };
            st.gr.try_write(d, v, na)
        }
        Special::DepZ { d, src, pos, mask } => {
            let (a, na) = st.gr.read_fast(src);
            st.gr.try_write(d, (a & mask).checked_shl(u32::from(pos)).unwrap_or(0), na)
        }
        Special::Dep { d, a, b, pos, mask } => {
            let ((a, na), (b, nb)) = (st.gr.read_fast(a), st.gr.read_fast(b));
            st.gr.try_write(d, (b & !mask) | (a.checked_shl(u32::from(pos)).unwrap_or(0) & mask), na | nb)
        }
        Special::Fmerge { d, a, b, kind, high } => merge(st, d, a, b, kind, high),
    }
}

/// `fmerge` to f`d` (out of line with the memory forms, so that the moves, which are most
/// of a system call's handlers, run with no register saved: w9-iv2).
#[inline(never)]
fn merge(st: &mut State, d: u8, a: u8, b: u8, kind: u8, high: bool) -> bool {
    let r = fmerge(kind, st.fr[usize::from(a)], st.fr[usize::from(b)]);
    st.fr[usize::from(d)] = r;
    // PSR.mfl/mfh record that the low or high FR partition was modified.
    st.psr.insert(if high { Psr::MFH } else { Psr::MFL });
    true
}

/// The two predicates of a normal compare: a NaT source clears both; otherwise p1 = result,
/// p2 = its complement (written in that order, as the generic semantics do).
#[inline]
fn compare(st: &mut State, p1: u8, p2: u8, result: bool, nat: bool) {
    st.set_p(p1, result && !nat);
    st.set_p(p2, !result && !nat);
}

/// The UNAT bit a spill or fill at `addr` uses (address bits 8:3).
#[inline]
fn unat_bit(addr: u64) -> u64 {
    1u64 << ((addr >> 3) & 63)
}

/// The common case of a load, with its base update: a NaT-free, naturally aligned,
/// untranslated address that reads, and targets that can be written. The base is checked
/// writable before anything changes (rewriting it with its own value changes nothing), so a
/// decline leaves the state as it was. An update's r2 is read after the target is written,
/// as the generic semantics read it. (Out of line: see [`merge`].)
#[inline(never)]
fn load(st: &mut State, mem: &Memory, d: u8, base: u8, size: u8, fill: bool, upd: Upd) -> bool {
    let (addr, nat) = st.gr.read_fast(base);
    if nat || (upd != Upd::None && (d == base || !st.gr.try_write(base, addr, false))) {
        return false;
    }
    let Some(v) = read_plain(st, mem, addr, size) else { return false };
    let nat = fill && st.ar[usize::from(ar::UNAT)] & unat_bit(addr) != 0;
    if !st.gr.try_write(d, v, nat) {
        return false;
    }
    match upd {
        Upd::None => true,
        Upd::Imm(inc) => st.gr.try_write(base, addr.wrapping_add(inc as u64), false),
        Upd::Reg(r) => {
            let (inc, inc_nat) = st.gr.read_fast(r);
            st.gr.try_write(base, addr.wrapping_add(inc), inc_nat)
        }
    }
}

/// The common case of a store, with its base update: a NaT-free address (and value, but for
/// a spill), naturally aligned, untranslated and writable; overlapping ALAT entries go, a
/// spill records the value's NaT in ar.unat. (Out of line: see [`merge`].)
#[inline(never)]
fn store(st: &mut State, mem: &mut Memory, base: u8, src: u8, size: u8, spill: bool, upd: Upd) -> bool {
    let (addr, addr_nat) = st.gr.read_fast(base);
    let (value, nat) = st.gr.read_fast(src);
    if addr_nat || (nat && !spill) || (upd != Upd::None && !st.gr.try_write(base, addr, false)) {
        return false;
    }
    if !write_plain(st, mem, addr, size, value) {
        return false;
    }
    if spill {
        let unat = &mut st.ar[usize::from(ar::UNAT)];
        *unat = if nat { *unat | unat_bit(addr) } else { *unat & !unat_bit(addr) };
    }
    match upd {
        Upd::Imm(inc) => st.gr.try_write(base, addr.wrapping_add(inc as u64), false),
        _ => true,
    }
}

/// `mov r1=ar` of an AR other than ar.itc, as the generic semantics read it.
#[inline]
fn read_ar(st: &State, src: ArSrc) -> u64 {
    match src {
        ArSrc::Bsp => st.gr.bsp(),
        ArSrc::Bspstore => st.gr.bspstore(),
        ArSrc::Rnat => st.gr.rnat(),
        // Read with the clock by `run`: never reaches here.
        ArSrc::Itc => 0,
        ArSrc::Plain(n) => st.ar[usize::from(n)],
    }
}

/// `mov ar=` of an AR other than ar.itc as the generic semantics write it, or `false`
/// (nothing written) where they fault.
#[inline]
fn write_ar(st: &mut State, dst: ArDst, v: u64) -> bool {
    match dst {
        // Written with the clock by `run`.
        ArDst::Itc => return false,
        ArDst::Kernel(_) if st.psr.cpl() != 0 => return false,
        ArDst::Bspstore | ArDst::Rnat if st.ar[usize::from(ar::RSC)] & 3 != 0 => return false,
        ArDst::Kernel(n) | ArDst::Plain(n) => st.ar[usize::from(n)] = v,
        ArDst::Bspstore => st.gr.set_bspstore(v),
        ArDst::Rnat => st.gr.set_rnat(v),
        ArDst::Rsc => {
            // A privilege level below the current one is raised to it.
            let cpl = u64::from(st.psr.cpl());
            let pl = ((v >> 2) & 3).max(cpl);
            st.ar[usize::from(ar::RSC)] = (v & !0xC) | (pl << 2);
        }
        ArDst::Ec => st.ar[usize::from(ar::EC)] = v & 0x3F,
    }
    true
}
