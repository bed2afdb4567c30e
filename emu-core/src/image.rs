//! What an assembler or an ELF loader produces: placed sections, symbols and a map
//! from addresses back to source lines.

use thiserror::Error;

use crate::error::SourceLoc;
use crate::memory::{Endian, MemError, MemFault, Memory, Perms};

/// What a section holds; decides its permissions when loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SectionKind {
    /// Instructions: mapped read + execute.
    Code,
    /// Initialised data: mapped read + write.
    Data,
    /// Zero-initialised data: mapped read + write; `data` holds the zeros.
    Bss,
}

/// A placed section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Name such as `.text`.
    pub name: String,
    /// Load address of the first byte.
    pub addr: u64,
    /// Contents; for [`SectionKind::Bss`] a run of zeros as long as the section.
    pub data: Vec<u8>,
    /// What the section holds.
    pub kind: SectionKind,
    /// Required alignment of `addr` in bytes (1 = none).
    pub align: u64,
}

impl Section {
    /// Length in bytes.
    pub fn size(&self) -> u64 {
        self.data.len() as u64
    }

    /// Whether `addr` lies inside the section.
    pub fn contains(&self, addr: u64) -> bool {
        addr >= self.addr && addr - self.addr < self.size()
    }
}

/// Symbol visibility.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Binding {
    /// Visible to other objects.
    Global,
    /// Local to its object.
    Local,
}

/// What a symbol names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A function entry (ELF `STT_FUNC`, or `.proc`).
    Function,
    /// A data object (ELF `STT_OBJECT`).
    Object,
    /// A plain label (ELF `STT_NOTYPE` in a section).
    Label,
    /// A constant not tied to a section (`.set`, `SHN_ABS`).
    Absolute,
}

/// A named value, usually an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Symbol name.
    pub name: String,
    /// Address (or constant, for [`SymbolKind::Absolute`]).
    pub value: u64,
    /// Index into [`Image::sections`] of the defining section, if any.
    pub section: Option<usize>,
    /// Visibility.
    pub binding: Binding,
    /// What it names.
    pub kind: SymbolKind,
    /// Size in bytes (0 when unknown).
    pub size: u64,
}

/// Addresses mapped to source locations, kept sorted by address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    entries: Vec<(u64, SourceLoc)>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Record that the code at `addr` came from `loc`; replaces an earlier entry for
    /// the same address.
    pub fn insert(&mut self, addr: u64, loc: SourceLoc) {
        match self.entries.binary_search_by_key(&addr, |(a, _)| *a) {
            Ok(i) => {
                if let Some(e) = self.entries.get_mut(i) {
                    e.1 = loc;
                }
            }
            Err(i) => self.entries.insert(i, (addr, loc)),
        }
    }

    /// The entry at `addr`, or else the nearest one before it.
    pub fn lookup(&self, addr: u64) -> Option<&SourceLoc> {
        self.lookup_entry(addr).map(|(_, loc)| loc)
    }

    /// Like [`SourceMap::lookup`], but ignoring entries below `floor` (the start of
    /// the section holding `addr`, so a location never leaks across sections).
    pub fn lookup_within(&self, addr: u64, floor: u64) -> Option<&SourceLoc> {
        self.lookup_entry(addr).filter(|(a, _)| *a >= floor).map(|(_, loc)| loc)
    }

    fn lookup_entry(&self, addr: u64) -> Option<&(u64, SourceLoc)> {
        let idx = self.entries.partition_point(|(a, _)| *a <= addr).checked_sub(1)?;
        self.entries.get(idx)
    }

    /// All entries in address order.
    pub fn iter(&self) -> impl Iterator<Item = &(u64, SourceLoc)> + '_ {
        self.entries.iter()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Why an image could not be loaded into memory.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoadError {
    /// A section could not be mapped (typically it overlaps another section or an
    /// already mapped region).
    #[error("cannot map section `{section}`: {source}")]
    Map {
        /// Section name.
        section: String,
        /// The mapping failure.
        #[source]
        source: MemError,
    },
    /// A section's bytes could not be stored.
    #[error("cannot load section `{section}`: {source}")]
    Load {
        /// Section name.
        section: String,
        /// The store failure.
        #[source]
        source: MemFault,
    },
}

/// Sections, symbols and source map of one assembled or loaded program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Byte order of the data.
    pub endian: Endian,
    /// Placed sections.
    pub sections: Vec<Section>,
    /// All symbols.
    pub symbols: Vec<Symbol>,
    /// Address to source line.
    pub source_map: SourceMap,
}

impl Image {
    /// An empty image.
    pub fn new(endian: Endian) -> Image {
        Image { endian, sections: Vec::new(), symbols: Vec::new(), source_map: SourceMap::new() }
    }

    /// The first symbol called `name`, preferring a global one.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        let mut named = self.symbols.iter().filter(|s| s.name == name);
        let first = named.clone().next();
        named.find(|s| s.binding == Binding::Global).or(first)
    }

    /// The first section called `name`.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// Index of the section holding `addr`.
    pub fn section_index_at(&self, addr: u64) -> Option<usize> {
        self.sections.iter().position(|s| s.contains(addr))
    }

    /// The nearest code symbol at or before `addr` and the offset from it, as objdump
    /// prints `<foo+0x10>`.
    ///
    /// Candidates are function and label symbols of the section holding `addr`. The
    /// one with the highest value wins; on equal values a global symbol beats a local
    /// one, then a function beats a label, then the earlier symbol in `symbols` wins.
    pub fn symbolize(&self, addr: u64) -> Option<(&str, u64)> {
        let sec = self.section_index_at(addr)?;
        let rank = |s: &Symbol| (s.value, s.binding == Binding::Global, s.kind == SymbolKind::Function);
        let mut best: Option<&Symbol> = None;
        for s in &self.symbols {
            let code = matches!(s.kind, SymbolKind::Function | SymbolKind::Label);
            if !code || s.section != Some(sec) || s.value > addr {
                continue;
            }
            // Strictly better only, so the earlier of two equal symbols stays.
            if best.is_none_or(|b| rank(s) > rank(b)) {
                best = Some(s);
            }
        }
        best.map(|s| (s.name.as_str(), addr - s.value))
    }

    /// The source line that produced the code at `addr`, never crossing into another
    /// section's entries.
    pub fn source_loc(&self, addr: u64) -> Option<&SourceLoc> {
        let sec = self.sections.get(self.section_index_at(addr)?)?;
        self.source_map.lookup_within(addr, sec.addr)
    }

    /// Map every non-empty section into `mem` (code read + execute, data read + write)
    /// and copy its bytes in. A [`SectionKind::Bss`] section is only mapped: a fresh region
    /// reads as zeros and allocates its pages on the first write, so a large `.bss` costs
    /// nothing until used (copying its zeros in touched every page: an object declaring a
    /// few GiB of `.bss` took that much memory, found by the fuzz target `elf_ia64`).
    ///
    /// # Errors
    /// [`LoadError::Map`] when a section overlaps another or an existing region.
    pub fn load_into(&self, mem: &mut Memory) -> Result<(), LoadError> {
        for s in self.sections.iter().filter(|s| !s.data.is_empty()) {
            let perms = match s.kind {
                SectionKind::Code => Perms::RX,
                SectionKind::Data | SectionKind::Bss => Perms::RW,
            };
            mem.map(s.addr, s.size(), perms, &s.name)
                .map_err(|source| LoadError::Map { section: s.name.clone(), source })?;
            if s.kind == SectionKind::Bss {
                continue;
            }
            mem.load(s.addr, &s.data).map_err(|source| LoadError::Load { section: s.name.clone(), source })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
