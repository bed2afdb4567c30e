//! Relocations found while layout renders the object copy of each section.
//!
//! An instruction operand that the linker must fill (an external symbol, a global branch
//! target, a target in another section, a section address used as a value) goes through
//! [`Assembler::insn_reloc`] with its operand kind and expression; once the bundle is encoded
//! it becomes a [`Fixup`] at bundle + slot (slot 1 for MLX). Data values go through
//! [`Assembler::data_fixup`]. Both split the expression into relocation operators
//! (`Expr::RelocFn`, outermost first), a symbol and an addend, and pick the `R_IA64_*`
//! type from the operators and the field ([`super::reloc::reloc_type`]). A new syntax that
//! needs a relocation only has to leave such an expression in `Value::Later` (instructions)
//! or a data fixup; a fixed type can also be pushed directly onto `ObjState::fixups`.

use super::reloc::{reloc_type, Field, FixTarget};
use super::Fixup;
use crate::asm::expr::BinOp;
use crate::asm::expr::Expr;
use crate::asm::layout::{Assembler, EarlyEnv, Fixup as DataFixup, SymDef};
use crate::table::OpKind;
use emu_core::error::{Diagnostic, SourceLoc};
use std::collections::HashMap;

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
