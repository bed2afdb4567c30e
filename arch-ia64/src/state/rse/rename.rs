//! Where each logical general register lives: the map from r0-r127 to the physical index
//! (`super`'s layout), a function of BOF, the CFM's sof, sor and rrb.gr, and PSR.bn only.
//!
//! Calls and returns change the renaming twice per call, but most of them are run by the block
//! engine, whose operands were resolved once for the renaming and which only compares the
//! renaming's [`RenameMap::key`]. So a frame change only records the new key (a few
//! instructions, issue 17), and the table is brought up to date at its next use; the
//! rebuild rewrites only what moved between the key it was built for and the current one.
//! The table is rebuilt from `&self` readers too, hence the cells.

use super::{BANK0, BANK1, N, OUTSIDE, STACKED};
use std::cell::Cell;

/// The logical-to-physical map with its lazy rebuild.
#[derive(Debug, Clone)]
pub(super) struct RenameMap {
    /// Where each logical register lives under the renaming `built` names.
    map: [Cell<u8>; 128],
    /// The key `map` describes (`u64::MAX`: no renaming yet, every moving name is stale).
    built: Cell<u64>,
    /// The key of the renaming in force.
    key: u64,
}

impl RenameMap {
    /// r0-r15 at their own numbers (they never move); no renaming recorded yet.
    pub(super) fn new() -> RenameMap {
        let map = std::array::from_fn(|r| Cell::new(if r < 16 { r as u8 } else { OUTSIDE as u8 }));
        RenameMap { map, built: Cell::new(u64::MAX), key: u64::MAX }
    }

    /// The key of the renaming with GR32 at physical ring index `bof`, a frame of `sof`
    /// registers with `sor` × 8 rotating ones renamed by `rrb`, and r16-r31 of `bank`.
    #[inline(always)]
    pub(super) fn key_of(bof: usize, sof: u8, sor: u8, rrb: u8, bank: usize) -> u64 {
        bof as u64 | u64::from(sof) << 8 | u64::from(sor) << 16 | u64::from(rrb) << 24 | (bank as u64) << 32
    }

    /// Records the renaming now in force; the table follows at its next use.
    #[inline(always)]
    pub(super) fn set(&mut self, key: u64) {
        self.key = key;
    }

    /// The key of the renaming in force: equal keys mean equal maps.
    #[inline(always)]
    pub(super) fn key(&self) -> u64 {
        self.key
    }

    /// The physical index of logical register `r` (0-127), the out-of-frame slot for a
    /// stacked name beyond the frame.
    #[inline(always)]
    pub(super) fn at(&self, r: u8) -> usize {
        if self.built.get() != self.key {
            self.rebuild();
        }
        usize::from(self.map[usize::from(r & 127)].get())
    }

    /// As [`RenameMap::at`], `None` for a number above 127.
    #[inline(always)]
    pub(super) fn lookup(&self, r: u8) -> Option<usize> {
        (r < 128).then(|| self.at(r))
    }

    /// Brings the table from the renaming it describes to the one in force, rewriting only
    /// what moved: the bank's names when PSR.bn changed, the names the old frame had beyond
    /// the new one, and the new frame's stacked names.
    #[inline(never)]
    fn rebuild(&self) {
        let (old, key) = (self.built.get(), self.key);
        let field = |k: u64, at: u32, mask: u64| ((k >> at) & mask) as usize;
        if key >> 32 != old >> 32 {
            let banked = if field(key, 32, 1) == 0 { BANK0 } else { BANK1 };
            for (i, slot) in (0..).zip(&self.map[16..32]) {
                slot.set((banked + i) as u8);
            }
            // Only PSR.bn moved (bsw, an interruption, rfi): the frame's names stand.
            if (key ^ old) & 0xFFFF_FFFF == 0 {
                self.built.set(key);
                return;
            }
        }
        let sof = field(key, 8, 0x7F).min(N);
        let old_sof = field(old, 8, 0x7F).min(N);
        if let Some(beyond) = self.map.get(32 + sof..32 + old_sof) {
            for slot in beyond {
                slot.set(OUTSIDE as u8);
            }
        }
        let bof = field(key, 0, 0xFF);
        let rotating = field(key, 16, 0xF) * 8;
        let rrb = field(key, 24, 0x7F);
        for (offset, slot) in self.map[32..32 + sof].iter().enumerate() {
            let renamed = if offset >= rotating { offset } else { (offset + rrb) % rotating };
            let p = bof + renamed;
            slot.set((STACKED + if p >= N { p - N } else { p }) as u8);
        }
        self.built.set(key);
    }
}
