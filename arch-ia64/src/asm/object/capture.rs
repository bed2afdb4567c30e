//! What the assembler records while it reads the source, for the object writer: creation
//! order of sections and symbols, `.proc`/`.endp` (function type and size), section flags,
//! explicit alignments, and the unwind directives (with the instruction they precede, so
//! that their slot numbers can be found once the bundles are laid out).
//!
//! Relocations: while layout renders the object copy of each section, an instruction
//! operand that the linker must fill (an external symbol, a global branch target, a target
//! in another section, a section address used as a value) goes through
//! [`Assembler::insn_reloc`] with its operand kind and expression; once the bundle is encoded
//! it becomes a [`Fixup`] at bundle + slot (slot 1 for MLX). Data values go through
//! [`Assembler::data_fixup`]. Both split the expression into relocation operators
//! (`Expr::RelocFn`, outermost first), a symbol and an addend, and pick the `R_IA64_*`
//! type from the operators and the field ([`super::reloc::reloc_type`]). A new syntax that
//! needs a relocation only has to leave such an expression in `Value::Later` (instructions)
//! or a data fixup; a fixed type can also be pushed directly onto `ObjState::fixups`.

use super::reloc::{reloc_type, Field, FixTarget};
use super::unwind::{Region, UnwindDesc, UnwindProc};
use super::{Created, Fixup, ObjSection, ObjSymbol, ObjectParts, EF_IA_64_ABI64};
use crate::asm::expr::BinOp;
use crate::asm::expr::Expr;
use crate::asm::layout::{Assembler, Chunk, EarlyEnv, Fixup as DataFixup, SectionState, SymDef};
use crate::asm::syntax::{DirArg, Located, Reg};
use crate::table::OpKind;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::Section;
use emu_core::image::SectionKind;
use std::collections::{HashMap, HashSet};

/// The writer's bookkeeping inside the assembler.
#[derive(Debug, Default)]
pub(in crate::asm) struct ObjState {
    pub created: Vec<Created>,
    seen: HashSet<String>,
    pub funcs: HashSet<String>,
    /// `.proc` name -> (section, offset of its `.endp`).
    pub ends: HashMap<String, (usize, u64)>,
    proc: Option<ProcCapture>,
    proc_names: Vec<String>,
    pub procs: Vec<ProcCapture>,
    unwind_made: HashSet<usize>,
    /// Section -> the flags string of its first `.section`.
    pub flags: HashMap<usize, String>,
    /// Section -> the largest alignment asked for (`.align`, `.proc`, natural data alignment).
    pub aligns: HashMap<usize, u64>,
    /// Problems that only matter when an object is written (unmodelled unwind forms).
    pub errors: Vec<Diagnostic>,
    /// Instruction fields waiting for their offset: (kind of field, expression, where).
    pub pending: Vec<(super::reloc::Field, Expr, SourceLoc)>,
    /// The relocations found while rendering the object.
    pub fixups: Vec<Fixup>,
    /// The section being rendered for the object.
    pub render_section: usize,
    /// Its image address (the object's offsets are relative to it).
    pub render_base: u64,
    /// `.weak` names.
    pub weak: HashSet<String>,
    /// `.type NAME, @KIND` -> STT_*.
    types: HashMap<String, u8>,
    /// `.size NAME, EXPR`: the expression, its section and `.` there.
    sizes: HashMap<String, (Expr, usize, u64)>,
    /// `.hidden`/`.protected`/`.internal` -> STV_*.
    visibility: HashMap<String, u8>,
    /// `.file "NAME"`.
    file: Option<String>,
    /// Sections declared `@nobits` by `.section NAME, "FLAGS", @nobits`.
    nobits: HashSet<String>,
    /// Entry sizes given by `.section NAME, "FLAGS", @TYPE, SIZE`.
    entsize: HashMap<String, u64>,
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
    pub queue: std::collections::VecDeque<(u8, u8)>,
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
            if let Some((class, reg)) = p.queue.pop_front() {
                p.recs.push((index, Rec::Saved { class, reg }));
            }
        }
    }

    /// Records an alignment request for section `s`.
    pub fn note_align(&mut self, s: usize, bytes: u64) {
        let a = self.aligns.entry(s).or_insert(1);
        *a = (*a).max(bytes);
    }
}

/// How the unwind records name one saved register (SCRA App. B): `(is P8, record)` pairs.
struct Saved {
    /// The `when` record of a save to a general register.
    when_gr: (bool, u8),
    /// The `when` record of a save to memory.
    when_mem: (bool, u8),
    /// P3 record of the general register it is saved in.
    gr: u8,
    /// The sp-relative location record.
    sprel: (bool, u8),
    /// The psp-relative location record.
    psprel: (bool, u8),
}

