//! From an [`InsnSyntax`] to table rows: mnemonic spelling, operand kinds and the gas
//! pseudo-ops that have no row of their own (reference section 5 and 6: compare relations
//! that swap operands, `tbit.nz`, `alloc`'s i,l,o,r, unit-less `mov` to an AR, `nop`,
//! `break`, `hint`, `chk.s`).

use super::bundler::{InsnClass, Placement};
use super::expr::{Expr, SymbolEnv};
use super::syntax::{IndirectFile, InsnSyntax, Located, Operand, Reg};
use crate::bundle::SlotUnit;
use crate::regs::ar;
use crate::regs::ar_m_unit_only;
use crate::table::{table, Flags, Form, OpClass, OpKind, Sem, Unit};
use emu_core::error::{Diagnostic, SourceLoc};

// gas's words for operands no form takes: only the matcher asks, with its own `fits`.
mod operand_msg;

/// An operand value: known now (registers, constants) or an expression to evaluate once
/// labels have addresses.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Known.
    Known(i64),
    /// Evaluated at encoding time; the location is for errors.
    Later(Expr, SourceLoc),
}

/// The rows an instruction may be encoded with, by the unit of the slot it lands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UnitRows {
    /// Row for an M slot.
    pub m: Option<u16>,
    /// Row for an I slot.
    pub i: Option<u16>,
    /// Row for an F slot.
    pub f: Option<u16>,
    /// Row for a B slot.
    pub b: Option<u16>,
    /// Row for the X slot of MLX.
    pub x: Option<u16>,
}

impl UnitRows {
    /// Rows for an instruction of `unit` type encoded by row `idx` (A rows fit M and I).
    pub fn of_unit(unit: Unit, idx: u16) -> UnitRows {
        let mut rows = UnitRows::default();
        match unit {
            Unit::A => {
                rows.m = Some(idx);
                rows.i = Some(idx);
            }
            Unit::M => rows.m = Some(idx),
            Unit::I => rows.i = Some(idx),
            Unit::F => rows.f = Some(idx),
            Unit::B => rows.b = Some(idx),
            Unit::X => rows.x = Some(idx),
        }
        rows
    }

    /// The row for a slot of `unit`.
    pub fn for_unit(&self, unit: SlotUnit) -> Option<u16> {
        match unit {
            SlotUnit::M => self.m,
            SlotUnit::I => self.i,
            SlotUnit::F => self.f,
            SlotUnit::B => self.b,
            SlotUnit::L | SlotUnit::X => self.x,
        }
    }
}

/// A matched instruction, ready for bundling and (after layout) encoding.
#[derive(Debug, Clone, PartialEq)]
pub struct Matched {
    /// Rows by slot unit (one row for fixed-unit instructions).
    pub rows: UnitRows,
    /// Completer bits from the mnemonic.
    pub comp_bits: u64,
    /// Qualifying predicate.
    pub qp: u8,
    /// Operand values in the row's display order (literal operands included).
    pub values: Vec<Value>,
    /// How the bundler may place it.
    pub class: InsnClass,
    /// FIRST/LAST/SLOT2.
    pub placement: Placement,
    /// The name gas gives the instruction in dependency warnings.
    pub gas_name: String,
    /// `mov pr = r2` written without its mask: encoded with mask -1, but gas's dependency
    /// check finds no mask operand on that pseudo form and so counts no predicate written.
    pub pr_mask_omitted: bool,
}

/// How gas maps a compare relation onto a canonical row (reference section 5):
/// (relation, canonical, register form: swap p1/p2, swap r2/r3; immediate form: swap p1/p2,
/// immediate adjustment).
const CMP_REWRITES: [(&str, &str, bool, bool, bool, i64); 6] = [
    ("ne", "eq", true, false, true, 0),
    ("ge", "lt", true, false, true, 0),
    ("gt", "lt", false, true, true, -1),
    ("le", "lt", true, true, false, -1),
    ("geu", "ltu", true, false, true, 0),
    ("gtu", "ltu", false, true, true, -1),
];

