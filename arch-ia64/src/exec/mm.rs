//! Multimedia semantics (issue 12): the parallel integer operations on the 1-, 2- and 4-byte
//! elements of general registers (SDM vol. 3 instruction pages padd, psub, pavg, pavgsub,
//! pcmp, pshladd2, pshradd2, pmpyshr2, pmpy2, mix, pack, unpack, pmin, pmax, psad1, mux,
//! pshr, pshl, popcnt, clz, czx). Element 0 is the least significant. Every result's NaT is
//! the OR of its general-register sources' NaTs (SDM: `GR[r1].nat = GR[r2].nat || GR[r3].nat`).
//!
//! Cross-checked element by element against the HP Ski simulator's multimedia routines (an
//! independent implementation; its byte macros number from the most significant end) and the
//! SDM Operation text where found (pack, unpack, psub, pshl, pshr, czx): every value and NaT
//! rule agrees. Two reserved encodings now raise an Illegal Operation fault as Ski does:
//! mux1 with an mbtype4 other than the five named ones, and pshladd2/pshradd2 with ct2d = 3
//! (Ski's A10 count decoding marks it reserved). mpy4, mpyshl4 and tf are later than SDM rev
//! 2.3 and the Itanium 2 modelled (Madison): on it their encodings are unimplemented opcodes,
//! which take the General Exception vector's (0x5400) Illegal Operation fault, ISR.code{7:4} = 0
//! (SDM rev 2.3 vol. 2 part I, Interruption Vector Descriptions), as vmsw does. clz is an
//! Itanium 9500 addition too (no source used here lists it on Itanium 2), so it faults the
//! same way rather than computing a count the modelled processor cannot.

use super::access::{gr, set_gr};
use super::interrupt::illegal_operation;
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow};
use crate::state::State;

pub use super::op::{Mbtype, MmOp, Sat};

/// Bits in an element of `size` bytes.
fn bits(size: u8) -> u32 {
    u32::from(size) * 8
}

fn lane_mask(size: u8) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << bits(size)) - 1
    }
}

/// Element `i` of `x`, zero-extended.
fn el(x: u64, size: u8, i: u32) -> u64 {
    (x >> (i * bits(size))) & lane_mask(size)
}

/// Element `i` of `x`, sign-extended.
fn sel(x: u64, size: u8, i: u32) -> i64 {
    let b = bits(size);
    ((el(x, size, i) << (64 - b)) as i64) >> (64 - b)
}

fn lanes(size: u8) -> u32 {
    8 / u32::from(size)
}

/// Builds a register from per-element values (each cut to the element width).
fn build(size: u8, f: impl Fn(u32) -> u64) -> u64 {
    (0..lanes(size)).fold(0u64, |acc, i| acc | ((f(i) & lane_mask(size)) << (i * bits(size))))
}

fn signed_range(size: u8) -> (i64, i64) {
    let b = bits(size);
    (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1)
}

fn sat_signed(v: i64, size: u8) -> u64 {
    let (lo, hi) = signed_range(size);
    v.clamp(lo, hi) as u64
}

fn sat_unsigned(v: i64, size: u8) -> u64 {
    v.clamp(0, lane_mask(size) as i64) as u64
}

/// padd or psub, element by element: `sign` is +1 or -1 (the operation on the r3 element).
fn add_sub(a: u64, b: u64, size: u8, sat: Sat, sign: i64) -> u64 {
    build(size, |i| match sat {
        Sat::Modulo => (el(a, size, i) as i64).wrapping_add(sign.wrapping_mul(el(b, size, i) as i64)) as u64,
        Sat::Sss => sat_signed(sel(a, size, i) + sign * sel(b, size, i), size),
        Sat::Uuu => sat_unsigned(el(a, size, i) as i64 + sign * el(b, size, i) as i64, size),
        Sat::Uus => sat_unsigned(el(a, size, i) as i64 + sign * sel(b, size, i), size),
    })
}

/// mux1's permutation of `mbtype4`, or `None` for a reserved value.
fn mbtype(v: i64) -> Option<Mbtype> {
    Some(match v {
        0 => Mbtype::Brcst,
        8 => Mbtype::Mix,
        9 => Mbtype::Shuf,
        0xa => Mbtype::Alt,
        0xb => Mbtype::Rev,
        _ => return None,
    })
}

