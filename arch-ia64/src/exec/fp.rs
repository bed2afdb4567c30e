//! FP register moves and arithmetic: getf/setf, fmerge, the fma family and xma. The
//! arithmetic and the format conversions are the exact model of `crate::fpu`; this file
//! reads the operands and ar.fpsr, writes the result and the status-field flags, and raises
//! the FP Exception fault (nothing written) or trap (result and flags written) an enabled
//! exception asks for.

use super::access::{fr, gr, set_fr, set_gr};
use super::interrupt::{fp_fault, fp_trap, illegal_operation};
use super::op::Op;
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow, Trap};
use crate::fpu::env::{fpsr_with_flags, Env, Outcome, Precision};
use crate::fpu::fma::{fma, FmaOp};
use crate::fpu::memfmt;
use crate::state::fr::Fr;
use crate::state::{ar, State};

/// Executes getf, setf, fmerge and fma-type instructions.
pub(super) fn execute(st: &mut State, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::Getf { kind } => {
            let f = fr(st, o[1]);
            let nat = f == Fr::NATVAL;
            let v = match kind {
                0 => f.sig,
                1 => memfmt::to_exp_image(f),
                2 => u64::from(memfmt::to_single(f)),
                _ => memfmt::to_double(f),
            };
            set_gr(st, o[0], if nat { 0 } else { v }, nat)?;
        }
        Op::Setf { kind } => {
            let (v, nat) = gr(st, o[1]);
            let f = match (nat, kind) {
                (true, _) => Fr::NATVAL,
                (false, 0) => memfmt::from_integer(v),
                (false, 1) => memfmt::from_exp_image(v),
                (false, 2) => memfmt::from_single(v as u32),
                (false, _) => memfmt::from_double(v),
            };
            set_fr(st, o[0], f)?;
        }
        Op::Fma { sub, neg, pc, sf } => {
            check_target(o[0])?;
            let precision = match pc {
                1 => Precision::Single,
                2 => Precision::Double,
                _ => Precision::Dynamic,
            };
            let env = fp_env(st, sf, precision, ctx, "fma-family instruction")?;
            let (op, f2) = fma_parts(st, sub, neg, o[3]);
            let out = fma(op, fr(st, o[1]), fr(st, o[2]), f2, &env);
            commit(st, o[0], sf, out, "fma")?;
        }
        Op::Xma { high, unsigned } => {
            let (a, b, c) = (fr(st, o[1]), fr(st, o[2]), fr(st, o[3]));
            let f = if [a, b, c].contains(&Fr::NATVAL) {
                Fr::NATVAL
            } else {
                memfmt::from_integer(xma_significand(a.sig, b.sig, c.sig, high, unsigned))
            };
            set_fr(st, o[0], f)?;
        }
        _ => {}
    }
    Ok(Flow::Next)
}

/// The environment of status field `sf` for precision `p`; a status field the FPU cannot
/// model stops the run, naming `what` and the pc.
pub(super) fn fp_env(st: &State, sf: u8, p: Precision, ctx: &Ctx, what: &str) -> Result<Env, Trap> {
    Env::new(st.ar[ar::FPSR as usize], sf, p).map_err(|err| super::unimplemented(ctx, format!("{what}: {err}")))
}

/// The multiply-add variant the `sub`/`neg` completer bits select (fms, fnma, else fma),
/// and register `f2` as the addend: `None` for f0, which the forms read as "no addition".
pub(super) fn fma_parts(st: &State, sub: bool, neg: bool, f2: i64) -> (FmaOp, Option<Fr>) {
    let op = if sub {
        FmaOp::Fms
    } else if neg {
        FmaOp::Fnma
    } else {
        FmaOp::Fma
    };
    (op, if f2 == 0 { None } else { Some(fr(st, f2)) })
}

/// f0 and f1 are read-only: writing them is an Illegal Operation fault, checked before any
/// FP exception (SDM vol. 3 `fp_check_target_register`).
pub(super) fn check_target(f1: i64) -> Result<(), Trap> {
    if f1 < 2 {
        return Err(illegal_operation(&format!("write to f{f1}")));
    }
    Ok(())
}

/// Writes an FP outcome to `f1` and its flags to status field `sf`, or raises the fault or
/// trap it asks for.
fn commit(st: &mut State, f1: i64, sf: u8, out: Outcome, what: &str) -> Result<(), Trap> {
    commit_with(st, sf, out, what, |st, v| set_fr(st, f1, v))
}

/// The commit path of every FP arithmetic result: an enabled fault (or a Software Assist
/// fault) raises the FP Exception fault with nothing written; otherwise `write` stores the
/// value, the flags are ORed into status field `sf`, and an enabled trap raises the FP
/// Exception trap.
pub(super) fn commit_with<T>(
    st: &mut State,
    sf: u8,
    out: Outcome<T>,
    what: &str,
    write: impl FnOnce(&mut State, T) -> Result<(), Trap>,
) -> Result<(), Trap> {
    if let (true, Some(code)) = (out.event.is_fault(), out.event.isr_code()) {
        return Err(fp_fault(code, &format!("{what} (ISR.code 0x{code:x})")));
    }
    write(st, out.value)?;
    let fpsr = &mut st.ar[ar::FPSR as usize];
    *fpsr = fpsr_with_flags(*fpsr, sf, out.flags);
    if let Some(code) = out.event.isr_code() {
        return Err(fp_trap(code, &format!("{what} (ISR.code 0x{code:x})")));
    }
    Ok(())
}

/// The result significand of xma (SDM vol. 3, xma pseudo-code): f3 and f4's significands as
/// signed or unsigned 64-bit integers multiplied to 128 bits, f2's significand zero-extended
/// and added (modulo 2^128), then the high or low 64 bits. The low half does not depend on
/// signedness, which is why `.lu` is only an assembler spelling of `.l`.
fn xma_significand(f3: u64, f4: u64, f2: u64, high: bool, unsigned: bool) -> u64 {
    let product = if unsigned {
        u128::from(f3).wrapping_mul(u128::from(f4))
    } else {
        // Two's complement: the signed 128-bit product's bits, as the hardware keeps them.
        (i128::from(f3 as i64).wrapping_mul(i128::from(f4 as i64))) as u128
    };
    let sum = product.wrapping_add(u128::from(f2));
    if high {
        (sum >> 64) as u64
    } else {
        sum as u64
    }
}
