//! The reference model of fma and its rounding, written plainly from the SDM's description:
//! the exact product and sum as big integers with a binary exponent, then IEEE rounding to a
//! precision and exponent range with tininess after rounding.

use super::big::Big;
use arch_ia64::state::fr::Fr;
use std::cmp::Ordering;

pub const V: u8 = 1;
pub const D: u8 = 2;
pub const O: u8 = 8;
pub const U: u8 = 16;
pub const I: u8 = 32;

#[derive(Clone, Copy, Debug)]
pub struct RefEnv {
    pub p: u32,
    pub emin: i64,
    pub emax: i64,
    /// 0 nearest, 1 down, 2 up, 3 zero.
    pub rc: u8,
    pub ftz: bool,
    /// Enabled exceptions, V..I bits.
    pub enabled: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefOut {
    pub value: Fr,
    pub flags: u8,
    /// fpa: the delivered magnitude exceeds the exact one.
    pub fpa: bool,
}

const NATVAL: Fr = Fr { sign: false, exp: 0x1FFFE, sig: 0 };
const INDEFINITE: Fr = Fr { sign: true, exp: 0x1FFFF, sig: 0xC000_0000_0000_0000 };

pub fn is_nat(f: Fr) -> bool {
    f == NATVAL
}
pub fn is_unsupported(f: Fr) -> bool {
    f.exp == 0x1FFFF && f.sig >> 63 == 0
}
pub fn is_nan(f: Fr) -> bool {
    f.exp == 0x1FFFF && f.sig >> 63 == 1 && f.sig << 1 != 0
}
fn is_snan(f: Fr) -> bool {
    is_nan(f) && (f.sig >> 62) & 1 == 0
}
pub fn is_inf(f: Fr) -> bool {
    f.exp == 0x1FFFF && f.sig == 1 << 63
}
pub fn is_zero(f: Fr) -> bool {
    f.exp != 0x1FFFF && f.sig == 0 && !is_nat(f)
}
/// Denormal operand: finite, non-zero, integer bit clear or exponent field 0.
fn is_denormal(f: Fr) -> bool {
    f.exp != 0x1FFFF && !is_nat(f) && f.sig != 0 && (f.sig >> 63 == 0 || f.exp == 0)
}

/// A finite value as (sign, magnitude, exponent of the magnitude's bit 0).
pub fn value(f: Fr) -> (bool, Big, i64) {
    let e = if f.exp == 0 { 0xC001 } else { i64::from(f.exp) };
    (f.sign, Big::from_u128(u128::from(f.sig)), e - 0xFFFF - 63)
}

/// Rounds `mag * 2^x` to a multiple of `2^q`: (multiple, inexact, incremented).
fn round_to(sign: bool, mag: &Big, x: i64, q: i64, rc: u8) -> (Big, bool, bool) {
    if q <= x {
        return (mag.shl((x - q) as u64), false, false);
    }
    let s = (q - x) as u64;
    let kept = mag.shr(s);
    let half = mag.bit(s - 1);
    let below = mag.any_below(s - 1);
    let inexact = half || below;
    let up = match rc {
        0 => half && (below || kept.bit(0)),
        1 => sign && inexact,
        2 => !sign && inexact,
        _ => false,
    };
    let k = if up { kept.add(&Big::from_u128(1)) } else { kept };
    (k, inexact, up)
}

fn encode(sign: bool, k: u128, p: u32, top_exp: i64) -> Fr {
    // Left-align the p-bit grid value in 64 bits.
    let sig = (k << (64 - p)) as u64;
    Fr { sign, exp: ((top_exp + 0xFFFF) & 0x1FFFF) as u32, sig }
}

/// Rounds the exact non-zero `(-1)^sign * mag * 2^x`.
pub fn round(sign: bool, mag: &Big, x: i64, env: &RefEnv, flags: u8) -> RefOut {
    let p = i64::from(env.p);
    let top = x + mag.bit_len() as i64 - 1;
    // Unbounded exponent: the grid is 2^(top - p + 1).
    let (ku, inexact_u, up_u) = round_to(sign, mag, x, top - p + 1, env.rc);
    let (ku, qu) = if ku.bit_len() as i64 > p { (ku.shr(1), top - p + 2) } else { (ku, top - p + 1) };
    let top_u = qu + p - 1;
    let ku = ku.to_u128();
    if top_u > env.emax {
        if env.enabled & O != 0 {
            let f = flags | O | if inexact_u { I } else { 0 };
            return RefOut { value: encode(sign, ku, env.p, top_u), flags: f, fpa: up_u };
        }
        let to_inf = match env.rc {
            0 => true,
            1 => sign,
            2 => !sign,
            _ => false,
        };
        let value = if to_inf {
            Fr { sign, exp: 0x1FFFF, sig: 1 << 63 }
        } else {
            encode(sign, (1u128 << env.p) - 1, env.p, env.emax)
        };
        return RefOut { value, flags: flags | O | I, fpa: to_inf };
    }
    if top_u < env.emin {
        if env.enabled & U != 0 {
            let f = flags | U | if inexact_u { I } else { 0 };
            return RefOut { value: encode(sign, ku, env.p, top_u), flags: f, fpa: up_u };
        }
        if env.ftz {
            return RefOut { value: Fr { sign, exp: 0, sig: 0 }, flags: flags | U | I, fpa: false };
        }
        let (kd, inexact_d, up_d) = round_to(sign, mag, x, env.emin - p + 1, env.rc);
        let f = if inexact_d { flags | U | I } else { flags };
        let value =
            if kd.is_zero() { Fr { sign, exp: 0, sig: 0 } } else { encode(sign, kd.to_u128(), env.p, env.emin) };
        return RefOut { value, flags: f, fpa: up_d };
    }
    RefOut { value: encode(sign, ku, env.p, top_u), flags: flags | if inexact_u { I } else { 0 }, fpa: up_u }
}

/// 0 fma, 1 fms, 2 fnma; `f2` None for f0.
pub fn fma(op: u8, f3: Fr, f4: Fr, f2: Option<Fr>, env: &RefEnv) -> RefOut {
    let ops: Vec<Fr> = [Some(f3), Some(f4), f2].into_iter().flatten().collect();
    let done = |value: Fr, flags: u8| RefOut { value, flags, fpa: false };
    if ops.iter().any(|&f| is_nat(f)) {
        return done(NATVAL, 0);
    }
    if ops.iter().any(|&f| is_unsupported(f)) {
        return done(INDEFINITE, V);
    }
    let snan = if ops.iter().any(|&f| is_snan(f)) { V } else { 0 };
    let quiet = |f: Fr| Fr { sig: f.sig | 1 << 62, ..f };
    for f in [Some(f4), f2, Some(f3)].into_iter().flatten() {
        if is_nan(f) {
            return done(quiet(f), snan);
        }
    }
    let psign = f3.sign ^ f4.sign ^ (op == 2);
    let pinf = is_inf(f3) || is_inf(f4);
    if pinf && (is_zero(f3) || is_zero(f4)) {
        return done(INDEFINITE, V);
    }
    let add = f2.map(|a| (a, a.sign ^ (op == 1)));
    if let Some((a, asign)) = add {
        if pinf && is_inf(a) && asign != psign {
            return done(INDEFINITE, V);
        }
    }
    let d = if ops.iter().any(|&f| is_denormal(f)) { D } else { 0 };
    if pinf {
        return done(Fr { sign: psign, exp: 0x1FFFF, sig: 1 << 63 }, d);
    }
    if let Some((a, asign)) = add {
        if is_inf(a) {
            return done(Fr { sign: asign, exp: 0x1FFFF, sig: 1 << 63 }, d);
        }
    }
    // Exact product.
    let (_, m3, x3) = value(f3);
    let (_, m4, x4) = value(f4);
    let pm = Big::from_u128(m3.to_u128() * m4.to_u128());
    let px = x3 + x4;
    let (sign, mag, x) = match add {
        None => (psign, pm, px),
        Some((a, asign)) => {
            let (_, am, ax) = value(a);
            // Common exponent: the smaller one; shift the other left.
            let x = px.min(ax);
            let pm = pm.shl((px - x) as u64);
            let am = am.shl((ax - x) as u64);
            if asign == psign {
                (psign, pm.add(&am), x)
            } else {
                match pm.cmp(&am) {
                    Ordering::Greater => (psign, pm.sub(&am), x),
                    Ordering::Less => (asign, am.sub(&pm), x),
                    Ordering::Equal => (false, Big::zero(), x),
                }
            }
        }
    };
    if mag.is_zero() {
        let sign = match add {
            None => psign,
            Some((a, asign)) if is_zero(a) && (pm_is_zero(f3, f4)) => {
                if asign == psign {
                    psign
                } else {
                    env.rc == 1
                }
            }
            Some(_) => env.rc == 1,
        };
        return done(Fr { sign, exp: 0, sig: 0 }, d);
    }
    round(sign, &mag, x, env, d)
}

fn pm_is_zero(f3: Fr, f4: Fr) -> bool {
    is_zero(f3) || is_zero(f4)
}
