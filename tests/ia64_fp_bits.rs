//! Execution of the F-unit forms that need no FP arithmetic (issue 12), run through the
//! assembler, predecoder and executor on pseudo-random 82-bit register values (NaTVal,
//! zeros, pseudo-zeros, unnormals, denormals, infinities, NaNs and pseudo-NaNs among them)
//! and checked against expectations written here from the SDM vol. 3 instruction pages,
//! independently of `exec/fp_bits.rs`. Every input is built with setf.sig/setf.exp and
//! fmerge.se and read back from the final snapshot, so the test also checks that it ran on
//! the values it meant to. The arithmetic forms must stop with a located error until the
//! FP arithmetic core executes them.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::run::RunConfig;
use emu_core::report::RunReport;
use emu_core::rng::Xorshift64;
use emu_core::snapshot::Value;
use helpers::{exec_error, p, reg, run};

/// One 82-bit register: sign, 17-bit exponent, 64-bit significand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct F82 {
    sign: bool,
    exp: u32,
    sig: u64,
}

const NATVAL: F82 = F82 { sign: false, exp: 0x1FFFE, sig: 0 };

/// The integer-format result of the significand operations: sign 0, exponent 0x1003E.
fn int(sig: u64) -> F82 {
    F82 { sign: false, exp: 0x1003E, sig }
}

/// 82-bit register values drawn from the shared fixed-seed generator.
trait F82Values {
    /// A register value, biased towards the encodings of SDM vol. 1 Table 5-2.
    fn f82(&mut self) -> F82;
}

impl F82Values for Xorshift64 {
    fn f82(&mut self) -> F82 {
        let r = self.next_u64();
        if r.is_multiple_of(13) {
            return NATVAL;
        }
        let sign = (r >> 8) & 1 == 1;
        let exp = match (r >> 12) % 8 {
            0 => 0,
            1 => 0x1FFFF,
            2 => 0x1FFFE,
            3 => 0xFFFF,
            4 => 0x1003E,
            _ => (self.next_u64() & 0x1FFFF) as u32,
        };
        let sig = match (r >> 20) % 8 {
            0 => 0,
            1 => 1 << 63,
            2 => 0xC000_0000_0000_0000,
            3 => 0x8000_0000_0000_0001,
            4 => self.next_u64() >> 1,
            5 => self.next_u64() & 0x8000_0000_FFFF_FFFF,
            _ => self.next_u64(),
        };
        F82 { sign, exp, sig }
    }
}

/// Assembly that leaves `v` in `fN` (f2 and f3 are scratch): the significand through
/// setf.sig, sign and exponent through setf.exp, joined by fmerge.se.
fn build(n: usize, v: F82) -> String {
    let se = u64::from(v.exp) | u64::from(v.sign) << 17;
    format!(
        "\tmovl r8={:#x}\n\tmovl r9={se:#x} ;;\n\tsetf.sig f2=r8\n\tsetf.exp f3=r9 ;;\n\tfmerge.se f{n}=f3,f2 ;;\n",
        v.sig
    )
}

/// FR `n` from the final snapshot (absent registers are +0.0).
fn fr(r: &RunReport, n: usize) -> F82 {
    let text = match r.snapshot.register(&format!("f{n}")) {
        None => return F82 { sign: false, exp: 0, sig: 0 },
        Some(Value::Text(t)) => t.clone(),
        Some(other) => panic!("f{n} in the snapshot as {other:?}"),
    };
    let (sign, rest) = text.split_at(1);
    let (exp, sig) = rest.split_once(':').expect("sign, exponent:significand");
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex");
    F82 { sign: sign == "-", exp: hex(exp) as u32, sig: hex(sig) }
}

const CASES: usize = 1000;

/// Runs `mnemonic fR=fA,fB[,fC]` on `CASES` random operand sets, `arity` sources each, and
/// compares each result with `want`.
fn check_op(mnemonic: &str, arity: usize, want: impl Fn(&[F82]) -> F82) {
    let mut rng = Xorshift64::new(0x9E37_79B9_7F4A_7C15 ^ mnemonic.bytes().fold(0, |h, b| h * 31 + u64::from(b)));
    let per_run = 120 / (arity + 1);
    let mut done = 0;
    while done < CASES {
        let n = per_run.min(CASES - done);
        let cases: Vec<Vec<F82>> = (0..n).map(|_| (0..arity).map(|_| rng.f82()).collect()).collect();
        let mut body = String::new();
        for (c, ops) in cases.iter().enumerate() {
            for (k, v) in ops.iter().enumerate() {
                body += &build(6 + c * arity + k, *v);
            }
        }
        let out0 = 6 + n * arity;
        for (c, _) in cases.iter().enumerate() {
            let srcs: Vec<String> = (0..arity).map(|k| format!("f{}", 6 + c * arity + k)).collect();
            body += &format!("\t{mnemonic} f{}={} ;;\n", out0 + c, srcs.join(","));
        }
        let r = run(&body);
        for (c, ops) in cases.iter().enumerate() {
            for (k, v) in ops.iter().enumerate() {
                assert_eq!(fr(&r, 6 + c * arity + k), *v, "{mnemonic}: input {k} of case {c} was not built");
            }
            assert_eq!(fr(&r, out0 + c), want(ops), "{mnemonic} of {ops:x?}");
        }
        done += n;
    }
}

