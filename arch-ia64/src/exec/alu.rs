//! Integer ALU, shifts, extract/deposit, extensions, movl, compares and bit tests
//! (SDM vol. 3 instruction pages; NaT propagation per `reference/ia64-system.md` section 6:
//! the result's NaT is the OR of the sources').

use super::access::{gr, set_gr};
use super::op::{CmpType, Op, Rel};
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow};
use crate::state::State;

/// A zero-extended 32-bit address made 64-bit by addp4/shladdp4: the region bits 62:61 come
/// from bits 31:30 of the r3 operand `base`, not of the sum (SDM vol. 3 addp4 pseudo-code:
/// `tmp_res{62:61} = GR[r3]{31:30}`).
fn p4(sum: u64, base: u64) -> u64 {
    (sum & 0xFFFF_FFFF) | (((base >> 30) & 3) << 61)
}

/// The low `len` bits set (all 64 from 64 on).
pub(crate) fn mask(len: u32) -> u64 {
    if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}

/// Integer operations writing r1 (operand 0).
pub(super) fn integer(st: &mut State, e: &Exec, _ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    let r = |i: usize| gr(st, o[i]);
    let (value, nat) = match e.op {
        Op::Add { plus_one } => {
            let ((a, na), (b, nb)) = (r(1), r(2));
            (a.wrapping_add(b).wrapping_add(u64::from(plus_one)), na | nb)
        }
        Op::Sub { minus_one } => {
            let ((a, na), (b, nb)) = (r(1), r(2));
            (a.wrapping_sub(b).wrapping_sub(u64::from(minus_one)), na | nb)
        }
        Op::Addp4 => {
            let ((a, na), (b, nb)) = (r(1), r(2));
            (p4(a.wrapping_add(b), b), na | nb)
        }
        Op::And | Op::Andcm | Op::Or | Op::Xor => {
            let ((a, na), (b, nb)) = (r(1), r(2));
            (logic(e.op, a, b), na | nb)
        }
        Op::Shladd { p4: four } => {
            let ((a, na), (b, nb)) = (r(1), r(3));
            let v = (a << o[2]).wrapping_add(b);
            (if four { p4(v, b) } else { v }, na | nb)
        }
        Op::AddImm => {
            let (b, nb) = r(2);
            ((o[1] as u64).wrapping_add(b), nb)
        }
        Op::Addp4Imm => {
            let (b, nb) = r(2);
            (p4((o[1] as u64).wrapping_add(b), b), nb)
        }
        Op::SubImm => {
            let (b, nb) = r(2);
            ((o[1] as u64).wrapping_sub(b), nb)
        }
        Op::AndImm | Op::AndcmImm | Op::OrImm | Op::XorImm => {
            let (b, nb) = r(2);
            let reg_op = match e.op {
                Op::AndImm => Op::And,
                Op::AndcmImm => Op::Andcm,
                Op::OrImm => Op::Or,
                _ => Op::Xor,
            };
            (logic(reg_op, o[1] as u64, b), nb)
        }
        Op::ShlVar => {
            // shl r1=r2,r3: counts above 63 give 0.
            let ((a, na), (c, nc)) = (r(1), r(2));
            (if c > 63 { 0 } else { a << c }, na | nc)
        }
        Op::ShrVar { signed } => {
            // shr r1=r3,r2: value in operand 1, count in operand 2.
            let ((a, na), (c, nc)) = (r(1), r(2));
            let v = match (signed, c > 63) {
                (true, true) => ((a as i64) >> 63) as u64,
                (true, false) => ((a as i64) >> c) as u64,
                (false, true) => 0,
                (false, false) => a >> c,
            };
            (v, na | nc)
        }
        Op::Shrp => {
            let ((hi, na), (lo, nb)) = (r(1), r(2));
            let c = o[3] as u32;
            let v = if c == 0 { lo } else { (lo >> c) | (hi << (64 - c)) };
            (v, na | nb)
        }
        Op::Extr { signed } => {
            let (a, na) = r(1);
            // A field running past bit 63 is cut there (and sign-extended from bit 63).
            let pos = o[2] as u32 & 63;
            let len = (o[3] as u32).clamp(1, 64 - pos);
            let field = (a >> pos) & mask(len);
            let v = if signed && len < 64 && (field >> (len - 1)) & 1 == 1 { field | !mask(len) } else { field };
            (v, na)
        }
        Op::DepZ => {
            let (a, na) = r(1);
            let (pos, len) = (o[2] as u32, o[3] as u32);
            ((a & mask(len)).checked_shl(pos).unwrap_or(0), na)
        }
        Op::DepZImm => {
            let (pos, len) = (o[2] as u32, o[3] as u32);
            (((o[1] as u64) & mask(len)).checked_shl(pos).unwrap_or(0), false)
        }
        Op::DepImm1 => {
            let (b, nb) = r(2);
            let (pos, len) = (o[3] as u32, o[4] as u32);
            let m = mask(len).checked_shl(pos).unwrap_or(0);
            let src = if o[1] != 0 { u64::MAX } else { 0 };
            ((b & !m) | (src & m), nb)
        }
        Op::Dep => {
            let ((a, na), (b, nb)) = (r(1), r(2));
            let (pos, len) = (o[3] as u32, o[4] as u32);
            let m = mask(len).checked_shl(pos).unwrap_or(0);
            ((b & !m) | (a.checked_shl(pos).unwrap_or(0) & m), na | nb)
        }
        Op::Zxt(n) => {
            let (a, na) = r(1);
            (a & mask(u32::from(n) * 8), na)
        }
        Op::Sxt(n) => {
            let (a, na) = r(1);
            let shift = 64 - u32::from(n) * 8;
            ((((a << shift) as i64) >> shift) as u64, na)
        }
        Op::Movl => (o[1] as u64, false),
        _ => (0, false),
    };
    set_gr(st, o[0], value, nat)?;
    Ok(Flow::Next)
}

