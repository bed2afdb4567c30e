//! A-unit rows: integer ALU and compares (SDM vol. 3 section 4.2; reference section 5).
//! A-type instructions run in an M or an I slot with the same encoding.

use super::field::{f, Field};
use super::{Comp, Flags, Form, OpKind::*, Sem, TimingClass as T, Unit};
use crate::exec::op::{CmpType as Ct, Rel};

/// `cmp` or `cmp4`: bit 34 of the compare x2.
const CMP_SIZE: Comp = Comp { field: Field::new(34, 1), opts: &[("", 0), ("4", 1)], implied: None };

/// Names of the compare relation for (major op, ta, c), register and immediate forms
/// (reference section 5, left table).
const CMP_NAMES: [(u64, u64, u64, &str, Rel, Ct); 12] = [
    (0xC, 0, 0, "cmp{}.lt", Rel::Lt, Ct::Normal),
    (0xC, 0, 1, "cmp{}.lt.unc", Rel::Lt, Ct::Unc),
    (0xC, 1, 0, "cmp{}.eq.and", Rel::Eq, Ct::And),
    (0xC, 1, 1, "cmp{}.ne.and", Rel::Ne, Ct::And),
    (0xD, 0, 0, "cmp{}.ltu", Rel::Ltu, Ct::Normal),
    (0xD, 0, 1, "cmp{}.ltu.unc", Rel::Ltu, Ct::Unc),
    (0xD, 1, 0, "cmp{}.eq.or", Rel::Eq, Ct::Or),
    (0xD, 1, 1, "cmp{}.ne.or", Rel::Ne, Ct::Or),
    (0xE, 0, 0, "cmp{}.eq", Rel::Eq, Ct::Normal),
    (0xE, 0, 1, "cmp{}.eq.unc", Rel::Eq, Ct::Unc),
    (0xE, 1, 0, "cmp{}.eq.or.andcm", Rel::Eq, Ct::OrAndcm),
    (0xE, 1, 1, "cmp{}.ne.or.andcm", Rel::Ne, Ct::OrAndcm),
];

/// Parallel compares against r0 (A7: tb=1, r2=0), by (major op, ta, c).
const CMP_ZERO_NAMES: [(u64, u64, u64, &str, Rel, Ct); 12] = [
    (0xC, 0, 0, "cmp{}.gt.and", Rel::Gt, Ct::And),
    (0xC, 0, 1, "cmp{}.le.and", Rel::Le, Ct::And),
    (0xC, 1, 0, "cmp{}.ge.and", Rel::Ge, Ct::And),
    (0xC, 1, 1, "cmp{}.lt.and", Rel::Lt, Ct::And),
    (0xD, 0, 0, "cmp{}.gt.or", Rel::Gt, Ct::Or),
    (0xD, 0, 1, "cmp{}.le.or", Rel::Le, Ct::Or),
    (0xD, 1, 0, "cmp{}.ge.or", Rel::Ge, Ct::Or),
    (0xD, 1, 1, "cmp{}.lt.or", Rel::Lt, Ct::Or),
    (0xE, 0, 0, "cmp{}.gt.or.andcm", Rel::Gt, Ct::OrAndcm),
    (0xE, 0, 1, "cmp{}.le.or.andcm", Rel::Le, Ct::OrAndcm),
    (0xE, 1, 0, "cmp{}.ge.or.andcm", Rel::Ge, Ct::OrAndcm),
    (0xE, 1, 1, "cmp{}.lt.or.andcm", Rel::Lt, Ct::OrAndcm),
];

/// A compare's operation; `four` (cmp4) is read from the slot.
fn cmp(rel: Rel, ctype: Ct, imm: bool, zero: bool) -> Sem {
    Sem::Cmp { rel, ctype, four: false, imm, zero }
}

fn alu(name: &'static str, x4: u64, x2b: u64) -> Form {
    Form::new(name, &[], Unit::A, "A1", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, x4), (f::X2B, x2b)])
}

fn alu_imm8(name: &'static str, x2b: u64) -> Form {
    Form::new(name, &[], Unit::A, "A3", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 0xB), (f::X2B, x2b)])
        .ops(&[R1], &[Imm8, R3])
}

