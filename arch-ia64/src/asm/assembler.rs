//! The assembler's state: its sections, symbols and pending fixups, and the state each
//! directive family keeps in it (`mode`, `parts`, `object::obj_state`). The directive and
//! instruction handlers (`auto`, `rest`, `directive`, `object::capture` ...) are `impl
//! Assembler` blocks that use it, and the statement driver (`layout`) sits above them all.

mod mode;
mod parts;

pub use mode::DvMode;
pub(super) use mode::{Directive, ModeState, Switch};
pub(super) use parts::{LateAlias, ManualChecks, RestState};

use super::bundler::{Bundler, PlacedBundle};
use super::dv::DvChecker;
use super::expr::{Expr, SymbolEnv};
use super::matcher::Matched;
use super::reloc::Reloc;
use crate::bundle::Template;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::SectionKind;
use std::collections::HashMap;

/// One instruction waiting for its encoding.
pub(super) struct InsnRec {
    pub matched: Matched,
    pub loc: SourceLoc,
    /// The mnemonic as written, for messages.
    pub mnemonic: String,
    /// `ld8.mov r = [r], sym` (issue 13): the symbol of its LDXMOV relocation.
    pub ldxmov: Option<Expr>,
}

/// A piece of a section's contents, in order.
pub(super) enum Chunk {
    /// A bundle from the packer (numbered as the packer numbers them).
    Bundle(PlacedBundle),
    /// Raw bytes (data directives, `.skip`).
    Data(Vec<u8>),
}

/// A data value to fill in once symbols are known.
pub(in crate::asm) struct Fixup {
    pub offset: u64,
    pub size: usize,
    pub expr: Expr,
    pub loc: SourceLoc,
    /// Written most significant byte first (`.msb`; issue 13), with the MSB relocation.
    pub big_endian: bool,
}

/// One section being assembled.
pub(super) struct SectionState {
    pub name: String,
    pub kind: SectionKind,
    pub align: u64,
    pub chunks: Vec<Chunk>,
    /// Size of the chunks so far.
    pub size: u64,
    /// Code sections: the packer, the instructions by sequence index, bundles taken so far.
    pub bundler: Bundler,
    pub insns: Vec<InsnRec>,
    pub bundles_taken: usize,
    /// Address (offset) of each bundle by packer number.
    pub bundle_offsets: Vec<u64>,
    /// Index in `chunks` of each bundle by packer number.
    pub bundle_chunks: Vec<usize>,
    /// Labels waiting for the next instruction of this section.
    pub pending_labels: Vec<String>,
    pub fixups: Vec<Fixup>,
    /// `.msb` is in effect for this section's data (issue 13); each section starts `.lsb`.
    pub big_endian: bool,
}

/// Where a symbol's value comes from.
#[derive(Debug, Clone)]
pub(super) enum SymDef {
    /// An absolute value.
    Abs(u64),
    /// An offset in a section.
    At(usize, u64),
    /// The bundle (and slot, for tags) holding instruction `index` of a code section.
    Insn { section: usize, index: usize, slot_offset: bool },
}

