//! gas's dependency rows for CFM, the RSE and the PSR fields (issue 13, automatic mode), from
//! binutils' `ia64-raw.tbl`/`ia64-waw.tbl`/`ia64-ic.tbl` and `specify_resource` in
//! `tc-ia64.c`. Automatic mode needs them: `alloc` then `br.call`, `br.ctop` then a rotating
//! register, `ssm psr.ic` then `mov cr.ifs=` all get a stop (or a `srlz.d`) from gas.
//!
//! Only the writers gas records are modelled: gas records nothing of a branch or `rfi` but its
//! predicate read (`br.call`/`br.ret`/`rfi` as writers never conflict), and `bsw`/`cover`/
//! `clrrrb` end their group. The PSR rows of `rfi`, `br.ia` and `vmsw` as writers are left out
//! for the same reason; `PSR.vm`'s WAW is `dv.rs`'s. The translation-cache and -register
//! rows (DTC, DTR, ITC, ITR and the purge limits) and the indirect register files (RR, PKR,
//! DBR, IBR, PMC, PMD; every access counts as one whole resource, where gas tells entries
//! apart when it knows the index register's value) are here too.
//!
//! gas's quirks kept here: only a move from or to an interruption control register reads
//! `PSR.ic` (`cover` and `itc` do not); `mov psr.l=` writes (and `mov =psr` reads) bits 0-31, 35
//! and 36; a `psr.um` move the bits below 6; the mask of `rsm`/`ssm`/`rum`/`sum` selects the
//! fields; `PSR.dfl`/`dfh` are read by FP instructions through f2-f31/f32-f127 operands and
//! `PSR.mfl`/`mfh` written through a target in those ranges; the rotating-register read of
//! CFM (gas's note 2) is a non-specific use for each rotating operand (r32 up to the rotating
//! size of the last `alloc`, f32-f127, p16-p63 targets, a qualifying predicate above p15).

use super::{dep, Class, DvInsn, DvKind, Mode, Op, Resource, Sem, Spec, Uses};
use crate::exec::op::{BrKind, TlbOp};
use crate::regs::{ar, cr};
use crate::state::indirect::File;

const CFM: &str = "CFM";
const RSE: &str = "RSE";

/// PSR bit numbers of the fields with rows here.
mod bit {
    pub const BE: u8 = 1;
    pub const UP: u8 = 2;
    pub const AC: u8 = 3;
    pub const MFL: u8 = 4;
    pub const MFH: u8 = 5;
    pub const IC: u8 = 13;
    pub const I: u8 = 14;
    pub const PK: u8 = 15;
    pub const DT: u8 = 17;
    pub const DFL: u8 = 18;
    pub const DFH: u8 = 19;
    pub const SP: u8 = 20;
    pub const PP: u8 = 21;
    pub const DI: u8 = 22;
    pub const SI: u8 = 23;
    pub const DB: u8 = 24;
    pub const LP: u8 = 25;
    pub const TB: u8 = 26;
    pub const RT: u8 = 27;
    pub const CPL: u8 = 32;
}

/// How an instruction writes PSR fields (gas's writer classes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum W {
    /// rum/sum (user-mask-writers-partial, note 7) and `mov psr.um=`.
    User,
    /// rsm/ssm (sys-mask-writers-partial, note 7).
    SysPartial,
    /// `mov psr.l=`.
    PsrL,
    /// An FP instruction writing an FR (fr-writers, note 9).
    Fr,
    /// epc.
    Epc,
}

/// Which PSR readers a row names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum R {
    /// mem-readers, mem-writers.
    Mem,
    /// fc, lfetch, probe, tpa, tak.
    NonAccess,
    /// `mov =psr` and `mov =psr.um`.
    FromPsr,
    /// FP instructions through an FR in the field's range (note 8).
    Fp,
    BrIa,
    /// A move from or to an interruption control register.
    InterruptionCr,
    BrRet,
    /// lfetch, mem-readers, mem-writers, probe with fault.
    DbReaders,
    /// lfetch, mem-readers, mem-writers, every probe.
    PkReaders,
    /// alloc, flushrs, loadrs.
    Rse,
    /// `mov =ar.itc`, `mov =ar.ruc` (in gas: every M-unit move from an application register).
    Counter,
    /// `mov =pmd[]`, `mov psr.um=`, rum, sum.
    SpReaders,
    /// branches, chk, fchkf.
    TbReaders,
    /// What reads the privilege level.
    Cpl,
}

/// The writer sets of the rows: `u`: user-mask writers, `s`: system-mask writers, `l`: only
/// `mov psr.l=`, `f`: FR writers, `e`: epc.
#[derive(Debug, Clone, Copy)]
struct Writers {
    u: bool,
    s: bool,
    l: bool,
    f: bool,
    e: bool,
}

