//! I-unit rows: shifts, extract/deposit, tests, moves to and from branch, predicate and
//! application registers, extensions, nop/break/chk (SDM vol. 3 section 4.3; reference section 6).

use super::field::{f, Field};
use super::{Comp, Constraint, Flags, Form, OpKind::*, Sem, TimingClass as T, Unit};
use crate::exec::op::CmpType as Ct;

/// tbit/tnat relation by (tb, ta, c) (reference section 6).
const TEST_NAMES: [(u64, u64, u64, &str, &str, bool, Ct); 8] = [
    (0, 0, 0, "tbit.z", "tnat.z", false, Ct::Normal),
    (0, 0, 1, "tbit.z.unc", "tnat.z.unc", false, Ct::Unc),
    (1, 0, 0, "tbit.z.and", "tnat.z.and", false, Ct::And),
    (1, 0, 1, "tbit.nz.and", "tnat.nz.and", true, Ct::And),
    (0, 1, 0, "tbit.z.or", "tnat.z.or", false, Ct::Or),
    (0, 1, 1, "tbit.nz.or", "tnat.nz.or", true, Ct::Or),
    (1, 1, 0, "tbit.z.or.andcm", "tnat.z.or.andcm", false, Ct::OrAndcm),
    (1, 1, 1, "tbit.nz.or.andcm", "tnat.nz.or.andcm", true, Ct::OrAndcm),
];

/// mov-to-br completers: return hint, whether hint, importance hint (I21).
const MOV_BR_RET: Comp = Comp { field: f::MRET, opts: &[("", 0), (".ret", 1)], implied: None };
const MOV_BR_WH: Comp = Comp { field: f::MWH, opts: &[(".sptk", 0), ("", 1), (".dptk", 2)], implied: None };
const MOV_BR_IH: Comp = Comp { field: f::MIH, opts: &[("", 0), (".imp", 1)], implied: None };

fn misc(name: &'static str, x6: u64) -> Form {
    Form::new(name, &[], Unit::I, "I", &[(f::OP, 0), (f::X3, 0), (f::X6, x6)])
}

fn shift_var(name: &'static str, x2c: u64, x2b: u64) -> Form {
    Form::new(
        name,
        &[],
        Unit::I,
        if x2c == 1 { "I7" } else { "I5" },
        &[(f::OP, 7), (f::BIT36, 1), (f::X2A, 0), (f::ZB, 1), (f::VE32, 0), (f::X2C, x2c), (f::X2B_SH, x2b)],
    )
    .timing(T::Shift)
}

