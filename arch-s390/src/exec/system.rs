//! Timer and clock stores, SPT, ECTG, SVC, LPSWE and the system-mask instructions. The privilege
//! check happens before dispatch (in [`crate::cpu`]); here the instructions just act.

use super::{Ctx, Flow, Trap};
use crate::decode::Insn;
use crate::optable::Op;

pub(super) fn execute(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    match i.op {
        Op::Stpt => {
            let a = cx.ea(i.m(0));
            cx.write(a, 8, cx.cpu_timer)?;
        }
        Op::Spt => {
            let v = cx.read(cx.ea(i.m(0)), 8)?;
            cx.set_cpu_timer = Some(v);
        }
        Op::Stck => {
            let a = cx.ea(i.m(0));
            cx.write(a, 8, cx.tod)?;
            cx.st.cc = 0;
        }
        Op::Ectg => {
            let first = cx.read(cx.ea(i.m(0)), 8)?;
            let second = cx.read(cx.ea(i.m(1)), 8)?;
            let r3 = i.r(0);
            let third = cx.read(cx.st.reg(r3), 8)?;
            cx.st.set_reg(0, first.wrapping_sub(cx.cpu_timer));
            cx.st.set_reg(1, second);
            cx.st.set_reg(r3, third);
        }
        Op::Svc => return Ok(Flow::Svc(i.i(0) as u8)),
        Op::Lpswe => {
            let a = cx.ea(i.m(0));
            let mask = cx.read(a, 8)?;
            let addr = cx.read(a.wrapping_add(8), 8)?;
            return Ok(Flow::Lpswe(mask, addr));
        }
        Op::Ssm => {
            let b = cx.read(cx.ea(i.m(0)), 1)?;
            cx.st.psw_mask = (cx.st.psw_mask & !(0xff << 56)) | (b << 56);
        }
        Op::StxSm { or } => {
            let a = cx.ea(i.m(0));
            let old = cx.st.psw_mask >> 56;
            cx.write(a, 1, old)?;
            let imm = (i.i(0) as u64) & 0xff;
            let new = if or { old | imm } else { old & imm };
            cx.st.psw_mask = (cx.st.psw_mask & !(0xff << 56)) | (new << 56);
        }
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}
