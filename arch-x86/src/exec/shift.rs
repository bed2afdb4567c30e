//! Shifts and rotates. The count is masked to 6 bits (64-bit operands) or 5 bits; a masked
//! count of zero changes no flag.
//!
//! Flags and results the SDM leaves undefined follow one recorded host, an Intel Xeon
//! (arch-x86/tests/data/flagtest.native.txt names it; `undefined_flags_follow_the_recorded_host`
//! holds the core to it): a shift clears AF; for every count, OF is the value the SDM defines for
//! a count of one, computed from the original operand (shl and rol: MSB ^ next bit; shr: MSB;
//! sar: 0; ror: MSB ^ LSB; rcl: MSB ^ next bit; rcr: MSB ^ CF; shld: MSB ^ next bit; shrd: MSB ^
//! the source's LSB); an rcl/rcr whose count is a multiple of the width plus one keeps OF; a
//! 16-bit shld/shrd by more than 16 shifts through dst:src:dst.

use super::flags::{sign_bit, szp};
use super::{Ctx, Flow, Trap};
use crate::decode::{Insn, Op};
use crate::state::flags::{AF, CF, OF, PF, SF, ZF};
use crate::state::mask;

/// shl, shr, sar, rol, ror, rcl, rcr.
pub fn shift(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let [dst, cnt, _] = &i.ops;
    let a = cx.read(dst, i.size)?;
    let count = cx.read(cnt, 1)? & if i.size == 8 { 0x3f } else { 0x1f };
    let cf = cx.st.flag(CF);
    let (res, which, f) = compute(i.op, a, count as u32, i.size, cf).ok_or(Trap::Unsupported)?;
    cx.write(dst, i.size, res)?;
    cx.st.set_flags(which, f);
    Ok(Flow::Next)
}

/// shld, shrd: shift `dst` with bits coming in from `src`.
pub fn double(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let [dst, src, cnt] = &i.ops;
    let a = cx.read(dst, i.size)?;
    let b = cx.read(src, i.size)?;
    let count = (cx.read(cnt, 1)? & if i.size == 8 { 0x3f } else { 0x1f }) as u32;
    if count == 0 {
        return cx.write(dst, i.size, a).map(|()| Flow::Next);
    }
    let bits = u32::from(i.size) * 8;
    let m = mask(i.size);
    let msb = |v: u64| v & sign_bit(i.size) != 0;
    // Concatenate dst:src (shld) or src:dst (shrd) and shift. A 16-bit count may reach past
    // the source (up to 31): the recorded host then takes bits from the destination again,
    // so 16-bit forms use three parts (dst:src:dst). 1 <= count < parts * n, so every shift
    // below stays in range.
    let (b, a128) = (u128::from(b), u128::from(a));
    let parts = if i.size == 2 { 3 } else { 2 };
    let w = parts * bits;
    let (res, cf) = if i.op == Op::Shld {
        let low = if parts == 3 { (b << bits) | a128 } else { b };
        let wide = (a128 << (w - bits)) | low;
        (((wide << count) >> (w - bits)) as u64 & m, (wide >> (w - count)) & 1 == 1)
    } else {
        let high = if parts == 3 { (a128 << bits) | b } else { b };
        let wide = (high << bits) | a128;
        (((wide >> count) as u64) & m, (wide >> (count - 1)) & 1 == 1)
    };
    cx.write(dst, i.size, res)?;
    let mut f = szp(res, i.size);
    if cf {
        f |= CF;
    }
    let of = if i.op == Op::Shld { left_of(a, i.size) } else { msb(a) ^ (b & 1 == 1) };
    if of {
        f |= OF;
    }
    cx.st.set_flags(CF | PF | AF | ZF | SF | OF, f);
    Ok(Flow::Next)
}

/// The result, the flags it defines and their values; `None` for an op that is no shift.
pub fn compute(op: Op, a: u64, count: u32, size: u8, cf_in: bool) -> Option<(u64, u64, u64)> {
    let bits = u32::from(size) * 8;
    let m = mask(size);
    let msb = |v: u64| v & sign_bit(size) != 0;
    let bit = |b: bool, f: u64| if b { f } else { 0 };
    if count == 0 {
        return Some((a, 0, 0));
    }
    let all = CF | PF | AF | ZF | SF | OF;
    Some(match op {
        Op::Shl => {
            let wide = u128::from(a) << count;
            let res = wide as u64 & m;
            let cf = (wide >> bits) & 1 == 1;
            (res, all, szp(res, size) | bit(cf, CF) | bit(left_of(a, size), OF))
        }
        Op::Shr => {
            let res = if count >= 64 { 0 } else { a >> count };
            let cf = count <= 64 && (a >> (count - 1)) & 1 == 1;
            (res, all, szp(res, size) | bit(cf, CF) | bit(msb(a), OF))
        }
        Op::Sar => {
            let s = super::flags::sext(a, size);
            let res = (s >> count.min(63)) as u64 & m;
            let cf = (s >> (count - 1).min(63)) & 1 == 1;
            (res, all, szp(res, size) | bit(cf, CF))
        }
        Op::Rol | Op::Ror => {
            let r = count % bits;
            let res = if op == Op::Rol {
                ((a << r) | a.checked_shr(bits - r).unwrap_or(0)) & m
            } else {
                ((a >> r) | a.checked_shl(bits - r).unwrap_or(0)) & m
            };
            let (cf, of) =
                if op == Op::Rol { (res & 1 == 1, left_of(a, size)) } else { (msb(res), msb(a) ^ (a & 1 == 1)) };
            (res, CF | OF, bit(cf, CF) | bit(of, OF))
        }
        Op::Rcl | Op::Rcr => {
            let n = count % (bits + 1);
            if n == 0 {
                return Some((a, 0, 0));
            }
            let (mut v, mut cf) = (a, cf_in);
            for _ in 0..n {
                if op == Op::Rcl {
                    let out = msb(v);
                    v = ((v << 1) | u64::from(cf)) & m;
                    cf = out;
                } else {
                    let out = v & 1 == 1;
                    v = (v >> 1) | if cf { sign_bit(size) } else { 0 };
                    cf = out;
                }
            }
            let of = if op == Op::Rcl { left_of(a, size) } else { msb(a) ^ cf_in };
            (v, CF | OF, bit(cf, CF) | bit(of, OF))
        }
        _ => return None,
    })
}

/// OF of a one-bit left shift or rotate of the `size`-byte `v` (shl, rol, rcl, shld): whether
/// its two top bits differ. The recorded host gives this OF for every count.
fn left_of(v: u64, size: u8) -> bool {
    (v & sign_bit(size) != 0) != (v & (sign_bit(size) >> 1) != 0)
}