fn any_natval(ops: &[F82]) -> bool {
    ops.contains(&NATVAL)
}

/// Significand bits `hi..=lo` of `v`, as a number.
fn bits(v: u64, hi: u32, lo: u32) -> u64 {
    (v >> lo) & (u64::MAX >> (63 - (hi - lo)))
}

/// SDM V3 fmerge: .s takes f2's sign and f3's exponent and significand; .ns the complement of
/// f2's sign; .se f2's sign and exponent with f3's significand. NaTVal in, NaTVal out.
#[test]
fn fmerge_and_its_pseudo_ops() {
    check_op("fmerge.s", 2, |o| if any_natval(o) { NATVAL } else { F82 { sign: o[0].sign, ..o[1] } });
    check_op("fmerge.ns", 2, |o| if any_natval(o) { NATVAL } else { F82 { sign: !o[0].sign, ..o[1] } });
    check_op("fmerge.se", 2, |o| {
        if any_natval(o) {
            NATVAL
        } else {
            F82 { sign: o[0].sign, exp: o[0].exp, sig: o[1].sig }
        }
    });
    // fabs, fneg and fnegabs are fmerge.s f0, fmerge.ns f3,f3 and fmerge.ns f0.
    check_op("fabs", 1, |o| if any_natval(o) { NATVAL } else { F82 { sign: false, ..o[0] } });
    check_op("fneg", 1, |o| if any_natval(o) { NATVAL } else { F82 { sign: !o[0].sign, ..o[0] } });
    check_op("fnegabs", 1, |o| if any_natval(o) { NATVAL } else { F82 { sign: true, ..o[0] } });
}

/// SDM V3 fpmerge: the fmerge of each single of the pair: sign bits 63 and 31, exponents
/// 62-55 and 30-23, from f2; the rest from f3. The result is in integer format.
#[test]
fn fpmerge_and_its_pseudo_ops() {
    let pair = |o: &[F82], from_f2: &[(u32, u32)], negate: bool| {
        if any_natval(o) {
            return NATVAL;
        }
        let mut r = o[1].sig;
        for &(hi, lo) in from_f2 {
            let width_mask = u64::MAX >> (63 - (hi - lo)) << lo;
            let mut v = o[0].sig & width_mask;
            if negate {
                v ^= 1 << hi;
            }
            r = r & !width_mask | v;
        }
        int(r)
    };
    check_op("fpmerge.s", 2, |o| pair(o, &[(63, 63), (31, 31)], false));
    check_op("fpmerge.ns", 2, |o| pair(o, &[(63, 63), (31, 31)], true));
    check_op("fpmerge.se", 2, |o| pair(o, &[(63, 55), (31, 23)], false));
    check_op("fpabs", 1, |o| if any_natval(o) { NATVAL } else { int(o[0].sig & !(1 << 63 | 1 << 31)) });
    check_op("fpneg", 1, |o| if any_natval(o) { NATVAL } else { int(o[0].sig ^ (1 << 63 | 1 << 31)) });
    check_op("fpnegabs", 1, |o| if any_natval(o) { NATVAL } else { int(o[0].sig | 1 << 63 | 1 << 31) });
}

/// SDM V3 fselect: f1 = (f3 & f4) | (f2 & ~f4) on the significands, written f1=f3,f4,f2.
#[test]
fn fselect_picks_significand_bits() {
    check_op("fselect", 3, |o| {
        if any_natval(o) {
            return NATVAL;
        }
        let mut r = 0;
        for b in 0..64 {
            let from = if o[1].sig >> b & 1 == 1 { o[0].sig } else { o[2].sig };
            r |= from & 1 << b;
        }
        int(r)
    });
}

