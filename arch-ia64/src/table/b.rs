//! B-unit rows: branches, calls, returns and the B8 system instructions
//! (SDM vol. 3 section 4.5; reference section 8).

use super::field::{f, Field};
use super::{Comp, Flags, Form, OpKind::*, Resource, Sem, TimingClass as T, Unit};
use crate::exec::op::BrKind;
use crate::regs::{ar, cr, PR_LOOP};

// Implicit registers of the branches (gas 2.40 ia64-ic.tbl; issue 12).
/// A call reads ar.bsp and ar.ec, and writes ar.bsp and ar.pfs (the frame marker).
pub(super) const CALL_READS: &[Resource] = &[Resource::Ar(ar::BSP), Resource::Ar(ar::EC)];
pub(super) const CALL_WRITES: &[Resource] = &[Resource::Ar(ar::BSP), Resource::Ar(ar::PFS)];
/// A return restores the frame from ar.pfs and ar.ec from its pec field.
const RET_READS: &[Resource] = &[Resource::Ar(ar::BSP), Resource::Ar(ar::PFS)];
const RET_WRITES: &[Resource] = &[Resource::Ar(ar::BSP), Resource::Ar(ar::EC)];
/// br.ia reads every named application register (gas: "all the ARs IA-32 maps").
const NAMED_ARS: &[Resource] = &[
    Resource::Ar(ar::K0),
    Resource::Ar(ar::K1),
    Resource::Ar(ar::K2),
    Resource::Ar(ar::K3),
    Resource::Ar(ar::K4),
    Resource::Ar(ar::K5),
    Resource::Ar(ar::K6),
    Resource::Ar(ar::K7),
    Resource::Ar(ar::RSC),
    Resource::Ar(ar::BSP),
    Resource::Ar(ar::BSPSTORE),
    Resource::Ar(ar::RNAT),
    Resource::Ar(ar::FCR),
    Resource::Ar(ar::EFLAG),
    Resource::Ar(ar::CSD),
    Resource::Ar(ar::SSD),
    Resource::Ar(ar::CFLG),
    Resource::Ar(ar::FSR),
    Resource::Ar(ar::FIR),
    Resource::Ar(ar::FDR),
    Resource::Ar(ar::CCV),
    Resource::Ar(ar::UNAT),
    Resource::Ar(ar::FPSR),
    Resource::Ar(ar::ITC),
    Resource::Ar(ar::RUC),
    Resource::Ar(ar::PFS),
    Resource::Ar(ar::LC),
    Resource::Ar(ar::EC),
];
const LC: &[Resource] = &[Resource::Ar(ar::LC)];
const EC: &[Resource] = &[Resource::Ar(ar::EC)];
const LC_EC: &[Resource] = &[Resource::Ar(ar::LC), Resource::Ar(ar::EC)];
/// The counted modulo-scheduled loop branches also rotate p63 in.
const LC_EC_P63: &[Resource] = &[Resource::Ar(ar::LC), Resource::Ar(ar::EC), Resource::Pr(PR_LOOP)];
const EC_P63: &[Resource] = &[Resource::Ar(ar::EC), Resource::Pr(PR_LOOP)];
const BSP: &[Resource] = &[Resource::Ar(ar::BSP)];
const COVER_WRITES: &[Resource] = &[Resource::Ar(ar::BSP), Resource::Cr(cr::IFS)];
const RFI_READS: &[Resource] = &[
    Resource::Ar(ar::BSP),
    Resource::Cr(cr::IPSR),
    Resource::Cr(cr::IIP),
    Resource::Cr(cr::IFS),
    Resource::Cr(cr::TPR),
];
const PFS: &[Resource] = &[Resource::Ar(ar::PFS)];
/// rfi restores the frame and the whole PSR, of which only PSR.vm is named by a row.
const RFI_WRITES: &[Resource] = &[Resource::Ar(ar::BSP), Resource::Psr(crate::regs::PSR_VM)];
const PSR_VM: &[Resource] = &[Resource::Psr(crate::regs::PSR_VM)];

const fn br(kind: BrKind, indirect: bool) -> Sem {
    Sem::Branch { kind, indirect }
}

