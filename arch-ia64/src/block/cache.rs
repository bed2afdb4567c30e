//! The blocks built so far, by entry address (issue 17). A block is built the first time
//! execution enters there and kept; a lookup happens only when a block's exit has no cached
//! successor (chained exits go block to block by index).

use super::build::{Block, NONE};
use crate::code::Code;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Hashes a block entry with one multiplication (w8-iv2): the keys are code addresses, not
/// input an adversary picks, and the default SipHash costs ~100 host instructions a lookup,
/// with several lookups a system call (each path's first block, the exits after an
/// interruption or a renaming change).
#[derive(Debug, Clone, Copy, Default)]
struct EntryHasher(u64);

impl Hasher for EntryHasher {
    fn finish(&self) -> u64 {
        // The table indexes by the low bits: fold the well-mixed high ones down.
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing: the high bits (which the table's control bytes use) depend on
        // every bit of the address.
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Entries of the direct-mapped cache in front of the table (a power of two).
const RECENT: usize = 64;

/// No entry: a block entry's low nibble is its slot (0-2), never 0xF.
const NO_ENTRY: u64 = u64::MAX;

/// Blocks by entry (bundle | slot), and entries where no block can start.
#[derive(Debug, Clone, Default)]
pub(crate) struct Blocks {
    by_entry: HashMap<u64, u32, BuildHasherDefault<EntryHasher>>,
    /// The last lookups by entry, direct-mapped (w9-iv2): the entries a system call looks up
    /// (each path's first block, the slots after a renaming change or an interruption) are a
    /// few fixed addresses, and a hit here is a load and a compare where the table costs ~60
    /// host instructions. Filled on first use; what it holds is always the table's answer.
    recent: Vec<(u64, u32)>,
    pub(crate) list: Vec<Block>,
}

impl Blocks {
    /// Forgets every block (the code or the stubs changed).
    pub(crate) fn clear(&mut self) {
        self.by_entry.clear();
        self.recent.clear();
        self.list.clear();
    }

    /// The slot of the direct-mapped cache `entry` goes to.
    #[inline]
    fn recent_slot(entry: u64) -> usize {
        ((entry >> 4) ^ (entry >> 10) ^ (entry << 2)) as usize & (RECENT - 1)
    }

    /// The index of the block at `entry`, building it on first use; [`NONE`] when none can
    /// start there. `model`: the timing model, whose group facts a block keeps.
    #[inline]
    pub(crate) fn at(
        &mut self,
        code: &mut Code,
        entry: u64,
        stub: impl Fn(u64) -> bool,
        model: Option<&crate::timing::Itanium2>,
    ) -> u32 {
        let slot = Blocks::recent_slot(entry);
        if let Some(&(at, i)) = self.recent.get(slot) {
            if at == entry {
                return i;
            }
        }
        let index = self.lookup(code, entry, stub, model);
        if self.recent.is_empty() {
            self.recent = vec![(NO_ENTRY, NONE); RECENT];
        }
        if let Some(r) = self.recent.get_mut(slot) {
            *r = (entry, index);
        }
        index
    }

    /// [`Blocks::at`] through the table (out of line: a hit above saves no registers).
    #[inline(never)]
    fn lookup(
        &mut self,
        code: &mut Code,
        entry: u64,
        stub: impl Fn(u64) -> bool,
        model: Option<&crate::timing::Itanium2>,
    ) -> u32 {
        if let Some(&i) = self.by_entry.get(&entry) {
            return i;
        }
        let index = match Block::build(code, entry, stub, model) {
            Some(b) if self.list.len() < NONE as usize - 1 => {
                self.list.push(b);
                (self.list.len() - 1) as u32
            }
            _ => NONE,
        };
        self.by_entry.insert(entry, index);
        index
    }
}
