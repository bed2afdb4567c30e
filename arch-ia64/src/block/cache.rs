//! The blocks built so far, by entry address (issue 17). A block is built the first time
//! execution enters there and kept; a lookup happens only when a block's exit has no cached
//! successor (chained exits go block to block by index).

use super::build::{Block, NONE};
use crate::code::Code;
use std::collections::HashMap;

/// Blocks by entry (bundle | slot), and entries where no block can start.
#[derive(Debug, Clone, Default)]
pub(crate) struct Blocks {
    by_entry: HashMap<u64, u32>,
    pub(crate) list: Vec<Block>,
}

impl Blocks {
    /// Forgets every block (the code or the stubs changed).
    pub(crate) fn clear(&mut self) {
        self.by_entry.clear();
        self.list.clear();
    }

    /// The index of the block at `entry`, building it on first use; [`NONE`] when none can
    /// start there. `model`: the timing model, whose group facts a block keeps.
    pub(crate) fn at(
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
