//! frcpa, frsqrta, fprcpa, fprsqrta: the reciprocal and reciprocal square root
//! approximations of SDM vol. 3 (frcpa/frsqrta/fprcpa/fprsqrta pages and the pseudo-code
//! functions `fp_ieee_recip`/`fp_ieee_recip_sqrt`, each a 256-entry table lookup giving an
//! 11-bit significand).
//!
//! The table values are architectural data: SDM vol. 3 fp_ieee_recip tables, values as in
//! Ski src/float.c. The code around them is written here.
//!
//! Each operation returns the value for f1 and the predicate for p2. p2 = 1 only when the
//! approximation was delivered; p2 = 0 with the final answer itself when the operands make
//! the iteration pointless (NaNs, infinities, zeros: the IEEE quotient or square root), and
//! the scalar forms raise the Software Assist fault (ISR.code swa) when the Newton sequence
//! the approximation seeds could overflow or underflow in the register range: a divisor
//! exponent at either end of the 17-bit range, a quotient exponent estimate beyond it, or a
//! dividend (or square-root operand) within 64 binades of the bottom.

use super::class::{classify, exact, inf, quiet, zero, Class, BIAS, QNAN_INDEFINITE};
use super::env::{Env, Event, Flags, Outcome};
use super::memfmt::{from_single, to_single};
use super::parallel::{combine, halves, pack};
use crate::state::fr::Fr;

/// fp_ieee_recip: 11-bit approximations of 1/x for x in [1, 2), indexed by the 8 fraction
/// bits below the integer bit (the integer bit of each entry is bit 10).
#[rustfmt::skip]
const RECIP: [u16; 256] = [
    0x7fc, 0x7f4, 0x7ec, 0x7e4, 0x7dd, 0x7d5, 0x7cd, 0x7c6,
    0x7be, 0x7b7, 0x7af, 0x7a8, 0x7a1, 0x799, 0x792, 0x78b,
    0x784, 0x77d, 0x776, 0x76f, 0x768, 0x761, 0x75b, 0x754,
    0x74d, 0x746, 0x740, 0x739, 0x733, 0x72c, 0x726, 0x720,
    0x719, 0x713, 0x70d, 0x707, 0x700, 0x6fa, 0x6f4, 0x6ee,
    0x6e8, 0x6e2, 0x6dc, 0x6d7, 0x6d1, 0x6cb, 0x6c5, 0x6bf,
    0x6ba, 0x6b4, 0x6af, 0x6a9, 0x6a3, 0x69e, 0x699, 0x693,
    0x68e, 0x688, 0x683, 0x67e, 0x679, 0x673, 0x66e, 0x669,
    0x664, 0x65f, 0x65a, 0x655, 0x650, 0x64b, 0x646, 0x641,
    0x63c, 0x637, 0x632, 0x62e, 0x629, 0x624, 0x61f, 0x61b,
    0x616, 0x611, 0x60d, 0x608, 0x604, 0x5ff, 0x5fb, 0x5f6,
    0x5f2, 0x5ed, 0x5e9, 0x5e5, 0x5e0, 0x5dc, 0x5d8, 0x5d4,
    0x5cf, 0x5cb, 0x5c7, 0x5c3, 0x5bf, 0x5bb, 0x5b6, 0x5b2,
    0x5ae, 0x5aa, 0x5a6, 0x5a2, 0x59e, 0x59a, 0x597, 0x593,
    0x58f, 0x58b, 0x587, 0x583, 0x57f, 0x57c, 0x578, 0x574,
    0x571, 0x56d, 0x569, 0x566, 0x562, 0x55e, 0x55b, 0x557,
    0x554, 0x550, 0x54d, 0x549, 0x546, 0x542, 0x53f, 0x53b,
    0x538, 0x534, 0x531, 0x52e, 0x52a, 0x527, 0x524, 0x520,
    0x51d, 0x51a, 0x517, 0x513, 0x510, 0x50d, 0x50a, 0x507,
    0x503, 0x500, 0x4fd, 0x4fa, 0x4f7, 0x4f4, 0x4f1, 0x4ee,
    0x4eb, 0x4e8, 0x4e5, 0x4e2, 0x4df, 0x4dc, 0x4d9, 0x4d6,
    0x4d3, 0x4d0, 0x4cd, 0x4ca, 0x4c8, 0x4c5, 0x4c2, 0x4bf,
    0x4bc, 0x4b9, 0x4b7, 0x4b4, 0x4b1, 0x4ae, 0x4ac, 0x4a9,
    0x4a6, 0x4a4, 0x4a1, 0x49e, 0x49c, 0x499, 0x496, 0x494,
    0x491, 0x48e, 0x48c, 0x489, 0x487, 0x484, 0x482, 0x47f,
    0x47c, 0x47a, 0x477, 0x475, 0x473, 0x470, 0x46e, 0x46b,
    0x469, 0x466, 0x464, 0x461, 0x45f, 0x45d, 0x45a, 0x458,
    0x456, 0x453, 0x451, 0x44f, 0x44c, 0x44a, 0x448, 0x445,
    0x443, 0x441, 0x43f, 0x43c, 0x43a, 0x438, 0x436, 0x433,
    0x431, 0x42f, 0x42d, 0x42b, 0x429, 0x426, 0x424, 0x422,
    0x420, 0x41e, 0x41c, 0x41a, 0x418, 0x415, 0x413, 0x411,
    0x40f, 0x40d, 0x40b, 0x409, 0x407, 0x405, 0x403, 0x401,
];

