//! Floating-point registers in the 82-bit register format (SDM vol. 1 section 5.1:
//! sign, 17-bit exponent, 64-bit significand with explicit integer bit), and the memory
//! formats the entry paths use.
//!
//! Arithmetic (`fma` and friends) goes through `f64`: exact for the values the accounting
//! paths handle, an approximation of 82-bit precision in general (stated in the README).

/// Exponent bias of the register format.
const BIAS: i32 = 0xFFFF;
/// Exponent of an integer held in the significand (`setf.sig`, `ldf8`): 2^63 * 1.
pub const INTEGER_EXP: u32 = 0x1003E;
/// All-ones exponent: infinities and NaNs.
const EXP_MAX: u32 = 0x1FFFF;

/// One floating-point register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fr {
    /// Sign bit.
    pub sign: bool,
    /// 17-bit biased exponent.
    pub exp: u32,
    /// 64-bit significand (bit 63 is the explicit integer bit).
    pub sig: u64,
}

impl Fr {
    /// +0.0 (f0).
    pub const ZERO: Fr = Fr { sign: false, exp: 0, sig: 0 };
    /// +1.0 (f1).
    pub const ONE: Fr = Fr { sign: false, exp: BIAS as u32, sig: 1 << 63 };
    /// NaTVal, the FR analogue of a NaT (exponent 0x1FFFE, significand 0).
    pub const NATVAL: Fr = Fr { sign: false, exp: 0x1FFFE, sig: 0 };

    /// An integer in the significand (setf.sig, ldf8).
    pub fn integer(v: u64) -> Fr {
        Fr { sign: false, exp: INTEGER_EXP, sig: v }
    }

    /// The value as an `f64` (rounded).
    pub fn to_f64(self) -> f64 {
        if self.exp == EXP_MAX {
            let v = if self.sig << 1 == 0 { f64::INFINITY } else { f64::NAN };
            return if self.sign { -v } else { v };
        }
        if self.sig == 0 {
            return if self.sign { -0.0 } else { 0.0 };
        }
        // Scale in two halves so subnormal results do not underflow on the way.
        let e = self.exp as i32 - BIAS;
        let m = self.sig as f64 * pow2(-63);
        let v = m * pow2(e / 2) * pow2(e - e / 2);
        if self.sign {
            -v
        } else {
            v
        }
    }

    /// The register-format value of `x`, normalized.
    pub fn from_f64(x: f64) -> Fr {
        let sign = x.is_sign_negative();
        if x.is_nan() {
            return Fr { sign, exp: EXP_MAX, sig: 0xC000_0000_0000_0000 };
        }
        if x.is_infinite() {
            return Fr { sign, exp: EXP_MAX, sig: 1 << 63 };
        }
        if x == 0.0 {
            return Fr { sign, exp: 0, sig: 0 };
        }
        let bits = x.abs().to_bits();
        let raw_exp = ((bits >> 52) & 0x7FF) as i32;
        let mant = bits & ((1 << 52) - 1);
        let (e, m) = if raw_exp == 0 {
            // Subnormal: normalize.
            let shift = mant.leading_zeros() as i32 - 11;
            (1 - 1023 - shift, mant << shift)
        } else {
            (raw_exp - 1023, mant | (1 << 52))
        };
        Fr { sign, exp: (e + BIAS) as u32, sig: m << 11 }
    }

    /// The 16-byte spill image (`stf.spill`): significand, then exponent and sign in
    /// bits 0-17 of the second doubleword (SDM vol. 1 Figure 5-9).
    pub fn spill_image(self) -> [u8; 16] {
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&self.sig.to_le_bytes());
        let hi = u64::from(self.exp & EXP_MAX) | (u64::from(self.sign) << 17);
        out[8..].copy_from_slice(&hi.to_le_bytes());
        out
    }

    /// The register from a spill image (`ldf.fill`).
    pub fn from_spill_image(b: [u8; 16]) -> Fr {
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&b[..8]);
        hi.copy_from_slice(&b[8..]);
        let hi = u64::from_le_bytes(hi);
        Fr { sign: hi & (1 << 17) != 0, exp: (hi & u64::from(EXP_MAX)) as u32, sig: u64::from_le_bytes(lo) }
    }

    /// The 80-bit extended memory image (`stfe`): significand, 15-bit exponent and sign.
    pub fn extended_image(self) -> [u8; 10] {
        let e15 = match self.exp {
            0 => 0,
            EXP_MAX => 0x7FFF,
            e => (e as i32 - BIAS + 0x3FFF).clamp(0, 0x7FFE) as u16,
        };
        let mut out = [0u8; 10];
        out[..8].copy_from_slice(&self.sig.to_le_bytes());
        out[8..].copy_from_slice(&(e15 | (u16::from(self.sign) << 15)).to_le_bytes());
        out
    }

    /// The register from an 80-bit extended image (`ldfe`).
    pub fn from_extended_image(b: [u8; 10]) -> Fr {
        let mut lo = [0u8; 8];
        lo.copy_from_slice(&b[..8]);
        let se = u16::from_le_bytes([b[8], b[9]]);
        let e15 = u32::from(se & 0x7FFF);
        let exp = match e15 {
            0 => 0,
            0x7FFF => EXP_MAX,
            e => (e as i32 - 0x3FFF + BIAS) as u32,
        };
        Fr { sign: se & 0x8000 != 0, exp, sig: u64::from_le_bytes(lo) }
    }
}

/// 2^e as an `f64` (0 or infinity outside the representable range).
fn pow2(e: i32) -> f64 {
    if e > 1023 {
        f64::INFINITY
    } else if e < -1074 {
        0.0
    } else if e < -1022 {
        f64::from_bits(1u64 << (e + 1074))
    } else {
        f64::from_bits(((e + 1023) as u64) << 52)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f1_is_one_and_f0_is_zero() {
        assert_eq!(Fr::ONE.to_f64(), 1.0);
        assert_eq!(Fr::ZERO.to_f64(), 0.0);
        assert_eq!(Fr::from_f64(1.0), Fr::ONE);
    }

    #[test]
    fn doubles_round_trip() {
        for x in [1.5, -2.25, 1e300, 3e-310, 123456789.0, -0.0] {
            assert_eq!(Fr::from_f64(x).to_f64().to_bits(), x.to_bits(), "{x}");
        }
    }

    #[test]
    fn integers_in_the_significand_have_their_value() {
        assert_eq!(Fr::integer(12345).to_f64(), 12345.0);
    }

    #[test]
    fn spill_and_extended_images_round_trip() {
        for f in [Fr::ONE, Fr::NATVAL, Fr::integer(0xdead_beef), Fr::from_f64(-3.5)] {
            assert_eq!(Fr::from_spill_image(f.spill_image()), f);
        }
        let x = Fr::from_f64(-3.5);
        assert_eq!(Fr::from_extended_image(x.extended_image()), x);
    }
}
