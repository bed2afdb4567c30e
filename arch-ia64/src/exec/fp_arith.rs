//! The arithmetic F-unit forms beyond the fma family (`Op::FpArith`): parallel multiply-add,
//! fcmp/fpcmp, fcvt/fpcvt, fmin/fmax/famin/famax and their parallel forms, fpack, fchkf, and
//! the frcpa/frsqrta approximations (SDM vol. 3, each instruction's page). The values come
//! from the exact model in `crate::fpu`; every result goes through `fp.rs`'s commit path,
//! which writes the status-field flags and raises the enabled fault or trap.

use super::access::{fr, set_fr};
use super::fp::{check_target, commit_with, fma_parts, fp_env};
use super::interrupt::illegal_operation;
use super::op::{FpArithOp, Op};
use super::predecode::Exec;
use super::{Ctx, ExecResult, Flow, Trap};
use crate::fpu::cmp::{fcmp, min_max, MinMax, Relation};
use crate::fpu::cvt::{fcvt_fx, fcvt_xf};
use crate::fpu::env::{Env, Precision, StatusField};
use crate::fpu::memfmt::to_single;
use crate::fpu::parallel::{fp_min_max, fpcmp, fpcvt_fx, fpma};
use crate::fpu::recip::{fprcpa, fprsqrta, frcpa, frsqrta, pair};
use crate::state::fr::Fr;
use crate::state::{ar, State};

/// The relation of an fcmp/fpcmp `frel` field (0-7: eq lt le unord neq nlt nle ord).
fn relation(frel: u8) -> Relation {
    match frel & 7 {
        0 => Relation::Eq,
        1 => Relation::Lt,
        2 => Relation::Le,
        3 => Relation::Unord,
        4 => Relation::Neq,
        5 => Relation::Nlt,
        6 => Relation::Nle,
        _ => Relation::Ord,
    }
}

fn min_max_kind(kind: u8) -> MinMax {
    match kind & 3 {
        0 => MinMax::Min,
        1 => MinMax::Max,
        2 => MinMax::AbsMin,
        _ => MinMax::AbsMax,
    }
}

/// The environment of status field `sf` for precision `p`. The fixed precisions never fail;
/// only the status field's pc could, and no form here rounds to it.
fn env(st: &State, sf: u8, p: Precision, ctx: &Ctx) -> Result<Env, Trap> {
    fp_env(st, sf, p, ctx, "FP instruction")
}

/// Executes `Op::FpArith`.
pub(super) fn execute(st: &mut State, e: &Exec, ctx: &Ctx) -> ExecResult {
    let Op::FpArith { kind, sf } = e.op else { return Ok(Flow::Next) };
    let o = &e.ops;
    let name = mnemonic(kind);
    match kind {
        FpArithOp::Fpma { sub, neg } => {
            check_target(o[0])?;
            let (op, f2) = fma_parts(st, sub, neg, o[3]);
            let out = fpma(op, fr(st, o[1]), fr(st, o[2]), f2, &env(st, sf, Precision::Parallel, ctx)?);
            commit_with(st, sf, out, name, |st, v| set_fr(st, o[0], v))?;
        }
        FpArithOp::Fcmp { frel, .. } => {
            let (p1, p2) = (o[0] as u8, o[1] as u8);
            if p1 == p2 {
                return Err(illegal_operation(&format!("fcmp with p1 = p2 = p{p1}")));
            }
            let (a, b) = (fr(st, o[2]), fr(st, o[3]));
            if a == Fr::NATVAL || b == Fr::NATVAL {
                st.set_p(p1, false);
                st.set_p(p2, false);
                return Ok(Flow::Next);
            }
            let out = fcmp(relation(frel), a, b, &env(st, sf, Precision::Widest, ctx)?);
            commit_with(st, sf, out, name, |st, r| {
                st.set_p(p1, r);
                st.set_p(p2, !r);
                Ok(())
            })?;
        }
        FpArithOp::Fpcmp { frel } => {
            check_target(o[0])?;
            let out = fpcmp(relation(frel), fr(st, o[1]), fr(st, o[2]), &env(st, sf, Precision::Parallel, ctx)?);
            commit_with(st, sf, out, name, |st, v| set_fr(st, o[0], v))?;
        }
        FpArithOp::Fcvt { unsigned, trunc, parallel } => {
            check_target(o[0])?;
            let f2 = fr(st, o[1]);
            let out = if parallel {
                fpcvt_fx(f2, unsigned, trunc, &env(st, sf, Precision::Parallel, ctx)?)
            } else {
                fcvt_fx(f2, unsigned, trunc, &env(st, sf, Precision::Widest, ctx)?)
            };
            commit_with(st, sf, out, name, |st, v| set_fr(st, o[0], v))?;
        }
        FpArithOp::Fcvtxf => {
            // Exact (a 64-bit integer fits the significand): no flags, no exception.
            check_target(o[0])?;
            let v = fcvt_xf(fr(st, o[1]));
            set_fr(st, o[0], v)?;
        }
        FpArithOp::MinMax { kind, parallel } => {
            check_target(o[0])?;
            let (a, b) = (fr(st, o[1]), fr(st, o[2]));
            let k = min_max_kind(kind);
            let out = if parallel {
                fp_min_max(k, a, b, &env(st, sf, Precision::Parallel, ctx)?)
            } else {
                min_max(k, a, b, &env(st, sf, Precision::Widest, ctx)?)
            };
            commit_with(st, sf, out, name, |st, v| set_fr(st, o[0], v))?;
        }
        FpArithOp::Frcpa { parallel } => {
            check_target(o[0])?;
            let (a, b) = (fr(st, o[2]), fr(st, o[3]));
            let out = if parallel {
                fprcpa(a, b, &env(st, sf, Precision::Parallel, ctx)?)
            } else {
                frcpa(a, b, &env(st, sf, Precision::Widest, ctx)?)
            };
            write_approx(st, o[0], o[1], sf, out, name)?;
        }
        FpArithOp::Frsqrta { parallel } => {
            check_target(o[0])?;
            let a = fr(st, o[2]);
            let out = if parallel {
                fprsqrta(a, &env(st, sf, Precision::Parallel, ctx)?)
            } else {
                frsqrta(a, &env(st, sf, Precision::Widest, ctx)?)
            };
            write_approx(st, o[0], o[1], sf, out, name)?;
        }
        FpArithOp::Fpack => {
            check_target(o[0])?;
            let (a, b) = (fr(st, o[1]), fr(st, o[2]));
            let v = if a == Fr::NATVAL || b == Fr::NATVAL { Fr::NATVAL } else { pair(to_single(a), to_single(b)) };
            set_fr(st, o[0], v)?;
        }
        FpArithOp::Fchkf => {
            if fchkf_taken(st.ar[ar::FPSR as usize], sf) {
                return Ok(Flow::Branch(o[0] as u64));
            }
        }
    }
    Ok(Flow::Next)
}