/// The assembler.
pub(super) struct Assembler {
    pub sections: Vec<SectionState>,
    /// Index in `sections` by name.
    pub section_index: HashMap<String, usize>,
    pub current: usize,
    pub previous: usize,
    pub section_stack: Vec<usize>,
    pub symbols: HashMap<String, (SymDef, SourceLoc)>,
    pub globals: std::collections::HashSet<String>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    pub user_template: Option<Template>,
    pub dv: DvChecker,
    /// Bytes of output the size-changing directives (`.skip`, `.align`) have added so far.
    pub output_bytes: u64,
    /// The most those directives may add in all ([`emu_core::input::Limits::max_output_size`]).
    pub max_output: u64,
    /// Relocations found while rendering the object sections.
    pub relocs: Vec<Reloc>,
    /// Where each defined symbol lives after layout: section index and offset (set by `finish`).
    pub placed: HashMap<String, (usize, u64)>,
    /// Address of the section being rendered (relocation offsets are relative to it).
    pub render_base: u64,
    /// `.secalias`: section name -> name in the object file.
    pub sec_aliases: HashMap<String, String>,
    /// `.alias`: symbol name -> name in the object file.
    pub sym_aliases: HashMap<String, String>,
    /// The bytes of each file an `.incbin` names, read before assembly (or why not).
    pub incbin_files: HashMap<String, Result<Vec<u8>, String>>,
    /// Where the manual bundle `{` still open was opened.
    pub manual_open: Option<SourceLoc>,
    /// ELF object writer (issue 13): creation order, functions, unwind, relocations.
    pub obj: super::object::obj_state::ObjState,
    /// Dependency-violation mode (issue 13, automatic mode: `auto.rs`).
    pub mode: ModeState,
    /// The remaining directives (issue 13): section groups.
    pub rest: RestState,
    /// `name = label` assignments resolved at the end (issue 13: `late_alias.rs`).
    pub late_aliases: Vec<LateAlias>,
    /// gas's placement errors in manual bundles (issue 13: `manual_checks.rs`).
    pub manual: ManualChecks,
}

impl SectionState {
    /// An empty section.
    pub fn new_named(name: &str, kind: SectionKind) -> SectionState {
        SectionState {
            name: name.to_string(),
            kind,
            align: if kind == SectionKind::Code { 16 } else { 1 },
            chunks: Vec::new(),
            size: 0,
            bundler: Bundler::new(),
            insns: Vec::new(),
            bundles_taken: 0,
            bundle_offsets: Vec::new(),
            bundle_chunks: Vec::new(),
            pending_labels: Vec::new(),
            fixups: Vec::new(),
            big_endian: false,
        }
    }

    /// Moves finished bundles from the packer into the contents, and applies stops the packer
    /// decided late (R12: a zero-length `.align` before a must-be-first instruction).
    pub fn sync(&mut self) {
        for b in self.bundler.take() {
            self.bundle_offsets.push(self.size);
            self.bundle_chunks.push(self.chunks.len());
            self.chunks.push(Chunk::Bundle(b));
            self.size += 16;
            self.bundles_taken += 1;
        }
        for n in self.bundler.take_late_stops() {
            if let Some(Chunk::Bundle(b)) = self.bundle_chunks.get(n).and_then(|&ci| self.chunks.get_mut(ci)) {
                b.template = b.template.with_end_stop(true);
            }
        }
    }

    /// Zero bytes up to the next 16-byte boundary when data left the section unaligned and
    /// no instruction is queued: bundles start at multiples of 16 (gas pads with zeros).
    pub fn pad_to_bundle(&mut self) {
        if self.kind == SectionKind::Code && !self.size.is_multiple_of(16) && self.bundler.pending() == 0 {
            let pad = 16 - self.size % 16;
            self.chunks.push(Chunk::Data(vec![0; pad as usize]));
            self.size += pad;
        }
    }

    /// The emission address `.` (R5: it lags behind queued instructions).
    pub fn dot(&self) -> u64 {
        if self.kind == SectionKind::Code {
            self.size + 16 * (self.bundler.emitted() - self.bundles_taken) as u64
        } else {
            self.size
        }
    }
}

/// Symbol values during statement processing: only what is already fixed.
pub(super) struct EarlyEnv<'a> {
    pub asm: &'a Assembler,
}

impl SymbolEnv for EarlyEnv<'_> {
    fn symbol(&self, name: &str) -> Option<u64> {
        match self.asm.symbols.get(name)?.0 {
            SymDef::Abs(v) => Some(v),
            _ => None,
        }
    }
    fn dot(&self) -> Option<u64> {
        None
    }
}

/// Symbol values as offsets in the current section placed at `base` (for `.org`, `.space` with
/// label differences): absolute symbols keep their value, labels of other sections or not yet
/// placed have none.
pub(super) struct SectionEnv<'a> {
    pub asm: &'a Assembler,
    pub base: u64,
}