/// Appends the I-unit rows.
pub(super) fn list(out: &mut Vec<Form>) {
    let extr = |signed: u64| {
        Form::new(
            if signed == 1 { "extr" } else { "extr.u" },
            &[],
            Unit::I,
            "I11",
            &[(f::OP, 5), (f::X2I, 1), (f::X33, 0), (f::Y13, signed)],
        )
        .sem(Sem::Extr { signed: signed == 1 })
    };
    let depz =
        || Form::new("dep.z", &[], Unit::I, "I12", &[(f::OP, 5), (f::X2I, 1), (f::X33, 1), (f::Y26, 0)]).sem(Sem::DepZ);
    out.extend([
        // Immediate shifts are extr/dep.z with len = 64 - pos (gas and objdump aliases).
        extr(0)
            .with_name("shr.u")
            .ops(&[R1], &[R3, Pos6])
            .constraint(Constraint::LenIs64MinusPos)
            .flags(Flags::PSEUDO)
            .timing(T::Shift),
        extr(1)
            .with_name("shr")
            .ops(&[R1], &[R3, Pos6])
            .constraint(Constraint::LenIs64MinusPos)
            .flags(Flags::PSEUDO)
            .timing(T::Shift),
        depz()
            .with_name("shl")
            .ops(&[R1], &[R2, CPos6c])
            .constraint(Constraint::LenIs64MinusPos)
            .flags(Flags::PSEUDO)
            .timing(T::Shift),
        shift_var("shr", 0, 2).ops(&[R1], &[R3, R2]).sem(Sem::ShrVar { signed: true }),
        shift_var("shr.u", 0, 0).ops(&[R1], &[R3, R2]).sem(Sem::ShrVar { signed: false }),
        shift_var("shl", 1, 0).ops(&[R1], &[R2, R3]).sem(Sem::ShlVar),
        Form::new("shrp", &[], Unit::I, "I10", &[(f::OP, 5), (f::X2I, 3), (f::X33, 0)])
            .ops(&[R1], &[R2, R3, Count6])
            .timing(T::Shift)
            .sem(Sem::Shrp),
        extr(1).ops(&[R1], &[R3, Pos6, Len6]).timing(T::Shift),
        extr(0).ops(&[R1], &[R3, Pos6, Len6]).timing(T::Shift),
        depz().ops(&[R1], &[R2, CPos6c, Len6]).timing(T::Shift),
        Form::new("dep.z", &[], Unit::I, "I13", &[(f::OP, 5), (f::X2I, 1), (f::X33, 1), (f::Y26, 1)])
            .ops(&[R1], &[Imm8, CPos6c, Len6])
            .timing(T::Shift)
            .sem(Sem::DepZImm),
        // Bit 13 of I14 is unused: objdump 2.40 decodes dep whatever it holds (issue 12).
        Form::new("dep", &[], Unit::I, "I14", &[(f::OP, 5), (f::X2I, 3), (f::X33, 1)])
            .ops(&[R1], &[Imm1, R3, CPos6b, Len6])
            .timing(T::Shift)
            .sem(Sem::DepImm1),
        Form::new("dep", &[], Unit::I, "I15", &[(f::OP, 4)])
            .ops(&[R1], &[R2, R3, CPos6d, Len4])
            .timing(T::Shift)
            .sem(Sem::Dep),
    ]);
    for (tb, ta, c, name, _, nz, ctype) in TEST_NAMES {
        let fixed = [(f::OP, 5), (f::X2I, 0), (f::BIT36, tb), (f::TA, ta), (f::C, c), (f::Y13, 0)];
        out.push(
            Form::new(name, &[], Unit::I, "I16", &fixed)
                .ops(&[P1, P2], &[R3, Pos6])
                .timing(T::Tbit)
                .sem(Sem::Tbit { nz, ctype }),
        );
    }
    // I17 leaves bits 14-18 unused (objdump 2.40 ignores them); bit 19 set is I30 tf.
    for (tb, ta, c, _, name, nz, ctype) in TEST_NAMES {
        let fixed =
            [(f::OP, 5), (f::X2I, 0), (f::BIT36, tb), (f::TA, ta), (f::C, c), (f::Y13, 1), (Field::new(19, 1), 0)];
        out.push(
            Form::new(name, &[], Unit::I, "I17", &fixed)
                .ops(&[P1, P2], &[R3])
                .timing(T::Tbit)
                .sem(Sem::Tnat { nz, ctype }),
        );
    }
    out.extend([
        misc("nop.i", 1).pin(f::Y26, 0).ops(&[], &[Imm21]).timing(T::Nop).sem(Sem::Nop),
        misc("hint.i", 1).pin(f::Y26, 1).ops(&[], &[Imm21]).timing(T::Nop).sem(Sem::Nop),
        misc("break.i", 0).ops(&[], &[Imm21]).timing(T::Break).sem(Sem::Break),
        Form::new("chk.s.i", &[], Unit::I, "I20", &[(f::OP, 0), (f::X3, 1)])
            .ops(&[], &[R2, Tgt25Chk])
            .timing(T::Chk)
            .sem(Sem::ChkS { fp: false }),
        // objdump shows the plain hint form without its tag.
        Form::new("mov", &[], Unit::I, "I21", &[(f::OP, 0), (f::X3, 7), (f::MRET, 0), (f::MWH, 1), (f::MIH, 0)])
            .ops(&[B1], &[R2])
            .flags(Flags::PSEUDO)
            .timing(T::MovToBr)
            .sem(Sem::MovToBr),
        Form::new("mov{}{}{}", &[MOV_BR_RET, MOV_BR_WH, MOV_BR_IH], Unit::I, "I21", &[(f::OP, 0), (f::X3, 7)])
            .ops(&[B1], &[R2, Tag13])
            .timing(T::MovToBr)
            .sem(Sem::MovToBr),
        misc("mov", 0x31).ops(&[R1], &[B2]).timing(T::MovFromBr).sem(Sem::MovFromBr),
        Form::new("mov", &[], Unit::I, "I23", &[(f::OP, 0), (f::X3, 3)])
            .ops(&[PrAll], &[R2, Mask17])
            .timing(T::MovToPr)
            .sem(Sem::MovToPr),
        Form::new("mov", &[], Unit::I, "I23", &[(f::OP, 0), (f::X3, 3)])
            .pin(Field::new(6, 7), 0x7f)
            .pin(Field::new(24, 8), 0xff)
            .pin(f::BIT36, 1)
            .ops(&[PrAll], &[R2])
            .flags(Flags::ASM_ONLY)
            .timing(T::MovToPr)
            .sem(Sem::MovToPr),
        Form::new("mov", &[], Unit::I, "I24", &[(f::OP, 0), (f::X3, 2)])
            .ops(&[PrRot], &[Imm44])
            .timing(T::MovToPr)
            .sem(Sem::MovToPrRot),
        misc("mov", 0x30).ops(&[R1], &[Ip]).timing(T::MovFromIp).sem(Sem::MovFromIp),
        misc("mov", 0x33).ops(&[R1], &[PrAll]).timing(T::MovFromPr).sem(Sem::MovFromPr),
        misc("mov.i", 0x2A).ops(&[Ar3], &[R2]).timing(T::MovToArI).sem(Sem::MovToAr),
        misc("mov.i", 0x0A).ops(&[Ar3], &[Imm8]).timing(T::MovToArI).sem(Sem::MovToArImm),
        misc("mov.i", 0x32).ops(&[R1], &[Ar3]).timing(T::MovFromArI).sem(Sem::MovFromAr),
        misc("zxt1", 0x10).ops(&[R1], &[R3]).timing(T::Extend).sem(Sem::Zxt(1)),
        misc("zxt2", 0x11).ops(&[R1], &[R3]).timing(T::Extend).sem(Sem::Zxt(2)),
        misc("zxt4", 0x12).ops(&[R1], &[R3]).timing(T::Extend).sem(Sem::Zxt(4)),
        misc("sxt1", 0x14).ops(&[R1], &[R3]).timing(T::Extend).sem(Sem::Sxt(1)),
        misc("sxt2", 0x15).ops(&[R1], &[R3]).timing(T::Extend).sem(Sem::Sxt(2)),
        misc("sxt4", 0x16).ops(&[R1], &[R3]).timing(T::Extend).sem(Sem::Sxt(4)),
    ]);
}
