//! Register arithmetic and logic, shifts and rotates, RISBG and friends, multiply and divide.

use super::{cc_cmp, cc_signed, ext, mask, put, width, Ctx, Flow, Trap};
use crate::decode::Insn;
use crate::optable::{Alu, CompFn, Op, PartFn, RotFn, ShiftFn};

/// Result and CC (None: CC unchanged) of `a op b` at width `w`, with the carry in from the CC.
pub fn alu(f: Alu, a: u64, b: u64, w: u8, cc: u8) -> (u64, Option<u8>) {
    let m = mask(w);
    let (a, b) = (a & m, b & m);
    let sign = 1u64 << (u32::from(w) * 8 - 1);
    let logical = |sum: u128| {
        let r = (sum as u64) & m;
        let carry = sum > u128::from(m);
        (r, Some((u8::from(carry) << 1) | u8::from(r != 0)))
    };
    match f {
        Alu::Add => {
            let r = a.wrapping_add(b) & m;
            let ovf = (a ^ r) & (b ^ r) & sign != 0;
            (r, Some(if ovf { 3 } else { cc_signed(r, w) }))
        }
        Alu::Sub => {
            let r = a.wrapping_sub(b) & m;
            let ovf = (a ^ b) & (a ^ r) & sign != 0;
            (r, Some(if ovf { 3 } else { cc_signed(r, w) }))
        }
        Alu::AddL => logical(u128::from(a) + u128::from(b)),
        Alu::AddC => logical(u128::from(a) + u128::from(b) + u128::from(cc >= 2)),
        Alu::SubL => logical(u128::from(a) + u128::from(!b & m) + 1),
        Alu::SubB => logical(u128::from(a) + u128::from(!b & m) + u128::from(cc >= 2)),
        Alu::And => (a & b, Some(u8::from(a & b != 0))),
        Alu::Or => (a | b, Some(u8::from(a | b != 0))),
        Alu::Xor => (a ^ b, Some(u8::from(a ^ b != 0))),
        Alu::Mul => (a.wrapping_mul(b) & m, None),
    }
}

/// The selected-bits mask of RISBG and friends: bits `start..=end` (bit 0 = MSB), wrapping.
pub fn sel_mask(start: u8, end: u8) -> u64 {
    let bit = |k: u8| 1u64 << (63 - u32::from(k & 63));
    let mut m = 0;
    let mut k = start & 63;
    loop {
        m |= bit(k);
        if k == end & 63 {
            return m;
        }
        k = (k + 1) & 63;
    }
}

/// The TM/TMxx CC: 0 all selected bits zero (or no bits), 3 all ones, else 1 or 2 (`leftmost`
/// tells whether the leftmost selected bit is one; TM on storage reports mixed as 1).
pub fn cc_tm(value: u64, sel: u64, msb_matters: bool) -> u8 {
    let got = value & sel;
    if sel == 0 || got == 0 {
        0
    } else if got == sel {
        3
    } else if msb_matters {
        let top = 63 - sel.leading_zeros();
        if got >> top & 1 == 1 {
            2
        } else {
            1
        }
    } else {
        1
    }
}