/// fp_ieee_recip_sqrt: 11-bit approximations of 1/sqrt(x), indexed by the exponent's low bit
/// (bit 7: 0 for x in [2, 4), 1 for [1, 2)) and the 7 fraction bits below the integer bit.
#[rustfmt::skip]
const RECIP_SQRT: [u16; 256] = [
    0x5a5, 0x5a0, 0x59a, 0x595, 0x58f, 0x58a, 0x585, 0x580,
    0x57a, 0x575, 0x570, 0x56b, 0x566, 0x561, 0x55d, 0x558,
    0x553, 0x54e, 0x54a, 0x545, 0x540, 0x53c, 0x538, 0x533,
    0x52f, 0x52a, 0x526, 0x522, 0x51e, 0x51a, 0x515, 0x511,
    0x50d, 0x509, 0x505, 0x501, 0x4fd, 0x4fa, 0x4f6, 0x4f2,
    0x4ee, 0x4ea, 0x4e7, 0x4e3, 0x4df, 0x4dc, 0x4d8, 0x4d5,
    0x4d1, 0x4ce, 0x4ca, 0x4c7, 0x4c3, 0x4c0, 0x4bd, 0x4b9,
    0x4b6, 0x4b3, 0x4b0, 0x4ad, 0x4a9, 0x4a6, 0x4a3, 0x4a0,
    0x49d, 0x49a, 0x497, 0x494, 0x491, 0x48e, 0x48b, 0x488,
    0x485, 0x482, 0x47f, 0x47d, 0x47a, 0x477, 0x474, 0x471,
    0x46f, 0x46c, 0x469, 0x467, 0x464, 0x461, 0x45f, 0x45c,
    0x45a, 0x457, 0x454, 0x452, 0x44f, 0x44d, 0x44a, 0x448,
    0x445, 0x443, 0x441, 0x43e, 0x43c, 0x43a, 0x437, 0x435,
    0x433, 0x430, 0x42e, 0x42c, 0x429, 0x427, 0x425, 0x423,
    0x420, 0x41e, 0x41c, 0x41a, 0x418, 0x416, 0x414, 0x411,
    0x40f, 0x40d, 0x40b, 0x409, 0x407, 0x405, 0x403, 0x401,
    0x7fc, 0x7f4, 0x7ec, 0x7e5, 0x7dd, 0x7d5, 0x7ce, 0x7c7,
    0x7bf, 0x7b8, 0x7b1, 0x7aa, 0x7a3, 0x79c, 0x795, 0x78e,
    0x788, 0x781, 0x77a, 0x774, 0x76d, 0x767, 0x761, 0x75a,
    0x754, 0x74e, 0x748, 0x742, 0x73c, 0x736, 0x730, 0x72b,
    0x725, 0x71f, 0x71a, 0x714, 0x70f, 0x709, 0x704, 0x6fe,
    0x6f9, 0x6f4, 0x6ee, 0x6e9, 0x6e4, 0x6df, 0x6da, 0x6d5,
    0x6d0, 0x6cb, 0x6c6, 0x6c1, 0x6bd, 0x6b8, 0x6b3, 0x6ae,
    0x6aa, 0x6a5, 0x6a1, 0x69c, 0x698, 0x693, 0x68f, 0x68a,
    0x686, 0x682, 0x67d, 0x679, 0x675, 0x671, 0x66d, 0x668,
    0x664, 0x660, 0x65c, 0x658, 0x654, 0x650, 0x64c, 0x649,
    0x645, 0x641, 0x63d, 0x639, 0x635, 0x632, 0x62e, 0x62a,
    0x627, 0x623, 0x620, 0x61c, 0x618, 0x615, 0x611, 0x60e,
    0x60a, 0x607, 0x604, 0x600, 0x5fd, 0x5f9, 0x5f6, 0x5f3,
    0x5f0, 0x5ec, 0x5e9, 0x5e6, 0x5e3, 0x5df, 0x5dc, 0x5d9,
    0x5d6, 0x5d3, 0x5d0, 0x5cd, 0x5ca, 0x5c7, 0x5c4, 0x5c1,
    0x5be, 0x5bb, 0x5b8, 0x5b5, 0x5b2, 0x5af, 0x5ac, 0x5aa,
];

