//! Differential test of the IA-64 FP unit model (`arch_ia64::fpu`):
//! (a) single and double precision, round to nearest, against the host's fused IEEE
//!     arithmetic (`f32::mul_add`, `f64::mul_add`, `*`, `+`);
//! (b) every rounding mode, single/double/extended precision and every exponent range
//!     (8, 11, 15, 17 bits), flush-to-zero and enabled traps, against the plain big-integer
//!     reference in `ia64_fpu_diff/reference.rs`, on operands that include quiet and
//!     signalling NaNs, infinities, zeros of both signs, denormals, unnormals, pseudo-zeros,
//!     unsupported encodings, NaTVal and values near overflow and underflow; results are
//!     compared bit for bit, with the status flags and the fault/trap indication;
//! (c) fcmp, fcvt.fx/fxu, fcvt.xf, fmin/fmax/famin/famax, the memory-format round trips
//!     and parallel fpma against plain references.
//! Each part prints its case count (`cargo test --test ia64_fpu_diff -- --nocapture`).

#[path = "ia64_fpu_diff/big.rs"]
mod big;
#[path = "ia64_fpu_diff/reference.rs"]
mod reference;

use arch_ia64::fpu::cmp::{fcmp, min_max, MinMax, Relation};
use arch_ia64::fpu::cvt::{fcvt_fx, fcvt_xf};
use arch_ia64::fpu::env::{Env, Event, Flags, Precision};
use arch_ia64::fpu::fma::{fma, FmaOp};
use arch_ia64::fpu::memfmt::{from_double, from_single, to_double, to_single};
use arch_ia64::fpu::parallel::fpma;
use arch_ia64::state::fr::Fr;
use reference::{RefEnv, RefOut};
use std::cmp::Ordering;

/// xorshift64*: deterministic operands, no host time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

/// A significand: random, sparse (exact results and ties), or dense (long carries).
fn significand(r: &mut Rng) -> u64 {
    match r.below(4) {
        0 => r.next(),
        1 => (1 << 63) | (1 << r.below(63)) | if r.bool() { 1 << r.below(63) } else { 0 },
        2 => u64::MAX << r.below(64),
        _ => (1 << 63) | (r.next() >> r.below(64)),
    }
}

/// A random unbiased exponent near one of the interesting points of the ranges.
fn exponent(r: &mut Rng) -> i64 {
    let centres = [0, 127, -126, 1023, -1022, 16383, -16382, 65535, -65534, -149, -1074, 60];
    let c = centres[r.below(centres.len() as u64) as usize];
    match r.below(3) {
        0 => c + r.below(5) as i64 - 2,
        1 => c + r.below(140) as i64 - 70,
        _ => r.below(0x1FFFE) as i64 - 0xFFFE,
    }
}

/// A register operand drawn over every class.
fn operand(r: &mut Rng) -> Fr {
    let sign = r.bool();
    match r.below(40) {
        0 => Fr { sign, exp: 0x1FFFF, sig: (3 << 62) | (r.next() >> 2 >> r.below(62)) }, // QNaN
        1 => Fr { sign, exp: 0x1FFFF, sig: (1 << 63) | (r.next() >> 2).max(1) },         // SNaN
        2 | 3 => Fr { sign, exp: 0x1FFFF, sig: 1 << 63 },                                // infinity
        4 | 5 => Fr { sign, exp: 0, sig: 0 },                                            // zero
        6 => Fr { sign, exp: r.below(0x1FFFF) as u32, sig: 0 },                          // pseudo-zero
        7 => Fr { sign, exp: 0, sig: r.next() >> 1 },                                    // denormal
        8 => Fr { sign, exp: 0, sig: r.next() | 1 << 63 },                               // pseudo-denormal
        9 | 10 => {
            let e = (exponent(r) + 0xFFFF).clamp(1, 0x1FFFE) as u32;
            Fr { sign, exp: e, sig: (r.next() >> 1 >> r.below(63)).max(1) } // unnormal
        }
        11 => Fr { sign, exp: 0x1FFFF, sig: r.next() >> 1 }, // unsupported
        12 => Fr::NATVAL,
        13 => Fr { sign, exp: 0xFFFF, sig: 1 << 63 }, // 1.0
        _ => {
            let e = (exponent(r) + 0xFFFF).clamp(1, 0x1FFFE) as u32;
            Fr { sign, exp: e, sig: significand(r) | 1 << 63 }
        }
    }
}

