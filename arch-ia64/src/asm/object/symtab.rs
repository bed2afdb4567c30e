//! The symbol table in gas's order: the null symbol; the section symbols of `.text`,
//! `.data`, `.bss`; then the other locals and section symbols in creation order; then the
//! globals (defined and undefined) in creation order (`ia64-elf.md` §1.4).

use super::strtab::StrTab;
use super::{Created, ObjSymbol, ObjectParts};
use std::collections::{HashMap, HashSet};

const STB_LOCAL: u8 = 0;
const STB_GLOBAL: u8 = 1;
const STB_WEAK: u8 = 2;
const STT_SECTION: u8 = 3;
const STT_FILE: u8 = 4;
const SHN_ABS: u16 = 0xfff1;

/// Where a section symbol comes from: a section of the parts, or an unwind section of a code
/// section (`info == true` for `.IA_64.unwind_info`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum SecRef {
    User(usize),
    Unwind {
        code: usize,
        info: bool,
    },
    /// A section group's SHT_GROUP section, by index in `ObjectParts::groups` (issue 13).
    Group(usize),
}

/// One entry before it is written.
struct Entry {
    name: String,
    info: u8,
    other: u8,
    shndx: u16,
    value: u64,
    size: u64,
}

/// The table and how to find entries in it.
pub(super) struct SymTable {
    entries: Vec<Entry>,
    /// Index of the first global (the table's sh_info).
    pub first_global: u32,
    by_name: HashMap<String, u32>,
    by_section: HashMap<SecRef, u32>,
}

/// Whether gas writes `s` into the symbol table: globals (an undefined `.weak` one only when
/// a relocation uses it); a local unless it is a numeric label or starts with `.` (ia64 gas
/// treats every `.name` as a local label, not only `.L`: `.skip_accounting:` in seed004.S is
/// not in GNU as's table).
pub(super) fn listed(s: &ObjSymbol, used: &HashSet<&str>) -> bool {
    if s.weak && !s.defined && !used.contains(s.name.as_str()) {
        return false;
    }
    !s.name.contains('\u{2}') && (s.global || s.defined && !s.name.starts_with('.'))
}

