//! M-unit rows: loads, stores, atomics, FP moves, system and control instructions
//! (SDM vol. 3 section 4.4; reference section 7).

use super::field::{f, Field};
use super::{Comp, Flags, Form, OpKind::*, Resource, Sem, TimingClass as T, Unit};
use crate::exec::op::{FpFormat, LoadKind, TlbOp, Update};
use crate::regs::{ar, cr};
use crate::state::indirect::File;

// Implicit registers (gas 2.40 ia64-ic.tbl classes; issue 12).
const UNAT: &[Resource] = &[Resource::Ar(ar::UNAT)];
const CCV: &[Resource] = &[Resource::Ar(ar::CCV)];
/// itc/itr take the translation from cr.ifa and cr.itir.
const IFA_ITIR: &[Resource] = &[Resource::Cr(cr::IFA), Resource::Cr(cr::ITIR)];
/// flushrs: reads the RSE state, writes ar.bspstore and ar.rnat.
const FLUSHRS_READS: &[Resource] =
    &[Resource::Ar(ar::RSC), Resource::Ar(ar::BSP), Resource::Ar(ar::BSPSTORE), Resource::Ar(ar::RNAT)];
const LOADRS_READS: &[Resource] = &[Resource::Ar(ar::RSC), Resource::Ar(ar::BSP), Resource::Ar(ar::RNAT)];
const RSE_WRITES: &[Resource] = &[Resource::Ar(ar::BSPSTORE), Resource::Ar(ar::RNAT)];
const ALLOC_READS: &[Resource] =
    &[Resource::Ar(ar::RSC), Resource::Ar(ar::BSPSTORE), Resource::Ar(ar::RNAT), Resource::Ar(ar::PFS)];

const LD_SIZE: Comp = Comp { field: f::LS_SIZE, opts: &[("1", 0), ("2", 1), ("4", 2), ("8", 3)], implied: None };
/// Integer load types (x6 high bits); 6 (fill), 0xC-0xE (stores) are other rows.
const LD_TYPE: Comp = Comp {
    field: f::LS_TYPE,
    opts: &[
        ("", 0),
        (".s", 1),
        (".a", 2),
        (".sa", 3),
        (".bias", 4),
        (".acq", 5),
        (".c.clr", 8),
        (".c.nc", 9),
        (".c.clr.acq", 0xA),
    ],
    implied: None,
};
/// Load hints without base update: objdump 2.40 names hint 2 `.d2`; gas also takes `.d1`/`.d3`
/// for 1/3 and `.nt2` for 2, but only in these forms.
const LD_HINT: Comp = Comp {
    field: f::HINT,
    opts: &[("", 0), (".nt1", 1), (".d2", 2), (".nta", 3), (".nt2", 2), (".d1", 1), (".d3", 3)],
    implied: None,
};
/// Load hints with base update: gas 2.40 takes none, `.nt1` and `.nta`; objdump shows hint 2
/// in these forms as data8.
const LD_HINT_UPD: Comp = Comp { field: f::HINT, opts: &[("", 0), (".nt1", 1), (".nta", 3)], implied: None };
/// Store hints without base update: objdump 2.40 names hints 1 and 2 `.d1`/`.d2`; gas also
/// takes `.nt1`, `.nt2` and `.d3`.
const ST_HINT: Comp = Comp {
    field: f::HINT,
    opts: &[("", 0), (".d1", 1), (".d2", 2), (".nta", 3), (".nt1", 1), (".nt2", 2), (".d3", 3)],
    implied: None,
};
/// Store hints with base update: only none and `.nta` (objdump shows hints 1 and 2 as data8).
const ST_HINT_UPD: Comp = Comp { field: f::HINT, opts: &[("", 0), (".nta", 3)], implied: None };
/// Hints of the FP load pairs and the semaphores: gas 2.40 takes only `.nt1` and `.nta`.
pub(super) const SEM_HINT: Comp = Comp { field: f::HINT, opts: &[("", 0), (".nt1", 1), (".nta", 3)], implied: None };
/// lfetch hints: objdump keeps `.nt2` for hint 2 (gas also takes `.d1`-`.d3`).
const LF_HINT: Comp = Comp {
    field: f::HINT,
    opts: &[("", 0), (".nt1", 1), (".nt2", 2), (".nta", 3), (".d1", 1), (".d2", 2), (".d3", 3)],
    implied: None,
};
const ST_TYPE: Comp = Comp { field: f::LS_TYPE, opts: &[("", 0xC), (".rel", 0xD)], implied: None };
const LDF_SIZE: Comp = Comp { field: f::LS_SIZE, opts: &[("e", 0), ("8", 1), ("s", 2), ("d", 3)], implied: None };
const LDF_TYPE: Comp = Comp {
    field: f::LS_TYPE,
    opts: &[("", 0), (".s", 1), (".a", 2), (".sa", 3), (".c.clr", 8), (".c.nc", 9)],
    implied: None,
};
const STF_TYPE: Comp = Comp { field: f::LS_TYPE, opts: &[("", 0xC)], implied: None };
/// lfetch's lftype: bit 31 of x6 (x6 0x2C plain, 0x2E `.fault`).
const LF_TYPE: Comp = Comp { field: Field::new(31, 1), opts: &[("", 0), (".fault", 1)], implied: None };
/// lfetch's exclusive hint: bit 30 of x6 (x6 0x2D `.excl`, 0x2F `.fault.excl`).
const LF_EXCL: Comp = Comp { field: Field::new(30, 1), opts: &[("", 0), (".excl", 1)], implied: None };
const SEM_ACQ_REL: Comp = Comp { field: Field::new(32, 1), opts: &[(".acq", 0), (".rel", 1)], implied: None };
const XCHG_SIZE: Comp = LD_SIZE;
const FETCHADD_SIZE: Comp = Comp { field: Field::new(30, 1), opts: &[("4", 0), ("8", 1)], implied: None };
const GETF_KIND: Comp =
    Comp { field: Field::new(30, 2), opts: &[(".sig", 0), (".exp", 1), (".s", 2), (".d", 3)], implied: None };