fn saved_register(name: &str) -> Option<Saved> {
    let s = |w: (bool, u8), gr, sprel, psprel| Saved { when_gr: w, when_mem: w, gr, sprel, psprel };
    Some(match name {
        "rp" => s((false, 4), 1, (true, 1), (false, 5)),
        "ar.pfs" => s((false, 6), 2, (true, 2), (false, 7)),
        "pr" => s((false, 8), 3, (true, 3), (false, 9)),
        "ar.lc" => s((false, 10), 5, (true, 4), (false, 11)),
        "ar.unat" => s((false, 12), 4, (true, 5), (false, 13)),
        "ar.fpsr" => s((false, 14), 10, (true, 6), (false, 15)),
        "ar.bsp" => s((true, 7), 8, (true, 9), (true, 8)),
        "ar.bspstore" => s((true, 10), 9, (true, 12), (true, 11)),
        "ar.rnat" => s((true, 13), 7, (true, 15), (true, 14)),
        "@priunat" => {
            Saved { when_gr: (true, 16), when_mem: (true, 19), gr: 11, sprel: (true, 18), psprel: (true, 17) }
        }
        _ => return None,
    })
}

/// A register as X1/X2 name it: (class ab, number).
fn spill_register(a: &DirArg, name: Option<&str>) -> Option<(u8, u8)> {
    match a {
        DirArg::Reg(Reg::Gr(n)) => Some((0, *n)),
        DirArg::Reg(Reg::Fr(n)) => Some((1, *n)),
        DirArg::Reg(Reg::Br(n)) if name != Some("rp") => Some((2, *n)),
        _ => special_register(name?).map(|r| (3, r)),
    }
}

/// The descriptor pair for a P7/P8 record.
fn p78((p8, r): (bool, u8), v: u64) -> UnwindDesc {
    if p8 {
        UnwindDesc::P8 { r, v }
    } else {
        UnwindDesc::P7 { r, v }
    }
}

/// X1's number of a special register (class 3).
fn special_register(name: &str) -> Option<u8> {
    Some(match name {
        "pr" => 0,
        "psp" => 1,
        "@priunat" => 2,
        "rp" => 3,
        "ar.bsp" => 4,
        "ar.bspstore" => 5,
        "ar.rnat" => 6,
        "ar.unat" => 7,
        "ar.fpsr" => 8,
        "ar.pfs" => 9,
        "ar.lc" => 10,
        _ => return None,
    })
}

/// A directive operand naming a symbol; names such as `f1` or `b2` are read as registers by
/// the parser and are given back their text here (`.proc f1` in GNU as names a function).
fn symbol_name(a: &DirArg) -> Option<String> {
    Some(match a {
        DirArg::Expr(Expr::Sym(s)) => s.clone(),
        DirArg::Reg(Reg::Gr(n)) => format!("r{n}"),
        DirArg::Reg(Reg::Fr(n)) => format!("f{n}"),
        DirArg::Reg(Reg::Pr(n)) => format!("p{n}"),
        DirArg::Reg(Reg::Br(n)) => format!("b{n}"),
        _ => return None,
    })
}

fn reg_name(a: &DirArg) -> Option<String> {
    Some(match a {
        DirArg::Reg(Reg::Ar(64)) => "ar.pfs".into(),
        DirArg::Reg(Reg::Ar(65)) => "ar.lc".into(),
        DirArg::Reg(Reg::Ar(36)) => "ar.unat".into(),
        DirArg::Reg(Reg::Ar(40)) => "ar.fpsr".into(),
        DirArg::Reg(Reg::Ar(17)) => "ar.bsp".into(),
        DirArg::Reg(Reg::Ar(18)) => "ar.bspstore".into(),
        DirArg::Reg(Reg::Ar(19)) => "ar.rnat".into(),
        DirArg::Reg(Reg::PrAll) => "pr".into(),
        DirArg::Reg(Reg::Br(0)) => "rp".into(),
        DirArg::Reg(Reg::Gr(12)) => "sp".into(),
        DirArg::At(s) => format!("@{s}"),
        DirArg::Expr(Expr::Sym(s)) => s.clone(),
        _ => return None,
    })
}

/// The unwind directives; any other directive in this family stops object output.
const UNWIND: &[&str] = &[
    ".prologue",
    ".body",
    ".save",
    ".save.g",
    ".save.f",
    ".save.b",
    ".save.gf",
    ".spillsp",
    ".spillpsp",
    ".spillreg",
    ".spillsp.p",
    ".spillpsp.p",
    ".spillreg.p",
    ".fframe",
    ".vframe",
    ".vframesp",
    ".vframepsp",
    ".restore",
    ".restorereg",
    ".restorereg.p",
    ".label_state",
    ".copy_state",
    ".altrp",
    ".unwabi",
    ".unwentry",
    ".personality",
    ".handlerdata",
    ".savesp",
    ".savepsp",
];

