//! The system forms of the kernel paths, specialised once at predecode (issue 17, w7-isys):
//! post-increment loads and stores (spill and fill included), the moves to and from the
//! application, control, branch and predicate registers, rsm/ssm/sum/rum, the fences,
//! compares, extract/deposit and fmerge. [`Special::of`] reads everything that depends only
//! on the instruction (operand numbers, the AR/CR number's handler, the PSR mask, the
//! deposit mask, whether a mask is reserved) into a compact record kept in the predecoded
//! [`Exec`]; [`run`] then does the common case of the form with no dispatch on the
//! operation, no operand decoding and no `Result` built on success.
//!
//! A handler declines (returns `None`, having changed nothing) whenever anything unusual
//! could happen: a NaT operand, an unaligned or translated address, a memory fault, a target
//! that cannot be written, a privilege or PSR.ic condition the form checks. The executor then
//! runs the generic semantics ([`super::execute_generic`]), which raise the fault or do the
//! unusual case; `tests/ia64_sys_forms_diff.rs` runs both on random instructions and states.

use super::access::to_data_order;
use super::alu::{mask as bit_mask, relation};
use super::fp_bits::fmerge;
use super::op::{CmpType, LoadKind, Op, Rel, Update};
use super::predecode::Exec;
use super::{Ctx, Flow};
use crate::state::psr::Psr;
use crate::state::{ar, cr, State};
use emu_core::memory::Memory;

/// How a load or store updates its base register afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upd {
    /// No update.
    None,
    /// base += imm9.
    Imm(i16),
    /// base += r2 (loads only).
    Reg(u8),
}

/// Where `mov r1=ar` reads, chosen from the AR number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArSrc {
    /// ar.bsp (the register stack's).
    Bsp,
    /// ar.bspstore.
    Bspstore,
    /// ar.rnat.
    Rnat,
    /// ar.itc (the clock; PSR.si may forbid it).
    Itc,
    /// Any other AR, from the file.
    Plain(u8),
}

/// What `mov ar=` does, chosen from the AR number (ar.bsp, read-only, gets no handler).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArDst {
    /// ar.k0-7: cpl 0 only.
    Kernel(u8),
    /// ar.itc: cpl 0 only; moves the clock offset.
    Itc,
    /// ar.bspstore: RSC.mode 0 only; re-homes the dirty registers.
    Bspstore,
    /// ar.rnat: RSC.mode 0 only.
    Rnat,
    /// ar.rsc: the privilege level raised to the current one.
    Rsc,
    /// ar.ec: 6 bits.
    Ec,
    /// Any other AR, into the file.
    Plain(u8),
}

/// A form's specialised handler with its operands, chosen once at predecode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)] // the operands are the registers and fields each variant's doc names
pub enum Special {
    /// No handler: the generic semantics run.
    #[default]
    None,
    /// `ldN r1=[r3]` (plain, `.bias`, `.acq`) or `ld8.fill`, with its base update.
    Load { d: u8, base: u8, size: u8, fill: bool, upd: Upd },
    /// `stN [r3]=r2` (plain, `.rel`) or `st8.spill`, with its base update.
    Store { base: u8, src: u8, size: u8, spill: bool, upd: Upd },
    /// `mov r1=ar`.
    MovFromAr { d: u8, ar: ArSrc },
    /// `mov ar=r2`.
    MovToAr { ar: ArDst, src: u8 },
    /// `mov ar=imm8`.
    MovToArImm { ar: ArDst, imm: i64 },
    /// `mov r1=cr` of a CR with no side effect; `interruption`: one of cr.ipsr-cr.iha,
    /// which PSR.ic must be 0 to access.
    MovFromCr { d: u8, cr: u8, interruption: bool },
    /// `mov cr=r2` of a writable CR with no side effect.
    MovToCr { cr: u8, src: u8, interruption: bool },
    /// `mov r1=b2`.
    MovFromBr { d: u8, b: u8 },
    /// `mov b1=r2`.
    MovToBr { b: u8, src: u8 },
    /// `mov r1=pr`.
    MovFromPr { d: u8 },
    /// `mov pr=r2,mask17` with the mask already widened to the predicates it names.
    MovToPr { src: u8, mask: u64 },
    /// `mov r1=ip`.
    MovFromIp { d: u8 },
    /// `movl r1=imm64`.
    Movl { d: u8, imm: u64 },
    /// ssm/sum (`set`) or rsm/rum: the PSR bits, already checked against the field.
    PsrMask { bits: u64, set: bool },
    /// srlz, sync, mf, fwb, fc, brp: nothing architectural.
    Nothing,
    /// `invala`: the whole ALAT.
    Invala,
    /// A normal or `.unc` compare of two registers (the qualifying predicate is true here).
    Cmp { p1: u8, p2: u8, a: u8, b: u8, rel: Rel, four: bool },
    /// A normal or `.unc` compare of an immediate (or r0) with a register.
    CmpImm { p1: u8, p2: u8, imm: i64, b: u8, rel: Rel, four: bool },
    /// `extr`/`extr.u r1=r3,pos,len` with the field clamped to bit 63.
    Extr { d: u8, src: u8, pos: u8, len: u8, signed: bool },
    /// `dep.z r1=r2,pos,len`: `mask` is the field's width mask, `pos` the shift.
    DepZ { d: u8, src: u8, pos: u8, mask: u64 },
    /// `dep r1=r2,r3,pos,len`: `mask` the field in place.
    Dep { d: u8, a: u8, b: u8, pos: u8, mask: u64 },
    /// `fmerge.s`/`.ns`/`.se f1=f2,f3` to a writable FR; `high`: f32-f127 (PSR.mfh).
    Fmerge { d: u8, a: u8, b: u8, kind: u8, high: bool },
}

