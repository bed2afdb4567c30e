//! Branches of every kind, compare-and-branch, and load/store on condition.

use super::alu::compare;
use super::{ext, mask, put, width, Ctx, Flow, Trap};
use crate::decode::Insn;
use crate::optable::Op;

pub(super) fn execute(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let r1 = i.r(0);
    let next = i.next();
    let jump_if = |c: bool, to: u64| if c { Flow::Jump(to) } else { Flow::Next };
    Ok(match i.op {
        Op::Brc => jump_if(cx.cond(i.mask), i.i(0) as u64),
        Op::Bcr => {
            // BCR with r0 never branches (bcr 14/15,0 are serialisation points).
            let to = cx.st.reg(r1);
            jump_if(r1 != 0 && cx.cond(i.mask), to)
        }
        Op::Bc => jump_if(cx.cond(i.mask), cx.ea(i.m(0))),
        Op::Bras => {
            cx.st.set_reg(r1, next);
            Flow::Jump(i.i(0) as u64)
        }
        Op::Bas { reg: true } => {
            let r2 = i.r(1);
            let to = cx.st.reg(r2);
            cx.st.set_reg(r1, next);
            jump_if(r2 != 0, to)
        }
        Op::Bas { reg: false } => {
            let to = cx.ea(i.m(0));
            cx.st.set_reg(r1, next);
            Flow::Jump(to)
        }
        Op::Brct { g } => {
            let v = cx.st.reg(r1).wrapping_sub(1) & mask(width(g));
            put(cx.st, r1, g, v);
            jump_if(v != 0, i.i(0) as u64)
        }
        Op::Bctr { g } => {
            let r2 = i.r(1);
            let to = cx.st.reg(r2);
            let v = cx.st.reg(r1).wrapping_sub(1) & mask(width(g));
            put(cx.st, r1, g, v);
            jump_if(v != 0 && r2 != 0, to)
        }
        Op::CmpBranch { logical, g, imm } => {
            let w = width(g);
            let a = cx.st.reg(r1);
            let (b, target) = if imm { (ext(i.i(0) as u64, 1, !logical), i.i(1)) } else { (cx.st.reg(i.r(1)), i.i(0)) };
            let cc = compare(a, b, w, logical);
            jump_if((i.mask >> (3 - cc)) & 1 != 0, target as u64)
        }
        Op::LoadCond { g } => {
            if cx.cond(i.mask) {
                let v = cx.second(i, width(g))?;
                put(cx.st, r1, g, v);
            }
            Flow::Next
        }
        Op::StoreCond { g } => {
            if cx.cond(i.mask) {
                let a = cx.ea(i.m(0));
                let v = cx.st.reg(r1);
                cx.write(a, width(g), v)?;
            }
            Flow::Next
        }
        _ => return Err(Trap::Unsupported),
    })
}