impl Assembler {
    /// `.proc NAME...`: the names become functions; unwind records start.
    pub(in crate::asm) fn proc_begin(&mut self, args: &[Located<DirArg>]) {
        let names: Vec<String> = args.iter().filter_map(|a| symbol_name(&a.value)).collect();
        for n in &names {
            self.obj.note(n);
            self.obj.funcs.insert(n.clone());
        }
        let cur = self.current;
        let first_insn = self.sections[cur].insns.len();
        self.obj.proc_names = names;
        self.obj.proc = Some(ProcCapture {
            section: cur,
            first_insn,
            end: 0,
            recs: Vec::new(),
            has_info: false,
            queue: Default::default(),
        });
    }

    /// `.endp`, after the flush: sizes of the `.proc` names, the unwind entry.
    pub(in crate::asm) fn proc_end(&mut self) {
        let cur = self.current;
        let end = self.sections[cur].dot();
        for n in std::mem::take(&mut self.obj.proc_names) {
            self.obj.ends.insert(n, (cur, end));
        }
        if let Some(mut p) = self.obj.proc.take() {
            p.end = end;
            if p.has_info {
                if self.obj.unwind_made.insert(p.section) {
                    self.obj.created.push(Created::Unwind(p.section));
                }
                self.obj.procs.push(p);
            }
        }
    }

    /// Symbol attributes only the object file shows; true when the directive is handled.
    fn symbol_directive(&mut self, name: &str, args: &[Located<DirArg>]) -> bool {
        let names = || args.iter().filter_map(|a| symbol_name(&a.value));
        match name {
            ".hidden" | ".protected" | ".internal" => {
                let v = match name {
                    ".internal" => 1,
                    ".hidden" => 2,
                    _ => 3,
                };
                for n in names() {
                    self.obj.note(&n);
                    self.obj.visibility.insert(n, v);
                }
            }
            ".type" => {
                let stt = match args.get(1).map(|a| &a.value) {
                    Some(DirArg::At(k)) => match k.as_str() {
                        "function" => Some(2),
                        "object" => Some(1),
                        "tls_object" => Some(6),
                        "notype" => Some(0),
                        _ => None,
                    },
                    _ => None,
                };
                if let (Some(n), Some(stt)) = (args.first().and_then(|a| symbol_name(&a.value)), stt) {
                    self.obj.note(&n);
                    self.obj.types.insert(n, stt);
                }
            }
            ".size" => {
                if let (Some(n), Some(DirArg::Expr(e))) =
                    (args.first().and_then(|a| symbol_name(&a.value)), args.get(1).map(|a| &a.value))
                {
                    let cur = self.current;
                    let dot = self.sections[cur].dot();
                    self.obj.note(&n);
                    self.obj.ends.remove(&n);
                    self.obj.sizes.insert(n, (e.clone(), cur, dot));
                }
            }
            ".file" => {
                if let Some(DirArg::Str(f)) = args.first().map(|a| &a.value) {
                    self.obj.file = Some(f.clone());
                }
            }
            ".section" | ".pushsection" => {
                if let (Some(DirArg::At(t)), Some(n)) = (
                    args.get(2).map(|a| &a.value),
                    args.first().and_then(|a| {
                        symbol_name(&a.value).or(match &a.value {
                            DirArg::Str(s) => Some(s.clone()),
                            _ => None,
                        })
                    }),
                ) {
                    if let Some(DirArg::Expr(e)) = args.get(3).map(|a| &a.value) {
                        if let Ok(size) = e.eval(&EarlyEnv { asm: self }) {
                            self.obj.entsize.entry(n.clone()).or_insert(size as u64);
                        }
                    }
                    if t == "nobits" {
                        self.obj.nobits.insert(n);
                    }
                }
                return false;
            }
            ".weak" => {
                for n in names() {
                    self.obj.weak.insert(n);
                }
                return false;
            }
            _ => return false,
        }
        true
    }