/// `leu` is `ltu` like `le` is `lt`.
const CMP_REWRITE_LEU: (&str, &str, bool, bool, bool, i64) = ("leu", "ltu", true, true, false, -1);

/// The relation that holds with the operands exchanged (`a < b` is `b > a`).
fn mirror(rel: &str) -> &str {
    match rel {
        "lt" => "gt",
        "gt" => "lt",
        "le" => "ge",
        "ge" => "le",
        other => other,
    }
}

fn negate(rel: &str) -> Option<&'static str> {
    Some(match rel {
        "eq" => "ne",
        "ne" => "eq",
        "lt" => "ge",
        "ge" => "lt",
        "gt" => "le",
        "le" => "gt",
        "ltu" => "geu",
        "geu" => "ltu",
        "gtu" => "leu",
        "leu" => "gtu",
        _ => return None,
    })
}

/// A rewritten instruction: new mnemonic and operand order.
struct Rewrite {
    mnemonic: String,
    outs: Vec<Located<Operand>>,
    ins: Vec<Located<Operand>>,
    imm_adjust: i64,
}

fn is_r0(op: Option<&Located<Operand>>) -> bool {
    matches!(op.map(|o| &o.value), Some(Operand::Reg(Reg::Gr(0))))
}

fn rewrite_compare(m: &str, outs: &[Located<Operand>], ins: &[Located<Operand>]) -> Option<Rewrite> {
    let (head, rest) = m.split_once('.')?;
    if head != "cmp" && head != "cmp4" {
        return None;
    }
    let (rel, ctype) = rest.split_once('.').unwrap_or((rest, ""));
    let mut outs = outs.to_vec();
    let mut ins = ins.to_vec();
    let (mut rel, mut ctype) = (rel, ctype);
    // x.andcm is the opposite relation's .and, x.orcm the opposite's .or, and x.and.orcm
    // the opposite's .or.andcm with the targets swapped.
    let negated = match ctype {
        "andcm" => Some(("and", false)),
        "orcm" => Some(("or", false)),
        "and.orcm" => Some(("or.andcm", true)),
        _ => None,
    };
    if let Some((new_ctype, swap_p)) = negated {
        rel = negate(rel)?;
        ctype = new_ctype;
        if swap_p && outs.len() == 2 {
            outs.swap(0, 1);
        }
    }
    if matches!(ctype, "and" | "or" | "or.andcm") {
        // Parallel compares: eq/ne have register and immediate rows; the other relations
        // exist only against r0 in the first position, so r0 second mirrors the relation.
        if !matches!(rel, "eq" | "ne") && !is_r0(ins.first()) && is_r0(ins.get(1)) && ins.len() == 2 {
            ins.swap(0, 1);
            rel = mirror(rel);
        }
        return Some(Rewrite { mnemonic: format!("{head}.{rel}.{ctype}"), outs, ins, imm_adjust: 0 });
    }
    let sep = if ctype.is_empty() { "" } else { "." };
    let Some(&(_, canon, reg_swap_p, reg_swap_r, imm_swap_p, adj)) =
        CMP_REWRITES.iter().chain(std::iter::once(&CMP_REWRITE_LEU)).find(|(r, ..)| *r == rel)
    else {
        return Some(Rewrite { mnemonic: format!("{head}.{rel}{sep}{ctype}"), outs, ins, imm_adjust: 0 });
    };
    let imm_first = matches!(ins.first().map(|o| &o.value), Some(Operand::Expr(_)));
    let mut imm_adjust = 0;
    let swap_p = if imm_first {
        imm_adjust = adj;
        imm_swap_p
    } else {
        if reg_swap_r && ins.len() == 2 {
            ins.swap(0, 1);
        }
        reg_swap_p
    };
    if swap_p && outs.len() == 2 {
        outs.swap(0, 1);
    }
    Some(Rewrite { mnemonic: format!("{head}.{canon}{sep}{ctype}"), outs, ins, imm_adjust })
}