/// The source byte of each result byte under a mux1 permutation (SDM vol. 3 mux,
/// "Mux permutations for 8-bit elements").
fn mux1_sources(t: Mbtype) -> [u32; 8] {
    match t {
        Mbtype::Brcst => [0; 8],
        Mbtype::Mix => [0, 4, 2, 6, 1, 5, 3, 7],
        Mbtype::Shuf => [0, 4, 1, 5, 2, 6, 3, 7],
        Mbtype::Alt => [0, 2, 4, 6, 1, 3, 5, 7],
        Mbtype::Rev => [7, 6, 5, 4, 3, 2, 1, 0],
    }
}

/// Executes a multimedia operation writing r1 (operand 0).
pub(super) fn execute(st: &mut State, e: &Exec, _ctx: &Ctx, m: MmOp) -> ExecResult {
    // Checked before any operand is read: a later form's operands need not be registers.
    if let MmOp::Later9500(what) = m {
        return later(what);
    }
    let o = &e.ops;
    let r = |i: usize| gr(st, o[i]);
    let ((a, na), (b, nb)) = (r(1), r(2));
    let value = match m {
        MmOp::Add { size, sat } => add_sub(a, b, size, sat, 1),
        MmOp::Sub { size, sat } => add_sub(a, b, size, sat, -1),
        MmOp::Avg { size, raz } => build(size, |i| {
            let s = el(a, size, i) + el(b, size, i);
            if raz {
                (s + 1) >> 1
            } else {
                (s >> 1) | (s & 1)
            }
        }),
        MmOp::AvgSub { size } => build(size, |i| {
            let d = el(a, size, i) as i64 - el(b, size, i) as i64;
            ((d >> 1) | (d & 1)) as u64
        }),
        MmOp::Cmp { size, gt } => build(size, |i| {
            let t = if gt { sel(a, size, i) > sel(b, size, i) } else { el(a, size, i) == el(b, size, i) };
            if t {
                u64::MAX
            } else {
                0
            }
        }),
        MmOp::ShlAdd | MmOp::ShrAdd => {
            // Operands: r2, count, r3. A shift out of range saturates the element whatever
            // the addend ("if the result of either the shift or the add is not representable
            // ... the final result is saturated").
            let (y, ny) = r(3);
            let count = o[2] as u32;
            // A10's ct2d = 3 (count 4) is reserved: the assembler accepts 1..3 only, and Ski
            // decodes it as a reserved field, raising an Illegal Operation fault.
            if !(1..=3).contains(&count) {
                let name = if m == MmOp::ShlAdd { "pshladd2" } else { "pshradd2" };
                return Err(illegal_operation(&format!("{name} with the reserved count {count}")));
            }
            let v = build(2, |i| {
                let x = sel(a, 2, i);
                let shifted = if m == MmOp::ShlAdd { x << count } else { x >> count };
                let (lo, hi) = signed_range(2);
                if shifted > hi || shifted < lo {
                    sat_signed(shifted, 2)
                } else {
                    sat_signed(shifted + sel(y, 2, i), 2)
                }
            });
            return finish(st, o[0], v, na | ny);
        }
        MmOp::MpyShr { unsigned } => {
            let count = o[3] as u32;
            build(2, |i| {
                if unsigned {
                    (el(a, 2, i) * el(b, 2, i)) >> count
                } else {
                    ((sel(a, 2, i) * sel(b, 2, i)) >> count) as u64
                }
            })
        }
        MmOp::Mpy { left } => {
            let first = u32::from(left);
            build(4, |i| (sel(a, 2, first + 2 * i) * sel(b, 2, first + 2 * i)) as u64)
        }
        MmOp::Mix { size, left } => build(size, |i| {
            let pick = (i & !1) + u32::from(left);
            if i % 2 == 0 {
                el(b, size, pick)
            } else {
                el(a, size, pick)
            }
        }),
        MmOp::Pack { size, unsigned } => {
            let half = lanes(size);
            let out = size / 2;
            build(out, |i| {
                let (src, j) = if i < half { (a, i) } else { (b, i - half) };
                let v = sel(src, size, j);
                if unsigned {
                    sat_unsigned(v, out)
                } else {
                    sat_signed(v, out)
                }
            })
        }
        MmOp::Unpack { size, high } => {
            let base = if high { lanes(size) / 2 } else { 0 };
            build(size, |i| if i % 2 == 0 { el(b, size, base + i / 2) } else { el(a, size, base + i / 2) })
        }
        MmOp::Min { size } | MmOp::Max { size } => build(size, |i| {
            let lt = if size == 1 { el(a, size, i) < el(b, size, i) } else { sel(a, size, i) < sel(b, size, i) };
            let take_a = lt == matches!(m, MmOp::Min { .. });
            if take_a {
                el(a, size, i)
            } else {
                el(b, size, i)
            }
        }),
        MmOp::Sad => (0..8).map(|i| el(a, 1, i).abs_diff(el(b, 1, i))).sum(),
        MmOp::Mux1 => {
            // A reserved mbtype4 is an Illegal Operation fault (Ski's mux1 operand read).
            let Some(t) = mbtype(o[2]) else {
                return Err(illegal_operation(&format!("mux1 with the reserved mbtype4 value {:#x}", o[2])));
            };
            let src = mux1_sources(t);
            return finish(st, o[0], build(1, |i| el(a, 1, src[i as usize])), na);
        }
        MmOp::Mux2 => {
            let sel_bits = o[2] as u64;
            return finish(st, o[0], build(2, |i| el(a, 2, ((sel_bits >> (2 * i)) & 3) as u32)), na);
        }
        MmOp::Shr { size, unsigned, imm } => {
            let (count, nc) = if imm { (o[2] as u64, false) } else { (b, nb) };
            // A count beyond the element width acts as the width: zero, or the sign everywhere.
            let c = count.min(u64::from(bits(size))) as u32;
            let v = build(size, |i| {
                if unsigned {
                    el(a, size, i).checked_shr(c).unwrap_or(0)
                } else {
                    (sel(a, size, i) >> c.min(bits(size) - 1)) as u64
                }
            });
            return finish(st, o[0], v, na | nc);
        }
        MmOp::Shl { size, imm } => {
            let (count, nc) = if imm { (o[2] as u64, false) } else { (b, nb) };
            let c = count.min(u64::from(bits(size))) as u32;
            let v = build(size, |i| el(a, size, i).checked_shl(c).unwrap_or(0));
            return finish(st, o[0], v, na | nc);
        }
        MmOp::Popcnt => return finish(st, o[0], u64::from(a.count_ones()), na),
        MmOp::Clz => return Err(illegal_operation("clz is not implemented on Itanium 2")),
        MmOp::Later9500(what) => return later(what),
        MmOp::Czx { size, left } => {
            let n = lanes(size);
            let zero = |i: u32| el(a, size, if left { n - 1 - i } else { i }) == 0;
            let idx = (0..n).find(|i| zero(*i)).unwrap_or(n);
            return finish(st, o[0], u64::from(idx), na);
        }
        // mpy4, mpyshl4, tf (and clz above) came after the Itanium 2 (Madison) modelled: their encodings are
        // unimplemented opcodes there, and an unimplemented opcode raises Illegal Operation.
        MmOp::Mpy4 { shl } => {
            let what = if shl { "mpyshl4" } else { "mpy4" };
            return Err(illegal_operation(&format!("{what} is not implemented on Itanium 2")));
        }
        // Operand 2 is the feature number (p1, p2, imm5b).
        MmOp::Tf { .. } => {
            return Err(illegal_operation(&format!("tf (test feature {}) is not implemented on Itanium 2", o[2])));
        }
    };
    finish(st, o[0], value, na | nb)
}

/// The Illegal Operation fault of a form the Itanium 2 modelled does not implement.
fn later(what: &str) -> ExecResult {
    Err(illegal_operation(&format!("{what} is not implemented on Itanium 2")))
}

fn finish(st: &mut State, r1: i64, value: u64, nat: bool) -> ExecResult {
    set_gr(st, r1, value, nat)?;
    Ok(Flow::Next)
}
