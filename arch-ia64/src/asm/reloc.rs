//! Relocations the assembler leaves for the object writer: which `R_IA64_*` type a field
//! needs, from the field's kind and the relocation operator written (`@gprel`, `@ltoff`, ...),
//! and the symbol + addend the expression refers to.
//!
//! The type table was read off `ia64-linux-gnu-as` 2.40 (`readelf -r` on one use of every
//! operator in every field that takes it: `adds` imm14, `addl` imm22, `movl` imm64, branch
//! and check targets, `data4`/`data8`/`data16`).

use super::expr::{BinOp, Expr, SymbolEnv, UnaryOp};
use crate::table::OpKind;
use emu_core::error::SourceLoc;

/// The kind of field a relocation patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// `adds`'s 14-bit immediate.
    Imm14,
    /// `addl`'s 22-bit immediate (also `mov r=sym`).
    Imm22,
    /// `movl`'s 64-bit immediate.
    Imm64,
    /// A 21-bit bundle displacement in a B slot (and `chk.a`).
    Pcrel21B,
    /// `chk.s.i`'s displacement.
    Pcrel21BI,
    /// `chk.s.m`/`chk.s`'s displacement in an M slot.
    Pcrel21M,
    /// `fchkf`'s displacement.
    Pcrel21F,
    /// `brl`'s 60-bit displacement.
    Pcrel60B,
    /// A data directive of this many bytes.
    Data(usize),
}

impl Field {
    /// The field of an instruction operand of `kind` in a slot of `unit`, if it can be relocated.
    pub fn of_operand(kind: OpKind, unit: crate::bundle::SlotUnit) -> Option<Field> {
        use crate::bundle::SlotUnit as U;
        Some(match kind {
            OpKind::Imm14 => Field::Imm14,
            OpKind::Imm22 => Field::Imm22,
            OpKind::Imm64 => Field::Imm64,
            OpKind::Tgt25 => Field::Pcrel21B,
            OpKind::Tgt25Chk if unit == U::I => Field::Pcrel21BI,
            OpKind::Tgt25Chk => Field::Pcrel21M,
            OpKind::Tgt25F => Field::Pcrel21F,
            OpKind::Tgt64 => Field::Pcrel60B,
            _ => return None,
        })
    }

    /// Whether the field holds a displacement from the bundle (taken branches and checks).
    pub fn is_pc_relative(self) -> bool {
        matches!(self, Field::Pcrel21B | Field::Pcrel21BI | Field::Pcrel21M | Field::Pcrel21F | Field::Pcrel60B)
    }
}

/// An `R_IA64_*` relocation type: gas's name and the ELF number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RelocType {
    /// The name as `readelf -r` prints it (`R_IA64_GPREL22`).
    pub name: &'static str,
    /// The `ELF64_R_TYPE` value.
    pub number: u32,
}

impl RelocType {
    /// R_IA64_SEGREL64LSB: the object writer's unwind table words (not chosen by a field).
    pub const SEGREL64LSB: RelocType = RelocType { name: "R_IA64_SEGREL64LSB", number: 0x5f };

    /// Whether a reference to a local symbol must name the symbol itself rather than its
    /// section plus offset: the function-descriptor types, which gas never adjusts.
    pub fn keeps_symbol(self) -> bool {
        matches!(self.number, 0x43 | 0x45 | 0x47 | 0x52 | 0x53 | 0x55 | 0x57)
    }
}

/// One relocation: the object writer turns it into a `.rela` entry.
///
/// `offset` is in the section's object-file contents: for a data field, its first byte; for an
/// instruction, the bundle's offset plus the slot number (1 for `movl`/`brl`), as gas writes
/// `r_offset`. The field itself holds zero in [`super::Assembly::object`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reloc {
    /// Index of the section in [`super::Assembly::object`] (and `image.sections`).
    pub section: usize,
    /// Offset of the field, see above.
    pub offset: u64,
    /// The relocation type.
    pub r_type: RelocType,
    /// The symbol as written (after `.alias`). When it is defined in this file, `local` says
    /// where; gas then refers to the section symbol with the symbol's offset added to the
    /// addend, except for global symbols and `@fptr` (FPTR64I/32LSB/64LSB keep the symbol).
    pub symbol: String,
    /// Where the symbol is defined in this file: section index and offset in it.
    pub local: Option<(usize, u64)>,
    /// Whether the symbol is declared `.global`/`.globl`/`.weak` (gas then refers to it by
    /// name even when it is defined here).
    pub global: bool,
    /// The addend written (`sym+8` gives 8), not including `local`'s offset.
    pub addend: i64,
    /// Where the expression was written.
    pub loc: SourceLoc,
}

