//! The F-unit forms that need no FP arithmetic, executed on the exact bits of the 82-bit
//! register format (SDM vol. 3 ch. 2, each instruction's "Operation"; vol. 1 section 5.1,
//! Table 5-2 for the register encodings): fmerge/fpmerge, fselect, fmix, fsxt, fswap,
//! fand/fandcm/for/fxor, fclass, fsetc and fclrf. The arithmetic forms (`Op::FpArith`) are
//! executed by `fp_arith.rs`.

use super::access::{fr, set_fr};
use super::interrupt::{illegal_operation, reserved_field};
use super::op::{FpArithOp, FpBitsOp, Op};
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow};
use crate::state::ar;
use crate::state::fr::{Fr, INTEGER_EXP};
use crate::state::State;

/// Executes the non-arithmetic F-unit forms.
pub(super) fn execute(st: &mut State, e: &Exec, _ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::Fmerge { kind } => {
            let r = fmerge(kind, fr(st, o[1]), fr(st, o[2]));
            set_fr(st, o[0], r)?;
        }
        Op::Fpmerge { kind } => {
            let r = fpmerge(kind, fr(st, o[1]), fr(st, o[2]));
            set_fr(st, o[0], r)?;
        }
        Op::Fselect => {
            let r = fselect(fr(st, o[1]), fr(st, o[2]), fr(st, o[3]));
            set_fr(st, o[0], r)?;
        }
        Op::FpBits(kind) => {
            let r = fp_bits(kind, fr(st, o[1]), fr(st, o[2]));
            set_fr(st, o[0], r)?;
        }
        Op::Fclass { .. } => {
            let (p1, p2) = (o[0] as u8, o[1] as u8);
            if p1 == p2 {
                return Err(illegal_operation(&format!("fclass with p1 = p2 = p{p1}")));
            }
            let member = fclass(fr(st, o[2]), o[3] as u16);
            st.set_p(p1, member);
            st.set_p(p2, !member);
        }
        Op::Fsetc { sf } => {
            let fpsr = st.ar[usize::from(ar::FPSR)];
            let next = fsetc(fpsr, sf, o[0] as u8, o[1] as u8)
                .ok_or_else(|| reserved_field(&format!("fsetc.s{sf}: precision control 01 is reserved")))?;
            st.ar[usize::from(ar::FPSR)] = next;
        }
        Op::Fclrf { sf } => {
            let fpsr = st.ar[usize::from(ar::FPSR)];
            st.ar[usize::from(ar::FPSR)] = fclrf(fpsr, sf);
        }
        _ => {}
    }
    Ok(Flow::Next)
}

/// The `.unc` forms of fclass and fcmp clear both targets when their predicate is false
/// (SDM vol. 3 fclass, fcmp: "if (ctype == 'unc') PR[p1] = 0, PR[p2] = 0").
pub(super) fn predicated_off(st: &mut State, e: &Exec) {
    let unc = matches!(e.op, Op::Fclass { unc: true } | Op::FpArith { kind: FpArithOp::Fcmp { unc: true, .. }, .. });
    if unc {
        st.set_p(e.ops[0] as u8, false);
        st.set_p(e.ops[1] as u8, false);
    }
}

/// The register-format encoding of NaTVal (SDM vol. 1 Table 5-2): sign 0, exponent 0x1FFFE,
/// significand 0.
pub fn is_natval(f: Fr) -> bool {
    f == Fr::NATVAL
}

/// A result holding `sig` as an integer: exponent 0x1003E, sign 0.
fn integer(sig: u64) -> Fr {
    Fr { sign: false, exp: INTEGER_EXP, sig }
}

/// fmerge.s (0), .ns (1), .se (2): f1 = (sign of f2 or its complement, exponent and
/// significand of f3) or (sign and exponent of f2, significand of f3). NaTVal in either
/// source gives NaTVal.
pub fn fmerge(kind: u8, f2: Fr, f3: Fr) -> Fr {
    if is_natval(f2) || is_natval(f3) {
        return Fr::NATVAL;
    }
    match kind {
        0 => Fr { sign: f2.sign, ..f3 },
        1 => Fr { sign: !f2.sign, ..f3 },
        _ => Fr { sign: f2.sign, exp: f2.exp, sig: f3.sig },
    }
}

/// fpmerge.s/.ns/.se: the same on both singles of a pair: bits 63 and 31 are the signs,
/// 62-55 and 30-23 the exponents of the left and right singles.
pub fn fpmerge(kind: u8, f2: Fr, f3: Fr) -> Fr {
    if is_natval(f2) || is_natval(f3) {
        return Fr::NATVAL;
    }
    const SIGNS: u64 = 1 << 63 | 1 << 31;
    const SIGN_EXP: u64 = 0x1FF << 55 | 0x1FF << 23;
    let (a, b) = (f2.sig, f3.sig);
    integer(match kind {
        0 => a & SIGNS | b & !SIGNS,
        1 => !a & SIGNS | b & !SIGNS,
        _ => a & SIGN_EXP | b & !SIGN_EXP,
    })
}