    /// Handles a directive that matters to the object writer (unwind records, symbol
    /// attributes); false when the directive still needs its ordinary handling.
    pub(in crate::asm) fn object_directive(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        if !UNWIND.contains(&name) {
            return self.symbol_directive(name, args);
        }
        let at = self.sections[self.current].insns.len();
        let value = |asm: &Assembler, i: usize| -> Option<u64> {
            match args.get(i).map(|a| &a.value) {
                Some(DirArg::Expr(e)) => e.eval(&EarlyEnv { asm }).ok().map(|v| v as u64),
                _ => None,
            }
        };
        let gr = |i: usize| match args.get(i).map(|a| &a.value) {
            Some(DirArg::Reg(Reg::Gr(n))) => Some(*n),
            _ => None,
        };
        let reg0 = args.first().and_then(|a| reg_name(&a.value));
        let saved0 = reg0.as_deref().and_then(saved_register);
        // `.xxx.p qp, ...`: the predicate comes first.
        let (qp, rest) = match (name.ends_with(".p"), args.first().map(|a| &a.value)) {
            (true, Some(DirArg::Reg(Reg::Pr(q)))) => (Some(*q), &args[1..]),
            _ => (None, args),
        };
        let rest_value = |asm: &Assembler, i: usize| -> Option<u64> {
            match rest.get(i).map(|a| &a.value) {
                Some(DirArg::Expr(e)) => e.eval(&EarlyEnv { asm }).ok().map(|v| v as u64),
                _ => None,
            }
        };
        let mut recs: Vec<Rec> = Vec::new();
        let mut info = true;
        match name {
            ".prologue" if args.is_empty() => {
                recs.push(Rec::Region { body: false, gr: None });
                info = false;
            }
            ".prologue" => {
                if let (Some(mask), Some(g)) = (value(self, 0), value(self, 1)) {
                    if mask < 16 && g < 128 {
                        recs.push(Rec::Region { body: false, gr: Some((mask as u8, g as u8)) });
                    }
                }
            }
            ".body" => {
                recs.push(Rec::Region { body: true, gr: None });
                info = false;
            }
            ".save" => {
                if let (Some(sv), Some(g)) = (&saved0, gr(1)) {
                    recs.push(Rec::When { p8: sv.when_gr.0, r: sv.when_gr.1 });
                    recs.push(Rec::Desc(UnwindDesc::P3 { r: sv.gr, reg: g }));
                }
            }
            ".savesp" | ".savepsp" => {
                if let (Some(sv), Some(off)) = (&saved0, value(self, 1)) {
                    recs.push(Rec::When { p8: sv.when_mem.0, r: sv.when_mem.1 });
                    let d = if name == ".savesp" { p78(sv.sprel, off / 4) } else { p78(sv.psprel, (off + 16) / 4) };
                    recs.push(Rec::Desc(d));
                }
            }
            ".fframe" => {
                if let Some(size) = value(self, 0) {
                    recs.push(Rec::MemStackF { size });
                }
            }
            ".vframe" => {
                if let Some(g) = gr(0) {
                    recs.push(Rec::When { p8: false, r: 1 });
                    recs.push(Rec::Desc(UnwindDesc::P3 { r: 0, reg: g }));
                }
            }
            ".vframesp" => {
                if let Some(off) = value(self, 0) {
                    recs.push(Rec::When { p8: false, r: 1 });
                    recs.push(Rec::Desc(UnwindDesc::P7 { r: 3, v: off / 4 }));
                }
            }
            ".spillsp" | ".spillpsp" | ".spillsp.p" | ".spillpsp.p" => {
                let reg = rest.first().and_then(|a| spill_register(&a.value, reg_name(&a.value).as_deref()));
                if let (Some((ab, reg)), Some(off)) = (reg, rest_value(self, 1)) {
                    let sprel = name.starts_with(".spillsp");
                    let off = if sprel { off / 4 } else { (off + 16) / 4 };
                    recs.push(Rec::Spill { sprel, qp, ab, reg, off });
                }
            }
            ".spillreg" | ".spillreg.p" => {
                let reg = rest.first().and_then(|a| spill_register(&a.value, reg_name(&a.value).as_deref()));
                let target = match rest.get(1).map(|a| &a.value) {
                    Some(DirArg::Reg(Reg::Gr(n))) => Some((0, *n)),
                    Some(DirArg::Reg(Reg::Fr(n))) => Some((1, *n)),
                    Some(DirArg::Reg(Reg::Br(n))) => Some((2, *n)),
                    _ => None,
                };
                if let (Some((ab, reg)), Some((tclass, treg))) = (reg, target) {
                    recs.push(Rec::SpillReg { qp, ab, reg, tclass, treg });
                }
            }
            ".save.g" | ".save.f" | ".save.b" | ".save.gf" => {
                let (g, f, b) = match name {
                    ".save.g" => (value(self, 0), None, None),
                    ".save.f" => (None, value(self, 0), None),
                    ".save.b" => (None, None, value(self, 0)),
                    _ => (value(self, 0), value(self, 1), None),
                };
                let mut regs: Vec<(u8, u8)> = Vec::new();
                // fr before gr for .save.gf, as gas assigns them to the following instructions.
                for bit in 0..20u8 {
                    if f.is_some_and(|m| m >> bit & 1 == 1) {
                        regs.push((1, if bit < 4 { 2 + bit } else { 12 + bit }));
                    }
                }
                for bit in 0..4u8 {
                    if g.is_some_and(|m| m >> bit & 1 == 1) {
                        regs.push((2, 4 + bit));
                    }
                }
                for bit in 0..5u8 {
                    if b.is_some_and(|m| m >> bit & 1 == 1) {
                        regs.push((3, 1 + bit));
                    }
                }
                let valid = g.is_none_or(|m| m < 16) && f.is_none_or(|m| m < 1 << 20) && b.is_none_or(|m| m < 32);
                if let (true, Some(p)) = (valid && !regs.is_empty(), self.obj.proc.as_mut()) {
                    if !p.queue.is_empty() {
                        self.warnings.push(Diagnostic::warning(loc.clone(), "Previous .save incomplete"));
                    }
                    p.queue = regs.into();
                    p.has_info = true;
                    return true;
                }
            }
            ".altrp" => {
                if let Some(DirArg::Reg(Reg::Br(b))) = args.first().map(|a| &a.value) {
                    recs.push(Rec::Desc(UnwindDesc::P3 { r: 6, reg: *b }));
                }
            }
            ".unwabi" => {
                let abi = match args.first().map(|a| &a.value) {
                    Some(DirArg::At(s)) if s == "svr4" => Some(0),
                    Some(DirArg::At(s)) if s == "hpux" => Some(1),
                    Some(DirArg::At(s)) if s == "nt" => Some(2),
                    _ => value(self, 0),
                };
                if let (Some(abi), Some(context)) = (abi, value(self, 1)) {
                    recs.push(Rec::Desc(UnwindDesc::Unwabi { abi: abi as u8, context: context as u8 }));
                }
            }
            ".label_state" | ".copy_state" => {
                if let Some(l) = value(self, 0) {
                    let d = if name == ".label_state" { UnwindDesc::LabelState(l) } else { UnwindDesc::CopyState(l) };
                    recs.push(Rec::Desc(d));
                }
            }
            ".restore" if reg0.as_deref() == Some("sp") => {
                let ecount = if args.len() > 1 { value(self, 1) } else { Some(0) };
                if let Some(ecount) = ecount {
                    recs.push(Rec::Epilogue { ecount });
                }
            }
            _ => {}
        }
        if recs.is_empty() && name != ".unwentry" {
            self.obj.errors.push(Diagnostic::error(
                loc.clone(),
                if matches!(name, ".personality" | ".handlerdata" | ".vframepsp" | ".restorereg" | ".restorereg.p") {
                    format!(
                        "`{name}` is not modelled by the object writer (unwind information); `--raw` writes the code"
                    )
                } else {
                    format!("`{name}` with these operands is not modelled by the object writer (unwind information)")
                },
            ));
        }
        if let Some(p) = self.obj.proc.as_mut() {
            p.has_info |= info;
            p.recs.extend(recs.into_iter().map(|r| (at, r)));
        } else if name != ".unwentry" {
            self.obj.errors.push(Diagnostic::error(loc.clone(), format!("`{name}` outside `.proc`/`.endp`")));
        }
        true
    }