/// One status field written from its parts (SDM vol. 1 Figure 5-6), placed at `sf`, with
/// trap-disable bits `disabled`.
fn fpsr(sf: u8, ftz: bool, wre: bool, pc: u64, rc: u64, td: bool, disabled: u64) -> u64 {
    let field = u64::from(ftz) | u64::from(wre) << 1 | pc << 2 | rc << 4 | u64::from(td) << 6;
    (disabled & 0x3F) | field << (6 + 13 * u64::from(sf))
}

/// The reference environment the same FPSR means (Table 5-6 read again).
fn ref_env(precision: Precision, ftz: bool, wre: bool, pc: u64, rc: u64, td: bool, disabled: u64) -> RefEnv {
    let (p, e) = match precision {
        Precision::Single => (24, if wre { 17 } else { 8 }),
        Precision::Double => (53, if wre { 17 } else { 11 }),
        Precision::Dynamic => ([24, 0, 53, 64][pc as usize], if wre { 17 } else { 15 }),
        Precision::Parallel => (24, 8),
        Precision::Widest => (64, 17),
    };
    let emax = (1i64 << (e - 1)) - 1;
    RefEnv { p, emin: 1 - emax, emax, rc: rc as u8, ftz, enabled: if td { 0 } else { !(disabled as u8) & 0x3F } }
}

/// The event the reference flags imply.
fn expected_event(out: &RefOut, enabled: u8) -> Event {
    let fault = out.flags & 7 & enabled;
    if fault != 0 {
        Event::Fault { low: Flags(fault), high: Flags::NONE }
    } else if out.flags & 0x38 & enabled != 0 {
        Event::Trap { low: Flags(out.flags & 0x38), high: Flags::NONE, fpa: out.fpa, fpa_high: false }
    } else {
        Event::None
    }
}

/// (b): random fma/fms/fnma (and the f2 = f0 forms) in random environments.
#[test]
fn fma_matches_the_big_integer_reference_in_every_mode() {
    let mut r = Rng(0x1234_5678_9abc_def1);
    let mut cases = 0u64;
    let mut per_precision = [0u64; 4];
    for _ in 0..200_000 {
        let sf = r.below(4) as u8;
        let precision =
            [Precision::Single, Precision::Double, Precision::Dynamic, Precision::Dynamic, Precision::Dynamic]
                [r.below(5) as usize];
        let pc = [0, 2, 3][r.below(3) as usize];
        let (ftz, wre, td) = (r.below(8) == 0, r.below(3) == 0, r.below(8) == 0);
        let rc = r.below(4);
        // Mostly everything disabled (the IEEE default), sometimes a random set enabled.
        let disabled = if r.below(3) == 0 { r.next() & 0x3F } else { 0x3F };
        let word = fpsr(sf, ftz, wre, pc, rc, td, disabled);
        let env = Env::new(word, sf, precision).expect("pc is never the reserved 01 here");
        let renv = ref_env(precision, ftz, wre, pc, rc, td, disabled);
        let op = r.below(3) as u8;
        let (f3, f4) = (operand(&mut r), operand(&mut r));
        let f2 = if r.below(6) == 0 { None } else { Some(operand(&mut r)) };
        let fop = [FmaOp::Fma, FmaOp::Fms, FmaOp::Fnma][op as usize];
        let got = fma(fop, f3, f4, f2, &env);
        let want = reference::fma(op, f3, f4, f2, &renv);
        let event = expected_event(&want, renv.enabled);
        let ctx = format!("{fop:?} f3={f3:x?} f4={f4:x?} f2={f2:x?} env={renv:?}");
        assert_eq!(got.event, event, "event: {ctx}");
        assert_eq!(got.flags.0, want.flags, "flags: {ctx}");
        if !matches!(event, Event::Fault { .. }) {
            assert_eq!(got.value, want.value, "value: {ctx}");
        }
        per_precision[match renv.p {
            24 => 0,
            53 => 1,
            _ if renv.emax == 65535 => 3,
            _ => 2,
        }] += 1;
        cases += 1;
    }
    println!(
        "fma vs big-integer reference: {cases} cases (single {}, double {}, extended {}, widest-range extended {})",
        per_precision[0], per_precision[1], per_precision[2], per_precision[3]
    );
}

