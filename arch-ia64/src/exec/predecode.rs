//! Decode once: an image's code sections become compact records the executor steps through
//! without looking at bits or the table again (DESIGN.md "Performance").

use super::op::{AlatLoad, FpArithOp, FpFormat, LoadKind, Op, TlbOp, Update};
use super::special::Special; // system forms (w7-isys)
use crate::bundle::{SlotUnit, Template};
use crate::decode::{decode_bundle, real_form, Slot};
use crate::regs::{ar, Resource};
use crate::table::field::{f, Field};
use crate::table::{Form, OpClass, OpKind, TimingClass};

/// Which register file a register reference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegKind {
    /// General register.
    Gr,
    /// Floating-point register.
    Fr,
    /// Predicate register.
    Pr,
    /// Branch register.
    Br,
    /// Application register.
    Ar,
    /// Control register.
    Cr,
}

/// How an instruction uses a source register: the timing model's [`Role`], recorded here once
/// at predecode.
pub use crate::timing::Role as Use;

/// A register an instruction reads or writes, by its architectural (logical) name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegRef {
    /// Register file.
    pub kind: RegKind,
    /// Number within the file (logical for stacked GRs).
    pub num: u8,
    /// For sources: how it is used.
    pub usage: Use,
}

const NO_REG: RegRef = RegRef { kind: RegKind::Gr, num: 0, usage: Use::Data };

/// One predecoded instruction slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exec {
    /// What to do.
    pub op: Op,
    /// Qualifying predicate.
    pub qp: u8,
    /// Operand values in the row's display order: register numbers, immediates, absolute
    /// branch targets.
    pub ops: [i64; 5],
    /// The table row (real, never an alias).
    pub form: u16,
    /// Timing class of the row.
    pub class: TimingClass,
    /// Unit of the slot.
    pub unit: SlotUnit,
    /// Registers read, `n_srcs` of them.
    pub srcs: [RegRef; 6],
    /// How many of `srcs` are used.
    pub n_srcs: u8,
    /// Registers written, `n_dsts` of them.
    pub dsts: [RegRef; 3],
    /// How many of `dsts` are used.
    pub n_dsts: u8,
    /// Whether this is a nop (nop.* and hint.*), counted apart.
    pub nop: bool,
    /// Privileged: faults at cpl != 0 (the row's PRIV flag, looked up once here).
    pub privileged: bool,
    /// system forms (w7-isys): the form's specialised handler with its operands, chosen here
    /// once ([`Special::None`] when the generic semantics always run).
    pub special: Special,
}

/// What a slot holds after predecoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotRec {
    /// An instruction.
    Insn(Exec),
    /// The L half of MLX: the instruction is in the record of slot 1's X partner (kept at slot 1).
    Long,
    /// Bits no row describes; executing them is an error naming the address.
    Invalid(u64),
}

/// One predecoded bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BundleRec {
    /// Template (units and stops).
    pub template: Template,
    /// The three slots. For MLX the instruction sits in slot 1 and slot 2 is `Long`.
    pub slots: [SlotRec; 3],
}

/// A predecoded code region.
#[derive(Debug, Clone)]
pub struct CodeRegion {
    /// Address of the first bundle.
    pub base: u64,
    /// Bundles in address order.
    pub bundles: Vec<BundleRec>,
}

