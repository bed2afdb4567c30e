//! Where each instruction of a run comes from (issue 18): its symbol and offset, and its
//! source file:line with the line's text; and the timeline as text with those lines.

use emu_core::image::Image;
use emu_core::timing::Timeline;
use emu_core::trace_event::Place;
use std::collections::BTreeMap;

/// Each instruction address's [`Place`].
pub type Places = BTreeMap<u64, Place>;

/// Where each instruction of `timeline` comes from: its symbol and offset, and its source
/// file:line with the line's text where the image has a source map (an assembled source).
pub fn places(image: &Image, timeline: &Timeline) -> BTreeMap<u64, Place> {
    let mut files: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for slot in timeline.groups.iter().flat_map(|g| &g.slots) {
        if out.contains_key(&slot.addr) {
            continue;
        }
        let symbol = image.symbolize(slot.addr).map(|(name, off)| match off {
            0 => name.to_string(),
            off => format!("{name}+{off:#x}"),
        });
        let loc = image.source_loc(slot.addr);
        let source = loc.filter(|l| l.line > 0).map(|l| format!("{}:{}", l.file, l.line));
        let source_text = loc.and_then(|l| {
            let lines = files.entry(l.file.to_string()).or_insert_with(|| {
                std::fs::read(&*l.file)
                    .ok()
                    .map(|b| String::from_utf8_lossy(&b).lines().map(|s| s.trim().to_string()).collect())
            });
            let index = usize::try_from(l.line).ok()?.checked_sub(1)?;
            lines.as_ref()?.get(index).cloned()
        });
        out.insert(slot.addr, Place { symbol, source, source_text });
    }
    out
}

/// The timeline as text with, under each group, the `file:line` and text of each source line
/// its instructions come from (where the image has a source map: an assembled source).
pub fn timeline_text(timeline: &Timeline, places: &Places) -> String {
    use std::fmt::Write as _;
    let text = timeline.to_string();
    let mut out = String::new();
    for (line, group) in text.lines().zip(&timeline.groups) {
        let _ = writeln!(out, "{line}");
        let mut shown: Vec<&str> = Vec::new();
        for slot in &group.slots {
            let Some(place) = places.get(&slot.addr) else { continue };
            let Some(src) = place.source.as_deref() else { continue };
            if shown.contains(&src) {
                continue;
            }
            shown.push(src);
            let _ = writeln!(out, "         {src}: {}", place.source_text.as_deref().unwrap_or(""));
        }
    }
    out
}
