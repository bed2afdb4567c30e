//! What the dependency checker needs to know of a matched instruction: the registers it
//! reads and writes, and its kind (compare, branch, rfi, srlz).

use super::dv::{all_predicates, predicates_in_mask, rotating_predicates, DvInsn, DvKind, Resource};
use super::matcher::{Matched, Value};
use crate::exec::mm::MmOp;
use crate::exec::op::{CmpType, FpArithOp};
use crate::exec::predecode::op_of;
use crate::table::field::f;
use crate::table::{table, Form, Implicit, OpClass, OpKind, Sem, TimingClass};
use emu_core::error::SourceLoc;

/// The resources and kind of one instruction, owned so a [`DvInsn`] can borrow them.
pub(super) struct DvFacts {
    sem: Option<Sem>,
    implicit: Implicit,
    status_field: bool,
    reads: Vec<Resource>,
    writes: Vec<Resource>,
    kind: DvKind,
}

impl DvFacts {
    /// The checker's view, borrowing these facts.
    pub fn insn<'a>(&'a self, m: &'a Matched, loc: &SourceLoc) -> DvInsn<'a> {
        DvInsn {
            loc: loc.clone(),
            name: &m.gas_name,
            sem: self.sem,
            implicit: self.implicit,
            status_field: self.status_field,
            qp: m.qp,
            reads: &self.reads,
            writes: &self.writes,
            kind: self.kind,
        }
    }
}

fn resource(kind: OpKind, value: i64) -> Option<Resource> {
    let n = u8::try_from(value).ok()?;
    Some(match kind.spec().class {
        OpClass::Gr | OpClass::Mem | OpClass::Ind(_) => Resource::Gr(n),
        OpClass::Fr => Resource::Fr(n),
        OpClass::Pr => Resource::Pr(n),
        OpClass::Br => Resource::Br(n),
        OpClass::Ar => Resource::Ar(n),
        OpClass::Cr => Resource::Cr(n),
        _ => return None,
    })
}

