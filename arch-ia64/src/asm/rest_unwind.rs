//! Where gas lets unwind directives stand (issue 13) and the procedure-level ones: the
//! placement checks (procedure, prologue, body; warnings that turn into errors after a stray
//! `.endp`), the names of `.proc`/`.endp`, and `.personality`/`.handlerdata`.

use super::assembler::{Assembler, EarlyEnv};
use super::object::Created;
use super::rest::name_arg;
use super::syntax::{DirArg, Located, Reg};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::SectionKind;

/// A register `.spillreg` may name as saved: r4-r7, f2-f5, f16-f31, b1-b5 and the special
/// registers the unwind records know.
fn preserved(a: &DirArg) -> bool {
    match a {
        DirArg::Reg(Reg::Gr(n)) => (4..=7).contains(n),
        DirArg::Reg(Reg::Fr(n)) => (2..=5).contains(n) || (16..=31).contains(n),
        DirArg::Reg(Reg::Br(n)) => (1..=5).contains(n) || *n == 0,
        DirArg::Reg(Reg::Ar(_) | Reg::PrAll) | DirArg::At(_) | DirArg::Expr(_) => true,
        _ => false,
    }
}

/// A register a value may be saved to: not r0, f0, f1.
fn writable(a: &DirArg) -> bool {
    match a {
        DirArg::Reg(Reg::Gr(n)) => *n != 0,
        DirArg::Reg(Reg::Fr(n)) => *n > 1,
        DirArg::Reg(Reg::Br(_)) => true,
        _ => false,
    }
}

impl Assembler {
    /// gas's placement rules for the unwind directives: each needs an open procedure (and
    /// none after `.handlerdata`, which ends its unwind information); the frame and save
    /// directives a prologue region, `.label_state`/`.copy_state`/`.restore` a body region.
    /// True when `name` was refused (reported as gas words it).
    pub(super) fn unwind_context(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        const PROLOGUE: &[&str] = &[
            ".fframe",
            ".vframe",
            ".vframesp",
            ".vframepsp",
            ".spill",
            ".save",
            ".savesp",
            ".savepsp",
            ".save.g",
            ".save.gf",
            ".save.f",
            ".save.b",
            ".altrp",
        ];
        const BODY: &[&str] = &[".label_state", ".copy_state", ".restore"];
        const ANYWHERE: &[&str] = &[
            ".endp",
            ".personality",
            ".unwentry",
            ".unwabi",
            ".handlerdata",
            ".prologue",
            ".body",
            ".spillreg",
            ".spillreg.p",
            ".spillsp",
            ".spillsp.p",
            ".spillpsp",
            ".spillpsp.p",
            ".restorereg",
            ".restorereg.p",
        ];
        if name == ".proc" {
            self.rest.region = None;
            return false;
        }
        let (prologue, body) = (PROLOGUE.contains(&name), BODY.contains(&name));
        if !prologue && !body && !ANYWHERE.contains(&name) {
            return false;
        }
        let word = name.trim_start_matches('.');
        let open = self.obj.proc.as_ref().filter(|p| name == ".endp" || p.handler.is_none());
        let Some(p) = open else {
            // gas: a warning by default, and the directive is then without effect here; an
            // error for `.endp`, after which every such check is an error.
            if name == ".endp" {
                self.rest.strict_unwind = true;
            }
            self.misplaced(loc, format!(".{word} outside of procedure"));
            return true;
        };
        let any_insn = self.sections.get(p.section).is_some_and(|s| s.insns.len() > p.first_insn);
        match name {
            ".prologue" if self.rest.region == Some(false) => {
                self.error(loc, ".prologue within prologue");
                return true;
            }
            ".prologue" | ".body" => {
                if self.rest.region.is_none() && any_insn {
                    let what = if name == ".body" { "body" } else { "prologue" };
                    self.warnings.push(Diagnostic::warning(
                        loc.clone(),
                        format!("Initial .{what} should precede any instructions"),
                    ));
                }
                self.rest.region = Some(name == ".body");
            }
            // As a warning gas still takes the directive.
            _ if prologue && self.rest.region != Some(false) => {
                return self.misplaced(loc, format!(".{word} outside of prologue"));
            }
            _ if body && self.rest.region != Some(true) => {
                return self.misplaced(loc, format!(".{word} outside of body region"));
            }
            _ => {}
        }
        self.unwind_operands(name, args, loc)
    }

