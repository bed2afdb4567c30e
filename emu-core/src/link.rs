//! Linking several relocatable ELF64 objects into one [`Image`], as `ld` would for a static
//! executable, with undefined symbols bound to harness data or to stubs.
//!
//! **Layout.** Output sections are formed by name, like ld's default script groups input
//! sections ([`output_name`]: `.text.*` joins `.text`, every `.IA_64.unwind*` joins
//! `.IA_64.unwind`, ...): `.text` first, then every other output section in order of first
//! appearance (objects in the order given, sections in section-header order). An output
//! section is its input sections from every object, in object order, each at its own
//! alignment; once relocated they become one image section with the alignment gaps zeroed.
//! COMMON symbols are allocated after the `.bss` inputs (a `.bss` output section is created
//! last when none exists), in name order; those of at most
//! [`Relocations::small_common_limit`] bytes after the `.sbss` inputs (ld's `.scommon`). Then come the synthesised sections: the stub page
//! (unless [`LinkOptions::stub_base`] places it), the function descriptors (`.opd`, when the
//! architecture has descriptors) and the linkage table (`.got`). For one object this is the
//! object's own section order, `.text` at the base. The whole image is one segment (the
//! SEGREL base is [`LinkOptions::base`]).
//!
//! **Symbols.** A global definition is resolved across objects; two strong definitions are
//! an error naming both objects; a strong definition beats a weak one; the first of two weak
//! ones wins; a COMMON symbol takes the largest size and alignment seen and yields to a
//! definition. An undefined symbol no object defines is bound by [`Bindings`]: to a data
//! address, or to a stub (a synthesised entry of [`Relocations::stub_size`] bytes in the
//! stub page at [`LinkOptions::stub_base`], by default right after the objects' sections, which the core intercepts). An undefined weak
//! symbol with no binding is 0. Every other undefined symbol a relocation of a loaded section
//! needs is reported, all of them, each with the first object needing it.
//!
//! **Linker-made values.** A GOT slot per (symbol value, addend, descriptor or not) a
//! relocation asks for; a descriptor per entry address (S + A) a relocation asks for; the
//! global pointer from [`Relocations::choose_gp`] (or the `__gp` an object defines; an
//! undefined `__gp` is bound to it); the segment base for SEGREL is the link base (the whole
//! image is one segment starting at [`LinkOptions::base`]); the section base for SECREL is the
//! start of the symbol's output section; the TLS base is the start of the first SHF_TLS
//! output section.

use std::collections::{BTreeMap, HashMap};

use goblin::elf::header::ET_REL;
use goblin::elf::section_header::{SHF_ALLOC, SHF_TLS, SHT_RELA};
use goblin::elf::sym::STB_LOCAL;
use goblin::elf::Elf;
use thiserror::Error;

use crate::elf::{ElfError, Reloc, RelocCtx, Relocations, GOT_SECTION};
use crate::image::{Binding, Image, Section, SectionKind, Symbol, SymbolKind};
use crate::memory::Endian;

mod layout;
mod symbols;

pub use crate::linkage::{GotContent, GpLayout, LinkValues, Relaxation};
pub use layout::output_name;
use layout::{add_common, align_up, lay_out, merge_outputs, output_base_of};
use symbols::{
    collect_globals, local_value, output_base, read_sections, read_symbols, section_addr, weak_undefined, Def, Input,
};

/// Name of the synthesised function-descriptor section.
pub const OPD_SECTION: &str = ".opd";
/// Name of the stub page's section.
pub const STUB_SECTION: &str = ".stubs";
/// Name of the section holding COMMON symbols.
pub const COMMON_SECTION: &str = ".bss";
/// Name of the section holding small COMMON symbols ([`Relocations::small_common_limit`]).
pub const SMALL_COMMON_SECTION: &str = ".sbss";
/// The largest span of a link's sections (they are held in memory).
const MAX_SPAN: u64 = 1 << 34;