/// Works out the resources of `m`.
pub(super) fn facts(m: &Matched) -> DvFacts {
    let rows = m.rows;
    let Some(idx) = rows.m.or(rows.i).or(rows.f).or(rows.b).or(rows.x) else {
        return DvFacts {
            sem: None,
            implicit: Implicit::default(),
            status_field: false,
            reads: Vec::new(),
            writes: Vec::new(),
            kind: DvKind::Plain,
        };
    };
    let form: &Form = table().form(idx);
    let sem = op_of(form, form.bits | m.comp_bits);
    // automatic mode (issue 13): gas 2.40 has no dependency entries for these later forms
    // (mpy4, mpyshl4, the dahr moves, lfetch.count): nothing is checked or recorded for them.
    if matches!(sem, Some(Sem::Mm(MmOp::Later9500(_) | MmOp::Mpy4 { .. }))) {
        return DvFacts {
            sem,
            implicit: Implicit::default(),
            status_field: false,
            reads: Vec::new(),
            writes: Vec::new(),
            kind: DvKind::Plain,
        };
    }
    let status_field = form.unit == crate::table::Unit::F && form.comps.iter().any(|c| c.field == f::SF);
    let known = |i: usize| match m.values.get(i) {
        Some(Value::Known(v)) => Some(*v),
        _ => None,
    };
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let n_out = form.outs.len();
    let kinds: Vec<OpKind> = form.operands().collect();
    let mut after_mem = false;
    for (i, kind) in kinds.iter().enumerate() {
        let Some(v) = known(i) else { continue };
        let is_out = i < n_out;
        match kind {
            OpKind::PrAll if is_out => {
                let mask = kinds.iter().position(|k| *k == OpKind::Mask17).and_then(known).unwrap_or(-1);
                // gas's mask-less `mov pr = r2` pseudo form writes no predicate for the check.
                let mask = if m.pr_mask_omitted { 0 } else { mask };
                writes.extend(predicates_in_mask(mask as u64));
            }
            OpKind::PrAll => reads.extend(all_predicates()),
            OpKind::PrRot => writes.extend(rotating_predicates()),
            // automatic mode (issue 13): the PSR fields rsm/ssm/rum/sum name by their mask.
            OpKind::Imm24 if matches!(sem, Some(Sem::Rsm | Sem::Ssm | Sem::Rum | Sem::Sum)) => {
                writes.extend((0..24u8).filter(|b| v >> b & 1 == 1).map(Resource::Psr));
            }
            // automatic mode (issue 13): gas's tables do not count an lfetch without
            // increment (M13) among the general-register readers.
            OpKind::Mem3 if matches!(sem, Some(Sem::Lfetch { update: crate::exec::op::Update::None, .. })) => {}
            OpKind::Mem3 => {
                reads.extend(resource(*kind, v));
                // Only a load's base (an input) can be followed by a register increment; a
                // store's r2 is its data.
                after_mem = !is_out;
            }
            OpKind::Imm9St => {
                if let Some(base) = kinds.iter().position(|k| *k == OpKind::Mem3).and_then(known) {
                    writes.extend(resource(OpKind::Mem3, base));
                }
            }
            OpKind::R2 | OpKind::Imm9Ld | OpKind::PairInc8 | OpKind::PairInc16
                if after_mem && !matches!(form.timing, TimingClass::Atomic) =>
            {
                // A post-increment writes the base register back.
                if let Some(base) = kinds.iter().position(|k| *k == OpKind::Mem3).and_then(known) {
                    writes.extend(resource(OpKind::Mem3, base));
                }
                if *kind == OpKind::R2 {
                    reads.extend(resource(*kind, v));
                }
            }
            // gas 2.40 records only f1 of an FP load pair as written: its dependency tables
            // give ldfp no write of the second target, so it warns for neither a WAW nor a
            // RAW on f2 (checked against ia64-linux-gnu-as), and to match it neither does this.
            OpKind::F2 if is_out && matches!(sem, Some(Sem::LoadFpPair { .. })) => {}
            // automatic mode (issue 13): gas's GR rows do not count the slot register of
            // `itr.d dtr[r3]=r2` / `itr.i itr[r3]=r2` as read (checked against ia64-linux-gnu-as).
            _ if matches!(kind.spec().class, OpClass::Ind("dtr" | "itr")) => {}
            // `mov rr[r3]=r2`, `itr.d dtr[r3]=r2`: the index register is read, never written.
            _ if matches!(kind.spec().class, OpClass::Ind(_)) => reads.extend(resource(*kind, v)),
            _ if is_out => writes.extend(resource(*kind, v)),
            _ => reads.extend(resource(*kind, v)),
        }
    }
    let kind = match form.timing {
        // fcmp/fclass (F unit, issue 12) write their predicates as compares do.
        TimingClass::Compare | TimingClass::Tbit | TimingClass::FpCompare => {
            DvKind::Compare { p1: known(0).unwrap_or(0) as u8, p2: known(1).unwrap_or(0) as u8, unc: is_unc(sem) }
        }
        TimingClass::Branch | TimingClass::BranchIndirect | TimingClass::Return => {
            DvKind::Branch { unconditional: m.qp == 0, call: false }
        }
        TimingClass::Call => DvKind::Branch { unconditional: m.qp == 0, call: true },
        TimingClass::Rfi => DvKind::Rfi,
        TimingClass::Serialize => match sem {
            Some(Sem::Srlz { instr }) => DvKind::Srlz { instr },
            _ => DvKind::Plain,
        },
        _ => DvKind::Plain,
    };
    DvFacts { sem, implicit: form.implicit, status_field, reads, writes, kind }
}

/// Whether a compare-like operation is the `.unc` form (both targets always written).
fn is_unc(sem: Option<Sem>) -> bool {
    match sem {
        Some(
            Sem::Cmp { ctype, .. } | Sem::Tbit { ctype, .. } | Sem::Tnat { ctype, .. } | Sem::Mm(MmOp::Tf { ctype }),
        ) => ctype == CmpType::Unc,
        Some(Sem::FpArith { kind: FpArithOp::Fcmp { unc, .. }, .. } | Sem::Fclass { unc }) => unc,
        _ => false,
    }
}

// automatic mode (issue 13)
/// The rotating size an `alloc` declares (its last operand), which decides which general
/// registers gas counts as rotating; `None` for other instructions.
pub(super) fn rotating_size(m: &Matched) -> Option<u8> {
    let idx = m.rows.m?;
    let form: &Form = table().form(idx);
    if !matches!(op_of(form, form.bits | m.comp_bits), Some(Sem::Alloc)) {
        return None;
    }
    let at = form.operands().position(|k| k == OpKind::Sor)?;
    match m.values.get(at) {
        Some(Value::Known(v)) => u8::try_from(*v).ok(),
        _ => None,
    }
}