/// Predecodes `bytes` (whole bundles) loaded at `base`.
pub fn predecode(base: u64, bytes: &[u8]) -> CodeRegion {
    let mut bundles = Vec::with_capacity(bytes.len() / 16);
    for (i, chunk) in bytes.chunks_exact(16).enumerate() {
        // Addresses wrap as the IP does: code loaded at the top of the address space decodes,
        // and execution reaching the wrap finds no code there.
        let ip = base.wrapping_add((i as u64).wrapping_mul(16));
        let mut arr = [0u8; 16];
        arr.copy_from_slice(chunk);
        let rec = match decode_bundle(arr) {
            Ok(b) => {
                let units = b.template.units();
                let mut slots = [SlotRec::Invalid(0); 3];
                for s in 0..3 {
                    slots[s] = match b.slots[s] {
                        Slot::Insn(insn) => match real_form(&insn).and_then(|real| exec_of(&real, units[s], ip)) {
                            Some(e) => SlotRec::Insn(e),
                            None => SlotRec::Invalid(insn.raw.slot),
                        },
                        Slot::Long => SlotRec::Long,
                        Slot::Unknown { bits, .. } => SlotRec::Invalid(bits),
                    };
                }
                // The long instruction executes as slot 1 (psr.ri = 1), its X half is slot 2.
                if units[1] == SlotUnit::L {
                    slots.swap(1, 2);
                }
                BundleRec { template: b.template, slots }
            }
            Err(_) => BundleRec { template: Template::MII, slots: [SlotRec::Invalid(0); 3] },
        };
        bundles.push(rec);
    }
    CodeRegion { base, bundles }
}

fn exec_of(insn: &crate::decode::Insn, unit: SlotUnit, ip: u64) -> Option<Exec> {
    let form = insn.form();
    let mut ops = [0i64; 5];
    for (i, k) in form.operands().enumerate().take(5) {
        ops[i] = k.extract(insn.raw, ip);
    }
    let op = op_of(form, insn.raw.slot)?;
    let mut e = Exec {
        op,
        qp: insn.qp,
        ops,
        form: insn.form,
        class: form.timing,
        unit,
        srcs: [NO_REG; 6],
        n_srcs: 0,
        dsts: [NO_REG; 3],
        n_dsts: 0,
        nop: matches!(form.timing, TimingClass::Nop),
        // itc/itr check PSR.ic before the privilege level, and vmsw its Illegal Operation,
        // so their semantics check both.
        privileged: form.flags.has(crate::table::Flags::PRIV)
            && !matches!(op, Op::Tlb(TlbOp::Itc { .. } | TlbOp::Itr { .. }) | Op::Vmsw { .. }),
        special: Special::None,
    };
    registers(form, &mut e);
    e.special = if e.nop { Special::None } else { Special::of(op, &e.ops) }; // system forms (w7-isys)
    Some(e)
}

fn reg_kind(class: OpClass) -> Option<RegKind> {
    Some(match class {
        OpClass::Gr | OpClass::Mem | OpClass::Ind(_) => RegKind::Gr,
        OpClass::Fr => RegKind::Fr,
        OpClass::Pr => RegKind::Pr,
        OpClass::Br => RegKind::Br,
        OpClass::Ar => RegKind::Ar,
        OpClass::Cr => RegKind::Cr,
        _ => return None,
    })
}

fn push_src(e: &mut Exec, kind: RegKind, num: u8, usage: Use) {
    if (e.n_srcs as usize) < e.srcs.len() && !(kind == RegKind::Gr && num == 0) && !(kind == RegKind::Pr && num == 0) {
        e.srcs[e.n_srcs as usize] = RegRef { kind, num, usage };
        e.n_srcs += 1;
    }
}

fn push_dst(e: &mut Exec, kind: RegKind, num: u8) {
    if (e.n_dsts as usize) < e.dsts.len() && !(kind == RegKind::Pr && num == 0) {
        e.dsts[e.n_dsts as usize] = RegRef { kind, num, usage: Use::Data };
        e.n_dsts += 1;
    }
}