/// SDM V3 fmix, fsxt, fswap: the left (63-32) and right (31-0) singles of f2 and f3.
#[test]
fn fmix_fsxt_fswap_rearrange_singles() {
    let f = |name: &str, g: fn(u64, u64) -> F82| {
        check_op(name, 2, |o| if any_natval(o) { NATVAL } else { g(o[0].sig, o[1].sig) })
    };
    f("fmix.l", |a, b| int(bits(a, 63, 32) << 32 | bits(b, 63, 32)));
    f("fmix.r", |a, b| int(bits(a, 31, 0) << 32 | bits(b, 31, 0)));
    f("fmix.lr", |a, b| int(bits(a, 63, 32) << 32 | bits(b, 31, 0)));
    f("fsxt.l", |a, b| int(if a >> 63 == 1 { 0xFFFF_FFFF } else { 0 } << 32 | bits(b, 63, 32)));
    f("fsxt.r", |a, b| int(if a >> 31 & 1 == 1 { 0xFFFF_FFFF } else { 0 } << 32 | bits(b, 31, 0)));
    f("fswap", |a, b| int(bits(a, 31, 0) << 32 | bits(b, 63, 32)));
    f("fswap.nl", |a, b| int((bits(a, 31, 0) << 32 | bits(b, 63, 32)) ^ 1 << 63));
    f("fswap.nr", |a, b| int((bits(a, 31, 0) << 32 | bits(b, 63, 32)) ^ 1 << 31));
}

/// SDM V3 fand/fandcm/for/fxor: the logical operation on the significands.
#[test]
fn logical_operations_on_significands() {
    let f = |name: &str, g: fn(u64, u64) -> u64| {
        check_op(name, 2, |o| if any_natval(o) { NATVAL } else { int(g(o[0].sig, o[1].sig)) })
    };
    f("fand", |a, b| a & b);
    f("fandcm", |a, b| a & !b);
    f("for", |a, b| a | b);
    f("fxor", |a, b| a ^ b);
}

/// The class of a register value, by SDM vol. 1 Table 5-2.
fn class_bits(v: F82) -> u16 {
    if v == NATVAL {
        return 0x100;
    }
    let integer = v.sig >> 63 == 1;
    let fraction = v.sig & !(1 << 63);
    let sign = if v.sign { 0x002 } else { 0x001 };
    if v.exp == 0x1FFFF {
        return match (integer, fraction) {
            (true, 0) => sign | 0x020,
            (true, f) if f >> 62 == 1 => 0x080,
            (true, _) => 0x040,
            // Pseudo-NaN and pseudo-infinity: unsupported, in no class.
            (false, _) => 0,
        };
    }
    if v.exp == 0 && v.sig == 0 {
        sign | 0x004
    } else if integer && v.exp != 0 {
        sign | 0x010
    } else {
        // Unnormals, denormals, pseudo-denormals and pseudo-zeros.
        sign | 0x008
    }
}

/// Whether `v` is in the classes of `mask` (SDM V3 fclass, Table 2-25).
fn member(v: F82, mask: u16) -> bool {
    let c = class_bits(v);
    let standalone = c & mask & 0x1C0 != 0;
    let signed = c & 0x3C != 0 && c & mask & 3 != 0 && c & mask & 0x3C != 0;
    standalone || signed
}

/// fclass.m/.nm (and .unc) on random values and random masks: p1 = member, p2 = !member
/// (swapped for .nm).
#[test]
fn fclass_classifies_every_encoding() {
    let mut rng = Xorshift64::new(0x5DEE_CE66_D1CE_4E5B);
    let mut done = 0;
    while done < CASES * 2 {
        let n = 30;
        let cases: Vec<(F82, u16, usize)> =
            (0..n).map(|_| (rng.f82(), (rng.next_u64() & 0x1FF) as u16, (rng.next_u64() % 4) as usize)).collect();
        let mut body = String::new();
        for (c, (v, _, _)) in cases.iter().enumerate() {
            body += &build(6 + c, *v);
        }
        const NAMES: [&str; 4] = ["fclass.m", "fclass.nm", "fclass.m.unc", "fclass.nm.unc"];
        for (c, (_, mask, form)) in cases.iter().enumerate() {
            body += &format!("\t{} p{},p{}=f{},{mask:#x} ;;\n", NAMES[*form], 2 + 2 * c, 3 + 2 * c, 6 + c);
        }
        let r = run(&body);
        for (c, (v, mask, form)) in cases.iter().enumerate() {
            // gas adds both signs to a mask naming a class but no sign.
            let encoded = if mask & 0x3C != 0 && mask & 3 == 0 { mask | 3 } else { *mask };
            let m = member(*v, encoded);
            let want = if form.is_multiple_of(2) { (m, !m) } else { (!m, m) };
            let got = (p(&r, (2 + 2 * c) as u32), p(&r, (3 + 2 * c) as u32));
            assert_eq!(got, want, "{} {v:x?} mask {mask:#x}", NAMES[*form]);
        }
        done += n;
    }
}

