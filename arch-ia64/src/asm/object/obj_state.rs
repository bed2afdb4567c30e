//! The object writer's bookkeeping that `Assembler` keeps while it reads the source (see
//! `capture.rs`, which fills it, for what is recorded and why).

use super::unwind::UnwindDesc;
use super::Created;
use crate::asm::expr::Expr;
use emu_core::error::Diagnostic;
use std::collections::{HashMap, HashSet};

/// The writer's bookkeeping inside the assembler.
#[derive(Debug, Default)]
pub(in crate::asm) struct ObjState {
    pub created: Vec<Created>,
    pub(super) seen: HashSet<String>,
    pub funcs: HashSet<String>,
    /// `.proc` name -> (section, offset of its `.endp`).
    pub ends: HashMap<String, (usize, u64)>,
    pub(in crate::asm) proc: Option<ProcCapture>,
    pub(in crate::asm) proc_names: Vec<String>,
    pub procs: Vec<ProcCapture>,
    pub(super) unwind_made: HashSet<usize>,
    /// Section -> the flags string of its first `.section`.
    pub flags: HashMap<usize, String>,
    /// Section -> the largest alignment asked for (`.align`, `.proc`, natural data alignment).
    pub aligns: HashMap<usize, u64>,
    /// Problems that only matter when an object is written (unmodelled unwind forms).
    pub errors: Vec<Diagnostic>,
    /// (section, instruction index) of the last instruction of each manual bundle `{ }`: gas
    /// emits the whole bundle at `}`, so what follows starts after its filler slots.
    pub manual_ends: HashSet<(usize, usize)>,
    /// `.weak` names.
    pub weak: HashSet<String>,
    /// `.type NAME, @KIND` -> STT_*.
    pub(super) types: HashMap<String, u8>,
    /// `.size NAME, EXPR`: the expression, its section and `.` there.
    pub(super) sizes: HashMap<String, (Expr, usize, u64)>,
    /// `.hidden`/`.protected`/`.internal` -> STV_*.
    pub(super) visibility: HashMap<String, u8>,
    /// `.file "NAME"`.
    pub(super) file: Option<String>,
    /// Sections declared `@nobits` by `.section NAME, "FLAGS", @nobits`.
    pub(super) nobits: HashSet<String>,
    /// Sections declared `@unwind` (SHT_IA_64_UNWIND; issue 13).
    pub(super) unwind_tables: HashSet<String>,
    /// Entry sizes given by `.section NAME, "FLAGS", @TYPE, SIZE`.
    pub(super) entsize: HashMap<String, u64>,
}

/// One `.proc` ... `.endp` with its unwind records.
#[derive(Debug, Clone)]
pub(in crate::asm) struct ProcCapture {
    pub section: usize,
    /// Index of the first instruction after `.proc`.
    pub first_insn: usize,
    /// Offset after the last bundle (set at `.endp`).
    pub end: u64,
    pub recs: Vec<(usize, Rec)>,
    pub has_info: bool,
    /// Registers of the last `.save.g/.f/.b/.gf` not yet saved: each following instruction
    /// saves the next one (gas warns "Previous .save incomplete" when a new mask comes first).
    /// Each entry: class, register, and where the mask saves it ([`SaveKind`]).
    pub queue: std::collections::VecDeque<(u8, u8, SaveKind)>,
    /// Prologue regions open (gas's `prologue_count`): `.restore sp` without a count pops all
    /// but one; `.label_state`/`.copy_state` save and restore it.
    pub prologues: u64,
    /// `.label_state N` -> the prologue count then.
    pub labelled_prologues: HashMap<u64, u64>,
    /// `.personality NAME` (issue 13).
    pub personality: Option<String>,
    /// `.handlerdata`: the hidden section collecting the handler data, and the section
    /// current before it (issue 13; `rest.rs`).
    pub handler: Option<(usize, usize)>,
}

/// Where a `.save.g/.f/.b/.gf` mask saves its registers (issue 13: gas keeps one record per
/// kind: `.save.g`/`.save.f`/`.save.b` to memory give P6/P6/P1, `.save.gf` gives P5, and a
/// mask with a general register (`.save.g 0x3, r32`) gives P9/P2 and no memory mask).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::asm) enum SaveKind {
    /// To memory, by `.save.g`, `.save.f` or `.save.b`.
    Mem,
    /// To memory, by `.save.gf`.
    MemGf,
    /// To consecutive general registers.
    Gr,
}

/// An unwind record, positioned at the instruction index it precedes.
#[derive(Debug, Clone)]
pub(in crate::asm) enum Rec {
    Region {
        body: bool,
        gr: Option<(u8, u8)>,
    },
    /// A descriptor with no slot field.
    Desc(UnwindDesc),
    /// A `when` descriptor (P8 if `p8`, else P7) whose value is the slot.
    When {
        p8: bool,
        r: u8,
    },
    MemStackF {
        size: u64,
    },
    Spill {
        sprel: bool,
        qp: Option<u8>,
        ab: u8,
        reg: u8,
        off: u64,
    },
    SpillReg {
        qp: Option<u8>,
        ab: u8,
        reg: u8,
        tclass: u8,
        treg: u8,
    },
    Epilogue {
        ecount: u64,
    },
    /// One register of a `.save.g/.f/.b/.gf` mask, saved by the instruction at this
    /// position: class (1 fr, 2 gr, 3 br, as in the spill mask) and number.
    Saved {
        class: u8,
        reg: u8,
        kind: SaveKind,
    },
}

impl ObjState {
    /// Records the first appearance of symbol `name`.
    pub fn note(&mut self, name: &str) {
        if !self.seen.contains(name) {
            self.seen.insert(name.to_string());
            self.created.push(Created::Symbol(name.to_string()));
        }
    }

    /// An instruction was added at `index` of section `section`: it saves the next register of
    /// a pending `.save.g/.f/.b/.gf`.
    pub fn insn_added(&mut self, section: usize, index: usize) {
        if let Some(p) = self.proc.as_mut().filter(|p| p.section == section) {
            if let Some((class, reg, kind)) = p.queue.pop_front() {
                p.recs.push((index, Rec::Saved { class, reg, kind }));
            }
        }
    }

    /// Records an alignment request for section `s`.
    pub fn note_align(&mut self, s: usize, bytes: u64) {
        let a = self.aligns.entry(s).or_insert(1);
        *a = (*a).max(bytes);
    }
}
