//! F-unit rows: every form GNU as 2.40 accepts (binutils `opcodes/ia64-opc-f.c` for what
//! exists, SDM vol. 3 section 4.6 for the encodings F1-F16; reference section 9).
//!
//! Row order is objdump's display preference: where a pseudo-op and the instruction it
//! stands for share bits (`fnorm` is `fma` with f2 = f0 and f4 = f1, `fabs` is `fmerge.s`
//! with f2 = f0), the pseudo row comes first, as objdump prints it. Pseudo-ops whose bits
//! objdump always shows as another row (`fcmp.gt` is `fcmp.lt` with f2/f3 swapped,
//! `fclass.nm` is `fclass.m` with p1/p2 swapped, `fcvt.xuf` is `fnorm`) are assembler-only.

use super::field::{f, Field};
use super::{Comp, Constraint, Flags, Form, OpKind::*, Resource, Sem, TimingClass as T, Unit};
use crate::exec::op::{FpArithOp as A, FpBitsOp as B};
use crate::regs::ar;

/// The status-field operations read and write ar.fpsr (the dependency checker tracks its
/// fields apart, from `dv_fp.rs`).
const FPSR: &[Resource] = &[Resource::Ar(ar::FPSR)];

/// An FP arithmetic operation; its status field is read from the slot.
const fn arith(kind: A) -> Sem {
    Sem::FpArith { kind, sf: 0 }
}

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
        misc("mov", 0x10)
            .ops(&[F1], &[F3])
            .constraint(Constraint::F2EqualsF3)
            .flags(Flags::PSEUDO)
            .timing(T::FpMerge)
            .sem(Sem::Fmerge { kind: 0 }),
        misc("fabs", 0x10)
            .pin(f::R2, 0)
            .ops(&[F1], &[F3])
            .flags(Flags::PSEUDO)
            .timing(T::FpMerge)
            .sem(Sem::Fmerge { kind: 0 }),
        misc("fneg", 0x11)
            .ops(&[F1], &[F3])
            .constraint(Constraint::F2EqualsF3)
            .flags(Flags::PSEUDO)
            .timing(T::FpMerge)
            .sem(Sem::Fmerge { kind: 1 }),
        misc("fnegabs", 0x11)
            .pin(f::R2, 0)
            .ops(&[F1], &[F3])
            .flags(Flags::PSEUDO)
            .timing(T::FpMerge)
            .sem(Sem::Fmerge { kind: 1 }),
        misc("fmerge.s", 0x10).ops(&[F1], &[F2, F3]).timing(T::FpMerge).sem(Sem::Fmerge { kind: 0 }),
        misc("fmerge.ns", 0x11).ops(&[F1], &[F2, F3]).timing(T::FpMerge).sem(Sem::Fmerge { kind: 1 }),
        misc("fmerge.se", 0x12).ops(&[F1], &[F2, F3]).timing(T::FpMerge).sem(Sem::Fmerge { kind: 2 }),
        misc("break.f", 0x00).ops(&[], &[Imm21]).timing(T::Break).sem(Sem::Break),
        misc("nop.f", 0x01).pin(f::Y26, 0).ops(&[], &[Imm21]).timing(T::Nop).sem(Sem::Nop),
        misc("hint.f", 0x01).pin(f::Y26, 1).ops(&[], &[Imm21]).timing(T::Nop).sem(Sem::Nop),
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
        // x2 3 = .h, 2 = .hu, 0 = .l (the low half is the same signed or unsigned).
        Form::new(name, &[], Unit::F, "F2", &[(f::OP, 0xE), (f::BIT36, 1), (x2, v)])
            .timing(T::Fma)
            .sem(Sem::Xma { high: v != 0, unsigned: v == 2 })
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
            .timing(T::FpMerge)
            .sem(Sem::Fselect),
    );
    fma_rows(out);
}