/// gas's operand-omitting spellings (pseudo.s, issue 12): a compare or test with one
/// predicate target writes p0 as the other; the implied `ar.ccv`/`ar.csd` of cmpxchg,
/// cmp8xchg16, ld16 and st16 may be left out; `mov pr = r2` writes every predicate (mask -1).
/// Returns the operands with the omitted ones filled in, so the rows match as written in full.
fn fill_omitted(
    m: &str,
    outs: &[Located<Operand>],
    ins: &[Located<Operand>],
) -> (Vec<Located<Operand>>, Vec<Located<Operand>>) {
    let mut outs = outs.to_vec();
    let mut ins = ins.to_vec();
    let head = m.split('.').next().unwrap_or(m);
    let implied = |at: &Located<Operand>, value: Operand| Located { value, loc: at.loc.clone() };
    let one_pred = outs.len() == 1 && matches!(outs[0].value, Operand::Reg(Reg::Pr(_)));
    if one_pred && matches!(head, "cmp" | "cmp4" | "tbit" | "tnat" | "tf" | "fcmp" | "fclass") {
        let p0 = implied(&outs[0], Operand::Reg(Reg::Pr(0)));
        outs.push(p0);
    }
    let last_in_gr = ins.last().is_some_and(|o| matches!(o.value, Operand::Reg(Reg::Gr(_))));
    let mem_then_gr = ins.len() == 2 && matches!(ins[0].value, Operand::Mem(_)) && last_in_gr;
    if mem_then_gr && ["cmpxchg1", "cmpxchg2", "cmpxchg4", "cmpxchg8"].contains(&head) {
        let ccv = implied(&ins[1], Operand::Reg(Reg::Ar(ar::CCV)));
        ins.push(ccv);
    } else if mem_then_gr && head == "cmp8xchg16" {
        let csd = implied(&ins[1], Operand::Reg(Reg::Ar(ar::CSD)));
        let ccv = implied(&ins[1], Operand::Reg(Reg::Ar(ar::CCV)));
        ins.extend([csd, ccv]);
    } else if head == "ld16" && outs.len() == 1 && matches!(outs[0].value, Operand::Reg(Reg::Gr(_))) {
        let csd = implied(&outs[0], Operand::Reg(Reg::Ar(ar::CSD)));
        outs.push(csd);
    } else if head == "st16" && ins.len() == 1 && last_in_gr {
        let csd = implied(&ins[0], Operand::Reg(Reg::Ar(ar::CSD)));
        ins.push(csd);
    } else if m == "mov" && ins.len() == 1 && last_in_gr && outs.len() == 1 && outs[0].value == Operand::Reg(Reg::PrAll)
    {
        let all = Expr::Unary(super::expr::UnaryOp::Neg, Box::new(Expr::Num(1)));
        let mask = implied(&ins[0], Operand::Expr(all));
        ins.push(mask);
    }
    (outs, ins)
}

