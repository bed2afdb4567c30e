//! Where gas lets unwind directives stand (issue 13) and the procedure-level ones: the
//! placement checks (procedure, prologue, body; warnings that turn into errors after a stray
//! `.endp`), the names of `.proc`/`.endp`, and `.personality`/`.handlerdata`.

use super::layout::Assembler;
use super::object::Created;
use super::rest::name_arg;
use super::syntax::{DirArg, Located};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::image::SectionKind;

impl Assembler {
    /// gas's placement rules for the unwind directives: each needs an open procedure (and
    /// none after `.handlerdata`, which ends its unwind information); the frame and save
    /// directives a prologue region, `.label_state`/`.copy_state`/`.restore` a body region.
    /// True when `name` was refused (reported as gas words it).
    pub(super) fn unwind_context(&mut self, name: &str, loc: &SourceLoc) -> bool {
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
        false
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
