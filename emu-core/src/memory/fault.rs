//! Typed failures: a guest access that faults, and a region that cannot be mapped.

use std::fmt;

use thiserror::Error;

use super::{Access, MAX_REGION_SIZE};

/// Why a guest access failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// The first byte of the access is in no region.
    Unmapped,
    /// The access starts in a region but runs into unmapped space at `at`.
    CrossesRegion {
        /// First unmapped byte touched by the access.
        at: u64,
    },
    /// A touched region lacks the permission the access needs.
    Protection {
        /// The kind of access that was refused.
        needed: Access,
        /// First byte whose region refused it.
        at: u64,
    },
    /// `addr + size` goes past the end of the 64-bit address space.
    Wraps,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::Unmapped => f.write_str("unmapped address"),
            FaultKind::CrossesRegion { at } => write!(f, "runs into unmapped address {at:#x}"),
            FaultKind::Protection { needed, at } => write!(f, "no {needed} permission at {at:#x}"),
            FaultKind::Wraps => f.write_str("wraps around the address space"),
        }
    }
}

/// A failed guest access, without the pc (see [`MemFault::at_pc`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[error("memory fault: {size}-byte access at {addr:#x}: {kind}")]
pub struct MemFault {
    /// Why it failed.
    pub kind: FaultKind,
    /// First byte of the access.
    pub addr: u64,
    /// Length of the access in bytes.
    pub size: u64,
}

impl MemFault {
    /// Attach the pc of the instruction that made the access.
    pub fn at_pc(self, pc: u64) -> PcFault {
        PcFault { fault: self, pc }
    }
}

/// A [`MemFault`] with the pc of the faulting instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[error("{fault} (pc {pc:#x})")]
pub struct PcFault {
    /// The access that failed.
    pub fault: MemFault,
    /// Address of the instruction (or bundle) that made it.
    pub pc: u64,
}

/// Why a region could not be mapped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MemError {
    /// The region would have no bytes.
    #[error("region `{name}` at {base:#x} has size zero")]
    ZeroSize {
        /// Name of the rejected region.
        name: String,
        /// Its base address.
        base: u64,
    },
    /// `base + size` goes past the end of the address space.
    #[error("region `{name}` at {base:#x} with size {size:#x} wraps around the address space")]
    Wraps {
        /// Name of the rejected region.
        name: String,
        /// Its base address.
        base: u64,
        /// Its size.
        size: u64,
    },
    /// The region is larger than [`MAX_REGION_SIZE`].
    #[error("region `{name}` at {base:#x} with size {size:#x} is larger than {MAX_REGION_SIZE:#x} bytes")]
    TooLarge {
        /// Name of the rejected region.
        name: String,
        /// Its base address.
        base: u64,
        /// Its size.
        size: u64,
    },
    /// The region shares bytes with an existing one.
    #[error(
        "region `{name}` [{base:#x}..={last:#x}] overlaps region `{other}` [{other_base:#x}..={other_last:#x}]",
        last = base.wrapping_add(size.wrapping_sub(1)),
        other_last = other_base.wrapping_add(other_size.wrapping_sub(1))
    )]
    Overlap {
        /// Name of the rejected region.
        name: String,
        /// Its base address.
        base: u64,
        /// Its size.
        size: u64,
        /// Name of the region already mapped there.
        other: String,
        /// Base of the existing region.
        other_base: u64,
        /// Size of the existing region.
        other_size: u64,
    },
}
