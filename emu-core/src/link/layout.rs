//! Placing a link's sections: output sections by name, COMMON sections, and the merge of
//! each output section's inputs into one image section (see [`super`]).

use super::{LinkError, MAX_SPAN};
use crate::elf::Relocations;
use crate::image::{Image, Section, SectionKind};

/// An output section: the input sections of one name.
#[derive(Debug, Clone)]
pub(super) struct Output {
    pub(super) name: String,
    pub(super) start: u64,
    pub(super) end: u64,
    pub(super) flags: u64,
    pub(super) align: u64,
    /// Image section indices.
    pub(super) members: Vec<usize>,
}

/// Adds a COMMON section `name` (zeros) after the inputs of that name; returns its image
/// index.
pub(super) fn add_common(
    name: &str,
    flags: u64,
    commons: &[(String, u64, u64)],
    image: &mut Image,
    flags_of: &mut Vec<u64>,
) -> Result<Option<usize>, LinkError> {
    if commons.is_empty() {
        return Ok(None);
    }
    let mut size = 0u64;
    let mut align = 1u64;
    for (_, s, a) in commons {
        size = align_up(size, *a).unwrap_or(u64::MAX).saturating_add(*s);
        align = align.max(*a);
    }
    if size > MAX_SPAN {
        return Err(LinkError::Overflow(format!("{name} (COMMON symbols of {size:#x} bytes)")));
    }
    let idx = image.sections.len();
    flags_of.push(flags);
    image.sections.push(Section {
        name: name.into(),
        addr: 0,
        data: vec![0; usize::try_from(size).unwrap_or(0)],
        kind: SectionKind::Bss,
        align,
    });
    Ok(Some(idx))
}

/// Places the image's sections by output-section name (see the module documentation).
pub(super) fn lay_out(image: &mut Image, flags_of: &[u64], base: u64) -> Result<Vec<Output>, LinkError> {
    let mut outputs: Vec<Output> = Vec::new();
    for (i, s) in image.sections.iter().enumerate() {
        let name = output_name(&s.name);
        match outputs.iter_mut().find(|o| o.name == name) {
            Some(o) => o.members.push(i),
            None => outputs.push(Output {
                name: name.to_string(),
                start: 0,
                end: 0,
                flags: flags_of.get(i).copied().unwrap_or(0),
                align: s.align,
                members: vec![i],
            }),
        }
    }
    if let Some(pos) = outputs.iter().position(|o| o.name == ".text") {
        let text = outputs.remove(pos);
        outputs.insert(0, text);
    }
    let mut next = base;
    for o in &mut outputs {
        let mut first = true;
        for &m in &o.members {
            let Some(s) = image.sections.get_mut(m) else { continue };
            s.addr = align_up(next, s.align).ok_or_else(|| LinkError::Overflow(s.name.clone()))?;
            if first {
                o.start = s.addr;
                first = false;
            }
            o.align = o.align.max(s.align);
            next = s.addr.checked_add(s.size()).ok_or_else(|| LinkError::Overflow(s.name.clone()))?;
            // The image is held in memory: an alignment or size that spreads it over more
            // than 16 GiB is refused rather than allocated.
            if next - base > MAX_SPAN {
                return Err(LinkError::Overflow(s.name.clone()));
            }
        }
        o.end = next;
    }
    Ok(outputs)
}

/// The output section an input section goes to: its own name, except the families ld's
/// default script gathers (`.text.*` into `.text`, `.data.*`, `.rodata.*`, `.bss.*`,
/// `.sdata.*`, `.sbss.*` likewise, every `.IA_64.unwind_info*` and `.IA_64.unwind*`).
pub fn output_name(input: &str) -> &str {
    const FAMILIES: [&str; 6] = [".text", ".data", ".rodata", ".bss", ".sdata", ".sbss"];
    if input.starts_with(".IA_64.unwind_info") {
        return ".IA_64.unwind_info";
    }
    if input.starts_with(".IA_64.unwind") {
        return ".IA_64.unwind";
    }
    for f in FAMILIES {
        if input.strip_prefix(f).is_some_and(|rest| rest.starts_with('.')) {
            return f;
        }
    }
    input
}

/// Makes each output section one image section (its inputs with the alignment gaps zeroed,
/// or in code filled with [`Relocations::code_fill`]),
/// lets the architecture finish it ([`Relocations::finish_section`]), and renumbers the
/// symbols' sections.
pub(super) fn merge_outputs(image: &mut Image, outputs: &[Output], rules: &dyn Relocations) {
    let old = std::mem::take(&mut image.sections);
    let mut map: Vec<Option<usize>> = vec![None; old.len()];
    let mut merged = Vec::with_capacity(outputs.len() + 3);
    for o in outputs {
        let mut data: Vec<u8> = Vec::new();
        let mut kinds = Vec::new();
        let fill = if o.members.iter().any(|m| old.get(*m).is_some_and(|s| s.kind == SectionKind::Code)) {
            rules.code_fill(&o.name)
        } else {
            None
        };
        for &m in &o.members {
            let Some(s) = old.get(m) else { continue };
            let at = usize::try_from(s.addr - o.start).unwrap_or(usize::MAX);
            match &fill {
                Some(pattern) if !pattern.is_empty() => {
                    let mut k = 0;
                    while data.len() < at {
                        data.push(pattern.get(k % pattern.len()).copied().unwrap_or(0));
                        k += 1;
                    }
                }
                _ => {
                    if data.len() < at {
                        data.resize(at, 0);
                    }
                }
            }
            data.extend_from_slice(&s.data);
            kinds.push(s.kind);
            if let Some(slot) = map.get_mut(m) {
                *slot = Some(merged.len());
            }
        }
        let kind = if kinds.contains(&SectionKind::Code) {
            SectionKind::Code
        } else if kinds.iter().all(|k| *k == SectionKind::Bss) {
            SectionKind::Bss
        } else {
            SectionKind::Data
        };
        rules.finish_section(&o.name, &mut data);
        merged.push(Section { name: o.name.clone(), addr: o.start, data, kind, align: o.align });
    }
    for (i, s) in old.into_iter().enumerate() {
        if map.get(i).copied().flatten().is_none() {
            if let Some(slot) = map.get_mut(i) {
                *slot = Some(merged.len());
            }
            merged.push(s);
        }
    }
    for sym in &mut image.symbols {
        sym.section = sym.section.and_then(|i| map.get(i).copied().flatten());
    }
    image.sections = merged;
}

pub(super) fn align_up(v: u64, align: u64) -> Option<u64> {
    let align = align.max(1);
    v.checked_add(align - 1).map(|x| x / align * align)
}

pub(super) fn output_base_of(outputs: &[Output], idx: usize) -> Option<u64> {
    outputs.iter().find(|o| o.members.contains(&idx)).map(|o| o.start)
}
