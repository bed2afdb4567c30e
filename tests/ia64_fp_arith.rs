//! The arithmetic F-unit forms of `Op::FpArith` (issue 12) run through the assembler, the
//! predecoder and the executor, against plain references that share no code with
//! `arch-ia64/src/fpu` or `exec/fp_arith.rs`:
//! - fpma/fpms/fpnma/fpmpy on pairs of singles against the host's fused `f32::mul_add`;
//! - fcmp (every relation, `.unc`, NaTVal sources) against host `f64` comparisons, with the
//!   Invalid flag of the signalling relations;
//! - fcvt.fx/.fxu(.trunc) and fpcvt against host `f64`/`f32` rounding, fcvt.xf against
//!   `i128` arithmetic;
//! - fmin/fmax/famin/famax and their parallel forms against the SDM's one-line definitions;
//! - frcpa/frsqrta/fprcpa/fprsqrta: hand-worked vectors from the table definition
//!   (`fp_ieee_recip`: index = the 8 fraction bits below the integer bit, result exponent
//!   -1 - e), the SDM's accuracy bounds on random operands, and the p2 = 0 special cases;
//! - fpack, fchkf.
//!
//! A few whole runs check the FP Exception fault/trap ISR.code and `.unc` under a false
//! predicate. Each random part runs >= 1,000 cases per form and prints its count
//! (`cargo test --test ia64_fp_arith -- --nocapture`).

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;
#[path = "common/ia64_unit.rs"]
#[allow(dead_code)] // not every test file uses every helper
mod ia64_unit;

use arch_ia64::exec::op::Op;
use arch_ia64::exec::predecode::Exec;
use arch_ia64::exec::{ExecError, Flow, Trap};
use arch_ia64::fpu::memfmt::{from_double, from_single, to_double, to_single};
use arch_ia64::run::RunConfig;
use arch_ia64::state::fr::Fr;
use arch_ia64::state::{ar, State};
use emu_core::rng::Xorshift64;
use helpers::{exec_error, p, reg, run};
use ia64_unit::exec_on;

