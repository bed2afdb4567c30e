//! A 256-bit unsigned integer, just wide enough to add a 128-bit product and a 128-bit
//! addend exactly (with headroom for the carry) before rounding.

/// 256 bits as two halves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Wide {
    pub hi: u128,
    pub lo: u128,
}

impl Wide {
    pub const ZERO: Wide = Wide { hi: 0, lo: 0 };

    /// `v << s` for `s` < 256 (bits above 255 dropped: callers leave headroom).
    pub fn shl(v: u128, s: u32) -> Wide {
        match s {
            0 => Wide { hi: 0, lo: v },
            1..=127 => Wide { hi: v >> (128 - s), lo: v << s },
            128..=255 => Wide { hi: v << (s - 128), lo: 0 },
            _ => Wide::ZERO,
        }
    }

    pub fn is_zero(self) -> bool {
        self.hi == 0 && self.lo == 0
    }

    /// `self >> s`, with every bit shifted out ORed into bit 0 (the sticky bit).
    pub fn shr_sticky(self, s: u32) -> Wide {
        if s == 0 {
            return self;
        }
        if s >= 256 {
            return Wide { hi: 0, lo: u128::from(!self.is_zero()) };
        }
        let (hi, lo, lost) = if s >= 128 {
            let t = s - 128;
            let lost = self.lo != 0 || (t > 0 && self.hi << (128 - t) != 0);
            (0, if t == 0 { self.hi } else { self.hi >> t }, lost)
        } else {
            let lost = self.lo << (128 - s) != 0;
            (self.hi >> s, (self.lo >> s) | (self.hi << (128 - s)), lost)
        };
        Wide { hi, lo: lo | u128::from(lost) }
    }

    pub fn add(self, o: Wide) -> Wide {
        let (lo, c) = self.lo.overflowing_add(o.lo);
        Wide { hi: self.hi.wrapping_add(o.hi).wrapping_add(u128::from(c)), lo }
    }

    /// `self - o` for `self >= o`.
    pub fn sub(self, o: Wide) -> Wide {
        let (lo, b) = self.lo.overflowing_sub(o.lo);
        Wide { hi: self.hi.wrapping_sub(o.hi).wrapping_sub(u128::from(b)), lo }
    }

    /// The number of significant bits.
    pub fn bit_len(self) -> u32 {
        if self.hi != 0 {
            256 - self.hi.leading_zeros()
        } else {
            128 - self.lo.leading_zeros()
        }
    }

    /// The top 128 significant bits (top bit set), every lower bit ORed into bit 0, and the
    /// number of bits dropped below them. `self` must be non-zero.
    pub fn top128(self) -> (u128, u32) {
        let n = self.bit_len();
        if n <= 128 {
            (self.lo << (128 - n), 0)
        } else {
            let s = n - 128;
            (self.shr_sticky(s).lo, s)
        }
    }
}
