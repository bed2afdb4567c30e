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

use super::bundler::PendingInsn;
use super::dv::AutoAction;
use super::layout::{Assembler, EarlyEnv, InsnRec, SymDef};
use super::matcher::match_insn;
use super::parse::parse;
use super::syntax::StmtKind;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::SectionKind;

/// The dependency-violation mode chosen on the command line (gas's `-x` options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DvMode {
    /// `-x`, `-xexplicit`: stops as written, violations reported as warnings (acctemu's
    /// default, since the kernel is assembled with `-x`).
    #[default]
    Explicit,
    /// No `-x`, or `-xauto`: gas's own default; stops and serializations inserted.
    Auto,
    /// `-xnone`: stops as written, no checking.
    None,
}

impl DvMode {
    /// Parses the argument of gas's `-x` option (`""` for `-x` alone). The debug variants
    /// (`debug`, `debugx`, `debugn`) print gas's checker trace, which is not modelled.
    ///
    /// # Errors
    /// gas's message for an unknown argument, or why a debug variant is refused.
    pub fn from_gas_arg(arg: &str) -> Result<DvMode, String> {
        match arg {
            "" | "explicit" => Ok(DvMode::Explicit),
            "auto" => Ok(DvMode::Auto),
            "none" => Ok(DvMode::None),
            "debug" | "debugx" | "debugn" => {
                Err(format!("-x{arg}: the dependency checker's debug trace of gas is not modelled"))
            }
            _ => Err(format!("Unrecognized option '-x{arg}'")),
        }
    }
}

/// What a mode change asks of the assembler.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Switch {
    /// End the instruction group (stop after the last queued instruction, DV group break).
    pub group_break: bool,
    /// Warnings to report at the directive or brace.
    pub warnings: Vec<&'static str>,
}

/// gas's `md.detect_dv`, `md.explicit_mode`, `md.default_explicit_mode`,
/// `md.mode_explicitly_set`, and the once-only stop warning.
#[derive(Debug, Clone)]
pub(super) struct ModeState {
    detect_dv: bool,
    explicit: bool,
    default_explicit: bool,
    explicitly_set: bool,
    warned_stops: bool,
}

impl ModeState {
    /// The state at the start of an assembly with `mode` from the command line.
    pub fn new(mode: DvMode) -> ModeState {
        ModeState {
            detect_dv: mode != DvMode::None,
            explicit: mode == DvMode::Explicit,
            default_explicit: mode == DvMode::Explicit,
            explicitly_set: false,
            warned_stops: false,
        }
    }

    /// Whether instructions go through automatic dependency resolution.
    pub fn automatic(&self) -> bool {
        self.detect_dv && !self.explicit
    }

    /// Whether violations are reported as warnings (explicit mode).
    pub fn warns(&self) -> bool {
        self.detect_dv && self.explicit
    }

    /// A `;;`: `Ok(())` to honour it, `Err(Some(text))` to ignore it with gas's warning (the
    /// first time), `Err(None)` to ignore it silently.
    pub fn stop(&mut self) -> Result<(), Option<&'static str>> {
        if !self.automatic() {
            return Ok(());
        }
        if std::mem::replace(&mut self.warned_stops, true) {
            Err(None)
        } else {
            Err(Some("Explicit stops are ignored in auto mode"))
        }
    }

    /// `{` (after the assembler marked the bundle open).
    pub fn bundle_open(&mut self) -> Switch {
        if !self.automatic() {
            return Switch::default();
        }
        if !self.explicitly_set && !self.default_explicit {
            self.directive(Directive::ToExplicit, true)
        } else {
            Switch { group_break: false, warnings: vec!["Found '{' after explicit switch to automatic mode"] }
        }
    }

    /// `}` (after the assembler marked the bundle closed).
    pub fn bundle_close(&mut self) -> Switch {
        if self.detect_dv && self.explicit && !self.explicitly_set && !self.default_explicit {
            self.directive(Directive::ToAuto, false)
        } else {
            Switch::default()
        }
    }

    /// gas's `dot_dv_mode`. `in_bundle`: a manual bundle is open.
    pub fn directive(&mut self, d: Directive, in_bundle: bool) -> Switch {
        let mut sw = Switch::default();
        if in_bundle {
            sw.warnings.push("Directive invalid within a bundle");
        }
        self.explicitly_set = matches!(d, Directive::Auto | Directive::Explicit);
        self.detect_dv = true;
        let explicit = match d {
            Directive::Auto | Directive::ToAuto => false,
            Directive::Explicit | Directive::ToExplicit => true,
            Directive::Default => self.default_explicit,
        };
        sw.group_break = explicit != self.explicit;
        self.explicit = explicit;
        sw
    }
}