/// Whether hint of B1, B3, B4 (two bits at 33-34). gas requires it (`br.cond.many` and
/// `br.call b0=x` are unknown opcodes); only the `br`/`brl` pseudo rows omit it.
pub(super) const WH: Comp =
    Comp { field: f::WH, opts: &[(".sptk", 0), (".spnt", 1), (".dptk", 2), (".dpnt", 3)], implied: None };
/// Whether hint of B5 (three bits at 32-34).
const WH3: Comp =
    Comp { field: f::WH3, opts: &[(".sptk", 1), (".spnt", 3), (".dptk", 5), (".dpnt", 7)], implied: None };
/// Prefetch hint; omitted means .few.
pub(super) const PH: Comp = Comp { field: f::PH, opts: &[(".few", 0), (".many", 1)], implied: Some(0) };
/// Deallocation hint.
pub(super) const DH: Comp = Comp { field: f::DH, opts: &[("", 0), (".clr", 1)], implied: None };

/// brp's importance hint (bit 35).
const IH: Comp = Comp { field: Field::new(35, 1), opts: &[("", 0), (".imp", 1)], implied: None };
/// brp's whether hint (bits 4:3): B6 has four, B7 (indirect) only .sptk and .dptk.
const WH_BRP: Comp =
    Comp { field: Field::new(3, 2), opts: &[(".sptk", 0), (".loop", 1), (".dptk", 2), (".exit", 3)], implied: None };
const WH_BRP7: Comp = Comp { field: Field::new(3, 2), opts: &[(".sptk", 0), (".dptk", 2)], implied: None };

fn ip_rel(name: &'static str, comps: &'static [Comp], btype: u64) -> Form {
    Form::new(name, comps, Unit::B, "B1", &[(f::OP, 4), (f::B1, btype)]).ops(&[], &[Tgt25]).timing(T::Branch)
}

fn indirect(name: &'static str, comps: &'static [Comp], x6: u64, btype: u64) -> Form {
    Form::new(name, comps, Unit::B, "B4", &[(f::OP, 0), (f::X6, x6), (f::B1, btype)])
        .ops(&[], &[B2])
        .timing(T::BranchIndirect)
}

fn b8(name: &'static str, x6: u64, timing: T) -> Form {
    Form::new(name, &[], Unit::B, "B8", &[(f::OP, 0), (f::X6, x6)]).flags(Flags::NO_QP).timing(timing)
}

