//! The predicate lists of `.pred.rel[.KIND]` and `.pred.safe_across_calls` (issue 13): gas
//! takes the relation either in the name or as a first string or `@word` argument, with or
//! without a comma after it, and predicate ranges `p1-p4` as well as single registers.

use super::lex::Tk;
use super::regs::{lookup_reg, RegLookup};
use super::{err, Cur, PErr, Parser};
use crate::asm::syntax::{DirArg, Reg, StmtKind};

impl Parser<'_> {
    /// Parses the arguments of `name` (a `.pred.*` directive) and pushes the statement.
    pub(super) fn pred_directive(&mut self, mut c: Cur<'_>, name: String, col: u32) -> Result<(), PErr> {
        let mut args = Vec::new();
        if name == ".pred.rel" {
            if let Some(t) = c.peek() {
                let kind = match &t.kind {
                    Tk::Str(s) => Some(DirArg::Str(s.clone())),
                    Tk::At(w) => Some(DirArg::At(w.clone())),
                    _ => None,
                };
                if let Some(k) = kind {
                    args.push(self.located(k, t.col));
                    c.pos += 1;
                    if c.is_p(0, ",") {
                        c.pos += 1;
                    }
                }
            }
        }
        while !c.at_end() {
            let first = self.predicate(&mut c, &name)?;
            let mut last = first;
            if c.is_p(0, "-") {
                c.pos += 1;
                last = self.predicate(&mut c, &name)?;
                if last < first {
                    return err(c.col(), format!("bad predicate range p{first}-p{last} in {name}"));
                }
            }
            for p in first..=last {
                args.push(self.located(DirArg::Reg(Reg::Pr(p)), col));
            }
            if c.at_end() {
                break;
            }
            if !c.is_p(0, ",") {
                return err(c.col(), format!("expected ',' between arguments of {name}, found {}", c.found()));
            }
            c.pos += 1;
        }
        self.push(StmtKind::Directive(name, args), col);
        Ok(())
    }

    fn predicate(&self, c: &mut Cur<'_>, name: &str) -> Result<u8, PErr> {
        let col = c.col();
        let reg = match c.peek().map(|t| &t.kind) {
            // A rotating predicate name, `#` or not (gas's pound test; issue 13).
            Some(Tk::Ident(n) | Tk::ForcedSym(n)) if c.is_p(1, "[") && self.rot.contains_key(n) => {
                return match self.rotating_reg(c)? {
                    Reg::Pr(p) => Ok(p),
                    _ => err(col, format!("expected a predicate register in {name}, found {n}")),
                };
            }
            Some(Tk::Ident(n)) => match lookup_reg(n, self.frame) {
                RegLookup::Yes(Reg::Pr(p)) => Some(p),
                _ => None,
            },
            _ => None,
        };
        match reg {
            Some(p) => {
                c.pos += 1;
                Ok(p)
            }
            None => err(col, format!("expected a predicate register in {name}, found {}", c.found())),
        }
    }
}
