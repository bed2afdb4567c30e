//! Bit fields of a 41-bit slot: each named once, with its value and mask derived from it.

/// A contiguous field of a slot: `len` bits starting at bit `lo` (bit 0 is the slot's LSB).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    /// Lowest bit.
    pub lo: u8,
    /// Width in bits.
    pub len: u8,
}

impl Field {
    /// The field at bits `lo ..= lo + len - 1`.
    pub const fn new(lo: u8, len: u8) -> Field {
        Field { lo, len }
    }

    /// The bits this field occupies.
    pub const fn mask(self) -> u64 {
        ((1u64 << self.len) - 1) << self.lo
    }

    /// `value` placed into the field (excess high bits dropped).
    pub const fn put(self, value: u64) -> u64 {
        (value << self.lo) & self.mask()
    }

    /// The field's value in `slot`.
    pub const fn get(self, slot: u64) -> u64 {
        (slot & self.mask()) >> self.lo
    }
}

/// The fields named in the manual's format diagrams (SDM vol. 3 ch. 4), by slot position.
pub mod f {
    use super::Field;

    /// Qualifying predicate.
    pub const QP: Field = Field::new(0, 6);
    /// Major opcode.
    pub const OP: Field = Field::new(37, 4);
    /// Destination register r1/f1, also p1 low bits.
    pub const R1: Field = Field::new(6, 7);
    /// Source register r2/f2.
    pub const R2: Field = Field::new(13, 7);
    /// Source register r3/f3, ar3, cr3.
    pub const R3: Field = Field::new(20, 7);
    /// The fourth FP register of F1 (f4).
    pub const F4: Field = Field::new(27, 7);
    /// addl's two-bit r3.
    pub const R3_ADDL: Field = Field::new(20, 2);
    /// First predicate target.
    pub const P1: Field = Field::new(6, 6);
    /// Second predicate target.
    pub const P2: Field = Field::new(27, 6);
    /// Branch register b1 (also btype).
    pub const B1: Field = Field::new(6, 3);
    /// Branch register b2.
    pub const B2: Field = Field::new(13, 3);
    /// Bit 36: sign, m, tb, za, s, x ... depending on format.
    pub const BIT36: Field = Field::new(36, 1);
    /// A-unit x2a.
    pub const X2A: Field = Field::new(34, 2);
    /// A-unit ve.
    pub const VE: Field = Field::new(33, 1);
    /// A-unit x4.
    pub const X4A: Field = Field::new(29, 4);
    /// A-unit x2b.
    pub const X2B: Field = Field::new(27, 2);
    /// Compare x2 (bit 34 = cmp4, bit 35 = immediate form).
    pub const CMP_X2: Field = Field::new(34, 2);
    /// Compare and tbit ta.
    pub const TA: Field = Field::new(33, 1);
    /// Compare and tbit c.
    pub const C: Field = Field::new(12, 1);
    /// x3 of I/M/X misc formats.
    pub const X3: Field = Field::new(33, 3);
    /// x6 of I/M/B/F/X misc formats.
    pub const X6: Field = Field::new(27, 6);
    /// x4 of M op-0 system formats (low half of x6).
    pub const X4M: Field = Field::new(27, 4);
    /// x2 of M op-0 system formats (high half of x6).
    pub const X2M: Field = Field::new(31, 2);
    /// y / hint-vs-nop bit of nop and hint, dep.z imm form.
    pub const Y26: Field = Field::new(26, 1);
    /// Load/store x6.
    pub const X6LS: Field = Field::new(30, 6);
    /// Load/store size (low bits of x6).
    pub const LS_SIZE: Field = Field::new(30, 2);
    /// Load/store type (high bits of x6).
    pub const LS_TYPE: Field = Field::new(32, 4);
    /// Load/store hint.
    pub const HINT: Field = Field::new(28, 2);
    /// Load/store x.
    pub const X27: Field = Field::new(27, 1);
    /// I-unit shift x2 (op 5: I10-I17).
    pub const X2I: Field = Field::new(34, 2);
    /// y at bit 13 (extr sign, tnat).
    pub const Y13: Field = Field::new(13, 1);
    /// Branch whether-hint (B1, B3, B4, X3, X4).
    pub const WH: Field = Field::new(33, 2);
    /// br.call indirect whether-hint (B5, three bits).
    pub const WH3: Field = Field::new(32, 3);
    /// Prefetch hint (.few/.many).
    pub const PH: Field = Field::new(12, 1);
    /// Cache deallocation hint (.clr).
    pub const DH: Field = Field::new(35, 1);
    /// FP status field (.s0-.s3).
    pub const SF: Field = Field::new(34, 2);
    /// mov-to-br whether-hint.
    pub const MWH: Field = Field::new(20, 2);
    /// mov-to-br return hint.
    pub const MRET: Field = Field::new(22, 1);
    /// mov-to-br importance hint.
    pub const MIH: Field = Field::new(23, 1);
    /// I5/I7 variable-shift fields za..x2b (bits 28-36 minus the register fields).
    pub const X2C: Field = Field::new(30, 2);
    /// I5/I7 x2b.
    pub const X2B_SH: Field = Field::new(28, 2);
    /// I5/I7 zb.
    pub const ZB: Field = Field::new(33, 1);
    /// I5/I7 ve.
    pub const VE32: Field = Field::new(32, 1);
    /// I12/I13 x (bit 33).
    pub const X33: Field = Field::new(33, 1);
    /// I14 bit 13.
    pub const B13: Field = Field::new(13, 1);
    /// probe x6 variants etc. live in X6; MLX vc bit.
    pub const VC: Field = Field::new(20, 1);
}
