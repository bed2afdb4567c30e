//! FP register moves and arithmetic: getf/setf, fmerge, and the fma family through `f64`
//! (see `state::fr` for what that approximates).

use super::access::{fr, gr, set_fr, set_gr};
use super::op::Op;
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow};
use crate::state::fr::Fr;
use crate::state::State;

/// Executes getf, setf, fmerge and fma-type instructions.
pub(super) fn execute(st: &mut State, e: &Exec, _ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::Getf { kind } => {
            let f = fr(st, o[1]);
            let nat = f == Fr::NATVAL;
            let v = match kind {
                0 => f.sig,
                1 => u64::from(f.exp) | (u64::from(f.sign) << 17),
                2 => u64::from((f.to_f64() as f32).to_bits()),
                _ => f.to_f64().to_bits(),
            };
            set_gr(st, o[0], if nat { 0 } else { v }, nat)?;
        }
        Op::Setf { kind } => {
            let (v, nat) = gr(st, o[1]);
            let f = match (nat, kind) {
                (true, _) => Fr::NATVAL,
                (false, 0) => Fr::integer(v),
                (false, 1) => Fr { sign: v & (1 << 17) != 0, exp: (v & 0x1FFFF) as u32, sig: 1 << 63 },
                (false, 2) => Fr::from_f64(f64::from(f32::from_bits(v as u32))),
                (false, _) => Fr::from_f64(f64::from_bits(v)),
            };
            set_fr(st, o[0], f)?;
        }
        Op::Fmerge { kind } => {
            let (a, b) = (fr(st, o[1]), fr(st, o[2]));
            let f = match kind {
                0 => Fr { sign: a.sign, ..b },
                1 => Fr { sign: !a.sign, ..b },
                _ => Fr { sign: a.sign, exp: a.exp, sig: b.sig },
            };
            set_fr(st, o[0], f)?;
        }
        Op::Fma { sub, neg, pc } => {
            let (a, b, c) = (fr(st, o[1]), fr(st, o[2]), fr(st, o[3]));
            let f = if [a, b, c].contains(&Fr::NATVAL) {
                Fr::NATVAL
            } else {
                let product = a.to_f64() * b.to_f64();
                let product = if neg { -product } else { product };
                let addend = if sub { -c.to_f64() } else { c.to_f64() };
                let v = product + addend;
                Fr::from_f64(if pc == 1 { f64::from(v as f32) } else { v })
            };
            set_fr(st, o[0], f)?;
        }
        Op::Xma { high, unsigned } => {
            let (a, b, c) = (fr(st, o[1]), fr(st, o[2]), fr(st, o[3]));
            let f = if [a, b, c].contains(&Fr::NATVAL) {
                Fr::NATVAL
            } else {
                Fr::integer(xma_significand(a.sig, b.sig, c.sig, high, unsigned))
            };
            set_fr(st, o[0], f)?;
        }
        _ => {}
    }
    Ok(Flow::Next)
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