/// An expression as `symbol + addend`, under relocation operators, perhaps minus `.`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The operators from the outside in (`@ltoff(@fptr(x))` gives `["ltoff", "fptr"]`).
    pub funcs: Vec<String>,
    /// The symbol.
    pub symbol: String,
    /// The constant part.
    pub addend: i64,
    /// `sym - .`: relative to the field's own address.
    pub minus_dot: bool,
}

/// Splits `e` into a single symbol plus a constant (`x`, `x+8`, `8+x`, `x-.`, `@gprel(x)`,
/// `@ltoff(@fptr(x))`); `None` when it has any other shape. `known` gives the symbols that have a
/// constant value (they fold into the addend).
pub fn split(e: &Expr, known: &dyn SymbolEnv) -> Option<Split> {
    let mut funcs = Vec::new();
    let mut e = e;
    while let Expr::RelocFn(f, inner) = e {
        funcs.push(f.clone());
        e = inner;
    }
    let mut terms = Vec::new();
    linear(e, 1, &mut terms, 0)?;
    let mut symbol = None;
    let mut addend = 0i64;
    let mut minus_dot = false;
    for (t, sign) in terms {
        match t {
            Term::Num(v) => addend = addend.wrapping_add(v.wrapping_mul(sign)),
            Term::Sym(s) => match known.symbol(&s) {
                Some(v) => addend = addend.wrapping_add((v as i64).wrapping_mul(sign)),
                None if sign == 1 && symbol.is_none() => symbol = Some(s),
                None => return None,
            },
            Term::Dot if sign == -1 && !minus_dot => minus_dot = true,
            Term::Dot => return None,
        }
    }
    Some(Split { funcs, symbol: symbol?, addend, minus_dot })
}

enum Term {
    Num(i64),
    Sym(String),
    Dot,
}

fn linear(e: &Expr, sign: i64, out: &mut Vec<(Term, i64)>, depth: u32) -> Option<()> {
    if depth > 64 {
        return None;
    }
    match e {
        Expr::Num(v) => out.push((Term::Num(*v as i64), sign)),
        Expr::Sym(s) => out.push((Term::Sym(s.clone()), sign)),
        Expr::Dot => out.push((Term::Dot, sign)),
        Expr::Unary(UnaryOp::Neg, x) => linear(x, -sign, out, depth + 1)?,
        Expr::Binary(BinOp::Add, a, b) => {
            linear(a, sign, out, depth + 1)?;
            linear(b, sign, out, depth + 1)?;
        }
        Expr::Binary(BinOp::Sub, a, b) => {
            linear(a, sign, out, depth + 1)?;
            linear(b, -sign, out, depth + 1)?;
        }
        _ => {
            // A constant sub-expression (`4*8`) folds in; anything else has no relocation.
            let v = e.eval(&std::collections::HashMap::<String, u64>::new()).ok()?;
            out.push((Term::Num(v), sign));
        }
    }
    Some(())
}

macro_rules! rt {
    ($name:literal, $n:literal) => {
        RelocType { name: $name, number: $n }
    };
}