/// A single drawn to include NaNs, infinities, zeros, denormals and near-overflow values.
fn single(r: &mut Rng) -> f32 {
    let sign = (r.next() as u32) & 0x8000_0000;
    let bits = match r.below(10) {
        0 => 0x7F80_0000 | (r.next() as u32 & 0x7F_FFFF).max(1), // NaN (quiet or signalling)
        1 => 0x7F80_0000,
        2 => 0,
        3 => r.next() as u32 & 0x7F_FFFF, // denormal
        4 => (r.below(6) as u32 + 0xF8) << 23 | (r.next() as u32 & 0x7F_FFFF),
        5 => (r.below(30) as u32) << 23 | (r.next() as u32 & 0x7F_FFFF),
        _ => r.next() as u32 & 0x7FFF_FFFF,
    };
    f32::from_bits(bits | sign)
}

fn double(r: &mut Rng) -> f64 {
    let sign = r.next() & (1 << 63);
    let frac = r.next() & ((1 << 52) - 1);
    let bits = match r.below(10) {
        0 => 0x7FF0_0000_0000_0000 | frac.max(1),
        1 => 0x7FF0_0000_0000_0000,
        2 => 0,
        3 => frac,
        4 => (r.below(10) + 0x7F5) << 52 | frac,
        5 => r.below(60) << 52 | frac,
        6 => (r.below(200) + 900) << 52 | frac,
        _ => r.next() & !(1 << 63),
    };
    f64::from_bits(bits | sign)
}

fn nearest_env(precision: Precision) -> Env {
    // sf0 with rc = nearest, pc = extended, every trap disabled.
    Env::new(0x3F | fpsr(0, false, false, 3, 0, false, 0), 0, precision).expect("valid")
}

fn same32(got: u32, want: f32) -> bool {
    if want.is_nan() {
        f32::from_bits(got).is_nan()
    } else {
        got == want.to_bits()
    }
}

fn same64(got: u64, want: f64) -> bool {
    if want.is_nan() {
        f64::from_bits(got).is_nan()
    } else {
        got == want.to_bits()
    }
}

/// (a) single precision against the host.
#[test]
fn single_precision_matches_the_host() {
    let mut r = Rng(0x0bad_cafe_f00d_0001);
    let env = nearest_env(Precision::Single);
    let one = from_single(1.0f32.to_bits());
    let mut cases = 0;
    for _ in 0..30_000 {
        let (a, b, c) = (single(&mut r), single(&mut r), single(&mut r));
        let (fa, fb, fc) = (from_single(a.to_bits()), from_single(b.to_bits()), from_single(c.to_bits()));
        let checks: [(&str, Fr, f32); 6] = [
            ("fma.s", fma(FmaOp::Fma, fa, fb, Some(fc), &env).value, a.mul_add(b, c)),
            ("fms.s", fma(FmaOp::Fms, fa, fb, Some(fc), &env).value, a.mul_add(b, -c)),
            ("fnma.s", fma(FmaOp::Fnma, fa, fb, Some(fc), &env).value, (-a).mul_add(b, c)),
            ("fmpy.s", fma(FmaOp::Fma, fa, fb, None, &env).value, a * b),
            ("fadd.s", fma(FmaOp::Fma, fa, one, Some(fc), &env).value, a + c),
            ("fsub.s", fma(FmaOp::Fms, fa, one, Some(fc), &env).value, a - c),
        ];
        for (name, got, want) in checks {
            assert!(same32(to_single(got), want), "{name} {a:e} {b:e} {c:e}: got {got:x?} want {want:e}");
            cases += 1;
        }
    }
    println!("single precision vs host f32: {cases} cases");
}

/// (a) double precision against the host.
#[test]
fn double_precision_matches_the_host() {
    let mut r = Rng(0x0bad_cafe_f00d_0002);
    let env = nearest_env(Precision::Double);
    let one = from_double(1.0f64.to_bits());
    let mut cases = 0;
    for _ in 0..30_000 {
        let (a, b, c) = (double(&mut r), double(&mut r), double(&mut r));
        let (fa, fb, fc) = (from_double(a.to_bits()), from_double(b.to_bits()), from_double(c.to_bits()));
        let checks: [(&str, Fr, f64); 6] = [
            ("fma.d", fma(FmaOp::Fma, fa, fb, Some(fc), &env).value, a.mul_add(b, c)),
            ("fms.d", fma(FmaOp::Fms, fa, fb, Some(fc), &env).value, a.mul_add(b, -c)),
            ("fnma.d", fma(FmaOp::Fnma, fa, fb, Some(fc), &env).value, (-a).mul_add(b, c)),
            ("fmpy.d", fma(FmaOp::Fma, fa, fb, None, &env).value, a * b),
            ("fadd.d", fma(FmaOp::Fma, fa, one, Some(fc), &env).value, a + c),
            ("fsub.d", fma(FmaOp::Fms, fa, one, Some(fc), &env).value, a - c),
        ];
        for (name, got, want) in checks {
            assert!(same64(to_double(got), want), "{name} {a:e} {b:e} {c:e}: got {got:x?} want {want:e}");
            cases += 1;
        }
    }
    println!("double precision vs host f64: {cases} cases");
}

