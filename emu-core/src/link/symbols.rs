//! A link's inputs: each object's allocated sections, the global symbol table across
//! objects, and the symbols of the linked image (see [`super`]).

use std::collections::BTreeMap;

use goblin::elf::section_header::{SHF_ALLOC, SHN_ABS, SHN_COMMON, SHN_UNDEF};
use goblin::elf::sym::{STB_LOCAL, STB_WEAK, STT_FILE, STT_FUNC, STT_OBJECT, STT_SECTION};
use goblin::elf::Elf;

use super::layout::{output_base_of, Output};
use super::LinkError;
use crate::elf::section_contents;
use crate::image::{Binding, Image, Section, Symbol, SymbolKind};

/// One parsed input object.
pub(super) struct Input<'a> {
    pub(super) name: String,
    pub(super) elf: Elf<'a>,
    /// ELF section index -> image section index.
    pub(super) placed: Vec<Option<usize>>,
}

/// A global symbol's definition.
#[derive(Debug, Clone)]
pub(super) enum Def {
    /// In section `shndx` of object `obj` at `value`.
    Section { obj: usize, shndx: usize, value: u64, weak: bool, kind: u8, size: u64 },
    /// Absolute.
    Abs { obj: usize, value: u64, weak: bool },
    /// COMMON: size and alignment.
    Common { obj: usize, size: u64, align: u64 },
}

impl Def {
    fn obj(&self) -> usize {
        match self {
            Def::Section { obj, .. } | Def::Abs { obj, .. } | Def::Common { obj, .. } => *obj,
        }
    }
    fn weak(&self) -> bool {
        match self {
            Def::Section { weak, .. } | Def::Abs { weak, .. } => *weak,
            Def::Common { .. } => false,
        }
    }
}

