//! The system forms of the kernel paths, specialised once at predecode (issue 17, w7-isys):
//! post-increment loads and stores (spill and fill included), the moves to and from the
//! application, control, branch and predicate registers, rsm/ssm/sum/rum, the fences,
//! compares, extract/deposit and fmerge. [`Special::of`] reads everything that depends only
//! on the instruction (operand numbers, the AR/CR number's handler, the PSR mask, the
//! deposit mask, whether a mask is reserved) into a compact record kept in the predecoded
//! [`Exec`](super::predecode::Exec); `special_run.rs` then does the common case of the form
//! with no dispatch on the operation, no operand decoding and no `Result` built on success.
//! (This module only chooses: it depends on nothing the predecoder depends on.)
//!
//! A handler declines (returns `None`, having changed nothing) whenever anything unusual
//! could happen: a NaT operand, an unaligned or translated address, a memory fault, a target
//! that cannot be written, a privilege or PSR.ic condition the form checks. The executor then
//! runs the generic semantics ([`super::execute_generic`]), which raise the fault or do the
//! unusual case; `tests/ia64_sys_forms_diff.rs` runs both on random instructions and states.

use super::op::{CmpType, LoadKind, Op, Rel, Update};
use crate::regs::{ar, cr};

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
    /// The handler for the operation `op` with the operand values `o` (display order), or
    /// [`Special::None`].
    pub fn of(op: Op, o: &[i64; 5]) -> Special {
        Special::specialised(op, o).unwrap_or_default()
    }

    /// Whether the handler may run as a block operation (w8-iv2; `special_run::run_plain`):
    /// it reads neither the slot's address nor the clock (`mov =ip`, the ar.itc moves), its
    /// instruction does nothing when predicated off (not the `.unc` compares), and it changes
    /// nothing a block run depends on (the renaming, PSR.bn, a pending interrupt: no handler
    /// does).
    pub fn runs_plain(&self) -> bool {
        !matches!(
            self,
            Special::None
                | Special::MovFromIp { .. }
                | Special::MovFromAr { ar: ArSrc::Itc, .. }
                | Special::MovToAr { ar: ArDst::Itc, .. }
                | Special::MovToArImm { ar: ArDst::Itc, .. }
                | Special::Cmp { .. }
                | Special::CmpImm { .. }
        )
    }

    fn specialised(op: Op, o: &[i64; 5]) -> Option<Special> {
        Some(match op {
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
                let field = if matches!(op, Op::Sum | Op::Rum) { UM } else { SM };
                // A mask outside the field is a Reserved Register/Field fault: generic.
                if bits & !field != 0 {
                    return None;
                }
                Special::PsrMask { bits, set: matches!(op, Op::Sum | Op::Ssm) }
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
                Special::DepZ { d: reg(o[0])?, src: reg(o[1])?, pos, mask: width_mask(len) }
            }
            Op::Dep => {
                let (pos, len) = (u8::try_from(o[3]).ok()?, u32::try_from(o[4]).ok()?);
                let mask = width_mask(len).checked_shl(u32::from(pos)).unwrap_or(0);
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

/// The low `len` bits set (all 64 from 64 on), as the deposit forms' field.
fn width_mask(len: u32) -> u64 {
    if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}
