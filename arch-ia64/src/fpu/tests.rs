//! Quirks of the FP unit, one test each (the broad differential test is
//! `tests/ia64_fpu_diff.rs`).

use super::class::QNAN_INDEFINITE;
use super::cmp::{fcmp, Relation};
use super::env::{fpsr_with_flags, Env, EnvError, Event, Flags, Precision, StatusField};
use super::fma::{fma, FmaOp};
use super::memfmt::{from_double, from_single, to_double, to_single};
use super::parallel::fpma;
use crate::state::fr::Fr;

/// Linux's default FPSR: traps disabled, sf0 extended/nearest, sf1 wre, sf2/sf3 td.
const LINUX_FPSR: u64 = 0x0009_804c_0270_033f;

fn d(x: f64) -> Fr {
    from_double(x.to_bits())
}

fn env(p: Precision) -> Env {
    match Env::new(LINUX_FPSR, 0, p) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    }
}

/// fmpy is fma with f2 = f0, which adds nothing: a zero product keeps its sign. Adding
/// +0 instead would turn -0 into +0 in round to nearest.
#[test]
fn fmpy_keeps_the_sign_of_a_zero_product() {
    let e = env(Precision::Double);
    let p = fma(FmaOp::Fma, d(-0.0), d(5.0), None, &e);
    assert_eq!(to_double(p.value), (-0.0f64).to_bits());
    let s = fma(FmaOp::Fma, d(-0.0), d(5.0), Some(d(0.0)), &e);
    assert_eq!(to_double(s.value), 0.0f64.to_bits());
}

/// The status fields of the Linux default decode to what the kernel meant.
#[test]
fn linux_default_status_fields() {
    let s0 = StatusField::of(LINUX_FPSR, 0);
    assert_eq!((s0.pc, s0.wre, s0.td, s0.ftz), (3, false, false, false));
    assert!(StatusField::of(LINUX_FPSR, 1).wre);
    assert!(StatusField::of(LINUX_FPSR, 2).td && StatusField::of(LINUX_FPSR, 3).td);
    assert_eq!(fpsr_with_flags(0, 1, Flags::I), 1 << (19 + 12));
}

/// pc = 01 is reserved: a dynamic-precision operation cannot be formed.
#[test]
fn reserved_precision_control_is_an_error() {
    assert_eq!(Env::new(1 << 8, 0, Precision::Dynamic), Err(EnvError::ReservedPc(0)));
    assert!(Env::new(1 << 8, 0, Precision::Double).is_ok(), ".d ignores pc");
}

/// NaN propagation takes f4 first, then f2, then f3; a signalling NaN anywhere raises V.
#[test]
fn nan_propagation_order_is_f4_f2_f3() {
    let e = env(Precision::Dynamic);
    let q = |payload: u64| Fr { sign: false, exp: 0x1FFFF, sig: (3 << 62) | payload };
    let snan = Fr { sign: false, exp: 0x1FFFF, sig: (1 << 63) | 7 };
    assert_eq!(fma(FmaOp::Fma, q(3), q(4), Some(q(2)), &e).value, q(4));
    assert_eq!(fma(FmaOp::Fma, q(3), d(1.0), Some(q(2)), &e).value, q(2));
    let o = fma(FmaOp::Fma, snan, d(1.0), None, &e);
    assert_eq!(o.value, Fr { sig: snan.sig | 1 << 62, ..snan });
    assert_eq!(o.flags, Flags::V);
}

/// Pseudo-NaNs (exponent 0x1FFFF, integer bit clear) are unsupported: Invalid and the QNaN
/// indefinite, before any NaN rule.
#[test]
fn unsupported_operands_give_the_indefinite() {
    let pseudo = Fr { sign: false, exp: 0x1FFFF, sig: 5 };
    let o = fma(FmaOp::Fma, pseudo, d(1.0), None, &env(Precision::Dynamic));
    assert_eq!((o.value, o.flags), (QNAN_INDEFINITE, Flags::V));
}

/// A single denormal loads as an unnormal with exponent 0xFF81 and stores back unchanged;
/// it is a denormal operand (D) to arithmetic.
#[test]
fn single_denormals_load_as_unnormals() {
    let f = from_single(0x0000_0001);
    assert_eq!((f.exp, f.sig), (0xFF81, 1 << 40));
    assert_eq!(to_single(f), 1);
    let o = fma(FmaOp::Fma, f, d(1.0), None, &env(Precision::Single));
    assert!(o.flags.has(Flags::D));
}

/// eq and unord are quiet on a QNaN, lt and le signal Invalid.
#[test]
fn fcmp_signals_invalid_on_quiet_nans_only_for_ordering_relations() {
    let e = env(Precision::Dynamic);
    let nan = d(f64::NAN);
    assert!(fcmp(Relation::Eq, nan, d(1.0), &e).flags.is_empty());
    assert!(fcmp(Relation::Unord, nan, d(1.0), &e).value);
    assert_eq!(fcmp(Relation::Lt, nan, d(1.0), &e).flags, Flags::V);
}

/// An enabled fault in the high half of a parallel operation is reported in ISR.code bits
/// 4-6, and nothing of the low half hides it.
#[test]
fn parallel_faults_report_the_half() {
    // Everything enabled except inexact.
    let e = match Env::new(0x20, 0, Precision::Parallel) {
        Ok(e) => e,
        Err(err) => panic!("{err}"),
    };
    let inf = f32::INFINITY.to_bits();
    let pack = |h: u32, l: u32| Fr { sign: false, exp: 0x1003E, sig: u64::from(h) << 32 | u64::from(l) };
    let one = 1.0f32.to_bits();
    let o = fpma(FmaOp::Fma, pack(inf, one), pack(0, one), None, &e);
    assert_eq!(o.event, Event::Fault { low: Flags::NONE, high: Flags::V });
    assert_eq!(o.event.isr_code(), Some(0x10));
}

/// An enabled overflow traps with the unbounded-exponent result in the 17-bit register
/// exponent, and ISR.code o (bit 11: the scalar o u i fpa are bits 11-14).
#[test]
fn enabled_overflow_delivers_the_unbounded_result() {
    let e = match Env::new(0x3F & !8, 0, Precision::Double) {
        Ok(e) => e,
        Err(err) => panic!("{err}"),
    };
    let o = fma(FmaOp::Fma, d(f64::MAX), d(2.0), None, &e);
    assert_eq!(o.value.exp, 0xFFFF + 1024);
    assert_eq!(o.event, Event::Trap { low: Flags::O, high: Flags::NONE, fpa: false, fpa_high: false });
    assert_eq!(o.event.isr_code(), Some(0x801));
}
