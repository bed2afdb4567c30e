//! Bit tests, bit scans and population count. Flags the SDM leaves undefined follow the
//! recorded Intel host (tests/data/flagtest.native.txt): bt* leave them unchanged; bsf/bsr
//! clear CF, OF, SF and AF and set PF from the index (set for a zero source); tzcnt/lzcnt
//! clear OF, SF, AF and PF; popcnt clears all but ZF.

use super::flags::sext;
use super::{Ctx, Flow, Trap};
use crate::decode::{Insn, Op, Operand};
use crate::state::flags::{CF, PF, STATUS, ZF};
use crate::state::mask;

/// bt, bts, btr, btc, bsf, bsr, tzcnt, lzcnt, popcnt.
pub fn bits(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    match i.op {
        Op::Bt | Op::Bts | Op::Btr | Op::Btc => bit_test(i, cx)?,
        _ => scan(i, cx)?,
    }
    Ok(Flow::Next)
}

fn bit_test(i: &Insn, cx: &mut Ctx<'_>) -> Result<(), Trap> {
    let [dst, off, _] = &i.ops;
    let bits = u64::from(i.size) * 8;
    let raw = cx.read(off, i.size)?;
    // A register bit offset reaches outside a memory operand: it is signed and picks the
    // operand-sized unit it falls in. An immediate offset stays inside the operand.
    let (target, bit) = match (dst, off) {
        (Operand::Mem(m), Operand::Reg(_)) => {
            let signed = sext(raw, i.size);
            let unit = signed.div_euclid(bits as i64);
            let addr = cx.ea(m, true).wrapping_add((unit as u64).wrapping_mul(u64::from(i.size)));
            (Some(addr), signed.rem_euclid(bits as i64) as u64)
        }
        _ => (None, raw % bits),
    };
    let v = match target {
        Some(a) => cx.load(a, i.size)?,
        None => cx.read(dst, i.size)?,
    };
    let set = (v >> bit) & 1 == 1;
    cx.st.set_flags(CF, if set { CF } else { 0 });
    let new = match i.op {
        Op::Bts => v | (1 << bit),
        Op::Btr => v & !(1 << bit),
        Op::Btc => v ^ (1 << bit),
        _ => return Ok(()),
    };
    match target {
        Some(a) => cx.store(a, i.size, new),
        None => cx.write(dst, i.size, new),
    }
}

fn scan(i: &Insn, cx: &mut Ctx<'_>) -> Result<(), Trap> {
    let [dst, src, _] = &i.ops;
    let v = cx.read(src, i.size)? & mask(i.size);
    let bits = u32::from(i.size) * 8;
    let zf = |b: bool| if b { ZF } else { 0 };
    match i.op {
        Op::Bsf | Op::Bsr => {
            // Host behaviour: the flags are those of a logic op on the index, with ZF telling
            // whether the source was zero (then PF is set and the destination kept).
            if v == 0 {
                cx.st.set_flags(STATUS, ZF | PF);
            } else {
                let idx = if i.op == Op::Bsf { v.trailing_zeros() } else { 63 - v.leading_zeros() };
                cx.write(dst, i.size, u64::from(idx))?;
                cx.st.set_flags(STATUS, super::flags::logic(u64::from(idx), i.size) & PF);
            }
        }
        Op::Tzcnt | Op::Lzcnt => {
            let n = if i.op == Op::Tzcnt { v.trailing_zeros().min(bits) } else { v.leading_zeros() - (64 - bits) };
            cx.write(dst, i.size, u64::from(n))?;
            cx.st.set_flags(STATUS, zf(n == 0) | if v == 0 { CF } else { 0 });
        }
        Op::Popcnt => {
            cx.write(dst, i.size, u64::from(v.count_ones()))?;
            cx.st.set_flags(STATUS, zf(v == 0));
        }
        _ => return Err(Trap::Unsupported),
    }
    Ok(())
}