/// frcpa, frsqrta, fprcpa and fprsqrta clear p2 when their qualifying predicate is false
/// (SDM vol. 3 frcpa: "else PR[p2] = 0"; Ski's frcpaEx does the same), so that the
/// software sequence they seed sees "no approximation".
pub(super) fn predicated_off(st: &mut State, e: &Exec) {
    if matches!(e.op, Op::FpArith { kind: FpArithOp::Frcpa { .. } | FpArithOp::Frsqrta { .. }, .. }) {
        st.set_p(e.ops[1] as u8, false);
    }
}

/// Writes an approximation's f1 and p2 (p2 is written only when the instruction completes).
fn write_approx(
    st: &mut State,
    f1: i64,
    p2: i64,
    sf: u8,
    out: crate::fpu::Outcome<(Fr, bool)>,
    what: &str,
) -> Result<(), Trap> {
    commit_with(st, sf, out, what, |st, (v, p)| {
        set_fr(st, f1, v)?;
        st.set_p(p2 as u8, p);
        Ok(())
    })
}

/// fchkf.sf branches when status field `sf` has a flag set that sf0 does not, or a flag
/// whose trap is enabled in the FPSR's trap-disable bits (SDM vol. 3 fchkf): the
/// speculative field recorded an exception the main computation has not yet accounted for.
pub fn fchkf_taken(fpsr: u64, sf: u8) -> bool {
    let flags = StatusField::of(fpsr, sf).flags.0;
    let sf0 = StatusField::of(fpsr, 0).flags.0;
    let enabled = !(fpsr as u8) & 0x3F;
    flags & !sf0 != 0 || flags & enabled != 0
}

/// The mnemonic named in fault and trap messages.
fn mnemonic(kind: FpArithOp) -> &'static str {
    match kind {
        FpArithOp::Fpma { sub: true, .. } => "fpms",
        FpArithOp::Fpma { neg: true, .. } => "fpnma",
        FpArithOp::Fpma { .. } => "fpma",
        FpArithOp::Fcmp { .. } => "fcmp",
        FpArithOp::Fpcmp { .. } => "fpcmp",
        FpArithOp::Fcvt { parallel: true, .. } => "fpcvt",
        FpArithOp::Fcvt { .. } => "fcvt",
        FpArithOp::Fcvtxf => "fcvt.xf",
        FpArithOp::MinMax { kind, parallel } => {
            let names =
                if parallel { ["fpmin", "fpmax", "fpamin", "fpamax"] } else { ["fmin", "fmax", "famin", "famax"] };
            names[usize::from(kind & 3)]
        }
        FpArithOp::Frcpa { parallel: true } => "fprcpa",
        FpArithOp::Frcpa { .. } => "frcpa",
        FpArithOp::Frsqrta { parallel: true } => "fprsqrta",
        FpArithOp::Frsqrta { .. } => "frsqrta",
        FpArithOp::Fpack => "fpack",
        FpArithOp::Fchkf => "fchkf",
    }
}