const U_S: Writers = Writers { u: true, s: true, l: true, f: false, e: false };
const U: Writers = Writers { u: true, s: false, l: false, f: false, e: false };
const S: Writers = Writers { u: false, s: true, l: true, f: false, e: false };
const L: Writers = Writers { u: false, s: false, l: true, f: false, e: false };
const F_U_S: Writers = Writers { u: true, s: true, l: true, f: true, e: false };
const F: Writers = Writers { u: false, s: false, l: false, f: true, e: false };
const E: Writers = Writers { u: false, s: false, l: false, f: false, e: true };

fn same_writers(a: Writers, b: Writers) -> bool {
    (a.u, a.s, a.l, a.f, a.e) == (b.u, b.s, b.l, b.f, b.e)
}

impl Writers {
    fn has(self, w: W) -> bool {
        match w {
            W::User => self.u,
            W::SysPartial => self.s,
            W::PsrL => self.l,
            W::Fr => self.f,
            W::Epc => self.e,
        }
    }
}

/// One RAW row: field, name, writers, readers, semantics.
type RawRow = (u8, &'static str, Writers, &'static [R], Sem);

/// The RAW rows of `ia64-raw.tbl` for the modelled writers, in table order. `U` with `S`
/// parts: `PSR.ac`/`be` have a user-mask row (implied) and a system-mask row (data).
const RAW: &[RawRow] = &[
    (bit::AC, "PSR.ac", U, &[R::Mem], Sem::Implied),
    (bit::AC, "PSR.ac", S, &[R::Mem], Sem::Data),
    (bit::AC, "PSR.ac", U_S, &[R::FromPsr], Sem::ImpliedF),
    (bit::BE, "PSR.be", U, &[R::Mem], Sem::Implied),
    (bit::BE, "PSR.be", S, &[R::Mem], Sem::Data),
    (bit::BE, "PSR.be", U_S, &[R::FromPsr], Sem::ImpliedF),
    (bit::CPL, "PSR.cpl", E, &[R::Cpl], Sem::Implied),
    (bit::DB, "PSR.db", L, &[R::DbReaders], Sem::Data),
    (bit::DB, "PSR.db", L, &[R::FromPsr], Sem::ImpliedF),
    (bit::DFH, "PSR.dfh", S, &[R::Fp], Sem::Data),
    (bit::DFH, "PSR.dfh", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::DFL, "PSR.dfl", S, &[R::Fp], Sem::Data),
    (bit::DFL, "PSR.dfl", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::DI, "PSR.di", S, &[R::BrIa], Sem::Data),
    (bit::DI, "PSR.di", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::DT, "PSR.dt", S, &[R::Mem, R::NonAccess], Sem::Data),
    (bit::DT, "PSR.dt", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::I, "PSR.i", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::IC, "PSR.ic", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::IC, "PSR.ic", S, &[R::InterruptionCr], Sem::Data),
    (bit::LP, "PSR.lp", L, &[R::FromPsr], Sem::ImpliedF),
    (bit::LP, "PSR.lp", L, &[R::BrRet], Sem::Data),
    (bit::MFH, "PSR.mfh", F_U_S, &[R::FromPsr], Sem::ImpliedF),
    (bit::MFL, "PSR.mfl", F_U_S, &[R::FromPsr], Sem::ImpliedF),
    (bit::PK, "PSR.pk", S, &[R::PkReaders], Sem::Data),
    (bit::PK, "PSR.pk", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::PP, "PSR.pp", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::RT, "PSR.rt", L, &[R::FromPsr], Sem::ImpliedF),
    (bit::RT, "PSR.rt", L, &[R::Rse], Sem::Data),
    (bit::SI, "PSR.si", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::SI, "PSR.si", S, &[R::Counter], Sem::Data),
    (bit::SP, "PSR.sp", S, &[R::FromPsr], Sem::ImpliedF),
    (bit::SP, "PSR.sp", S, &[R::SpReaders], Sem::Data),
    (bit::TB, "PSR.tb", L, &[R::TbReaders], Sem::Data),
    (bit::TB, "PSR.tb", L, &[R::FromPsr], Sem::ImpliedF),
    (bit::UP, "PSR.up", U_S, &[R::FromPsr], Sem::ImpliedF),
];