/// Copies every allocated section of every object into `image` (unplaced).
pub(super) fn read_sections(
    objects: &[(&str, &[u8])],
    inputs: &mut [Input<'_>],
    image: &mut Image,
    flags_of: &mut Vec<u64>,
) -> Result<(), LinkError> {
    for (input, (_, bytes)) in inputs.iter_mut().zip(objects) {
        for (i, sh) in input.elf.section_headers.iter().enumerate() {
            if sh.sh_flags & u64::from(SHF_ALLOC) == 0 {
                continue;
            }
            let name = input.elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("").to_string();
            let err = |error| LinkError::Object { object: input.name.clone(), error: Box::new(error) };
            let (kind, data) = section_contents(sh, bytes, &name).map_err(err)?;
            if let Some(slot) = input.placed.get_mut(i) {
                *slot = Some(image.sections.len());
            }
            flags_of.push(sh.sh_flags);
            image.sections.push(Section { name, addr: 0, data, kind, align: sh.sh_addralign.max(1) });
        }
    }
    Ok(())
}

/// The global symbol table across objects.
pub(super) fn collect_globals(inputs: &[Input<'_>]) -> Result<BTreeMap<String, Def>, LinkError> {
    let mut globals: BTreeMap<String, Def> = BTreeMap::new();
    for (oi, input) in inputs.iter().enumerate() {
        for sym in input.elf.syms.iter() {
            if sym.st_bind() == STB_LOCAL || sym.st_shndx == SHN_UNDEF as usize {
                continue;
            }
            let Some(name) = input.elf.strtab.get_at(sym.st_name).filter(|n| !n.is_empty()) else { continue };
            let weak = sym.st_bind() == STB_WEAK;
            let def = if sym.st_shndx == SHN_ABS as usize {
                Def::Abs { obj: oi, value: sym.st_value, weak }
            } else if sym.st_shndx == SHN_COMMON as usize {
                Def::Common { obj: oi, size: sym.st_size, align: sym.st_value.max(1) }
            } else if input.placed.get(sym.st_shndx).copied().flatten().is_some() {
                Def::Section {
                    obj: oi,
                    shndx: sym.st_shndx,
                    value: sym.st_value,
                    weak,
                    kind: sym.st_type(),
                    size: sym.st_size,
                }
            } else {
                continue;
            };
            let Some(old) = globals.get(name) else {
                globals.insert(name.to_string(), def);
                continue;
            };
            let replace = match (old, &def) {
                (Def::Common { size: s1, align: a1, obj }, Def::Common { size: s2, align: a2, .. }) => {
                    Some(Def::Common { obj: *obj, size: (*s1).max(*s2), align: (*a1).max(*a2) })
                }
                (Def::Common { .. }, _) => Some(def.clone()),
                (_, Def::Common { .. }) => None,
                (o, d) if o.weak() && !d.weak() => Some(def.clone()),
                (o, d) if !o.weak() && !d.weak() => {
                    let first = inputs.get(o.obj()).map_or_else(String::new, |i| i.name.clone());
                    return Err(LinkError::Duplicate { symbol: name.to_string(), first, second: input.name.clone() });
                }
                _ => None,
            };
            if let Some(d) = replace {
                globals.insert(name.to_string(), d);
            }
        }
    }
    Ok(globals)
}

/// Names of weak undefined references no object defines (they resolve to 0).
pub(super) fn weak_undefined(inputs: &[Input<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    for input in inputs {
        for sym in input.elf.syms.iter() {
            if sym.st_shndx == SHN_UNDEF as usize && sym.st_bind() == STB_WEAK {
                if let Some(n) = input.elf.strtab.get_at(sym.st_name) {
                    out.push(n.to_string());
                }
            }
        }
    }
    out
}

pub(super) fn section_addr(inputs: &[Input<'_>], image: &Image, obj: usize, shndx: usize) -> Option<u64> {
    let idx = inputs.get(obj)?.placed.get(shndx).copied().flatten()?;
    image.sections.get(idx).map(|s| s.addr)
}

pub(super) fn output_base(inputs: &[Input<'_>], outputs: &[Output], obj: usize, shndx: usize) -> Option<u64> {
    let idx = inputs.get(obj)?.placed.get(shndx).copied().flatten()?;
    output_base_of(outputs, idx)
}

/// A local symbol's name (the section's for a section symbol), value, and output-section
/// base; `None` value for a symbol of a section that is not loaded.
#[allow(clippy::too_many_arguments)]
pub(super) fn local_value(
    input: &Input<'_>,
    oi: usize,
    inputs: &[Input<'_>],
    image: &Image,
    outputs: &[Output],
    shndx: usize,
    value: u64,
    raw_name: &str,
    st_type: u8,
) -> (String, Option<u64>, Option<u64>) {
    if shndx == SHN_ABS as usize {
        return (raw_name.to_string(), Some(value), None);
    }
    let idx = input.placed.get(shndx).copied().flatten();
    let name = if st_type == STT_SECTION || raw_name.is_empty() {
        idx.and_then(|i| image.sections.get(i)).map_or_else(|| format!("section #{shndx}"), |s| s.name.clone())
    } else {
        raw_name.to_string()
    };
    let addr = section_addr(inputs, image, oi, shndx).map(|a| a.wrapping_add(value));
    (name, addr, output_base(inputs, outputs, oi, shndx))
}

/// The named symbols of every object at their final addresses (globals once, as resolved).
pub(super) fn read_symbols(
    inputs: &[Input<'_>],
    globals: &BTreeMap<String, Def>,
    image: &mut Image,
    common_section: &dyn Fn(&str) -> Option<usize>,
    common_value: &dyn Fn(&str) -> Option<u64>,
) {
    let mut out = Vec::new();
    for (name, def) in globals {
        let (section, value, kind, size) = match def {
            Def::Section { obj, shndx, value, kind, size, .. } => {
                let Some(idx) = inputs.get(*obj).and_then(|i| i.placed.get(*shndx).copied().flatten()) else {
                    continue;
                };
                let base = image.sections.get(idx).map_or(0, |s| s.addr);
                let kind = match *kind {
                    STT_FUNC => SymbolKind::Function,
                    STT_OBJECT => SymbolKind::Object,
                    _ => SymbolKind::Label,
                };
                (Some(idx), base + value, kind, *size)
            }
            Def::Abs { value, .. } => (None, *value, SymbolKind::Absolute, 0),
            Def::Common { size, .. } => {
                (common_section(name), common_value(name).unwrap_or(0), SymbolKind::Object, *size)
            }
        };
        out.push(Symbol { name: name.clone(), value, section, binding: Binding::Global, kind, size });
    }
    for input in inputs {
        for sym in input.elf.syms.iter() {
            let t = sym.st_type();
            if sym.st_bind() != STB_LOCAL || t == STT_SECTION || t == STT_FILE || sym.st_shndx == SHN_UNDEF as usize {
                continue;
            }
            let Some(name) = input.elf.strtab.get_at(sym.st_name).filter(|n| !n.is_empty()) else { continue };
            let (section, value, kind) = if sym.st_shndx == SHN_ABS as usize {
                (None, sym.st_value, SymbolKind::Absolute)
            } else {
                let Some(idx) = input.placed.get(sym.st_shndx).copied().flatten() else { continue };
                let base = image.sections.get(idx).map_or(0, |s| s.addr);
                let kind = match t {
                    STT_FUNC => SymbolKind::Function,
                    STT_OBJECT => SymbolKind::Object,
                    _ => SymbolKind::Label,
                };
                (Some(idx), base.wrapping_add(sym.st_value), kind)
            };
            out.push(Symbol {
                name: name.to_string(),
                value,
                section,
                binding: Binding::Local,
                kind,
                size: sym.st_size,
            });
        }
    }
    image.symbols.extend(out);
}
