//! The writer's view of a relocation: the assembler's [`crate::asm::reloc::Reloc`] list
//! (which alone chooses the `R_IA64_*` type) turned into RELA entries, plus the unwind
//! table's own SEGREL64LSB words.

/// What a fixup refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixTarget {
    /// A symbol by name (defined here, global, or undefined external). A local symbol defined
    /// in a section is turned into that section's symbol plus its offset, as gas does, except
    /// for the function-pointer types, which must keep the symbol.
    Symbol(String),
    /// The section symbol of a section (by index in [`super::ObjectParts::sections`]).
    Section(usize),
}

/// One relocation for the linker: in `section` at `offset`, of type `rtype`, against
/// `target` plus `addend`. For an instruction field `offset` is the bundle address plus the
/// slot (slot 1 for the `movl`/`brl` of an MLX bundle); for data the byte address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixup {
    /// Index of the section holding the field.
    pub section: usize,
    /// r_offset.
    pub offset: u64,
    /// An `R_IA64_*` number.
    pub rtype: u32,
    /// The symbol the value comes from.
    pub target: FixTarget,
    /// r_addend.
    pub addend: i64,
}

/// R_IA64_SEGREL64LSB (unwind table words).
pub const SEGREL64LSB: u32 = 0x5f;

/// Whether a reference of type `rtype` to a local symbol must name the symbol itself rather
/// than its section: the function-descriptor types (gas's `ia64_fix_adjustable` keeps them).
pub fn keeps_symbol(rtype: u32) -> bool {
    matches!(rtype, 0x43 | 0x45 | 0x47 | 0x52 | 0x53 | 0x55 | 0x57)
}

/// One Elf64_Rela, little-endian.
pub(super) fn rela_bytes(offset: u64, sym: u32, rtype: u32, addend: i64) -> [u8; 24] {
    let mut b = [0u8; 24];
    b[0..8].copy_from_slice(&offset.to_le_bytes());
    b[8..16].copy_from_slice(&((u64::from(sym) << 32) | u64::from(rtype)).to_le_bytes());
    b[16..24].copy_from_slice(&addend.to_le_bytes());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_pointer_types_keep_their_symbol() {
        assert!(keeps_symbol(0x47) && !keeps_symbol(0x27));
    }
}
