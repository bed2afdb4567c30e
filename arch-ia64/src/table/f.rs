//! F-unit rows: every form GNU as 2.40 accepts (binutils `opcodes/ia64-opc-f.c` for what
//! exists, SDM vol. 3 section 4.6 for the encodings F1-F16; reference section 9).
//!
//! Row order is objdump's display preference: where a pseudo-op and the instruction it
//! stands for share bits (`fnorm` is `fma` with f2 = f0 and f4 = f1, `fabs` is `fmerge.s`
//! with f2 = f0), the pseudo row comes first, as objdump prints it. Pseudo-ops whose bits
//! objdump always shows as another row (`fcmp.gt` is `fcmp.lt` with f2/f3 swapped,
//! `fclass.nm` is `fclass.m` with p1/p2 swapped, `fcvt.xuf` is `fnorm`) are assembler-only.

use super::field::{f, Field};
use super::{Comp, Constraint, Flags, Form, OpKind::*, TimingClass as T, Unit};

const SF: Comp = Comp { field: f::SF, opts: &[(".s0", 0), (".s1", 1), (".s2", 2), (".s3", 3)], implied: Some(0) };
/// The `ta` bit of F4/F5: `.unc` (bit 12).
const TA: Field = Field::new(12, 1);
const UNC: Comp = Comp { field: TA, opts: &[("", 0), (".unc", 1)], implied: None };
/// The `x` bit of F6-F15 (bit 33): 1 selects frcpa/frsqrta (F6/F7).
const X33: Field = Field::new(33, 1);
/// F4's `ra` (bit 33) and `rb` (bit 36): the relation.
const RA: Field = Field::new(33, 1);
const RB: Field = f::BIT36;

/// An op-0 (scalar) or op-1 (parallel) F-unit form with an x6 opcode (F8-F15).
fn misc_op(op: u64, name: &'static str, x6: u64) -> Form {
    xrow(op, name, &[], "F", x6)
}

/// As `misc_op`, with completers and the manual's format id.
fn xrow(op: u64, name: &'static str, comps: &'static [Comp], format: super::Format, x6: u64) -> Form {
    Form::new(name, comps, Unit::F, format, &[(f::OP, op), (X33, 0), (f::X6, x6)])
}

fn misc(name: &'static str, x6: u64) -> Form {
    misc_op(0, name, x6)
}

/// Appends the F-unit rows.
pub(super) fn list(out: &mut Vec<Form>) {
    out.extend([
        misc("mov", 0x10).ops(&[F1], &[F3]).constraint(Constraint::F2EqualsF3).flags(Flags::PSEUDO).timing(T::FpMerge),
        misc("fabs", 0x10).pin(f::R2, 0).ops(&[F1], &[F3]).flags(Flags::PSEUDO).timing(T::FpMerge),
        misc("fneg", 0x11).ops(&[F1], &[F3]).constraint(Constraint::F2EqualsF3).flags(Flags::PSEUDO).timing(T::FpMerge),
        misc("fnegabs", 0x11).pin(f::R2, 0).ops(&[F1], &[F3]).flags(Flags::PSEUDO).timing(T::FpMerge),
        misc("fmerge.s", 0x10).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        misc("fmerge.ns", 0x11).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        misc("fmerge.se", 0x12).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        misc("break.f", 0x00).ops(&[], &[Imm21]).timing(T::Break),
        misc("nop.f", 0x01).pin(f::Y26, 0).ops(&[], &[Imm21]).timing(T::Nop),
        misc("hint.f", 0x01).pin(f::Y26, 1).ops(&[], &[Imm21]).timing(T::Nop),
    ]);
    bits_rows(out);
    status_rows(out);
    recip_rows(out);
    compare_rows(out);
    parallel_rows(out);
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
    // F3 (op 0xE, x = 0): fselect f1 = f3 & f4 | f2 & ~f4 on the significands.
    out.push(
        Form::new("fselect", &[], Unit::F, "F3", &[(f::OP, 0xE), (f::BIT36, 0)])
            .ops(&[F1], &[F3, F4, F2])
            .timing(T::FpMerge),
    );
    fma_rows(out);
}

/// F9 significand and register-format moves of op 0: fmix, fsxt, fpack, fswap and the logical
/// operations; F10/F11 conversions; F8 min/max.
fn bits_rows(out: &mut Vec<Form>) {
    for (name, x6) in [
        ("fmix.lr", 0x39),
        ("fmix.r", 0x3a),
        ("fmix.l", 0x3b),
        ("fsxt.r", 0x3c),
        ("fsxt.l", 0x3d),
        ("fpack", 0x28),
        ("fswap", 0x34),
        ("fswap.nl", 0x35),
        ("fswap.nr", 0x36),
        ("fand", 0x2c),
        ("fandcm", 0x2d),
        ("for", 0x2e),
        ("fxor", 0x2f),
    ] {
        out.push(xrow(0, name, &[], "F9", x6).ops(&[F1], &[F2, F3]).timing(T::FpMerge));
    }
    // F8: fmin/fmax/famin/famax, an FP compare-and-select (arithmetic: status flags).
    for (name, x6) in [("fmin{}", 0x14), ("fmax{}", 0x15), ("famin{}", 0x16), ("famax{}", 0x17)] {
        out.push(xrow(0, name, &[SF], "F8", x6).ops(&[F1], &[F2, F3]).timing(T::Fma));
    }
    // F10: FP to integer; F11: integer to FP (exact, no status field).
    for (name, x6) in [("fcvt.fx{}", 0x18), ("fcvt.fxu{}", 0x19), ("fcvt.fx.trunc{}", 0x1a), ("fcvt.fxu.trunc{}", 0x1b)]
    {
        out.push(xrow(0, name, &[SF], "F10", x6).ops(&[F1], &[F2]).timing(T::Fma));
    }
    out.push(xrow(0, "fcvt.xf", &[], "F11", 0x1c).ops(&[F1], &[F2]).timing(T::Fma));
}

