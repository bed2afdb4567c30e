//! Control flow, conditions, the stack and the system instructions the kernel's
//! local_irq_save/restore and time stamp reads use.

use super::{Ctx, Flow, Trap};
use crate::decode::{Cond, Insn, Op, Operand};
use crate::state::flags::{CF, IF, OF, PF, POPF_WRITABLE, RESERVED1, SF, ZF};
use crate::state::mask;

/// Whether `c` holds under `rflags`.
pub fn holds(c: Cond, rflags: u64) -> bool {
    let f = |b: u64| rflags & b != 0;
    match c {
        Cond::O => f(OF),
        Cond::No => !f(OF),
        Cond::B => f(CF),
        Cond::Ae => !f(CF),
        Cond::E => f(ZF),
        Cond::Ne => !f(ZF),
        Cond::Be => f(CF) || f(ZF),
        Cond::A => !f(CF) && !f(ZF),
        Cond::S => f(SF),
        Cond::Ns => !f(SF),
        Cond::P => f(PF),
        Cond::Np => !f(PF),
        Cond::L => f(SF) != f(OF),
        Cond::Ge => f(SF) == f(OF),
        Cond::Le => f(ZF) || f(SF) != f(OF),
        Cond::G => !f(ZF) && f(SF) == f(OF),
    }
}

/// setcc, cmovcc, jcc, jmp, call, ret, push, pop, leave.
pub fn flow(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    let [a, b, _] = &i.ops;
    let rflags = cx.st.rflags;
    let cond = || i.cond.map(|c| holds(c, rflags)).ok_or(Trap::Unsupported);
    match i.op {
        Op::Setcc => {
            let v = u64::from(cond()?);
            cx.write(a, 1, v)?;
        }
        Op::Cmovcc => {
            let take = cond()?;
            // The source is read (and may fault) either way; a 32-bit destination is
            // written, hence zero-extended, even when the condition fails.
            let s = cx.read(b, i.size)?;
            let d = cx.read(a, i.size)?;
            cx.write(a, i.size, if take { s } else { d })?;
        }
        Op::Jcc => {
            if cond()? {
                return Ok(Flow::Jump(cx.read(a, 8)?));
            }
        }
        Op::Jmp => return Ok(Flow::Jump(cx.read(a, 8)?)),
        Op::Call => {
            let target = cx.read(a, 8)?;
            cx.push(8, i.next())?;
            return Ok(Flow::Jump(target));
        }
        Op::Ret => {
            let to = cx.pop(8)?;
            if let Operand::Imm(n) = a {
                let sp = cx.st.reg(4).wrapping_add(*n as u64 & 0xffff);
                cx.st.set_reg(4, sp);
            }
            return Ok(Flow::Jump(to));
        }
        Op::Push => {
            let v = cx.read(a, i.size)?;
            cx.push(i.size, v)?;
        }
        Op::Pop => {
            let v = cx.pop(i.size)?;
            cx.write(a, i.size, v)?;
        }
        Op::Leave => {
            let bp = cx.st.reg(5);
            cx.st.set_reg(4, bp);
            let v = cx.pop(8)?;
            cx.st.set_reg(5, v);
        }
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}

/// pushf, popf, cli, sti, rdtsc, rdtscp, hlt.
pub fn system(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    match i.op {
        // RF and VM read as zero in the pushed image.
        Op::Pushf => cx.push(i.size, cx.st.rflags & !0x3_0000 & mask(i.size))?,
        Op::Popf => {
            let v = cx.pop(i.size)?;
            let which = POPF_WRITABLE & mask(i.size);
            cx.st.rflags = (cx.st.rflags & !which) | (v & which) | RESERVED1;
        }
        Op::Cli => cx.st.set_flags(IF, 0),
        Op::Sti => cx.st.set_flags(IF, IF),
        Op::Rdtsc | Op::Rdtscp => {
            let tsc = cx.tsc;
            cx.st.set_reg(0, tsc & 0xffff_ffff);
            cx.st.set_reg(2, tsc >> 32);
            if i.op == Op::Rdtscp {
                cx.st.set_reg(1, u64::from(cx.st.tsc_aux));
            }
        }
        Op::Hlt => return Ok(Flow::Halt),
        _ => return Err(Trap::Unsupported),
    }
    Ok(Flow::Next)
}
