//! s390x relocation rules (s390x ELF ABI supplement) for [`emu_core::elf::load`], big-endian.
//! The `*DBL` forms store halfword counts: (S + A - P) / 2, which must be even and fit.

use emu_core::elf::{patch, ElfError, Reloc, RelocCtx, Relocations};
use emu_core::memory::Endian;

/// `e_machine` of s390/s390x.
pub const EM_S390: u16 = 22;

/// S + A, 8 bits.
pub const R_390_8: u32 = 1;
/// S + A, 16 bits.
pub const R_390_16: u32 = 3;
/// S + A, 32 bits.
pub const R_390_32: u32 = 4;
/// S + A - P, 32 bits.
pub const R_390_PC32: u32 = 5;
/// (S + A - P) >> 1, 16 bits (BRC, BRAS, BRCT).
pub const R_390_PC16DBL: u32 = 17;
/// Like PC16DBL through a PLT; the harness has none, so L = S.
pub const R_390_PLT16DBL: u32 = 18;
/// (S + A - P) >> 1, 32 bits (LARL, BRASL, BRCL, LGRL).
pub const R_390_PC32DBL: u32 = 19;
/// Like PC32DBL through a PLT (calls); L = S.
pub const R_390_PLT32DBL: u32 = 20;
/// (GOT + A - P) >> 1, 32 bits.
pub const R_390_GOTPCDBL: u32 = 21;
/// S + A, 64 bits.
pub const R_390_64: u32 = 22;
/// S + A - P, 64 bits.
pub const R_390_PC64: u32 = 23;
/// (G + GOT + A - P) >> 1, 32 bits: the symbol's GOT slot, PC-relative (`lgrl %r1,sym@GOTENT`).
pub const R_390_GOTENT: u32 = 26;
/// (S + A - P) >> 1, 12 bits (BPP/BPRP).
pub const R_390_PC12DBL: u32 = 62;
/// PC12DBL through a PLT.
pub const R_390_PLT12DBL: u32 = 63;
/// (S + A - P) >> 1, 24 bits (BPRP).
pub const R_390_PC24DBL: u32 = 64;
/// PC24DBL through a PLT.
pub const R_390_PLT24DBL: u32 = 65;

/// The s390x rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct S390Relocations;

/// How a computed value is stored: bytes, signedness, and whether it counts halfwords.
struct Field {
    len: usize,
    signed: bool,
    halfwords: bool,
}

impl S390Relocations {
    fn value(r: &Reloc) -> Option<i128> {
        let s = i128::from(r.symbol);
        let a = i128::from(r.addend);
        let p = i128::from(r.place);
        Some(match r.r_type {
            R_390_8 | R_390_16 | R_390_32 | R_390_64 => s + a,
            R_390_PC32 | R_390_PC64 | R_390_PC16DBL | R_390_PLT16DBL | R_390_PC32DBL | R_390_PLT32DBL
            | R_390_PC12DBL | R_390_PLT12DBL | R_390_PC24DBL | R_390_PLT24DBL => s + a - p,
            R_390_GOTENT | R_390_GOTPCDBL => i128::from(r.got?) + a - p,
            _ => return None,
        })
    }

    fn field(r_type: u32) -> Option<Field> {
        let f = |len, signed, halfwords| Field { len, signed, halfwords };
        Some(match r_type {
            R_390_8 => f(1, false, false),
            R_390_16 => f(2, false, false),
            R_390_32 => f(4, false, false),
            R_390_PC32 => f(4, true, false),
            R_390_64 | R_390_PC64 => f(8, false, false),
            R_390_PC16DBL | R_390_PLT16DBL => f(2, true, true),
            R_390_PC32DBL | R_390_PLT32DBL | R_390_GOTENT | R_390_GOTPCDBL => f(4, true, true),
            // 12- and 24-bit fields share bytes with opcode bits: not patched by this loader.
            _ => return None,
        })
    }
}

impl Relocations for S390Relocations {
    fn machine(&self) -> u16 {
        EM_S390
    }

    fn endian(&self) -> Endian {
        Endian::Big
    }

