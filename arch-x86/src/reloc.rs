//! x86-64 relocation rules (System V psABI, section 4.4) for [`emu_core::elf::load`].

use emu_core::elf::{patch, ElfError, Reloc, RelocCtx, Relocations};
use emu_core::memory::Endian;

/// `e_machine` of x86-64.
pub const EM_X86_64: u16 = 62;

/// S + A, 64 bits.
pub const R_X86_64_64: u32 = 1;
/// S + A - P, 32 bits signed.
pub const R_X86_64_PC32: u32 = 2;
/// L + A - P: the harness has no PLT, so L = S.
pub const R_X86_64_PLT32: u32 = 4;
/// G + GOT + A - P (the slot's address, PC-relative).
pub const R_X86_64_GOTPCREL: u32 = 9;
/// S + A, 32 bits zero-extended.
pub const R_X86_64_32: u32 = 10;
/// S + A, 32 bits sign-extended.
pub const R_X86_64_32S: u32 = 11;
/// S + A - P, 64 bits.
pub const R_X86_64_PC64: u32 = 24;
/// Relaxable GOTPCREL (`mov foo@GOTPCREL(%rip)`); applied like GOTPCREL, without relaxing.
pub const R_X86_64_GOTPCRELX: u32 = 41;
/// Relaxable GOTPCREL with a REX prefix.
pub const R_X86_64_REX_GOTPCRELX: u32 = 42;

/// The x86-64 rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct X86Relocations;

impl X86Relocations {
    fn value(r: &Reloc) -> Option<i128> {
        let s = i128::from(r.symbol);
        let a = i128::from(r.addend);
        let p = i128::from(r.place);
        Some(match r.r_type {
            R_X86_64_64 | R_X86_64_32 | R_X86_64_32S => s + a,
            R_X86_64_PC32 | R_X86_64_PLT32 | R_X86_64_PC64 => s + a - p,
            R_X86_64_GOTPCREL | R_X86_64_GOTPCRELX | R_X86_64_REX_GOTPCRELX => i128::from(r.got?) + a - p,
            _ => return None,
        })
    }
}

impl Relocations for X86Relocations {
    fn machine(&self) -> u16 {
        EM_X86_64
    }

    fn endian(&self) -> Endian {
        Endian::Little
    }

    fn name(&self, r_type: u32) -> Option<&'static str> {
        Some(match r_type {
            R_X86_64_64 => "R_X86_64_64",
            R_X86_64_PC32 => "R_X86_64_PC32",
            R_X86_64_PLT32 => "R_X86_64_PLT32",
            R_X86_64_GOTPCREL => "R_X86_64_GOTPCREL",
            R_X86_64_32 => "R_X86_64_32",
            R_X86_64_32S => "R_X86_64_32S",
            R_X86_64_PC64 => "R_X86_64_PC64",
            R_X86_64_GOTPCRELX => "R_X86_64_GOTPCRELX",
            R_X86_64_REX_GOTPCRELX => "R_X86_64_REX_GOTPCRELX",
            _ => return None,
        })
    }

    fn needs_got(&self, r_type: u32) -> bool {
        matches!(r_type, R_X86_64_GOTPCREL | R_X86_64_GOTPCRELX | R_X86_64_REX_GOTPCRELX)
    }

    fn apply(&self, r: &Reloc, bytes: &mut [u8], ctx: &RelocCtx) -> Result<(), ElfError> {
        let value = Self::value(r).ok_or_else(|| ElfError::UnsupportedRelocation {
            type_name: ctx.type_name.clone(),
            symbol: ctx.symbol.clone(),
            section: ctx.section.clone(),
            offset: r.offset,
        })?;
        let (len, fits) = match r.r_type {
            R_X86_64_64 | R_X86_64_PC64 => (8, i128::from(i64::MIN) <= value && value <= i128::from(u64::MAX)),
            R_X86_64_32 => (4, (0..=i128::from(u32::MAX)).contains(&value)),
            _ => (4, (i128::from(i32::MIN)..=i128::from(i32::MAX)).contains(&value)),
        };
        if !fits {
            return Err(ElfError::Overflow {
                type_name: ctx.type_name.clone(),
                symbol: ctx.symbol.clone(),
                section: ctx.section.clone(),
                offset: r.offset,
                value,
            });
        }
        // Two's complement truncation is the intended encoding of the checked value.
        patch(bytes, r.offset, len, value as u64, Endian::Little, ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> RelocCtx {
        RelocCtx { section: ".text".into(), symbol: "x".into(), type_name: "R".into() }
    }

    fn reloc(r_type: u32, symbol: u64, addend: i64) -> Reloc {
        Reloc { r_type, offset: 0, place: 0x1000, symbol, addend, got: Some(0x3000) }
    }

    #[test]
    fn computes_and_range_checks_each_type() {
        let rules = X86Relocations;
        let mut b = [0u8; 8];
        assert_eq!(rules.apply(&reloc(R_X86_64_PC32, 0x2000, -4), &mut b, &ctx()), Ok(()));
        assert_eq!(b[..4], 0xffcu32.to_le_bytes());
        assert_eq!(rules.apply(&reloc(R_X86_64_GOTPCREL, 0x9999, -4), &mut b, &ctx()), Ok(()));
        assert_eq!(b[..4], 0x1ffcu32.to_le_bytes());
        assert_eq!(rules.apply(&reloc(R_X86_64_64, 0x1234_5678_9abc, 1), &mut b, &ctx()), Ok(()));
        assert_eq!(b, 0x1234_5678_9abdu64.to_le_bytes());
        assert!(matches!(
            rules.apply(&reloc(R_X86_64_32S, 0x8000_0000, 0), &mut b, &ctx()),
            Err(ElfError::Overflow { .. })
        ));
        assert!(matches!(rules.apply(&reloc(R_X86_64_32, 0, -1), &mut b, &ctx()), Err(ElfError::Overflow { .. })));
        assert_eq!(rules.apply(&reloc(R_X86_64_32, 0xffff_ffff, 0), &mut b, &ctx()), Ok(()));
        assert!(matches!(rules.apply(&reloc(99, 0, 0), &mut b, &ctx()), Err(ElfError::UnsupportedRelocation { .. })));
        assert_eq!(rules.name(R_X86_64_PLT32), Some("R_X86_64_PLT32"));
    }
}