/// A three-operand single reference.
type Ref3 = fn(f32, f32, f32) -> f32;
/// A double relation, and whether it signals on quiet NaNs.
type Rel64 = (&'static str, fn(f64, f64) -> bool, bool);
/// A single relation.
type Rel32 = (&'static str, fn(f32, f32) -> bool);

/// Whether a min/max form takes f2.
type Pick = fn(f64, f64) -> bool;

/// Random cases per form.
const CASES: usize = 1500;

/// Linux's default FPSR: every trap disabled, sf0 extended precision, round to nearest.
const FPSR: u64 = 0x9_804c_0270_033f;

/// FP operand bit patterns drawn from the shared fixed-seed generator.
trait FpOperands {
    /// A single: random bits, or (often) a special or boundary value.
    fn single(&mut self) -> u32;
    /// A double: random, near 1 (so that sums cancel and compares tie), or special.
    fn double(&mut self) -> u64;
}

impl FpOperands for Xorshift64 {
    fn single(&mut self) -> u32 {
        let s = (self.next_u64() as u32) & 0x8000_0000;
        match self.below(16) {
            0 => s | 0x7fc0_0000 | (self.next_u64() as u32 & 0x3f_ffff), // QNaN
            1 => s | 0x7f80_0000 | (self.next_u64() as u32 & 0x3f_ffff).max(1), // SNaN
            2 => s | 0x7f80_0000,                                        // infinity
            3 => s,                                                      // zero
            4 => s | (self.next_u64() as u32 & 0x7f_ffff),               // denormal
            5 => s | 0x3f80_0000,                                        // 1.0
            6 => s | ((100 + self.below(56) as u32) << 23) | (self.next_u64() as u32 & 0x7f_ffff),
            _ => self.next_u64() as u32,
        }
    }

    fn double(&mut self) -> u64 {
        let s = self.next_u64() & (1 << 63);
        match self.below(16) {
            0 => s | 0x7ff8_0000_0000_0000 | (self.next_u64() >> 13), // QNaN
            1 => s | 0x7ff0_0000_0000_0000 | (self.next_u64() >> 14).max(1), // SNaN
            2 => s | 0x7ff0_0000_0000_0000,                           // infinity
            3 => s,                                                   // zero
            4 => s | (self.next_u64() >> 12),                         // denormal
            5..=9 => s | ((0x3f0 + self.below(0x60)) << 52) | (self.next_u64() >> 12 >> self.below(52)),
            _ => self.next_u64(),
        }
    }
}

fn is_snan64(b: u64) -> bool {
    f64::from_bits(b).is_nan() && b & (1 << 51) == 0
}

/// The predecoded record of the FP arithmetic instruction in `line`, and its bundle address
/// (a local label `1:` follows it, for fchkf's target).
fn compile(line: &str) -> (Exec, u64) {
    ia64_unit::compile(&format!("{line}\n\t;;\n1:\n\tnop.i 0"), |op| matches!(op, Op::FpArith { .. }))
}

/// A state with the default FPSR and `regs` written to the FRs.
fn state(regs: &[(usize, Fr)]) -> State {
    let mut st = State::new();
    st.ar[ar::FPSR as usize] = FPSR;
    for (i, f) in regs {
        st.fr[*i] = *f;
    }
    st
}

/// Runs `e` and expects it to complete.
fn exec_ok(st: &mut State, e: &Exec, ip: u64, what: &str) -> Flow {
    match exec_on(st, e, ip) {
        Ok(f) => f,
        Err(t) => panic!("{what}: {t:?}"),
    }
}

/// sf0's flags (v d z o u i in bits 0-5).
fn sf0_flags(st: &State) -> u64 {
    (st.ar[ar::FPSR as usize] >> 13) & 0x3f
}

fn pair(hi: u32, lo: u32) -> Fr {
    Fr { sign: false, exp: 0x1003e, sig: u64::from(hi) << 32 | u64::from(lo) }
}

fn halves(f: Fr) -> (u32, u32) {
    ((f.sig >> 32) as u32, f.sig as u32)
}

/// Two single results agree: the same bits, or both NaN (NaN payload choice is the
/// architecture's, not the host's).
fn same32(got: u32, want: f32) -> bool {
    let g = f32::from_bits(got);
    (g.is_nan() && want.is_nan()) || got == want.to_bits()
}

/// fpma/fpms/fpnma (and fpmpy, fpnmpy: f2 = f0) per half against the host's fused f32
/// arithmetic, round to nearest, traps disabled.
#[test]
fn parallel_multiply_add_matches_host_f32_fma() {
    let mut r = Xorshift64::new(0x9e37_79b9_7f4a_7c15);
    let forms: [(&str, Ref3); 5] = [
        ("fpma f6=f7,f8,f9", |a, b, c| a.mul_add(b, c)),
        ("fpms f6=f7,f8,f9", |a, b, c| a.mul_add(b, -c)),
        ("fpnma f6=f7,f8,f9", |a, b, c| (-a).mul_add(b, c)),
        ("fpmpy f6=f7,f8", |a, b, _| a * b),
        ("fpnmpy f6=f7,f8", |a, b, _| -(a * b)),
    ];
    let mut total = 0;
    for (line, reference) in forms {
        let (e, ip) = compile(line);
        for _ in 0..CASES {
            let v: [u32; 6] = std::array::from_fn(|_| r.single());
            let mut st = state(&[(7, pair(v[0], v[1])), (8, pair(v[2], v[3])), (9, pair(v[4], v[5]))]);
            exec_ok(&mut st, &e, ip, line);
            let (hi, lo) = halves(st.fr[6]);
            let f = |i: usize| f32::from_bits(v[i]);
            let (want_hi, want_lo) = (reference(f(0), f(2), f(4)), reference(f(1), f(3), f(5)));
            assert!(
                same32(hi, want_hi) && same32(lo, want_lo),
                "{line} {v:08x?}: got {hi:08x} {lo:08x}, want {:08x} {:08x}",
                want_hi.to_bits(),
                want_lo.to_bits()
            );
            assert_eq!(st.fr[6].exp, 0x1003e, "{line}: result exponent");
            total += 1;
        }
    }
    println!("fpma/fpms/fpnma/fpmpy/fpnmpy: {total} cases");
}

/// fcmp: every relation against host comparisons of doubles, p1 = relation, p2 = its
/// complement; lt/le signal Invalid on any NaN, eq/unord only on a signalling one.
#[test]
fn fcmp_matches_host_comparisons_and_signals_per_relation() {
    let mut r = Xorshift64::new(0x1234_5678_9abc_def1);
    let rels: [Rel64; 4] = [
        ("eq", |a, b| a == b, false),
        ("lt", |a, b| a < b, true),
        ("le", |a, b| a <= b, true),
        ("unord", |a, b| a.is_nan() || b.is_nan(), false),
    ];
    let mut total = 0;
    for (rel, reference, signalling) in rels {
        for unc in ["", ".unc"] {
            let line = format!("fcmp.{rel}{unc} p6,p7=f8,f9");
            let (e, ip) = compile(&line);
            for i in 0..CASES {
                let a = r.double();
                // Equal operands one time in eight.
                let b = if i % 8 == 0 { a } else { r.double() };
                let mut st = state(&[(8, from_double(a)), (9, from_double(b))]);
                st.set_p(6, i % 2 == 0);
                st.set_p(7, i % 3 == 0);
                exec_ok(&mut st, &e, ip, &line);
                let (fa, fb) = (f64::from_bits(a), f64::from_bits(b));
                let want = reference(fa, fb);
                assert_eq!((st.p(6), st.p(7)), (want, !want), "{line} {fa:e} {fb:e}");
                let nan = fa.is_nan() || fb.is_nan();
                let v = is_snan64(a) || is_snan64(b) || (signalling && nan);
                assert_eq!(sf0_flags(&st) & 1 == 1, v, "{line} {a:x} {b:x}: sf0.v");
                total += 1;
            }
        }
    }
    // A NaTVal source clears both targets and raises nothing.
    let (e, ip) = compile("fcmp.eq p6,p7=f8,f9");
    for (a, b) in [(Fr::NATVAL, from_double(0)), (from_double(0), Fr::NATVAL)] {
        let mut st = state(&[(8, a), (9, b)]);
        st.set_p(6, true);
        st.set_p(7, true);
        exec_ok(&mut st, &e, ip, "fcmp NaTVal");
        assert_eq!((st.p(6), st.p(7), sf0_flags(&st)), (false, false, 0));
    }
    println!("fcmp: {total} cases");
}

/// fcmp with p1 = p2 is an Illegal Operation fault (SDM vol. 3 fcmp).
#[test]
fn fcmp_with_equal_targets_is_an_illegal_operation() {
    let (mut e, ip) = compile("fcmp.eq p6,p7=f8,f9");
    e.ops[1] = e.ops[0];
    let mut st = state(&[]);
    match exec_on(&mut st, &e, ip) {
        Err(Trap::Guest(int)) => assert_eq!(int.vector, 0x5400, "{}", int.what),
        other => panic!("{other:?}"),
    }
}

/// fpcmp per half against host f32 comparisons (all ones or zero).
#[test]
fn fpcmp_matches_host_comparisons() {
    let mut r = Xorshift64::new(0xdead_beef_0bad_f00d);
    let rels: [Rel32; 8] = [
        ("eq", |a, b| a == b),
        ("lt", |a, b| a < b),
        ("le", |a, b| a <= b),
        ("unord", |a, b| a.is_nan() || b.is_nan()),
        ("neq", |a, b| a != b),
        ("nlt", |a, b| a.partial_cmp(&b) != Some(std::cmp::Ordering::Less)),
        ("nle", |a, b| !matches!(a.partial_cmp(&b), Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal))),
        ("ord", |a, b| !(a.is_nan() || b.is_nan())),
    ];
    let mut total = 0;
    for (rel, reference) in rels {
        let line = format!("fpcmp.{rel} f6=f7,f8");
        let (e, ip) = compile(&line);
        for i in 0..CASES {
            let v: [u32; 4] = std::array::from_fn(|_| r.single());
            let (b_hi, b_lo) = if i % 6 == 0 { (v[0], v[1]) } else { (v[2], v[3]) };
            let mut st = state(&[(7, pair(v[0], v[1])), (8, pair(b_hi, b_lo))]);
            exec_ok(&mut st, &e, ip, &line);
            let f = f32::from_bits;
            let m = |t: bool| if t { u32::MAX } else { 0 };
            let want = (m(reference(f(v[0]), f(b_hi))), m(reference(f(v[1]), f(b_lo))));
            assert_eq!(halves(st.fr[6]), want, "{line} {v:08x?}");
            total += 1;
        }
    }
    println!("fpcmp: {total} cases");
}

/// The integer fcvt.fx/.fxu deliver for `x` rounded by `round`: None when invalid.
fn to_int(x: f64, unsigned: bool, round: fn(f64) -> f64) -> Option<u64> {
    if !x.is_finite() {
        return None;
    }
    let r = round(x);
    if unsigned {
        (0.0..18_446_744_073_709_551_616.0).contains(&r).then_some(r as u64)
    } else {
        (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&r).then_some(r as i64 as u64)
    }
}

/// fcvt.fx/.fxu and .trunc against host rounding of doubles, with V and I.
#[test]
fn fcvt_fx_matches_host_rounding() {
    let mut r = Xorshift64::new(0x0f0f_1234_4321_f0f0);
    let mut total = 0;
    for (line, unsigned, round) in [
        ("fcvt.fx f6=f7", false, f64::round_ties_even as fn(f64) -> f64),
        ("fcvt.fxu f6=f7", true, f64::round_ties_even),
        ("fcvt.fx.trunc f6=f7", false, f64::trunc),
        ("fcvt.fxu.trunc f6=f7", true, f64::trunc),
    ] {
        let (e, ip) = compile(line);
        for i in 0..CASES {
            // Integers and halves near the ends of both ranges, and random doubles.
            let x = match i % 4 {
                0 => f64::from_bits(r.double()),
                1 => (r.next_u64() as i64 >> r.below(64)) as f64 + [0.0, 0.5, 0.25, -0.5][r.below(4) as usize],
                2 => {
                    f64::from_bits(((0x3fe + r.below(70)) << 52) | (r.next_u64() >> 12))
                        * if r.next_u64() & 1 == 0 { 1.0 } else { -1.0 }
                }
                _ => [9.223372036854776e18, -9.223372036854776e18, 1.8446744073709552e19, -0.4, -0.6, 0.5, 1.5, 2.5]
                    [r.below(8) as usize],
            };
            let mut st = state(&[(7, from_double(x.to_bits()))]);
            exec_ok(&mut st, &e, ip, line);
            let got = st.fr[6];
            assert_eq!((got.sign, got.exp), (false, 0x1003e), "{line} {x:e}");
            match to_int(x, unsigned, round) {
                Some(v) => {
                    assert_eq!(got.sig, v, "{line} {x:e}");
                    assert_eq!(sf0_flags(&st) & 1, 0, "{line} {x:e}: no V");
                    assert_eq!(sf0_flags(&st) >> 5 & 1 == 1, round(x) != x, "{line} {x:e}: I");
                }
                None => {
                    assert_eq!(got.sig, 1 << 63, "{line} {x:e}: integer indefinite");
                    assert_eq!(sf0_flags(&st) & 1, 1, "{line} {x:e}: V");
                }
            }
            total += 1;
        }
    }
    println!("fcvt.fx/fxu(.trunc): {total} cases");
}

/// fpcvt.fx/.fxu(.trunc) per half against host rounding of singles.
#[test]
fn fpcvt_matches_host_rounding() {
    let mut r = Xorshift64::new(0x5555_aaaa_1234_9876);
    let mut total = 0;
    for (line, unsigned, round) in [
        ("fpcvt.fx f6=f7", false, f32::round_ties_even as fn(f32) -> f32),
        ("fpcvt.fxu f6=f7", true, f32::round_ties_even),
        ("fpcvt.fx.trunc f6=f7", false, f32::trunc),
        ("fpcvt.fxu.trunc f6=f7", true, f32::trunc),
    ] {
        let (e, ip) = compile(line);
        for i in 0..CASES {
            let one = |r: &mut Xorshift64| {
                if i % 2 == 0 {
                    r.single()
                } else {
                    ((r.next_u64() as i32 >> r.below(32)) as f32 + [0.0, 0.5, -0.5, 0.25][r.below(4) as usize])
                        .to_bits()
                }
            };
            let (a, b) = (one(&mut r), one(&mut r));
            let mut st = state(&[(7, pair(a, b))]);
            exec_ok(&mut st, &e, ip, line);
            let want = |bits: u32| {
                let x = f32::from_bits(bits);
                if !x.is_finite() {
                    return 0x8000_0000;
                }
                let v = round(x);
                if unsigned {
                    if (0.0..4_294_967_296.0).contains(&v) {
                        v as u32
                    } else {
                        0x8000_0000
                    }
                } else if (-2_147_483_648.0..2_147_483_648.0).contains(&v) {
                    v as i32 as u32
                } else {
                    0x8000_0000
                }
            };
            assert_eq!(halves(st.fr[6]), (want(a), want(b)), "{line} {a:08x} {b:08x}");
            total += 1;
        }
    }
    println!("fpcvt: {total} cases");
}

/// fcvt.xf: the significand as a signed 64-bit integer, exactly, normalized.
#[test]
fn fcvt_xf_is_exact() {
    let mut r = Xorshift64::new(0x7777_1111_3333_9999);
    let (e, ip) = compile("fcvt.xf f6=f7");
    for i in 0..CASES {
        let v = if i < 4 { [0, 1, i64::MIN as u64, u64::MAX][i] } else { r.next_u64() >> r.below(64) };
        let v = if i % 2 == 1 { v.wrapping_neg() } else { v };
        let mut st = state(&[(7, Fr { sign: false, exp: 0x1003e, sig: v })]);
        exec_ok(&mut st, &e, ip, "fcvt.xf");
        let f = st.fr[6];
        let want = v as i64;
        if want == 0 {
            assert_eq!((f.exp, f.sig), (0, 0), "zero");
            continue;
        }
        assert_eq!(f.sig >> 63, 1, "normalized: {f:?}");
        let shift = 0x1003e - i64::from(f.exp);
        assert!((0..64).contains(&shift), "{v:x}: {f:?}");
        let mag = i128::from(f.sig >> shift);
        assert_eq!(f.sig & ((1u64 << shift) - 1), 0, "exact");
        assert_eq!(if f.sign { -mag } else { mag }, i128::from(want), "{v:x}: {f:?}");
    }
    println!("fcvt.xf: {CASES} cases");
}

/// fmin/fmax/famin/famax as the SDM defines them: f2 if it compares below (above) f3, else
/// f3 (so f3 on ties and NaNs); any NaN signals Invalid. Parallel forms per half.
#[test]
fn min_max_follow_their_definitions() {
    let mut r = Xorshift64::new(0x0123_4567_89ab_cdef);
    let forms: [(&str, Pick); 4] = [
        ("fmin", |a, b| a < b),
        ("fmax", |a, b| a > b),
        ("famin", |a, b| a.abs() < b.abs()),
        ("famax", |a, b| a.abs() > b.abs()),
    ];
    let mut total = 0;
    for (name, takes_f2) in forms {
        let line = format!("{name} f6=f7,f8");
        let (e, ip) = compile(&line);
        for i in 0..CASES {
            let a = r.double();
            let b = if i % 8 == 0 { a ^ (1 << 63) } else { r.double() };
            let mut st = state(&[(7, from_double(a)), (8, from_double(b))]);
            exec_ok(&mut st, &e, ip, &line);
            let want = if takes_f2(f64::from_bits(a), f64::from_bits(b)) { a } else { b };
            assert_eq!(to_double(st.fr[6]), want, "{line} {a:x} {b:x}");
            let nan = f64::from_bits(a).is_nan() || f64::from_bits(b).is_nan();
            assert_eq!(sf0_flags(&st) & 1 == 1, nan, "{line}: V");
            total += 1;
        }
        let line = format!("fp{} f6=f7,f8", &name[1..]);
        let (e, ip) = compile(&line);
        for _ in 0..CASES {
            let v: [u32; 4] = std::array::from_fn(|_| r.single());
            let mut st = state(&[(7, pair(v[0], v[1])), (8, pair(v[2], v[3]))]);
            exec_ok(&mut st, &e, ip, &line);
            let pick = |x: u32, y: u32| {
                if takes_f2(f64::from(f32::from_bits(x)), f64::from(f32::from_bits(y))) {
                    x
                } else {
                    y
                }
            };
            assert_eq!(halves(st.fr[6]), (pick(v[0], v[2]), pick(v[1], v[3])), "{line} {v:08x?}");
            total += 1;
        }
    }
    println!("fmin/fmax/famin/famax and fp*: {total} cases");
}

/// frcpa of `b` with f2 = `a` (doubles); returns (f1, p2, sf0 flags) or the trap.
fn frcpa(a: f64, b: f64) -> Result<(Fr, bool, u64), Trap> {
    let (e, ip) = compile("frcpa f6,p7=f8,f9");
    let mut st = state(&[(8, from_double(a.to_bits())), (9, from_double(b.to_bits()))]);
    exec_on(&mut st, &e, ip)?;
    Ok((st.fr[6], st.p(7), sf0_flags(&st)))
}

fn frsqrta(a: f64) -> Result<(Fr, bool, u64), Trap> {
    let (e, ip) = compile("frsqrta f6,p7=f9");
    let mut st = state(&[(9, from_double(a.to_bits()))]);
    exec_on(&mut st, &e, ip)?;
    Ok((st.fr[6], st.p(7), sf0_flags(&st)))
}

fn ok<T>(r: Result<T, Trap>) -> T {
    match r {
        Ok(v) => v,
        Err(t) => panic!("{t:?}"),
    }
}

/// The value of a finite register as f64 (exact for the approximations' 11 bits).
fn value(f: Fr) -> f64 {
    let m = f.sig as f64 * 2f64.powi(f.exp as i32 - 0xffff - 63);
    if f.sign {
        -m
    } else {
        m
    }
}

/// Hand-worked from the definition: 1.0 has fraction index 0 (entry 0x7fc), 1.5 has index
/// 0x80 (entry 0x554), and the result exponent is -1 - e; frsqrta indexes with the
/// exponent's parity: 1.0 (odd biased exponent 0xffff) entry 0x80 = 0x7fc, 2.0 entry 0 =
/// 0x5a5, 4.0 entry 0x80 again one binade down.
#[test]
fn recip_approximations_hand_worked_vectors() {
    let cases = [
        (1.0, 0x7fc as f64 / 1024.0 / 2.0),
        (1.5, 0x554 as f64 / 1024.0 / 2.0),
        (-3.0, -(0x554 as f64) / 1024.0 / 4.0),
        (0.75, 0x554 as f64 / 1024.0),
        (1.99999, 0x401 as f64 / 1024.0 / 2.0),
        (1.0 + 1.0 / 256.0, 0x7f4 as f64 / 1024.0 / 2.0),
    ];
    for (b, want) in cases {
        let (f, p2, flags) = ok(frcpa(1.0, b));
        assert_eq!((value(f), p2, flags), (want, true, 0), "frcpa 1/{b}");
        assert_eq!(f.sig & ((1 << 53) - 1), 0, "11 significant bits");
    }
    for (x, want) in [
        (1.0, 0x7fc as f64 / 1024.0 / 2.0),
        (2.0, 0x5a5 as f64 / 1024.0 / 2.0),
        (4.0, 0x7fc as f64 / 1024.0 / 4.0),
        (3.0, 0x49d as f64 / 1024.0 / 2.0),
    ] {
        let (f, p2, _) = ok(frsqrta(x));
        assert_eq!((value(f), p2), (want, true), "frsqrta {x}");
    }
}

/// On random normal operands the approximations meet the SDM's accuracy bounds
/// (|frcpa(b) * b - 1| < 2^-8.886, |frsqrta(x) * sqrt(x) - 1| < 2^-8.831) with p2 = 1 and
/// the divisor's sign.
#[test]
fn recip_approximations_meet_the_sdm_bounds() {
    let mut r = Xorshift64::new(0xabcd_ef01_2345_6789);
    for _ in 0..CASES {
        let b = f64::from_bits(((0x3ff - 500 + r.below(1000)) << 52) | (r.next_u64() >> 12))
            * if r.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
        let (f, p2, _) = ok(frcpa(1.0, b));
        assert!(p2, "frcpa 1/{b}");
        assert_eq!(f.sign, b < 0.0);
        assert!((value(f) * b - 1.0).abs() < 2f64.powf(-8.886), "frcpa {b}: {}", value(f));
        let x = b.abs();
        let (f, p2, _) = ok(frsqrta(x));
        assert!(p2 && !f.sign, "frsqrta {x}");
        assert!((value(f) * x.sqrt() - 1.0).abs() < 2f64.powf(-8.831), "frsqrta {x}: {}", value(f));
    }
    // Parallel forms: both halves approximate; p2 = 1 only when both are in range.
    let (e, ip) = compile("fprcpa f6,p7=f8,f9");
    let (es, ips) = compile("fprsqrta f6,p7=f9");
    for _ in 0..CASES {
        let sgl = |r: &mut Xorshift64| (((127 - 40 + r.below(80)) << 23) as u32) | (r.next_u64() as u32 & 0x7f_ffff);
        let (a, b) = (sgl(&mut r), sgl(&mut r));
        let one = 0x3f80_0000;
        let mut st = state(&[(8, pair(one, one)), (9, pair(a, b))]);
        exec_ok(&mut st, &e, ip, "fprcpa");
        let (hi, lo) = halves(st.fr[6]);
        for (x, y) in [(a, hi), (b, lo)] {
            let err = f64::from(f32::from_bits(y)) * f64::from(f32::from_bits(x)) - 1.0;
            assert!(err.abs() < 2f64.powf(-8.886), "fprcpa {x:08x}: {y:08x}");
        }
        assert!(st.p(7), "fprcpa p2");
        let mut st = state(&[(9, pair(a, b))]);
        exec_ok(&mut st, &es, ips, "fprsqrta");
        let (hi, lo) = halves(st.fr[6]);
        for (x, y) in [(a, hi), (b, lo)] {
            let err = f64::from(f32::from_bits(y)) * f64::from(f32::from_bits(x)).sqrt() - 1.0;
            assert!(err.abs() < 2f64.powf(-8.831), "fprsqrta {x:08x}: {y:08x}");
        }
        assert!(st.p(7), "fprsqrta p2");
    }
    println!("frcpa/frsqrta/fprcpa/fprsqrta: {} cases each", CASES);
}

/// The p2 = 0 cases deliver the quotient (frcpa) or the square root (frsqrta) itself.
#[test]
fn recip_special_cases_clear_p2() {
    let inf = f64::INFINITY;
    let check = |got: (Fr, bool, u64), want: f64, flags: u64, what: &str| {
        let (f, p2, fl) = got;
        let v = f64::from_bits(to_double(f));
        assert!(!p2, "{what}: p2");
        assert!((v.is_nan() && want.is_nan()) || v.to_bits() == want.to_bits(), "{what}: {v}");
        assert_eq!(fl, flags, "{what}: flags");
    };
    check(ok(frcpa(0.0, 3.0)), 0.0, 0, "0/3");
    check(ok(frcpa(-0.0, 3.0)), -0.0, 0, "-0/3");
    check(ok(frcpa(inf, -3.0)), -inf, 0, "inf/-3");
    check(ok(frcpa(3.0, inf)), 0.0, 0, "3/inf");
    check(ok(frcpa(3.0, -0.0)), -inf, 4, "3/-0: Z");
    check(ok(frcpa(0.0, 0.0)), f64::NAN, 1, "0/0: V");
    check(ok(frcpa(inf, inf)), f64::NAN, 1, "inf/inf: V");
    check(ok(frcpa(f64::NAN, 1.0)), f64::NAN, 0, "qnan");
    check(ok(frsqrta(0.0)), 0.0, 0, "sqrt 0");
    check(ok(frsqrta(-0.0)), -0.0, 0, "sqrt -0");
    check(ok(frsqrta(inf)), inf, 0, "sqrt inf");
    check(ok(frsqrta(-1.0)), f64::NAN, 1, "sqrt -1: V");
    // A double denormal divisor is a denormal operand: D, and the approximation.
    let (_, p2, flags) = ok(frcpa(1.0, f64::from_bits(0x0008_0000_0000_0000)));
    assert!(p2 && flags == 2, "denormal divisor: {flags}");
    // NaTVal: NaTVal and p2 = 0.
    let (e, ip) = compile("frcpa f6,p7=f8,f9");
    let mut st = state(&[(8, Fr::NATVAL), (9, from_double(1f64.to_bits()))]);
    st.set_p(7, true);
    exec_ok(&mut st, &e, ip, "natval");
    assert_eq!((st.fr[6], st.p(7)), (Fr::NATVAL, false));
    // fprcpa: a single denormal divisor gives an infinity of its sign, p2 = 0.
    let (e, ip) = compile("fprcpa f6,p7=f8,f9");
    let mut st = state(&[(8, pair(0x3f80_0000, 0x3f80_0000)), (9, pair(0x8000_0001, 0x3f80_0000))]);
    exec_ok(&mut st, &e, ip, "fprcpa denormal");
    assert_eq!((halves(st.fr[6]).0, st.p(7)), (0xff80_0000, false));
    // fprsqrta: +inf gives +0 and a zero an infinity of its sign.
    let (e, ip) = compile("fprsqrta f6,p7=f9");
    let mut st = state(&[(9, pair(0x7f80_0000, 0x8000_0000))]);
    exec_ok(&mut st, &e, ip, "fprsqrta specials");
    assert_eq!((halves(st.fr[6]), st.p(7)), ((0, 0xff80_0000), false));
}

/// Operands the Newton sequence could not finish in the register range take the Software
/// Assist fault: FP Exception fault, ISR.code swa (bit 3), nothing written.
#[test]
fn recip_out_of_range_operands_take_the_software_assist_fault() {
    let tiny = Fr { sign: false, exp: 1, sig: 1 << 63 }; // 2^-65534
    let tinier = Fr { sign: false, exp: 1, sig: 1 << 62 }; // an unnormal one binade lower
    let huge = Fr { sign: false, exp: 0x1fffd, sig: 1 << 63 };
    let one = from_double(1f64.to_bits());
    let (e, ip) = compile("frcpa f6,p7=f8,f9");
    let (es, ips) = compile("frsqrta f6,p7=f9");
    for (what, num, den) in [("tiny divisor", one, tinier), ("huge divisor", one, huge), ("tiny dividend", tiny, one)] {
        let mut st = state(&[(8, num), (9, den), (6, one)]);
        match exec_on(&mut st, &e, ip) {
            Err(Trap::Guest(int)) => assert_eq!((int.vector, int.code), (0x5c00, 0x8), "{what}: {}", int.what),
            other => panic!("{what}: {other:?}"),
        }
        assert_eq!(st.fr[6], one, "{what}: f1 not written");
    }
    let mut st = state(&[(9, tiny)]);
    match exec_on(&mut st, &es, ips) {
        Err(Trap::Guest(int)) => assert_eq!((int.vector, int.code), (0x5c00, 0x8)),
        other => panic!("frsqrta tiny: {other:?}"),
    }
}

/// fpack: two register values as singles in the memory format, f2 high.
#[test]
fn fpack_packs_two_singles() {
    let mut r = Xorshift64::new(0x2468_ace0_1357_9bdf);
    let (e, ip) = compile("fpack f6=f7,f8");
    for _ in 0..CASES {
        let (a, b) = (r.single(), r.single());
        let mut st = state(&[(7, from_single(a)), (8, from_single(b))]);
        exec_ok(&mut st, &e, ip, "fpack");
        assert_eq!((halves(st.fr[6]), st.fr[6].exp, to_single(from_single(a))), ((a, b), 0x1003e, a));
    }
    let mut st = state(&[(7, Fr::NATVAL), (8, from_single(0))]);
    exec_ok(&mut st, &e, ip, "fpack natval");
    assert_eq!(st.fr[6], Fr::NATVAL);
    println!("fpack: {CASES} cases");
}

/// fchkf.sf branches when sf has a flag sf0 lacks or a flag whose trap is enabled.
#[test]
fn fchkf_branches_on_new_or_enabled_flags() {
    let mut r = Xorshift64::new(0x1111_2222_3333_4444);
    let mut taken = 0;
    for sf in 1..4u64 {
        let (e, ip) = compile(&format!("fchkf.s{sf} 1f"));
        for _ in 0..CASES {
            // Sparse flags in sf, random flags in sf0, traps mostly all disabled.
            let traps = if r.below(4) == 0 { r.next_u64() & 0x3f } else { 0x3f };
            let sfx_flags = r.next_u64() & r.next_u64() & 0x3f;
            let sf0_flags = r.next_u64() & 0x3f;
            let fpsr = traps | (sf0_flags << 13) | (sfx_flags << (6 + 13 * sf + 7));
            let mut st = state(&[]);
            st.ar[ar::FPSR as usize] = fpsr;
            let flags = (fpsr >> (6 + 13 * sf + 7)) & 0x3f;
            let sf0 = (fpsr >> 13) & 0x3f;
            let enabled = !fpsr & 0x3f;
            let want = flags & !sf0 != 0 || flags & enabled != 0;
            let flow = exec_ok(&mut st, &e, ip, "fchkf");
            assert_eq!(flow, if want { Flow::Branch(ip + 16) } else { Flow::Next }, "sf{sf} fpsr {fpsr:x}");
            taken += usize::from(want);
        }
    }
    assert!(taken > 100 && taken < 3 * CASES - 100, "both outcomes exercised: {taken}");
}

/// Whole runs: an enabled invalid in fpma's high half faults with ISR.code v in bit 4; an
/// enabled inexact in fcvt.fx traps with ISR.code i in bit 13 and fp in bit 0 (the scalar
/// half's o u i fpa are bits 11-14, SDM vol. 1 5.4.1.3 and Linux's handle_fpu_swa); `.unc` under a false
/// predicate clears both targets.
#[test]
fn whole_runs_raise_the_fp_vectors_and_nullify_unc() {
    let unhandled = |body: &str| match exec_error(body, &RunConfig::default()) {
        ExecError::Unhandled { vector, what, .. } => (vector, what),
        other => panic!("expected an unhandled interruption, got {other}"),
    };
    // High half: inf * 0 (0x7f800000 * 0), low half 1 * 1; sf0 traps: vd clear.
    let (vector, what) = unhandled(
        "\tmovl r2=0x9804c0270033e ;;\n\tmov.m ar.fpsr=r2\n\tmovl r3=0x7f8000003f800000\n\
         \tmovl r4=0x000000003f800000 ;;\n\tsetf.sig f7=r3\n\tsetf.sig f8=r4 ;;\n\tfpmpy f6=f7,f8 ;;",
    );
    assert_eq!(vector, 0x5c00, "{what}");
    assert!(what.contains("ISR.code 0x10)"), "{what}");
    // fcvt.fx of 0.5 with the inexact trap enabled (id clear).
    let (vector, what) = unhandled(
        "\tmovl r2=0x9804c0270031f ;;\n\tmov.m ar.fpsr=r2\n\tmovl r3=0x3fe0000000000000 ;;\n\
         \tsetf.d f7=r3 ;;\n\tfcvt.fx f6=f7 ;;",
    );
    assert_eq!(vector, 0x5d00, "{what}");
    assert!(what.contains("ISR.code 0x2001)"), "{what}");
    let r = run("\tcmp.eq p6,p7=r0,r0\n\tcmp.ne p1,p2=r0,r0 ;;\n\t(p1) fcmp.eq.unc p6,p7=f1,f1 ;;");
    assert!(!p(&r, 6) && !p(&r, 7), "fcmp.unc under a false predicate clears both");
    // frcpa under a false predicate writes nothing but clears p2.
    let r = run("\tcmp.eq p7,p8=r0,r0\n\tcmp.ne p1,p2=r0,r0 ;;\n\t(p1) frcpa f6,p7=f1,f1 ;;\n\tgetf.sig r8=f6 ;;");
    assert!(!p(&r, 7), "frcpa under a false predicate clears p2");
    assert_eq!(reg(&r, "r8"), 0, "f6 untouched");
    let r = run("\tmovl r2=0x9804c0270033f ;;\n\tmov.m ar.fpsr=r2\n\tmovl r3=0x4000000000000000 ;;\n\
         \tsetf.d f7=r3 ;;\n\tfrcpa f6,p7=f1,f7 ;;\n\tgetf.d r8=f6\n\tmov r9=pr ;;");
    assert_eq!(f64::from_bits(reg(&r, "r8")), 0x7fc as f64 / 1024.0 / 4.0, "frcpa 1/2");
    assert_eq!(reg(&r, "r9") >> 7 & 1, 1, "p7");
}
