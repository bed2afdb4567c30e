//! From an address of the linked image back to the source line that produced it: the linker
//! keeps every input section as a section of its own, in object order within each output
//! section (`emu_core::link`), so the k-th linked section of a name is the section of that
//! name of the k-th object that has one; the object's assembly maps its own addresses to
//! lines.

use emu_core::error::SourceLoc;
use emu_core::image::Image;

/// Linked section ranges and where each came from.
#[derive(Debug, Clone, Default)]
pub struct SourceIndex {
    /// (linked start, linked end, object index, the section's address in the object's image).
    ranges: Vec<(u64, u64, usize, u64)>,
    /// The objects' own images (their source maps).
    images: Vec<Image>,
}

impl SourceIndex {
    /// Matches the sections of `linked` with those of `objects` (each object's assembled
    /// image, in link order). Sections whose sizes disagree are left out.
    pub fn new(linked: &Image, objects: Vec<Image>) -> SourceIndex {
        let mut ranges = Vec::new();
        let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for s in &linked.sections {
            let k = seen.entry(s.name.as_str()).or_insert(0);
            let owner = objects.iter().enumerate().filter(|(_, o)| o.section(&s.name).is_some()).nth(*k);
            *k += 1;
            if let Some((i, o)) = owner {
                if let Some(os) = o.section(&s.name).filter(|os| os.size() == s.size() && s.size() > 0) {
                    ranges.push((s.addr, s.addr + s.size(), i, os.addr));
                }
            }
        }
        SourceIndex { ranges, images: objects }
    }

    /// The source line of the code at `addr`, when known.
    pub fn locate(&self, addr: u64) -> Option<&SourceLoc> {
        let (start, _, i, base) = *self.ranges.iter().find(|(lo, hi, _, _)| (*lo..*hi).contains(&addr))?;
        self.images.get(i)?.source_loc(base + (addr - start))
    }
}