/// The registers an instruction reads and writes, for the timing model's scoreboard.
fn registers(form: &Form, e: &mut Exec) {
    let branch = matches!(e.op, Op::Branch { .. });
    if e.qp != 0 {
        push_src(e, RegKind::Pr, e.qp, if branch { Use::BranchPredicate } else { Use::Predicate });
    }
    let n_out = form.outs.len();
    let kinds: Vec<OpKind> = form.operands().collect();
    // A store's `[r3]` is its output; lfetch's `[r3]` leads its inputs and its r2 is an increment.
    let store = form.outs.first() == Some(&OpKind::Mem3);
    for (i, k) in kinds.iter().enumerate() {
        let Some(kind) = reg_kind(k.spec().class) else { continue };
        let num = e.ops[i] as u8;
        if *k == OpKind::Mem3 {
            push_src(e, RegKind::Gr, num, Use::Address);
            let update = matches!(
                e.op,
                Op::Load { update: Update::Reg | Update::Imm, .. }
                    | Op::Store { update: Update::Imm, .. }
                    | Op::LoadFp { update: Update::Reg | Update::Imm, .. }
                    | Op::LoadAlat { update: Update::Reg | Update::Imm, .. }
                    | Op::LoadFpAlat { update: Update::Reg | Update::Imm, .. }
                    | Op::LoadFpPair { update: Update::Imm, .. }
                    | Op::StoreFp { update: Update::Imm, .. }
                    | Op::Lfetch { update: Update::Reg | Update::Imm, .. }
            );
            if update {
                push_dst(e, RegKind::Gr, num);
            }
        } else if matches!(k.spec().class, OpClass::Ind(_)) {
            // The index of an indirect file is read in both directions.
            push_src(e, RegKind::Gr, num, Use::Data);
        } else if i < n_out {
            push_dst(e, kind, num);
        } else {
            push_src(e, kind, num, if store { Use::StoreData } else { Use::Data });
        }
    }
    // The row's implicit registers (issue 12), those the scoreboard tracks.
    for r in form.implicit.reads.iter().filter(|r| SCOREBOARD_IMPLICIT.contains(r)) {
        if let Some((kind, num)) = reg_of(*r) {
            push_src(e, kind, num, Use::Data);
        }
    }
    for r in form.implicit.writes.iter().filter(|r| SCOREBOARD_IMPLICIT.contains(r)) {
        if let Some((kind, num)) = reg_of(*r) {
            push_dst(e, kind, num);
        }
    }
}

/// The implicit registers the timing scoreboard tracks: the ones whose value an instruction
/// of the syscall paths consumes through the register file (the frame marker, the NaT
/// collection, the compare and 16-byte data, the FP status). The RSE's own registers, the
/// loop counters and the interruption registers a row names implicitly are timed by the
/// row's class instead (itanium2-timing.md: alloc, br.call, cover, rfi).
const SCOREBOARD_IMPLICIT: [Resource; 5] = [
    Resource::Ar(ar::PFS),
    Resource::Ar(ar::UNAT),
    Resource::Ar(ar::CCV),
    Resource::Ar(ar::CSD),
    Resource::Ar(ar::FPSR),
];

fn reg_of(r: Resource) -> Option<(RegKind, u8)> {
    Some(match r {
        Resource::Gr(n) => (RegKind::Gr, n),
        Resource::Fr(n) => (RegKind::Fr, n),
        Resource::Pr(n) => (RegKind::Pr, n),
        Resource::Br(n) => (RegKind::Br, n),
        Resource::Ar(n) => (RegKind::Ar, n),
        Resource::Cr(n) => (RegKind::Cr, n),
        Resource::Psr(_) => return None,
    })
}

/// The field value of a completer group of `form` in `slot`.
fn field(slot: u64, lo: u8, len: u8) -> u64 {
    Field::new(lo, len).get(slot)
}

/// The ALAT/speculation kind of a load type field (x6 bits 35:32; memory forms, issue 12).
fn alat_load(ty: u64) -> Option<AlatLoad> {
    Some(match ty {
        1 => AlatLoad::Speculative,
        2 => AlatLoad::Advanced,
        3 => AlatLoad::SpecAdvanced,
        8 | 0xA => AlatLoad::CheckClear,
        9 => AlatLoad::CheckNoClear,
        _ => return None,
    })
}

fn fp_format(size_field: u64) -> FpFormat {
    match size_field {
        0 => FpFormat::Extended,
        1 => FpFormat::Integer,
        2 => FpFormat::Single,
        _ => FpFormat::Double,
    }
}

