//! The ar.fpsr fields F-unit instructions use implicitly (issue 12), as gas 2.40 records
//! them for its dependency warnings (checked against `ia64-linux-gnu-as`; corpus
//! `dv_fp.S`): an arithmetic form with status field N reads `sfN.controls`, `traps` and `rv`
//! and writes `sfN.flags`; `fsetc.sN` reads `sf0.controls` and writes `sfN.controls`;
//! `fclrf.sN` writes `sfN.flags`; `fchkf.sN` reads `sf0.flags`, `sfN.flags`, `traps` and `rv`.
//!
//! gas takes the status field from the mnemonic as written: with no `.sN` an arithmetic
//! form uses all four fields, while a mnemonic ending in the precision completer `.s`
//! (`fma.s`) names none, and `fsetc`/`fclrf`/`fchkf` without one write no field.

use super::{dep, DvInsn, Mode, Sem, Spec, Uses, FPSR_RAW, FPSR_WAW};
use crate::exec::op::FpArithOp;
use crate::table::Sem as Op;

/// The status-field operations, which use FPSR fields as no arithmetic form does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StatusOp {
    Fsetc,
    Fclrf,
    Fchkf,
}

fn status_op(sem: Option<Op>) -> Option<StatusOp> {
    match sem? {
        Op::Fsetc { .. } => Some(StatusOp::Fsetc),
        Op::Fclrf { .. } => Some(StatusOp::Fclrf),
        Op::FpArith { kind: FpArithOp::Fchkf, .. } => Some(StatusOp::Fchkf),
        _ => None,
    }
}

const CONTROLS: usize = 0;
const FLAGS: usize = 4;
const TRAPS: usize = 8;
const RV: usize = 9;

/// The explicit status field of a mnemonic as written (`Some(Some(n))` for `.sN`,
/// `Some(None)` when it ends in `.s` with no number, `None` when it has neither).
fn written_sf(name: &str) -> Option<Option<usize>> {
    let last = name.rsplit('.').next().unwrap_or("");
    match last {
        "s0" => Some(Some(0)),
        "s1" => Some(Some(1)),
        "s2" => Some(Some(2)),
        "s3" => Some(Some(3)),
        "s" if name.contains('.') => Some(None),
        _ => None,
    }
}

/// The FPSR fields (indexes into `FPSR_RAW`) `insn` reads and writes: `insn.name` is the
/// mnemonic as written, whose status field gas uses.
pub(super) fn fpsr_fields(insn: &DvInsn) -> (Vec<usize>, Vec<usize>) {
    if !insn.status_field {
        return (Vec::new(), Vec::new());
    }
    let sf = written_sf(insn.name);
    let explicit: Vec<usize> = match sf {
        Some(Some(n)) => vec![n],
        _ => Vec::new(),
    };
    match status_op(insn.sem) {
        Some(StatusOp::Fsetc) => return (vec![CONTROLS], explicit.iter().map(|n| CONTROLS + n).collect()),
        Some(StatusOp::Fclrf) => return (Vec::new(), explicit.iter().map(|n| FLAGS + n).collect()),
        Some(StatusOp::Fchkf) => {
            let mut reads = vec![FLAGS];
            reads.extend(explicit.iter().filter(|n| **n != 0).map(|n| FLAGS + n));
            reads.extend([TRAPS, RV]);
            return (reads, Vec::new());
        }
        None => {}
    }
    let fields: Vec<usize> = match sf {
        Some(Some(n)) => vec![n],
        Some(None) => Vec::new(),
        None => (0..4).collect(),
    };
    let mut reads: Vec<usize> = fields.iter().map(|n| CONTROLS + n).collect();
    reads.extend([TRAPS, RV]);
    (reads, fields.iter().map(|n| FLAGS + n).collect())
}

/// The WAW row an arithmetic form checks: gas reports no WAW between two arithmetic
/// writers of one status field's flags (the flags accumulate), only against `fclrf` and
/// `mov ar.fpsr`, which record this row as well as the plain one.
fn waw_against_arith(i: usize) -> super::Dep {
    dep(Mode::Waw, 150 + i as u16, FPSR_WAW[i], Sem::ImpliedF)
}

/// Adds the FPSR field uses of an F-unit instruction to `u`; `moves_fpsr` says the
/// instruction writes the whole ar.fpsr explicitly (`mov ar.fpsr=`).
pub(super) fn add_uses(u: &mut Uses, insn: &DvInsn, moves_fpsr: bool) {
    if moves_fpsr {
        for i in 0..FPSR_WAW.len() {
            u.reg(waw_against_arith(i), Spec::whole());
        }
        return;
    }
    let (reads, writes) = fpsr_fields(insn);
    let arith = status_op(insn.sem).is_none();
    for i in reads {
        u.chk(dep(Mode::Raw, 110 + i as u16, FPSR_RAW[i], Sem::ImpliedF), Spec::whole());
    }
    for i in writes {
        let o = 110 + i as u16;
        let (raw, waw) = (dep(Mode::Raw, o, FPSR_RAW[i], Sem::ImpliedF), dep(Mode::Waw, o, FPSR_WAW[i], Sem::ImpliedF));
        u.reg(raw, Spec::whole());
        u.reg(waw, Spec::whole());
        if arith {
            u.chk(waw_against_arith(i), Spec::whole());
        } else {
            u.reg(waw_against_arith(i), Spec::whole());
            u.chk(waw, Spec::whole());
        }
    }
}
