//! Turns the CPU's per-group cycle [`Profile`] into named, disassembled groups for a
//! cycle-diff: each group under the label it follows, with its instructions' text.

use crate::bundle::SlotUnit;
use crate::cpu::Profile;
use crate::decode::{decode_bundle, Slot};
use crate::format::format_insn;
use emu_core::diff::GroupCost;
use emu_core::image::Image;
use emu_core::timing::Timeline;
use std::collections::BTreeMap;

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

/// The profile's groups, named by the label they follow and numbered within it in address
/// order.
pub fn named_groups(profile: &Profile, image: &Image, timeline: Option<&Timeline>) -> Vec<GroupCost> {
    // Waits of the issue groups (by their first slot), to be told per instruction group below.
    let mut waits: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for g in timeline.map(|t| t.groups.as_slice()).unwrap_or(&[]) {
        if let Some(first) = g.slots.first() {
            for (cause, cycles) in &g.waited {
                waits.entry(first.addr | u64::from(first.slot)).or_default().push(format!("{cause} ({cycles})"));
            }
        }
    }
    let starts: Vec<u64> = profile.groups.keys().copied().collect();
    let mut per_label: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(profile.groups.len());
    for (&addr, cost) in &profile.groups {
        let label = image.symbolize(addr & !0xF).map_or_else(|| format!("0x{:x}", addr & !0xF), |(n, _)| n.to_string());
        let index = per_label.entry(label.clone()).or_insert(0);
        // The instruction group runs from its start to the next group's start.
        let end = starts.iter().find(|&&s| s > addr).copied().unwrap_or(u64::MAX);
        let why: Vec<String> = waits.range(addr..end).flat_map(|(_, w)| w.iter().cloned()).collect();
        out.push(GroupCost {
            label,
            index: *index,
            addr,
            text: group_text(image, addr),
            cycles: cost.cycles,
            runs: cost.runs,
            why: why.join(", "),
        });
        *index += 1;
    }
    out
}
