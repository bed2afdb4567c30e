//! A-unit rows: integer ALU and compares (SDM vol. 3 section 4.2; reference section 5).
//! A-type instructions run in an M or an I slot with the same encoding.

use super::field::{f, Field};
use super::{Comp, Flags, Form, OpKind::*, TimingClass as T, Unit};

/// `cmp` or `cmp4`: bit 34 of the compare x2.
const CMP_SIZE: Comp = Comp { field: Field::new(34, 1), opts: &[("", 0), ("4", 1)], implied: None };

/// Names of the compare relation for (major op, ta, c), register and immediate forms
/// (reference section 5, left table).
const CMP_NAMES: [(u64, u64, u64, &str); 12] = [
    (0xC, 0, 0, "cmp{}.lt"),
    (0xC, 0, 1, "cmp{}.lt.unc"),
    (0xC, 1, 0, "cmp{}.eq.and"),
    (0xC, 1, 1, "cmp{}.ne.and"),
    (0xD, 0, 0, "cmp{}.ltu"),
    (0xD, 0, 1, "cmp{}.ltu.unc"),
    (0xD, 1, 0, "cmp{}.eq.or"),
    (0xD, 1, 1, "cmp{}.ne.or"),
    (0xE, 0, 0, "cmp{}.eq"),
    (0xE, 0, 1, "cmp{}.eq.unc"),
    (0xE, 1, 0, "cmp{}.eq.or.andcm"),
    (0xE, 1, 1, "cmp{}.ne.or.andcm"),
];

/// Parallel compares against r0 (A7: tb=1, r2=0), by (major op, ta, c).
const CMP_ZERO_NAMES: [(u64, u64, u64, &str); 12] = [
    (0xC, 0, 0, "cmp{}.gt.and"),
    (0xC, 0, 1, "cmp{}.le.and"),
    (0xC, 1, 0, "cmp{}.ge.and"),
    (0xC, 1, 1, "cmp{}.lt.and"),
    (0xD, 0, 0, "cmp{}.gt.or"),
    (0xD, 0, 1, "cmp{}.le.or"),
    (0xD, 1, 0, "cmp{}.ge.or"),
    (0xD, 1, 1, "cmp{}.lt.or"),
    (0xE, 0, 0, "cmp{}.gt.or.andcm"),
    (0xE, 0, 1, "cmp{}.le.or.andcm"),
    (0xE, 1, 0, "cmp{}.ge.or.andcm"),
    (0xE, 1, 1, "cmp{}.lt.or.andcm"),
];

fn alu(name: &'static str, x4: u64, x2b: u64) -> Form {
    Form::new(name, &[], Unit::A, "A1", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, x4), (f::X2B, x2b)])
}

fn alu_imm8(name: &'static str, x2b: u64) -> Form {
    Form::new(name, &[], Unit::A, "A3", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 0xB), (f::X2B, x2b)])
        .ops(&[R1], &[Imm8, R3])
}

/// Appends the A-unit rows.
pub(super) fn list(out: &mut Vec<Form>) {
    let adds =
        || Form::new("adds", &[], Unit::A, "A4", &[(f::OP, 8), (f::X2A, 2), (f::VE, 0)]).ops(&[R1], &[Imm14, R3]);
    let addl = || Form::new("addl", &[], Unit::A, "A5", &[(f::OP, 9)]).ops(&[R1], &[Imm22, R3Addl]);
    let imm14_mask = Field::new(13, 7);
    out.extend([
        // Display aliases first: `mov r1=r3` is adds r1=0,r3 and `mov r1=imm` is addl r1=imm,r0.
        Form::new("mov", &[], Unit::A, "A4", &[(f::OP, 8), (f::X2A, 2), (f::VE, 0)])
            .pin(imm14_mask, 0)
            .pin(Field::new(27, 6), 0)
            .pin(f::BIT36, 0)
            .ops(&[R1], &[R3])
            .flags(Flags::PSEUDO),
        Form::new("mov", &[], Unit::A, "A5", &[(f::OP, 9)])
            .pin(f::R3_ADDL, 0)
            .ops(&[R1], &[Imm22])
            .flags(Flags::PSEUDO),
        alu("add", 0, 0).ops(&[R1], &[R2, R3]),
        alu("add", 0, 1).ops(&[R1], &[R2, R3, One]),
        alu("sub", 1, 1).ops(&[R1], &[R2, R3]),
        alu("sub", 1, 0).ops(&[R1], &[R2, R3, One]),
        alu("addp4", 2, 0).ops(&[R1], &[R2, R3]),
        alu("and", 3, 0).ops(&[R1], &[R2, R3]),
        alu("andcm", 3, 1).ops(&[R1], &[R2, R3]),
        alu("or", 3, 2).ops(&[R1], &[R2, R3]),
        alu("xor", 3, 3).ops(&[R1], &[R2, R3]),
        Form::new("shladd", &[], Unit::A, "A2", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 4)])
            .ops(&[R1], &[R2, Count2, R3]),
        Form::new("shladdp4", &[], Unit::A, "A2", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 6)])
            .ops(&[R1], &[R2, Count2, R3]),
        Form::new("sub", &[], Unit::A, "A3", &[(f::OP, 8), (f::X2A, 0), (f::VE, 0), (f::X4A, 9), (f::X2B, 1)])
            .ops(&[R1], &[Imm8, R3]),
        alu_imm8("and", 0),
        alu_imm8("andcm", 1),
        alu_imm8("or", 2),
        alu_imm8("xor", 3),
        adds(),
        Form::new("addp4", &[], Unit::A, "A4", &[(f::OP, 8), (f::X2A, 3), (f::VE, 0)]).ops(&[R1], &[Imm14, R3]),
        addl(),
        // `add r1=imm,r3` is addl when r3 is r0-r3 and the immediate fits 22 bits, else adds
        // (gas pseudo-op; seed 004's `add r16=...,r2` comes out as addl).
        addl().with_name("add").flags(Flags::ASM_ONLY),
        adds().with_name("add").flags(Flags::ASM_ONLY),
    ]);
    for (op, ta, c, name) in CMP_NAMES {
        let fixed = [(f::OP, op), (f::BIT36, 0), (Field::new(35, 1), 0), (f::TA, ta), (f::C, c)];
        out.push(Form::new(name, &[CMP_SIZE], Unit::A, "A6", &fixed).ops(&[P1, P2], &[R2, R3]).timing(T::Compare));
    }
    for (op, ta, c, name) in CMP_ZERO_NAMES {
        let fixed = [(f::OP, op), (f::BIT36, 1), (Field::new(35, 1), 0), (f::TA, ta), (f::C, c), (f::R2, 0)];
        out.push(Form::new(name, &[CMP_SIZE], Unit::A, "A7", &fixed).ops(&[P1, P2], &[Gr0, R3]).timing(T::Compare));
    }
    for (op, ta, c, name) in CMP_NAMES {
        let fixed = [(f::OP, op), (Field::new(35, 1), 1), (f::TA, ta), (f::C, c)];
        out.push(Form::new(name, &[CMP_SIZE], Unit::A, "A8", &fixed).ops(&[P1, P2], &[Imm8, R3]).timing(T::Compare));
    }
}
