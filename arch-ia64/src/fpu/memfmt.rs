//! Conversions between the register format and the memory formats (SDM vol. 1 section 5.1.3
//! Figures 5-3/5-4 and Table 5-4; vol. 3 `fp_mem_to_fr_format` / `fp_fr_to_mem_format`):
//! ldfs/ldfd/ldfe/ldf8 and setf.s/setf.d/setf.sig/setf.exp into a register, and stfs/stfd/
//! stfe/stf8 and getf.s/getf.d/getf.sig/getf.exp out of one.
//!
//! Loads are exact: a single or double denormal becomes an unnormal with the format's
//! minimum exponent (0xFF81, 0xFC01) and the integer bit clear; an 80-bit value keeps its
//! explicit integer bit. Stores do not round: the exponent field is the register exponent's
//! bit 16 followed by its low 7/10/14 bits (exact for every value in the format's range),
//! the fraction is the significand's top bits after the integer bit, and a register with the
//! integer bit clear stores with exponent 0 (a denormal) in single and double.

use super::class::{BIAS, EXP_INTEGER, EXP_SPECIAL, INT_BIT};
use crate::state::fr::Fr;

/// A memory format with an IEEE exponent and an implicit integer bit.
#[derive(Debug, Clone, Copy)]
struct Ieee {
    exp_bits: u32,
    frac_bits: u32,
}

const SINGLE: Ieee = Ieee { exp_bits: 8, frac_bits: 23 };
const DOUBLE: Ieee = Ieee { exp_bits: 11, frac_bits: 52 };

fn from_ieee(bits: u64, t: Ieee) -> Fr {
    let sign = bits >> (t.exp_bits + t.frac_bits) & 1 == 1;
    let emask = (1u64 << t.exp_bits) - 1;
    let e = (bits >> t.frac_bits) & emask;
    let frac = bits & ((1u64 << t.frac_bits) - 1);
    let fsig = frac << (63 - t.frac_bits);
    let ebias = (emask >> 1) as i32;
    match e {
        0 if frac == 0 => Fr { sign, exp: 0, sig: 0 },
        0 => Fr { sign, exp: (1 - ebias + BIAS) as u32, sig: fsig },
        _ if e == emask => Fr { sign, exp: EXP_SPECIAL, sig: INT_BIT | fsig },
        _ => Fr { sign, exp: (e as i32 - ebias + BIAS) as u32, sig: INT_BIT | fsig },
    }
}

fn to_ieee(f: Fr, t: Ieee) -> u64 {
    let emask = (1u64 << t.exp_bits) - 1;
    let e = if f.exp == EXP_SPECIAL {
        emask
    } else if f.exp == 0 || f.sig & INT_BIT == 0 {
        0
    } else {
        let low = u64::from(f.exp) & (emask >> 1);
        (u64::from(f.exp >> 16 & 1) << (t.exp_bits - 1)) | low
    };
    let frac = (f.sig << 1) >> (64 - t.frac_bits);
    (u64::from(f.sign) << (t.exp_bits + t.frac_bits)) | (e << t.frac_bits) | frac
}

/// ldfs / setf.s: the register value of an IEEE single.
pub fn from_single(bits: u32) -> Fr {
    from_ieee(u64::from(bits), SINGLE)
}

/// ldfd / setf.d: the register value of an IEEE double.
pub fn from_double(bits: u64) -> Fr {
    from_ieee(bits, DOUBLE)
}

/// stfs / getf.s: the single image of a register.
pub fn to_single(f: Fr) -> u32 {
    to_ieee(f, SINGLE) as u32
}

/// stfd / getf.d: the double image of a register.
pub fn to_double(f: Fr) -> u64 {
    to_ieee(f, DOUBLE)
}

/// ldfe: the register value of an 80-bit double-extended image (significand, then sign
/// and 15-bit exponent). Exponent 0 stays 0 (read as 2^-16382), 0x7FFF becomes 0x1FFFF.
pub fn from_extended(b: [u8; 10]) -> Fr {
    let mut lo = [0u8; 8];
    lo.copy_from_slice(&b[..8]);
    let se = u16::from_le_bytes([b[8], b[9]]);
    let e15 = u32::from(se & 0x7FFF);
    let exp = match e15 {
        0 => 0,
        0x7FFF => EXP_SPECIAL,
        e => (e as i32 - 0x3FFF + BIAS) as u32,
    };
    Fr { sign: se & 0x8000 != 0, exp, sig: u64::from_le_bytes(lo) }
}

/// stfe: the 80-bit image of a register (exponent bit 16 and bits 13:0).
pub fn to_extended(f: Fr) -> [u8; 10] {
    let e15 = match f.exp {
        0 => 0,
        EXP_SPECIAL => 0x7FFF,
        e => (((e >> 16) & 1) << 14) | (e & 0x3FFF),
    } as u16;
    let mut out = [0u8; 10];
    out[..8].copy_from_slice(&f.sig.to_le_bytes());
    out[8..].copy_from_slice(&(e15 | (u16::from(f.sign) << 15)).to_le_bytes());
    out
}

/// ldf8 / setf.sig: a 64-bit integer in the significand (exponent 0x1003E, positive).
pub fn from_integer(v: u64) -> Fr {
    Fr { sign: false, exp: EXP_INTEGER, sig: v }
}

/// setf.exp: sign from bit 17 and exponent from bits 16:0 of `v`, significand 1.0.
pub fn from_exp_image(v: u64) -> Fr {
    Fr { sign: v >> 17 & 1 == 1, exp: (v & u64::from(EXP_SPECIAL)) as u32, sig: INT_BIT }
}

/// getf.exp: the sign in bit 17 and the exponent in bits 16:0.
pub fn to_exp_image(f: Fr) -> u64 {
    u64::from(f.exp & EXP_SPECIAL) | (u64::from(f.sign) << 17)
}

// The extended image is a memory format, so its conversions live here; they are methods of the
// register for the callers, and `state::fr` (below the arithmetic) need not know `fpu`.
impl Fr {
    /// The 80-bit extended memory image (`stfe`), see [`to_extended`].
    pub fn extended_image(self) -> [u8; 10] {
        to_extended(self)
    }

    /// The register from an 80-bit extended image (`ldfe`), see [`from_extended`].
    pub fn from_extended_image(b: [u8; 10]) -> Fr {
        from_extended(b)
    }
}