/// (c) parallel fpma: each half against the host's fused single multiply-add.
#[test]
fn parallel_fpma_matches_the_host_per_half() {
    let mut r = Rng(0x0bad_cafe_f00d_0003);
    let env = Env::new(0x3F, 0, Precision::Parallel).expect("valid");
    let pack =
        |h: f32, l: f32| Fr { sign: false, exp: 0x1003E, sig: u64::from(h.to_bits()) << 32 | u64::from(l.to_bits()) };
    let mut cases = 0;
    for _ in 0..10_000 {
        let v: Vec<f32> = (0..6).map(|_| single(&mut r)).collect();
        let got = fpma(FmaOp::Fma, pack(v[0], v[1]), pack(v[2], v[3]), Some(pack(v[4], v[5])), &env).value;
        assert_eq!(got.exp, 0x1003E);
        assert!(same32((got.sig >> 32) as u32, v[0].mul_add(v[2], v[4])), "high half {v:?}");
        assert!(same32(got.sig as u32, v[1].mul_add(v[3], v[5])), "low half {v:?}");
        cases += 2;
    }
    println!("parallel fpma halves vs host f32: {cases} cases");
}

/// (c) fcmp against the host's IEEE comparisons, and the Invalid rule per relation.
#[test]
fn fcmp_matches_the_host_comparisons() {
    let mut r = Rng(0x0bad_cafe_f00d_0004);
    let env = nearest_env(Precision::Dynamic);
    let mut cases = 0;
    for _ in 0..20_000 {
        let (a, b) = (double(&mut r), double(&mut r));
        let (fa, fb) = (from_double(a.to_bits()), from_double(b.to_bits()));
        let snan = |x: f64| x.is_nan() && x.to_bits() & (1 << 51) == 0;
        let any_nan = a.is_nan() || b.is_nan();
        let any_snan = snan(a) || snan(b);
        for (rel, want, signals) in [
            (Relation::Eq, a == b, false),
            (Relation::Lt, a < b, true),
            (Relation::Le, a <= b, true),
            (Relation::Unord, any_nan, false),
            (Relation::Neq, a != b, false),
            (Relation::Nlt, a.partial_cmp(&b) != Some(Ordering::Less), true),
            (Relation::Nle, !matches!(a.partial_cmp(&b), Some(Ordering::Less | Ordering::Equal)), true),
            (Relation::Ord, !any_nan, false),
        ] {
            let o = fcmp(rel, fa, fb, &env);
            assert_eq!(o.value, want, "{rel:?} {a:e} {b:e}");
            let v = any_snan || (signals && any_nan);
            assert_eq!(o.flags.has(Flags::V), v, "V of {rel:?} {a:e} {b:e}");
            cases += 1;
        }
    }
    println!("fcmp vs host: {cases} cases");
}

