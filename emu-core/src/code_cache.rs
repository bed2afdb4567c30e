//! Decoded instructions found by address in O(1), for cores with variable-length
//! instructions (x86-64, s390x). Code sections decoded up front get a dense table per section
//! (one entry per byte address); an instruction decoded later, where execution wandered outside
//! them or into the middle of one, goes to a small map. Stepping then costs an index, not a
//! hash and a reference count.

use std::collections::HashMap;

/// Where an instruction is kept: an index into [`CodeCache::insn`].
pub type InsnIndex = u32;

const NONE: InsnIndex = InsnIndex::MAX;

/// A decoded section: for each byte offset, the instruction starting there (or none).
#[derive(Debug, Clone)]
struct Section {
    base: u64,
    starts: Vec<InsnIndex>,
}

impl Section {
    fn index_of(&self, addr: u64) -> Option<InsnIndex> {
        let offset = usize::try_from(addr.checked_sub(self.base)?).ok()?;
        self.starts.get(offset).copied().filter(|&i| i != NONE)
    }

    fn covers(&self, addr: u64) -> bool {
        addr.checked_sub(self.base).is_some_and(|off| off < self.starts.len() as u64)
    }
}

/// Instructions of type `I`, decoded once, by address.
#[derive(Debug, Clone)]
pub struct CodeCache<I> {
    insns: Vec<I>,
    sections: Vec<Section>,
    /// The section the last lookup hit (execution stays in one for long).
    last: usize,
    lazy: HashMap<u64, InsnIndex>,
}

impl<I> Default for CodeCache<I> {
    fn default() -> Self {
        CodeCache { insns: Vec::new(), sections: Vec::new(), last: 0, lazy: HashMap::new() }
    }
}

impl<I> CodeCache<I> {
    /// Adds a section of `len` bytes at `base` whose instructions (address, record) were
    /// decoded up front. Instructions outside `[base, base + len)` go to the lazy map.
    pub fn add_section(&mut self, base: u64, len: usize, decoded: impl IntoIterator<Item = (u64, I)>) {
        let mut section = Section { base, starts: vec![NONE; len] };
        for (addr, insn) in decoded {
            let index = self.push(insn);
            match addr.checked_sub(base).and_then(|off| usize::try_from(off).ok()) {
                Some(off) if off < len => {
                    if let Some(slot) = section.starts.get_mut(off) {
                        *slot = index;
                    }
                }
                _ => {
                    self.lazy.insert(addr, index);
                }
            }
        }
        self.sections.push(section);
    }

    /// Adds one instruction decoded when execution first reached `addr`.
    pub fn insert(&mut self, addr: u64, insn: I) -> InsnIndex {
        let index = self.push(insn);
        self.lazy.insert(addr, index);
        index
    }

    /// The instruction starting at `addr`, if one was decoded there.
    #[inline]
    pub fn find(&mut self, addr: u64) -> Option<InsnIndex> {
        if let Some(i) = self.sections.get(self.last).and_then(|s| s.index_of(addr)) {
            return Some(i);
        }
        if let Some(at) = self.sections.iter().position(|s| s.covers(addr)) {
            self.last = at;
            if let Some(i) = self.sections.get(at).and_then(|s| s.index_of(addr)) {
                return Some(i);
            }
        }
        self.lazy.get(&addr).copied()
    }

    /// The instruction starting at `addr`, decoded by `decode` (and kept) if execution never
    /// reached it before.
    ///
    /// # Errors
    /// Whatever `decode` returns.
    #[inline]
    pub fn fetch_or_decode<E>(&mut self, addr: u64, decode: impl FnOnce() -> Result<I, E>) -> Result<&I, E> {
        let index = match self.find(addr) {
            Some(i) => i,
            None => {
                let insn = decode()?;
                self.insert(addr, insn)
            }
        };
        // Every index `find` and `insert` hand out is in bounds: instructions are never removed.
        Ok(&self.insns[index as usize])
    }

    /// The instruction starting at `addr`, without moving the section hint.
    pub fn get(&self, addr: u64) -> Option<&I> {
        let in_section = self.sections.iter().find_map(|s| s.index_of(addr));
        in_section.or_else(|| self.lazy.get(&addr).copied()).and_then(|i| self.insn(i))
    }

    /// The instruction at `index`.
    #[inline]
    pub fn insn(&self, index: InsnIndex) -> Option<&I> {
        self.insns.get(index as usize)
    }

    /// Instructions decoded so far.
    pub fn len(&self) -> usize {
        self.insns.len()
    }

    /// Whether nothing was decoded yet.
    pub fn is_empty(&self) -> bool {
        self.insns.is_empty()
    }

    fn push(&mut self, insn: I) -> InsnIndex {
        self.insns.push(insn);
        InsnIndex::try_from(self.insns.len() - 1).unwrap_or(NONE - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_section_and_lazy_instructions_by_address() {
        let mut c = CodeCache::default();
        c.add_section(0x1000, 8, [(0x1000, "a"), (0x1003, "b"), (0x1007, "c")]);
        c.add_section(0x2000, 4, [(0x2000, "d")]);
        assert_eq!(c.find(0x1003).and_then(|i| c.insn(i)), Some(&"b"));
        assert_eq!(c.find(0x2000).and_then(|i| c.insn(i)), Some(&"d"));
        assert_eq!(c.find(0x1007).and_then(|i| c.insn(i)), Some(&"c"));
        // The middle of an instruction, and outside every section, hold nothing until decoded.
        assert_eq!(c.find(0x1001), None);
        assert_eq!(c.find(0x3000), None);
        let i = c.insert(0x1001, "mid");
        assert_eq!(c.find(0x1001), Some(i));
        assert_eq!(c.get(0x1001), Some(&"mid"));
        assert_eq!(c.get(0x1003), Some(&"b"));
        assert_eq!(c.len(), 5);
    }
}