    /// Aligns data of `size` bytes to its size (gas's natural alignment of `data2/4/8`).
    pub(in crate::asm) fn natural_align(&mut self, size: usize) {
        if size <= 1 {
            return;
        }
        let cur = self.current;
        if self.sections[cur].kind == SectionKind::Code {
            self.flush();
        }
        self.settle_labels();
        self.obj.note_align(cur, size as u64);
        let sec = &mut self.sections[cur];
        sec.align = sec.align.max(size as u64);
        let pad = (size as u64 - sec.size % size as u64) % size as u64;
        if pad > 0 {
            sec.chunks.push(Chunk::Data(vec![0; pad as usize]));
            sec.size += pad;
        }
    }
}

/// The descriptors for registers saved to memory by `.save.g/.f/.b/.gf`, which gas puts
/// first in the region: P5 (or P6) with the gr/fr masks, P1 with the br mask, and P4 with
/// the class of each saving slot.
fn save_masks(list: &[(u64, u8, u8)], rlen: u64) -> Vec<UnwindDesc> {
    let (mut gr, mut fr, mut br) = (0u8, 0u32, 0u8);
    let mut imask = vec![0u8; rlen.div_ceil(4) as usize];
    for &(t, class, reg) in list {
        match class {
            1 => fr |= 1 << if reg < 16 { reg - 2 } else { reg - 12 },
            2 => gr |= 1 << (reg - 4),
            _ => br |= 1 << (reg - 1),
        }
        if let Some(b) = imask.get_mut((t / 4) as usize) {
            *b |= class << (6 - 2 * (t % 4));
        }
    }
    let mut out = Vec::new();
    if fr > 0xf || gr != 0 && fr != 0 {
        out.push(UnwindDesc::P5 { gr, fr });
    } else if gr != 0 {
        out.push(UnwindDesc::P6 { fr: false, mask: gr });
    } else if fr != 0 {
        out.push(UnwindDesc::P6 { fr: true, mask: fr as u8 });
    }
    if br != 0 {
        out.push(UnwindDesc::P1 { mask: br });
    }
    out.push(UnwindDesc::P4(imask));
    out
}

/// The slot number (3 per bundle from the section start) of instruction `index`, or the
/// section's `end` when there is no such instruction.
fn slot_of(sec: &SectionState, index: usize, end: u64) -> u64 {
    sec.bundler
        .location(index)
        .and_then(|l| sec.bundle_offsets.get(l.bundle).map(|off| off / 16 * 3 + l.slot as u64))
        .unwrap_or(end / 16 * 3)
}