impl SymbolEnv for SectionEnv<'_> {
    fn symbol(&self, name: &str) -> Option<u64> {
        let cur = self.asm.current;
        match self.asm.symbols.get(name)?.0 {
            SymDef::Abs(v) => Some(v),
            SymDef::At(s, off) if s == cur => Some(self.base + off),
            SymDef::Insn { section, index, slot_offset } if section == cur => {
                let sec = self.asm.sections.get(section)?;
                let l = sec.bundler.location(index)?;
                let off = sec.bundle_offsets.get(l.bundle)?;
                Some(self.base + off + if slot_offset { l.slot as u64 } else { 0 })
            }
            _ => None,
        }
    }
    fn dot(&self) -> Option<u64> {
        Some(self.base + self.asm.sections.get(self.asm.current)?.dot())
    }
}

/// Symbol values after layout.
pub(super) struct FinalEnv<'a> {
    pub values: &'a HashMap<String, u64>,
    pub dot: u64,
}

impl SymbolEnv for FinalEnv<'_> {
    fn symbol(&self, name: &str) -> Option<u64> {
        self.values.get(name).copied()
    }
    fn dot(&self) -> Option<u64> {
        Some(self.dot)
    }
}

impl Assembler {
    pub fn new() -> Assembler {
        Assembler {
            sections: vec![SectionState::new_named(".text", SectionKind::Code)],
            section_index: HashMap::from([(".text".to_string(), 0)]),
            current: 0,
            previous: 0,
            section_stack: Vec::new(),
            symbols: HashMap::new(),
            globals: std::collections::HashSet::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
            user_template: None,
            dv: DvChecker::new(),
            output_bytes: 0,
            max_output: emu_core::input::DEFAULT_MAX_OUTPUT_SIZE,
            relocs: Vec::new(),
            placed: HashMap::new(),
            render_base: 0,
            sec_aliases: HashMap::new(),
            sym_aliases: HashMap::new(),
            incbin_files: HashMap::new(),
            manual_open: None,
            obj: Default::default(),
            mode: ModeState::new(DvMode::Explicit),
            rest: Default::default(),
            late_aliases: Vec::new(),
            manual: Default::default(),
        }
    }

    pub fn sec(&mut self) -> &mut SectionState {
        &mut self.sections[self.current]
    }

    /// Defines `name`; a second definition of a label is an error.
    pub fn define(&mut self, name: &str, def: SymDef, loc: &SourceLoc, redefinable: bool) {
        self.obj.note(name);
        if let Some((old, old_loc)) = self.symbols.get(name) {
            if !redefinable || !matches!(old, SymDef::Abs(_)) {
                let d = Diagnostic::error(loc.clone(), format!("symbol `{}` is already defined", display_name(name)))
                    .with_note(old_loc.clone(), "first defined here");
                self.errors.push(d);
                return;
            }
        }
        self.symbols.insert(name.to_string(), (def, loc.clone()));
    }

    /// Resolves labels waiting in the current section to its current address (a flush point
    /// or data came before any instruction).
    pub fn settle_labels(&mut self) {
        let cur = self.current;
        let sec = &mut self.sections[cur];
        let at = sec.dot();
        let labels = std::mem::take(&mut sec.pending_labels);
        for name in labels {
            if let Some(entry) = self.symbols.get_mut(&name) {
                entry.0 = SymDef::At(cur, at);
            }
        }
    }

    /// A flush point (R11) in the current section.
    pub fn flush(&mut self) {
        let sec = self.sec();
        if sec.kind == SectionKind::Code {
            let had_pending = sec.bundler.pending() > 0;
            sec.bundler.flush();
            sec.sync();
            if had_pending {
                self.dv.stop();
            }
        }
    }
}

/// A symbol's name as the user wrote it (numeric local labels have internal names).
pub(super) fn display_name(name: &str) -> &str {
    match name.split_once('\u{2}') {
        Some((head, _)) => head.strip_prefix(".L").unwrap_or(head),
        None => name,
    }
}
