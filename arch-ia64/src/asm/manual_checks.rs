//! gas's placement errors inside manual bundles `{ ... }` (issue 13, gas's label, slot2,
//! last and no-fit tests): a label after the first instruction, a slot-2-only branch or a
//! must-end-group instruction that is not the bundle's last, an M-unit group ender outside
//! slot 0 of an MMI bundle, and gas's wording for instructions left over. After the first
//! three gas gives up on the bundle and reports nothing else about it.

use super::assembler::Assembler;
use super::bundler::{InsnClass, Placement};
use crate::bundle::Template;
use emu_core::error::Diagnostic;

impl Assembler {
    /// Notes an instruction of the current section (before its labels are consumed).
    pub(super) fn manual_note_insn(&mut self, template: Option<Template>) {
        if self.manual_open.is_none() {
            return;
        }
        let cur = self.current;
        let sec = &self.sections[cur];
        let m = &mut self.manual;
        if m.open.is_none() {
            m.open = Some((cur, sec.insns.len()));
            m.template = template;
            m.labelled.clear();
        }
        m.labelled.push(!sec.pending_labels.is_empty());
    }

    /// Checks the manual bundle just closed (or left open at the end of input).
    pub(super) fn manual_close(&mut self) {
        let Some((section, first)) = self.manual.open.take() else { return };
        let labelled = std::mem::take(&mut self.manual.labelled);
        let template = self.manual.template.take();
        let end = first + labelled.len();
        let mut give_up = false;
        for (k, &has_label) in labelled.iter().enumerate() {
            let index = first + k;
            let Some(rec) = self.sections[section].insns.get(index) else { break };
            let is_last = index + 1 == end;
            let name = rec.matched.gas_name.clone();
            let loc = rec.loc.clone();
            let (message, stop) = if k > 0 && has_label {
                ("Label must be first in a bundle".to_string(), true)
            } else if rec.matched.placement == Placement::Slot2 && !is_last {
                (format!("`{name}' must be last in bundle"), true)
            } else if rec.matched.placement == Placement::Last && rec.matched.class == InsnClass::B && !is_last {
                (format!("`{name}' must be last in instruction group"), true)
            } else if rec.matched.placement == Placement::Last
                && rec.matched.class == InsnClass::M
                && (k > 0 || template.is_some_and(|t| t.name() != "MMI"))
            {
                // gas needs slot 0 of M;;MI; past slot 0 it also gives up on the bundle.
                (format!("`{name}' must be last in instruction group"), k > 0)
            } else {
                continue;
            };
            self.errors.push(Diagnostic::error(loc, message));
            if stop {
                give_up = true;
                break;
            }
        }
        if give_up {
            self.manual.suppressed.extend((first..end).map(|i| (section, i)));
        }
    }

    /// gas's text for an instruction a manual bundle had no room for: which slots were
    /// left after the previous instruction, or "does not fit into bundle" when none was.
    pub(super) fn leftover_message(&self, section: usize, index: usize, name: &str) -> String {
        let sec = &self.sections[section];
        let prev = index.checked_sub(1).and_then(|p| sec.bundler.location(p));
        let placed = prev.and_then(|l| {
            let chunk = sec.bundle_chunks.get(l.bundle)?;
            match sec.chunks.get(*chunk)? {
                super::assembler::Chunk::Bundle(b) => Some((l.slot, b.template)),
                super::assembler::Chunk::Data(_) => None,
            }
        });
        let Some((slot, template)) = placed else { return format!("`{name}' does not fit into bundle") };
        let mlx = template.name() == "MLX";
        // An X instruction sits in slot 1 of MLX and fills slot 2 too.
        let last_slot = if mlx && slot == 1 { 2 } else { slot };
        if last_slot >= 2 {
            return format!("`{name}' does not fit into bundle");
        }
        let slots = if mlx {
            "X slot"
        } else if last_slot == 0 {
            "slots 2 or 3"
        } else {
            "slot 3"
        };
        format!("`{name}' can't go in {slots} of {} template", template.name())
    }
}