/// The unwind procedures with positions turned into slot counts.
pub(in crate::asm) fn resolve_unwind(
    procs: &[ProcCapture],
    sections: &[SectionState],
) -> Result<Vec<UnwindProc>, String> {
    let mut out = Vec::new();
    for p in procs {
        let sec = &sections[p.section];
        let end_slot = p.end / 16 * 3;
        let start_slot =
            if p.first_insn < sec.insns.len() { slot_of(sec, p.first_insn, p.end) / 3 * 3 } else { end_slot };
        // A region starts where gas was about to place the next instruction: right after
        // the previous one of the procedure, else at the next one's bundle.
        let region_start = |at: usize| -> u64 {
            if at > p.first_insn && at - 1 < sec.insns.len() {
                slot_of(sec, at - 1, p.end) + 1
            } else if at < sec.insns.len() {
                slot_of(sec, at, p.end) / 3 * 3
            } else {
                end_slot
            }
        };
        let starts: Vec<u64> =
            p.recs.iter().filter(|(_, r)| matches!(r, Rec::Region { .. })).map(|(at, _)| region_start(*at)).collect();
        let mut regions: Vec<Region> = Vec::new();
        let mut saved: HashMap<usize, Vec<(u64, u8, u8)>> = HashMap::new();
        let mut k = 0usize;
        for (at, r) in &p.recs {
            if let Rec::Region { body, gr } = r {
                let s = starts[k];
                let e = starts.get(k + 1).copied().unwrap_or(end_slot);
                regions.push(Region { body: *body, gr: *gr, rlen: e.saturating_sub(s), descs: Vec::new() });
                k += 1;
                continue;
            }
            let Some(region) = regions.last_mut() else {
                return Err("an unwind directive before `.prologue`/`.body` is not modelled".into());
            };
            let rs = starts[k - 1];
            let re = rs + region.rlen;
            let t = slot_of(sec, *at, p.end).saturating_sub(rs);
            if let Rec::Saved { class, reg } = *r {
                saved.entry(k - 1).or_default().push((t, class, reg));
                continue;
            }
            let d = match r.clone() {
                Rec::Desc(d) => d,
                Rec::When { p8, r } => p78((p8, r), t),
                Rec::MemStackF { size } => UnwindDesc::MemStackF { t, size },
                Rec::Spill { sprel, qp, ab, reg, off } => UnwindDesc::Spill { sprel, qp, ab, reg, t, off },
                Rec::SpillReg { qp, ab, reg, tclass, treg } => UnwindDesc::SpillReg { qp, ab, reg, tclass, treg, t },
                Rec::Epilogue { ecount } => {
                    UnwindDesc::Epilogue { t: re.saturating_sub(1).saturating_sub(slot_of(sec, *at, p.end)), ecount }
                }
                Rec::Region { .. } | Rec::Saved { .. } => continue,
            };
            region.descs.push(d);
        }
        for (i, list) in saved {
            if let Some(region) = regions.get_mut(i) {
                let masks = save_masks(&list, region.rlen);
                region.descs.splice(0..0, masks);
            }
        }
        out.push(UnwindProc { section: p.section, start: start_slot / 3 * 16, end: p.end, regions });
    }
    Ok(out)
}

/// sh_flags of a section: from its flags string when `.section` gave one, else from its
/// name (BFD's special sections) or kind.
pub(in crate::asm) fn section_flags(name: &str, kind: SectionKind, flags: Option<&str>) -> u64 {
    const W: u64 = 1;
    const A: u64 = 2;
    const X: u64 = 4;
    const SHORT: u64 = 0x1000_0000;
    let short = if name.starts_with(".sdata") || name.starts_with(".sbss") { SHORT } else { 0 };
    if let Some(f) = flags {
        let mut v = short;
        for c in f.chars() {
            v |= match c {
                'a' => A,
                'w' => W,
                'x' => X,
                's' => SHORT,
                'M' => 0x10,
                'S' => 0x20,
                'T' => 0x400,
                _ => 0,
            };
        }
        return v;
    }
    let by_name = |p: &str| name == p || name.starts_with(&format!("{p}."));
    if by_name(".text") {
        A | X
    } else if by_name(".data") || by_name(".bss") || by_name(".sdata") || by_name(".sbss") {
        A | W | short
    } else if by_name(".rodata") {
        A
    } else {
        match kind {
            SectionKind::Code => A | X,
            SectionKind::Bss => A | W,
            SectionKind::Data => 0,
        }
    }
}

/// The field an operand kind's value goes into, when a relocation can fill it.
fn field_of(kind: OpKind) -> Option<Field> {
    Some(match kind {
        OpKind::Imm14 => Field::Imm14,
        OpKind::Imm22 => Field::Imm22,
        OpKind::Imm64 => Field::Imm64,
        OpKind::Tgt25 => Field::Branch21,
        OpKind::Tgt25Chk => Field::Check21,
        OpKind::Tgt25F => Field::FCheck21,
        OpKind::Tgt64 => Field::Long60,
        _ => return None,
    })
}