/// The operation of a row (its semantics id, issue 12) with the payload fields that depend on
/// completer bits read from `slot`: access size (bits 31:30), load/store type (35:32), FP
/// format, status field, `.unc`, `.clr`. `None` for a row with no semantics id.
pub(crate) fn op_of(form: &Form, slot: u64) -> Option<Op> {
    let size = 1u8 << field(slot, 30, 2);
    let ty = field(slot, 32, 4);
    let format = fp_format(field(slot, 30, 2));
    let sf = f::SF.get(slot) as u8;
    let unc = field(slot, 12, 1) == 1;
    Some(match form.sem? {
        Op::Cmp { rel, ctype, imm, zero, .. } => Op::Cmp { rel, ctype, four: field(slot, 34, 1) == 1, imm, zero },
        Op::Load { kind: LoadKind::Plain, update, .. } => match alat_load(ty) {
            Some(kind) if kind != AlatLoad::Speculative => Op::LoadAlat { size, kind, update },
            _ => Op::Load {
                size,
                kind: if matches!(ty, 1 | 3) { LoadKind::Speculative } else { LoadKind::Plain },
                update,
                acquire: matches!(ty, 5 | 0xA),
            },
        },
        Op::Store { spill: false, update, .. } => Op::Store { size, spill: false, update, release: ty == 0xD },
        Op::LoadFp { format: f0, update } if f0 != FpFormat::Spill => match alat_load(ty) {
            Some(kind) => Op::LoadFpAlat { format, kind, update },
            None => Op::LoadFp { format, update },
        },
        Op::LoadFpPair { update, .. } => Op::LoadFpPair { format, update },
        Op::StoreFp { format: f0, update } if f0 != FpFormat::Spill => Op::StoreFp { format, update },
        // lftype is bit 31 of x6; `.excl` and the locality hint change nothing architecturally.
        Op::Lfetch { update, .. } => Op::Lfetch { fault: field(slot, 31, 1) == 1, update },
        Op::Cmpxchg { .. } => Op::Cmpxchg { size },
        Op::Xchg { .. } => Op::Xchg { size },
        Op::Fetchadd { .. } => Op::Fetchadd { size: if field(slot, 30, 1) == 1 { 8 } else { 4 } },
        Op::Getf { .. } => Op::Getf { kind: field(slot, 30, 2) as u8 },
        Op::Setf { .. } => Op::Setf { kind: field(slot, 30, 2) as u8 },
        Op::ChkA { fp, .. } => Op::ChkA { fp, clr: field(slot, 33, 1) == 1 },
        Op::Fma { sub, neg, pc, .. } => Op::Fma { sub, neg, pc, sf },
        Op::FpArith { kind: FpArithOp::Fcmp { frel, .. }, .. } => {
            Op::FpArith { kind: FpArithOp::Fcmp { frel, unc }, sf }
        }
        Op::FpArith { kind, .. } => Op::FpArith { kind, sf },
        Op::Fclass { .. } => Op::Fclass { unc },
        Op::Fsetc { .. } => Op::Fsetc { sf },
        Op::Fclrf { .. } => Op::Fclrf { sf },
        op => op,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{table, Flags};

    /// Every real row has a semantics id the executor resolves: nothing the assembler accepts
    /// is left without semantics.
    #[test]
    fn every_real_row_has_an_operation() {
        let mut missing = Vec::new();
        for form in table().forms.iter().filter(|f| f.is_real() && !f.flags.has(Flags::ASM_ONLY)) {
            // Every combination of completer values resolves.
            let mut slots = vec![form.bits];
            for c in form.comps {
                slots = slots.iter().flat_map(|s| c.opts.iter().map(move |o| s | c.field.put(o.1))).collect();
            }
            if slots.iter().any(|s| op_of(form, *s).is_none()) {
                missing.push(format!("{} ({})", form.name, form.format));
            }
        }
        assert!(missing.is_empty(), "rows without an operation: {missing:?}");
    }

    /// Aliases carry the id of the form they stand for too: the dependency checker reads the
    /// row the assembler matched, alias or not.
    #[test]
    fn every_row_has_a_semantics_id() {
        let missing: Vec<String> =
            table().forms.iter().filter(|f| f.sem.is_none()).map(|f| format!("{} ({})", f.name, f.format)).collect();
        assert!(missing.is_empty(), "rows without a semantics id: {missing:?}");
    }
}