/// The timing class, semantics id (by base-update kind) and implicit reads and writes of
/// the three addressing forms of a load or store.
struct MemRow(T, fn(Update) -> Sem, &'static [Resource], &'static [Resource]);

/// A load or store in its three addressing forms: no update (op 4/6, m=0), register
/// update (m=1) and immediate update (op 5/7).
fn mem3(
    out: &mut Vec<Form>,
    name: &'static str,
    comps: [&'static [Comp]; 2],
    base_op: u64,
    x6_fixed: Option<u64>,
    ops: [(&'static [super::OpKind], &'static [super::OpKind]); 3],
    row: MemRow,
) {
    let MemRow(timing, sem, imp_r, imp_w) = row;
    let fixed_x6: Vec<(Field, u64)> = x6_fixed.map(|x| vec![(f::X6LS, x)]).unwrap_or_default();
    let with = |mut v: Vec<(Field, u64)>| {
        v.extend(fixed_x6.iter().copied());
        v
    };
    let fmt = |n: u64| -> &'static str {
        match (base_op, n) {
            (4, 0) => "M1",
            (4, 1) => "M2",
            (4, _) => "M3",
            (6, 0) => "M6",
            (6, 1) => "M7",
            _ => "M8",
        }
    };
    let [plain, reg, imm] = ops;
    // The hint spellings differ between the forms without and with base update.
    let [comps, comps_upd] = comps;
    out.push(
        Form::new(name, comps, Unit::M, fmt(0), &with(vec![(f::OP, base_op), (f::BIT36, 0), (f::X27, 0)]))
            .ops(plain.0, plain.1)
            .timing(timing)
            .sem(sem(Update::None))
            .implicit(imp_r, imp_w),
    );
    if !reg.1.is_empty() {
        out.push(
            Form::new(name, comps_upd, Unit::M, fmt(1), &with(vec![(f::OP, base_op), (f::BIT36, 1), (f::X27, 0)]))
                .ops(reg.0, reg.1)
                .timing(timing)
                .sem(sem(Update::Reg))
                .implicit(imp_r, imp_w),
        );
    }
    out.push(
        Form::new(name, comps_upd, Unit::M, fmt(2), &with(vec![(f::OP, base_op + 1)]))
            .ops(imm.0, imm.1)
            .timing(timing)
            .sem(sem(Update::Imm))
            .implicit(imp_r, imp_w),
    );
}