/// Appends the B-unit rows.
pub(super) fn list(out: &mut Vec<Form>) {
    out.extend([
        // `br.cond.sptk` is displayed and accepted as plain `br`.
        ip_rel("br{}{}", &[PH, DH], 0)
            .pin(f::WH, 0)
            .flags(Flags::PSEUDO | Flags::QP0_ALIAS)
            .sem(br(BrKind::Cond, false)),
        ip_rel("br.cond{}{}{}", &[WH, PH, DH], 0).sem(br(BrKind::Cond, false)),
        ip_rel("br.wexit{}{}{}", &[WH, PH, DH], 2)
            .flags(Flags::SLOT2)
            .sem(br(BrKind::Wexit, false))
            .implicit(EC, EC_P63),
        ip_rel("br.wtop{}{}{}", &[WH, PH, DH], 3).flags(Flags::SLOT2).sem(br(BrKind::Wtop, false)).implicit(EC, EC_P63),
        ip_rel("br.cloop{}{}{}", &[WH, PH, DH], 5)
            .flags(Flags::SLOT2 | Flags::NO_QP)
            .sem(br(BrKind::Cloop, false))
            .implicit(LC, LC),
        ip_rel("br.cexit{}{}{}", &[WH, PH, DH], 6)
            .flags(Flags::SLOT2 | Flags::NO_QP)
            .sem(br(BrKind::Cexit, false))
            .implicit(LC_EC, LC_EC_P63),
        ip_rel("br.ctop{}{}{}", &[WH, PH, DH], 7)
            .flags(Flags::SLOT2 | Flags::NO_QP)
            .sem(br(BrKind::Ctop, false))
            .implicit(LC_EC, LC_EC_P63),
        Form::new("br.call{}{}{}", &[WH, PH, DH], Unit::B, "B3", &[(f::OP, 5)])
            .ops(&[B1], &[Tgt25])
            .timing(T::Call)
            .sem(br(BrKind::Call, false))
            .implicit(CALL_READS, CALL_WRITES),
        indirect("br{}{}", &[PH, DH], 0x20, 0)
            .pin(f::WH, 0)
            .flags(Flags::PSEUDO | Flags::QP0_ALIAS)
            .sem(br(BrKind::Cond, true)),
        indirect("br.cond{}{}{}", &[WH, PH, DH], 0x20, 0).sem(br(BrKind::Cond, true)),
        indirect("br.ia{}{}{}", &[WH, PH, DH], 0x20, 1).sem(br(BrKind::Ia, true)).implicit(NAMED_ARS, &[]),
        indirect("br.ret{}{}{}", &[WH, PH, DH], 0x21, 4)
            .timing(T::Return)
            .sem(br(BrKind::Ret, true))
            .implicit(RET_READS, RET_WRITES),
        Form::new("br.call{}{}{}", &[WH3, PH, DH], Unit::B, "B5", &[(f::OP, 1)])
            .ops(&[B1], &[B2])
            .timing(T::Call)
            .sem(br(BrKind::Call, true))
            .implicit(CALL_READS, CALL_WRITES),
        b8("cover", 0x02, T::Cover).flags(Flags::LAST).sem(Sem::Cover).implicit(BSP, COVER_WRITES),
        b8("clrrrb", 0x04, T::Clrrrb).flags(Flags::LAST).sem(Sem::Clrrrb { pr_only: false }),
        b8("clrrrb.pr", 0x05, T::Clrrrb).flags(Flags::LAST).sem(Sem::Clrrrb { pr_only: true }),
        b8("rfi", 0x08, T::Rfi).flags(Flags::LAST | Flags::PRIV).sem(Sem::Rfi).implicit(RFI_READS, RFI_WRITES),
        b8("bsw.0", 0x0C, T::Bsw).flags(Flags::LAST | Flags::PRIV).sem(Sem::Bsw { bank: 0 }),
        b8("bsw.1", 0x0D, T::Bsw).flags(Flags::LAST | Flags::PRIV).sem(Sem::Bsw { bank: 1 }),
        b8("epc", 0x10, T::Epc).sem(Sem::Epc).implicit(PFS, &[]),
        // vmsw (issue 12): privileged, writes PSR.vm; timed as bsw, the other B8 PSR write.
        b8("vmsw.0", 0x18, T::Bsw).flags(Flags::PRIV).sem(Sem::Vmsw { vm: false }).implicit(&[], PSR_VM),
        b8("vmsw.1", 0x19, T::Bsw).flags(Flags::PRIV).sem(Sem::Vmsw { vm: true }).implicit(&[], PSR_VM),
        Form::new("break.b", &[], Unit::B, "B9", &[(f::OP, 0), (f::X6, 0)])
            .ops(&[], &[Imm21])
            .timing(T::Break)
            .sem(Sem::Break),
        Form::new("nop.b", &[], Unit::B, "B9", &[(f::OP, 2), (f::X6, 0)])
            .ops(&[], &[Imm21])
            .timing(T::Nop)
            .sem(Sem::Nop),
        Form::new("hint.b", &[], Unit::B, "B9", &[(f::OP, 2), (f::X6, 1)])
            .ops(&[], &[Imm21])
            .timing(T::Nop)
            .sem(Sem::Nop),
        // Branch predict (B6 IP-relative, B7 indirect; SDM vol. 3 brp): hints with no
        // architectural effect, timed as the other hints (branch hints, issue 12).
        Form::new("brp{}{}", &[WH_BRP, IH], Unit::B, "B6", &[(f::OP, 7)])
            .ops(&[], &[Tgt25, Tag13b])
            .flags(Flags::NO_QP)
            .timing(T::Nop)
            .sem(Sem::Brp),
        Form::new("brp{}{}", &[WH_BRP7, IH], Unit::B, "B7", &[(f::OP, 2), (f::X6, 0x10)])
            .ops(&[], &[B2, Tag13b])
            .flags(Flags::NO_QP)
            .timing(T::Nop)
            .sem(Sem::Brp),
        Form::new("brp.ret{}{}", &[WH_BRP7, IH], Unit::B, "B7", &[(f::OP, 2), (f::X6, 0x11)])
            .ops(&[], &[B2, Tag13b])
            .flags(Flags::NO_QP)
            .timing(T::Nop)
            .sem(Sem::Brp),
    ]);
}