fn rewrite(syn: &InsnSyntax) -> Rewrite {
    let m = syn.mnemonic.value.as_str();
    let (mut outs, ins) = fill_omitted(m, &syn.outputs, &syn.inputs);
    if let Some(r) = rewrite_compare(m, &outs, &ins) {
        return r;
    }
    let mut mnemonic = m.to_string();
    // tf (I30, issue 12 multimedia slice) has the same pseudo-ops as tbit/tnat.
    for head in ["tbit", "tnat", "tf"] {
        if m == format!("{head}.nz") || m == format!("{head}.nz.unc") {
            // Only a well-formed `p1,p2=` has targets to swap; anything else fails to
            // match a row later with a located error.
            if outs.len() == 2 {
                outs.swap(0, 1);
            }
            mnemonic = m.replacen(".nz", ".z", 1);
        }
        // .andcm/.orcm/.and.orcm test the opposite bit with .and/.or/.or.andcm (gas pseudo-ops).
        for (rel, opposite) in [("z", "nz"), ("nz", "z")] {
            for (ctype, canon, swap) in [("andcm", "and", true), ("orcm", "or", true), ("and.orcm", "or.andcm", true)] {
                if m == format!("{head}.{rel}.{ctype}") {
                    mnemonic = format!("{head}.{opposite}.{canon}");
                    if swap && outs.len() == 2 {
                        outs.swap(0, 1);
                    }
                }
            }
        }
    }
    // `br` with whether hints is br.cond; the bare `br{.few|.many}{.clr}` stays for the row.
    if let Some(rest) = m.strip_prefix("br.") {
        if [".sptk", ".spnt", ".dptk", ".dpnt"].iter().any(|h| format!(".{rest}").starts_with(h)) {
            mnemonic = format!("br.cond.{rest}");
        } else if rest == "few"
            || rest == "many"
            || rest.starts_with("few.")
            || rest.starts_with("many.")
            || rest == "clr"
        {
            mnemonic = format!("br.cond.sptk.{rest}");
        }
    } else if m == "br" {
        mnemonic = "br.cond.sptk".to_string();
    } else if let Some(rest) = m.strip_prefix("brl.") {
        if [".sptk", ".spnt", ".dptk", ".dpnt"].iter().any(|h| format!(".{rest}").starts_with(h)) {
            mnemonic = format!("brl.cond.{rest}");
        } else if rest.starts_with("few") || rest.starts_with("many") || rest == "clr" {
            mnemonic = format!("brl.cond.sptk.{rest}");
        }
    } else if m == "brl" {
        mnemonic = "brl.cond.sptk".to_string();
    }
    Rewrite { mnemonic, outs, ins, imm_adjust: 0 }
}

/// Whether a syntax operand can stand for an operand of `kind`.
pub(super) fn fits(op: &Operand, kind: OpKind) -> bool {
    let spec = kind.spec();
    match (op, spec.class) {
        (Operand::Reg(Reg::Gr(_)), OpClass::Gr) => true,
        (Operand::Reg(Reg::Fr(_)), OpClass::Fr) => true,
        (Operand::Reg(Reg::Pr(_)), OpClass::Pr) => true,
        (Operand::Reg(Reg::Br(_)), OpClass::Br) => true,
        (Operand::Reg(Reg::Ar(_)), OpClass::Ar) => true,
        (Operand::Reg(Reg::Cr(_)), OpClass::Cr) => true,
        (Operand::Reg(Reg::Dahr(_)), OpClass::Dahr) => true, // later forms (issue 12)
        (Operand::Mem(Reg::Gr(_)), OpClass::Mem) => true,
        (Operand::Indirect(file, Reg::Gr(_)), OpClass::Ind(name)) => indirect_name(*file) == name,
        (Operand::Reg(r), OpClass::Fixed(text)) => matches!(
            (r, text),
            (Reg::Gr(0), "r0")
                | (Reg::Ar(ar::PFS), "ar.pfs")
                | (Reg::Ar(ar::CCV), "ar.ccv")
                | (Reg::Ar(ar::CSD), "ar.csd") // memory forms (issue 12)
                | (Reg::PrAll, "pr")
                | (Reg::PrRot, "pr.rot")
                | (Reg::Psr, "psr")
                | (Reg::PsrL, "psr.l")
                | (Reg::PsrUm, "psr.um")
                | (Reg::Ip, "ip")
        ),
        (Operand::Expr(_), OpClass::Dec | OpClass::Hex | OpClass::Target) => true,
        // multimedia (issue 12): `@rev` and friends are constants of the expression parser.
        (Operand::Expr(_), OpClass::Named(_)) => true,
        _ => false,
    }
}

