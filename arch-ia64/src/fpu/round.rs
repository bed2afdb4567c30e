//! IEEE rounding of an exact non-zero value to an [`Env`]'s precision and exponent range, and
//! its register encoding (SDM vol. 1 sections 5.2-5.4; vol. 3 `fp_ieee_round`).
//!
//! Tininess is detected after rounding (vol. 1 section 5.4.3): the result rounded to the
//! precision with an unbounded exponent lies below 2^emin. With the underflow trap disabled,
//! Underflow is signalled when the result is tiny and inexact, and the value is the exact
//! result denormalized and then rounded; with it enabled, a tiny result traps and the
//! delivered value is the unbounded-exponent rounding, as for an enabled overflow (vol. 2
//! section 8.1.2). Denormal results are encoded with the range's minimum exponent and the
//! integer bit clear (e.g. 0xFF81 for single), zero results with exponent 0.

use super::class::{inf, zero, BIAS, EXP_SPECIAL};
use super::env::{Env, Flags, Outcome, Rounding};
use super::wide::Wide;
use crate::state::fr::Fr;

/// Whether to add one unit in the last place: `keep_odd` is the last kept bit, `rem` the
/// discarded bits left-aligned in 128 bits.
fn round_up(rc: Rounding, sign: bool, keep_odd: bool, rem: u128) -> bool {
    const HALF: u128 = 1 << 127;
    match rc {
        Rounding::Nearest => rem > HALF || (rem == HALF && keep_odd),
        Rounding::Up => !sign && rem != 0,
        Rounding::Down => sign && rem != 0,
        Rounding::Zero => false,
    }
}

/// `sig` (top bit 127 set) rounded to `p` bits: (kept bits, carried out to 2^p, inexact,
/// incremented).
fn to_bits(sig: u128, p: u32, rc: Rounding, sign: bool) -> (u128, bool, bool, bool) {
    let keep = sig >> (128 - p);
    let rem = sig << p;
    let up = round_up(rc, sign, keep & 1 == 1, rem);
    let k = keep + u128::from(up);
    if k >> p != 0 {
        (k >> 1, true, rem != 0, up)
    } else {
        (k, false, rem != 0, up)
    }
}

/// A register with `p` significant bits `keep` and unbiased exponent `e` (of the top bit),
/// the exponent field taken modulo 2^17 (the trap-enabled response of an out-of-range result).
fn encode(sign: bool, keep: u128, p: u32, e: i32) -> Fr {
    let sig = (keep << (64 - p)) as u64;
    Fr { sign, exp: ((e + BIAS) as u32) & EXP_SPECIAL, sig }
}

/// The largest finite value of `env`.
fn max_finite(sign: bool, env: &Env) -> Fr {
    encode(sign, (1u128 << env.bits) - 1, env.bits, env.emax)
}

/// Rounds `(-1)^sign * sig * 2^(e - 127)` (i.e. `sig` has its top bit, bit 127, set and
/// every bit below the significant ones already folded into bit 0, and `e` is the unbiased
/// exponent of the top bit) to `env`, with `flags` already raised by the operation.
pub fn round_normalized(sign: bool, sig: u128, e: i32, env: &Env, flags: Flags) -> Outcome {
    let p = env.bits;
    let (keep, carry, inexact, up) = to_bits(sig, p, env.rc, sign);
    let eu = e + i32::from(carry);
    if eu > env.emax {
        if env.enabled.has(Flags::O) {
            let f = flags.with(Flags::O).with(if inexact { Flags::I } else { Flags::NONE });
            return Outcome::new(encode(sign, keep, p, eu), f, up, env);
        }
        let to_inf = match env.rc {
            Rounding::Nearest => true,
            Rounding::Zero => false,
            Rounding::Up => !sign,
            Rounding::Down => sign,
        };
        let v = if to_inf { inf(sign) } else { max_finite(sign, env) };
        return Outcome::new(v, flags.with(Flags::O).with(Flags::I), to_inf, env);
    }
    if eu < env.emin {
        if env.enabled.has(Flags::U) {
            let f = flags.with(Flags::U).with(if inexact { Flags::I } else { Flags::NONE });
            return Outcome::new(encode(sign, keep, p, eu), f, up, env);
        }
        if env.ftz {
            return Outcome::new(zero(sign), flags.with(Flags::U).with(Flags::I), false, env);
        }
        // Denormalize the exact value to emin, then round at the same bit positions.
        let shift = (env.emin - e) as u32;
        let d = Wide { hi: 0, lo: sig }.shr_sticky(shift).lo;
        let keep_d = d >> (128 - p);
        let rem = d << p;
        let up = round_up(env.rc, sign, keep_d & 1 == 1, rem);
        let k = keep_d + u128::from(up);
        let f = if rem != 0 { flags.with(Flags::U).with(Flags::I) } else { flags };
        let v = if k == 0 { zero(sign) } else { encode(sign, k, p, env.emin) };
        return Outcome::new(v, f, up, env);
    }
    let f = if inexact { flags.with(Flags::I) } else { flags };
    Outcome::new(encode(sign, keep, p, eu), f, up, env)
}

/// Rounds `(-1)^sign * mag * 2^lsb_exp` (`mag` non-zero) to `env`.
pub(crate) fn round_wide(sign: bool, mag: Wide, lsb_exp: i32, env: &Env, flags: Flags) -> Outcome {
    let (sig, _) = mag.top128();
    let e = lsb_exp + mag.bit_len() as i32 - 1;
    round_normalized(sign, sig, e, env, flags)
}

/// Rounds the exact value `(-1)^sign * mag * 2^lsb_exp` to `env`; `mag` = 0 gives a zero of
/// sign `sign`.
pub fn round_exact(sign: bool, mag: u128, lsb_exp: i32, env: &Env, flags: Flags) -> Outcome {
    if mag == 0 {
        return Outcome::new(zero(sign), flags, false, env);
    }
    round_wide(sign, Wide { hi: 0, lo: mag }, lsb_exp, env, flags)
}