/// The biased register exponent of the top bit of finite non-zero `f` once normalized (may
/// be below 1 for denormals), and the normalized significand.
fn normalized(f: Fr) -> (i32, u64) {
    let (m, x) = exact(f);
    let lz = m.leading_zeros();
    (x + 63 - lz as i32 + BIAS, m << lz)
}

/// fp_ieee_recip of finite non-zero `den`: sign kept, exponent -1 - e.
fn ieee_recip(den: Fr) -> Fr {
    let (e, sig) = normalized(den);
    let index = ((sig >> 55) & 0xFF) as usize;
    Fr { sign: den.sign, exp: (2 * BIAS - 1 - e) as u32 & 0x1FFFF, sig: u64::from(RECIP[index]) << 53 }
}

/// fp_ieee_recip_sqrt of positive finite non-zero `f`: exponent -1 - floor(e / 2).
fn ieee_recip_sqrt(f: Fr) -> Fr {
    let (e, sig) = normalized(f);
    let index = (((e & 1) << 7) as usize) | ((sig >> 56) & 0x7F) as usize;
    let exp = (BIAS - 1 - ((e - BIAS) >> 1)) as u32 & 0x1FFFF;
    Fr { sign: false, exp, sig: u64::from(RECIP_SQRT[index]) << 53 }
}

/// A result with its predicate.
type Approx = Outcome<(Fr, bool)>;

fn out(value: Fr, p2: bool, flags: Flags, env: &Env) -> Approx {
    Outcome::new((value, p2), flags, false, env)
}

/// The D flag of a denormal or unnormal operand among `cs`.
fn denormal(cs: &[Class]) -> Flags {
    if cs.contains(&Class::Unnormal) {
        Flags::D
    } else {
        Flags::NONE
    }
}

/// The cases frcpa and fprcpa share before their own: NaNs (V on a signalling one, the
/// first NaN of f2, f3 made quiet), inf/inf and 0/0 (V, QNaN indefinite), x/0 (Z, an
/// infinity), then the results that need no approximation: inf/x is infinite, 0/x and x/inf
/// are zero. `None`: both finite non-zero.
fn divide_special(num: Fr, den: Fr, cn: Class, cd: Class, env: &Env) -> Option<Approx> {
    let sign = num.sign ^ den.sign;
    if cn.is_nan() || cd.is_nan() {
        let v = if cn == Class::SNan || cd == Class::SNan { Flags::V } else { Flags::NONE };
        return Some(out(quiet(if cn.is_nan() { num } else { den }), false, v, env));
    }
    if (cn == Class::Inf && cd == Class::Inf) || (cn == Class::Zero && cd == Class::Zero) {
        return Some(out(QNAN_INDEFINITE, false, Flags::V, env));
    }
    if cn != Class::Inf && cd == Class::Zero {
        return Some(out(inf(sign), false, Flags::Z, env));
    }
    None
}

