//! Conversions between FP values and integers in the significand (SDM vol. 3 fcvt.fx,
//! fcvt.fxu, fcvt.xf pages).

use super::class::{classify, exact, Class, BIAS, EXP_INTEGER};
use super::env::{Env, Flags, Outcome, Rounding};
use crate::state::fr::Fr;

/// The integer indefinite an invalid conversion delivers.
pub const INTEGER_INDEFINITE: u64 = 1 << 63;

/// `f` rounded to an integer with `rc`: (sign, magnitude saturated at 2^64 + 1, inexact),
/// or None for NaN/infinity/unsupported. Zeros give magnitude 0.
pub(crate) fn to_integer(f: Fr, rc: Rounding) -> Option<(bool, u128, bool)> {
    match classify(f) {
        Class::Zero => Some((f.sign, 0, false)),
        Class::Normal | Class::Unnormal => {
            let (m, x) = exact(f);
            let m = u128::from(m);
            if x >= 0 {
                // Anything shifted past bit 65 is out of every destination range.
                let len = 128 - m.leading_zeros() as i32 + x;
                return Some((f.sign, if len > 66 { 1 << 66 } else { m << x }, false));
            }
            let s = (-x) as u32;
            let (int, rem) = if s >= 128 { (0, m) } else { (m >> s, m & ((1u128 << s) - 1)) };
            // Compare the remainder with one half of 2^s.
            let half_cmp = if s >= 128 { std::cmp::Ordering::Less } else { (rem << 1).cmp(&(1u128 << s)) };
            let up = rem != 0
                && match rc {
                    Rounding::Nearest => {
                        half_cmp == std::cmp::Ordering::Greater
                            || (half_cmp == std::cmp::Ordering::Equal && int & 1 == 1)
                    }
                    Rounding::Up => !f.sign,
                    Rounding::Down => f.sign,
                    Rounding::Zero => false,
                };
            Some((f.sign, int + u128::from(up), rem != 0))
        }
        _ => None,
    }
}

/// The rounded `sign`/`mag` as a `bits`-bit integer (two's complement, or plain binary when
/// `unsigned`; -0 fits both), or `None` when it is out of range, which the conversions
/// report as Invalid with the integer indefinite.
pub(crate) fn fit_integer(unsigned: bool, sign: bool, mag: u128, bits: u32) -> Option<u64> {
    let top = 1u128 << (bits - 1);
    let mask = u64::MAX >> (64 - bits);
    match (unsigned, sign) {
        (false, false) if mag < top => Some(mag as u64),
        (false, true) if mag <= top => Some((mag as u64).wrapping_neg() & mask),
        (true, false) if mag < top << 1 => Some(mag as u64),
        (true, true) if mag == 0 => Some(0),
        _ => None,
    }
}

/// fcvt.fx / fcvt.fxu (and `.trunc`: `trunc` rounds toward zero whatever the status field
/// says): `f2` to a signed or unsigned 64-bit integer in the significand (exponent 0x1003E).
/// NaNs, infinities, unsupported values and results out of range are Invalid and give the
/// integer indefinite 2^63; a rounded result is Inexact; a denormal operand raises D.
pub fn fcvt_fx(f2: Fr, unsigned: bool, trunc: bool, env: &Env) -> Outcome {
    if f2 == Fr::NATVAL {
        return Outcome::new(Fr::NATVAL, Flags::NONE, false, env);
    }
    let indefinite = Fr { sign: false, exp: EXP_INTEGER, sig: INTEGER_INDEFINITE };
    let d = if classify(f2) == Class::Unnormal { Flags::D } else { Flags::NONE };
    let rc = if trunc { Rounding::Zero } else { env.rc };
    let Some((sign, mag, inexact)) = to_integer(f2, rc) else {
        return Outcome::new(indefinite, Flags::V, false, env);
    };
    match fit_integer(unsigned, sign, mag, 64) {
        Some(v) => {
            let f = d.with(if inexact { Flags::I } else { Flags::NONE });
            Outcome::new(Fr { sign: false, exp: EXP_INTEGER, sig: v }, f, false, env)
        }
        None => Outcome::new(indefinite, d.with(Flags::V), false, env),
    }
}

/// fcvt.xf: the 64-bit signed integer in `f2`'s significand as a normalized value (exact:
/// 64 bits fit the significand). NaTVal gives NaTVal.
pub fn fcvt_xf(f2: Fr) -> Fr {
    if f2 == Fr::NATVAL {
        return Fr::NATVAL;
    }
    let v = f2.sig as i64;
    if v == 0 {
        return Fr { sign: false, exp: 0, sig: 0 };
    }
    let m = v.unsigned_abs();
    let lz = m.leading_zeros();
    Fr { sign: v < 0, exp: (BIAS + 63 - lz as i32) as u32, sig: m << lz }
}