/// `SHF_IA_64_SHORT`: a section the global pointer must cover.
pub const SHF_SHORT: u64 = 0x1000_0000;

/// Where a link places things.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkOptions {
    /// Address of the first output section (`.text`).
    pub base: u64,
    /// Address of the stub page (one entry per stub); `None`: right after the sections
    /// the objects bring (COMMON included), so a `br.call` (±16 MiB) reaches it.
    pub stub_base: Option<u64>,
}

impl Default for LinkOptions {
    fn default() -> Self {
        LinkOptions { base: crate::elf::REL_BASE, stub_base: None }
    }
}

/// How undefined symbols are bound.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bindings {
    /// Symbol -> address of its data (the harness's `[data]`).
    pub data: BTreeMap<String, u64>,
    /// Symbols bound to stubs, in the order their entries are laid out.
    pub stubs: Vec<String>,
}

/// A stub's synthesised entry in the linked image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StubEntry {
    /// The symbol it binds.
    pub name: String,
    /// Its entry address (what a call or `@fptr` reaches).
    pub entry: u64,
}

/// The result of a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Linked {
    /// Sections and symbols, relocated.
    pub image: Image,
    /// The stub entries, in [`Bindings::stubs`] order: every listed stub gets one, needed
    /// by an object or not (a harness can also reach one by its symbol).
    pub stubs: Vec<StubEntry>,
    /// The global pointer the relocations used, if the architecture has one.
    pub gp: Option<u64>,
}

/// An undefined symbol nothing binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// The symbol.
    pub symbol: String,
    /// The first object whose relocation needs it.
    pub object: String,
}

/// Why objects could not be linked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LinkError {
    /// No object was given.
    #[error("nothing to link: no object given")]
    NoObjects,
    /// One object could not be read (or one of its relocations failed).
    #[error("{object}: {error}")]
    Object {
        /// The object's name.
        object: String,
        /// What is wrong (boxed: its relocation variants are large).
        error: Box<ElfError>,
    },
    /// The object is not relocatable.
    #[error("{object}: not a relocatable object (e_type {e_type}); link .o files only")]
    NotRelocatable {
        /// The object's name.
        object: String,
        /// Its `e_type`.
        e_type: u16,
    },
    /// Two strong definitions of one global symbol.
    #[error("symbol `{symbol}` is defined in both {first} and {second}")]
    Duplicate {
        /// The symbol.
        symbol: String,
        /// The object defining it first.
        first: String,
        /// The other.
        second: String,
    },
    /// Undefined symbols no object defines and no binding covers (every one).
    #[error("{}", undefined_message(.0))]
    Undefined(Vec<Unresolved>),
    /// The global pointer cannot be chosen.
    #[error("choosing __gp: {0}")]
    Gp(String),
    /// Placing sections overflowed the address space.
    #[error("section `{0}` is placed past the end of the address space")]
    Overflow(String),
}

fn undefined_message(list: &[Unresolved]) -> String {
    let items: Vec<String> = list.iter().map(|u| format!("`{}` (needed by {})", u.symbol, u.object)).collect();
    format!(
        "{} undefined symbol{} with no binding: {}; bind each in the harness ([data] NAME = \"ADDR\" or [[stub]] name = \"NAME\")",
        list.len(),
        if list.len() == 1 { "" } else { "s" },
        items.join(", ")
    )
}