/// F12-F14: the FPSR status-field operations.
fn status_rows(out: &mut Vec<Form>) {
    out.extend([
        xrow(0, "fsetc{}", &[SF], "F12", 0x04).ops(&[], &[Amask7, Omask7]).timing(T::FpStatus),
        xrow(0, "fclrf{}", &[SF], "F13", 0x05).timing(T::FpStatus),
        xrow(0, "fchkf{}", &[SF], "F14", 0x08).ops(&[], &[Tgt25F]).timing(T::FpStatus),
    ]);
}

/// F6/F7: frcpa/frsqrta (op 0) and fprcpa/fprsqrta (op 1): x = 1, q (bit 36) selects the
/// square root.
fn recip_rows(out: &mut Vec<Form>) {
    for (op, name, q) in [(0, "frcpa{}", 0), (0, "frsqrta{}", 1), (1, "fprcpa{}", 0), (1, "fprsqrta{}", 1)] {
        let form =
            Form::new(name, &[SF], Unit::F, if q == 0 { "F6" } else { "F7" }, &[(f::OP, op), (X33, 1), (f::BIT36, q)])
                .timing(T::Fma);
        out.push(if q == 0 { form.ops(&[F1, P2], &[F2, F3]) } else { form.ops(&[F1, P2], &[F3]) });
    }
}

/// F4 fcmp (op 4) and F5 fclass (op 5).
fn compare_rows(out: &mut Vec<Form>) {
    // (name, ra, rb): the four relations the hardware has.
    const REAL: [(&str, u64, u64); 4] =
        [("fcmp.eq{}{}", 0, 0), ("fcmp.lt{}{}", 0, 1), ("fcmp.le{}{}", 1, 0), ("fcmp.unord{}{}", 1, 1)];
    let fcmp = |name: &'static str, ra: u64, rb: u64| {
        Form::new(name, &[UNC, SF], Unit::F, "F4", &[(f::OP, 4), (RA, ra), (RB, rb)]).timing(T::FpCompare)
    };
    for (name, ra, rb) in REAL {
        out.push(fcmp(name, ra, rb).ops(&[P1, P2], &[F2, F3]));
    }
    // gas's pseudo relations: swapped sources (gt, ge), swapped targets (neq, nlt, nle, ord),
    // or both (ngt, nge).
    const PSEUDO: [(&str, u64, u64, bool, bool); 8] = [
        ("fcmp.gt{}{}", 0, 1, false, true),
        ("fcmp.ge{}{}", 1, 0, false, true),
        ("fcmp.neq{}{}", 0, 0, true, false),
        ("fcmp.nlt{}{}", 0, 1, true, false),
        ("fcmp.nle{}{}", 1, 0, true, false),
        ("fcmp.ngt{}{}", 0, 1, true, true),
        ("fcmp.nge{}{}", 1, 0, true, true),
        ("fcmp.ord{}{}", 1, 1, true, false),
    ];
    for (name, ra, rb, swap_p, swap_f) in PSEUDO {
        let outs: &'static [super::OpKind] = if swap_p { &[P2, P1] } else { &[P1, P2] };
        let ins: &'static [super::OpKind] = if swap_f { &[F3, F2] } else { &[F2, F3] };
        out.push(fcmp(name, ra, rb).ops(outs, ins).flags(Flags::ASM_ONLY));
    }
    let fclass = |name: &'static str| Form::new(name, &[UNC], Unit::F, "F5", &[(f::OP, 5)]).timing(T::FpCompare);
    out.push(fclass("fclass.m{}").ops(&[P1, P2], &[F2, Fclass9]));
    out.push(fclass("fclass.nm{}").ops(&[P2, P1], &[F2, Fclass9]).flags(Flags::ASM_ONLY));
}