/// The file name of an indirect operand as the table's `OpClass::Ind` spells it.
fn indirect_name(file: IndirectFile) -> &'static str {
    match file {
        IndirectFile::Cpuid => "cpuid",
        IndirectFile::Dbr => "dbr",
        IndirectFile::Ibr => "ibr",
        IndirectFile::Pkr => "pkr",
        IndirectFile::Pmc => "pmc",
        IndirectFile::Pmd => "pmd",
        IndirectFile::Rr => "rr",
        IndirectFile::Itr => "itr",
        IndirectFile::Dtr => "dtr",
        IndirectFile::Msr => "msr",
        IndirectFile::Dahr => "dahr", // later forms (issue 12)
    }
}

fn reg_number(op: &Operand) -> Option<i64> {
    let n = match op {
        Operand::Reg(r) | Operand::Mem(r) | Operand::Indirect(_, r) => match r {
            Reg::Gr(n) | Reg::Fr(n) | Reg::Pr(n) | Reg::Br(n) | Reg::Ar(n) | Reg::Cr(n) | Reg::Dahr(n) => *n,
            _ => 0,
        },
        _ => return None,
    };
    Some(i64::from(n))
}

/// The syntax operands in display order, for a row with `n_outs` outputs.
fn flat(outs: &[Located<Operand>], ins: &[Located<Operand>]) -> Vec<Located<Operand>> {
    outs.iter().chain(ins.iter()).cloned().collect()
}

/// Tries `form` against the operands; returns the values or why not.
fn try_form(
    form: &Form,
    outs: &[Located<Operand>],
    ins: &[Located<Operand>],
    adjust: i64,
    env: &dyn SymbolEnv,
) -> Result<Vec<Value>, Option<Diagnostic>> {
    if form.outs.len() != outs.len() || form.ins.len() != ins.len() {
        return Err(None);
    }
    let all = flat(outs, ins);
    let kinds: Vec<OpKind> = form.operands().collect();
    let mut values = Vec::with_capacity(kinds.len());
    for (op, kind) in all.iter().zip(&kinds) {
        if !fits(&op.value, *kind) {
            return Err(None);
        }
        let spec = kind.spec();
        let value = match &op.value {
            Operand::Expr(e) => match e.eval(env) {
                Ok(v) => {
                    let v = if matches!(spec.class, OpClass::Dec | OpClass::Hex) { v.wrapping_add(adjust) } else { v };
                    if matches!(spec.class, OpClass::Dec | OpClass::Hex)
                        && (i128::from(v) < spec.min || i128::from(v) > spec.max)
                        && *kind != OpKind::Imm64
                    {
                        return Err(Some(Diagnostic::error(
                            op.loc.clone(),
                            format!(
                                "immediate {v} out of range for `{}`: expected {}",
                                form.name.replace("{}", ""),
                                spec.range_text
                            ),
                        )));
                    }
                    if kind.is_literal() && i128::from(v) != spec.min {
                        return Err(None);
                    }
                    Value::Known(v)
                }
                Err(_) if adjust != 0 => return Err(None),
                Err(_) => Value::Later(e.clone(), op.loc.clone()),
            },
            other => {
                let n = reg_number(other).unwrap_or(0);
                if i128::from(n) > spec.max {
                    return Err(Some(Diagnostic::error(
                        op.loc.clone(),
                        format!("register out of range: expected {}", spec.range_text),
                    )));
                }
                Value::Known(n)
            }
        };
        values.push(value);
    }
    Ok(values)
}

fn class_of(form: &Form) -> InsnClass {
    match form.unit {
        Unit::A => InsnClass::A,
        Unit::M => InsnClass::M,
        Unit::I => InsnClass::I,
        Unit::F => InsnClass::F,
        Unit::B => InsnClass::B,
        Unit::X => InsnClass::X,
    }
}

fn placement_of(form: &Form) -> Placement {
    if form.flags.has(Flags::FIRST) {
        Placement::First
    } else if form.flags.has(Flags::LAST) {
        Placement::Last
    } else if form.flags.has(Flags::SLOT2) {
        Placement::Slot2
    } else {
        Placement::Any
    }
}