/// A false qualifying predicate leaves fclass's targets alone, except .unc, which clears
/// both; p1 = p2 is an Illegal Operation fault (SDM V3 fclass).
#[test]
fn fclass_under_a_false_predicate_and_with_equal_targets() {
    let r = run("\tcmp.eq p6,p0=r0,r0 ;;\n\tcmp.eq p7,p0=r0,r0 ;;\n\tcmp.ne p5,p0=r0,r0 ;;\n\
         (p5) fclass.m.unc p6,p7=f0,0x1ff ;;\n\tcmp.eq p8,p0=r0,r0 ;;\n\tcmp.eq p9,p0=r0,r0 ;;\n\
         (p5) fclass.m p8,p9=f0,0x1ff ;;\n");
    assert!(!p(&r, 6) && !p(&r, 7), ".unc clears both targets under a false predicate");
    assert!(p(&r, 8) && p(&r, 9), "a plain fclass under a false predicate writes nothing");
    let e = exec_error("\tfclass.m p6,p6=f0,0x1ff ;;\n", &RunConfig::default());
    assert!(e.to_string().contains("no interruption vector table"), "{e}");
    assert!(e.to_string().contains("p1 = p2"), "{e}");
}

/// The FPSR layout of SDM vol. 1 Figure 5-4: traps bits 0-5, then sf0-sf3 of 13 bits each
/// (7 control bits: ftz, wre, pc x2, rc x2, td; then 6 flags).
fn sf_at(sf: u64) -> u32 {
    6 + 13 * sf as u32
}

/// fsetc.sN sets field N's controls to (sf0.controls & amask7) | omask7; fclrf.sN clears
/// field N's flags; nothing else changes.
#[test]
fn fsetc_and_fclrf_on_random_fpsr_values() {
    let mut rng = Xorshift64::new(0xD1B5_4A32_D192_ED03);
    let mut done = 0;
    while done < CASES * 2 {
        let mut body = String::new();
        let mut want = Vec::new();
        for c in 0..16u32 {
            let fpsr = rng.next_u64() & ((1 << 58) - 1);
            let sf = rng.next_u64() % 4;
            let (amask, omask) = ((rng.next_u64() & 0x7F) as u8, (rng.next_u64() & 0x7F) as u8);
            let fsetc = c.is_multiple_of(2);
            let expect = if fsetc {
                let sf0 = (fpsr >> sf_at(0)) & 0x7F;
                let controls = sf0 & u64::from(amask) | u64::from(omask);
                if (controls >> 2) & 3 == 1 {
                    // Precision control 01 is reserved: checked apart below.
                    continue;
                }
                fpsr & !(0x7F << sf_at(sf)) | controls << sf_at(sf)
            } else {
                fpsr & !(0x3F << (sf_at(sf) + 7))
            };
            let insn = if fsetc { format!("fsetc.s{sf} {amask:#x},{omask:#x}") } else { format!("fclrf.s{sf}") };
            body += &format!(
                "\tmovl r8={fpsr:#x} ;;\n\tmov ar.fpsr=r8 ;;\n\t{insn} ;;\n\tmov r{}=ar.fpsr ;;\n",
                14 + want.len()
            );
            want.push((insn, fpsr, expect));
        }
        let r = run(&body);
        for (i, (insn, fpsr, expect)) in want.iter().enumerate() {
            assert_eq!(reg(&r, &format!("r{}", 14 + i)), *expect, "{insn} on ar.fpsr {fpsr:#x}");
        }
        done += want.len();
    }
    // fsetc that would set the reserved precision control 01 takes a Reserved Register/Field fault.
    let e = exec_error("\tmov ar.fpsr=r0 ;;\n\tfsetc.s1 0x0,0x04 ;;\n", &RunConfig::default());
    assert!(e.to_string().contains("reserved"), "{e}");
}

/// The arithmetic forms, which once stopped the run waiting for the FP arithmetic core,
/// now execute (their results are checked in `ia64_fp_arith.rs`).
#[test]
fn arithmetic_forms_execute() {
    for insn in [
        "fpma f6=f7,f8,f9",
        "fpms.s1 f6=f7,f8,f9",
        "fpnma f6=f7,f8,f9",
        "fcmp.eq p6,p7=f8,f9",
        "fcmp.lt.unc.s2 p6,p7=f8,f9",
        "fpcmp.nle f6=f7,f8",
        "fcvt.fx f6=f7",
        "fpcvt.fxu.trunc f6=f7",
        "fcvt.xf f6=f7",
        "fmin f6=f7,f8",
        "fpamax.s3 f6=f7,f8",
        "frcpa f6,p7=f8,f9",
        "fprsqrta f6,p7=f9",
        "fpack f6=f7,f8",
        "fchkf.s1 1f",
    ] {
        // Linux's default FPSR (every trap disabled) and 1.0 in f7-f9.
        let body = format!(
            "\tmovl r2=0x9804c0270033f ;;\n\tmov.m ar.fpsr=r2\n\tmovl r3=0x3f800000 ;;\n\
             \tsetf.s f7=r3\n\tsetf.s f8=r3\n\tsetf.s f9=r3 ;;\n\t{insn} ;;\n1:\n"
        );
        run(&body);
    }
}
