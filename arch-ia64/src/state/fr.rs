//! Floating-point registers in the 82-bit register format (SDM vol. 1 section 5.1:
//! sign, 17-bit exponent, 64-bit significand with explicit integer bit), and the memory
//! formats the entry paths use.
//!
//! Arithmetic and the single/double/extended conversions are the exact model of
//! `crate::fpu` (which also adds the extended-image methods to [`Fr`]: the register sits
//! below the arithmetic).

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fpu::memfmt::from_double;

    #[test]
    fn f1_is_one_and_f0_is_zero() {
        assert_eq!(from_double(1.0f64.to_bits()), Fr::ONE);
        assert_eq!(from_double(0.0f64.to_bits()), Fr::ZERO);
    }

    #[test]
    fn spill_and_extended_images_round_trip() {
        let x = from_double((-3.5f64).to_bits());
        for f in [Fr::ONE, Fr::NATVAL, Fr::integer(0xdead_beef), x] {
            assert_eq!(Fr::from_spill_image(f.spill_image()), f);
        }
        assert_eq!(Fr::from_extended_image(x.extended_image()), x);
    }
}