    /// gas's checks of the operands of the unwind directives (its `unwind-bad.s`): masks in
    /// range, registers that can be saved and written, epilogue counts, labelled states. True
    /// when the directive was refused.
    fn unwind_operands(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        let konst = |asm: &Assembler, i: usize| match args.get(i).map(|a| &a.value) {
            Some(DirArg::Expr(e)) => e.eval(&EarlyEnv { asm }).ok(),
            _ => None,
        };
        // A general register, written `r32` or as its number (the kernel's `.prologue 12, 32+4`).
        let gr = |i: usize| match args.get(i).map(|a| &a.value) {
            Some(DirArg::Reg(Reg::Gr(n))) => Some(u32::from(*n)),
            Some(DirArg::Expr(e)) => e.eval(&EarlyEnv { asm: self }).ok().and_then(|v| u32::try_from(v).ok()),
            _ => None,
        };
        let at = |i: usize| args.get(i).map_or(loc.clone(), |a| a.loc.clone());
        // `MASK, grN`: the mask's registers go to grN, grN+1, ... which must exist.
        let consecutive = |mask: i64, i: usize| -> Option<String> {
            let n = (mask as u64).count_ones();
            match gr(i) {
                Some(g) if g + n <= 128 => None,
                _ => Some(format!("the first of {n} general registers")),
            }
        };
        let mut problems: Vec<(SourceLoc, String)> = Vec::new();
        let mut warn: Vec<(SourceLoc, String)> = Vec::new();
        match name {
            ".save.g" | ".save.b" => {
                let (bits, max) = if name == ".save.g" { (4, 15) } else { (5, 31) };
                match konst(self, 0) {
                    Some(m) if (1..=max).contains(&m) => {
                        if args.len() > 1 {
                            if let Some(what) = consecutive(m, 1) {
                                problems.push((at(1), format!("Second operand to {name} must be {what}")));
                            }
                        }
                    }
                    _ => problems
                        .push((at(0), format!("First operand to {name} must be a positive {bits}-bit constant"))),
                }
            }
            ".save.f" if !konst(self, 0).is_some_and(|m| (1..=0xf_ffff).contains(&m)) => {
                problems.push((at(0), "Operand to .save.f must be a positive 20-bit constant".into()));
            }
            ".save.gf" => match (konst(self, 0), konst(self, 1)) {
                (Some(0), Some(0)) => problems.push((loc.clone(), "Operands to .save.gf may not be both zero".into())),
                (g, _) if !g.is_some_and(|g| (0..=15).contains(&g)) => {
                    problems.push((at(0), "First operand to .save.gf must be a non-negative 4-bit constant".into()))
                }
                (_, f) if !f.is_some_and(|f| (0..=0xf_ffff).contains(&f)) => {
                    problems.push((at(1), "Second operand to .save.gf must be a non-negative 20-bit constant".into()))
                }
                _ => {}
            },
            ".prologue" if !args.is_empty() => match konst(self, 0) {
                Some(0) => warn.push((at(0), "Pointless use of zero first operand to .prologue".into())),
                Some(m) if (1..=15).contains(&m) => {
                    if let Some(what) = consecutive(m, 1) {
                        self.error(&at(1), format!("Second operand to .prologue must be {what}"));
                    }
                }
                // An error, but gas still opens the prologue region.
                _ => self.error(&at(0), "First operand to .prologue must be a positive 4-bit constant"),
            },
            ".spillreg" | ".spillreg.p" | ".restorereg.p" => {
                let pred = name.ends_with(".p");
                if pred && matches!(args.first().map(|a| &a.value), Some(DirArg::Reg(Reg::Pr(0)))) {
                    warn.push((at(0), format!("Pointless use of p0 as first operand to {name}")));
                }
                let first = usize::from(pred);
                if name != ".restorereg.p" {
                    if !args.get(first).is_some_and(|a| preserved(&a.value)) {
                        problems
                            .push((at(first), format!("Operand {} to {name} must be a preserved register", first + 1)));
                    } else if !args.get(first + 1).is_some_and(|a| writable(&a.value)) {
                        problems.push((
                            at(first + 1),
                            format!("Operand {} to {name} must be a writable register", first + 2),
                        ));
                    }
                }
            }
            ".restore" if args.len() > 1 => {
                let open = self.obj.proc.as_ref().map_or(0, |p| p.prologues);
                if let Some(n) = konst(self, 1).filter(|n| *n >= 0) {
                    if n as u64 + 1 > open {
                        problems.push((
                            at(1),
                            format!("Epilogue count of {} exceeds number of nested prologues ({open})", n + 1),
                        ));
                    }
                }
            }
            ".copy_state" => {
                if let Some(l) = konst(self, 0) {
                    if !self.obj.proc.as_ref().is_some_and(|p| p.labelled_prologues.contains_key(&(l as u64))) {
                        problems.push((at(0), format!("Missing .label_state {l}")));
                    }
                }
            }
            _ => {}
        }
        for (l, m) in warn {
            self.warnings.push(Diagnostic::warning(l, m));
        }
        let refused = !problems.is_empty();
        for (l, m) in problems {
            self.error(&l, m);
        }
        refused
    }