/// frcpa f1, p2 = f2, f3: the approximation of 1/f3 with p2 = 1, or the quotient f2/f3
/// itself with p2 = 0 (see the module documentation). NaTVal gives NaTVal and p2 = 0.
pub fn frcpa(num: Fr, den: Fr, env: &Env) -> Approx {
    let (cn, cd) = (classify(num), classify(den));
    if cn == Class::NatVal || cd == Class::NatVal {
        return out(Fr::NATVAL, false, Flags::NONE, env);
    }
    if cn == Class::Unsupported || cd == Class::Unsupported {
        return out(QNAN_INDEFINITE, false, Flags::V, env);
    }
    if let Some(o) = divide_special(num, den, cn, cd, env) {
        return o;
    }
    let sign = num.sign ^ den.sign;
    if cn.is_finite_nonzero() && cd.is_finite_nonzero() {
        let ((en, _), (ed, _)) = (normalized(num), normalized(den));
        let estimate = en - ed;
        let assist = ed <= 0 || ed >= 2 * BIAS - 2 || estimate <= 2 - BIAS || estimate >= BIAS || en <= 64;
        if assist {
            return Outcome { value: (Fr::NATVAL, false), flags: Flags::NONE, event: Event::SwaFault };
        }
    }
    let d = denormal(&[cn, cd]);
    if cn == Class::Inf {
        return out(inf(sign), false, d, env);
    }
    if cn == Class::Zero || cd == Class::Inf {
        return out(zero(sign), false, d, env);
    }
    out(ieee_recip(den), true, d, env)
}

/// frsqrta f1, p2 = f3: the approximation of 1/sqrt(f3) with p2 = 1, or sqrt(f3) itself
/// with p2 = 0: a NaN (V if signalling or if f3 is negative and non-zero), +inf, or a zero
/// keeping its sign. NaTVal gives NaTVal and p2 = 0.
pub fn frsqrta(f3: Fr, env: &Env) -> Approx {
    let c = classify(f3);
    match c {
        Class::NatVal => return out(Fr::NATVAL, false, Flags::NONE, env),
        Class::Unsupported => return out(QNAN_INDEFINITE, false, Flags::V, env),
        Class::SNan => return out(quiet(f3), false, Flags::V, env),
        Class::QNan => return out(f3, false, Flags::NONE, env),
        _ => {}
    }
    if f3.sign && c != Class::Zero {
        return out(QNAN_INDEFINITE, false, Flags::V, env);
    }
    if c == Class::Inf {
        return out(inf(false), false, Flags::NONE, env);
    }
    if c != Class::Zero && normalized(f3).0 <= 64 {
        return Outcome { value: (Fr::NATVAL, false), flags: Flags::NONE, event: Event::SwaFault };
    }
    let d = denormal(&[c]);
    if c == Class::Zero {
        return out(f3, false, d, env);
    }
    out(ieee_recip_sqrt(f3), true, d, env)
}

/// The smallest single exponent (biased in the register format) whose reciprocal still
/// fits the single range, plus one: divisors from here up give a zero.
const SGL_RECIP_LIMIT: i32 = BIAS + 127 - 2;
/// Dividend exponents at or below this leave no room below the quotient for the
/// correction steps in single precision (1 + 127 - 24 binades above the bottom).
const SGL_NUM_LIMIT: i32 = BIAS - 127 + 24;

/// One half of fprcpa on singles: as frcpa, but a denormal divisor gives an infinity of its
/// sign and a divisor whose reciprocal is below the single range gives a zero of its sign
/// (p2 = 0 for both), and instead of the Software Assist fault p2 = 0 with the
/// approximation when the quotient estimate or the dividend leave the single range.
fn fprcpa_half(a: u32, b: u32, env: &Env) -> Outcome<(u32, bool)> {
    let o = fprcpa_value(from_single(a), from_single(b), env);
    Outcome { value: (to_single(o.value.0), o.value.1), flags: o.flags, event: o.event }
}