/// The relocation type for operators `funcs` (outermost first) on a field; `minus_dot` for
/// `sym - .` (PC-relative data). The error names what gas cannot represent.
pub fn reloc_type(funcs: &[String], field: Field, minus_dot: bool) -> Result<RelocType, String> {
    let f: Vec<&str> = funcs.iter().map(String::as_str).collect();
    let f = match (f.as_slice(), minus_dot) {
        ([], true) => vec!["pcrel"],
        (_, true) => return Err("a relocation operator cannot be combined with `- .`".into()),
        _ => f,
    };
    use Field as F;
    let t = match (f.as_slice(), field) {
        ([], F::Imm14) => rt!("R_IA64_IMM14", 0x21),
        ([], F::Imm22) => rt!("R_IA64_IMM22", 0x22),
        ([], F::Imm64) => rt!("R_IA64_IMM64", 0x23),
        ([], F::Data(4)) => rt!("R_IA64_DIR32LSB", 0x25),
        ([], F::Data(8)) => rt!("R_IA64_DIR64LSB", 0x27),
        ([], F::Pcrel21B) => rt!("R_IA64_PCREL21B", 0x49),
        ([], F::Pcrel21BI) => rt!("R_IA64_PCREL21BI", 0x79),
        ([], F::Pcrel21M) => rt!("R_IA64_PCREL21M", 0x4a),
        ([], F::Pcrel21F) => rt!("R_IA64_PCREL21F", 0x4b),
        ([], F::Pcrel60B) => rt!("R_IA64_PCREL60B", 0x48),
        (["gprel"], F::Imm22) => rt!("R_IA64_GPREL22", 0x2a),
        (["gprel"], F::Imm64) => rt!("R_IA64_GPREL64I", 0x2b),
        (["gprel"], F::Data(4)) => rt!("R_IA64_GPREL32LSB", 0x2d),
        (["gprel"], F::Data(8)) => rt!("R_IA64_GPREL64LSB", 0x2f),
        (["ltoff"], F::Imm22) => rt!("R_IA64_LTOFF22", 0x32),
        (["ltoff"], F::Imm64) => rt!("R_IA64_LTOFF64I", 0x33),
        (["ltoffx"], F::Imm22) => rt!("R_IA64_LTOFF22X", 0x86),
        (["pltoff"], F::Imm22) => rt!("R_IA64_PLTOFF22", 0x3a),
        (["pltoff"], F::Imm64) => rt!("R_IA64_PLTOFF64I", 0x3b),
        (["pltoff"], F::Data(8)) => rt!("R_IA64_PLTOFF64LSB", 0x3f),
        (["fptr"], F::Imm64) => rt!("R_IA64_FPTR64I", 0x43),
        (["fptr"], F::Data(4)) => rt!("R_IA64_FPTR32LSB", 0x45),
        (["fptr"], F::Data(8)) => rt!("R_IA64_FPTR64LSB", 0x47),
        (["pcrel"], F::Imm22) => rt!("R_IA64_PCREL22", 0x7a),
        (["pcrel"], F::Imm64) => rt!("R_IA64_PCREL64I", 0x7b),
        (["pcrel"], F::Data(4)) => rt!("R_IA64_PCREL32LSB", 0x4d),
        (["pcrel"], F::Data(8)) => rt!("R_IA64_PCREL64LSB", 0x4f),
        (["ltoff", "fptr"], F::Imm22) => rt!("R_IA64_LTOFF_FPTR22", 0x52),
        (["ltoff", "fptr"], F::Imm64) => rt!("R_IA64_LTOFF_FPTR64I", 0x53),
        (["ltoff", "fptr"], F::Data(4)) => rt!("R_IA64_LTOFF_FPTR32LSB", 0x55),
        (["ltoff", "fptr"], F::Data(8)) => rt!("R_IA64_LTOFF_FPTR64LSB", 0x57),
        (["segrel"], F::Data(4)) => rt!("R_IA64_SEGREL32LSB", 0x5d),
        (["segrel"], F::Data(8)) => rt!("R_IA64_SEGREL64LSB", 0x5f),
        (["secrel"], F::Data(4)) => rt!("R_IA64_SECREL32LSB", 0x65),
        (["secrel"], F::Data(8)) => rt!("R_IA64_SECREL64LSB", 0x67),
        (["ltv"], F::Data(4)) => rt!("R_IA64_LTV32LSB", 0x75),
        (["ltv"], F::Data(8)) => rt!("R_IA64_LTV64LSB", 0x77),
        (["iplt"], F::Data(16)) => rt!("R_IA64_IPLTLSB", 0x81),
        (["tprel"], F::Imm14) => rt!("R_IA64_TPREL14", 0x91),
        (["tprel"], F::Imm22) => rt!("R_IA64_TPREL22", 0x92),
        (["tprel"], F::Imm64) => rt!("R_IA64_TPREL64I", 0x93),
        (["tprel"], F::Data(8)) => rt!("R_IA64_TPREL64LSB", 0x97),
        (["ltoff", "tprel"], F::Imm22) => rt!("R_IA64_LTOFF_TPREL22", 0x9a),
        (["dtpmod"], F::Data(8)) => rt!("R_IA64_DTPMOD64LSB", 0xa7),
        (["ltoff", "dtpmod"], F::Imm22) => rt!("R_IA64_LTOFF_DTPMOD22", 0xaa),
        (["dtprel"], F::Imm14) => rt!("R_IA64_DTPREL14", 0xb1),
        (["dtprel"], F::Imm22) => rt!("R_IA64_DTPREL22", 0xb2),
        (["dtprel"], F::Imm64) => rt!("R_IA64_DTPREL64I", 0xb3),
        (["dtprel"], F::Data(4)) => rt!("R_IA64_DTPREL32LSB", 0xb5),
        (["dtprel"], F::Data(8)) => rt!("R_IA64_DTPREL64LSB", 0xb7),
        (["ltoff", "dtprel"], F::Imm22) => rt!("R_IA64_LTOFF_DTPREL22", 0xba),
        _ => {
            let ops: String = f.iter().map(|x| format!("@{x}")).collect::<Vec<_>>().join(" of ");
            let what = match field {
                F::Data(n) => format!("a {n}-byte data field"),
                F::Imm14 => "a 14-bit immediate".into(),
                F::Imm22 => "a 22-bit immediate".into(),
                F::Imm64 => "a 64-bit immediate".into(),
                _ => "a branch target".into(),
            };
            return Err(if ops.is_empty() {
                format!("a symbol cannot be relocated in {what}")
            } else {
                format!("{ops} cannot be used in {what}")
            });
        }
    };
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn sym(s: &str) -> Box<Expr> {
        Box::new(Expr::Sym(s.into()))
    }

    #[test]
    fn splits_symbol_plus_constant() {
        let known: HashMap<String, u64> = HashMap::from([("k".to_string(), 16)]);
        let e = Expr::Binary(BinOp::Add, sym("x"), Box::new(Expr::Num(8)));
        assert_eq!(split(&e, &known), Some(Split { funcs: vec![], symbol: "x".into(), addend: 8, minus_dot: false }));
        let e = Expr::Binary(BinOp::Sub, Box::new(Expr::Binary(BinOp::Add, sym("k"), sym("x"))), Box::new(Expr::Dot));
        assert_eq!(split(&e, &known), Some(Split { funcs: vec![], symbol: "x".into(), addend: 16, minus_dot: true }));
        let e = Expr::RelocFn("ltoff".into(), Box::new(Expr::RelocFn("fptr".into(), sym("f"))));
        assert_eq!(split(&e, &known).map(|s| s.funcs), Some(vec!["ltoff".to_string(), "fptr".to_string()]));
        assert_eq!(split(&Expr::Binary(BinOp::Sub, sym("a"), sym("b")), &known), None);
        assert_eq!(split(&Expr::Binary(BinOp::Mul, sym("a"), Box::new(Expr::Num(2))), &known), None);
    }

    #[test]
    fn types_follow_gas() {
        let f = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(reloc_type(&f(&[]), Field::Imm14, false).map(|t| t.name), Ok("R_IA64_IMM14"));
        assert_eq!(reloc_type(&f(&[]), Field::Data(4), true).map(|t| t.number), Ok(0x4d));
        assert_eq!(reloc_type(&f(&["ltoff", "fptr"]), Field::Imm22, false).map(|t| t.number), Ok(0x52));
        assert_eq!(reloc_type(&f(&["iplt"]), Field::Data(16), false).map(|t| t.name), Ok("R_IA64_IPLTLSB"));
        assert!(reloc_type(&f(&["gprel"]), Field::Imm14, false).is_err());
        assert!(reloc_type(&f(&[]), Field::Data(2), false).is_err());
        assert!(reloc_type(&f(&["fptr"]), Field::Data(8), false).is_ok_and(RelocType::keeps_symbol));
        assert!(!reloc_type(&f(&[]), Field::Data(8), false).is_ok_and(RelocType::keeps_symbol));
    }
}