/// Op 1: the parallel (pair-of-singles) forms of F8, F9 and F10.
fn parallel_rows(out: &mut Vec<Form>) {
    let p = |name: &'static str, x6: u64| misc_op(1, name, x6);
    out.extend([
        p("fpabs", 0x10).pin(f::R2, 0).ops(&[F1], &[F3]).flags(Flags::PSEUDO).timing(T::FpMerge),
        p("fpneg", 0x11).ops(&[F1], &[F3]).constraint(Constraint::F2EqualsF3).flags(Flags::PSEUDO).timing(T::FpMerge),
        p("fpnegabs", 0x11).pin(f::R2, 0).ops(&[F1], &[F3]).flags(Flags::PSEUDO).timing(T::FpMerge),
        p("fpmerge.s", 0x10).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        p("fpmerge.ns", 0x11).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
        p("fpmerge.se", 0x12).ops(&[F1], &[F2, F3]).timing(T::FpMerge),
    ]);
    for (name, x6) in [("fpmin{}", 0x14), ("fpmax{}", 0x15), ("fpamin{}", 0x16), ("fpamax{}", 0x17)] {
        out.push(xrow(1, name, &[SF], "F8", x6).ops(&[F1], &[F2, F3]).timing(T::Fma));
    }
    for (name, x6) in [
        ("fpcmp.eq{}", 0x30),
        ("fpcmp.lt{}", 0x31),
        ("fpcmp.le{}", 0x32),
        ("fpcmp.unord{}", 0x33),
        ("fpcmp.neq{}", 0x34),
        ("fpcmp.nlt{}", 0x35),
        ("fpcmp.nle{}", 0x36),
        ("fpcmp.ord{}", 0x37),
    ] {
        out.push(xrow(1, name, &[SF], "F8", x6).ops(&[F1], &[F2, F3]).timing(T::Fma));
    }
    // The swapped-source pseudo relations, which objdump shows as lt/le/nlt/nle.
    for (name, x6) in [("fpcmp.gt{}", 0x31), ("fpcmp.ge{}", 0x32), ("fpcmp.ngt{}", 0x35), ("fpcmp.nge{}", 0x36)] {
        out.push(xrow(1, name, &[SF], "F8", x6).ops(&[F1], &[F3, F2]).flags(Flags::ASM_ONLY).timing(T::Fma));
    }
    for (name, x6) in
        [("fpcvt.fx{}", 0x18), ("fpcvt.fxu{}", 0x19), ("fpcvt.fx.trunc{}", 0x1a), ("fpcvt.fxu.trunc{}", 0x1b)]
    {
        out.push(xrow(1, name, &[SF], "F10", x6).ops(&[F1], &[F2]).timing(T::Fma));
    }
}

/// F1: the multiply-add family, (major op, x) -> name, f1 = f3 * f4 + f2, with the
/// pseudo-ops that pin f2 = f0 (multiplies) or f4 = f1 (adds) first.
fn fma_rows(out: &mut Vec<Form>) {
    let f1 = |name: &'static str, op: u64, x: u64| {
        Form::new(name, &[SF], Unit::F, "F1", &[(f::OP, op), (f::BIT36, x)]).timing(T::Fma)
    };
    // (op, x, fnorm, fcvt.xuf, fadd-like, fmul-like, real).
    type Names = (&'static str, &'static str, &'static str, &'static str, &'static str);
    let groups: [(u64, u64, Names); 9] = [
        (8, 0, ("fnorm{}", "fcvt.xuf{}", "fadd{}", "fmpy{}", "fma{}")),
        (8, 1, ("fnorm.s{}", "fcvt.xuf.s{}", "fadd.s{}", "fmpy.s{}", "fma.s{}")),
        (9, 0, ("fnorm.d{}", "fcvt.xuf.d{}", "fadd.d{}", "fmpy.d{}", "fma.d{}")),
        (9, 1, ("", "", "", "fpmpy{}", "fpma{}")),
        (0xA, 0, ("", "", "fsub{}", "", "fms{}")),
        (0xA, 1, ("", "", "fsub.s{}", "", "fms.s{}")),
        (0xB, 0, ("", "", "fsub.d{}", "", "fms.d{}")),
        (0xB, 1, ("", "", "", "", "fpms{}")),
        (0xC, 0, ("", "", "", "fnmpy{}", "fnma{}")),
    ];
    let more: [(u64, u64, Names); 3] = [
        (0xC, 1, ("", "", "", "fnmpy.s{}", "fnma.s{}")),
        (0xD, 0, ("", "", "", "fnmpy.d{}", "fnma.d{}")),
        (0xD, 1, ("", "", "", "fpnmpy{}", "fpnma{}")),
    ];
    for (op, x, (norm, xuf, add, mpy, real)) in groups.into_iter().chain(more) {
        if !norm.is_empty() {
            out.push(f1(norm, op, x).pin(f::R2, 0).pin(f::F4, 1).ops(&[F1], &[F3]).flags(Flags::PSEUDO));
            out.push(f1(xuf, op, x).pin(f::R2, 0).pin(f::F4, 1).ops(&[F1], &[F3]).flags(Flags::ASM_ONLY));
        }
        if !add.is_empty() {
            out.push(f1(add, op, x).pin(f::F4, 1).ops(&[F1], &[F3, F2]).flags(Flags::PSEUDO));
        }
        if !mpy.is_empty() {
            out.push(f1(mpy, op, x).pin(f::R2, 0).ops(&[F1], &[F3, F4]).flags(Flags::PSEUDO));
        }
        out.push(f1(real, op, x).ops(&[F1], &[F3, F4, F2]));
    }
}