/// fselect (operands in display order f3, f4, f2): f3's significand bits where f4's are
/// set, f2's where they are clear.
pub fn fselect(f3: Fr, f4: Fr, f2: Fr) -> Fr {
    if is_natval(f2) || is_natval(f3) || is_natval(f4) {
        return Fr::NATVAL;
    }
    integer(f3.sig & f4.sig | f2.sig & !f4.sig)
}

/// The F9 significand operations (operands f2, f3). A pair's left single is bits 63-32,
/// its right single bits 31-0.
pub fn fp_bits(kind: FpBitsOp, f2: Fr, f3: Fr) -> Fr {
    if is_natval(f2) || is_natval(f3) {
        return Fr::NATVAL;
    }
    let (a, b) = (f2.sig, f3.sig);
    let hi = |v: u64| v >> 32;
    let lo = |v: u64| v & 0xFFFF_FFFF;
    // The sign of a single extended over 32 bits.
    let ext = |bit: u64| if bit & 1 == 1 { 0xFFFF_FFFF } else { 0 };
    integer(match kind {
        FpBitsOp::MixL => hi(a) << 32 | hi(b),
        FpBitsOp::MixR => lo(a) << 32 | lo(b),
        FpBitsOp::MixLr => hi(a) << 32 | lo(b),
        FpBitsOp::SxtL => ext(a >> 63) << 32 | hi(b),
        FpBitsOp::SxtR => ext(a >> 31) << 32 | lo(b),
        FpBitsOp::Swap => lo(a) << 32 | hi(b),
        FpBitsOp::SwapNl => (lo(a) ^ 0x8000_0000) << 32 | hi(b),
        FpBitsOp::SwapNr => lo(a) << 32 | (hi(b) ^ 0x8000_0000),
        FpBitsOp::And => a & b,
        FpBitsOp::Andcm => a & !b,
        FpBitsOp::Or => a | b,
        FpBitsOp::Xor => a ^ b,
    })
}

/// Whether `f` is a member of the classes of `mask` (SDM vol. 3 fclass, Table 2-25; the
/// classes of vol. 1 Table 5-2). The sign bits (0x001 positive, 0x002 negative) qualify the
/// zero/unnormal/normal/infinity bits (0x004-0x020); 0x040 signalling NaN, 0x080 quiet NaN
/// and 0x100 NaTVal stand alone. Pseudo-NaNs and pseudo-infinities (exponent 0x1FFFF with a
/// clear integer bit) are unsupported encodings and belong to no class; pseudo-zeros
/// (significand 0, exponent not 0) are unnormalized, not zeros (vol. 1 section 5.1.3), as is
/// a pseudo-denormal (exponent 0 with the integer bit set).
pub fn fclass(f: Fr, mask: u16) -> bool {
    let bit = |b: u16| mask & b != 0;
    const ONES: u32 = 0x1FFFF;
    let integer_bit = f.sig >> 63 == 1;
    let natval = is_natval(f);
    let special = f.exp == ONES;
    let nan = special && integer_bit && f.sig << 1 != 0;
    let qnan = nan && f.sig >> 62 & 1 == 1;
    let snan = nan && !qnan;
    let inf = special && f.sig == 1 << 63;
    let zero = f.exp == 0 && f.sig == 0;
    let normal = !special && f.exp != 0 && integer_bit;
    let unorm = !special && !natval && !zero && !normal;
    let sign_ok = if f.sign { bit(0x002) } else { bit(0x001) };
    let kind_ok = zero && bit(0x004) || unorm && bit(0x008) || normal && bit(0x010) || inf && bit(0x020);
    sign_ok && kind_ok || snan && bit(0x040) || qnan && bit(0x080) || natval && bit(0x100)
}

/// The bit position of status field `sf` in ar.fpsr: traps are bits 0-5, then four
/// 13-bit fields (SDM vol. 1 Figure 5-4), each 7 control bits then 6 flags.
fn sf_shift(sf: u8) -> u32 {
    6 + 13 * u32::from(sf & 3)
}

/// fsetc.sf: the field's controls become sf0's controls AND amask7, OR omask7 (SDM vol. 3
/// fsetc: "tmp_controls = (AR[FPSR].sf0.controls & amask7) | omask7"). `None` if the
/// result holds the reserved precision control 01 (a Reserved Register/Field fault).
pub fn fsetc(fpsr: u64, sf: u8, amask7: u8, omask7: u8) -> Option<u64> {
    let sf0 = (fpsr >> sf_shift(0)) & 0x7F;
    let controls = (sf0 & u64::from(amask7) | u64::from(omask7)) & 0x7F;
    // Controls: ftz (bit 0), wre (1), pc (2-3), rc (4-5), td (6).
    if (controls >> 2) & 3 == 1 {
        return None;
    }
    let shift = sf_shift(sf);
    Some(fpsr & !(0x7F << shift) | controls << shift)
}

/// fclrf.sf: clears the six flags (v d z o u i) of the field.
pub fn fclrf(fpsr: u64, sf: u8) -> u64 {
    fpsr & !(0x3F << (sf_shift(sf) + 7))
}