fn logic(op: Op, a: u64, b: u64) -> u64 {
    match op {
        Op::And => a & b,
        Op::Andcm => a & !b,
        Op::Or => a | b,
        _ => a ^ b,
    }
}

/// Whether `a rel b` holds (on the low 32 bits, sign-extended for the signed relations, when `four`).
pub(crate) fn relation(rel: Rel, a: u64, b: u64, four: bool) -> bool {
    let (sa, sb) = if four { (a as u32 as i32 as i64, b as u32 as i32 as i64) } else { (a as i64, b as i64) };
    let (ua, ub) = if four { (a & 0xFFFF_FFFF, b & 0xFFFF_FFFF) } else { (a, b) };
    match rel {
        Rel::Eq => ua == ub,
        Rel::Ne => ua != ub,
        Rel::Lt => sa < sb,
        Rel::Ltu => ua < ub,
        Rel::Gt => sa > sb,
        Rel::Le => sa <= sb,
        Rel::Ge => sa >= sb,
    }
}

/// Writes the two target predicates of a compare-type instruction (SDM vol. 3 Table 2-10:
/// compare types). `nat` is true when a source was NaT: normal and unc clear both, and
/// clears both, or and or.andcm leave them alone.
fn write_targets(st: &mut State, p1: u8, p2: u8, ctype: CmpType, result: bool, nat: bool) {
    match (ctype, nat) {
        (CmpType::Normal | CmpType::Unc, true) | (CmpType::And, true) => {
            st.set_p(p1, false);
            st.set_p(p2, false);
        }
        (CmpType::Or | CmpType::OrAndcm, true) => {}
        (CmpType::Normal | CmpType::Unc, false) => {
            st.set_p(p1, result);
            st.set_p(p2, !result);
        }
        (CmpType::And, false) => {
            if !result {
                st.set_p(p1, false);
                st.set_p(p2, false);
            }
        }
        (CmpType::Or, false) => {
            if result {
                st.set_p(p1, true);
                st.set_p(p2, true);
            }
        }
        (CmpType::OrAndcm, false) => {
            if result {
                st.set_p(p1, true);
                st.set_p(p2, false);
            }
        }
    }
}

/// cmp, cmp4, tbit, tnat (their qualifying predicate is true here).
pub(super) fn compare(st: &mut State, e: &Exec, _ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    let (p1, p2) = (o[0] as u8, o[1] as u8);
    let (ctype, result, nat) = match e.op {
        Op::Cmp { rel, ctype, four, imm, zero } => {
            let (a, na) = if imm || zero { (o[2] as u64, false) } else { gr(st, o[2]) };
            let (b, nb) = gr(st, o[3]);
            (ctype, relation(rel, a, b, four), na | nb)
        }
        Op::Tbit { nz, ctype } => {
            let (v, n) = gr(st, o[2]);
            let bit = (v >> (o[3] as u32 & 63)) & 1 == 1;
            (ctype, bit == nz, n)
        }
        Op::Tnat { nz, ctype } => {
            let (_, n) = gr(st, o[2]);
            (ctype, n == nz, false)
        }
        _ => return Ok(Flow::Next),
    };
    write_targets(st, p1, p2, ctype, result, nat);
    Ok(Flow::Next)
}

/// The unc compares clear both targets even when their qualifying predicate is false.
pub(crate) fn predicated_off(st: &mut State, e: &Exec) {
    let unc = matches!(
        e.op,
        Op::Cmp { ctype: CmpType::Unc, .. }
            | Op::Tbit { ctype: CmpType::Unc, .. }
            | Op::Tnat { ctype: CmpType::Unc, .. }
    );
    if unc {
        st.set_p(e.ops[0] as u8, false);
        st.set_p(e.ops[1] as u8, false);
    }
}
