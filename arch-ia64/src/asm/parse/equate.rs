//! Equates the parser resolves by substitution (issue 13): register equates (`rA = r2`,
//! then `add rA = rA, r0`) and gas's late-bound equates `name == expr` / `.eqv name, expr`,
//! whose expression is re-read at every use (`two == 2*one` follows later changes of `one`).
//!
//! A register equate stands for the register it named when it was assigned (`x = loc0`
//! keeps that frame's register). A late-bound equate's text replaces the name (in
//! parentheses when it is more than one token) each time; its symbol, which gas writes to
//! the symbol table, gets the value the expression has at its first use.

use super::lex::{Tk, Tok};
use super::regs::{lookup_reg, RegLookup};
use super::{err, Cur, PErr, Parser};
use crate::asm::expr::Expr;
use crate::asm::syntax::{DirArg, Reg, StmtKind};

/// Deepest nesting of equates in equates (`RA == rA`, `rA = r2`).
const MAX_NESTING: u32 = 32;

/// One equate.
#[derive(Debug, Clone)]
pub(super) enum Equate {
    /// A register, by its canonical name (`r34`, `p6`, `f8`, `b1`, `ar.lc`...).
    Reg(String),
    /// `==`: the tokens of the expression, and whether its symbol has been defined yet.
    Late { toks: Vec<Tok>, defined: bool },
}

/// What a statement became.
pub(super) enum Subst {
    /// Unchanged.
    Same,
    /// Handled completely (an equate was defined).
    Done,
    /// Parse these tokens instead.
    Tokens(Vec<Tok>),
}

fn ident(t: &Tok) -> Option<&str> {
    match &t.kind {
        Tk::Ident(n) => Some(n),
        _ => None,
    }
}

fn is_p(t: Option<&Tok>, p: &str) -> bool {
    matches!(t.map(|t| &t.kind), Some(Tk::P(q)) if *q == p)
}