/// A register operand (7-bit fields: always r0-r127).
fn reg(v: i64) -> Option<u8> {
    u8::try_from(v).ok().filter(|&r| r < 128)
}

/// The base update of a load or store whose increment is operand `inc`.
fn upd(update: Update, inc: i64) -> Option<Upd> {
    Some(match update {
        Update::None => Upd::None,
        Update::Imm => Upd::Imm(i16::try_from(inc).ok()?),
        Update::Reg => Upd::Reg(reg(inc)?),
    })
}

impl ArSrc {
    fn of(n: i64) -> Option<ArSrc> {
        let n = reg(n)?;
        Some(match n {
            ar::BSP => ArSrc::Bsp,
            ar::BSPSTORE => ArSrc::Bspstore,
            ar::RNAT => ArSrc::Rnat,
            ar::ITC => ArSrc::Itc,
            _ => ArSrc::Plain(n),
        })
    }
}

impl ArDst {
    fn of(n: i64) -> Option<ArDst> {
        let n = reg(n)?;
        Some(match n {
            0..=7 => ArDst::Kernel(n),
            ar::ITC => ArDst::Itc,
            ar::BSP => return None,
            ar::BSPSTORE => ArDst::Bspstore,
            ar::RNAT => ArDst::Rnat,
            ar::RSC => ArDst::Rsc,
            ar::EC => ArDst::Ec,
            _ => ArDst::Plain(n),
        })
    }
}

/// The PSR bits `sum`/`rum` may change (user mask, 5:0) and `ssm`/`rsm` (system mask, 23:0).
const UM: u64 = 0x3F;
const SM: u64 = 0xFF_FFFF;

/// Whether `n` is one of the interruption control registers (cr.ipsr-cr.iha).
fn interruption_cr(n: u8) -> bool {
    (cr::IPSR..=cr::IHA).contains(&n)
}

impl Special {
    /// The handler for `e`, or [`Special::None`].
    pub fn of(e: &Exec) -> Special {
        if e.nop {
            return Special::None;
        }
        Special::specialised(e).unwrap_or_default()
    }