impl SymTable {
    /// Builds the table; `shndx` gives a section's header index.
    pub fn build(parts: &ObjectParts, first: &[usize], shndx: &dyn Fn(SecRef) -> u16) -> SymTable {
        let syms: HashMap<&str, &ObjSymbol> = parts.symbols.iter().map(|s| (s.name.as_str(), s)).collect();
        let used: HashSet<&str> = parts.relocs.iter().map(|r| r.symbol.as_str()).collect();
        let listed = |s: &ObjSymbol| listed(s, &used);
        let mut entries = vec![Entry { name: String::new(), info: 0, other: 0, shndx: 0, value: 0, size: 0 }];
        if let Some(f) = &parts.file {
            entries.push(Entry { name: f.clone(), info: STT_FILE, other: 0, shndx: SHN_ABS, value: 0, size: 0 });
        }
        let mut by_section = HashMap::new();
        let late: HashSet<usize> =
            parts.groups.iter().flat_map(|g| g.late_symbols.iter().chain(&g.early_symbols).copied()).collect();
        let section_sym = |entries: &mut Vec<Entry>, by_section: &mut HashMap<SecRef, u32>, r: SecRef| {
            by_section.insert(r, entries.len() as u32);
            entries.push(Entry {
                name: String::new(),
                info: STT_SECTION,
                other: 0,
                shndx: shndx(r),
                value: 0,
                size: 0,
            });
        };
        for &i in first {
            section_sym(&mut entries, &mut by_section, SecRef::User(i));
        }
        // Symbols in creation order, each once; any the list misses go last.
        let mut order: Vec<&ObjSymbol> = Vec::new();
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for c in &parts.created {
            match c {
                Created::Section(i) if !first.contains(i) && !late.contains(i) => {
                    section_sym(&mut entries, &mut by_section, SecRef::User(*i))
                }
                Created::Section(_) => {}
                Created::Unwind(code) => {
                    section_sym(&mut entries, &mut by_section, SecRef::Unwind { code: *code, info: true });
                    section_sym(&mut entries, &mut by_section, SecRef::Unwind { code: *code, info: false });
                }
                Created::Symbol(name) => {
                    if let Some(&sym) = syms.get(name.as_str()) {
                        if seen.insert(sym.name.as_str()) {
                            order.push(sym);
                            if !sym.global && listed(sym) {
                                entries.push(entry(sym, shndx));
                            }
                        }
                    }
                }
            }
        }
        for s in &parts.symbols {
            if seen.insert(s.name.as_str()) {
                order.push(s);
                if !s.global && listed(s) {
                    entries.push(entry(s, shndx));
                }
            }
        }
        // Section groups (issue 13), created last: the signatures the file does not define
        // (local symbols at the start of their group sections), the section symbols of
        // members named like another section, then the group sections' symbols.
        for group in &parts.groups {
            for &i in &group.early_symbols {
                section_sym(&mut entries, &mut by_section, SecRef::User(i));
            }
        }
        for (g, group) in parts.groups.iter().enumerate() {
            if !syms.get(group.signature.as_str()).is_some_and(|s| s.defined) {
                entries.push(Entry {
                    name: group.signature.clone(),
                    info: 0,
                    other: 0,
                    shndx: shndx(SecRef::Group(g)),
                    value: 0,
                    size: 0,
                });
            }
        }
        for group in &parts.groups {
            for &i in &group.late_symbols {
                section_sym(&mut entries, &mut by_section, SecRef::User(i));
            }
        }
        for g in 0..parts.groups.len() {
            section_sym(&mut entries, &mut by_section, SecRef::Group(g));
        }
        let mut by_name = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            if !e.name.is_empty() {
                by_name.insert(e.name.clone(), i as u32);
            }
        }
        let first_global = entries.len() as u32;
        for s in order {
            if s.global && listed(s) {
                by_name.insert(s.name.clone(), entries.len() as u32);
                entries.push(entry(s, shndx));
            }
        }
        SymTable { entries, first_global, by_name, by_section }
    }

    /// The index of the symbol named `name`.
    pub fn symbol(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).copied()
    }

    /// The index of a section's symbol.
    pub fn section(&self, r: SecRef) -> Option<u32> {
        self.by_section.get(&r).copied()
    }

    /// Adds the names to `strtab` in table order.
    pub fn add_names(&self, strtab: &mut StrTab) {
        for e in &self.entries {
            strtab.add(&e.name);
        }
    }

    /// The `.symtab` bytes.
    pub fn bytes(&self, names: &super::strtab::Finished) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * 24);
        for e in &self.entries {
            out.extend_from_slice(&names.offset(&e.name).to_le_bytes());
            out.push(e.info);
            out.push(e.other);
            out.extend_from_slice(&e.shndx.to_le_bytes());
            out.extend_from_slice(&e.value.to_le_bytes());
            out.extend_from_slice(&e.size.to_le_bytes());
        }
        out
    }
}

fn entry(s: &ObjSymbol, shndx: &dyn Fn(SecRef) -> u16) -> Entry {
    let bind = if s.weak {
        STB_WEAK
    } else if s.global {
        STB_GLOBAL
    } else {
        STB_LOCAL
    };
    let kind = s.stt;
    let index = match (s.defined, s.section) {
        (false, _) => 0,
        (true, Some(i)) => shndx(SecRef::User(i)),
        (true, None) => SHN_ABS,
    };
    Entry {
        name: s.name.clone(),
        info: (bind << 4) | kind,
        other: s.visibility,
        shndx: index,
        value: if s.defined { s.value } else { 0 },
        size: s.size,
    }
}