/// Finds the first row named `mnemonic` whose operands fit; `Ok(None)` when the mnemonic
/// names no row at all.
fn find(
    mnemonic: &str,
    outs: &[Located<Operand>],
    ins: &[Located<Operand>],
    adjust: i64,
    env: &dyn SymbolEnv,
) -> Result<Option<(u16, u64, Vec<Value>)>, Diagnostic> {
    let t = table();
    let mut named = false;
    let mut range_error = None;
    for (idx, form) in t.forms.iter().enumerate() {
        let Some(bits) = form.match_mnemonic(mnemonic) else {
            continue;
        };
        named = true;
        match try_form(form, outs, ins, adjust, env) {
            Ok(values) => return Ok(Some((idx as u16, bits, values))),
            Err(Some(d)) => range_error = range_error.or(Some(d)),
            Err(None) => {}
        }
    }
    match (named, range_error) {
        (_, Some(d)) => Err(d),
        (true, None) => Err(Diagnostic::error(
            ins.first().or(outs.first()).map_or_else(|| SourceLoc::new("".into(), 0, 0), |o| o.loc.clone()),
            // gas's words where known (issue 13: `operand_msg.rs`).
            operand_msg::gas_operand_error(mnemonic, outs, ins)
                .unwrap_or_else(|| "operands do not match any form of this instruction".to_string()),
        )),
        (false, None) => Ok(None),
    }
}

impl Matched {
    /// Whether this is an FP load pair (ldfps/ldfpd/ldfp8), whose targets gas checks for banks.
    pub fn is_fp_pair(&self) -> bool {
        self.rows.m.is_some_and(|r| matches!(table().form(r).sem, Some(Sem::LoadFpPair { .. })))
    }

    /// Whether an `lfetch.count` stride is written with low bits the encoding drops.
    pub fn has_unaligned_stride(&self) -> bool {
        self.rows.m.is_some_and(|r| {
            table()
                .form(r)
                .operands()
                .zip(&self.values)
                .any(|(kind, v)| kind == OpKind::LfStride && matches!(v, Value::Known(s) if s & 63 != 0))
        })
    }

    /// Whether this is a compare, tbit or tnat (their outputs are predicates).
    pub fn kind_is_compare(&self) -> bool {
        let rows = self.rows;
        rows.m.or(rows.i).is_some_and(|r| {
            matches!(table().form(r).timing, crate::table::TimingClass::Compare | crate::table::TimingClass::Tbit)
        })
    }
}

