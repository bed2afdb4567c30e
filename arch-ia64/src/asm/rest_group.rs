//! Section groups (issue 13): `.section NAME, "...G...", @type, GROUP[, comdat]` makes a
//! section of the group (distinct from a same-named section outside it) and records the
//! groups for the object writer (`object/group.rs`).

use super::assembler::RestState;
use super::assembler::{Assembler, SectionState, SymDef};
use super::expr::Expr;
use super::matcher::Value;
use super::object::ObjGroup;
use super::rest::name_arg;
use super::syntax::{DirArg, Located};
use emu_core::error::{Diagnostic, SourceLoc};

impl RestState {
    /// Whether section `i` belongs to a section group.
    pub(super) fn grouped(&self, i: usize) -> bool {
        self.groups.iter().any(|g| g.2.contains(&i))
    }
}

/// The groups as the object writer takes them.
pub(super) fn object_groups(asm: &Assembler, sections: &[SectionState]) -> Vec<ObjGroup> {
    // Sections some fixup's symbol is defined in (gas makes their section symbols then).
    let mut referenced = std::collections::HashSet::new();
    let mut note = |e: &Expr| {
        for s in e.symbols() {
            match asm.symbols.get(s).map(|d| &d.0) {
                Some(SymDef::At(sec, _)) | Some(SymDef::Insn { section: sec, .. }) => {
                    referenced.insert(*sec);
                }
                _ => {}
            }
        }
    };
    for sec in sections {
        for f in &sec.fixups {
            note(&f.expr);
        }
        for rec in &sec.insns {
            for v in &rec.matched.values {
                if let Value::Later(e, _) = v {
                    note(e);
                }
            }
        }
    }
    asm.rest
        .groups
        .iter()
        .map(|(signature, comdat, members)| {
            let late = |m: &&usize| asm.rest.late.contains(m);
            ObjGroup {
                signature: signature.clone(),
                comdat: *comdat,
                members: members.clone(),
                late_symbols: members.iter().filter(late).filter(|m| !referenced.contains(*m)).copied().collect(),
                early_symbols: members.iter().filter(late).filter(|m| referenced.contains(*m)).copied().collect(),
            }
        })
        .collect()
}

impl Assembler {
    /// `.section NAME, "...G...", @type, GROUP[, comdat]`: a section of group GROUP, distinct
    /// from a section of the same name outside it (gas's `group-1.s` has two `.text`s).
    /// False for a section without the G flag (the ordinary `.section`).
    pub(super) fn group_section(&mut self, name: &str, args: &[Located<DirArg>], loc: &SourceLoc) -> bool {
        let flags = match args.get(1).map(|a| &a.value) {
            Some(DirArg::Str(f)) if f.contains('G') => f.clone(),
            _ => return false,
        };
        let (Some(sec_name), Some(group)) = (name_arg(args.first()), name_arg(args.get(3))) else {
            self.error(loc, format!("`{name}` with flag G needs a type and a group name (`{name} NAME, \"axG\", @progbits, GROUP, comdat`)"));
            return true;
        };
        let comdat = match name_arg(args.get(4)).as_deref() {
            None => false,
            Some("comdat") => true,
            Some(other) => {
                self.error(&args[4].loc, format!("expected `comdat` after the group name, found `{other}`"));
                return true;
            }
        };
        let key = format!("{sec_name}\u{1}{group}");
        let fresh = !self.section_index.contains_key(&key);
        let idx = self.section_id(&key, Some(&flags));
        if fresh {
            // gas's `.text`, `.data` and `.bss` exist from the start.
            let taken = matches!(sec_name.as_str(), ".text" | ".data" | ".bss")
                || self.sections.iter().enumerate().any(|(i, s)| i != idx && s.name == sec_name);
            if taken {
                self.rest.late.push(idx);
            }
            self.sections[idx].name = sec_name;
            match self.rest.groups.iter_mut().find(|g| g.0 == group) {
                Some(g) => {
                    if g.1 != comdat {
                        self.warnings.push(Diagnostic::warning(
                            loc.clone(),
                            format!("assuming all members of group `{group}' are COMDAT"),
                        ));
                    }
                    g.1 |= comdat;
                    g.2.push(idx);
                }
                None => self.rest.groups.push((group, comdat, vec![idx])),
            }
        }
        if name == ".pushsection" {
            self.section_stack.push(self.current);
        }
        self.switch_index(idx);
        true
    }
}