/// (c) fcvt.fx/fxu (+ .trunc) against the host's rounding to integers, and fcvt.xf back.
#[test]
fn fcvt_matches_host_rounding() {
    let mut r = Rng(0x0bad_cafe_f00d_0005);
    let mut cases = 0;
    for _ in 0..20_000 {
        let x = match r.below(3) {
            0 => double(&mut r),
            1 => (r.next() as i64 as f64) / f64::from(1u32 << r.below(32)),
            _ => (r.below(2000) as f64 - 1000.0) / 4.0,
        };
        let rc = r.below(4);
        let env = Env::new(0x3F | fpsr(0, false, false, 3, rc, false, 0), 0, Precision::Dynamic).expect("valid");
        let f = from_double(x.to_bits());
        for (unsigned, trunc) in [(false, false), (false, true), (true, false), (true, true)] {
            let o = fcvt_fx(f, unsigned, trunc, &env);
            let mode = if trunc { 3 } else { rc };
            let rounded = match mode {
                0 => x.round_ties_even(),
                1 => x.floor(),
                2 => x.ceil(),
                _ => x.trunc(),
            };
            let (lo, hi) = if unsigned {
                (0.0, 18_446_744_073_709_551_616.0)
            } else {
                (-9_223_372_036_854_775_808.0, 9_223_372_036_854_775_808.0)
            };
            let valid = !x.is_nan() && rounded >= lo && rounded < hi;
            let want = if !valid {
                1u64 << 63
            } else if unsigned {
                rounded as u64
            } else {
                rounded as i64 as u64
            };
            assert_eq!(o.value.sig, want, "fcvt unsigned={unsigned} trunc={trunc} rc={rc} {x:e}");
            assert_eq!(o.value.exp, 0x1003E);
            assert_eq!(o.flags.has(Flags::V), !valid, "V of {x:e}");
            assert_eq!(o.flags.has(Flags::I), valid && rounded != x, "I of {x:e}");
            cases += 1;
        }
        // fcvt.xf: the signed integer back to an exact value.
        let i = r.next() as i64 >> r.below(64);
        let back = fcvt_xf(Fr { sign: false, exp: 0x1003E, sig: i as u64 });
        let env64 = Env::new(0x3F | fpsr(0, false, false, 2, 0, false, 0), 0, Precision::Double).expect("valid");
        let as_double = fma(FmaOp::Fma, back, from_double(1.0f64.to_bits()), None, &env64).value;
        assert_eq!(to_double(as_double), (i as f64).to_bits(), "fcvt.xf {i}");
        cases += 1;
    }
    println!("fcvt.fx/fxu/xf vs host: {cases} cases");
}

/// (c) fmin/fmax/famin/famax against their plain definitions.
#[test]
fn fmin_fmax_match_their_definitions() {
    let mut r = Rng(0x0bad_cafe_f00d_0006);
    let env = nearest_env(Precision::Dynamic);
    let mut cases = 0;
    for _ in 0..20_000 {
        let (a, b) = (double(&mut r), double(&mut r));
        let (fa, fb) = (from_double(a.to_bits()), from_double(b.to_bits()));
        for (kind, take_a) in [
            (MinMax::Min, a < b),
            (MinMax::Max, a > b),
            (MinMax::AbsMin, a.abs() < b.abs()),
            (MinMax::AbsMax, a.abs() > b.abs()),
        ] {
            let o = min_max(kind, fa, fb, &env);
            assert_eq!(o.value, if take_a { fa } else { fb }, "{kind:?} {a:e} {b:e}");
            assert_eq!(o.flags.has(Flags::V), a.is_nan() || b.is_nan());
            cases += 1;
        }
    }
    println!("fmin/fmax/famin/famax: {cases} cases");
}

/// (c) memory formats: every single and double survives load then store, and getf/setf
/// agree with the host's bit patterns.
#[test]
fn memory_formats_round_trip() {
    let mut r = Rng(0x0bad_cafe_f00d_0007);
    let mut cases = 0;
    for _ in 0..20_000 {
        let s = single(&mut r).to_bits();
        assert_eq!(to_single(from_single(s)), s, "single {s:08x}");
        let d = double(&mut r).to_bits();
        assert_eq!(to_double(from_double(d)), d, "double {d:016x}");
        // A single widened to a double: stores do not normalize (a single denormal is an
        // unnormal in the register), so `fnorm.d` (fma.d f1=f3,f1,f0) first, then stfd gives
        // the host's widening.
        let w = f32::from_bits(s);
        if !w.is_nan() {
            let env = nearest_env(Precision::Double);
            let one = from_double(1.0f64.to_bits());
            let normalized = fma(FmaOp::Fma, from_single(s), one, None, &env).value;
            assert_eq!(to_double(normalized), f64::from(w).to_bits(), "widen {s:08x}");
        }
        cases += 3;
    }
    println!("memory-format round trips: {cases} cases");
}