    fn specialised(e: &Exec) -> Option<Special> {
        let o = &e.ops;
        Some(match e.op {
            Op::Load { size, kind: kind @ (LoadKind::Plain | LoadKind::Fill), update, .. }
                if matches!(size, 1 | 2 | 4 | 8) =>
            {
                let fill = kind == LoadKind::Fill;
                Special::Load { d: reg(o[0])?, base: reg(o[1])?, size, fill, upd: upd(update, o[2])? }
            }
            Op::Store { size, spill, update, .. } if matches!(size, 1 | 2 | 4 | 8) && update != Update::Reg => {
                Special::Store { base: reg(o[0])?, src: reg(o[1])?, size, spill, upd: upd(update, o[2])? }
            }
            Op::MovFromAr => Special::MovFromAr { d: reg(o[0])?, ar: ArSrc::of(o[1])? },
            Op::MovToAr => Special::MovToAr { ar: ArDst::of(o[0])?, src: reg(o[1])? },
            Op::MovToArImm => Special::MovToArImm { ar: ArDst::of(o[0])?, imm: o[1] },
            Op::MovFromCr => {
                let n = reg(o[1])?;
                // The interrupt controller's registers have side effects: generic.
                if n == cr::IVR || (cr::IRR0..=cr::IRR3).contains(&n) {
                    return None;
                }
                Special::MovFromCr { d: reg(o[0])?, cr: n, interruption: interruption_cr(n) }
            }
            Op::MovToCr => {
                let n = reg(o[0])?;
                if matches!(n, cr::ITM | cr::EOI) || (cr::IRR0..=cr::IRR3).contains(&n) {
                    return None;
                }
                Special::MovToCr { cr: n, src: reg(o[1])?, interruption: interruption_cr(n) }
            }
            Op::MovFromBr => Special::MovFromBr { d: reg(o[0])?, b: (o[1] & 7) as u8 },
            Op::MovToBr => Special::MovToBr { b: (o[0] & 7) as u8, src: reg(o[1])? },
            Op::MovFromPr => Special::MovFromPr { d: reg(o[0])? },
            Op::MovToPr => {
                // mask17 bit 16 stands for p16-p63; p0 is never written.
                let m = o[2] as u64;
                let mask = (m & 0xFFFE) | if m & 0x1_0000 != 0 { !0xFFFF } else { 0 };
                Special::MovToPr { src: reg(o[1])?, mask }
            }
            Op::MovFromIp => Special::MovFromIp { d: reg(o[0])? },
            Op::Movl => Special::Movl { d: reg(o[0])?, imm: o[1] as u64 },
            Op::Sum | Op::Rum | Op::Ssm | Op::Rsm => {
                let bits = o[0] as u64;
                let field = if matches!(e.op, Op::Sum | Op::Rum) { UM } else { SM };
                // A mask outside the field is a Reserved Register/Field fault: generic.
                if bits & !field != 0 {
                    return None;
                }
                Special::PsrMask { bits, set: matches!(e.op, Op::Sum | Op::Ssm) }
            }
            Op::Fence | Op::Srlz { .. } | Op::Brp => Special::Nothing,
            Op::Invala => Special::Invala,
            Op::Cmp { rel, ctype: CmpType::Normal | CmpType::Unc, four, imm, zero } => {
                let (p1, p2, b) = (o[0] as u8, o[1] as u8, reg(o[3])?);
                if imm || zero {
                    Special::CmpImm { p1, p2, imm: o[2], b, rel, four }
                } else {
                    Special::Cmp { p1, p2, a: reg(o[2])?, b, rel, four }
                }
            }
            Op::Extr { signed } => {
                let pos = (o[2] & 63) as u8;
                let len = u8::try_from(o[3].clamp(1, 64 - i64::from(pos))).ok()?;
                Special::Extr { d: reg(o[0])?, src: reg(o[1])?, pos, len, signed }
            }
            Op::DepZ => {
                let (pos, len) = (u8::try_from(o[2]).ok()?, u32::try_from(o[3]).ok()?);
                Special::DepZ { d: reg(o[0])?, src: reg(o[1])?, pos, mask: bit_mask(len) }
            }
            Op::Dep => {
                let (pos, len) = (u8::try_from(o[3]).ok()?, u32::try_from(o[4]).ok()?);
                let mask = bit_mask(len).checked_shl(u32::from(pos)).unwrap_or(0);
                Special::Dep { d: reg(o[0])?, a: reg(o[1])?, b: reg(o[2])?, pos, mask }
            }
            // f0 and f1 are constants: writing them is an Illegal Operation (generic).
            Op::Fmerge { kind } if (2..128).contains(&o[0]) => {
                let d = o[0] as u8;
                Special::Fmerge { d, a: reg(o[1])?, b: reg(o[2])?, kind, high: d >= 32 }
            }
            _ => return None,
        })
    }
}

