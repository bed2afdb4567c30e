//! Multiplication, division and accumulator sign extension. After a multiply CF = OF say
//! whether the high half is significant. SF/ZF/AF/PF are undefined; after a two- or
//! three-operand imul they follow the recorded Intel host (tests/data/flagtest.native.txt):
//! SF and PF from the truncated product, ZF and AF clear. The one-operand forms are not in
//! that record and leave them unchanged. Division leaves the flags unchanged and raises #DE
//! on a zero divisor or a quotient that does not fit.

use super::flags::{sext, szp};
use super::{Ctx, Flow, Trap};
use crate::decode::{Gpr, Insn, Op, Operand};
use crate::state::flags::{AF, CF, OF, PF, SF, ZF};
use crate::state::mask;

fn acc(num: u8, size: u8) -> Operand {
    Operand::Reg(Gpr { num, size, high8: false })
}

/// imul (all forms), mul, div, idiv, cbw/cwde/cdqe, cwd/cdq/cqo.
pub fn muldiv(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let size = i.size;
    let bits = u32::from(size) * 8;
    match i.op {
        Op::Cbw => {
            let half = size / 2;
            let v = cx.read(&acc(0, half), half)?;
            cx.write(&acc(0, size), size, sext(v, half) as u64)?;
        }
        Op::Cwd => {
            let v = cx.read(&acc(0, size), size)?;
            let hi = if sext(v, size) < 0 { mask(size) } else { 0 };
            cx.write(&acc(2, size), size, hi)?;
        }
        Op::Imul => {
            let (a, b) = match &i.ops {
                [d, s, Operand::None] => (cx.read(d, size)?, cx.read(s, size)?),
                [_, s, imm] => (cx.read(s, size)?, cx.read(imm, size)?),
            };
            let full = i128::from(sext(a, size)) * i128::from(sext(b, size));
            let low = full as u64 & mask(size);
            cx.write(&i.ops[0], size, low)?;
            set_mul_flags(cx, full != i128::from(sext(low, size)));
            cx.st.set_flags(SF | ZF | AF | PF, szp(low, size) & (SF | PF));
        }
        Op::Mul | Op::Imul1 => {
            let a = cx.read(&acc(0, size), size)?;
            let b = cx.read(&i.ops[0], size)?;
            let (low, high, wide) = if i.op == Op::Mul {
                let p = u128::from(a) * u128::from(b);
                (p as u64 & mask(size), (p >> bits) as u64 & mask(size), p >> bits != 0)
            } else {
                let p = i128::from(sext(a, size)) * i128::from(sext(b, size));
                let low = p as u64 & mask(size);
                (low, (p >> bits) as u64 & mask(size), p != i128::from(sext(low, size)))
            };
            if size == 1 {
                cx.write(&acc(0, 2), 2, (high << 8) | low)?;
            } else {
                cx.write(&acc(0, size), size, low)?;
                cx.write(&acc(2, size), size, high)?;
            }
            set_mul_flags(cx, wide);
        }
        Op::Div | Op::Idiv => divide(i, cx)?,
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}

fn set_mul_flags(cx: &mut Ctx<'_>, wide: bool) {
    cx.st.set_flags(CF | OF, if wide { CF | OF } else { 0 });
}

fn divide(i: &Insn, cx: &mut Ctx<'_>) -> Result<(), Trap> {
    let size = i.size;
    let bits = u32::from(size) * 8;
    let divisor = cx.read(&i.ops[0], size)?;
    let (lo, hi) = if size == 1 {
        let ax = cx.read(&acc(0, 2), 2)?;
        (ax & 0xff, ax >> 8)
    } else {
        (cx.read(&acc(0, size), size)?, cx.read(&acc(2, size), size)?)
    };
    let dividend = (u128::from(hi) << bits) | u128::from(lo);
    if divisor == 0 {
        return Err(Trap::Divide);
    }
    let (q, r) = if i.op == Op::Div {
        let q = dividend / u128::from(divisor);
        if q > u128::from(mask(size)) {
            return Err(Trap::Divide);
        }
        (q as u64, (dividend % u128::from(divisor)) as u64)
    } else {
        // Sign-extend the 2*size-byte dividend held in a u128.
        let shift = 128 - 2 * bits;
        let n = ((dividend << shift) as i128) >> shift;
        let d = i128::from(sext(divisor, size));
        let q = n.checked_div(d).ok_or(Trap::Divide)?;
        let limit = 1i128 << (bits - 1);
        if q < -limit || q >= limit {
            return Err(Trap::Divide);
        }
        (q as u64 & mask(size), n.checked_rem(d).ok_or(Trap::Divide)? as u64 & mask(size))
    };
    if size == 1 {
        cx.write(&acc(0, 2), 2, (r << 8) | q)?;
    } else {
        cx.write(&acc(0, size), size, q)?;
        cx.write(&acc(2, size), size, r)?;
    }
    Ok(())
}
