//! Stores, PC-relative loads/stores, SI, SIL and SS forms, multiple-register and interlocked
//! load-and-op forms, insert character.

use super::alu::{alu, cc_tm, compare};
use super::{ext, put, width, Ctx, Flow, Trap};
use crate::decode::Insn;
use crate::optable::{Op, SiFn, SsFn};

pub(super) fn execute(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let r1 = i.r(0);
    match i.op {
        Op::LoadRel { w, sx, g } => {
            let v = ext(cx.read(i.i(0) as u64, w)?, w, sx);
            put(cx.st, r1, g, v);
        }
        Op::Store { w } => {
            let a = cx.ea(i.m(0));
            let v = cx.st.reg(r1);
            cx.write(a, w, v)?;
        }
        Op::StoreRel { w } => {
            let v = cx.st.reg(r1);
            cx.write(i.i(0) as u64, w, v)?;
        }
        Op::Ic => {
            let b = cx.read(cx.ea(i.m(0)), 1)?;
            let old = cx.st.reg(r1);
            cx.st.set_reg(r1, (old & !0xff) | b);
        }
        Op::Si { f } => {
            let a = cx.ea(i.m(0));
            let imm = (i.i(0) as u64) & 0xff;
            if f == SiFn::Move {
                cx.write(a, 1, imm)?;
                return Ok(Flow::Next);
            }
            let b = cx.read(a, 1)?;
            let r = match f {
                SiFn::Test => {
                    cx.st.cc = cc_tm(b, imm, false);
                    return Ok(Flow::Next);
                }
                SiFn::Compare => {
                    cx.st.cc = compare(b, imm, 1, true);
                    return Ok(Flow::Next);
                }
                SiFn::And => b & imm,
                SiFn::Or => b | imm,
                _ => b ^ imm,
            };
            cx.write(a, 1, r)?;
            cx.st.cc = u8::from(r != 0);
        }
        Op::Sil { w, mv, logical } => {
            let a = cx.ea(i.m(0));
            let imm = i.i(0) as u64;
            if mv {
                cx.write(a, w, ext(imm, 2, true))?;
            } else {
                let v = ext(cx.read(a, w)?, w, !logical);
                let b = ext(imm, 2, !logical);
                cx.st.cc = compare(v, b, 8, logical);
            }
        }
        Op::Ss { f } => ss(i, cx, f)?,
        Op::Stm { g } | Op::Lm { g } => {
            let w = width(g);
            let a = cx.ea(i.m(0));
            let count = (i.r(1).wrapping_sub(r1) & 15) + 1;
            for k in 0..count {
                let r = (r1 + k) & 15;
                let at = a.wrapping_add(u64::from(k) * u64::from(w));
                if matches!(i.op, Op::Stm { .. }) {
                    let v = cx.st.reg(r);
                    cx.write(at, w, v)?;
                } else {
                    let v = cx.read(at, w)?;
                    put(cx.st, r, g, v);
                }
            }
        }
        Op::LoadAndOp { f, g } => {
            let w = width(g);
            let a = cx.ea(i.m(0));
            let old = cx.read(a, w)?;
            let (r, cc) = alu(f, old, cx.st.reg(i.r(1)), w, cx.st.cc);
            cx.write(a, w, r)?;
            put(cx.st, r1, g, old);
            if let Some(cc) = cc {
                cx.st.cc = cc;
            }
        }
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}

/// SS forms, byte by byte left to right (so MVC's one-byte-overlap fill idiom works); the
/// length is the instruction's L field plus one.
fn ss(i: &Insn, cx: &mut Ctx<'_>, f: SsFn) -> Result<(), Trap> {
    let len = u64::from(i.raw[1]) + 1;
    cx.ss_len = len;
    let (a1, a2) = (cx.ea(i.m(0)), cx.ea(i.m(1)));
    let mut any = false;
    for k in 0..len {
        let (p1, p2) = (a1.wrapping_add(k), a2.wrapping_add(k));
        let b2 = cx.read(p2, 1)?;
        let r = match f {
            SsFn::Move => b2,
            SsFn::Compare => {
                let b1 = cx.read(p1, 1)?;
                if b1 != b2 {
                    cx.st.cc = if b1 < b2 { 1 } else { 2 };
                    return Ok(());
                }
                continue;
            }
            SsFn::Xor => cx.read(p1, 1)? ^ b2,
            SsFn::And => cx.read(p1, 1)? & b2,
            SsFn::Or => cx.read(p1, 1)? | b2,
        };
        any |= r != 0;
        cx.write(p1, 1, r)?;
    }
    match f {
        SsFn::Move => {}
        SsFn::Compare => cx.st.cc = 0,
        _ => cx.st.cc = u8::from(any),
    }
    Ok(())
}
