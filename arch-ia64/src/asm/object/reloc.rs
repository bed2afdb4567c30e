//! Relocations: the fixup list the assembler fills, the `R_IA64_*` numbers
//! (binutils `include/elf/ia64.h`) and the choice of type from the field and the relocation
//! operator (`ia64-elf.md` §2.2-2.3, observed with GNU as 2.40).

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

/// R_IA64_IMM14.
pub const IMM14: u32 = 0x21;
/// R_IA64_IMM22.
pub const IMM22: u32 = 0x22;
/// R_IA64_IMM64.
pub const IMM64: u32 = 0x23;
/// R_IA64_DIR32LSB.
pub const DIR32LSB: u32 = 0x25;
/// R_IA64_DIR64LSB.
pub const DIR64LSB: u32 = 0x27;
/// R_IA64_PCREL60B (`brl`).
pub const PCREL60B: u32 = 0x48;
/// R_IA64_PCREL21B (B-unit branches).
pub const PCREL21B: u32 = 0x49;
/// R_IA64_PCREL21M (`chk.s` M and I forms).
pub const PCREL21M: u32 = 0x4a;
/// R_IA64_PCREL21F (`fchkf`).
pub const PCREL21F: u32 = 0x4b;
/// R_IA64_SEGREL64LSB (unwind table words).
pub const SEGREL64LSB: u32 = 0x5f;

/// The kind of field a value goes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// A14 `adds` imm14.
    Imm14,
    /// A5 `addl` imm22.
    Imm22,
    /// X2 `movl` imm64.
    Imm64,
    /// B-unit 21-bit displacement.
    Branch21,
    /// `chk.s` (M20/M21/I20) 21-bit displacement.
    Check21,
    /// `fchkf` 21-bit displacement.
    FCheck21,
    /// `brl` 60-bit displacement.
    Long60,
    /// A 4-byte datum.
    Data4,
    /// An 8-byte datum.
    Data8,
}

/// The type for a plain symbol value (`op == None`) or a relocation operator (`@gprel` ...,
/// nested as written, outermost first) in `field`; `None` when gas has no such relocation.
pub fn reloc_type(ops: &[&str], field: Field) -> Option<u32> {
    use Field::*;
    // Columns: imm14, imm22, imm64, data4, data8 (the 3-bit field code of ia64.h).
    let row: [Option<u32>; 5] = match ops {
        [] => [Some(IMM14), Some(IMM22), Some(IMM64), Some(DIR32LSB), Some(DIR64LSB)],
        ["gprel"] => [None, Some(0x2a), Some(0x2b), Some(0x2d), Some(0x2f)],
        // gas only warns for `data8 @ltoff(x)` and writes a DIR64LSB (§2.3).
        ["ltoff"] => [None, Some(0x32), Some(0x33), None, Some(DIR64LSB)],
        ["ltoffx"] => [None, Some(0x86), None, None, None],
        ["pltoff"] => [None, Some(0x3a), Some(0x3b), None, Some(0x3f)],
        ["fptr"] => [None, None, Some(0x43), Some(0x45), Some(0x47)],
        ["pcrel"] => [None, Some(0x7a), Some(0x7b), Some(0x4d), Some(0x4f)],
        ["ltoff", "fptr"] => [None, Some(0x52), Some(0x53), Some(0x55), Some(0x57)],
        ["segrel"] => [None, None, None, Some(0x5d), Some(SEGREL64LSB)],
        ["secrel"] => [None, None, None, Some(0x65), Some(0x67)],
        ["ltv"] => [None, None, None, Some(0x75), Some(0x77)],
        ["tprel"] => [Some(0x91), Some(0x92), Some(0x93), None, Some(0x97)],
        ["ltoff", "tprel"] => [None, Some(0x9a), None, None, None],
        ["dtpmod"] => [None, None, None, None, Some(0xa7)],
        ["ltoff", "dtpmod"] => [None, Some(0xaa), None, None, None],
        ["dtprel"] => [Some(0xb1), Some(0xb2), Some(0xb3), Some(0xb5), Some(0xb7)],
        ["ltoff", "dtprel"] => [None, Some(0xba), None, None, None],
        _ => return None,
    };
    match field {
        Imm14 => row[0],
        Imm22 => row[1],
        Imm64 => row[2],
        Data4 => row[3],
        Data8 => row[4],
        Branch21 | Check21 | FCheck21 | Long60 if !ops.is_empty() => None,
        Branch21 => Some(PCREL21B),
        Check21 => Some(PCREL21M),
        FCheck21 => Some(PCREL21F),
        Long60 => Some(PCREL60B),
    }
}

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
    fn types_follow_field_and_operator() {
        assert_eq!(reloc_type(&[], Field::Long60), Some(PCREL60B));
        assert_eq!(reloc_type(&[], Field::Imm64), Some(IMM64));
        assert_eq!(reloc_type(&["gprel"], Field::Imm22), Some(0x2a));
        assert_eq!(reloc_type(&["ltoff", "fptr"], Field::Data8), Some(0x57));
        assert_eq!(reloc_type(&["gprel"], Field::Branch21), None);
        assert!(keeps_symbol(0x47) && !keeps_symbol(DIR64LSB));
    }
}