impl Parser<'_> {
    /// The canonical name of `t` when it names a register now.
    fn register_text(&self, t: &Tok) -> Option<String> {
        let name = ident(t)?;
        match self.equates.get(name) {
            Some(Equate::Reg(r)) => return Some(r.clone()),
            Some(Equate::Late { .. }) => return None,
            None => {}
        }
        match lookup_reg(name, self.frame) {
            RegLookup::Yes(Reg::Gr(n)) => Some(format!("r{n}")),
            RegLookup::Yes(Reg::Fr(n)) => Some(format!("f{n}")),
            RegLookup::Yes(Reg::Pr(n)) => Some(format!("p{n}")),
            RegLookup::Yes(Reg::Br(n)) => Some(format!("b{n}")),
            RegLookup::Yes(_) => Some(name.to_string()),
            _ => None,
        }
    }

    /// Defines equates and substitutes their uses in one statement's tokens.
    pub(super) fn equates(&mut self, c: &Cur<'_>) -> Result<Subst, PErr> {
        let toks = c.toks;
        let (first, second) = (toks.first(), toks.get(1));
        // `name == expr` and `.eqv name, expr`.
        let late = match (first.and_then(ident), second) {
            (Some(n), Some(t)) if t.kind == Tk::P("==") => Some((n.to_string(), 2)),
            (Some(".eqv"), Some(t)) if toks.get(2).is_some_and(|t| t.kind == Tk::P(",")) => {
                ident(t).map(|n| (n.to_string(), 3))
            }
            _ => None,
        };
        if let Some((name, start)) = late {
            let body = toks.get(start..).unwrap_or_default().to_vec();
            if body.is_empty() {
                return err(c.end_col, format!("expected an expression after '{name} =='"));
            }
            // Creation order in the symbol table: the name, then what its expression names.
            let mut args = vec![self.located(DirArg::Expr(Expr::Sym(name.clone())), toks[0].col)];
            if let Some(e) = self.late_expr(&body)? {
                args.push(self.located(DirArg::Expr(e), body[0].col));
            }
            self.push(StmtKind::Directive(".eqv".into(), args), toks[0].col);
            self.equates.insert(name, Equate::Late { toks: body, defined: false });
            return Ok(Subst::Done);
        }
        // `name = register` (a register equate); `name = expr` ends one.
        if let (Some(name), true) = (first.and_then(ident), is_p(second, "=")) {
            if let [_, _, rhs] = toks {
                if let Some(reg) = self.register_text(rhs) {
                    self.equates.insert(name.to_string(), Equate::Reg(reg));
                    return Ok(Subst::Done);
                }
            }
            if matches!(self.equates.get(name), Some(Equate::Reg(_))) {
                self.equates.remove(name);
            }
        }
        if !toks.iter().any(|t| ident(t).is_some_and(|n| self.equates.contains_key(n))) {
            return Ok(Subst::Same);
        }
        let assign_lhs = is_p(second, "=");
        let mut out = Vec::with_capacity(toks.len());
        for (i, t) in toks.iter().enumerate() {
            let keep = (i == 0 && assign_lhs) || is_p(toks.get(i + 1), ":");
            if keep {
                out.push(t.clone());
            } else {
                self.expand(t, &mut out, 0)?;
            }
        }
        Ok(Subst::Tokens(out))
    }

    /// Appends `t` with equates replaced; defines a late equate's symbol at its first use.
    fn expand(&mut self, t: &Tok, out: &mut Vec<Tok>, depth: u32) -> Result<(), PErr> {
        let Some(name) = ident(t) else {
            out.push(t.clone());
            return Ok(());
        };
        match self.equates.get(name).cloned() {
            None => out.push(t.clone()),
            Some(_) if depth >= MAX_NESTING => {
                return err(t.col, format!("equate '{name}' refers to itself (nested more than {MAX_NESTING} deep)"));
            }
            Some(Equate::Reg(r)) => out.push(Tok { kind: Tk::Ident(r.clone()), col: t.col, text: r }),
            Some(Equate::Late { toks, defined }) => {
                let mut body = Vec::new();
                for b in &toks {
                    self.expand(&Tok { col: t.col, ..b.clone() }, &mut body, depth + 1)?;
                }
                if !defined {
                    if let Some(e) = self.late_expr(&body)? {
                        self.push(StmtKind::Assign(name.to_string(), e), t.col);
                    }
                    self.equates.insert(name.to_string(), Equate::Late { toks, defined: true });
                }
                let wrap = body.len() > 1;
                let paren = |p: &'static str| Tok { kind: Tk::P(p), col: t.col, text: p.to_string() };
                if wrap {
                    out.push(paren("("));
                }
                out.extend(body);
                if wrap {
                    out.push(paren(")"));
                }
            }
        }
        Ok(())
    }

    /// The expression of a late equate's tokens; `None` when they name a register.
    fn late_expr(&self, body: &[Tok]) -> Result<Option<Expr>, PErr> {
        if let [one] = body {
            if self.register_text(one).is_some() {
                return Ok(None);
            }
        }
        let mut c = Cur { toks: body, pos: 0, end_col: body.last().map_or(0, |t| t.col + 1), end_desc: "end of line" };
        match self.full_expr(&mut c, "in an equate") {
            Ok(e) => Ok(Some(e)),
            // A register inside a larger expression is no value; gas reports it at the use.
            Err(_) => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use crate::asm::expr::{BinOp, Expr};
    use crate::asm::syntax::{Operand, StmtKind};
    use emu_core::error::SourceLoc;
    use std::sync::Arc;

    fn kinds(text: &str) -> Vec<StmtKind> {
        let (s, d) = parse(text, &|l, c| SourceLoc::new(Arc::from("t.S"), l, c));
        assert!(d.is_empty(), "unexpected diagnostics: {d:?}");
        s.into_iter().map(|s| s.kind).collect()
    }

    /// The operands of the last instruction, as written after substitution.
    fn operands(k: &[StmtKind]) -> Vec<Operand> {
        match k.iter().rev().find(|k| matches!(k, StmtKind::Insn(_))) {
            Some(StmtKind::Insn(i)) => i.outputs.iter().chain(&i.inputs).map(|o| o.value.clone()).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn register_equates_follow_reassignment() {
        let k = kinds("rA = r2\nadd rA = rA, r0\nrA = r3\nadd rA = rA, r0");
        assert_eq!(operands(&k[..1]), operands(&kinds("add r2 = r2, r0")));
        assert_eq!(operands(&k), operands(&kinds("add r3 = r3, r0")));
        // A register equate is no symbol: nothing but the instructions remains.
        assert!(k.iter().all(|k| matches!(k, StmtKind::Insn(_))));
    }

    #[test]
    fn late_equates_are_reread_and_defined_at_first_use() {
        let k = kinds("two == 2*one\none = 1\nadds r1 = two, r0\none = 2\nadds r1 = two, r0");
        let prod = Expr::Binary(BinOp::Mul, Box::new(Expr::Num(2)), Box::new(Expr::Sym("one".into())));
        assert!(matches!(&k[0], StmtKind::Directive(n, _) if n == ".eqv"));
        // The symbol `two` is defined once, just before its first use.
        let assigns: Vec<_> = k.iter().filter(|k| matches!(k, StmtKind::Assign(n, _) if n == "two")).collect();
        assert_eq!(assigns, [&StmtKind::Assign("two".into(), prod)]);
        let uses = k.iter().filter(|k| matches!(k, StmtKind::Insn(_))).count();
        assert_eq!(uses, 2);
    }

    #[test]
    fn self_reference_is_an_error() {
        let (_, d) = parse("a == a + 1\nadds r1 = a, r0", &|l, c| SourceLoc::new(Arc::from("t.S"), l, c));
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("refers to itself"), "{}", d[0].message);
    }

    #[test]
    fn double_colon_labels_are_global() {
        let k = kinds("foo:: data1 0");
        assert!(matches!(&k[0], StmtKind::Label(n) if n == "foo"));
        assert!(matches!(&k[1], StmtKind::Directive(n, _) if n == ".global"));
    }
}