    fn name(&self, r_type: u32) -> Option<&'static str> {
        Some(match r_type {
            R_390_8 => "R_390_8",
            R_390_16 => "R_390_16",
            R_390_32 => "R_390_32",
            R_390_PC32 => "R_390_PC32",
            R_390_PC16DBL => "R_390_PC16DBL",
            R_390_PLT16DBL => "R_390_PLT16DBL",
            R_390_PC32DBL => "R_390_PC32DBL",
            R_390_PLT32DBL => "R_390_PLT32DBL",
            R_390_GOTPCDBL => "R_390_GOTPCDBL",
            R_390_64 => "R_390_64",
            R_390_PC64 => "R_390_PC64",
            R_390_GOTENT => "R_390_GOTENT",
            R_390_PC12DBL => "R_390_PC12DBL",
            R_390_PLT12DBL => "R_390_PLT12DBL",
            R_390_PC24DBL => "R_390_PC24DBL",
            R_390_PLT24DBL => "R_390_PLT24DBL",
            _ => return None,
        })
    }

    fn needs_got(&self, r_type: u32) -> bool {
        matches!(r_type, R_390_GOTENT | R_390_GOTPCDBL)
    }

    fn apply(&self, r: &Reloc, bytes: &mut [u8], ctx: &RelocCtx) -> Result<(), ElfError> {
        let unsupported = || ElfError::UnsupportedRelocation {
            type_name: ctx.type_name.clone(),
            symbol: ctx.symbol.clone(),
            section: ctx.section.clone(),
            offset: r.offset,
        };
        let value = Self::value(r).ok_or_else(unsupported)?;
        let field = Self::field(r.r_type).ok_or_else(unsupported)?;
        let overflow = |value| ElfError::Overflow {
            type_name: ctx.type_name.clone(),
            symbol: ctx.symbol.clone(),
            section: ctx.section.clone(),
            offset: r.offset,
            value,
        };
        if field.halfwords && value % 2 != 0 {
            return Err(overflow(value));
        }
        let stored = if field.halfwords { value / 2 } else { value };
        let bits = field.len as u32 * 8;
        let fits = if field.signed {
            let half = 1i128 << (bits - 1);
            (-half..half).contains(&stored)
        } else {
            // Unsigned fields also take negative values that wrap (addresses and their negation).
            let full = 1i128 << bits;
            (-(full / 2)..full).contains(&stored)
        };
        if !fits {
            return Err(overflow(value));
        }
        // Two's complement truncation is the intended encoding of the checked value.
        patch(bytes, r.offset, field.len, stored as u64, Endian::Big, ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> RelocCtx {
        RelocCtx { section: ".text".into(), symbol: "x".into(), type_name: "R".into() }
    }

    fn reloc(r_type: u32, symbol: u64, addend: i64) -> Reloc {
        Reloc { r_type, offset: 2, place: 0x1002, symbol, addend, got: Some(0x3000) }
    }

    #[test]
    fn computes_and_range_checks_each_type() {
        let rules = S390Relocations;
        let mut b = [0u8; 10];
        assert_eq!(rules.apply(&reloc(R_390_PC32DBL, 0x2000, 2), &mut b, &ctx()), Ok(()));
        assert_eq!(b[2..6], 0x800u32.to_be_bytes());
        assert_eq!(rules.apply(&reloc(R_390_PC16DBL, 0x1000, 2), &mut b, &ctx()), Ok(()));
        assert_eq!(b[2..4], 0u16.to_be_bytes());
        assert_eq!(rules.apply(&reloc(R_390_GOTENT, 0, 2), &mut b, &ctx()), Ok(()));
        assert_eq!(b[2..6], 0x1000u32.to_be_bytes());
        assert_eq!(rules.apply(&reloc(R_390_64, 0x1234_5678_9abc, 1), &mut b, &ctx()), Ok(()));
        assert_eq!(b[2..10], 0x1234_5678_9abdu64.to_be_bytes());
        assert!(matches!(
            rules.apply(&reloc(R_390_PC32DBL, 0x2001, 2), &mut b, &ctx()),
            Err(ElfError::Overflow { .. })
        ));
        assert!(matches!(
            rules.apply(&reloc(R_390_PC16DBL, 0x10_0000, 2), &mut b, &ctx()),
            Err(ElfError::Overflow { .. })
        ));
        assert!(matches!(rules.apply(&reloc(99, 0, 0), &mut b, &ctx()), Err(ElfError::UnsupportedRelocation { .. })));
        assert_eq!(rules.name(R_390_PLT32DBL), Some("R_390_PLT32DBL"));
        assert!(rules.needs_got(R_390_GOTENT));
    }
}
