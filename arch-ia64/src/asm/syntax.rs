//! The parsed form of one assembly statement, before any instruction-table lookup.
//!
//! The parser (`parse.rs`) turns preprocessed text into [`Statement`]s; the matcher
//! (`matcher.rs`) looks an [`InsnSyntax`] up in the instruction table.

use super::expr::Expr;
use emu_core::error::SourceLoc;

/// A register as written in the source, after alias resolution
/// (`sp` -> r12, `rp` -> b0, `in0`/`loc0`/`out0` -> r32+ per the last `alloc`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reg {
    /// General register r0..r127.
    Gr(u8),
    /// Floating-point register f0..f127.
    Fr(u8),
    /// Predicate register p0..p63.
    Pr(u8),
    /// Branch register b0..b7.
    Br(u8),
    /// Application register ar0..ar127 (`ar.pfs`, `ar.k6`, `ar64`, ...).
    Ar(u8),
    /// Control register cr0..cr127 (`cr.ipsr`, `cr23`, ...).
    Cr(u8),
    /// Data access hint register dahr0..dahr7 (Itanium 9500; later forms, issue 12).
    Dahr(u8),
    /// `pr`: all predicates at once.
    PrAll,
    /// `pr.rot`: the rotating predicates.
    PrRot,
    /// `psr`.
    Psr,
    /// `psr.l`.
    PsrL,
    /// `psr.um`.
    PsrUm,
    /// `ip`.
    Ip,
}

/// An indirect register file such as `cpuid[r3]` or `pkr[r2]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndirectFile {
    /// `cpuid[]`.
    Cpuid,
    /// `dbr[]`.
    Dbr,
    /// `ibr[]`.
    Ibr,
    /// `pkr[]`.
    Pkr,
    /// `pmc[]`.
    Pmc,
    /// `pmd[]`.
    Pmd,
    /// `rr[]`.
    Rr,
    /// `itr[]`.
    Itr,
    /// `dtr[]`.
    Dtr,
    /// `msr[]` (model-specific registers, SDM rev 2.3).
    Msr,
    /// `dahr[]` (data access hint registers, Itanium 9500; later forms, issue 12).
    Dahr,
}

/// One operand as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A register.
    Reg(Reg),
    /// A memory reference `[rN]`.
    Mem(Reg),
    /// An indirect register access `file[rN]`.
    Indirect(IndirectFile, Reg),
    /// Any other expression: a number, a symbol, `1b`, `.`, arithmetic.
    Expr(Expr),
}

/// An operand with the place it starts at.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Where it starts (file:line:col of its first character).
    pub loc: SourceLoc,
}

/// An instruction as written: `(qp) mnemonic.completers outs = ins`.
#[derive(Debug, Clone, PartialEq)]
pub struct InsnSyntax {
    /// The qualifying predicate, if written (`(p6)`); its number, 0..63.
    pub qp: Option<Located<u8>>,
    /// Mnemonic with completers, lower-case, exactly as written (`cmp.eq.unc`, `br.ret.sptk.many`).
    pub mnemonic: Located<String>,
    /// Operands left of `=` (empty when the statement has no `=`).
    pub outputs: Vec<Located<Operand>>,
    /// Operands right of `=`, or all operands when there is no `=`.
    pub inputs: Vec<Located<Operand>>,
    /// Whether an `=` was written (distinguishes `st8 [r1]=r2` shapes from `nop 0`).
    pub has_equals: bool,
}

/// One argument of a directive.
#[derive(Debug, Clone, PartialEq)]
pub enum DirArg {
    /// An expression (numbers, symbols, registers appear as identifiers here).
    Expr(Expr),
    /// A string literal, without quotes, escapes resolved.
    Str(String),
    /// `@word`, e.g. `@function`, `@progbits`, `@mutex`.
    At(String),
    /// A register name (`.save ar.pfs, r34`, `.pred.rel.mutex p6, p7`).
    Reg(Reg),
    /// A value already converted to its little-endian bytes (`real10 0.2`; issue 13).
    Bytes(Vec<u8>),
}

/// What a statement is.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `name:` — a global, local (`.L...`) or numeric (`1:`) label. Numeric labels are
    /// given unique internal names by the parser (see [`super::expr::local_label_name`]).
    Label(String),
    /// `name = expr` (same as `.set name, expr`).
    Assign(String, Expr),
    /// `[name:]` written before an instruction: `name` gets the address of that instruction's
    /// slot (bundle address + slot number). Unlike a label it does not start a new bundle.
    /// Always directly followed by the [`StmtKind::Insn`] it tags.
    Tag(String),
    /// An instruction.
    Insn(InsnSyntax),
    /// `;;`: the instruction group ends after the previous instruction.
    Stop,
    /// A directive: name including the leading dot (`.proc`, `.pred.rel.mutex`,
    /// `data8`, `.mii`), and its comma-separated arguments.
    Directive(String, Vec<Located<DirArg>>),
    /// `{`: the following instructions, up to the matching `}`, form one bundle (manual
    /// bundling, as in gas: the template comes from a template directive or gas's choice).
    BundleOpen,
    /// `}`: ends the bundle opened by `{` after the previous instruction.
    BundleClose,
}

/// One statement with the location of its first character.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// What the statement is.
    pub kind: StmtKind,
    /// Where it starts.
    pub loc: SourceLoc,
}
