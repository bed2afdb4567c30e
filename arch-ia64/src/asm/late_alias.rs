//! `name = sym` and `name = sym ± constant` where `sym` is a label or not yet defined
//! (issue 13, gas's `foo = bar` in its ltoff22x tests): gas makes `name` a symbol with
//! `sym`'s section and offset once `sym` is known, and relocations against `name` keep
//! naming `name`. The assignment is kept here and resolved after the last statement.

use super::assembler::{display_name, Assembler, LateAlias, SymDef};
use super::expr::{BinOp, Expr};
use emu_core::error::{Diagnostic, SourceLoc};

/// The target symbol and constant addend of `sym`, `sym + n`, `n + sym` or `sym - n`.
fn symbol_plus_constant(e: &Expr) -> Option<(String, i64)> {
    match e {
        Expr::Sym(s) => Some((s.clone(), 0)),
        Expr::Binary(BinOp::Add, a, b) => match (&**a, &**b) {
            (Expr::Sym(s), Expr::Num(n)) | (Expr::Num(n), Expr::Sym(s)) => Some((s.clone(), *n as i64)),
            _ => None,
        },
        Expr::Binary(BinOp::Sub, a, b) => match (&**a, &**b) {
            (Expr::Sym(s), Expr::Num(n)) => Some((s.clone(), (*n as i64).wrapping_neg())),
            _ => None,
        },
        _ => None,
    }
}

impl Assembler {
    /// Keeps `name = expr` for the end when `expr` is a symbol (plus a constant) with no
    /// absolute value yet; `false` when `expr` has another shape.
    pub(super) fn defer_alias(&mut self, name: &str, expr: &Expr, loc: &SourceLoc) -> bool {
        let Some((target, addend)) = symbol_plus_constant(expr) else { return false };
        if target == name || self.symbols.contains_key(name) {
            return false;
        }
        self.obj.note(name);
        self.late_aliases.push(LateAlias { name: name.to_string(), target, addend, loc: loc.clone() });
        true
    }

    /// Gives every deferred alias its target's definition, chains included; an alias whose
    /// target stays undefined is an error, as an assignment that cannot be evaluated.
    pub(super) fn resolve_late_aliases(&mut self) {
        let mut waiting = std::mem::take(&mut self.late_aliases);
        loop {
            let before = waiting.len();
            waiting.retain(|a| {
                let Some((def, _)) = self.symbols.get(&a.target) else { return true };
                let def = match *def {
                    SymDef::Abs(v) => SymDef::Abs(v.wrapping_add(a.addend as u64)),
                    SymDef::At(s, off) => SymDef::At(s, off.wrapping_add(a.addend as u64)),
                    SymDef::Insn { section, index, slot_offset } if a.addend == 0 => {
                        SymDef::Insn { section, index, slot_offset }
                    }
                    // A constant past an instruction's bundle: not modelled.
                    SymDef::Insn { .. } => return true,
                };
                self.symbols.insert(a.name.clone(), (def, a.loc.clone()));
                false
            });
            if waiting.is_empty() || waiting.len() == before {
                break;
            }
        }
        for a in waiting {
            let why = if self.symbols.contains_key(&a.target) {
                format!("a constant added to instruction label '{}' is not supported", display_name(&a.target))
            } else {
                format!("undefined symbol '{}'", display_name(&a.target))
            };
            self.errors.push(Diagnostic::error(a.loc, format!("cannot evaluate `{}`: {why}", display_name(&a.name))));
        }
    }
}
