//! Classes of 82-bit register values (SDM vol. 1 Table 5-2) and the exact value of a finite one.

use crate::state::fr::Fr;

/// Register-format exponent bias.
pub const BIAS: i32 = 0xFFFF;
/// The all-ones exponent of infinities and NaNs.
pub const EXP_SPECIAL: u32 = 0x1FFFF;
/// The exponent of an integer or a pair of singles held in the significand.
pub const EXP_INTEGER: u32 = 0x1003E;
/// Integer bit of the significand.
pub const INT_BIT: u64 = 1 << 63;
/// The quiet bit of a NaN significand.
pub const QUIET_BIT: u64 = 1 << 62;
/// Exponent 0 with a non-zero significand is read as the double-extended minimum
/// exponent (2^-16382), as an 80-bit denormal loaded by ldfe is.
pub const EXP_ZERO_AS: u32 = 0xC001;

/// The QNaN indefinite of invalid operations: negative, quiet, no payload.
pub const QNAN_INDEFINITE: Fr = Fr { sign: true, exp: EXP_SPECIAL, sig: INT_BIT | QUIET_BIT };

/// What a register value is, for arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// NaTVal (exponent 0x1FFFE, significand 0, positive).
    NatVal,
    /// Quiet NaN (integer bit set, bit 62 set).
    QNan,
    /// Signalling NaN (integer bit set, bit 62 clear, fraction non-zero).
    SNan,
    /// Infinity.
    Inf,
    /// Pseudo-NaN or pseudo-infinity (exponent 0x1FFFF, integer bit clear): unsupported.
    Unsupported,
    /// Zero, including pseudo-zeros (significand 0, any other exponent).
    Zero,
    /// Normalized (integer bit set), including pseudo-denormals.
    Normal,
    /// Unnormalized or denormal (integer bit clear, non-zero): a denormal operand.
    Unnormal,
}

/// The class of `f`.
pub fn classify(f: Fr) -> Class {
    if f == Fr::NATVAL {
        return Class::NatVal;
    }
    if f.exp == EXP_SPECIAL {
        return if f.sig & INT_BIT == 0 {
            Class::Unsupported
        } else if f.sig << 1 == 0 {
            Class::Inf
        } else if f.sig & QUIET_BIT != 0 {
            Class::QNan
        } else {
            Class::SNan
        };
    }
    if f.sig == 0 {
        Class::Zero
    } else if f.sig & INT_BIT == 0 {
        Class::Unnormal
    } else if f.exp == 0 {
        // A pseudo-denormal: integer bit set at the minimum exponent; still a denormal
        // operand for the D flag (its exponent field is the denormal one).
        Class::Unnormal
    } else {
        Class::Normal
    }
}

impl Class {
    /// Either kind of NaN.
    pub fn is_nan(self) -> bool {
        matches!(self, Class::QNan | Class::SNan)
    }

    /// A finite non-zero value.
    pub fn is_finite_nonzero(self) -> bool {
        matches!(self, Class::Normal | Class::Unnormal)
    }
}

/// `f` with its NaN made quiet.
pub fn quiet(f: Fr) -> Fr {
    Fr { sig: f.sig | QUIET_BIT, ..f }
}

/// The exact value of a finite non-zero register: (significand, exponent of its bit 0), so
/// that the magnitude is `sig * 2^exp`.
pub fn exact(f: Fr) -> (u64, i32) {
    let e = if f.exp == 0 { EXP_ZERO_AS } else { f.exp };
    (f.sig, e as i32 - BIAS - 63)
}

/// An infinity of sign `sign`.
pub fn inf(sign: bool) -> Fr {
    Fr { sign, exp: EXP_SPECIAL, sig: INT_BIT }
}

/// A zero of sign `sign`.
pub fn zero(sign: bool) -> Fr {
    Fr { sign, exp: 0, sig: 0 }
}
