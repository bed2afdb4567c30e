//! fma, fms and fnma with one rounding (SDM vol. 3 fma/fms/fnma pages and their
//! `fma_exception_fault_check`), and what fadd, fsub, fmpy, fnmpy, fnorm and fcvt.xuf reduce
//! to: `fadd f1=f3,f2` is `fma f1=f3,f1,f2`, `fmpy f1=f3,f4` is `fma f1=f3,f4,f0`, `fnorm
//! f1=f3` and `fcvt.xuf f1=f3` are `fma f1=f3,f1,f0`.
//!
//! f2 = f0 is not an addition of +0: the product is rounded alone (so `fmpy` keeps the sign
//! of a zero product), which is why the addend is an `Option`.

use super::class::{classify, exact, inf, quiet, zero, Class, QNAN_INDEFINITE};
use super::env::{Env, Flags, Outcome, Rounding};
use super::round::round_wide;
use super::wide::Wide;
use crate::state::fr::Fr;

/// Which of the three multiply-add forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FmaOp {
    /// f3 * f4 + f2.
    Fma,
    /// f3 * f4 - f2.
    Fms,
    /// -(f3 * f4) + f2.
    Fnma,
}

/// `f1 = f3 * f4 + f2` (or fms/fnma), rounded once to `env`. `f2` is `None` when the
/// instruction names f0 (no addition). Any NaTVal operand gives NaTVal and no flags.
///
/// Order of checks (fma_exception_fault_check): unsupported operands (V, QNaN indefinite);
/// NaNs (V if any is signalling; the result is the first NaN of f4, f2, f3, made quiet);
/// infinity times zero, and infinities of opposite sign added (V, QNaN indefinite); then a
/// denormal or unnormal operand raises D, and the value is computed.
pub fn fma(op: FmaOp, f3: Fr, f4: Fr, f2: Option<Fr>, env: &Env) -> Outcome {
    let (c3, c4) = (classify(f3), classify(f4));
    let c2 = f2.map(classify);
    let all = [Some(c3), Some(c4), c2];
    if all.contains(&Some(Class::NatVal)) {
        return Outcome::new(Fr::NATVAL, Flags::NONE, false, env);
    }
    if all.contains(&Some(Class::Unsupported)) {
        return Outcome::new(QNAN_INDEFINITE, Flags::V, false, env);
    }
    let any_snan = all.contains(&Some(Class::SNan));
    let v_if_snan = if any_snan { Flags::V } else { Flags::NONE };
    if c4.is_nan() {
        return Outcome::new(quiet(f4), v_if_snan, false, env);
    }
    if let (Some(a), Some(c)) = (f2, c2) {
        if c.is_nan() {
            return Outcome::new(quiet(a), v_if_snan, false, env);
        }
    }
    if c3.is_nan() {
        return Outcome::new(quiet(f3), v_if_snan, false, env);
    }
    let psign = f3.sign ^ f4.sign ^ (op == FmaOp::Fnma);
    let pinf = c3 == Class::Inf || c4 == Class::Inf;
    let pzero = c3 == Class::Zero || c4 == Class::Zero;
    if pinf && pzero {
        return Outcome::new(QNAN_INDEFINITE, Flags::V, false, env);
    }
    let addend = f2.map(|a| (a, a.sign ^ (op == FmaOp::Fms)));
    if let (Some((_, asign)), Some(Class::Inf)) = (addend, c2) {
        if pinf && asign != psign {
            return Outcome::new(QNAN_INDEFINITE, Flags::V, false, env);
        }
    }
    let d = all.contains(&Some(Class::Unnormal));
    let flags = if d { Flags::D } else { Flags::NONE };
    if pinf {
        return Outcome::new(inf(psign), flags, false, env);
    }
    if let (Some((_, asign)), Some(Class::Inf)) = (addend, c2) {
        return Outcome::new(inf(asign), flags, false, env);
    }
    let product = if pzero {
        None
    } else {
        let ((s3, x3), (s4, x4)) = (exact(f3), exact(f4));
        Some((u128::from(s3) * u128::from(s4), x3 + x4))
    };
    let addend_val = match (addend, c2) {
        (Some((a, s)), Some(c)) if c.is_finite_nonzero() => {
            let (m, x) = exact(a);
            Some((s, u128::from(m), x))
        }
        _ => None,
    };
    match (product, addend_val) {
        (None, None) => {
            let sign = match addend {
                None => psign,
                Some((_, asign)) if asign == psign => psign,
                Some(_) => env.rc == Rounding::Down,
            };
            Outcome::new(zero(sign), flags, false, env)
        }
        (Some((m, x)), None) => round_wide(psign, Wide { hi: 0, lo: m }, x, env, flags),
        (None, Some((s, m, x))) => round_wide(s, Wide { hi: 0, lo: m }, x, env, flags),
        (Some((pm, px)), Some((s, am, ax))) => add_exact((psign, pm, px), (s, am, ax), env, flags),
    }
}

/// The exactly added sum of two non-zero signed values `m * 2^x`, rounded once.
fn add_exact(p: (bool, u128, i32), a: (bool, u128, i32), env: &Env, flags: Flags) -> Outcome {
    // Left-align both with their top bit at bit 253 of a 256-bit field: two bits of headroom
    // for the carry, and any alignment shift up to 126 bits stays exact.
    let align = |(s, m, x): (bool, u128, i32)| {
        let lz = m.leading_zeros();
        (s, Wide::shl(m, lz + 126), x - (lz + 126) as i32)
    };
    let (mut big, mut small) = (align(p), align(a));
    if (small.2, small.1) > (big.2, big.1) {
        std::mem::swap(&mut big, &mut small);
    }
    let shift = (big.2 - small.2) as u32;
    let s = small.1.shr_sticky(shift);
    let (sign, mag) = if big.0 == small.0 { (big.0, big.1.add(s)) } else { (big.0, big.1.sub(s)) };
    if mag.is_zero() {
        // Exact cancellation: +0, or -0 when rounding toward minus infinity.
        return Outcome::new(zero(env.rc == Rounding::Down), flags, false, env);
    }
    round_wide(sign, mag, big.2, env, flags)
}