/// lfetch in its three addressing forms: M13 (op 6, m = 0), M14 (op 6, m = 1, `[r3],r2`) and
/// M15 (op 7, `[r3],imm9`); bit 27 (x) is 0 in all three, as for the FP loads that share op 6/7.
fn lfetch3(out: &mut Vec<Form>, ops: [(&'static [super::OpKind], &'static [super::OpKind]); 3]) {
    const COMPS: &[Comp] = &[LF_TYPE, LF_EXCL, LF_HINT];
    const NAME: &str = "lfetch{}{}{}";
    let ty = (f::LS_TYPE, 0xB);
    let [plain, reg, imm] = ops;
    out.extend([
        Form::new(NAME, COMPS, Unit::M, "M13", &[(f::OP, 6), (f::BIT36, 0), (f::X27, 0), ty])
            .ops(plain.0, plain.1)
            .timing(T::Lfetch)
            .sem(Sem::Lfetch { fault: false, update: Update::None }),
        Form::new(NAME, COMPS, Unit::M, "M14", &[(f::OP, 6), (f::BIT36, 1), (f::X27, 0), ty])
            .ops(reg.0, reg.1)
            .timing(T::Lfetch)
            .sem(Sem::Lfetch { fault: false, update: Update::Reg }),
        Form::new(NAME, COMPS, Unit::M, "M15", &[(f::OP, 7), ty])
            .ops(imm.0, imm.1)
            .timing(T::Lfetch)
            .sem(Sem::Lfetch { fault: false, update: Update::Imm }),
    ]);
}

fn sys0(name: &'static str, x6: u64) -> Form {
    Form::new(name, &[], Unit::M, "M24", &[(f::OP, 0), (f::X3, 0), (f::X6, x6)])
}

fn sys1(name: &'static str, x6: u64) -> Form {
    Form::new(name, &[], Unit::M, "M", &[(f::OP, 1), (f::X3, 0), (f::X6, x6)])
}

/// The one-operand slice naming an indirect file, for a row's outputs or inputs.
fn ind(file: super::OpKind) -> &'static [super::OpKind] {
    match file {
        IndRr => &[IndRr],
        IndDbr => &[IndDbr],
        IndIbr => &[IndIbr],
        IndPkr => &[IndPkr],
        IndPmc => &[IndPmc],
        _ => &[IndPmd],
    }
}