pub(super) fn execute(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let r1 = i.r(0);
    match i.op {
        Op::Load { w, sx, g } | Op::LoadTest { w, sx, g } => {
            let v = ext(cx.second(i, w)?, w, sx);
            put(cx.st, r1, g, v);
            if matches!(i.op, Op::LoadTest { .. }) {
                cx.st.cc = cc_signed(v, width(g));
            }
        }
        Op::Larl => cx.st.set_reg(r1, i.i(0) as u64),
        Op::La => {
            let a = cx.ea(i.m(0));
            cx.st.set_reg(r1, a);
        }
        Op::Arith { f, w, sx, g, three } => {
            let ow = width(g);
            let a = if three { cx.st.reg(i.r(1)) } else { cx.st.reg(r1) };
            let b = ext(cx.second(i, w)?, w, sx);
            let (r, cc) = alu(f, a, b, ow, cx.st.cc);
            put(cx.st, r1, g, r);
            if let Some(cc) = cc {
                cx.st.cc = cc;
            }
        }
        Op::Cmp { logical, w, sx, g } => {
            let ow = width(g);
            let a = cx.st.reg(r1) & mask(ow);
            let b = ext(cx.second(i, w)?, w, sx) & mask(ow);
            cx.st.cc = compare(a, b, ow, logical);
        }
        Op::Part { f, shift, bits } => part(cx, r1, i.i(0) as u64, f, shift, bits),
        Op::Comp { f, w, sx, g } => {
            let ow = width(g);
            let v = ext(cx.second(i, w)?, w, sx) & mask(ow);
            let min = 1u64 << (u32::from(ow) * 8 - 1);
            let neg = v & min != 0;
            let negate = match f {
                CompFn::Complement => true,
                CompFn::Positive => neg,
                CompFn::Negative => !neg && v != 0,
            };
            let r = if negate { v.wrapping_neg() & mask(ow) } else { v };
            put(cx.st, r1, g, r);
            cx.st.cc = if v == min && f != CompFn::Negative { 3 } else { cc_signed(r, ow) };
        }
        Op::Shift { f, g, three } => {
            let n = (cx.ea(i.m(0)) & 63) as u32;
            let src = if three { cx.st.reg(i.r(1)) } else { cx.st.reg(r1) };
            let (r, cc) = shift(f, src, n, width(g));
            put(cx.st, r1, g, r);
            if let Some(cc) = cc {
                cx.st.cc = cc;
            }
        }
        Op::Rot { f } => rotate(cx, i, f),
        Op::MulPair { g } => {
            let odd = pair(r1)?;
            let ow = width(g);
            let b = cx.second(i, ow)?;
            let p = u128::from(cx.st.reg(odd) & mask(ow)) * u128::from(b);
            let bits = u32::from(ow) * 8;
            put(cx.st, r1, g, (p >> bits) as u64);
            put(cx.st, odd, g, p as u64);
        }
        Op::DivPair { g } => {
            let odd = pair(r1)?;
            let ow = width(g);
            let bits = u32::from(ow) * 8;
            let d = u128::from(cx.second(i, ow)?);
            let n = (u128::from(cx.st.reg(r1) & mask(ow)) << bits) | u128::from(cx.st.reg(odd) & mask(ow));
            let Some(q) = n.checked_div(d).filter(|q| *q <= u128::from(mask(ow))) else {
                return Ok(Flow::Program(super::pgm::FIXED_DIVIDE));
            };
            put(cx.st, r1, g, (n % d) as u64);
            put(cx.st, odd, g, q as u64);
        }
        Op::DivSingle { w } => {
            let odd = pair(r1)?;
            let n = cx.st.reg(odd) as i64;
            let d = ext(cx.second(i, w)?, w, true) as i64;
            let (Some(q), Some(r)) = (n.checked_div(d), n.checked_rem(d)) else {
                return Ok(Flow::Program(super::pgm::FIXED_DIVIDE));
            };
            cx.st.set_reg(r1, r as u64);
            cx.st.set_reg(odd, q as u64);
        }
        Op::Flogr => {
            let odd = pair(r1)?;
            let v = cx.st.reg(i.r(1));
            let n = v.leading_zeros();
            cx.st.set_reg(r1, u64::from(n));
            cx.st.set_reg(odd, if v == 0 { 0 } else { v & !(1u64 << (63 - n)) });
            cx.st.cc = if v == 0 { 0 } else { 2 };
        }
        Op::Ipm => {
            let byte = (u64::from(cx.st.cc & 3) << 4) | u64::from(cx.st.program_mask());
            let old = cx.st.reg(r1);
            cx.st.set_reg(r1, (old & !0xff00_0000) | (byte << 24));
        }
        Op::Ldgr => {
            let v = cx.st.reg(i.r(1));
            if let Some(f) = cx.st.fpr.get_mut(usize::from(r1)) {
                *f = v;
            }
        }
        Op::Lgdr => {
            let v = cx.st.fpr.get(usize::from(i.r(1))).copied().unwrap_or(0);
            cx.st.set_reg(r1, v);
        }
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}

/// The odd register of the even/odd pair starting at `r1`.
fn pair(r1: u8) -> Result<u8, Trap> {
    if r1 & 1 == 0 {
        Ok(r1 + 1)
    } else {
        Err(Trap::Unsupported)
    }
}

/// The CC of comparing `a` with `b` at width `w`.
pub fn compare(a: u64, b: u64, w: u8, logical: bool) -> u8 {
    if logical {
        cc_cmp(a & mask(w), b & mask(w))
    } else {
        cc_cmp(ext(a, w, true) as i64, ext(b, w, true) as i64)
    }
}

fn part(cx: &mut Ctx<'_>, r1: u8, imm: u64, f: PartFn, shift: u8, bits: u8) {
    let fm = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let sh = u32::from(shift);
    let imm = imm & fm;
    let old = cx.st.reg(r1);
    let field = (old >> sh) & fm;
    let with = |nf: u64| (old & !(fm << sh)) | ((nf & fm) << sh);
    match f {
        PartFn::And | PartFn::Or | PartFn::Xor => {
            let nf = match f {
                PartFn::And => field & imm,
                PartFn::Or => field | imm,
                _ => field ^ imm,
            };
            cx.st.set_reg(r1, with(nf));
            cx.st.cc = u8::from(nf != 0);
        }
        PartFn::Insert => cx.st.set_reg(r1, with(imm)),
        PartFn::LoadLogical => cx.st.set_reg(r1, imm << sh),
        PartFn::Test => cx.st.cc = cc_tm(field, imm, true),
    }
}

/// Result and CC of a shift or rotate of the low `w` bytes of `src` by `n` (0..=63).
pub fn shift(f: ShiftFn, src: u64, n: u32, w: u8) -> (u64, Option<u8>) {
    let m = mask(w);
    let bits = u32::from(w) * 8;
    let v = src & m;
    match f {
        ShiftFn::Sll => (v.checked_shl(n).unwrap_or(0) & m, None),
        ShiftFn::Srl => (v.checked_shr(n).unwrap_or(0), None),
        ShiftFn::Rll => {
            let k = n % bits;
            let r = if k == 0 { v } else { ((v << k) | (v >> (bits - k))) & m };
            (r, None)
        }
        ShiftFn::Sra => {
            let s = ext(v, w, true) as i64;
            let r = (s >> n.min(63)) as u64 & m;
            (r, Some(cc_signed(r, w)))
        }
        ShiftFn::Sla => {
            let s = i128::from(ext(v, w, true) as i64);
            let shifted = s << n;
            let lo = -(1i128 << (bits - 1));
            let hi = (1i128 << (bits - 1)) - 1;
            let sign = v & (1u64 << (bits - 1));
            let r = sign | ((shifted as u64) & (m >> 1));
            if shifted < lo || shifted > hi {
                (r, Some(3))
            } else {
                (r, Some(cc_signed(r, w)))
            }
        }
    }
}

fn rotate(cx: &mut Ctx<'_>, i: &Insn, f: RotFn) {
    let (r1, r2) = (i.r(0), i.r(1));
    let (i3, i4, i5) = (i.i(0) as u8, i.i(1) as u8, i.i(2) as u8);
    let rot = cx.st.reg(r2).rotate_left(u32::from(i5 & 63));
    let sel = sel_mask(i3 & 63, i4 & 63);
    let old = cx.st.reg(r1);
    match f {
        RotFn::Insert => {
            let r = if i4 & 0x80 != 0 { rot & sel } else { (old & !sel) | (rot & sel) };
            cx.st.set_reg(r1, r);
            cx.st.cc = cc_signed(r, 8);
        }
        RotFn::And | RotFn::Or | RotFn::Xor => {
            let r = match f {
                RotFn::And => old & (rot | !sel),
                RotFn::Or => old | (rot & sel),
                _ => old ^ (rot & sel),
            };
            cx.st.cc = u8::from(r & sel != 0);
            if i3 & 0x80 == 0 {
                cx.st.set_reg(r1, r);
            }
        }
    }
}
