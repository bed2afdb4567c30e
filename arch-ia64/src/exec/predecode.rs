//! Decode once: an image's code sections become compact records the executor steps through
//! without looking at bits or the table again (DESIGN.md "Performance").

use super::op::{AlatLoad, BrKind, CmpType, FpFormat, LoadKind, Op, Rel, TlbOp, Update};
use crate::bundle::{SlotUnit, Template};
use crate::decode::{decode_bundle, real_form, Slot};
use crate::state::indirect::File;
use crate::table::field::Field;
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
        // itc/itr check PSR.ic before the privilege level, so their semantics check both.
        privileged: form.flags.has(crate::table::Flags::PRIV)
            && !matches!(op, Op::Tlb(TlbOp::Itc { .. } | TlbOp::Itr { .. })),
    };
    registers(form, &mut e);
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
    // Implicit registers the syscall paths depend on.
    const PFS: u8 = 64;
    const UNAT: u8 = 36;
    const CCV: u8 = 32;
    const FPSR: u8 = 40;
    match e.op {
        Op::Branch { kind: BrKind::Call, .. } => push_dst(e, RegKind::Ar, PFS),
        Op::Branch { kind: BrKind::Ret, .. } => push_src(e, RegKind::Ar, PFS, Use::Data),
        Op::Load { kind: LoadKind::Fill, .. } => push_src(e, RegKind::Ar, UNAT, Use::Data),
        Op::Store { spill: true, .. } => push_dst(e, RegKind::Ar, UNAT),
        Op::Cmpxchg { .. } => push_src(e, RegKind::Ar, CCV, Use::Data),
        // memory forms (issue 12): ar.csd (25) of the 16-byte forms.
        Op::Load16 => push_dst(e, RegKind::Ar, 25),
        Op::Store16 => push_src(e, RegKind::Ar, 25, Use::Data),
        Op::Cmp8xchg16 => {
            push_src(e, RegKind::Ar, 25, Use::Data);
            push_src(e, RegKind::Ar, CCV, Use::Data);
        }
        Op::Alloc => push_src(e, RegKind::Ar, PFS, Use::Data),
        // F unit (issue 12): the FPSR status-field operations.
        Op::Fsetc { .. } => {
            push_src(e, RegKind::Ar, FPSR, Use::Data);
            push_dst(e, RegKind::Ar, FPSR);
        }
        Op::Fclrf { .. } => push_dst(e, RegKind::Ar, FPSR),
        Op::FpArith { kind: super::op::FpArithOp::Fchkf, .. } => push_src(e, RegKind::Ar, FPSR, Use::Data),
        _ => {}
    }
}

/// The field value of a completer group of `form` in `slot`.
fn field(slot: u64, lo: u8, len: u8) -> u64 {
    Field::new(lo, len).get(slot)
}

fn ctype_of(suffix: &str) -> CmpType {
    match suffix {
        "unc" => CmpType::Unc,
        "and" => CmpType::And,
        "or" => CmpType::Or,
        "or.andcm" => CmpType::OrAndcm,
        _ => CmpType::Normal,
    }
}

