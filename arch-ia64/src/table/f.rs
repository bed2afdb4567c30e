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
    // F2 (op 0xE, x = 1): xma, f1 = f3 * f4 + f2 on the significands, x2 (bits 35:34) 0 = .l,
    // 3 = .h, 2 = .hu. The low half of the product is the same signed or unsigned, so GNU as
    // encodes `.lu` as `.l` and objdump never shows it; `xmpy` is xma with f2 = f0, and objdump
    // prints it so (as it prints `xmpy.l` for `xma.l f6=f7,f8,f0`), hence the pseudo rows first.
    // Timing: the Fma class, latency 4 (reference table, "xmpy 4", the GCC reservation).
    let x2 = Field::new(34, 2);
    let xma = |name: &'static str, v: u64| {
        Form::new(name, &[], Unit::F, "F2", &[(f::OP, 0xE), (f::BIT36, 1), (x2, v)]).timing(T::Fma)
    };
    // (x2, xmpy name, xma name, flags of both rows).
    for (x, xmpy_name, xma_name, flag) in [
        (0, "xmpy.l", "xma.l", None),
        (3, "xmpy.h", "xma.h", None),
        (2, "xmpy.hu", "xma.hu", None),
        (0, "xmpy.lu", "xma.lu", Some(Flags::ASM_ONLY)),
    ] {
        out.push(xma(xmpy_name, x).pin(f::R2, 0).ops(&[F1], &[F3, F4]).flags(flag.unwrap_or(Flags::PSEUDO)));
        let real = xma(xma_name, x).ops(&[F1], &[F3, F4, F2]);
        out.push(match flag {
            Some(fl) => real.flags(fl),
            None => real,
        });
    }
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