fn fprcpa_value(num: Fr, den: Fr, env: &Env) -> Approx {
    let (cn, cd) = (classify(num), classify(den));
    if let Some(o) = divide_special(num, den, cn, cd, env) {
        return o;
    }
    let sign = num.sign ^ den.sign;
    let d = denormal(&[cn, cd]);
    if cn == Class::Inf {
        return out(inf(sign), false, d, env);
    }
    if cn == Class::Zero || cd == Class::Inf {
        return out(zero(sign), false, d, env);
    }
    if cd == Class::Unnormal {
        return out(inf(den.sign), false, d, env);
    }
    let ((en, _), (ed, _)) = (normalized(num), normalized(den));
    if ed >= SGL_RECIP_LIMIT {
        return out(zero(den.sign), false, d, env);
    }
    let estimate = en - ed;
    let p2 = !(estimate >= 127 || estimate <= 2 - 127 || en <= SGL_NUM_LIMIT);
    out(ieee_recip(den), p2, d, env)
}

/// One half of fprsqrta on a single: as frsqrta, but +inf gives +0 and a zero gives an
/// infinity of its sign (the reciprocal square root itself, p2 = 0), and p2 = 0 with the
/// approximation when the operand is too small for the single-precision iteration.
fn fprsqrta_half(a: u32, env: &Env) -> Outcome<(u32, bool)> {
    let f = from_single(a);
    let c = classify(f);
    let o = match c {
        Class::SNan => out(quiet(f), false, Flags::V, env),
        Class::QNan => out(f, false, Flags::NONE, env),
        _ if f.sign && c != Class::Zero => out(QNAN_INDEFINITE, false, Flags::V, env),
        Class::Inf => out(zero(false), false, Flags::NONE, env),
        Class::Zero => out(inf(f.sign), false, Flags::NONE, env),
        _ => {
            let p2 = normalized(f).0 > SGL_NUM_LIMIT;
            out(ieee_recip_sqrt(f), p2, denormal(&[c]), env)
        }
    };
    Outcome { value: (to_single(o.value.0), o.value.1), flags: o.flags, event: o.event }
}

/// Joins two halves: the pair of singles, p2 = both halves' p2, faults and traps per half.
fn join(hi: Outcome<(u32, bool)>, lo: Outcome<(u32, bool)>, env: &Env) -> Approx {
    let p2 = hi.value.1 && lo.value.1;
    let part = |o: &Outcome<(u32, bool)>| Outcome { value: o.value.0, flags: o.flags, event: o.event };
    let c = combine(part(&hi), part(&lo), env);
    Outcome { value: (c.value, p2), flags: c.flags, event: c.event }
}

/// fprcpa f1, p2 = f2, f3 on pairs of singles (high half bits 63:32). NaTVal gives NaTVal
/// and p2 = 0.
pub fn fprcpa(f2: Fr, f3: Fr, env: &Env) -> Approx {
    if f2 == Fr::NATVAL || f3 == Fr::NATVAL {
        return out(Fr::NATVAL, false, Flags::NONE, env);
    }
    let (a, b) = (halves(f2), halves(f3));
    join(fprcpa_half(a[0], b[0], env), fprcpa_half(a[1], b[1], env), env)
}

/// fprsqrta f1, p2 = f3 on a pair of singles. NaTVal gives NaTVal and p2 = 0.
pub fn fprsqrta(f3: Fr, env: &Env) -> Approx {
    if f3 == Fr::NATVAL {
        return out(Fr::NATVAL, false, Flags::NONE, env);
    }
    let a = halves(f3);
    join(fprsqrta_half(a[0], env), fprsqrta_half(a[1], env), env)
}

/// The pair of singles `hi`, `lo` as a register (fpack's and the parallel results' format).
pub fn pair(hi: u32, lo: u32) -> Fr {
    pack(hi, lo)
}