/// (b) parallel fpma/fpms/fpnma in every rounding mode, flush-to-zero and enabled traps:
/// each half against the reference in single precision with the 8-bit exponent range.
#[test]
fn parallel_fpma_matches_the_reference_in_every_mode() {
    let mut r = Rng(0x0bad_cafe_f00d_0008);
    let pack =
        |h: f32, l: f32| Fr { sign: false, exp: 0x1003E, sig: u64::from(h.to_bits()) << 32 | u64::from(l.to_bits()) };
    let mut cases = 0;
    for _ in 0..20_000 {
        let sf = r.below(4) as u8;
        let (ftz, rc) = (r.below(6) == 0, r.below(4));
        let disabled = if r.below(4) == 0 { r.next() & 0x3F } else { 0x3F };
        let word = fpsr(sf, ftz, r.bool(), 3, rc, false, disabled);
        let env = Env::new(word, sf, Precision::Parallel).expect("valid");
        let renv = ref_env(Precision::Parallel, ftz, false, 3, rc, false, disabled);
        let v: Vec<f32> = (0..6).map(|_| single(&mut r)).collect();
        let op = r.below(3) as u8;
        let fop = [FmaOp::Fma, FmaOp::Fms, FmaOp::Fnma][op as usize];
        let with_f2 = r.below(5) != 0;
        let f2 = with_f2.then(|| pack(v[4], v[5]));
        let got = fpma(fop, pack(v[0], v[1]), pack(v[2], v[3]), f2, &env);
        let half = |h: usize| {
            let s = |x: f32| from_single(x.to_bits());
            reference::fma(op, s(v[h]), s(v[2 + h]), with_f2.then(|| s(v[4 + h])), &renv)
        };
        let (hi, lo) = (half(0), half(1));
        let flags = hi.flags | lo.flags;
        assert_eq!(got.flags.0, flags, "flags {fop:?} {v:?} {renv:?}");
        let fault = |o: &RefOut| o.flags & 7 & renv.enabled;
        if fault(&hi) | fault(&lo) != 0 {
            assert_eq!(got.event, Event::Fault { low: Flags(fault(&lo)), high: Flags(fault(&hi)) }, "{v:?}");
        } else {
            if flags & 0x38 & renv.enabled != 0 {
                assert!(
                    matches!(got.event, Event::Trap { low, high, .. }
                    if low.0 == lo.flags & 0x38 && high.0 == hi.flags & 0x38),
                    "trap {v:?} {renv:?}"
                );
            } else {
                assert_eq!(got.event, Event::None, "{v:?}");
            }
            assert_eq!((got.value.sig >> 32) as u32, to_single(hi.value), "high {fop:?} {v:?} {renv:?}");
            assert_eq!(got.value.sig as u32, to_single(lo.value), "low {fop:?} {v:?} {renv:?}");
        }
        cases += 2;
    }
    println!("parallel fpma halves vs big-integer reference: {cases} cases");
}

/// (c) the order fcmp and fmin/fmax use, on register operands of every class (unnormals,
/// pseudo-denormals, pseudo-zeros, the whole 17-bit range), against big-integer comparison.
#[test]
fn register_order_matches_big_integer_comparison() {
    use arch_ia64::fpu::cmp::order;
    let mut r = Rng(0x0bad_cafe_f00d_0009);
    let mut cases = 0;
    let key = |f: Fr| -> Option<(bool, big::Big, i64)> {
        if reference::is_nan(f) || reference::is_unsupported(f) || reference::is_nat(f) {
            None
        } else {
            Some(reference::value(f))
        }
    };
    for _ in 0..40_000 {
        let (a, b) = (operand(&mut r), operand(&mut r));
        // Near-equal pairs: the same value with the exponent and significand shifted.
        let b = if r.below(4) == 0 && a.sig != 0 && a.sig >> 63 == 1 && a.exp < 0x1FFFE && a.exp > 1 {
            Fr { sign: a.sign, exp: a.exp + 1, sig: a.sig >> 1 }
        } else {
            b
        };
        let want = match (key(a), key(b)) {
            (Some(_), Some(_)) if reference::is_inf(a) || reference::is_inf(b) => {
                let rank = |f: Fr| {
                    if reference::is_inf(f) {
                        if f.sign {
                            -1
                        } else {
                            1
                        }
                    } else {
                        0
                    }
                };
                Some(rank(a).cmp(&rank(b)))
            }
            (Some((sa, ma, xa)), Some((sb, mb, xb))) => {
                let x = xa.min(xb);
                let (ma, mb) = (ma.shl((xa - x) as u64), mb.shl((xb - x) as u64));
                let signed = |s: bool, m: &big::Big| {
                    if m.is_zero() {
                        0
                    } else if s {
                        -1
                    } else {
                        1
                    }
                };
                let (ka, kb) = (signed(sa, &ma), signed(sb, &mb));
                Some(if ka != kb {
                    ka.cmp(&kb)
                } else if ka >= 0 {
                    ma.cmp(&mb)
                } else {
                    mb.cmp(&ma)
                })
            }
            _ => None,
        };
        assert_eq!(order(a, b), want, "{a:x?} {b:x?}");
        cases += 1;
    }
    println!("register-format order vs big integers: {cases} cases");
}