/// Links `objects` (name, bytes) with `rules`, binding undefined symbols by `bindings`.
///
/// # Errors
/// A [`LinkError`]: an object that does not load, of another machine, duplicate or
/// unbound symbols, a relocation that fails (naming object, section, offset, symbol).
pub fn load_objects(
    objects: &[(&str, &[u8])],
    rules: &dyn Relocations,
    bindings: &Bindings,
    opts: &LinkOptions,
) -> Result<Linked, LinkError> {
    if objects.is_empty() {
        return Err(LinkError::NoObjects);
    }
    let mut inputs = Vec::with_capacity(objects.len());
    for (name, bytes) in objects {
        let err = |error| LinkError::Object { object: (*name).to_string(), error: Box::new(error) };
        crate::elf::check_header_for(bytes, rules).map_err(err)?;
        let elf = Elf::parse(bytes).map_err(|e| err(ElfError::Malformed(e.to_string())))?;
        if elf.header.e_type != ET_REL {
            return Err(LinkError::NotRelocatable { object: (*name).to_string(), e_type: elf.header.e_type });
        }
        let placed = vec![None; elf.section_headers.len()];
        inputs.push(Input { name: (*name).to_string(), elf, placed });
    }
    let mut image = Image::new(rules.endian());
    let mut flags_of: Vec<u64> = Vec::new();
    read_sections(objects, &mut inputs, &mut image, &mut flags_of)?;
    let globals = collect_globals(&inputs)?;
    // COMMON symbols get a section after the .bss inputs; small ones (ld's -G limit) one
    // after the .sbss inputs, as ld's .scommon.
    let limit = rules.small_common_limit();
    let mut commons: [Vec<(String, u64, u64)>; 2] = [Vec::new(), Vec::new()];
    for (n, d) in &globals {
        if let Def::Common { size, align, .. } = d {
            commons[usize::from(*size <= limit)].push((n.clone(), *size, *align));
        }
    }
    let [large, small] = &commons;
    let sections = [
        add_common(COMMON_SECTION, u64::from(SHF_ALLOC) | 1, large, &mut image, &mut flags_of)?,
        add_common(SMALL_COMMON_SECTION, u64::from(SHF_ALLOC) | 1 | SHF_SHORT, small, &mut image, &mut flags_of)?,
    ];
    let outputs = lay_out(&mut image, &flags_of, opts.base)?;
    let mut common_at: HashMap<String, (u64, usize)> = HashMap::new();
    for (list, idx) in commons.iter().zip(sections) {
        let Some(sec) = idx.and_then(|i| image.sections.get(i).map(|s| (s.addr, i))) else { continue };
        let mut at = 0u64;
        for (n, size, align) in list {
            at = align_up(at, *align).unwrap_or(at);
            common_at.insert(n.clone(), (sec.0 + at, sec.1));
            at += size;
        }
    }
    let common_section = |name: &str| common_at.get(name).map(|(_, i)| *i);
    let common_value = |name: &str| common_at.get(name).map(|(a, _)| *a);
    // Stubs: one entry each in the stub page.
    let stub_size = rules.stub_size().max(1);
    let objects_end = image.sections.iter().map(|s| s.addr.saturating_add(s.size())).max().unwrap_or(opts.base);
    let stub_base = match opts.stub_base {
        Some(b) => b,
        None => align_up(objects_end, 16).ok_or_else(|| LinkError::Overflow(STUB_SECTION.into()))?,
    };
    let stubs: Vec<StubEntry> = bindings
        .stubs
        .iter()
        .enumerate()
        .map(|(i, n)| StubEntry { name: n.clone(), entry: stub_base + i as u64 * stub_size })
        .collect();
    // Global values.
    let mut values: HashMap<String, u64> = HashMap::new();
    for (name, def) in &globals {
        let v = match def {
            Def::Section { obj, shndx, value, .. } => section_addr(&inputs, &image, *obj, *shndx).map(|a| a + value),
            Def::Abs { value, .. } => Some(*value),
            Def::Common { .. } => common_value(name),
        };
        if let Some(v) = v {
            values.insert(name.clone(), v);
        }
    }
    let weak_undef = weak_undefined(&inputs);
    // Every relocation, its symbol resolved to a value (or recorded as unresolved).
    let mut pending = Vec::new();
    let mut unresolved: Vec<Unresolved> = Vec::new();
    for (oi, input) in inputs.iter().enumerate() {
        for (rel_idx, relocs) in &input.elf.shdr_relocs {
            let Some(sh) = input.elf.section_headers.get(*rel_idx) else { continue };
            let target_elf = usize::try_from(sh.sh_info).unwrap_or(usize::MAX);
            let Some(target) = input.placed.get(target_elf).copied().flatten() else { continue };
            let obj_err = |error| LinkError::Object { object: input.name.clone(), error: Box::new(error) };
            if sh.sh_type != SHT_RELA {
                return Err(obj_err(ElfError::CorruptRelocations {
                    rel_section: input.elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("").to_string(),
                    problem: format!("a REL section (sh_type {}); only RELA relocations are used", sh.sh_type),
                }));
            }
            let (sec_name, sec_addr) = match image.sections.get(target) {
                Some(s) => (s.name.clone(), s.addr),
                None => continue,
            };
            for r in relocs.iter() {
                if r.r_type == 0 {
                    continue;
                }
                let sym = input.elf.syms.get(r.r_sym).ok_or_else(|| {
                    obj_err(ElfError::BadSymbol {
                        symbol: format!("index {} (the symbol table has {} entries)", r.r_sym, input.elf.syms.len()),
                        section: sec_name.clone(),
                        offset: r.r_offset,
                    })
                })?;
                let raw_name = input.elf.strtab.get_at(sym.st_name).unwrap_or("").to_string();
                let (name, symbol, section_base) = if r.r_sym == 0 {
                    (String::new(), Some(0), None)
                } else if sym.st_bind() == STB_LOCAL {
                    local_value(
                        input,
                        oi,
                        &inputs,
                        &image,
                        &outputs,
                        sym.st_shndx,
                        sym.st_value,
                        &raw_name,
                        sym.st_type(),
                    )
                } else {
                    let v = values.get(&raw_name).copied();
                    let base = globals.get(&raw_name).and_then(|d| match d {
                        Def::Section { obj, shndx, .. } => output_base(&inputs, &outputs, *obj, *shndx),
                        Def::Common { .. } => common_section(&raw_name).and_then(|i| output_base_of(&outputs, i)),
                        Def::Abs { .. } => None,
                    });
                    let v = v.or_else(|| {
                        if raw_name == "__gp" {
                            // Bound to the global pointer once it is chosen.
                            return Some(0);
                        }
                        bindings
                            .data
                            .get(&raw_name)
                            .copied()
                            .or_else(|| stubs.iter().find(|s| s.name == raw_name).map(|s| s.entry))
                            .or_else(|| weak_undef.contains(&raw_name).then_some(0))
                    });
                    (raw_name.clone(), v, base)
                };
                let Some(symbol) = symbol else {
                    if !unresolved.iter().any(|u| u.symbol == name) {
                        unresolved.push(Unresolved { symbol: name.clone(), object: input.name.clone() });
                    }
                    continue;
                };
                pending.push(Pending {
                    obj: oi,
                    target,
                    reloc: Reloc::of(&r, sec_addr, symbol),
                    section_base,
                    is_gp: name == "__gp" && !values.contains_key("__gp"),
                    local: r.r_sym != 0 && sym.st_bind() == STB_LOCAL,
                    ctx: RelocCtx::of(rules, r.r_type, &sec_name, name),
                });
            }
        }
    }
    if !unresolved.is_empty() {
        return Err(LinkError::Undefined(unresolved));
    }
    // Descriptors and GOT slots, in order of first use.
    let mut descriptors: Vec<u64> = Vec::new();
    for p in &pending {
        let target = p.reloc.symbol.wrapping_add(p.reloc.addend as u64);
        if rules.needs_descriptor(p.reloc.r_type) && !descriptors.contains(&target) {
            descriptors.push(target);
        }
    }
    let mut got_slots = got_slots_of(rules, &pending);
    let had_got = !got_slots.is_empty();
    let mut end = objects_end;
    if !stubs.is_empty() {
        end = end.max(stub_base + stubs.len() as u64 * stub_size);
    }
    let descriptor_size = rules.descriptor(0, 0).map_or(0, |d| d.len() as u64);
    let opd_base = align_up(end, 16).ok_or_else(|| LinkError::Overflow(OPD_SECTION.into()))?;
    if !descriptors.is_empty() && descriptor_size > 0 {
        end = opd_base + descriptors.len() as u64 * descriptor_size;
    }
    let got_base = align_up(end, 8).ok_or_else(|| LinkError::Overflow(GOT_SECTION.into()))?;
    let layout = |got_len: usize, points: Vec<u64>| {
        let mut l = GpLayout {
            sections: outputs.iter().map(|o| (o.name.clone(), o.start, o.end - o.start, o.flags)).collect(),
            got: had_got.then_some(got_base),
            defined: values.get("__gp").copied(),
            points,
        };
        if !descriptors.is_empty() && descriptor_size > 0 {
            l.sections.push((OPD_SECTION.into(), opd_base, descriptors.len() as u64 * descriptor_size, 0));
        }
        if had_got {
            l.sections.push((GOT_SECTION.into(), got_base, got_len as u64 * 8, SHF_SHORT));
        }
        l
    };
    // Relaxation as ld does it, against the gp the unrelaxed layout gives.
    let mut points = Vec::new();
    let mut rewrites = Vec::new();
    if let Some(gp0) = rules.choose_gp(&layout(got_slots.len(), Vec::new())).map_err(LinkError::Gp)? {
        for (i, p) in pending.iter_mut().enumerate() {
            let target = p.reloc.symbol.wrapping_add(p.reloc.addend as u64);
            let toff = target.wrapping_sub(gp0) as i64;
            if !(-0x20_0000..0x20_0000).contains(&toff) || p.section_base.is_none() {
                continue;
            }
            // ld records no point for a target in a short section (gp covers those anyway).
            let short = outputs
                .iter()
                .find(|o| Some(o.start) == p.section_base && o.start <= target && target <= o.end)
                .is_some_and(|o| o.flags & SHF_SHORT != 0);
            match rules.relaxation(p.reloc.r_type) {
                Relaxation::None => {}
                Relaxation::ShortReference => {
                    if !short {
                        points.push(target);
                    }
                }
                Relaxation::ToGpRelative(t) => {
                    p.reloc.r_type = t;
                    if !short {
                        points.push(target);
                    }
                }
                Relaxation::Load => rewrites.push(i),
            }
        }
        got_slots = got_slots_of(rules, &pending);
    }
    let gp = rules.choose_gp(&layout(got_slots.len(), points)).map_err(LinkError::Gp)?;
    let descriptor_of =
        |entry: u64| descriptors.iter().position(|d| *d == entry).map(|i| opd_base + i as u64 * descriptor_size);
    // The synthesised sections.
    if !descriptors.is_empty() && descriptor_size > 0 {
        let mut data = Vec::new();
        for d in &descriptors {
            data.extend(rules.descriptor(*d, gp.unwrap_or(0)).unwrap_or_default());
        }
        image.sections.push(Section {
            name: OPD_SECTION.into(),
            addr: opd_base,
            data,
            kind: SectionKind::Data,
            align: 16,
        });
    }
    let tls = outputs.iter().find(|o| o.flags & u64::from(SHF_TLS) != 0);
    let tls_values =
        LinkValues { tls_base: tls.map(|o| o.start), tls_align: tls.map_or(1, |o| o.align), ..LinkValues::default() };
    if !got_slots.is_empty() {
        let mut data = Vec::new();
        for (value, content) in &got_slots {
            let v = match content {
                GotContent::Address => *value,
                GotContent::Descriptor => descriptor_of(*value).unwrap_or(0),
                tls_kind => rules
                    .tls_got_value(*tls_kind, *value, &tls_values)
                    .map_err(|m| LinkError::Gp(format!("a TLS linkage-table slot: {m}")))?,
            };
            data.extend(if rules.endian() == Endian::Little { v.to_le_bytes() } else { v.to_be_bytes() });
        }
        image.sections.push(Section {
            name: GOT_SECTION.into(),
            addr: got_base,
            data,
            kind: SectionKind::Data,
            align: 8,
        });
    }
    for (i, mut p) in pending.into_iter().enumerate() {
        if rewrites.contains(&i) {
            let object = inputs.get(p.obj).map_or_else(String::new, |i| i.name.clone());
            let Some(section) = image.sections.get_mut(p.target) else { continue };
            rules
                .relax_load(&mut section.data, p.reloc.offset, &p.ctx)
                .map_err(|error| LinkError::Object { object, error: Box::new(error) })?;
            continue;
        }
        let t = p.reloc.r_type;
        if p.is_gp {
            p.reloc.symbol = gp.unwrap_or(0);
        }
        let target = p.reloc.symbol.wrapping_add(p.reloc.addend as u64);
        if rules.needs_got(t) {
            let key = got_key(rules, &p.reloc);
            p.reloc.got = got_slots.iter().position(|k| *k == key).map(|i| got_base + i as u64 * 8);
        }
        let link = LinkValues {
            gp,
            descriptor: if rules.needs_descriptor(t) { descriptor_of(target) } else { None },
            segment_base: opts.base,
            section_base: p.section_base,
            tls_base: tls.map(|o| o.start),
            tls_align: tls.map_or(1, |o| o.align),
        };
        let Some(section) = image.sections.get_mut(p.target) else { continue };
        let object = inputs.get(p.obj).map_or_else(String::new, |i| i.name.clone());
        rules
            .apply_linked(&p.reloc, &link, &mut section.data, &p.ctx)
            .map_err(|error| LinkError::Object { object, error: Box::new(error) })?;
    }
    // Symbols: the stubs, then each object's named symbols.
    if !stubs.is_empty() {
        let idx = image.sections.len();
        image.sections.push(Section {
            name: STUB_SECTION.into(),
            addr: stub_base,
            data: vec![0; (stubs.len() as u64 * stub_size) as usize],
            kind: SectionKind::Code,
            align: stub_size,
        });
        for s in &stubs {
            image.symbols.push(Symbol {
                name: s.name.clone(),
                value: s.entry,
                section: Some(idx),
                binding: Binding::Global,
                kind: SymbolKind::Function,
                size: stub_size,
            });
        }
    }
    read_symbols(&inputs, &globals, &mut image, &common_section, &common_value);
    if let Some(g) = gp.filter(|_| !values.contains_key("__gp")) {
        image.symbols.push(Symbol {
            name: "__gp".into(),
            value: g,
            section: None,
            binding: Binding::Global,
            kind: SymbolKind::Absolute,
            size: 0,
        });
    }
    merge_outputs(&mut image, &outputs, rules);
    Ok(Linked { image, stubs, gp })
}

