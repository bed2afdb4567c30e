//! The dependency-violation mode (gas's `-x`, `.auto`/`.explicit`/`.default` and the implicit
//! switches around `{ }`): the state `Assembler` keeps; `auto` acts on it.

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
pub(in crate::asm) struct Switch {
    /// End the instruction group (stop after the last queued instruction, DV group break).
    pub group_break: bool,
    /// Warnings to report at the directive or brace.
    pub warnings: Vec<&'static str>,
}

/// gas's `md.detect_dv`, `md.explicit_mode`, `md.default_explicit_mode`,
/// `md.mode_explicitly_set`, and the once-only stop warning.
#[derive(Debug, Clone)]
pub(in crate::asm) struct ModeState {
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
pub(in crate::asm) enum Directive {
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
