//! Where the linker put each object's sections: a section's linked start is found from a
//! global symbol it defines (its linked value less its offset in the object), so nothing
//! depends on how the linker groups input sections into output sections. From it follow the
//! gate's code range, the source lines of linked code, and the addresses the boot-time patch
//! lists name (read from the objects' own relocations of the list sections, `1b-.`).

use std::collections::BTreeMap;

use crate::asm::Assembly;
use emu_core::error::SourceLoc;
use emu_core::image::{Binding, Image};

/// The linked placement of the objects' sections.
#[derive(Debug, Clone, Default)]
pub struct Placement {
    /// (object name, section name) -> (linked start, size, the section's address in the
    /// object's own image).
    sections: BTreeMap<(String, String), (u64, u64, u64)>,
    /// The objects' images, by name (their source maps).
    images: BTreeMap<String, Image>,
}

impl Placement {
    /// Finds each section of `objects` (name, assembly) in `linked` through the global
    /// symbols it defines; sections that define none are not placed.
    pub fn new(linked: &Image, objects: &[(&str, &Assembly)]) -> Placement {
        let mut p = Placement::default();
        for (name, asm) in objects {
            for (i, s) in asm.image.sections.iter().enumerate() {
                let anchor =
                    asm.image.symbols.iter().find(|y| {
                        y.section == Some(i) && y.binding == Binding::Global && linked.symbol(&y.name).is_some()
                    });
                if let Some(y) = anchor {
                    let at = linked.symbol(&y.name).map_or(0, |l| l.value);
                    let start = at.wrapping_sub(y.value - s.addr);
                    p.sections.insert((name.to_string(), s.name.clone()), (start, s.size(), s.addr));
                }
            }
            p.images.insert(name.to_string(), asm.image.clone());
        }
        p
    }

    /// The linked [start, end) of `object`'s section `section`.
    pub fn range(&self, object: &str, section: &str) -> Option<(u64, u64)> {
        self.sections.get(&(object.to_string(), section.to_string())).map(|(s, n, _)| (*s, s + n))
    }

    /// The source line of the linked code at `addr` (bundle | slot).
    pub fn locate(&self, addr: u64) -> Option<&SourceLoc> {
        let ((obj, _), (start, _, base)) = self.sections.iter().find(|(_, (s, n, _))| addr >= *s && addr - s < *n)?;
        self.images.get(obj)?.source_loc(base + (addr - start))
    }
}

/// The instruction addresses (bundle | slot) each boot-time patch list names, from the
/// lists' relocations in every object: an entry `.xdata4 list, 1b-.` is a PC-relative
/// relocation against the label, whose linked address is the entry's target.
pub fn patch_targets(placement: &Placement, objects: &[(&str, &Assembly)]) -> BTreeMap<String, Vec<u64>> {
    let mut out: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (name, asm) in objects {
        for r in &asm.relocs {
            let Some(list) = asm.object.get(r.section).map(|s| s.name.as_str()) else { continue };
            if !list.starts_with(".data..patch.") {
                continue;
            }
            let Some((sec, off)) = r.local else { continue };
            let Some(target_sec) = asm.object.get(sec).map(|s| s.name.as_str()) else { continue };
            if let Some((start, _)) = placement.range(name, target_sec) {
                let at = start.wrapping_add(off).wrapping_add(r.addend as u64);
                out.entry(list.to_string()).or_default().push(at);
            }
        }
    }
    out
}