/// `(operators outermost first, symbol, addend)` of a relocatable expression: `sym`,
/// `sym + c`, `c + sym`, `sym - c`, `@op(...)` of those; `None` for anything else.
fn split(e: &Expr, asm: &Assembler) -> Option<(Vec<String>, String, i64)> {
    let constant = |x: &Expr| x.eval(&EarlyEnv { asm }).ok();
    match e {
        Expr::Sym(s) => Some((Vec::new(), s.clone(), 0)),
        Expr::RelocFn(op, inner) => {
            let (mut ops, s, a) = split(inner, asm)?;
            ops.insert(0, op.clone());
            Some((ops, s, a))
        }
        Expr::Binary(BinOp::Add, a, b) => match (constant(a), constant(b)) {
            (Some(c), None) => split(b, asm).map(|(o, s, x)| (o, s, x.wrapping_add(c))),
            (None, Some(c)) => split(a, asm).map(|(o, s, x)| (o, s, x.wrapping_add(c))),
            _ => None,
        },
        // `sym - .`: pc-relative (PCREL32LSB/PCREL64LSB in data).
        Expr::Binary(BinOp::Sub, a, b) if **b == Expr::Dot => match split(a, asm)? {
            (ops, s, x) if ops.is_empty() => Some((vec!["pcrel".to_string()], s, x)),
            _ => None,
        },
        Expr::Binary(BinOp::Sub, a, b) => {
            let c = constant(b)?;
            split(a, asm).map(|(o, s, x)| (o, s, x.wrapping_sub(c)))
        }
        _ => None,
    }
}

impl Assembler {
    /// Whether a branch target must be left to the linker: it names a global symbol or one
    /// in another section.
    /// Tags (`mov b=r,tag`, `brp`) are always resolved, as gas does.
    pub(in crate::asm) fn branch_needs_reloc(&self, kind: Option<OpKind>, e: &Expr) -> bool {
        if !kind
            .and_then(field_of)
            .is_some_and(|f| matches!(f, Field::Branch21 | Field::Check21 | Field::FCheck21 | Field::Long60))
        {
            return false;
        }
        e.symbols().iter().any(|s| match self.symbols.get(*s).map(|(d, _)| d) {
            Some(SymDef::At(sec, _)) | Some(SymDef::Insn { section: sec, .. }) => {
                self.globals.contains(*s) || *sec != self.obj.render_section
            }
            _ => false,
        })
    }

    /// Queues the relocation of an instruction field of operand kind `kind`.
    pub(in crate::asm) fn insn_reloc(&mut self, kind: Option<OpKind>, e: &Expr, loc: &SourceLoc) {
        match kind.and_then(field_of) {
            Some(f) => self.obj.pending.push((f, e.clone(), loc.clone())),
            None => self.obj.errors.push(Diagnostic::error(
                loc.clone(),
                "the object writer has no relocation for this operand".to_string(),
            )),
        }
    }

    /// Gives the queued instruction relocations their offset (bundle + slot).
    pub(in crate::asm) fn insn_fixups(&mut self, offset: u64) {
        for (field, e, loc) in std::mem::take(&mut self.obj.pending) {
            self.push_fixup(field, &e, offset, &loc);
        }
    }

    /// The relocation of a data directive's value.
    /// Returns the value to store when there is nothing for the linker to do: `sym - .` with
    /// `sym` in the same section (`values` are image addresses, `base` the section's).
    pub(in crate::asm) fn data_fixup(
        &mut self,
        fx: &DataFixup,
        values: &HashMap<String, u64>,
        base: u64,
    ) -> Option<u64> {
        if let Some((ops, sym, addend)) = split(&fx.expr, self) {
            let here = self.obj.render_section;
            let same = matches!(self.symbols.get(&sym).map(|(d, _)| d),
                Some(SymDef::At(s, _)) | Some(SymDef::Insn { section: s, .. }) if *s == here);
            if ops == ["pcrel"] && same {
                let v = values.get(&sym)?;
                return Some(v.wrapping_add(addend as u64).wrapping_sub(base + fx.offset));
            }
        }
        let field = match fx.size {
            4 => Field::Data4,
            8 => Field::Data8,
            n => {
                let msg = format!("a {n}-byte field cannot hold a relocated value (gas has no such relocation)");
                self.obj.errors.push(Diagnostic::error(fx.loc.clone(), msg));
                return None;
            }
        };
        let (e, loc, offset) = (fx.expr.clone(), fx.loc.clone(), fx.offset);
        self.push_fixup(field, &e, offset, &loc);
        None
    }

