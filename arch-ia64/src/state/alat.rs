//! The Advanced Load Address Table (SDM vol. 1 section 4.4.5, vol. 2 section 4.4.5.2): the
//! entries advanced loads allocate, keyed by their target register, which overlapping stores
//! remove and check loads and `chk.a` look up.

use crate::res::Res;

/// Entries of the Itanium 2 ALAT. GUESS: the reference files give no figure; 32 entries,
/// fully associative, shared by GR and FR targets, is the commonly quoted Itanium 2 size
/// (not checked against Intel's Itanium 2 reference manual here).
pub const ALAT_ENTRIES: usize = 32;

/// The register an entry belongs to: the physical general register (so a renamed stacked
/// register keeps its own entry), or a floating-point register by number (FR rotation is not
/// modelled elsewhere either).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlatReg {
    /// A general register (its physical resource).
    Gr(Res),
    /// A floating-point register.
    Fr(u8),
}

/// One entry: the register tag and the bytes the advanced load read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlatEntry {
    /// Target register of the advanced load.
    pub reg: AlatReg,
    /// First byte address.
    pub addr: u64,
    /// Access size in bytes.
    pub size: u8,
}

/// The table: at most [`ALAT_ENTRIES`] entries, oldest first (replacement removes the oldest:
/// GUESS, Itanium 2's replacement policy is not documented).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alat {
    entries: Vec<AlatEntry>,
}

impl Alat {
    /// Allocates an entry for `reg`, replacing any entry it already has (an advanced load
    /// "removes any existing entry for its target register", SDM vol. 1 4.4.5.2) and evicting
    /// the oldest entry when full.
    pub fn allocate(&mut self, reg: AlatReg, addr: u64, size: u8) {
        self.remove(reg);
        if self.entries.len() >= ALAT_ENTRIES {
            self.entries.remove(0);
        }
        self.entries.push(AlatEntry { reg, addr, size });
    }

    /// Whether `reg` has an entry.
    pub fn hit(&self, reg: AlatReg) -> bool {
        self.entries.iter().any(|e| e.reg == reg)
    }

    /// Removes `reg`'s entry, if any (invala.e, ld.c.clr and chk.a.clr on a hit).
    pub fn remove(&mut self, reg: AlatReg) {
        self.entries.retain(|e| e.reg != reg);
    }

    /// Removes every entry whose bytes overlap `[addr, addr + size)` (stores and semaphores).
    pub fn invalidate_overlap(&mut self, addr: u64, size: u64) {
        let end = addr.wrapping_add(size);
        self.entries.retain(|e| {
            let e_end = e.addr.wrapping_add(u64::from(e.size));
            !(e.addr < end && addr < e_end)
        });
    }

    /// Removes every entry (invala).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries, oldest first (snapshots and tests).
    pub fn entries(&self) -> &[AlatEntry] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_capacity_and_replacement() {
        let mut a = Alat::default();
        let r = |n| AlatReg::Fr(n);
        a.allocate(r(2), 0x100, 8);
        a.allocate(r(2), 0x200, 4);
        assert_eq!(a.entries().len(), 1, "one entry per register");
        a.invalidate_overlap(0x1ff, 1);
        assert!(a.hit(r(2)), "the byte before does not overlap");
        a.invalidate_overlap(0x203, 1);
        assert!(!a.hit(r(2)), "the last byte overlaps");
        for n in 0..=ALAT_ENTRIES as u8 {
            a.allocate(r(n), u64::from(n) * 16, 8);
        }
        assert_eq!(a.entries().len(), ALAT_ENTRIES);
        assert!(!a.hit(r(0)), "the oldest was evicted");
        assert!(a.hit(r(ALAT_ENTRIES as u8)));
    }
}