/// The GOT slots `pending` asks for, in order of first use.
fn got_slots_of(rules: &dyn Relocations, pending: &[Pending]) -> Vec<(u64, GotContent)> {
    let mut slots = Vec::new();
    // Global symbols' slots first, then local ones', as ld allocates them (each class here
    // in order of first use; ld's order within a class is its hash tables').
    for local in [false, true] {
        for p in pending.iter().filter(|p| p.local == local) {
            if rules.needs_got(p.reloc.r_type) {
                let key = got_key(rules, &p.reloc);
                if !slots.contains(&key) {
                    slots.push(key);
                }
            }
        }
    }
    slots
}

/// The key of a GOT slot: the value it is made from (S, or S + A) and what it holds.
fn got_key(rules: &dyn Relocations, r: &Reloc) -> (u64, GotContent) {
    let content = rules.got_content(r.r_type);
    let v = if rules.got_slot_includes_addend() || content != GotContent::Address {
        r.symbol.wrapping_add(r.addend as u64)
    } else {
        r.symbol
    };
    (v, content)
}

/// One relocation ready to apply.
struct Pending {
    obj: usize,
    target: usize,
    reloc: Reloc,
    section_base: Option<u64>,
    is_gp: bool,
    /// The symbol is local to its object.
    local: bool,
    ctx: RelocCtx,
}
