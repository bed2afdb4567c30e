//! F-unit rows: the FP moves and merges the entry paths use, fma family, nop/break
//! (SDM vol. 3 section 4.6; reference section 9).

use super::field::{f, Field};
use super::{Comp, Constraint, Flags, Form, OpKind::*, TimingClass as T, Unit};

const SF: Comp = Comp { field: f::SF, opts: &[(".s0", 0), (".s1", 1), (".s2", 2), (".s3", 3)], implied: Some(0) };

fn misc(name: &'static str, x6: u64) -> Form {
    Form::new(name, &[], Unit::F, "F", &[(f::OP, 0), (Field::new(33, 1), 0), (f::X6, x6)])
}

/// Appends the F-unit rows.
pub(super) fn list(out: &mut Vec<Form>) {
    out.extend([
        misc("mov", 0x10).ops(&[F1], &[F3]).constraint(Constraint::F2EqualsF3).flags(Flags::PSEUDO).timing(T::FpMerge),
        misc("fmerge.s", 0x10).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        misc("fmerge.ns", 0x11).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        misc("fmerge.se", 0x12).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        misc("break.f", 0x00).ops(&[], &[Imm21]).timing(T::Break),
        misc("nop.f", 0x01).pin(f::Y26, 0).ops(&[], &[Imm21]).timing(T::Nop),
        misc("hint.f", 0x01).pin(f::Y26, 1).ops(&[], &[Imm21]).timing(T::Nop),
    ]);
    // F1: (major op, x) -> name; f1 = f3 * f4 + f2.
    for (op, x, name) in [
        (8, 0, "fma{}"),
        (8, 1, "fma.s{}"),
        (9, 0, "fma.d{}"),
        (0xA, 0, "fms{}"),
        (0xA, 1, "fms.s{}"),
        (0xB, 0, "fms.d{}"),
        (0xC, 0, "fnma{}"),
        (0xC, 1, "fnma.s{}"),
        (0xD, 0, "fnma.d{}"),
    ] {
        out.push(
            Form::new(name, &[SF], Unit::F, "F1", &[(f::OP, op), (f::BIT36, x)])
                .ops(&[F1], &[F3, F4, F2])
                .timing(T::Fma),
        );
    }
}
