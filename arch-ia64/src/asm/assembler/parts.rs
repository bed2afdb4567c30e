//! The state three directive families keep in `Assembler`: section groups and unwind regions
//! (`rest`), aliases resolved at the end (`late_alias`), explicit bundles gas stops checking
//! (`manual_checks`). Those modules act on it.

use crate::bundle::Template;
use emu_core::error::SourceLoc;
use std::collections::HashSet;

/// What this file's directives keep for the object writer.
#[derive(Debug, Default)]
pub(in crate::asm) struct RestState {
    /// Section groups in order of first use: signature, GRP_COMDAT, member sections.
    pub(in crate::asm) groups: Vec<(String, bool, Vec<usize>)>,
    /// Group members named like a section outside their group (see `ObjGroup::late_symbols`).
    pub(in crate::asm) late: Vec<usize>,
    /// `.handlerdata` sections made so far.
    pub(in crate::asm) handlers: usize,
    /// The unwind region the open procedure is in: none yet, a prologue (false) or a body.
    pub(in crate::asm) region: Option<bool>,
    /// Misplaced unwind directives are errors, not warnings: gas's unwind check turns strict
    /// after an `.endp` outside of any procedure.
    pub(in crate::asm) strict_unwind: bool,
}

/// One deferred assignment.
#[derive(Debug, Clone)]
pub(in crate::asm) struct LateAlias {
    pub(in crate::asm) name: String,
    pub(in crate::asm) target: String,
    pub(in crate::asm) addend: i64,
    pub(in crate::asm) loc: SourceLoc,
}

/// The manual bundle being read and the bundles gas stopped checking.
#[derive(Debug, Default)]
pub(in crate::asm) struct ManualChecks {
    /// Section and first instruction index of the open bundle, once it has one.
    pub(in crate::asm) open: Option<(usize, usize)>,
    /// The template directive of the open bundle.
    pub(in crate::asm) template: Option<Template>,
    /// Whether each instruction of the open bundle had a label, in order.
    pub(in crate::asm) labelled: Vec<bool>,
    /// (section, instruction) pairs whose packing errors gas does not report.
    pub(in crate::asm) suppressed: HashSet<(usize, usize)>,
}

impl ManualChecks {
    /// Whether a packing error on this instruction is one gas would not report.
    pub(in crate::asm) fn suppressed(&self, section: usize, index: usize) -> bool {
        self.suppressed.contains(&(section, index))
    }
}
