//! Relocation forms of gas's dialect (issue 13): `sym - label` as a PC-relative relocation,
//! the plain relocation gas falls back on (with "Cannot express") when an operator has no
//! relocation for the field, and `ld8.mov` with its LDXMOV relocation.

use super::assembler::{Assembler, EarlyEnv};
use super::expr::Expr;
use super::reloc::{split, Field, Reloc, RelocType};
use super::syntax::{InsnSyntax, Located, Operand};
use emu_core::error::{Diagnostic, SourceLoc};

/// The name gas gives the relocation operators `funcs` would need in `field` when no such
/// relocation exists (`@gprel` in `adds`'s 14 bits is "GPREL14"); gas then warns "Cannot
/// express ... relocation" and relocates the plain value instead (gas's `reloc-bad.s`).
/// `None` for operators gas does not know or fields that take no plain relocation either.
pub(super) fn inexpressible(funcs: &[String], field: Field, minus_dot: bool) -> Option<String> {
    let f: Vec<&str> = funcs.iter().map(String::as_str).collect();
    let base = match (f.as_slice(), minus_dot) {
        ([], true) => "PCREL",
        (_, true) => return None,
        (["gprel"], _) => "GPREL",
        (["ltoff"], _) | (["ltoffx"], _) => "LTOFF",
        (["pltoff"], _) => "PLTOFF",
        (["fptr"], _) => "FPTR",
        (["pcrel"], _) => "PCREL",
        (["ltoff", "fptr"], _) => "LTOFF_FPTR",
        (["segrel"], _) => "SEGREL",
        (["secrel"], _) => "SECREL",
        (["ltv"], _) => "LTV",
        (["iplt"], _) => "IPLT",
        (["tprel"], _) => "TPREL",
        (["ltoff", "tprel"], _) => "LTOFF_TPREL",
        (["dtpmod"], _) => "DTPMOD",
        (["ltoff", "dtpmod"], _) => "LTOFF_DTPMOD",
        (["dtprel"], _) => "DTPREL",
        (["ltoff", "dtprel"], _) => "LTOFF_DTPREL",
        _ => return None,
    };
    let size = match field {
        Field::Imm14 => "14",
        Field::Imm22 => "22",
        Field::Imm64 => "64I",
        Field::Data(4) => "32LSB",
        Field::Data(8) => "64LSB",
        _ => return None,
    };
    let x = if f.as_slice() == ["ltoffx"] { "X" } else { "" };
    Some(format!("{base}{size}{x}"))
}

/// `ld8.mov r1 = [r2], sym`: gas's pseudo-op for the `ld8` of a `@ltoffx` sequence, which
/// the linker may relax into a `mov` (R_IA64_LDXMOV against `sym`). Gives the plain `ld8`
/// and the symbol; `None` for any other instruction.
pub(super) fn ldxmov_pseudo(syn: &InsnSyntax) -> Result<Option<(InsnSyntax, Expr)>, Diagnostic> {
    if !syn.mnemonic.value.eq_ignore_ascii_case("ld8.mov") {
        return Ok(None);
    }
    match syn.inputs.as_slice() {
        [mem @ Located { value: Operand::Mem(_), .. }, Located { value: Operand::Expr(e), .. }] => {
            let mut plain = syn.clone();
            plain.mnemonic.value = "ld8".into();
            plain.inputs = vec![mem.clone()];
            Ok(Some((plain, e.clone())))
        }
        _ => Err(Diagnostic::error(
            syn.mnemonic.loc.clone(),
            "`ld8.mov` takes a register, an address and a symbol (`ld8.mov r3 = [r2], sym`)",
        )),
    }
}

/// `e` with the one subtracted label `L` of section `section` (at offset `off`) written as
/// `. - (place - off)`: gas turns `sym - L` into a PC-relative relocation whose addend is the
/// distance from the field's place back to `L` (gas's `pcrel.s`: `esym - _mov` in a `mov` at
/// 0x20 of `.mov` is PCREL22 esym+0x20). The second value counts replaced labels.
fn label_to_dot(e: &Expr, neg: bool, local: &dyn Fn(&str) -> Option<u64>, place: u64) -> (Expr, u32) {
    use super::expr::{BinOp, UnaryOp};
    match e {
        Expr::Sym(s) if neg => match local(s) {
            Some(off) => {
                let back = Expr::Num(place.wrapping_sub(off));
                (Expr::Binary(BinOp::Sub, Box::new(Expr::Dot), Box::new(back)), 1)
            }
            None => (e.clone(), 0),
        },
        Expr::Unary(UnaryOp::Neg, x) => {
            let (x, n) = label_to_dot(x, !neg, local, place);
            (Expr::Unary(UnaryOp::Neg, Box::new(x)), n)
        }
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (a, na) = label_to_dot(a, neg, local, place);
            let (b, nb) = label_to_dot(b, if *op == BinOp::Sub { !neg } else { neg }, local, place);
            (Expr::Binary(*op, Box::new(a), Box::new(b)), na + nb)
        }
        _ => (e.clone(), 0),
    }
}

impl Assembler {
    /// `sym - L` with `L` a local label of `section` and `sym` not resolvable there (external,
    /// global or in another section): the same value as `sym - . + (place - L)`, which the
    /// relocation code takes as PC-relative (issue 13). `place` is the field's offset in the
    /// section (a bundle's for an instruction). `None` when `e` has no such form.
    pub(super) fn label_difference(&self, e: &Expr, section: usize, place: u64) -> Option<Expr> {
        if !matches!(e, Expr::Binary(..) | Expr::Unary(..)) || e.has_dot() {
            return None;
        }
        let local = |s: &str| match self.placed.get(s) {
            Some(&(sec, off)) if sec == section && !self.globals.contains(s) => Some(off),
            _ => None,
        };
        let (out, n) = label_to_dot(e, false, &local, place);
        let elsewhere = e.symbols().iter().any(|s| local(s).is_none());
        (n == 1 && elsewhere).then_some(out)
    }

    /// Records `ld8.mov`'s LDXMOV relocation for the slot at `offset` of `section`.
    pub(super) fn ldxmov_reloc(&mut self, e: &Expr, section: usize, offset: u64, loc: &SourceLoc) {
        let Some(parts) = split(e, &EarlyEnv { asm: self }).filter(|p| p.funcs.is_empty() && !p.minus_dot) else {
            self.errors.push(Diagnostic::error(loc.clone(), "`ld8.mov` needs a symbol (plus a constant)"));
            return;
        };
        self.relocs.push(Reloc {
            global: self.globals.contains(&parts.symbol),
            section,
            offset,
            r_type: RelocType { name: "R_IA64_LDXMOV", number: 0x87 },
            local: self.placed.get(&parts.symbol).copied(),
            symbol: parts.symbol,
            addend: parts.addend,
            loc: loc.clone(),
        });
    }
}
