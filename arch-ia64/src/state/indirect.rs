//! The indirect register files (SDM vol. 2 part I, sections 3.3.x and 7; vol. 3 `mov` to/from
//! indirect register): region registers, protection key registers, data and instruction
//! breakpoint registers, performance monitor configuration and data registers, and the
//! read-only CPUID registers.
//!
//! Sizes are the architecture's minimum implementation (SDM vol. 2: 8 region registers, at least
//! 16 protection key registers, at least 4 DBR/IBR pairs, PMC0-PMC7 and PMD4-PMD7 with four
//! generic counters); an index past them is "unimplemented".

/// Which indirect file an instruction names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum File {
    /// `rr[]`, indexed by r3{63:61} (the virtual region number).
    Rr,
    /// `pkr[]`.
    Pkr,
    /// `dbr[]`.
    Dbr,
    /// `ibr[]`.
    Ibr,
    /// `pmc[]`.
    Pmc,
    /// `pmd[]`.
    Pmd,
    /// `cpuid[]` (read only).
    Cpuid,
}

impl File {
    /// The file's assembler name (`rr`, `pkr`, ...).
    pub fn name(self) -> &'static str {
        match self {
            File::Rr => "rr",
            File::Pkr => "pkr",
            File::Dbr => "dbr",
            File::Ibr => "ibr",
            File::Pmc => "pmc",
            File::Pmd => "pmd",
            File::Cpuid => "cpuid",
        }
    }
}

/// Number of protection key registers (the architectural minimum).
pub const N_PKR: usize = 16;
/// Number of data (and of instruction) breakpoint registers: 4 address/mask pairs.
pub const N_BR: usize = 8;
/// Number of performance monitor configuration/data register slots modelled (indices 0-7).
pub const N_PM: usize = 8;

/// CPUID registers 0-4 of an Itanium 2 (Madison). CPUID0/1 hold the vendor string
/// "GenuineIntel" in little-endian byte order and CPUID2 is reserved (SDM vol. 1 section 3.1.11).
/// CPUID3 = archrev 0 (39:32), family 0x1f "Itanium 2" (31:24), model 1 = Madison (23:16),
/// revision 5 (15:8), number 4 (7:0, the index of the last implemented CPUID register): the
/// family/model pairing follows Linux's arch/ia64 identify_cpu and /proc/cpuinfo "family:
/// Itanium 2, model: 1"; the revision is a GUESS (a value seen on 1.5 GHz Madison parts).
/// CPUID4 = features: bit 0 (lb, long branch brl) set, as /proc/cpuinfo's "features: branchlong"
/// on Madison shows; the other feature bits clear.
pub const CPUID: [u64; 5] = [
    u64::from_le_bytes(*b"GenuineI"),
    u64::from_le_bytes(*b"ntel\0\0\0\0"),
    0,
    (0x1f << 24) | (1 << 16) | (5 << 8) | 4,
    1,
];

/// The writable indirect register files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndirectRegs {
    /// rr0-rr7.
    pub rr: [u64; 8],
    /// pkr0-pkr15.
    pub pkr: [u64; N_PKR],
    /// dbr0-dbr7.
    pub dbr: [u64; N_BR],
    /// ibr0-ibr7.
    pub ibr: [u64; N_BR],
    /// pmc0-pmc7.
    pub pmc: [u64; N_PM],
    /// pmd0-pmd7 (pmd4-pmd7 are the generic counters; pmd0-3 read 0 and ignore writes).
    pub pmd: [u64; N_PM],
}

impl Default for IndirectRegs {
    fn default() -> IndirectRegs {
        IndirectRegs { rr: [0; 8], pkr: [0; N_PKR], dbr: [0; N_BR], ibr: [0; N_BR], pmc: [0; N_PM], pmd: [0; N_PM] }
    }
}