/// F9 significand and register-format moves of op 0: fmix, fsxt, fpack, fswap and the logical
/// operations; F10/F11 conversions; F8 min/max.
fn bits_rows(out: &mut Vec<Form>) {
    for (name, x6, sem) in [
        ("fmix.lr", 0x39, Sem::FpBits(B::MixLr)),
        ("fmix.r", 0x3a, Sem::FpBits(B::MixR)),
        ("fmix.l", 0x3b, Sem::FpBits(B::MixL)),
        ("fsxt.r", 0x3c, Sem::FpBits(B::SxtR)),
        ("fsxt.l", 0x3d, Sem::FpBits(B::SxtL)),
        ("fpack", 0x28, arith(A::Fpack)),
        ("fswap", 0x34, Sem::FpBits(B::Swap)),
        ("fswap.nl", 0x35, Sem::FpBits(B::SwapNl)),
        ("fswap.nr", 0x36, Sem::FpBits(B::SwapNr)),
        ("fand", 0x2c, Sem::FpBits(B::And)),
        ("fandcm", 0x2d, Sem::FpBits(B::Andcm)),
        ("for", 0x2e, Sem::FpBits(B::Or)),
        ("fxor", 0x2f, Sem::FpBits(B::Xor)),
    ] {
        out.push(xrow(0, name, &[], "F9", x6).ops(&[F1], &[F2, F3]).timing(T::FpMerge).sem(sem));
    }
    // F8: fmin/fmax/famin/famax, an FP compare-and-select (arithmetic: status flags).
    // The x6 low bits are the kind: 0 min, 1 max, 2 amin, 3 amax.
    for (name, x6) in [("fmin{}", 0x14), ("fmax{}", 0x15), ("famin{}", 0x16), ("famax{}", 0x17)] {
        let sem = arith(A::MinMax { kind: (x6 & 3) as u8, parallel: false });
        out.push(xrow(0, name, &[SF], "F8", x6).ops(&[F1], &[F2, F3]).timing(T::Fma).sem(sem));
    }
    // F10: FP to integer; F11: integer to FP (exact, no status field).
    for (name, x6) in [("fcvt.fx{}", 0x18), ("fcvt.fxu{}", 0x19), ("fcvt.fx.trunc{}", 0x1a), ("fcvt.fxu.trunc{}", 0x1b)]
    {
        out.push(xrow(0, name, &[SF], "F10", x6).ops(&[F1], &[F2]).timing(T::Fma).sem(fcvt(x6, false)));
    }
    out.push(xrow(0, "fcvt.xf", &[], "F11", 0x1c).ops(&[F1], &[F2]).timing(T::Fma).sem(arith(A::Fcvtxf)));
}

/// F12-F14: the FPSR status-field operations.
fn status_rows(out: &mut Vec<Form>) {
    out.extend([
        xrow(0, "fsetc{}", &[SF], "F12", 0x04)
            .ops(&[], &[Amask7, Omask7])
            .timing(T::FpStatus)
            .sem(Sem::Fsetc { sf: 0 })
            .implicit(FPSR, FPSR),
        xrow(0, "fclrf{}", &[SF], "F13", 0x05).timing(T::FpStatus).sem(Sem::Fclrf { sf: 0 }).implicit(&[], FPSR),
        xrow(0, "fchkf{}", &[SF], "F14", 0x08)
            .ops(&[], &[Tgt25F])
            .timing(T::FpStatus)
            .sem(arith(A::Fchkf))
            .implicit(FPSR, &[]),
    ]);
}

/// F6/F7: frcpa/frsqrta (op 0) and fprcpa/fprsqrta (op 1): x = 1, q (bit 36) selects the
/// square root.
fn recip_rows(out: &mut Vec<Form>) {
    for (op, name, q) in [(0, "frcpa{}", 0), (0, "frsqrta{}", 1), (1, "fprcpa{}", 0), (1, "fprsqrta{}", 1)] {
        let form =
            Form::new(name, &[SF], Unit::F, if q == 0 { "F6" } else { "F7" }, &[(f::OP, op), (X33, 1), (f::BIT36, q)])
                .timing(T::Fma)
                .sem(arith(if q == 0 { A::Frcpa { parallel: op == 1 } } else { A::Frsqrta { parallel: op == 1 } }));
        out.push(if q == 0 { form.ops(&[F1, P2], &[F2, F3]) } else { form.ops(&[F1, P2], &[F3]) });
    }
}

/// F4 fcmp (op 4) and F5 fclass (op 5).
fn compare_rows(out: &mut Vec<Form>) {
    // (name, ra, rb): the four relations the hardware has.
    const REAL: [(&str, u64, u64); 4] =
        [("fcmp.eq{}{}", 0, 0), ("fcmp.lt{}{}", 0, 1), ("fcmp.le{}{}", 1, 0), ("fcmp.unord{}{}", 1, 1)];
    let fcmp = |name: &'static str, ra: u64, rb: u64| {
        // The relation is ra:rb (eq 0, lt 1, le 2, unord 3); `.unc` is read from the slot.
        Form::new(name, &[UNC, SF], Unit::F, "F4", &[(f::OP, 4), (RA, ra), (RB, rb)])
            .timing(T::FpCompare)
            .sem(arith(A::Fcmp { frel: (ra << 1 | rb) as u8, unc: false }))
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
    let fclass = |name: &'static str| {
        Form::new(name, &[UNC], Unit::F, "F5", &[(f::OP, 5)]).timing(T::FpCompare).sem(Sem::Fclass { unc: false })
    };
    out.push(fclass("fclass.m{}").ops(&[P1, P2], &[F2, Fclass9]));
    out.push(fclass("fclass.nm{}").ops(&[P2, P1], &[F2, Fclass9]).flags(Flags::ASM_ONLY));
}