/// Looks `syn` up in the table.
///
/// # Errors
/// Unknown mnemonic, operands of the wrong kind or out of range, a predicate on an
/// instruction that cannot be predicated.
pub fn match_insn(syn: &InsnSyntax, env: &dyn SymbolEnv) -> Result<Matched, Diagnostic> {
    let rw = rewrite(syn);
    let qp = syn.qp.as_ref().map_or(0, |q| q.value);
    let mloc = syn.mnemonic.loc.clone();
    // gas 2.40's default -mhint.b=error (opc-b.s): an explicit hint.b is refused with
    // gas's message. (gas's -mhint.b=ok|warning is not offered: nothing here needs it.)
    if rw.mnemonic == "hint.b" {
        return Err(Diagnostic::error(mloc, "hint.b shouldn't be used"));
    }
    let operands_loc = |d: Diagnostic| {
        if d.loc.line == 0 {
            Diagnostic { loc: mloc.clone(), ..d }
        } else {
            d
        }
    };
    let base = rw.mnemonic.as_str();

    // Unit-less forms whose unit the slot decides.
    let dyn_heads = ["nop", "break", "hint"];
    if dyn_heads.contains(&base) {
        let mut rows = UnitRows::default();
        let mut values = Vec::new();
        for (suffix, unit) in [("m", Unit::M), ("i", Unit::I), ("f", Unit::F), ("b", Unit::B), ("x", Unit::X)] {
            let name = format!("{base}.{suffix}");
            if let Some((idx, _, v)) = find(&name, &rw.outs, &rw.ins, 0, env).map_err(operands_loc)? {
                let one = UnitRows::of_unit(unit, idx);
                rows = UnitRows {
                    m: rows.m.or(one.m),
                    i: rows.i.or(one.i),
                    f: rows.f.or(one.f),
                    b: rows.b.or(one.b),
                    x: rows.x.or(one.x),
                };
                values = v;
            }
        }
        let class = if base == "hint" { InsnClass::Hint } else { InsnClass::Dyn };
        return Ok(Matched {
            rows,
            comp_bits: 0,
            qp,
            values,
            class,
            placement: Placement::Any,
            gas_name: base.to_string(),
            pr_mask_omitted: false,
        });
    }
    let is_mov_ar =
        (base == "mov") && rw.outs.iter().chain(rw.ins.iter()).any(|o| matches!(o.value, Operand::Reg(Reg::Ar(_))));
    let is_chk_gr = base == "chk.s" && matches!(rw.ins.first().map(|o| &o.value), Some(Operand::Reg(Reg::Gr(_))));
    // An explicit unit must be one that can reach the AR, as gas checks.
    if base == "mov.m" || base == "mov.i" {
        let ar = rw.outs.iter().chain(rw.ins.iter()).find_map(|o| match o.value {
            Operand::Reg(Reg::Ar(n)) => Some(n),
            _ => None,
        });
        let wrong = match (ar.and_then(ar_m_unit_only), base) {
            (Some(true), "mov.i") => Some("M"),
            (Some(false), "mov.m") => Some("I"),
            _ => None,
        };
        if let (Some(n), Some(unit)) = (ar, wrong) {
            return Err(Diagnostic::error(mloc, format!("AR {n} can only be accessed by {unit}-unit")));
        }
    }
    if is_mov_ar || is_chk_gr {
        let ar = rw.outs.iter().chain(rw.ins.iter()).find_map(|o| match o.value {
            Operand::Reg(Reg::Ar(n)) => Some(n),
            _ => None,
        });
        let (m_name, i_name) = if is_chk_gr { ("chk.s.m", "chk.s.i") } else { ("mov.m", "mov.i") };
        let m = find(m_name, &rw.outs, &rw.ins, 0, env).map_err(operands_loc)?;
        let i = find(i_name, &rw.outs, &rw.ins, 0, env).map_err(operands_loc)?;
        let only = if is_chk_gr { None } else { ar.and_then(ar_m_unit_only) };
        let (rows, values, class, gas_name) = match (only, m, i) {
            (Some(true), Some((idx, _, v)), _) => {
                (UnitRows { m: Some(idx), ..Default::default() }, v, InsnClass::M, "mov.m")
            }
            (Some(false), _, Some((idx, _, v))) => {
                (UnitRows { i: Some(idx), ..Default::default() }, v, InsnClass::I, "mov.i")
            }
            (None, Some((mi, _, v)), Some((ii, _, _))) => (
                UnitRows { m: Some(mi), i: Some(ii), ..Default::default() },
                v,
                InsnClass::DynMI,
                if is_chk_gr { "chk.s" } else { "mov" },
            ),
            _ => return Err(Diagnostic::error(mloc, "operands do not match any form of this instruction")),
        };
        return Ok(Matched {
            rows,
            comp_bits: 0,
            qp,
            values,
            class,
            placement: Placement::Any,
            gas_name: gas_name.to_string(),
            pr_mask_omitted: false,
        });
    }
    // alloc r1=ar.pfs,i,l,o,r: the row holds sof, sol, sor. gas also takes `alloc r1=i,l,o,r`,
    // with ar.pfs implied (M-system forms, issue 12), but not ar.pfs with only three sizes.
    let implied_pfs = base == "alloc" && rw.ins.len() == 4;
    if implied_pfs && matches!(rw.ins[0].value, Operand::Reg(Reg::Ar(_))) {
        return Err(Diagnostic::error(rw.ins[1].loc.clone(), "alloc needs four frame sizes after ar.pfs (i,l,o,r)"));
    }
    let with_pfs: Vec<Located<Operand>>;
    let rw_ins = if implied_pfs {
        let pfs = Located { value: Operand::Reg(Reg::Ar(ar::PFS)), loc: rw.ins[0].loc.clone() };
        with_pfs = std::iter::once(pfs).chain(rw.ins.iter().cloned()).collect();
        &with_pfs[..]
    } else {
        &rw.ins[..]
    };
    let (outs, ins) = if base == "alloc" && rw_ins.len() == 5 {
        let sizes: Vec<Option<i64>> = rw_ins[1..]
            .iter()
            .map(|o| match &o.value {
                Operand::Expr(e) => e.eval(env).ok(),
                _ => None,
            })
            .collect();
        let [Some(i), Some(l), Some(o), Some(r)] = sizes[..] else {
            let bad = sizes.iter().position(Option::is_none).unwrap_or(0);
            return Err(Diagnostic::error(rw_ins[1 + bad].loc.clone(), alloc_size_error(bad, !implied_pfs)));
        };
        if r > i + l + o {
            return Err(Diagnostic::error(
                rw_ins[4].loc.clone(),
                format!("rotating size {r} larger than the frame ({})", i + l + o),
            ));
        }
        let num =
            |v: i64, at: usize| Located { value: Operand::Expr(Expr::Num(v as u64)), loc: rw_ins[at].loc.clone() };
        (rw.outs.clone(), vec![rw_ins[0].clone(), num(i + l + o, 1), num(i + l, 2), num(r, 4)])
    } else {
        (rw.outs.clone(), rw.ins.clone())
    };
    let Some((idx, comp_bits, values)) = find(base, &outs, &ins, rw.imm_adjust, env).map_err(operands_loc)? else {
        return Err(Diagnostic::error(mloc, format!("unknown instruction `{}`", syn.mnemonic.value)));
    };
    let form = table().form(idx);
    if qp != 0 && form.flags.has(Flags::NO_QP) {
        let loc = syn.qp.as_ref().map_or(mloc, |q| q.loc.clone());
        return Err(Diagnostic::error(loc, format!("`{}` cannot be predicated", syn.mnemonic.value)));
    }
    let rows = UnitRows::of_unit(form.unit, idx);
    Ok(Matched {
        rows,
        comp_bits,
        qp,
        values,
        class: class_of(form),
        placement: placement_of(form),
        // gas names an instruction in its messages by the opcode entry the source chose,
        // which is the mnemonic as written (pseudo-ops such as `cmp.ne` keep their name).
        gas_name: syn.mnemonic.value.clone(),
        pr_mask_omitted: syn.mnemonic.value == "mov"
            && syn.inputs.len() == 1
            && syn.outputs.first().is_some_and(|o| o.value == Operand::Reg(Reg::PrAll)),
    })
}

/// gas's message for a frame size of `alloc` that is not a constant (issue 13, gas's
/// alloc test): `position` 0..=3 among ins, locals, outs, rotating. gas turns the four into
/// size of frame, of locals and of rotating, so a bad outs count is reported as the locals
/// operand; the operands are numbered with `ar.pfs` when it is written.
pub(crate) fn alloc_size_error(position: usize, explicit_pfs: bool) -> String {
    let base = if explicit_pfs { 3 } else { 2 };
    let (n, what) = match position {
        0 => (base, "a frame size (register count)"),
        1 | 2 => (base + 1, "a local register count"),
        _ => (base + 2, "a rotating register count (integer multiple of 8)"),
    };
    format!("Operand {n} of `alloc' should be {what}")
}