/// A mode directive, or one of gas's implicit switches around `{ }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Directive {
    /// `.auto`.
    Auto,
    /// `.explicit`.
    Explicit,
    /// `.default`: back to the command line's mode.
    Default,
    /// `}` leaving a manual bundle of the default automatic mode.
    ToAuto,
    /// `{` in the default automatic mode.
    ToExplicit,
}

impl Directive {
    /// The directive of this name, if it is one.
    pub fn named(name: &str) -> Option<Directive> {
        match name {
            ".auto" => Some(Directive::Auto),
            ".explicit" => Some(Directive::Explicit),
            ".default" => Some(Directive::Default),
            _ => None,
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gas_x_arguments() {
        assert_eq!(DvMode::from_gas_arg(""), Ok(DvMode::Explicit));
        assert_eq!(DvMode::from_gas_arg("explicit"), Ok(DvMode::Explicit));
        assert_eq!(DvMode::from_gas_arg("auto"), Ok(DvMode::Auto));
        assert_eq!(DvMode::from_gas_arg("none"), Ok(DvMode::None));
        assert_eq!(DvMode::from_gas_arg("bogus"), Err("Unrecognized option '-xbogus'".to_string()));
        assert!(DvMode::from_gas_arg("debug").is_err());
    }

    #[test]
    fn stops_warn_once_in_auto_mode_only() {
        let mut m = ModeState::new(DvMode::Auto);
        assert_eq!(m.stop(), Err(Some("Explicit stops are ignored in auto mode")));
        assert_eq!(m.stop(), Err(None));
        assert_eq!(ModeState::new(DvMode::Explicit).stop(), Ok(()));
        assert_eq!(ModeState::new(DvMode::None).stop(), Ok(()));
    }

    #[test]
    fn braces_switch_the_default_auto_mode_only() {
        let mut m = ModeState::new(DvMode::Auto);
        let open = m.bundle_open();
        assert!(open.group_break);
        assert_eq!(open.warnings, vec!["Directive invalid within a bundle"]);
        assert!(!m.automatic());
        assert!(m.bundle_close().group_break);
        assert!(m.automatic());
        let mut m = ModeState::new(DvMode::Auto);
        assert!(m.directive(Directive::Auto, false) == Switch::default());
        let open = m.bundle_open();
        assert!(!open.group_break);
        assert_eq!(open.warnings, vec!["Found '{' after explicit switch to automatic mode"]);
        let mut m = ModeState::new(DvMode::Explicit);
        assert_eq!(m.bundle_open(), Switch::default());
        assert_eq!(m.bundle_close(), Switch::default());
    }

    #[test]
    fn directives() {
        let mut m = ModeState::new(DvMode::Explicit);
        assert!(m.directive(Directive::Auto, false).group_break);
        assert!(m.automatic());
        assert!(m.directive(Directive::Default, false).group_break);
        assert!(m.warns());
        assert!(!m.directive(Directive::Explicit, false).group_break);
        let mut m = ModeState::new(DvMode::None);
        assert!(!m.warns() && !m.automatic());
        m.directive(Directive::Explicit, false);
        assert!(m.warns());
    }
}
