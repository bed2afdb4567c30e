//! Shifts and rotates. The count is masked to 6 bits (64-bit operands) or 5 bits; a masked
//! count of zero changes no flag. Flags the SDM leaves undefined follow what the host (a
//! Sapphire Rapids core) produces, as the native flag tests observe: shifts set AF; shl's OF
//! is MSB(result) ^ CF and shr's and rcr's OF is the XOR of the result's two top bits for
//! every count (which is the architectural value for a count of one).

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
    // the source (up to 31): the host then takes bits from a second copy of the source, so
    // 16-bit forms use three parts (dst:src:src, src:src:dst). 1 <= count < parts * n, so
    // every shift below stays in range.
    let (b, a128) = (u128::from(b), u128::from(a));
    let parts = if i.size == 2 { 3 } else { 2 };
    let w = parts * bits;
    let (res, cf) = if i.op == Op::Shld {
        let low = if parts == 3 { (b << bits) | b } else { b };
        let wide = (a128 << (w - bits)) | low;
        (((wide << count) >> (w - bits)) as u64 & m, (wide >> (w - count)) & 1 == 1)
    } else {
        let high = if parts == 3 { (b << bits) | b } else { b };
        let wide = (high << bits) | a128;
        (((wide >> count) as u64) & m, (wide >> (count - 1)) & 1 == 1)
    };
    cx.write(dst, i.size, res)?;
    let mut f = szp(res, i.size) | AF;
    if cf {
        f |= CF;
    }
    // Host behaviour for every count: shld's OF is MSB(result) ^ CF and shrd's the XOR of
    // the result's two top bits (both the architectural value for a count of one).
    let of = if i.op == Op::Shld { msb(res) ^ cf } else { msb(res) ^ (res & (sign_bit(i.size) >> 1) != 0) };
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
    let second = |v: u64| v & (sign_bit(size) >> 1) != 0;
    if count == 0 {
        return Some((a, 0, 0));
    }
    let all = CF | PF | AF | ZF | SF | OF;
    Some(match op {
        Op::Shl => {
            let wide = u128::from(a) << count;
            let res = wide as u64 & m;
            let cf = (wide >> bits) & 1 == 1;
            (res, all, szp(res, size) | AF | bit(cf, CF) | bit(msb(res) ^ cf, OF))
        }
        Op::Shr => {
            let res = if count >= 64 { 0 } else { a >> count };
            let cf = count <= 64 && (a >> (count - 1)) & 1 == 1;
            (res, all, szp(res, size) | AF | bit(cf, CF) | bit(msb(res) ^ second(res), OF))
        }
        Op::Sar => {
            let s = super::flags::sext(a, size);
            let res = (s >> count.min(63)) as u64 & m;
            let cf = (s >> (count - 1).min(63)) & 1 == 1;
            (res, all, szp(res, size) | AF | bit(cf, CF))
        }
        Op::Rol | Op::Ror => {
            let r = count % bits;
            let res = if op == Op::Rol {
                ((a << r) | a.checked_shr(bits - r).unwrap_or(0)) & m
            } else {
                ((a >> r) | a.checked_shl(bits - r).unwrap_or(0)) & m
            };
            let (cf, of) = if op == Op::Rol {
                (res & 1 == 1, msb(res) ^ (res & 1 == 1))
            } else {
                (msb(res), msb(res) ^ second(res))
            };
            (res, CF | OF, bit(cf, CF) | bit(of, OF))
        }
        Op::Rcl | Op::Rcr => {
            let n = count % (bits + 1);
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
            let of = if op == Op::Rcl { msb(v) ^ cf } else { msb(v) ^ second(v) };
            (v, CF | OF, bit(cf, CF) | bit(of, OF))
        }
        _ => return None,
    })
}
