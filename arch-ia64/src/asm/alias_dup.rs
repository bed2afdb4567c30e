//! gas's checks on `.alias` and `.secalias` (issue 13, gas's pound test): a name keeps its
//! first alias, and an alias string names one symbol or section only.

use super::assembler::{display_name, Assembler};
use emu_core::error::SourceLoc;

impl Assembler {
    /// Records `alias` for `target` (a section for `.secalias`), or reports gas's error
    /// when either already has another partner; repeating the same pair is fine.
    pub(super) fn set_alias(&mut self, section: bool, target: String, alias: String, loc: &SourceLoc) {
        let kind = if section { "section" } else { "symbol" };
        let map = if section { &self.sec_aliases } else { &self.sym_aliases };
        let message = if let Some((other, _)) = map.iter().find(|(t, a)| **a == alias && **t != target) {
            Some(format!("`{alias}' is already the alias of {kind} `{}'", display_name(other)))
        } else {
            match map.get(&target) {
                Some(old) if *old != alias => {
                    Some(format!("{kind} `{}' already has an alias `{old}'", display_name(&target)))
                }
                _ => None,
            }
        };
        match message {
            Some(m) => self.error(loc, m),
            None if section => {
                self.sec_aliases.insert(target, alias);
            }
            None => {
                self.sym_aliases.insert(target, alias);
            }
        }
    }
}
