//! Moves, exchanges and the two-operand and one-operand ALU operations.

use super::flags::{add, logic, sext, sub};
use super::{Ctx, Flow, Trap};
use crate::decode::{Insn, Op, Operand};
use crate::state::flags::{AF, CF, OF, PF, SF, STATUS, ZF};
use crate::state::mask;

/// mov, movzx, movsx(d), lea, xchg, xadd, cmpxchg.
pub fn moves(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let [dst, src, _] = &i.ops;
    match i.op {
        Op::Mov => {
            let v = cx.read(src, i.size)?;
            cx.write(dst, i.size, v)?;
        }
        Op::Movzx | Op::Movsx => {
            let from = match src {
                Operand::Reg(g) => g.size,
                Operand::Mem(m) => m.size,
                _ => return Err(Trap::Unsupported),
            };
            let v = cx.read(src, from)?;
            let v = if i.op == Op::Movsx { sext(v, from) as u64 } else { v };
            cx.write(dst, i.size, v)?;
        }
        Op::Lea => {
            let Operand::Mem(m) = src else { return Err(Trap::Unsupported) };
            let a = cx.ea(m, false);
            cx.write(dst, i.size, a)?;
        }
        Op::Xchg => {
            let a = cx.read(dst, i.size)?;
            let b = cx.read(src, i.size)?;
            cx.write(dst, i.size, b)?;
            cx.write(src, i.size, a)?;
        }
        Op::Xadd => {
            let d = cx.read(dst, i.size)?;
            let s = cx.read(src, i.size)?;
            let (res, f) = add(d, s, false, i.size);
            cx.write(src, i.size, d)?;
            cx.write(dst, i.size, res)?;
            cx.st.set_flags(STATUS, f);
        }
        Op::Cmpxchg => cmpxchg(i, cx)?,
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}

/// cmpxchg: compare the accumulator with the destination; store the source on equality,
/// else load the destination into the accumulator. A memory destination is written either
/// way (the locked cycle always writes), which the timing model sees as a store.
fn cmpxchg(i: &Insn, cx: &mut Ctx<'_>) -> Result<(), Trap> {
    let [dst, src, _] = &i.ops;
    let acc = Operand::Reg(crate::decode::Gpr { num: 0, size: i.size, high8: false });
    let d = cx.read(dst, i.size)?;
    let a = cx.read(&acc, i.size)?;
    let (_, f) = sub(a, d, false, i.size);
    cx.st.set_flags(STATUS, f);
    if f & ZF != 0 {
        let s = cx.read(src, i.size)?;
        cx.write(dst, i.size, s)?;
    } else {
        if matches!(dst, Operand::Mem(_)) {
            cx.write(dst, i.size, d)?;
        }
        cx.write(&acc, i.size, d)?;
    }
    Ok(())
}

/// add, adc, sub, sbb, and, or, xor, cmp, test.
pub fn binary(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let [dst, src, _] = &i.ops;
    // The register forms (most of any path) skip the operand plumbing: they read and write
    // exactly what `Ctx::read`/`Ctx::write` would, and cannot fault.
    if let Operand::Reg(d) = dst {
        let b = match src {
            Operand::Reg(g) => Some(cx.st.get(*g) & mask(i.size)),
            Operand::Imm(v) => Some(*v as u64 & mask(i.size)),
            _ => None,
        };
        if let Some(b) = b {
            let a = cx.st.get(*d) & mask(i.size);
            let (res, f) = binary_op(i, a, b, cx.st.flag(CF))?;
            if !matches!(i.op, Op::Cmp | Op::Test) {
                cx.st.set(*d, res & mask(i.size));
            }
            cx.st.set_flags(STATUS, f);
            return Ok(Flow::Next);
        }
    }
    let a = cx.read(dst, i.size)?;
    let b = cx.read(src, i.size)?;
    let (res, f) = binary_op(i, a, b, cx.st.flag(CF))?;
    if !matches!(i.op, Op::Cmp | Op::Test) {
        cx.write(dst, i.size, res)?;
    }
    cx.st.set_flags(STATUS, f);
    Ok(Flow::Next)
}

/// The result and status flags of a two-operand ALU operation on `a` and `b`.
#[inline]
fn binary_op(i: &Insn, a: u64, b: u64, cf: bool) -> Result<(u64, u64), Trap> {
    binary_of(i.op, i.size, a, b, cf).ok_or(Trap::Unsupported)
}

/// The result and status flags of the two-operand ALU operation `op` in `size` bytes
/// (`None` for an op that is none of them); the block engine's handlers share it (issue 17).
#[inline(always)]
pub(crate) fn binary_of(op: Op, size: u8, a: u64, b: u64, cf: bool) -> Option<(u64, u64)> {
    Some(match op {
        Op::Add => add(a, b, false, size),
        Op::Adc => add(a, b, cf, size),
        Op::Sub | Op::Cmp => sub(a, b, false, size),
        Op::Sbb => sub(a, b, cf, size),
        Op::And | Op::Test => (a & b, logic(a & b, size)),
        Op::Or => (a | b, logic(a | b, size)),
        Op::Xor => (a ^ b, logic(a ^ b, size)),
        _ => return None,
    })
}

/// inc, dec, neg, not and the carry-flag instructions.
pub fn unary(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let dst = &i.ops[0];
    match i.op {
        Op::Clc => cx.st.set_flags(CF, 0),
        Op::Stc => cx.st.set_flags(CF, CF),
        Op::Cmc => cx.st.rflags ^= CF,
        Op::Inc | Op::Dec => {
            // A register operand reads and writes as `Ctx::read`/`Ctx::write` would.
            let a = match dst {
                Operand::Reg(g) => cx.st.get(*g) & mask(i.size),
                _ => cx.read(dst, i.size)?,
            };
            let (res, f) = if i.op == Op::Inc { add(a, 1, false, i.size) } else { sub(a, 1, false, i.size) };
            match dst {
                Operand::Reg(g) => cx.st.set(*g, res & mask(i.size)),
                _ => cx.write(dst, i.size, res)?,
            }
            cx.st.set_flags(OF | SF | ZF | AF | PF, f);
        }
        Op::Neg => {
            let a = cx.read(dst, i.size)?;
            let (res, f) = sub(0, a, false, i.size);
            cx.write(dst, i.size, res)?;
            cx.st.set_flags(STATUS, f);
        }
        Op::Not => {
            let a = cx.read(dst, i.size)?;
            cx.write(dst, i.size, !a & mask(i.size))?;
        }
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}