    fn push_fixup(&mut self, field: Field, e: &Expr, offset: u64, loc: &SourceLoc) {
        let Some((ops, sym, addend)) = split(e, self) else {
            let msg = "expression too complex for a relocation (expected symbol + constant)".to_string();
            self.obj.errors.push(Diagnostic::error(loc.clone(), msg));
            return;
        };
        let names: Vec<&str> = ops.iter().map(String::as_str).collect();
        let Some(rtype) = reloc_type(&names, field) else {
            let msg = format!(
                "no relocation for `{}` in this field",
                ops.iter().map(|o| format!("@{o}")).collect::<String>()
            );
            self.obj.errors.push(Diagnostic::error(loc.clone(), msg));
            return;
        };
        let section = self.obj.render_section;
        self.obj.fixups.push(Fixup { section, offset, rtype, target: FixTarget::Symbol(sym), addend });
    }
}

/// Builds the writer's input once layout and rendering are done.
pub(in crate::asm) fn parts(
    asm: &mut Assembler,
    sections: &[SectionState],
    object: &[Section],
    bases: &[u64],
    values: &HashMap<String, u64>,
    unwind: Result<Vec<UnwindProc>, String>,
) -> (ObjectParts, Vec<Diagnostic>) {
    let mut out = ObjectParts { e_flags: EF_IA_64_ABI64, ..Default::default() };
    for (i, (st, obj)) in sections.iter().zip(object).enumerate() {
        let asked = asm.obj.aligns.get(&i).copied().unwrap_or(1);
        out.sections.push(ObjSection {
            name: st.name.clone(),
            data: obj.data.clone(),
            nobits: st.kind == SectionKind::Bss || asm.obj.nobits.contains(&st.name),
            flags: section_flags(&st.name, st.kind, asm.obj.flags.get(&i).map(String::as_str)),
            // gas gives `.text` 16 from the start; other sections only what was asked.
            align: if st.name == ".text" { asked.max(16) } else { asked },
            code: st.kind == SectionKind::Code,
            entsize: asm.obj.entsize.get(&st.name).copied().unwrap_or(0),
        });
    }
    for (name, nobits) in [(".data", false), (".bss", true)] {
        if !out.sections.iter().any(|s| s.name == name) {
            out.sections.push(ObjSection {
                name: name.into(),
                data: Vec::new(),
                nobits,
                flags: 3,
                align: 1,
                code: false,
                entsize: 0,
            });
        }
    }
    for (name, (def, _)) in &asm.symbols {
        let global = asm.globals.contains(name);
        let (section, value) = match *def {
            SymDef::Abs(v) => (None, v),
            SymDef::At(s, _) | SymDef::Insn { section: s, .. } => match values.get(name) {
                Some(v) => (Some(s), v.wrapping_sub(bases[s])),
                None => continue,
            },
        };
        let size = match (asm.obj.ends.get(name), section) {
            (Some(&(s, end)), Some(sec)) if s == sec => end.saturating_sub(value),
            _ => 0,
        };
        out.symbols.push(symbol(asm, name, section, value, true, global, size, bases, values));
    }
    let mut externals: Vec<&String> = asm.globals.iter().filter(|g| !asm.symbols.contains_key(*g)).collect();
    externals.sort();
    for g in externals {
        out.symbols.push(symbol(asm, g, None, 0, false, true, 0, bases, values));
    }
    out.symbols.sort_by(|a, b| a.name.cmp(&b.name));
    out.created = asm.obj.created.clone();
    out.file = asm.obj.file.clone();
    out.fixups = std::mem::take(&mut asm.obj.fixups);
    let mut errors = std::mem::take(&mut asm.obj.errors);
    match unwind {
        Ok(u) => out.unwind = u,
        Err(e) => {
            let loc = errors.first().map(|d| d.loc.clone());
            if let Some(loc) = loc {
                errors.push(Diagnostic::error(loc, e));
            } else if let Some(l) = sections.iter().flat_map(|s| s.insns.first()).next() {
                errors.push(Diagnostic::error(l.loc.clone(), e));
            }
        }
    }
    (out, errors)
}

/// One symbol's table entry data: the `.proc`/`.type` type, `.weak`, visibility and the
/// `.size` expression (evaluated now that every symbol has its value).
#[allow(clippy::too_many_arguments)]
fn symbol(
    asm: &Assembler,
    name: &str,
    section: Option<usize>,
    value: u64,
    defined: bool,
    global: bool,
    size: u64,
    bases: &[u64],
    values: &HashMap<String, u64>,
) -> ObjSymbol {
    let stt = asm.obj.types.get(name).copied().unwrap_or(if asm.obj.funcs.contains(name) { 2 } else { 0 });
    let size = match asm.obj.sizes.get(name) {
        Some((e, sec, dot)) => {
            let env = crate::asm::layout::FinalEnv { values, dot: bases.get(*sec).copied().unwrap_or(0) + dot };
            e.eval(&env).map(|v| v as u64).unwrap_or(size)
        }
        None => size,
    };
    ObjSymbol {
        name: name.to_string(),
        section,
        value,
        defined,
        global,
        weak: asm.obj.weak.contains(name),
        stt,
        visibility: asm.obj.visibility.get(name).copied().unwrap_or(0),
        size,
    }
}
