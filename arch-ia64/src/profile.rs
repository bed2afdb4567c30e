//! Turns the CPU's per-group cycle [`Profile`] into named, disassembled groups for a
//! cycle-diff: each group under the label it follows, with its instructions' text.

use crate::bundle::SlotUnit;
use crate::cpu::Profile;
use crate::decode::{decode_bundle, Slot};
use crate::format::format_insn;
use emu_core::diff::GroupCost;
use emu_core::image::Image;
use emu_core::timing::Timeline;

/// At most this many instructions are shown per group (a group can run on past a taken
/// branch target in the text, so stop somewhere).
const MAX_SHOWN: usize = 6;

/// The text of the instruction group starting at `start` (bundle | slot): its instructions up
/// to the first stop.
fn group_text(image: &Image, start: u64) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut addr = start & !0xF;
    let mut slot = (start & 0xF) as usize;
    while parts.len() < MAX_SHOWN {
        let Some(sec) = image.sections.iter().find(|s| s.addr <= addr && addr < s.addr + s.data.len() as u64) else {
            break;
        };
        let off = (addr - sec.addr) as usize;
        let Some(bytes) = sec.data.get(off..off + 16).and_then(|b| <[u8; 16]>::try_from(b).ok()) else { break };
        let Ok(b) = decode_bundle(bytes) else { break };
        let long = b.template.units()[1] == SlotUnit::L;
        while slot < 3 && parts.len() < MAX_SHOWN {
            let index = if long && slot == 1 { 2 } else { slot };
            if let Some(Slot::Insn(insn)) = b.slots.get(index) {
                let mut t = String::new();
                if insn.qp != 0 {
                    t.push_str(&format!("(p{}) ", insn.qp));
                }
                format_insn(&mut t, insn, addr, image);
                name_constant(&mut t, image);
                parts.push(t);
            }
            let stop_slot = if long && slot == 1 { 2 } else { slot };
            if b.template.stop_after(stop_slot) {
                return parts.join(" ; ");
            }
            slot += if long && slot == 1 { 2 } else { 1 };
        }
        addr += 16;
        slot = 0;
    }
    parts.join(" ; ")
}

/// A `movl` of an address in the image's code gets the symbol it lies in, as objdump names
/// branch targets: `movl r14=0xb540 <ia64_ret_from_syscall>` (`<sym+0x10>` inside one), so a
/// return address or a handler reads as what it is.
fn name_constant(text: &mut String, image: &Image) {
    let insn = text.split_once(") ").map_or(text.as_str(), |(_, rest)| rest);
    if !insn.starts_with("movl ") {
        return;
    }
    let Some(hex) = insn.rsplit_once("=0x").map(|(_, h)| h) else { return };
    let Ok(value) = u64::from_str_radix(hex, 16) else { return };
    if let Some((name, off)) = image.symbolize(value) {
        let name = if off == 0 { format!(" <{name}>") } else { format!(" <{name}+{off:#x}>") };
        text.push_str(&name);
    }
}

/// The profile's groups, named by the label they follow and numbered within it in address
/// order, with the waits the timeline recorded: the CPU's counters as an
/// [`emu_core::profile::Profile`] (issue 16: the one profile every core shares).
pub fn named_groups(profile: &Profile, image: &Image, timeline: Option<&Timeline>) -> Vec<GroupCost> {
    named(profile, image, timeline).named_groups(image, &bundle_of, &|addr| Some(group_text(image, addr)))
}

/// The CPU's per-group counters as the shared profile, with the timeline's waits when one
/// was recorded.
pub fn shared(profile: &Profile, timeline: Option<&Timeline>) -> emu_core::profile::Profile {
    let mut out = emu_core::profile::Profile::new();
    for (&start, cost) in &profile.groups {
        out.charge(start, cost.cycles, cost.runs, cost.instructions);
    }
    if let Some(t) = timeline {
        out.attach_waits(t);
    }
    out
}

/// [`shared`] with the waits' producers named by their disassembly in `image` (the model
/// records their addresses only).
fn named(profile: &Profile, image: &Image, timeline: Option<&Timeline>) -> emu_core::profile::Profile {
    let labelled = timeline.map(|t| {
        let mut t = t.clone();
        crate::run::label_timeline(image, &mut t);
        t.name_producers();
        t
    });
    shared(profile, labelled.as_ref())
}

/// The bundle address of a group key (bundle | slot): what symbols name.
fn bundle_of(key: u64) -> u64 {
    key & !0xF
}