/// One WAW row: field, name, recording writers, checking writers, semantics.
type WawRow = (u8, &'static str, Writers, Writers, Sem);

const WAW: &[WawRow] = &[
    (bit::AC, "PSR.ac", U_S, U_S, Sem::ImpliedF),
    (bit::BE, "PSR.be", U_S, U_S, Sem::ImpliedF),
    (bit::CPL, "PSR.cpl", E, E, Sem::ImpliedF),
    (bit::DB, "PSR.db", L, L, Sem::ImpliedF),
    (bit::DFH, "PSR.dfh", S, S, Sem::ImpliedF),
    (bit::DFL, "PSR.dfl", S, S, Sem::ImpliedF),
    (bit::DI, "PSR.di", S, S, Sem::ImpliedF),
    (bit::DT, "PSR.dt", S, S, Sem::ImpliedF),
    (bit::I, "PSR.i", S, S, Sem::ImpliedF),
    (bit::IC, "PSR.ic", S, S, Sem::ImpliedF),
    (bit::LP, "PSR.lp", L, L, Sem::ImpliedF),
    (bit::MFH, "PSR.mfh", F, F, Sem::None),
    (bit::MFH, "PSR.mfh", F_U_S, U_S, Sem::ImpliedF),
    (bit::MFL, "PSR.mfl", F, F, Sem::None),
    (bit::MFL, "PSR.mfl", F_U_S, U_S, Sem::ImpliedF),
    (bit::PK, "PSR.pk", S, S, Sem::ImpliedF),
    (bit::PP, "PSR.pp", S, S, Sem::ImpliedF),
    (bit::RT, "PSR.rt", L, L, Sem::ImpliedF),
    (bit::SI, "PSR.si", S, S, Sem::ImpliedF),
    (bit::SP, "PSR.sp", S, S, Sem::ImpliedF),
    (bit::TB, "PSR.tb", L, L, Sem::ImpliedF),
    (bit::UP, "PSR.up", U_S, U_S, Sem::ImpliedF),
];

/// First order number of the PSR rows (after the other register files, before `PSR.vm`).
const PSR_ORDER: u16 = 400;
/// Order numbers of the CFM rows (after BR, before FR) and of RSE (last).
const CFM_ORDER: u16 = 210;
const RSE_ORDER: u16 = 700;

/// Adds the CFM, RSE and PSR uses of `insn` to `u`. `rot_grs`: the rotating size of the last
/// `alloc` (gas's `md.rot.num_regs`).
pub(super) fn add(insn: &DvInsn, class: Class, rot_grs: u8, u: &mut Uses) {
    cfm(insn, class, rot_grs, u);
    rse(insn, u);
    psr(insn, u);
    tlb(insn, u);
}

/// The instruction classes of the translation-cache and -register rows, as bits.
mod tc {
    pub const PTC_E: u32 = 1;
    pub const PTC_G: u32 = 1 << 1;
    pub const PTC_GA: u32 = 1 << 2;
    pub const PTC_L: u32 = 1 << 3;
    pub const PTR_I: u32 = 1 << 4;
    pub const PTR_D: u32 = 1 << 5;
    pub const ITC_I: u32 = 1 << 6;
    pub const ITC_D: u32 = 1 << 7;
    pub const ITR_I: u32 = 1 << 8;
    pub const ITR_D: u32 = 1 << 9;
    /// mem-readers, mem-writers.
    pub const MEM: u32 = 1 << 10;
    /// fc, lfetch, probe, tpa, tak.
    pub const NON_ACCESS: u32 = 1 << 11;
    pub const EPC: u32 = 1 << 12;
    pub const VMSW: u32 = 1 << 13;
    pub const TO_RR: u32 = 1 << 14;
    pub const FROM_RR: u32 = 1 << 15;
    pub const TO_PKR: u32 = 1 << 16;
    pub const FROM_PKR: u32 = 1 << 17;
    pub const TO_DBR: u32 = 1 << 18;
    pub const FROM_DBR: u32 = 1 << 19;
    pub const TO_IBR: u32 = 1 << 20;
    pub const FROM_IBR: u32 = 1 << 21;
    pub const TO_PMC: u32 = 1 << 22;
    pub const FROM_PMC: u32 = 1 << 23;
    pub const TO_PMD: u32 = 1 << 24;
    pub const FROM_PMD: u32 = 1 << 25;
    /// thash, ttag.
    pub const HASH: u32 = 1 << 26;
    /// Every probe (probe-all).
    pub const PROBE: u32 = 1 << 27;
    /// lfetch (lfetch-all).
    pub const LFETCH: u32 = 1 << 28;
    pub const PTC: u32 = PTC_E | PTC_G | PTC_GA | PTC_L;
    pub const PTR: u32 = PTR_I | PTR_D;
    pub const PURGE: u32 = PTC | PTR;
    pub const INSERT: u32 = ITC_I | ITC_D | ITR_I | ITR_D;
    pub const GLOBAL: u32 = PTC_G | PTC_GA;
    pub const LOCAL_PURGE_D: u32 = PTC_G | PTC_GA | PTC_L | PTR_D;
    pub const LOCAL_PURGE_I: u32 = PTC_G | PTC_GA | PTC_L | PTR_I;
}

/// One row: mode, name, recording set, checking set, semantics.
type TcRow = (Mode, &'static str, u32, u32, Sem);

/// `ia64-raw.tbl` and `ia64-waw.tbl` for DTC, DTR, ITC, ITR and the purge limits, in order.
const TC_ROWS: &[TcRow] = {
    use tc::*;
    &[
        (Mode::Raw, "DTC", PURGE | INSERT, MEM | NON_ACCESS, Sem::Data),
        (Mode::Raw, "DTC", INSERT, PURGE | INSERT, Sem::ImpliedF),
        (Mode::Raw, "DTC", PURGE, PURGE, Sem::None),
        (Mode::Raw, "DTC", PURGE, INSERT, Sem::ImpliedF),
        (Mode::Raw, "DTC_LIMIT*", GLOBAL, GLOBAL, Sem::ImpliedF),
        (Mode::Raw, "DTR", ITR_D, MEM | NON_ACCESS, Sem::Data),
        (Mode::Raw, "DTR", ITR_D, LOCAL_PURGE_D | ITR_D, Sem::ImpliedF),
        (Mode::Raw, "DTR", PTR_D, MEM | NON_ACCESS, Sem::Data),
        (Mode::Raw, "DTR", PTR_D, LOCAL_PURGE_D, Sem::None),
        (Mode::Raw, "DTR", PTR_D, ITR_D | ITC_D, Sem::ImpliedF),
        (Mode::Raw, "ITC", PURGE, EPC | VMSW, Sem::Instr),
        (Mode::Raw, "ITC", PURGE, INSERT, Sem::ImpliedF),
        (Mode::Raw, "ITC", PURGE, PURGE, Sem::None),
        (Mode::Raw, "ITC", INSERT, EPC | VMSW, Sem::Instr),
        (Mode::Raw, "ITC", INSERT, INSERT | PTR | GLOBAL | PTC_L, Sem::ImpliedF),
        (Mode::Raw, "ITC_LIMIT*", GLOBAL, GLOBAL, Sem::ImpliedF),
        (Mode::Raw, "ITR", ITR_I, ITR_I | ITC_I | LOCAL_PURGE_I, Sem::ImpliedF),
        (Mode::Raw, "ITR", ITR_I, EPC | VMSW, Sem::Instr),
        (Mode::Raw, "ITR", PTR_I, ITC_I | ITR_I, Sem::ImpliedF),
        (Mode::Raw, "ITR", PTR_I, LOCAL_PURGE_I, Sem::None),
        (Mode::Raw, "ITR", PTR_I, EPC | VMSW, Sem::Instr),
        (Mode::Raw, "DBR#", TO_DBR, FROM_DBR, Sem::ImpliedF),
        (Mode::Raw, "DBR#", TO_DBR, PROBE | LFETCH | MEM, Sem::Data),
        (Mode::Raw, "IBR#", TO_IBR, FROM_IBR, Sem::ImpliedF),
        (Mode::Raw, "PKR#", TO_PKR, MEM | FROM_PKR | PROBE, Sem::Data),
        (Mode::Raw, "PKR#", TO_PKR, FROM_PKR, Sem::ImpliedF),
        (Mode::Raw, "PKR#", TO_PKR, TO_PKR, Sem::ImpliedF),
        (Mode::Raw, "PMC#", TO_PMC, FROM_PMC, Sem::ImpliedF),
        (Mode::Raw, "PMC#", TO_PMC, FROM_PMD, Sem::Other),
        (Mode::Raw, "PMD#", TO_PMD, FROM_PMD, Sem::ImpliedF),
        (Mode::Raw, "RR#", TO_RR, MEM | INSERT | NON_ACCESS | GLOBAL | PTC_L | PTR | HASH, Sem::Data),
        (Mode::Raw, "RR#", TO_RR, FROM_RR, Sem::ImpliedF),
        (Mode::Waw, "DBR#", TO_DBR, TO_DBR, Sem::ImpliedF),
        (Mode::Waw, "IBR#", TO_IBR, TO_IBR, Sem::ImpliedF),
        (Mode::Waw, "PKR#", TO_PKR, TO_PKR, Sem::ImpliedF),
        (Mode::Waw, "PMC#", TO_PMC, TO_PMC, Sem::ImpliedF),
        (Mode::Waw, "PMD#", TO_PMD, TO_PMD, Sem::ImpliedF),
        (Mode::Waw, "RR#", TO_RR, TO_RR, Sem::ImpliedF),
        (Mode::Waw, "DTC", PURGE, PURGE, Sem::None),
        (Mode::Waw, "DTC", PURGE | INSERT, INSERT, Sem::ImpliedF),
        (Mode::Waw, "DTC_LIMIT*", GLOBAL, GLOBAL, Sem::ImpliedF),
        (Mode::Waw, "DTR", ITR_D, ITR_D, Sem::ImpliedF),
        (Mode::Waw, "DTR", ITR_D, PTR_D, Sem::ImpliedF),
        (Mode::Waw, "DTR", PTR_D, PTR_D, Sem::None),
        (Mode::Waw, "ITC", PURGE, PURGE, Sem::None),
        (Mode::Waw, "ITC", PURGE | INSERT, INSERT, Sem::ImpliedF),
        (Mode::Waw, "ITC_LIMIT*", GLOBAL, GLOBAL, Sem::ImpliedF),
        (Mode::Waw, "ITR", ITR_I, ITR_I | PTR_I, Sem::ImpliedF),
        (Mode::Waw, "ITR", PTR_I, PTR_I, Sem::None),
    ]
};

/// Order numbers of the translation rows (after the control registers).
const TC_ORDER: u16 = 540;

/// The [`tc`] classes of `insn`.
fn tc_class(insn: &DvInsn) -> u32 {
    let name = insn.name;
    let mut m = match insn.sem {
        Some(Op::Tlb(TlbOp::PtcE)) => tc::PTC_E,
        Some(Op::Tlb(TlbOp::Ptc)) if name.starts_with("ptc.ga") => tc::PTC_GA,
        Some(Op::Tlb(TlbOp::Ptc)) if name.starts_with("ptc.g") => tc::PTC_G,
        Some(Op::Tlb(TlbOp::Ptc)) => tc::PTC_L,
        Some(Op::Tlb(TlbOp::Ptr { data })) => {
            if data {
                tc::PTR_D
            } else {
                tc::PTR_I
            }
        }
        Some(Op::Tlb(TlbOp::Itc { data })) => {
            if data {
                tc::ITC_D
            } else {
                tc::ITC_I
            }
        }
        Some(Op::Tlb(TlbOp::Itr { data })) => {
            if data {
                tc::ITR_D
            } else {
                tc::ITR_I
            }
        }
        Some(Op::Epc) => tc::EPC,
        Some(Op::Vmsw { .. }) => tc::VMSW,
        Some(Op::Lfetch { .. }) => tc::NON_ACCESS | tc::LFETCH,
        Some(Op::Probe { .. } | Op::ProbeFault { .. }) => tc::NON_ACCESS | tc::PROBE,
        Some(Op::Tpa | Op::Tak) => tc::NON_ACCESS,
        Some(Op::Thash | Op::Ttag) => tc::HASH,
        Some(Op::MovToInd(f)) => match f {
            File::Rr => tc::TO_RR,
            File::Pkr => tc::TO_PKR,
            File::Dbr => tc::TO_DBR,
            File::Ibr => tc::TO_IBR,
            File::Pmc => tc::TO_PMC,
            File::Pmd => tc::TO_PMD,
            _ => 0,
        },
        Some(Op::MovFromInd(f)) => match f {
            File::Rr => tc::FROM_RR,
            File::Pkr => tc::FROM_PKR,
            File::Dbr => tc::FROM_DBR,
            File::Ibr => tc::FROM_IBR,
            File::Pmc => tc::FROM_PMC,
            File::Pmd => tc::FROM_PMD,
            _ => 0,
        },
        _ if name == "fc" || name.starts_with("fc.") => tc::NON_ACCESS,
        _ => 0,
    };
    if mem_access(insn) {
        m |= tc::MEM;
    }
    m
}

fn tlb(insn: &DvInsn, u: &mut Uses) {
    let m = tc_class(insn);
    if m == 0 {
        return;
    }
    // The other readers of `dv.rs`'s CR[PTA] and CR[GPTA] rows (same rows, same order).
    if m & (tc::MEM | tc::NON_ACCESS | tc::HASH) != 0 {
        u.chk(dep(Mode::Raw, 527, "CR[PTA]", Sem::Data), Spec::whole());
    }
    if m & tc::HASH != 0 && matches!(insn.sem, Some(Op::Thash)) {
        u.chk(dep(Mode::Raw, 503, "CR[GPTA]", Sem::Data), Spec::whole());
    }
    for (i, &(mode, name, first, second, sem)) in TC_ROWS.iter().enumerate() {
        let d = dep(mode, TC_ORDER + i as u16, name, sem);
        if m & first != 0 {
            u.reg(d, Spec::whole());
        }
        if m & second != 0 {
            u.chk(d, Spec::whole());
        }
        // A WAW row is checked in both directions.
        if mode == Mode::Waw && first != second {
            let back = dep(mode, TC_ORDER + 100 + i as u16, name, sem);
            if m & second != 0 {
                u.reg(back, Spec::whole());
            }
            if m & first != 0 {
                u.chk(back, Spec::whole());
            }
        }
    }
}

fn branch_kind(insn: &DvInsn) -> Option<BrKind> {
    match insn.sem {
        Some(Op::Branch { kind, .. }) => Some(kind),
        _ => None,
    }
}

fn mod_sched(insn: &DvInsn) -> bool {
    matches!(branch_kind(insn), Some(BrKind::Cexit | BrKind::Ctop | BrKind::Wexit | BrKind::Wtop))
}

fn cfm(insn: &DvInsn, class: Class, rot_grs: u8, u: &mut Uses) {
    let sched = mod_sched(insn);
    let call_ret = matches!(class, Class::BrCall | Class::BrRet);
    let alloc = matches!(insn.sem, Some(Op::Alloc));
    let cover = matches!(insn.sem, Some(Op::Cover));
    let clrrrb = matches!(insn.sem, Some(Op::Clrrrb { .. }));
    let rfi = class == Class::Rfi || insn.kind == DvKind::Rfi;
    let loadrs = matches!(insn.sem, Some(Op::Loadrs));
    // cfm-readers: every instruction but these unpredicatable ones.
    let reader = !matches!(
        insn.sem,
        Some(
            Op::Branch { kind: BrKind::Cloop | BrKind::Ia, .. }
                | Op::Brp
                | Op::Bsw { .. }
                | Op::Clrrrb { .. }
                | Op::Epc
                | Op::Flushrs
        )
    );
    let whole = Spec::whole();
    let sched_sched = dep(Mode::Raw, CFM_ORDER, CFM, Sem::ImpliedF);
    let sched_frame = dep(Mode::Raw, CFM_ORDER + 1, CFM, Sem::ImpliedF);
    let sched_rot = dep(Mode::Raw, CFM_ORDER + 2, CFM, Sem::ImpliedF);
    let frame_all = dep(Mode::Raw, CFM_ORDER + 3, CFM, Sem::ImpliedF);
    let alloc_all = dep(Mode::Raw, CFM_ORDER + 4, CFM, Sem::None);
    let waw = dep(Mode::Waw, CFM_ORDER, CFM, Sem::ImpliedF);
    if sched {
        u.reg(sched_sched, whole);
        u.reg(sched_frame, whole);
        u.reg(sched_rot, whole);
        u.chk(sched_sched, whole);
    }
    if call_ret || clrrrb || cover || rfi {
        u.reg(frame_all, whole);
    }
    if alloc {
        u.reg(alloc_all, whole);
    }
    if cover || alloc || rfi || loadrs || call_ret {
        u.chk(sched_frame, whole);
    }
    if reader {
        // A memory operand's base register and an indirect file's index register (the first
        // register read) are not among the operands gas looks at here.
        let memory =
            mem_access(insn) || matches!(insn.sem, Some(Op::Lfetch { .. } | Op::MovToInd(_) | Op::MovFromInd(_)));
        let base_at = insn.reads.iter().position(|r| matches!(r, Resource::Gr(_))).filter(|_| memory);
        let base = base_at.and_then(|i| insn.reads.get(i));
        let reads = insn.reads.iter().enumerate().filter(|(i, _)| Some(*i) != base_at).map(|(_, r)| r);
        // A post-increment writes the base back, after any target; that write is not looked at
        // either (a target that is also the base is).
        let no_target = matches!(insn.sem, Some(Op::Store { .. } | Op::StoreFp { .. } | Op::Lfetch { .. }));
        let post_inc = base.is_some() && insn.writes.last() == base && (no_target || insn.writes.len() >= 2);
        let n_writes = insn.writes.len();
        let writes =
            insn.writes.iter().enumerate().filter(move |(i, _)| !(post_inc && *i + 1 == n_writes)).map(|(_, r)| r);
        let rotating = reads.chain(writes).filter(|r| match r {
            Resource::Gr(n) => rot_grs > 0 && *n > 31 && u16::from(*n) < 31 + u16::from(rot_grs),
            Resource::Fr(n) => *n > 31,
            _ => false,
        });
        for _ in rotating {
            u.chk(sched_rot, Spec::any());
        }
        if let DvKind::Compare { p1, p2, .. } = insn.kind {
            for p in [p1, p2] {
                if p > 15 {
                    u.chk(sched_rot, Spec::any());
                }
            }
        }
        if insn.qp > 15 {
            u.chk(sched_rot, Spec::any());
        }
        u.chk(frame_all, whole);
        u.chk(alloc_all, whole);
    }
    if sched || call_ret || alloc || clrrrb || cover || rfi {
        u.reg(waw, whole);
        u.chk(waw, whole);
    }
}

fn rse(insn: &DvInsn, u: &mut Uses) {
    let raw = dep(Mode::Raw, RSE_ORDER, RSE, Sem::ImpliedF);
    let waw = dep(Mode::Waw, RSE_ORDER, RSE, Sem::ImpliedF);
    let s = Spec::whole();
    let ar_out = |n: u8| matches!(insn.sem, Some(Op::MovToAr)) && insn.writes.contains(&Resource::Ar(n));
    let ar_in = |n: u8| matches!(insn.sem, Some(Op::MovFromAr)) && insn.reads.contains(&Resource::Ar(n));
    let always = matches!(
        insn.sem,
        Some(
            Op::Alloc
                | Op::Cover
                | Op::Flushrs
                | Op::Loadrs
                | Op::Rfi
                | Op::Branch { kind: BrKind::Call | BrKind::Ia | BrKind::Ret, .. }
        )
    ) || insn.kind == DvKind::Rfi;
    let writer = always || ar_out(ar::BSPSTORE);
    let reader =
        always || ar_out(ar::BSPSTORE) || ar_out(ar::RNAT) || ar_in(ar::BSP) || ar_in(ar::BSPSTORE) || ar_in(ar::RNAT);
    if writer {
        u.reg(raw, s);
        u.reg(waw, s);
        u.chk(waw, s);
    }
    if reader {
        u.chk(raw, s);
    }
}

/// The PSR fields `insn` writes, with how.
fn psr_writes(insn: &DvInsn) -> Vec<(u8, W)> {
    let mask_bits = || insn.writes.iter().filter_map(|r| if let Resource::Psr(b) = r { Some(*b) } else { None });
    let low = |b: u8| b < 32 || b == 35 || b == 36;
    match insn.sem {
        Some(Op::Rsm | Op::Ssm) => mask_bits().map(|b| (b, W::SysPartial)).collect(),
        Some(Op::Rum | Op::Sum) => mask_bits().map(|b| (b, W::User)).collect(),
        Some(Op::MovToPsrL) => (0..64).filter(|b| low(*b)).map(|b| (b, W::PsrL)).collect(),
        Some(Op::MovToPsrUm) => (0..6).map(|b| (b, W::User)).collect(),
        Some(Op::Epc) => vec![(bit::CPL, W::Epc)],
        _ if fp_insn(insn) => {
            let mut out = Vec::new();
            for r in insn.writes {
                if let Resource::Fr(n) = r {
                    if (2..32).contains(n) && !out.contains(&(bit::MFL, W::Fr)) {
                        out.push((bit::MFL, W::Fr));
                    } else if *n >= 32 && !out.contains(&(bit::MFH, W::Fr)) {
                        out.push((bit::MFH, W::Fr));
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// gas's fr-readers and fr-writers: every instruction with an FR operand but fpcmp, fcmp.unord
/// and fcmp.ord (checked against ia64-linux-gnu-as: setf writes PSR.mfl, fpcmp does not).
fn fp_insn(insn: &DvInsn) -> bool {
    let has_fr = insn.reads.iter().chain(insn.writes.iter()).any(|r| matches!(r, Resource::Fr(_)));
    // gas 2.40's lists leave out fpcmp, fcmp.unord and fcmp.ord (setf and the FP stores are in).
    let left_out = ["fpcmp", "fcmp.unord", "fcmp.ord"].iter().any(|p| insn.name.starts_with(p));
    has_fr && !left_out
}

fn mem_access(insn: &DvInsn) -> bool {
    matches!(
        insn.sem,
        Some(
            Op::Load { .. }
                | Op::Store { .. }
                | Op::LoadFp { .. }
                | Op::StoreFp { .. }
                | Op::LoadFpPair { .. }
                | Op::LoadAlat { .. }
                | Op::LoadFpAlat { .. }
                | Op::Xchg { .. }
                | Op::Cmpxchg { .. }
                | Op::Fetchadd { .. }
        )
    )
}

/// Whether `insn` is a reader of class `r` for PSR field `field`.
fn reads(insn: &DvInsn, r: R, field: u8) -> bool {
    let cr_operand = insn.reads.iter().chain(insn.writes.iter()).find_map(|x| match x {
        Resource::Cr(n) => Some(*n),
        _ => None,
    });
    let probe = matches!(insn.sem, Some(Op::Probe { .. } | Op::ProbeFault { .. }));
    let lfetch = matches!(insn.sem, Some(Op::Lfetch { .. }));
    match r {
        R::Mem => mem_access(insn),
        R::NonAccess => tc_class(insn) & tc::NON_ACCESS != 0,
        R::FromPsr => match insn.sem {
            Some(Op::MovFromPsr) => field < 32 || field == 35 || field == 36,
            Some(Op::MovFromPsrUm) => field < 6,
            _ => false,
        },
        R::Fp => {
            let (lo, hi) = if field == bit::DFL { (2, 31) } else { (32, 127) };
            fp_insn(insn)
                && insn
                    .reads
                    .iter()
                    .chain(insn.writes.iter())
                    .any(|x| matches!(x, Resource::Fr(n) if (lo..=hi).contains(n)))
        }
        R::BrIa => matches!(insn.sem, Some(Op::Branch { kind: BrKind::Ia, .. })),
        R::InterruptionCr => {
            matches!(insn.sem, Some(Op::MovToCr | Op::MovFromCr))
                && cr_operand.is_some_and(|n| {
                    matches!(
                        n,
                        cr::IPSR | cr::ISR | cr::IIP | cr::IFA | cr::ITIR | cr::IIPA | cr::IFS | cr::IIM | cr::IHA
                    ) || n == 26
                        || n == 27
                })
        }
        R::BrRet => matches!(insn.sem, Some(Op::Branch { kind: BrKind::Ret, .. })),
        R::DbReaders => lfetch || mem_access(insn) || matches!(insn.sem, Some(Op::ProbeFault { .. })),
        R::PkReaders => lfetch || mem_access(insn) || probe,
        R::Rse => matches!(insn.sem, Some(Op::Alloc | Op::Flushrs | Op::Loadrs)),
        // gas's class is every M-unit move from an AR: its table generator cannot evaluate
        // the `Field(ar3) == ITC` condition, and specify_resource does not filter PSR.si.
        R::Counter => matches!(insn.sem, Some(Op::MovFromAr)) && insn.name == "mov.m",
        R::SpReaders => matches!(
            insn.sem,
            Some(Op::MovFromInd(crate::state::indirect::File::Pmd) | Op::MovToPsrUm | Op::Rum | Op::Sum)
        ),
        R::TbReaders => {
            matches!(insn.sem, Some(Op::Branch { .. } | Op::ChkS { .. } | Op::ChkA { .. }))
                || insn.name.starts_with("fchkf")
        }
        R::Cpl => cpl_reader(insn),
    }
}

/// PSR.cpl readers: privileged operations, calls, epc, some application-register moves,
/// performance-data reads, probes, memory accesses and lfetch.
fn cpl_reader(insn: &DvInsn) -> bool {
    let ar_of = |v: &[Resource]| {
        v.iter().find_map(|x| match x {
            Resource::Ar(n) => Some(*n),
            _ => None,
        })
    };
    match insn.sem {
        Some(Op::MovToAr) => ar_of(insn.writes).is_some_and(|n| n == ar::ITC || n == 45 || n == ar::RSC || n < 8),
        Some(Op::MovFromAr) => ar_of(insn.reads).is_some_and(|n| n == ar::ITC || n == 45),
        Some(
            Op::MovToInd(_)
            | Op::MovFromInd(_)
            | Op::Bsw { .. }
            | Op::Tlb(TlbOp::Itc { .. } | TlbOp::Itr { .. } | TlbOp::Ptc | TlbOp::PtcE | TlbOp::Ptr { .. })
            | Op::MovToCr
            | Op::MovFromCr
            | Op::MovToPsrL
            | Op::MovFromPsr
            | Op::Rfi
            | Op::Rsm
            | Op::Ssm
            | Op::Tak
            | Op::Tpa
            | Op::Epc
            | Op::Probe { .. }
            | Op::ProbeFault { .. }
            | Op::Lfetch { .. },
        ) => true,
        Some(Op::Branch { kind: BrKind::Call, .. }) => true,
        _ => mem_access(insn),
    }
}

fn psr(insn: &DvInsn, u: &mut Uses) {
    let writes = psr_writes(insn);
    let writes_as = |field: u8, set: Writers| writes.iter().any(|&(b, w)| b == field && set.has(w));
    for (i, &(field, name, writers, readers, sem)) in RAW.iter().enumerate() {
        let d = dep(Mode::Raw, PSR_ORDER + i as u16, name, sem);
        if writes_as(field, writers) {
            u.reg(d, Spec::whole());
        }
        if readers.iter().any(|&r| reads(insn, r, field)) {
            u.chk(d, Spec::whole());
        }
    }
    for (i, &(field, name, first, second, sem)) in WAW.iter().enumerate() {
        let d = dep(Mode::Waw, PSR_ORDER + i as u16, name, sem);
        // gas checks a WAW row in both directions: either writer may come first.
        let back = dep(Mode::Waw, PSR_ORDER + 100 + i as u16, name, sem);
        let (a, b) = (writes_as(field, first), writes_as(field, second));
        if a {
            u.reg(d, Spec::whole());
        }
        if b {
            u.chk(d, Spec::whole());
        }
        if !same_writers(first, second) {
            if b {
                u.reg(back, Spec::whole());
            }
            if a {
                u.chk(back, Spec::whole());
            }
        }
    }
}
