//! Operand shapes: the slots capstone's operands fill, written in the table as short text
//! ("RRM", "RI?I") and parsed at compile time, so a malformed shape fails the build and nothing
//! scans text while decoding or executing.

/// The most slots a shape has.
pub const MAX_SLOTS: usize = 6;

/// One operand slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// `R`: a general register.
    Gpr,
    /// `F`: a floating-point register.
    Fpr,
    /// `I`: an immediate (branch targets absolute).
    Imm,
    /// `M`: a storage operand (capstone reports base-less ones as immediates).
    Mem,
    /// `?`: the condition mask capstone lists only for the generic mnemonic (taken from the
    /// bytes, so capstone may omit it).
    Mask,
}

/// Where an instruction's second operand comes from (the last slot that is not a mask).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Second {
    /// Storage operand 0.
    Mem,
    /// Register operand `k`: the last of the `R` slots.
    Gpr(u8),
    /// Immediate `k`: the last of the `I` slots.
    Imm(u8),
    /// None the semantics can read (no slots, or an FPR last).
    None,
}

/// A parsed operand shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The table's text.
    pub text: &'static str,
    slots: [Slot; MAX_SLOTS],
    len: u8,
    /// The second operand.
    pub second: Second,
}

impl Shape {
    /// No operands (unsupported instructions).
    pub const EMPTY: Shape = Shape::parse("");

    /// Parses `text`: `R`, `F`, `I`, `M` and `?` (see [`Slot`]); anything else, or more than
    /// [`MAX_SLOTS`] slots, is a compile-time error in the table.
    pub const fn parse(text: &'static str) -> Shape {
        let b = text.as_bytes();
        assert!(b.len() <= MAX_SLOTS, "an s390 operand shape has at most 6 slots");
        let mut slots = [Slot::Mask; MAX_SLOTS];
        let (mut regs, mut imms) = (0u8, 0u8);
        let mut last = Slot::Mask;
        let mut k = 0;
        while k < b.len() {
            let slot = match b[k] {
                b'R' => Slot::Gpr,
                b'F' => Slot::Fpr,
                b'I' => Slot::Imm,
                b'M' => Slot::Mem,
                b'?' => Slot::Mask,
                _ => panic!("an s390 operand shape uses only R, F, I, M and ?"),
            };
            match slot {
                Slot::Gpr => regs += 1,
                Slot::Imm => imms += 1,
                _ => {}
            }
            if !matches!(slot, Slot::Mask) {
                last = slot;
            }
            slots[k] = slot;
            k += 1;
        }
        let second = match last {
            Slot::Mem => Second::Mem,
            Slot::Gpr => Second::Gpr(regs.saturating_sub(1)),
            Slot::Imm => Second::Imm(imms.saturating_sub(1)),
            Slot::Fpr | Slot::Mask => Second::None,
        };
        Shape { text, slots, len: b.len() as u8, second }
    }

    /// The slots in capstone's operand order.
    pub fn slots(&self) -> &[Slot] {
        self.slots.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_operand_is_the_last_slot_that_is_not_a_mask() {
        assert_eq!(Shape::parse("RRM").second, Second::Mem);
        assert_eq!(Shape::parse("RR?").second, Second::Gpr(1));
        assert_eq!(Shape::parse("RI?I").second, Second::Imm(1));
        assert_eq!(Shape::parse("RF").second, Second::None);
        assert_eq!(Shape::EMPTY.second, Second::None);
        assert_eq!(Shape::parse("?R").slots(), &[Slot::Mask, Slot::Gpr]);
    }
}
