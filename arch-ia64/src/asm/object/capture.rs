//! What the assembler records while it reads the source, for the object writer: creation
//! order of sections and symbols, `.proc`/`.endp` (function type and size), section flags,
//! explicit alignments, and the unwind directives (with the instruction they precede, so
//! that their slot numbers can be found once the bundles are laid out).
//! The unwind directives themselves are read in `unwind_dirs.rs`; relocations are the
//! assembler's own ([`crate::asm::reloc`], found while layout renders the object copy), and
//! everything is turned into [`super::ObjectParts`] in `resolve.rs`.

pub(in crate::asm) use super::obj_state::{ProcCapture, Rec, SaveKind};
use super::Created;
use crate::asm::assembler::{Assembler, EarlyEnv};
use crate::asm::expr::Expr;
use crate::asm::syntax::{DirArg, Located, Reg};
use std::collections::HashMap;

/// A directive operand naming a symbol; names such as `f1` or `b2` are read as registers by
/// the parser and are given back their text here (`.proc f1` in GNU as names a function).
pub(super) fn symbol_name(a: &DirArg) -> Option<String> {
    Some(match a {
        DirArg::Expr(Expr::Sym(s)) => s.clone(),
        DirArg::Reg(Reg::Gr(n)) => format!("r{n}"),
        DirArg::Reg(Reg::Fr(n)) => format!("f{n}"),
        DirArg::Reg(Reg::Pr(n)) => format!("p{n}"),
        DirArg::Reg(Reg::Br(n)) => format!("b{n}"),
        _ => return None,
    })
}

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
            prologues: 0,
            labelled_prologues: HashMap::new(),
            personality: None,
            handler: None,
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
            // gas drops only a lone `.prologue` or `.prologue` + `.body` without descriptors
            // (its optimize_unw_records); any other region list makes an entry (a lone
            // `.body`, a second prologue...; issue 13).
            let regions: Vec<&Rec> = p.recs.iter().map(|(_, r)| r).collect();
            let dropped = matches!(
                regions.as_slice(),
                [Rec::Region { body: false, gr: None }]
                    | [Rec::Region { body: false, gr: None }, Rec::Region { body: true, .. }]
            );
            p.has_info |= !regions.is_empty() && !dropped;
            if p.has_info {
                if self.obj.unwind_made.insert(p.section) {
                    self.obj.created.push(Created::Unwind(p.section));
                }
                self.obj.procs.push(p);
            }
        }
    }

    /// Symbol attributes only the object file shows; true when the directive is handled.
    pub(super) fn symbol_directive(&mut self, name: &str, args: &[Located<DirArg>]) -> bool {
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
                // The type may be written `@nobits` or `"nobits"` (issue 13: `"unwind"` too).
                let ty = match args.get(2).map(|a| &a.value) {
                    Some(DirArg::Str(t)) => Some(DirArg::At(t.clone())),
                    _ => None,
                };
                let ty = ty.as_ref().or(args.get(2).map(|a| &a.value));
                if let (Some(DirArg::At(t)), Some(n)) = (
                    ty,
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
                    } else if t == "unwind" {
                        self.obj.unwind_tables.insert(n);
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
}