/// Appends the A-unit rows.
pub(super) fn list(out: &mut Vec<Form>) {
    let adds = || {
        Form::new("adds", &[], Unit::A, "A4", &[(f::OP, 8), (f::X2A, 2), (f::VE, 0)])
            .ops(&[R1], &[Imm14, R3])
            .sem(Sem::AddImm)
    };
    let addl = || Form::new("addl", &[], Unit::A, "A5", &[(f::OP, 9)]).ops(&[R1], &[Imm22, R3Addl]).sem(Sem::AddImm);
    let imm14_mask = Field::new(13, 7);
    out.extend([
        // Display aliases first: `mov r1=r3` is adds r1=0,r3 and `mov r1=imm` is addl r1=imm,r0.
        Form::new("mov", &[], Unit::A, "A4", &[(f::OP, 8), (f::X2A, 2), (f::VE, 0)])
            .pin(imm14_mask, 0)
            .pin(Field::new(27, 6), 0)
            .pin(f::BIT36, 0)
            .ops(&[R1], &[R3])
            .flags(Flags::PSEUDO)
            .sem(Sem::AddImm),
        Form::new("mov", &[], Unit::A, "A5", &[(f::OP, 9)])
            .pin(f::R3_ADDL, 0)
            .ops(&[R1], &[Imm22])
            .flags(Flags::PSEUDO)
            .sem(Sem::AddImm),
        alu("add", 0, 0).ops(&[R1], &[R2, R3]).sem(Sem::Add { plus_one: false }),
        alu("add", 0, 1).ops(&[R1], &[R2, R3, One]).sem(Sem::Add { plus_one: true }),
        alu("sub", 1, 1).ops(&[R1], &[R2, R3]).sem(Sem::Sub { minus_one: false }),
        alu("sub", 1, 0).ops(&[R1], &[R2, R3, One]).sem(Sem::Sub { minus_one: true }),
        alu("addp4", 2, 0).ops(&[R1], &[R2, R3]).sem(Sem::Addp4),
        alu("and", 3, 0).ops(&[R1], &[R2, R3]).sem(Sem::And),
        alu("andcm", 3, 1).ops(&[R1], &[R2, R3]).sem(Sem::Andcm),
        alu("or", 3, 2).ops(&[R1], &[R2, R3]).sem(Sem::Or),
        alu("xor", 3, 3).ops(&[R1], &[R2, R3]).sem(Sem::Xor),
        Form::new("shladd", &[], Unit::A, "A2", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 4)])
            .ops(&[R1], &[R2, Count2, R3])
            .sem(Sem::Shladd { p4: false }),
        Form::new("shladdp4", &[], Unit::A, "A2", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 6)])
            .ops(&[R1], &[R2, Count2, R3])
            .sem(Sem::Shladd { p4: true }),
        Form::new("sub", &[], Unit::A, "A3", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 9), (f::X2B, 1)])
            .ops(&[R1], &[Imm8, R3])
            .sem(Sem::SubImm),
        alu_imm8("and", 0).sem(Sem::AndImm),
        alu_imm8("andcm", 1).sem(Sem::AndcmImm),
        alu_imm8("or", 2).sem(Sem::OrImm),
        alu_imm8("xor", 3).sem(Sem::XorImm),
        adds(),
        Form::new("addp4", &[], Unit::A, "A4", &[(f::OP, 8), (f::X2A, 3), (f::VE, 0)])
            .ops(&[R1], &[Imm14, R3])
            .sem(Sem::Addp4Imm),
        addl(),
        // `add r1=imm,r3` is addl when r3 is r0-r3 and the immediate fits 22 bits, else adds
        // (gas pseudo-op; seed 004's `add r16=...,r2` comes out as addl).
        addl().with_name("add").flags(Flags::ASM_ONLY),
        adds().with_name("add").flags(Flags::ASM_ONLY),
    ]);
    for (op, ta, c, name, rel, ctype) in CMP_NAMES {
        let fixed = [(f::OP, op), (f::BIT36, 0), (Field::new(35, 1), 0), (f::TA, ta), (f::C, c)];
        out.push(
            Form::new(name, &[CMP_SIZE], Unit::A, "A6", &fixed)
                .ops(&[P1, P2], &[R2, R3])
                .timing(T::Compare)
                .sem(cmp(rel, ctype, false, false)),
        );
    }
    // A7's r2 field must be zero, but objdump 2.40 decodes the form whatever it holds (random
    // bytes, issue 12); the encoder leaves it zero as gas does.
    for (op, ta, c, name, rel, ctype) in CMP_ZERO_NAMES {
        let fixed = [(f::OP, op), (f::BIT36, 1), (Field::new(35, 1), 0), (f::TA, ta), (f::C, c)];
        out.push(
            Form::new(name, &[CMP_SIZE], Unit::A, "A7", &fixed)
                .ops(&[P1, P2], &[Gr0, R3])
                .timing(T::Compare)
                .sem(cmp(rel, ctype, false, true)),
        );
    }
    for (op, ta, c, name, rel, ctype) in CMP_NAMES {
        let fixed = [(f::OP, op), (Field::new(35, 1), 1), (f::TA, ta), (f::C, c)];
        out.push(
            Form::new(name, &[CMP_SIZE], Unit::A, "A8", &fixed)
                .ops(&[P1, P2], &[Imm8, R3])
                .timing(T::Compare)
                .sem(cmp(rel, ctype, true, false)),
        );
    }
}