/// Runs `s` on the state if its common case applies, returning where execution goes; `None`
/// when it does not apply (nothing has changed then) and the generic semantics must run.
/// The caller has checked the qualifying predicate and the privilege level.
#[inline]
pub(super) fn run(s: Special, st: &mut State, mem: &mut Memory, ctx: &Ctx) -> Option<Flow> {
    let done = match s {
        Special::None => false,
        Special::Load { d, base, size, fill, upd } => load(st, mem, d, base, size, fill, upd),
        Special::Store { base, src, size, spill, upd } => store(st, mem, base, src, size, spill, upd),
        Special::MovFromAr { d, ar } => match read_ar(st, ar, ctx) {
            Some(v) => st.gr.try_write(d, v, false),
            None => false,
        },
        Special::MovToAr { ar, src } => match st.gr.read_fast(src) {
            (v, false) => write_ar(st, ar, v, ctx),
            (_, true) => false,
        },
        Special::MovToArImm { ar, imm } => write_ar(st, ar, imm as u64, ctx),
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
        Special::MovFromIp { d } => st.gr.try_write(d, ctx.ip, false),
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
        Special::Fmerge { d, a, b, kind, high } => {
            let r = fmerge(kind, st.fr[usize::from(a)], st.fr[usize::from(b)]);
            st.fr[usize::from(d)] = r;
            // PSR.mfl/mfh record that the low or high FR partition was modified.
            st.psr.insert(if high { Psr::MFH } else { Psr::MFL });
            true
        }
    };
    done.then_some(Flow::Next)
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
/// as the generic semantics read it.
#[inline]
fn load(st: &mut State, mem: &Memory, d: u8, base: u8, size: u8, fill: bool, upd: Upd) -> bool {
    let (addr, nat) = st.gr.read_fast(base);
    if nat || st.tlb.enabled || addr & (u64::from(size) - 1) != 0 {
        return false;
    }
    if upd != Upd::None && (d == base || !st.gr.try_write(base, addr, false)) {
        return false;
    }
    let v = match size {
        1 => mem.read_u8(addr).map(u64::from),
        2 => mem.read_u16(addr).map(u64::from),
        4 => mem.read_u32(addr).map(u64::from),
        _ => mem.read_u64(addr),
    };
    let Ok(v) = v else { return false };
    let v = to_data_order(st, mem, v, usize::from(size));
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
/// spill records the value's NaT in ar.unat.
#[inline]
fn store(st: &mut State, mem: &mut Memory, base: u8, src: u8, size: u8, spill: bool, upd: Upd) -> bool {
    let (addr, addr_nat) = st.gr.read_fast(base);
    let (value, nat) = st.gr.read_fast(src);
    if addr_nat || (nat && !spill) || st.tlb.enabled || addr & (u64::from(size) - 1) != 0 {
        return false;
    }
    if upd != Upd::None && !st.gr.try_write(base, addr, false) {
        return false;
    }
    let v = to_data_order(st, mem, value, usize::from(size));
    let written = match size {
        1 => mem.write_u8(addr, v as u8),
        2 => mem.write_u16(addr, v as u16),
        4 => mem.write_u32(addr, v as u32),
        _ => mem.write_u64(addr, v),
    };
    if written.is_err() {
        return false;
    }
    st.alat.invalidate_overlap(addr, u64::from(size));
    if spill {
        let unat = &mut st.ar[usize::from(ar::UNAT)];
        *unat = if nat { *unat | unat_bit(addr) } else { *unat & !unat_bit(addr) };
    }
    match upd {
        Upd::Imm(inc) => st.gr.try_write(base, addr.wrapping_add(inc as u64), false),
        _ => true,
    }
}

/// `mov r1=ar` as the generic semantics read it, or `None` for an ar.itc read that PSR.si
/// forbids.
#[inline]
fn read_ar(st: &State, src: ArSrc, ctx: &Ctx) -> Option<u64> {
    Some(match src {
        ArSrc::Bsp => st.gr.bsp(),
        ArSrc::Bspstore => st.gr.bspstore(),
        ArSrc::Rnat => st.gr.rnat(),
        ArSrc::Itc if st.psr.contains(Psr::SI) && st.psr.cpl() != 0 => return None,
        ArSrc::Itc => ctx.itc,
        ArSrc::Plain(n) => st.ar[usize::from(n)],
    })
}

/// `mov ar=` as the generic semantics write it, or `false` (nothing written) where they
/// fault.
#[inline]
fn write_ar(st: &mut State, dst: ArDst, v: u64, ctx: &Ctx) -> bool {
    match dst {
        ArDst::Kernel(_) | ArDst::Itc if st.psr.cpl() != 0 => return false,
        ArDst::Bspstore | ArDst::Rnat if st.ar[usize::from(ar::RSC)] & 3 != 0 => return false,
        ArDst::Kernel(n) | ArDst::Plain(n) => st.ar[usize::from(n)] = v,
        ArDst::Itc => st.itc_offset = st.itc_offset.wrapping_add(v.wrapping_sub(ctx.itc)),
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