fn rel_of(s: &str) -> Option<Rel> {
    Some(match s {
        "eq" => Rel::Eq,
        "ne" => Rel::Ne,
        "lt" => Rel::Lt,
        "ltu" => Rel::Ltu,
        "gt" => Rel::Gt,
        "le" => Rel::Le,
        "ge" => Rel::Ge,
        _ => return None,
    })
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

fn update_of(format: &str) -> Update {
    match format {
        "M2" | "M7" | "M14" => Update::Reg,
        "M3" | "M5" | "M8" | "M10" | "M12" | "M15" => Update::Imm,
        _ => Update::None,
    }
}

fn fp_format(size_field: u64) -> FpFormat {
    match size_field {
        0 => FpFormat::Extended,
        1 => FpFormat::Integer,
        2 => FpFormat::Single,
        _ => FpFormat::Double,
    }
}

/// The indirect file an operand kind names (the translation registers are no file of state).
fn ind_file(k: OpKind) -> Option<File> {
    Some(match k {
        OpKind::IndRr => File::Rr,
        OpKind::IndPkr => File::Pkr,
        OpKind::IndDbr => File::Dbr,
        OpKind::IndIbr => File::Ibr,
        OpKind::IndPmc => File::Pmc,
        OpKind::IndPmd => File::Pmd,
        OpKind::IndCpuid => File::Cpuid,
        _ => return None,
    })
}

/// The operation of a real row with its completer choices read from `slot`.
fn op_of(form: &Form, slot: u64) -> Option<Op> {
    let name = form.name;
    let outs = form.outs;
    let ins = form.ins;
    let has = |k: OpKind| ins.contains(&k);
    Some(match name {
        "add" => Op::Add { plus_one: has(OpKind::One) },
        "sub" if has(OpKind::Imm8) => Op::SubImm,
        "sub" => Op::Sub { minus_one: has(OpKind::One) },
        "addp4" if has(OpKind::Imm14) => Op::Addp4Imm,
        "addp4" => Op::Addp4,
        "and" if has(OpKind::Imm8) => Op::AndImm,
        "and" => Op::And,
        "andcm" if has(OpKind::Imm8) => Op::AndcmImm,
        "andcm" => Op::Andcm,
        "or" if has(OpKind::Imm8) => Op::OrImm,
        "or" => Op::Or,
        "xor" if has(OpKind::Imm8) => Op::XorImm,
        "xor" => Op::Xor,
        "shladd" => Op::Shladd { p4: false },
        "shladdp4" => Op::Shladd { p4: true },
        "adds" | "addl" => Op::AddImm,
        _ if name.starts_with("cmp{}.") => {
            let rest = &name["cmp{}.".len()..];
            let (rel, ctype) = rest.split_once('.').unwrap_or((rest, ""));
            Op::Cmp {
                rel: rel_of(rel)?,
                ctype: ctype_of(ctype),
                four: field(slot, 34, 1) == 1,
                imm: form.format == "A8",
                zero: form.format == "A7",
            }
        }
        _ if name.starts_with("tbit.") || name.starts_with("tnat.") => {
            let (head, rest) = name.split_once('.')?;
            let (zn, ctype) = rest.split_once('.').unwrap_or((rest, ""));
            let nz = zn == "nz";
            let ctype = ctype_of(ctype);
            if head == "tbit" {
                Op::Tbit { nz, ctype }
            } else {
                Op::Tnat { nz, ctype }
            }
        }
        "shl" => Op::ShlVar,
        "shr" => Op::ShrVar { signed: true },
        "shr.u" => Op::ShrVar { signed: false },
        "shrp" => Op::Shrp,
        "extr" => Op::Extr { signed: true },
        "extr.u" => Op::Extr { signed: false },
        "dep.z" if has(OpKind::Imm8) => Op::DepZImm,
        "dep.z" => Op::DepZ,
        "dep" if has(OpKind::Imm1) => Op::DepImm1,
        "dep" => Op::Dep,
        "zxt1" => Op::Zxt(1),
        "zxt2" => Op::Zxt(2),
        "zxt4" => Op::Zxt(4),
        "sxt1" => Op::Sxt(1),
        "sxt2" => Op::Sxt(2),
        "sxt4" => Op::Sxt(4),
        "movl" => Op::Movl,
        // memory forms (issue 12): the ALAT types and ldf.s, the 16-byte forms, chk.a, invala.
        "ld{}{}{}" if alat_load(field(slot, 32, 4)).is_some_and(|k| k != AlatLoad::Speculative) => Op::LoadAlat {
            size: 1 << field(slot, 30, 2),
            kind: alat_load(field(slot, 32, 4))?,
            update: update_of(form.format),
        },
        "ldf{}{}{}" if alat_load(field(slot, 32, 4)).is_some() => Op::LoadFpAlat {
            format: fp_format(field(slot, 30, 2)),
            kind: alat_load(field(slot, 32, 4))?,
            update: update_of(form.format),
        },
        "ld16{}{}" => Op::Load16,
        "st16{}{}" => Op::Store16,
        "cmp8xchg16{}{}" => Op::Cmp8xchg16,
        "chk.a{}" => Op::ChkA { fp: form.format == "M23", clr: field(slot, 33, 1) == 1 },
        "invala" => Op::Invala,
        "invala.e" => Op::InvalaE { fp: form.format == "M27" },
        "ld{}{}{}" => {
            let ty = field(slot, 32, 4);
            Op::Load {
                size: 1 << field(slot, 30, 2),
                kind: if matches!(ty, 1 | 3) { LoadKind::Speculative } else { LoadKind::Plain },
                update: update_of(form.format),
                acquire: matches!(ty, 5 | 0xA),
            }
        }
        "ld8.fill{}" => Op::Load { size: 8, kind: LoadKind::Fill, update: update_of(form.format), acquire: false },
        "st{}{}{}" => Op::Store {
            size: 1 << field(slot, 30, 2),
            spill: false,
            update: update_of(form.format),
            release: field(slot, 32, 4) == 0xD,
        },
        "st8.spill{}" => Op::Store { size: 8, spill: true, update: update_of(form.format), release: false },
        "ldf{}{}{}" => Op::LoadFp { format: fp_format(field(slot, 30, 2)), update: update_of(form.format) },
        "ldf.fill{}" => Op::LoadFp { format: FpFormat::Spill, update: update_of(form.format) },
        "ldfp8{}{}" | "ldfps{}{}" | "ldfpd{}{}" => {
            Op::LoadFpPair { format: fp_format(field(slot, 30, 2)), update: update_of(form.format) }
        }
        "stf{}{}{}" => Op::StoreFp { format: fp_format(field(slot, 30, 2)), update: update_of(form.format) },
        "stf.spill{}" => Op::StoreFp { format: FpFormat::Spill, update: update_of(form.format) },
        // lftype is bit 31 of x6; `.excl` and the locality hint change nothing architecturally.
        "lfetch{}{}{}" => Op::Lfetch { fault: field(slot, 31, 1) == 1, update: update_of(form.format) },
        "cmpxchg{}{}{}" => Op::Cmpxchg { size: 1 << field(slot, 30, 2) },
        "xchg{}{}" => Op::Xchg { size: 1 << field(slot, 30, 2) },
        "fetchadd{}{}{}" => Op::Fetchadd { size: if field(slot, 30, 1) == 1 { 8 } else { 4 } },
        "getf{}" => Op::Getf { kind: field(slot, 30, 2) as u8 },
        "setf{}" => Op::Setf { kind: field(slot, 30, 2) as u8 },
        "mov.m" | "mov.i" => match (outs.first(), ins.first()) {
            (Some(OpKind::Ar3), Some(OpKind::R2)) => Op::MovToAr,
            (Some(OpKind::Ar3), Some(OpKind::Imm8)) => Op::MovToArImm,
            _ => Op::MovFromAr,
        },
        "mov" if outs.first().and_then(|k| ind_file(*k)).is_some() => Op::MovToInd(ind_file(outs[0])?),
        "mov" if ins.first().and_then(|k| ind_file(*k)).is_some() => Op::MovFromInd(ind_file(ins[0])?),
        "mov" if outs.first() == Some(&OpKind::IndMsr) || ins.first() == Some(&OpKind::IndMsr) => Op::MovMsr,
        "itc.i" | "itc.d" => Op::Tlb(TlbOp::Itc { data: name == "itc.d" }),
        "itr.i" | "itr.d" => Op::Tlb(TlbOp::Itr { data: name == "itr.d" }),
        "ptc.l" | "ptc.g" | "ptc.ga" => Op::Tlb(TlbOp::Ptc),
        "ptc.e" => Op::Tlb(TlbOp::PtcE),
        "ptr.i" | "ptr.d" => Op::Tlb(TlbOp::Ptr { data: name == "ptr.d" }),
        "mov" => match (outs.first(), ins.first()) {
            (Some(OpKind::Cr3), _) => Op::MovToCr,
            (_, Some(OpKind::Cr3)) => Op::MovFromCr,
            (Some(OpKind::PsrL), _) => Op::MovToPsrL,
            (Some(OpKind::PsrUm), _) => Op::MovToPsrUm,
            (_, Some(OpKind::Psr)) => Op::MovFromPsr,
            (_, Some(OpKind::PsrUm)) => Op::MovFromPsrUm,
            (_, Some(OpKind::B2)) => Op::MovFromBr,
            (Some(OpKind::PrAll), _) => Op::MovToPr,
            (Some(OpKind::PrRot), _) => Op::MovToPrRot,
            (_, Some(OpKind::PrAll)) => Op::MovFromPr,
            (_, Some(OpKind::Ip)) => Op::MovFromIp,
            _ => return None,
        },
        "mov{}{}{}" => Op::MovToBr,
        "sum" => Op::Sum,
        "rum" => Op::Rum,
        "ssm" => Op::Ssm,
        "rsm" => Op::Rsm,
        _ if name.starts_with("nop.") || name.starts_with("hint.") => Op::Nop,
        _ if name.starts_with("break.") => Op::Break,
        "chk.s.i" | "chk.s.m" => Op::ChkS { fp: false },
        "chk.s" => Op::ChkS { fp: true },
        "fwb" | "mf" | "mf.a" | "srlz.d" | "srlz.i" | "sync.i" | "fc" | "fc.i" => Op::Fence,
        "flushrs" => Op::Flushrs,
        "loadrs" => Op::Loadrs,
        "alloc" => Op::Alloc,
        "probe.r" | "probe.w" => Op::Probe { write: name == "probe.w", imm: has(OpKind::Imm2) },
        "probe.rw.fault" => Op::ProbeFault { read: true, write: true },
        "probe.r.fault" => Op::ProbeFault { read: true, write: false },
        "probe.w.fault" => Op::ProbeFault { read: false, write: true },
        "thash" => Op::Thash,
        "ttag" => Op::Ttag,
        "tpa" => Op::Tpa,
        "tak" => Op::Tak,
        "cover" => Op::Cover,
        "clrrrb" => Op::Clrrrb { pr_only: false },
        "clrrrb.pr" => Op::Clrrrb { pr_only: true },
        "rfi" => Op::Rfi,
        "bsw.0" => Op::Bsw { bank: 0 },
        "bsw.1" => Op::Bsw { bank: 1 },
        "epc" => Op::Epc,
        // F unit (issue 12): every row but the existing fmerge/fma/xma ones (before the fma
        // arm below, whose prefix test would take fmax/fmin).
        _ if super::fp_bits::op_of(form, slot).is_some() => super::fp_bits::op_of(form, slot)?,
        "xma.l" => Op::Xma { high: false, unsigned: false },
        "xma.h" => Op::Xma { high: true, unsigned: false },
        "xma.hu" => Op::Xma { high: true, unsigned: true },
        "fmerge.s" => Op::Fmerge { kind: 0 },
        "fmerge.ns" => Op::Fmerge { kind: 1 },
        "fmerge.se" => Op::Fmerge { kind: 2 },
        // Branch predict hints have no architectural effect (branch hints, issue 12).
        "brp{}{}" | "brp.ret{}{}" => Op::Nop,
        _ if name.starts_with("br") => {
            let kind_text = name.trim_start_matches("brl").trim_start_matches("br").trim_start_matches('.');
            let kind = match kind_text.split(['{', '.']).next().unwrap_or("") {
                "cond" | "" => BrKind::Cond,
                "ia" => BrKind::Ia,
                "call" => BrKind::Call,
                "ret" => BrKind::Ret,
                "cloop" => BrKind::Cloop,
                "cexit" => BrKind::Cexit,
                "ctop" => BrKind::Ctop,
                "wexit" => BrKind::Wexit,
                "wtop" => BrKind::Wtop,
                _ => return None,
            };
            Op::Branch { kind, indirect: matches!(form.format, "B4" | "B5") }
        }
        _ if name.starts_with("fma") || name.starts_with("fms") || name.starts_with("fnma") => {
            let pc = if name.contains(".s{") {
                1
            } else if name.contains(".d{") {
                2
            } else {
                0
            };
            Op::Fma { sub: name.starts_with("fms"), neg: name.starts_with("fnma"), pc, sf: field(slot, 34, 2) as u8 }
        }
        // multimedia (issue 12)
        _ if matches!(
            form.timing,
            TimingClass::MmAlu | TimingClass::MmShift | TimingClass::MmShiftImm | TimingClass::MmMul
        ) || matches!(form.format, "I29" | "I30") =>
        {
            super::mm::op_of(form, slot)?
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{table, Flags};

    /// Every real row executes as some operation: nothing the assembler accepts is left
    /// without semantics.
    #[test]
    fn every_real_row_has_an_operation() {
        let mut missing = Vec::new();
        for form in table().forms.iter().filter(|f| f.is_real() && !f.flags.has(Flags::ASM_ONLY)) {
            let slot = form.comps.iter().fold(form.bits, |s, c| s | c.field.put(c.opts.first().map_or(0, |o| o.1)));
            if op_of(form, slot).is_none() {
                missing.push(format!("{} ({})", form.name, form.format));
            }
        }
        assert!(missing.is_empty(), "rows without an operation: {missing:?}");
    }
}