/// Op 1: the parallel (pair-of-singles) forms of F8, F9 and F10.
fn parallel_rows(out: &mut Vec<Form>) {
    let p = |name: &'static str, x6: u64| misc_op(1, name, x6);
    out.extend([
        p("fpabs", 0x10)
            .pin(f::R2, 0)
            .ops(&[F1], &[F3])
            .flags(Flags::PSEUDO)
            .timing(T::FpMerge)
            .sem(Sem::Fpmerge { kind: 0 }),
        p("fpneg", 0x11)
            .ops(&[F1], &[F3])
            .constraint(Constraint::F2EqualsF3)
            .flags(Flags::PSEUDO)
            .timing(T::FpMerge)
            .sem(Sem::Fpmerge { kind: 1 }),
        p("fpnegabs", 0x11)
            .pin(f::R2, 0)
            .ops(&[F1], &[F3])
            .flags(Flags::PSEUDO)
            .timing(T::FpMerge)
            .sem(Sem::Fpmerge { kind: 1 }),
        p("fpmerge.s", 0x10).ops(&[F1], &[F2, F3]).timing(T::FpMerge).sem(Sem::Fpmerge { kind: 0 }),
        p("fpmerge.ns", 0x11).ops(&[F1], &[F2, F3]).timing(T::FpMerge).sem(Sem::Fpmerge { kind: 1 }),
        p("fpmerge.se", 0x12).ops(&[F1], &[F2, F3]).timing(T::FpMerge).sem(Sem::Fpmerge { kind: 2 }),
    ]);
    for (name, x6) in [("fpmin{}", 0x14), ("fpmax{}", 0x15), ("fpamin{}", 0x16), ("fpamax{}", 0x17)] {
        let sem = arith(A::MinMax { kind: (x6 & 3) as u8, parallel: true });
        out.push(xrow(1, name, &[SF], "F8", x6).ops(&[F1], &[F2, F3]).timing(T::Fma).sem(sem));
    }
    // fpcmp's relation is the x6 low three bits.
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
        let sem = arith(A::Fpcmp { frel: (x6 & 7) as u8 });
        out.push(xrow(1, name, &[SF], "F8", x6).ops(&[F1], &[F2, F3]).timing(T::Fma).sem(sem));
    }
    // The swapped-source pseudo relations, which objdump shows as lt/le/nlt/nle.
    for (name, x6) in [("fpcmp.gt{}", 0x31), ("fpcmp.ge{}", 0x32), ("fpcmp.ngt{}", 0x35), ("fpcmp.nge{}", 0x36)] {
        out.push(
            xrow(1, name, &[SF], "F8", x6)
                .ops(&[F1], &[F3, F2])
                .flags(Flags::ASM_ONLY)
                .timing(T::Fma)
                .sem(arith(A::Fpcmp { frel: (x6 & 7) as u8 })),
        );
    }
    for (name, x6) in
        [("fpcvt.fx{}", 0x18), ("fpcvt.fxu{}", 0x19), ("fpcvt.fx.trunc{}", 0x1a), ("fpcvt.fxu.trunc{}", 0x1b)]
    {
        out.push(xrow(1, name, &[SF], "F10", x6).ops(&[F1], &[F2]).timing(T::Fma).sem(fcvt(x6, true)));
    }
}

/// F10's conversion to integer: x6 bit 0 unsigned, bit 1 truncating.
fn fcvt(x6: u64, parallel: bool) -> Sem {
    arith(A::Fcvt { unsigned: x6 & 1 == 1, trunc: x6 & 2 == 2, parallel })
}

/// The operation of an F1 (major op 8-0xD, x): op 8/9 add, 0xA/0xB subtract, 0xC/0xD negate
/// the product; op 9/0xB/0xD with x = 1 is the parallel form, otherwise the precision is
/// dynamic (op even, x = 0), single (op even, x = 1) or double (op odd, x = 0).
fn fma_sem(op: u64, x: u64) -> Sem {
    let (sub, neg) = (op & 0xE == 0xA, op & 0xE == 0xC);
    if op & 1 == 1 && x == 1 {
        arith(A::Fpma { sub, neg })
    } else {
        Sem::Fma { sub, neg, pc: if op & 1 == 1 { 2 } else { x as u8 }, sf: 0 }
    }
}

/// F1: the multiply-add family, (major op, x) -> name, f1 = f3 * f4 + f2, with the
/// pseudo-ops that pin f2 = f0 (multiplies) or f4 = f1 (adds) first.
fn fma_rows(out: &mut Vec<Form>) {
    let f1 = |name: &'static str, op: u64, x: u64| {
        Form::new(name, &[SF], Unit::F, "F1", &[(f::OP, op), (f::BIT36, x)]).timing(T::Fma).sem(fma_sem(op, x))
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