/// Appends the M-unit rows.
pub(super) fn list(out: &mut Vec<Form>) {
    const LD_OPS: [(&[super::OpKind], &[super::OpKind]); 3] =
        [(&[R1], &[Mem3]), (&[R1], &[Mem3, R2]), (&[R1], &[Mem3, Imm9Ld])];
    const ST_OPS: [(&[super::OpKind], &[super::OpKind]); 3] = [(&[Mem3], &[R2]), (&[], &[]), (&[Mem3], &[R2, Imm9St])];
    const LDF_OPS: [(&[super::OpKind], &[super::OpKind]); 3] =
        [(&[F1], &[Mem3]), (&[F1], &[Mem3, R2]), (&[F1], &[Mem3, Imm9Ld])];
    const STF_OPS: [(&[super::OpKind], &[super::OpKind]); 3] = [(&[Mem3], &[F2]), (&[], &[]), (&[Mem3], &[F2, Imm9St])];
    // Sizes, load types and FP formats come from the slot's completer bits at predecode.
    let load = |update| Sem::Load { size: 8, kind: LoadKind::Plain, update, acquire: false };
    let fill = |update| Sem::Load { size: 8, kind: LoadKind::Fill, update, acquire: false };
    let store = |update| Sem::Store { size: 8, spill: false, update, release: false };
    let spill = |update| Sem::Store { size: 8, spill: true, update, release: false };
    let fp_fill = |update| Sem::LoadFp { format: FpFormat::Spill, update };
    let fp_spill = |update| Sem::StoreFp { format: FpFormat::Spill, update };
    mem3(
        out,
        "ld{}{}{}",
        [&[LD_SIZE, LD_TYPE, LD_HINT], &[LD_SIZE, LD_TYPE, LD_HINT_UPD]],
        4,
        None,
        LD_OPS,
        MemRow(T::Load, load, &[], &[]),
    );
    mem3(out, "ld8.fill{}", [&[LD_HINT], &[LD_HINT_UPD]], 4, Some(0x1B), LD_OPS, MemRow(T::Load, fill, UNAT, &[]));
    mem3(
        out,
        "st{}{}{}",
        [&[LD_SIZE, ST_TYPE, ST_HINT], &[LD_SIZE, ST_TYPE, ST_HINT_UPD]],
        4,
        None,
        ST_OPS,
        MemRow(T::Store, store, &[], &[]),
    );
    mem3(out, "st8.spill{}", [&[ST_HINT], &[ST_HINT_UPD]], 4, Some(0x3B), ST_OPS, MemRow(T::Store, spill, &[], UNAT));
    mem3(
        out,
        "ldf{}{}{}",
        [&[LDF_SIZE, LDF_TYPE, LD_HINT], &[LDF_SIZE, LDF_TYPE, LD_HINT_UPD]],
        6,
        None,
        LDF_OPS,
        MemRow(T::FpLoad, |update| Sem::LoadFp { format: FpFormat::Extended, update }, &[], &[]),
    );
    mem3(out, "ldf.fill{}", [&[LD_HINT], &[LD_HINT_UPD]], 6, Some(0x1B), LDF_OPS, MemRow(T::FpLoad, fp_fill, &[], &[]));
    const PAIR8: &[super::OpKind] = &[Mem3, PairInc8];
    const PAIR16: &[super::OpKind] = &[Mem3, PairInc16];
    // The FP load pairs (M11 no update, M12 base update by the implied pair size): op 6 with
    // x (bit 27) = 1, x6 size bits 31:30 = 1 (ldfp8), 2 (ldfps), 3 (ldfpd), the ldf types.
    // Their hints are those of the stores: gas rejects `.nt2` and objdump shows hint 2 as data8.
    for (size, name, inc) in [(1, "ldfp8{}{}", PAIR16), (2, "ldfps{}{}", PAIR8), (3, "ldfpd{}{}", PAIR16)] {
        let bits = |m: u64| [(f::OP, 6), (f::BIT36, m), (f::X27, 1), (f::LS_SIZE, size)];
        out.extend([
            Form::new(name, &[LDF_TYPE, SEM_HINT], Unit::M, "M11", &bits(0))
                .ops(&[F1, F2], &[Mem3])
                .timing(T::FpLoad)
                .sem(Sem::LoadFpPair { format: FpFormat::Extended, update: Update::None }),
            Form::new(name, &[LDF_TYPE, SEM_HINT], Unit::M, "M12", &bits(1))
                .ops(&[F1, F2], inc)
                .timing(T::FpLoad)
                .sem(Sem::LoadFpPair { format: FpFormat::Extended, update: Update::Imm }),
        ]);
    }
    mem3(
        out,
        "stf{}{}{}",
        [&[LDF_SIZE, STF_TYPE, ST_HINT], &[LDF_SIZE, STF_TYPE, ST_HINT_UPD]],
        6,
        None,
        STF_OPS,
        MemRow(T::FpStore, |update| Sem::StoreFp { format: FpFormat::Extended, update }, &[], &[]),
    );
    mem3(
        out,
        "stf.spill{}",
        [&[ST_HINT], &[ST_HINT_UPD]],
        6,
        Some(0x3B),
        STF_OPS,
        MemRow(T::FpStore, fp_spill, &[], &[]),
    );
    // lfetch (formats M13/M14/M15, SDM vol. 3 section 4.4): x6 = 0x2C-0x2F, i.e. type bits
    // 35:32 = 0xB with lftype and excl in bits 31 and 30; no target register, so r3 leads.
    const LF_OPS: [(&[super::OpKind], &[super::OpKind]); 3] =
        [(&[], &[Mem3]), (&[], &[Mem3, R2]), (&[], &[Mem3, Imm9Ld])];
    lfetch3(out, LF_OPS);
    let atomic = |name: &'static str, comps: &'static [Comp], fixed: &[(Field, u64)]| {
        let mut all = vec![(f::OP, 4), (f::BIT36, 0), (f::X27, 1)];
        all.extend_from_slice(fixed);
        Form::new(name, comps, Unit::M, "M16", &all).timing(T::Atomic)
    };
    out.extend([
        atomic("cmpxchg{}{}{}", &[XCHG_SIZE, SEM_ACQ_REL, SEM_HINT], &[(Field::new(33, 3), 0)])
            .ops(&[R1], &[Mem3, R2, ArCcv])
            .sem(Sem::Cmpxchg { size: 8 })
            .implicit(CCV, &[]),
        atomic("xchg{}{}", &[XCHG_SIZE, SEM_HINT], &[(Field::new(32, 4), 2)])
            .ops(&[R1], &[Mem3, R2])
            .sem(Sem::Xchg { size: 8 }),
        atomic(
            "fetchadd{}{}{}",
            &[FETCHADD_SIZE, SEM_ACQ_REL, SEM_HINT],
            &[(Field::new(33, 3), 2), (Field::new(31, 1), 1)],
        )
        .ops(&[R1], &[Mem3, Inc3])
        .sem(Sem::Fetchadd { size: 8 }),
        atomic("getf{}", &[GETF_KIND], &[(Field::new(32, 4), 7)])
            .ops(&[R1], &[F2])
            .timing(T::GetF)
            .sem(Sem::Getf { kind: 0 }),
        Form::new(
            "setf{}",
            &[GETF_KIND],
            Unit::M,
            "M18",
            &[(f::OP, 6), (f::BIT36, 0), (f::X27, 1), (Field::new(32, 4), 7)],
        )
        .ops(&[F1], &[R2])
        .timing(T::SetF)
        .sem(Sem::Setf { kind: 0 }),
        // System/memory management, op 0 (x3 = 0, x6 split into x2:x4).
        sys0("break.m", 0x00).ops(&[], &[Imm21]).timing(T::Break).sem(Sem::Break),
        sys0("nop.m", 0x01).pin(f::Y26, 0).ops(&[], &[Imm21]).timing(T::Nop).sem(Sem::Nop),
        // Slot bits 10-11 lie inside M48's imm20a but are not part of gas's hint.m operand;
        // objdump shows hint.m only when they are zero (rows-live test, issue 12).
        sys0("hint.m", 0x01)
            .pin(f::Y26, 1)
            .pin(Field::new(10, 2), 0)
            .ops(&[], &[Imm21Dec])
            .timing(T::Nop)
            .sem(Sem::Nop),
        sys0("invala", 0x10).timing(T::Invala).sem(Sem::Invala),
        sys0("fwb", 0x20).timing(T::Fence).sem(Sem::Fence),
        sys0("mf", 0x22).timing(T::Fence).sem(Sem::Fence),
        sys0("mf.a", 0x23).timing(T::Fence).sem(Sem::Fence),
        sys0("srlz.d", 0x30).timing(T::Serialize).sem(Sem::Srlz { instr: false }),
        sys0("srlz.i", 0x31).timing(T::Serialize).sem(Sem::Srlz { instr: true }),
        sys0("sync.i", 0x33).timing(T::Serialize).sem(Sem::Fence),
        sys0("flushrs", 0x0C)
            .flags(Flags::NO_QP | Flags::FIRST)
            .timing(T::Rse)
            .sem(Sem::Flushrs)
            .implicit(FLUSHRS_READS, RSE_WRITES),
        sys0("loadrs", 0x0A)
            .flags(Flags::NO_QP | Flags::FIRST)
            .timing(T::Rse)
            .sem(Sem::Loadrs)
            .implicit(LOADRS_READS, RSE_WRITES),
        sys0("mov.m", 0x28).ops(&[Ar3], &[Imm8]).timing(T::MovToArM).sem(Sem::MovToArImm),
        // sum/rum/ssm/rsm: x2 belongs to the immediate, so only x4 is fixed.
        Form::new("sum", &[], Unit::M, "M44", &[(f::OP, 0), (f::X3, 0), (f::X4M, 4)])
            .ops(&[], &[Imm24])
            .timing(T::PsrMask)
            .sem(Sem::Sum),
        Form::new("rum", &[], Unit::M, "M44", &[(f::OP, 0), (f::X3, 0), (f::X4M, 5)])
            .ops(&[], &[Imm24])
            .timing(T::PsrMask)
            .sem(Sem::Rum),
        Form::new("ssm", &[], Unit::M, "M44", &[(f::OP, 0), (f::X3, 0), (f::X4M, 6)])
            .ops(&[], &[Imm24])
            .flags(Flags::PRIV)
            .timing(T::PsrMask)
            .sem(Sem::Ssm),
        Form::new("rsm", &[], Unit::M, "M44", &[(f::OP, 0), (f::X3, 0), (f::X4M, 7)])
            .ops(&[], &[Imm24])
            .flags(Flags::PRIV)
            .timing(T::PsrMask)
            .sem(Sem::Rsm),
        // System/memory management, op 1.
        Form::new("chk.s.m", &[], Unit::M, "M20", &[(f::OP, 1), (f::X3, 1)])
            .ops(&[], &[R2, Tgt25Chk])
            .timing(T::Chk)
            .sem(Sem::ChkS { fp: false }),
        Form::new("chk.s", &[], Unit::M, "M21", &[(f::OP, 1), (f::X3, 3)])
            .ops(&[], &[F2, Tgt25Chk])
            .timing(T::Chk)
            .sem(Sem::ChkS { fp: true }),
        // Bits 31-32 of M34 are unused: objdump 2.40 decodes alloc whatever they hold, and
        // whatever sof/sol/sor say (issue 12); alloc's own checks are at execution.
        Form::new("alloc", &[], Unit::M, "M34", &[(f::OP, 1), (f::X3, 6)])
            .ops(&[R1], &[ArPfs, Sof, Sol, Sor])
            .flags(Flags::NO_QP | Flags::FIRST)
            .timing(T::Alloc)
            .sem(Sem::Alloc)
            .implicit(ALLOC_READS, RSE_WRITES),
        sys1("fc", 0x30).pin(f::BIT36, 0).ops(&[], &[R3]).timing(T::Fc).sem(Sem::Fence),
        sys1("fc.i", 0x30).pin(f::BIT36, 1).ops(&[], &[R3]).timing(T::Fc).sem(Sem::Fence),
        sys1("mov.m", 0x2A).ops(&[Ar3], &[R2]).timing(T::MovToArM).sem(Sem::MovToAr),
        sys1("mov.m", 0x22).ops(&[R1], &[Ar3]).timing(T::MovFromArM).sem(Sem::MovFromAr),
        sys1("mov", 0x2C).ops(&[Cr3], &[R2]).flags(Flags::PRIV).timing(T::MovToCr).sem(Sem::MovToCr),
        sys1("mov", 0x24).ops(&[R1], &[Cr3]).flags(Flags::PRIV).timing(T::MovFromCr).sem(Sem::MovFromCr),
        sys1("mov", 0x2D).ops(&[PsrL], &[R2]).flags(Flags::PRIV).timing(T::MovToPsr).sem(Sem::MovToPsrL),
        sys1("mov", 0x29).ops(&[PsrUm], &[R2]).timing(T::MovToPsr).sem(Sem::MovToPsrUm),
        sys1("mov", 0x25).ops(&[R1], &[Psr]).flags(Flags::PRIV).timing(T::MovFromPsr).sem(Sem::MovFromPsr),
        sys1("mov", 0x21).ops(&[R1], &[PsrUm]).timing(T::MovFromPsr).sem(Sem::MovFromPsrUm),
        sys1("probe.r", 0x38).ops(&[R1], &[R3, R2]).timing(T::Probe).sem(Sem::Probe { write: false, imm: false }),
        sys1("probe.w", 0x39).ops(&[R1], &[R3, R2]).timing(T::Probe).sem(Sem::Probe { write: true, imm: false }),
        sys1("probe.r", 0x18).ops(&[R1], &[R3, Imm2]).timing(T::Probe).sem(Sem::Probe { write: false, imm: true }),
        sys1("probe.w", 0x19).ops(&[R1], &[R3, Imm2]).timing(T::Probe).sem(Sem::Probe { write: true, imm: true }),
        sys1("probe.rw.fault", 0x31)
            .ops(&[], &[R3, Imm2])
            .timing(T::Probe)
            .sem(Sem::ProbeFault { read: true, write: true }),
        sys1("probe.r.fault", 0x32)
            .ops(&[], &[R3, Imm2])
            .timing(T::Probe)
            .sem(Sem::ProbeFault { read: true, write: false }),
        sys1("probe.w.fault", 0x33)
            .ops(&[], &[R3, Imm2])
            .timing(T::Probe)
            .sem(Sem::ProbeFault { read: false, write: true }),
        sys1("thash", 0x1A).ops(&[R1], &[R3]).timing(T::Tlb).sem(Sem::Thash),
        sys1("ttag", 0x1B).ops(&[R1], &[R3]).timing(T::Tlb).sem(Sem::Ttag),
        sys1("tpa", 0x1E).ops(&[R1], &[R3]).flags(Flags::PRIV).timing(T::Tlb).sem(Sem::Tpa),
        sys1("tak", 0x1F).ops(&[R1], &[R3]).flags(Flags::PRIV).timing(T::Tlb).sem(Sem::Tak),
    ]);
    // Indirect register files (M42 to-file x6 0x00-0x05, M43 from-file x6 0x10-0x15 and cpuid
    // 0x17; SDM vol. 3 section 4.4.8). Only reads of cpuid and pmd are unprivileged. Timing: M2
    // only like the other system moves (itanium2-timing.md section 1); the latency is the Tlb
    // class's GUESS, as no source gives one for these files.
    const FILES: [(super::OpKind, u64, File); 6] = [
        (IndRr, 0, File::Rr),
        (IndDbr, 1, File::Dbr),
        (IndIbr, 2, File::Ibr),
        (IndPkr, 3, File::Pkr),
        (IndPmc, 4, File::Pmc),
        (IndPmd, 5, File::Pmd),
    ];
    for (kind, x6, file) in FILES {
        out.push(sys1("mov", x6).ops(ind(kind), &[R2]).flags(Flags::PRIV).timing(T::Tlb).sem(Sem::MovToInd(file)));
    }
    for (kind, x6, file) in FILES {
        let priv_read = if kind == IndPmd { Flags::NONE } else { Flags::PRIV };
        out.push(
            sys1("mov", 0x10 + x6).ops(&[R1], ind(kind)).flags(priv_read).timing(T::Tlb).sem(Sem::MovFromInd(file)),
        );
    }
    out.extend([
        sys1("mov", 0x17).ops(&[R1], &[IndCpuid]).timing(T::Tlb).sem(Sem::MovFromInd(File::Cpuid)),
        // Model-specific registers (x6 0x06/0x16, SDM rev 2.3), which gas 2.40 knows.
        sys1("mov", 0x06).ops(&[IndMsr], &[R2]).flags(Flags::PRIV).timing(T::Tlb).sem(Sem::MovMsr),
        sys1("mov", 0x16).ops(&[R1], &[IndMsr]).flags(Flags::PRIV).timing(T::Tlb).sem(Sem::MovMsr),
        // TLB insertion and purge (M41, M42, M45, M47). gas requires itc.i/itc.d/ptc.g/ptc.ga
        // to end their instruction group (gas-ia64-bundling.md R7).
        sys1("itc.d", 0x2E)
            .ops(&[], &[R2])
            .flags(Flags::PRIV | Flags::LAST)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Itc { data: true }))
            .implicit(IFA_ITIR, &[]),
        sys1("itc.i", 0x2F)
            .ops(&[], &[R2])
            .flags(Flags::PRIV | Flags::LAST)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Itc { data: false }))
            .implicit(IFA_ITIR, &[]),
        sys1("itr.d", 0x0E)
            .ops(&[IndDtr], &[R2])
            .flags(Flags::PRIV)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Itr { data: true }))
            .implicit(IFA_ITIR, &[]),
        sys1("itr.i", 0x0F)
            .ops(&[IndItr], &[R2])
            .flags(Flags::PRIV)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Itr { data: false }))
            .implicit(IFA_ITIR, &[]),
        sys1("ptc.l", 0x09).ops(&[], &[R3, R2]).flags(Flags::PRIV).timing(T::Tlb).sem(Sem::Tlb(TlbOp::Ptc)),
        sys1("ptc.g", 0x0A)
            .ops(&[], &[R3, R2])
            .flags(Flags::PRIV | Flags::LAST)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Ptc)),
        sys1("ptc.ga", 0x0B)
            .ops(&[], &[R3, R2])
            .flags(Flags::PRIV | Flags::LAST)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Ptc)),
        sys1("ptr.d", 0x0C)
            .ops(&[], &[R3, R2])
            .flags(Flags::PRIV)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Ptr { data: true })),
        sys1("ptr.i", 0x0D)
            .ops(&[], &[R3, R2])
            .flags(Flags::PRIV)
            .timing(T::Tlb)
            .sem(Sem::Tlb(TlbOp::Ptr { data: false })),
        sys1("ptc.e", 0x34).ops(&[], &[R3]).flags(Flags::PRIV).timing(T::Tlb).sem(Sem::Tlb(TlbOp::PtcE)),
    ]);
}
