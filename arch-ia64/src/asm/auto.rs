//! GNU as's dependency-violation modes (issue 13): explicit (`-x`), automatic (gas's default,
//! `-xauto`) and none (`-xnone`), the `.auto`/`.explicit`/`.default` directives, and what
//! automatic mode does to the instruction stream.
//!
//! Facts (GNU as 2.40 `ia64-linux-gnu-as`, checked by experiment; the state variables are
//! those of `gas/config/tc-ia64.c`):
//! - **Automatic mode ignores `;;`** and says so once per assembly: "Explicit stops are ignored
//!   in auto mode". Instead, before each instruction, every recorded use it conflicts with is
//!   resolved in list order: an `implied`/`impliedf` conflict adds a stop before it; a `data` or
//!   `other` one a stop (unless a stop already followed the earlier use) and a `srlz.d`; an
//!   `instr` one a stop, a `srlz.i` and another stop. The search starts over after each one.
//!   The serializations are queued like source instructions (and, like gas's, are not checked
//!   themselves); a label written before the instruction stays with the instruction.
//! - **Mode switches end the group:** `.auto`, `.explicit`, `.default` (when it changes the mode)
//!   and the implicit switches below stop after the last queued instruction. Inside `{ }` the
//!   directives warn "Directive invalid within a bundle" and still act.
//! - **`{ }` is explicit:** in the default automatic mode (not set by `.auto`), `{` switches to
//!   explicit mode (with that warning, as gas checks for a bundle after opening it) and `}`
//!   back. After `.auto`, `{` warns "Found '{' after explicit switch to automatic mode" and the
//!   bundle is checked automatically.
//! - A directive turns checking on again after `-xnone`.

use super::assembler::{Assembler, Directive, EarlyEnv, InsnRec, Switch, SymDef};
use super::bundler::PendingInsn;
use super::dv::AutoAction;
use super::matcher::match_insn;
use super::parse::parse;
use super::syntax::StmtKind;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::SectionKind;

/// The instruction automatic mode queues for a serialization action (`None` for a stop).
pub(super) fn serialization(action: AutoAction) -> Option<&'static str> {
    match action {
        AutoAction::Stop => None,
        AutoAction::SrlzD => Some("srlz.d"),
        AutoAction::SrlzI => Some("srlz.i"),
    }
}

impl Assembler {
    /// A `;;` in automatic mode: warns the first time; returns whether to honour it.
    pub(super) fn auto_stop(&mut self, loc: &SourceLoc) -> bool {
        match self.mode.stop() {
            Ok(()) => true,
            Err(warning) => {
                if let Some(text) = warning {
                    self.warnings.push(Diagnostic::warning(loc.clone(), text));
                }
                false
            }
        }
    }

    /// `{` or `}` (already recorded as opening or closing a bundle): gas's implicit mode switch.
    pub(super) fn brace_mode_switch(&mut self, open: bool, loc: &SourceLoc) {
        let sw = if open { self.mode.bundle_open() } else { self.mode.bundle_close() };
        self.apply_switch(sw, loc);
    }

    /// `.auto`, `.explicit` or `.default`.
    pub(super) fn mode_directive(&mut self, name: &str, loc: &SourceLoc) {
        let Some(d) = Directive::named(name) else {
            return;
        };
        let in_bundle = self.manual_open.is_some();
        let sw = self.mode.directive(d, in_bundle);
        self.apply_switch(sw, loc);
    }

    fn apply_switch(&mut self, sw: Switch, loc: &SourceLoc) {
        for w in sw.warnings {
            self.warnings.push(Diagnostic::warning(loc.clone(), w));
        }
        if sw.group_break {
            self.group_break();
        }
    }

    /// gas's `insn_group_break (1, 0, 0)`: a stop after the last queued instruction of the
    /// current code section, and the DV state's group break.
    fn group_break(&mut self) {
        let sec = self.sec();
        if sec.kind == SectionKind::Code {
            sec.bundler.stop();
        }
        self.dv.stop();
    }

    /// Applies what [`DvChecker::auto_insn`](super::dv::DvChecker::auto_insn) decided before the
    /// instruction at `loc` (the DV state is already updated): stops, and serializations queued
    /// as instructions located at `loc`. The labels waiting for that instruction move past the
    /// serializations, as in gas.
    pub(super) fn apply_auto(&mut self, actions: &[AutoAction], loc: &SourceLoc) {
        for &a in actions {
            let Some(text) = serialization(a) else {
                let sec = self.sec();
                sec.bundler.stop();
                continue;
            };
            self.push_serialization(text, loc);
        }
    }

    fn push_serialization(&mut self, text: &str, loc: &SourceLoc) {
        let at = |_: u32, _: u32| loc.clone();
        let (stmts, errs) = parse(text, &at);
        let syn = stmts.into_iter().find_map(|s| match s.kind {
            StmtKind::Insn(syn) => Some(syn),
            _ => None,
        });
        let matched = match syn.map(|syn| match_insn(&syn, &EarlyEnv { asm: self })) {
            Some(Ok(m)) if errs.is_empty() => m,
            _ => {
                self.errors.push(Diagnostic::error(loc.clone(), format!("cannot insert `{text}` here")));
                return;
            }
        };
        let cur = self.current;
        self.sections[cur].pad_to_bundle();
        let sec = &mut self.sections[cur];
        let index = sec.insns.len();
        sec.bundler.push(PendingInsn { class: matched.class, placement: matched.placement }, false, None);
        sec.insns.push(InsnRec { matched, loc: loc.clone(), mnemonic: text.to_string(), ldxmov: None });
        // The waiting labels were defined at this index: they belong to the next instruction.
        let waiting = sec.pending_labels.clone();
        for name in waiting {
            if let Some((SymDef::Insn { section, index: i, .. }, _)) = self.symbols.get_mut(&name) {
                if *section == cur && *i == index {
                    *i = index + 1;
                }
            }
        }
        self.obj.insn_added(cur, index);
    }
}