    /// Reports a misplaced unwind directive as gas's unwind check does; true when it is an
    /// error (the directive is then dropped).
    fn misplaced(&mut self, loc: &SourceLoc, msg: String) -> bool {
        if self.rest.strict_unwind {
            self.error(loc, msg);
            true
        } else {
            self.warnings.push(Diagnostic::warning(loc.clone(), msg));
            false
        }
    }

    /// `.proc NAME, ...`: the names that may start the procedure. gas refuses an empty list
    /// and a name already defined (which then is no name of the procedure).
    pub(super) fn proc_names(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) -> Vec<Located<DirArg>> {
        if args.is_empty() {
            self.error(loc, "Empty argument of .proc");
        }
        let mut keep = Vec::new();
        for a in args {
            match name_arg(Some(a)) {
                Some(n) if self.symbols.contains_key(&n) => {
                    self.error(&a.loc, format!("`{n}' was already defined"));
                }
                _ => keep.push(a.clone()),
            }
        }
        keep
    }

    /// `.endp NAME, ...`: each name should be one `.proc` named (else gas warns), and those
    /// must be defined by now (else an error); an empty list is a warning.
    pub(super) fn endp_names(&mut self, args: &[Located<DirArg>], loc: &SourceLoc) {
        if self.obj.proc.is_none() {
            return;
        }
        if args.is_empty() {
            self.warnings.push(Diagnostic::warning(loc.clone(), "Empty argument of .endp"));
        }
        for a in args {
            let Some(n) = name_arg(Some(a)) else { continue };
            if !self.obj.proc_names.contains(&n) {
                self.warnings
                    .push(Diagnostic::warning(a.loc.clone(), format!("`{n}' was not specified with previous .proc")));
            } else if !self.symbols.contains_key(&n) && !self.sections[self.current].pending_labels.contains(&n) {
                self.error(&a.loc, format!("`{n}' was not defined within procedure"));
            }
        }
    }

    /// `.personality NAME` and `.handlerdata` (the data up to `.endp` follows the routine's
    /// pointer in the procedure's unwind info). gas refuses both outside a procedure.
    pub(super) fn personality_directive(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        if self.obj.proc.is_none() {
            self.error(loc, format!("{name} outside of procedure"));
            return true;
        }
        if name == ".personality" {
            let Some(routine) = name_arg(args.first()) else {
                self.error(loc, "`.personality` needs the routine's name");
                return true;
            };
            self.obj.note(&routine);
            if let Some(p) = self.obj.proc.as_mut() {
                p.personality = Some(routine);
                p.has_info = true;
            }
            return true;
        }
        if let Some(a) = args.first() {
            self.error(&a.loc, "`.handlerdata` takes no operands");
            return true;
        }
        if self.obj.proc.as_ref().is_some_and(|p| p.handler.is_some()) {
            return true;
        }
        self.rest.handlers += 1;
        // Hidden: "\u{2}" names no symbol or section of the object file.
        let hidden = format!("\u{2}handlerdata.{}", self.rest.handlers);
        let idx = self.section_id(&hidden, Some("a"));
        self.obj.created.retain(|c| *c != Created::Section(idx));
        let back = self.current;
        if let Some(p) = self.obj.proc.as_mut() {
            p.handler = Some((idx, back));
            p.has_info = true;
        }
        // gas emits the pending instructions without the stop of a flush point, then writes
        // the unwind info (the regions end here) and stays in it for the handler's data.
        let code = &mut self.sections[back];
        if code.kind == SectionKind::Code {
            code.bundler.emit_pending();
            code.sync();
        }
        self.settle_labels();
        self.current = idx;
        true
    }
}
