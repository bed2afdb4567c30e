//! The IA-64 assembler front end: preprocessed GNU-as-syntax text to [`Statement`]s.
//!
//! Facts checked against `ia64-linux-gnu-as` 2.40 (see the tests for each):
//! * `//` starts a comment anywhere outside strings; `#` only at the start of a line
//!   (leftover `# 12 "file"` markers). `#` right after an identifier (`foo#`) marks it as a
//!   symbol, never a register; anywhere else it is junk.
//! * `;` separates statements on a line without ending the instruction group; `;;` is a stop.
//! * Mnemonics and directive names are case-insensitive; register names are not
//!   (`R1`, `AR.PFS`, `SP` are plain symbols to gas).
//! * `in`/`loc`/`out` names need a frame from `alloc` or `.regstk` ("No current frame"
//!   otherwise); `alloc`'s own output already uses the new frame
//!   (`alloc loc1=ar.pfs,8,2,0,0` writes r41). `.proc`/`.endp` leave the frame alone.
//!   `in96` and above are plain symbols.
//! * The qualifying predicate allows blanks inside the parentheses: `( p6 )`.
//! * Identifiers may contain `?` and `$`.
//!
//! * `@rev`, `@pause`, ... in expressions are constants (`mux1 r1=r2,@rev` = `...,0xb`).
//!
//! Where we are stricter than gas: `r128`, `f200`, `p64`, `b8`, `r01` are errors naming the
//! valid range (gas would take them as symbols); explicit bundles `{ }` are rejected as not
//! supported.

use super::expr::{local_label_name, BinOp, Expr, UnaryOp};
use super::syntax::{DirArg, InsnSyntax, Located, Operand, Reg, Statement, StmtKind};
use emu_core::error::{Diagnostic, SourceLoc};
use lex::{col_of, lex_line, Tk, Tok};
use regs::{canonical_number, lookup_reg, Frame, RegLookup, INDIRECT};
use std::collections::HashMap;

/// Parses `text` into statements, collecting one diagnostic per bad statement.
///
/// `locate(line, col)` maps a 1-based line and column of `text` to the original source
/// location. Statements after a bad one are still parsed.
pub fn parse(text: &str, locate: &dyn Fn(u32, u32) -> SourceLoc) -> (Vec<Statement>, Vec<Diagnostic>) {
    let mut p = Parser {
        locate,
        frame: None,
        local_counts: HashMap::new(),
        consts: HashMap::new(),
        rot: HashMap::new(),
        equates: HashMap::new(),
        stmts: Vec::new(),
        diags: Vec::new(),
        line: 0,
    };
    for (i, raw) in text.split('\n').enumerate() {
        let line_text = raw.strip_suffix('\r').unwrap_or(raw);
        p.line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let toks = lex_line(line_text);
        let line_end = col_of(line_text.chars().count());
        p.parse_line(&toks, line_text, line_end);
    }
    (p.stmts, p.diags)
}

mod equate;
mod lex;
mod pred;
mod regs;

/// The value of a constant `@word` in an expression, as gas defines them:
/// `mux1` permutations, `hint` kinds and `.unwabi` ABIs (checked with `data8 @rev` etc.).
fn at_constant(word: &str) -> Option<u64> {
    Some(match word {
        "brcst" | "pause" | "svr4" => 0,
        "priority" | "hpux" => 1,
        "nt" => 2,
        "mix" => 8,
        "shuf" => 9,
        "alt" => 0xa,
        "rev" => 0xb,
        // fclass classes (issue 12, F unit).
        "pos" => 0x001,
        "neg" => 0x002,
        "zero" => 0x004,
        "unorm" => 0x008,
        "norm" => 0x010,
        "inf" => 0x020,
        "snan" => 0x040,
        "qnan" => 0x080,
        "nat" => 0x100,
        _ => return None,
    })
}

/// The bit masks gas predefines for the one-bit PSR fields (`rsm psr.i|psr.ic`), at the
/// bit positions of the SDM's PSR layout (checked with `data8 psr.X`: gas has no `psr.cpl`,
/// `psr.ri` or `psr.ia`, which stay plain symbols).
fn psr_bit(name: &str) -> Option<u64> {
    let bit = match name.strip_prefix("psr.")? {
        "be" => 1,
        "up" => 2,
        "ac" => 3,
        "mfl" => 4,
        "mfh" => 5,
        "ic" => 13,
        "i" => 14,
        "pk" => 15,
        "dt" => 17,
        "dfl" => 18,
        "dfh" => 19,
        "sp" => 20,
        "pp" => 21,
        "di" => 22,
        "si" => 23,
        "db" => 24,
        "lp" => 25,
        "tb" => 26,
        "rt" => 27,
        "is" => 34,
        "mc" => 35,
        "it" => 36,
        "id" => 37,
        "da" => 38,
        "dd" => 39,
        "ss" => 40,
        "ed" => 43,
        "bn" => 44,
        _ => return None,
    };
    Some(1u64 << bit)
}

/// The size of a floating data directive's values (`real4` 4, `.double` 8, ...).
fn float_width(lower: &str) -> Option<usize> {
    match lower.strip_suffix(".ua").unwrap_or(lower) {
        "real4" | ".float" | ".single" | ".xreal4" => Some(4),
        "real8" | ".double" | ".xreal8" => Some(8),
        // the extended format (issue 13): `data_real.rs`
        "real10" | ".xreal10" => Some(10),
        "real16" | ".xreal16" => Some(16),
        _ => None,
    }
}

/// The IEEE bits of a floating literal in `width` bytes.
fn float_bits(text: &str, width: usize) -> Option<u64> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    let digits = ["0f", "0d", "0e", "0r"].iter().find_map(|p| lower.strip_prefix(p)).unwrap_or(&lower);
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'-' || b == b'+')
    {
        return None;
    }
    let signed = if neg { format!("-{digits}") } else { digits.to_string() };
    if let Some(bits) = super::data_real::ieee_bits(&signed, width) {
        return Some(bits);
    }
    match width {
        // gas: "cannot create floating-point number" past the format's range.
        4 => signed.parse::<f32>().ok().filter(|v| v.is_finite()).map(|v| u64::from(v.to_bits())),
        _ => signed.parse::<f64>().ok().filter(|v| v.is_finite()).map(f64::to_bits),
    }
}

/// A floating literal without gas's type letter (`0f1.5`, `-0d2`): sign and digits.
fn strip_float_prefix(text: &str) -> String {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    let digits = ["0f", "0d", "0e", "0r"].iter().find_map(|p| lower.strip_prefix(p)).unwrap_or(&lower);
    format!("{neg}{}", digits.strip_prefix('+').unwrap_or(digits))
}

/// Deepest expression nesting accepted; keeps recursion (here and in `Expr::eval`) bounded.
const MAX_DEPTH: u32 = 200;

/// An error in the current statement: column and message.
struct PErr {
    col: u32,
    msg: String,
}

fn err<T>(col: u32, msg: impl Into<String>) -> Result<T, PErr> {
    Err(PErr { col, msg: msg.into() })
}

/// A position in one statement's tokens.
struct Cur<'t> {
    toks: &'t [Tok],
    pos: usize,
    /// Column just past the statement (for "found end of line").
    end_col: u32,
    /// How to name the end in messages ("end of line", "';'", "'='").
    end_desc: &'t str,
}

impl<'t> Cur<'t> {
    fn peek(&self) -> Option<&'t Tok> {
        self.toks.get(self.pos)
    }

    fn peek_kind(&self, k: usize) -> Option<&'t Tk> {
        self.toks.get(self.pos + k).map(|t| &t.kind)
    }

    fn is_p(&self, k: usize, p: &str) -> bool {
        matches!(self.peek_kind(k), Some(Tk::P(q)) if *q == p)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn col(&self) -> u32 {
        self.peek().map_or(self.end_col, |t| t.col)
    }

    fn found(&self) -> String {
        match self.peek() {
            None => self.end_desc.to_string(),
            Some(t) => match &t.kind {
                Tk::Str(_) => "a string".to_string(),
                _ => format!("'{}'", t.text),
            },
        }
    }

    fn expect(&mut self, p: &str, what: &str) -> Result<(), PErr> {
        if self.is_p(0, p) {
            self.pos += 1;
            Ok(())
        } else {
            err(self.col(), format!("expected '{p}' {what}, found {}", self.found()))
        }
    }

    /// A sub-cursor over the rest of the tokens up to `end` (exclusive).
    fn slice(&self, end: usize, end_col: u32, end_desc: &'t str) -> Cur<'t> {
        Cur { toks: self.toks.get(self.pos..end).unwrap_or_default(), pos: 0, end_col, end_desc }
    }
}

/// The template directives (`.mii` ...), which take no operands.
const TEMPLATE_DIRECTIVES: [&str; 10] =
    [".mii", ".mlx", ".mmi", ".mfi", ".mmf", ".mib", ".mbb", ".bbb", ".mmb", ".mfb"];

fn is_data_directive(lower: &str) -> bool {
    let base = lower.strip_suffix(".ua").unwrap_or(lower);
    matches!(
        base,
        "data1"
            | "data2"
            | "data4"
            | "data8"
            | "data16"
            | "real4"
            | "real8"
            | "real10"
            | "real16"
            | "string"
            | "stringz"
    )
}

struct Parser<'a> {
    locate: &'a dyn Fn(u32, u32) -> SourceLoc,
    frame: Option<Frame>,
    /// How many times each numeric local label has been defined so far.
    local_counts: HashMap<u32, u32>,
    /// Constants from `name = expr`, for evaluating `alloc` and `.regstk` frame sizes.
    consts: HashMap<String, u64>,
    /// Rotating register names from `.rotr`/`.rotp`/`.rotf`: name -> (first register, count).
    rot: HashMap<String, (Reg, u32)>,
    /// Register equates and `==` equates (issue 13): `parse/equate.rs`.
    equates: HashMap<String, equate::Equate>,
    stmts: Vec<Statement>,
    diags: Vec<Diagnostic>,
    line: u32,
}

impl Parser<'_> {
    fn loc(&self, col: u32) -> SourceLoc {
        (self.locate)(self.line, col)
    }

    fn located<T>(&self, value: T, col: u32) -> Located<T> {
        Located { value, loc: self.loc(col) }
    }

    fn push(&mut self, kind: StmtKind, col: u32) {
        let loc = self.loc(col);
        self.stmts.push(Statement { kind, loc });
    }

    fn parse_line(&mut self, toks: &[Tok], line_text: &str, line_end: u32) {
        let mut start = 0;
        for i in 0..=toks.len() {
            let sep = toks.get(i);
            let sep_p = match sep.map(|t| &t.kind) {
                Some(Tk::P(p)) if *p == ";" || *p == ";;" => Some(*p),
                // A brace anywhere on the line opens or closes a manual bundle and ends the
                // statement before it (gas's `strange.s`: `nop.f 1 } nop.x 1`; issue 13).
                // Braces at a statement's start or end are still taken there.
                Some(Tk::P(p)) if (*p == "{" || *p == "}") && self.mid_brace(toks, start, i) => Some(*p),
                None => None,
                Some(_) => continue,
            };
            let (end_col, end_desc) = match (sep, sep_p) {
                (Some(t), Some(";;")) => (t.col, "';;'"),
                (Some(t), _) => (t.col, "';'"),
                (None, _) => (line_end, "end of line"),
            };
            let seg = toks.get(start..i).unwrap_or_default();
            let cur = Cur { toks: seg, pos: 0, end_col, end_desc };
            if let Err(e) = self.statement(cur) {
                let d = Diagnostic::error(self.loc(e.col), e.msg).with_source_line(line_text);
                self.diags.push(d);
            }
            match (sep, sep_p) {
                (Some(t), Some(";;")) => self.push(StmtKind::Stop, t.col),
                (Some(t), Some("{")) => self.push(StmtKind::BundleOpen, t.col),
                (Some(t), Some("}")) => self.push(StmtKind::BundleClose, t.col),
                _ => {}
            }
            start = i + 1;
        }
    }

    /// Whether the brace at `i` stands between two statements of `toks[start..]`: something
    /// other than braces before it in the statement, and something after it.
    fn mid_brace(&self, toks: &[Tok], start: usize, i: usize) -> bool {
        let is_brace = |t: &Tok| matches!(t.kind, Tk::P("{") | Tk::P("}"));
        let before = toks.get(start..i).unwrap_or_default().iter().any(|t| !is_brace(t));
        let after = toks.get(i + 1..).unwrap_or_default().iter().any(|t| !is_brace(t) && t.kind != Tk::P(";;"));
        before && after
    }

    fn statement(&mut self, c: Cur<'_>) -> Result<(), PErr> {
        match self.equates(&c)? {
            equate::Subst::Same => self.statement_tokens(c),
            equate::Subst::Done => Ok(()),
            equate::Subst::Tokens(toks) => {
                self.statement_tokens(Cur { toks: &toks, pos: 0, end_col: c.end_col, end_desc: c.end_desc })
            }
        }
    }

    fn statement_tokens(&mut self, c: Cur<'_>) -> Result<(), PErr> {
        // Floating literals (`1.5`) are no integer tokens; the float directives read their text.
        let floats = c.toks.iter().find(|t| !matches!(t.kind, Tk::Ident(_) if t.text.ends_with(':')));
        let floats =
            matches!(floats.map(|t| &t.kind), Some(Tk::Ident(n)) if float_width(&n.to_ascii_lowercase()).is_some());
        if let Some(t) = c.toks.iter().find(|t| matches!(t.kind, Tk::Bad(_)) && !floats) {
            if let Tk::Bad(m) = &t.kind {
                return err(t.col, m.clone());
            }
        }
        // A `}` closing a manual bundle may end the statement it follows (`add r1=r2,r3 }`).
        let close = match c.toks.last() {
            Some(t) if t.kind == Tk::P("}") && c.toks.len() > 1 => Some(t.col),
            _ => None,
        };
        let result = match close {
            Some(col) => {
                let inner = Cur {
                    toks: c.toks.get(..c.toks.len() - 1).unwrap_or_default(),
                    pos: 0,
                    end_col: col,
                    end_desc: "'}'",
                };
                self.statement_body(inner)
            }
            None => self.statement_body(c),
        };
        if let Some(col) = close {
            self.push(StmtKind::BundleClose, col);
        }
        result
    }

    /// Takes the `{` and `}` of manual bundles at the cursor.
    fn bundle_braces(&mut self, c: &mut Cur<'_>) {
        while let Some(t) = c.peek() {
            match t.kind {
                Tk::P("{") => self.push(StmtKind::BundleOpen, t.col),
                Tk::P("}") => self.push(StmtKind::BundleClose, t.col),
                _ => break,
            }
            c.pos += 1;
        }
    }

    fn statement_body(&mut self, mut c: Cur<'_>) -> Result<(), PErr> {
        // `{` and `}` of manual bundles, before anything else on the statement.
        self.bundle_braces(&mut c);
        // Leading labels.
        while let Some(t) = c.peek() {
            if !c.is_p(1, ":") {
                break;
            }
            match &t.kind {
                Tk::Ident(name) | Tk::ForcedSym(name) => self.push(StmtKind::Label(name.clone()), t.col),
                Tk::Num(_) if t.text.bytes().all(|b| b.is_ascii_digit()) => {
                    let Some(n) = canonical_number(&t.text).or_else(|| t.text.parse().ok()) else {
                        return err(t.col, format!("local label number '{}' is too large", t.text));
                    };
                    let count = self.local_counts.entry(n).or_insert(0);
                    *count += 1;
                    let name = local_label_name(n, *count);
                    self.push(StmtKind::Label(name), t.col);
                }
                _ => return err(t.col, format!("expected a label name before ':', found {}", c.found())),
            }
            c.pos += 2;
            // `name::` also makes the label global (gas's ia64 port).
            if let (Tk::Ident(name) | Tk::ForcedSym(name), true) = (&t.kind, c.is_p(0, ":")) {
                let arg = self.located(DirArg::Expr(Expr::Sym(name.clone())), t.col);
                self.push(StmtKind::Directive(".global".into(), vec![arg]), t.col);
                c.pos += 1;
            }
            self.bundle_braces(&mut c);
        }
        let Some(first) = c.peek() else { return Ok(()) };
        match &first.kind {
            Tk::P("[") => {
                let tag = match (c.peek_kind(1), c.is_p(2, ":"), c.is_p(3, "]")) {
                    (Some(Tk::Ident(n) | Tk::ForcedSym(n)), true, true) => n.clone(),
                    // `[1:]`: a numeric local label, referred to as `1b`/`1f` like a label.
                    (Some(Tk::Num(_)), true, true) => {
                        let text = c.toks.get(c.pos + 1).map(|t| t.text.clone()).unwrap_or_default();
                        let Some(n) = canonical_number(&text) else {
                            c.pos += 1;
                            return err(c.col(), format!("expected a tag name in '[name:]', found {}", c.found()));
                        };
                        let count = self.local_counts.entry(n).or_insert(0);
                        *count += 1;
                        local_label_name(n, *count)
                    }
                    _ => {
                        c.pos += 1;
                        return err(c.col(), format!("expected a tag name in '[name:]', found {}", c.found()));
                    }
                };
                c.pos += 4;
                self.push(StmtKind::Tag(tag), first.col);
                // gas lets the tagged instruction follow in a later statement (`...; [99:]`
                // at the end of a line): the tag names the next instruction's slot.
                if c.at_end() {
                    return Ok(());
                }
                self.instruction(c)
            }
            Tk::Ident(name) | Tk::ForcedSym(name) if c.is_p(1, "=") => {
                let name = name.clone();
                c.pos += 2;
                let e = self.full_expr(&mut c, "after '='")?;
                self.set_constant(&name, &e);
                self.push(StmtKind::Assign(name, e), first.col);
                Ok(())
            }
            Tk::P("(") => self.instruction(c),
            Tk::Ident(name) => {
                let lower = name.to_ascii_lowercase();
                if TEMPLATE_DIRECTIVES.contains(&lower.as_str()) && c.toks.len() > c.pos + 1 {
                    // gas reads nothing after a template directive: an instruction may follow
                    // on the same statement (`{ .mib (p6) ld8 r1=[r2] ...`).
                    let col = first.col;
                    c.pos += 1;
                    self.push(StmtKind::Directive(lower, Vec::new()), col);
                    return self.statement_body(c);
                }
                if lower.starts_with('.') || is_data_directive(&lower) {
                    c.pos += 1;
                    self.directive(c, lower, first.col)
                } else {
                    self.instruction(c)
                }
            }
            _ => err(first.col, format!("expected a label, instruction or directive, found {}", c.found())),
        }
    }

    fn directive(&mut self, mut c: Cur<'_>, name: String, col: u32) -> Result<(), PErr> {
        let mut args = Vec::new();
        let mut ctx = format!("after '{name}'");
        if let Some(width) = float_width(&name) {
            return self.float_directive(c, name, col, width);
        }
        // issue 13: `parse/pred.rs`
        if matches!(name.as_str(), ".pred.rel" | ".pred.rel.mutex" | ".pred.rel.clear" | ".pred.rel.imply")
            || name == ".pred.safe_across_calls"
        {
            return self.pred_directive(c, name, col);
        }
        if matches!(name.as_str(), ".rotr" | ".rotp" | ".rotf") {
            self.rotating(&mut c, &name)?;
            self.push(StmtKind::Directive(name, args), col);
            return Ok(());
        }
        if matches!(name.as_str(), ".section" | ".pushsection" | ".secalias") {
            // A section name is raw text up to the first ',' (`___ksymtab+name` is one name).
            let end = c.toks.iter().skip(c.pos).position(|t| t.kind == Tk::P(",")).map_or(c.toks.len(), |k| k + c.pos);
            if end > c.pos + 1 && c.peek().is_some_and(|t| !matches!(t.kind, Tk::Str(_))) {
                let text: String = c.toks.get(c.pos..end).unwrap_or_default().iter().map(|t| t.text.as_str()).collect();
                args.push(self.located(DirArg::Str(text), c.col()));
                c.pos = end;
                if !c.at_end() {
                    c.pos += 1;
                    ctx = "after ','".to_string();
                } else {
                    self.push(StmtKind::Directive(name, args), col);
                    return Ok(());
                }
            }
        }
        if !c.at_end() {
            loop {
                self.dir_arg(&mut c, &ctx, &mut args)?;
                if c.at_end() {
                    break;
                }
                if !c.is_p(0, ",") {
                    return err(c.col(), format!("expected ',' between arguments of {name}, found {}", c.found()));
                }
                c.pos += 1;
                ctx = "after ','".to_string();
            }
        }
        if matches!(name.as_str(), ".set" | ".equ" | ".equiv") {
            self.note_constant(&args);
        }
        if name == ".regstk" {
            let exprs: Vec<(&Expr, &SourceLoc)> = args
                .iter()
                .filter_map(|a| match &a.value {
                    DirArg::Expr(e) => Some((e, &a.loc)),
                    _ => None,
                })
                .collect();
            if exprs.len() == 4 && args.len() == 4 {
                self.set_frame(exprs.iter().take(3).map(|(e, l)| (*e, l.col)))?;
            }
        }
        self.push(StmtKind::Directive(name, args), col);
        Ok(())
    }

    fn dir_arg(&self, c: &mut Cur<'_>, ctx: &str, args: &mut Vec<Located<DirArg>>) -> Result<(), PErr> {
        let Some(t) = c.peek() else {
            return err(c.col(), format!("expected an argument {ctx}, found {}", c.found()));
        };
        match &t.kind {
            Tk::Str(_) => {
                // Adjacent strings (`.ascii "a" "b"`) are separate arguments.
                while let Some(Tk::Str(s)) = c.peek_kind(0) {
                    let col = c.col();
                    args.push(self.located(DirArg::Str(s.clone()), col));
                    c.pos += 1;
                }
                Ok(())
            }
            Tk::At(w) if c.peek_kind(1).is_none() || c.is_p(1, ",") => {
                args.push(self.located(DirArg::At(w.clone()), t.col));
                c.pos += 1;
                Ok(())
            }
            Tk::P(",") => err(t.col, format!("expected an argument {ctx}, found ','")),
            // `%progbits` is gas's other spelling of `@progbits`.
            Tk::P("%") if matches!(c.peek_kind(1), Some(Tk::Ident(_))) => {
                if let Some(Tk::Ident(w)) = c.peek_kind(1) {
                    args.push(self.located(DirArg::At(w.clone()), t.col));
                }
                c.pos += 2;
                Ok(())
            }
            // A rotating register (`.reg.val r[1], 0`; issue 13).
            Tk::Ident(name) | Tk::ForcedSym(name) if c.is_p(1, "[") && self.rot.contains_key(name) => {
                let col = t.col;
                let r = self.rotating_reg(c)?;
                args.push(self.located(DirArg::Reg(r), col));
                Ok(())
            }
            Tk::Ident(name) if c.peek_kind(1).is_none() || c.is_p(1, ",") => {
                match lookup_reg(name, self.frame) {
                    RegLookup::Yes(r) => args.push(self.located(DirArg::Reg(r), t.col)),
                    RegLookup::Bad(m) => return err(t.col, m),
                    RegLookup::No => args.push(self.located(DirArg::Expr(Expr::Sym(name.clone())), t.col)),
                }
                c.pos += 1;
                Ok(())
            }
            _ => {
                let e = self.expr(c, ctx)?;
                args.push(self.located(DirArg::Expr(e), t.col));
                Ok(())
            }
        }
    }

    fn instruction(&mut self, mut c: Cur<'_>) -> Result<(), PErr> {
        let start_col = c.col();
        let mut qp = None;
        if c.is_p(0, "(") {
            c.pos += 1;
            let t = c.peek();
            let reg = match t.map(|t| &t.kind) {
                // `name#[i]` is the rotating name too (gas's pound test; issue 13).
                Some(Tk::Ident(n) | Tk::ForcedSym(n)) if c.is_p(1, "[") && self.rot.contains_key(n) => {
                    match self.rotating_reg(&mut c)? {
                        Reg::Pr(p) => Some(p),
                        _ => None,
                    }
                }
                Some(Tk::Ident(n)) => match lookup_reg(n, self.frame) {
                    RegLookup::Yes(Reg::Pr(p)) => {
                        c.pos += 1;
                        Some(p)
                    }
                    _ => None,
                },
                _ => None,
            };
            let Some(p) = reg else {
                return err(c.col(), format!("expected a predicate register (p0-p63) after '(', found {}", c.found()));
            };
            c.expect(")", "after the qualifying predicate")?;
            qp = Some(self.located(p, start_col));
        }
        let Some(Tk::Ident(m)) = c.peek_kind(0) else {
            return err(c.col(), format!("expected an instruction mnemonic, found {}", c.found()));
        };
        let mcol = c.col();
        let mnemonic = m.to_ascii_lowercase();
        if mnemonic.starts_with('.') || is_data_directive(&mnemonic) {
            return err(mcol, format!("directive '{m}' cannot have a qualifying predicate"));
        }
        c.pos += 1;
        // Find the single top-level '='.
        let mut depth = 0i32;
        let mut eq = None;
        for (k, t) in c.toks.iter().enumerate().skip(c.pos) {
            match t.kind {
                Tk::P("(") | Tk::P("[") => depth += 1,
                Tk::P(")") | Tk::P("]") => depth -= 1,
                Tk::P("=") if depth <= 0 => {
                    eq = Some((k, t.col));
                    break;
                }
                _ => {}
            }
        }
        let after_m = format!("after '{m}'");
        let (outputs, inputs) = match eq {
            None => {
                let mut all = c.slice(c.toks.len(), c.end_col, c.end_desc);
                (Vec::new(), self.operands(&mut all, &after_m, true)?)
            }
            Some((k, eq_col)) => {
                let mut outs = c.slice(k, eq_col, "'='");
                let mut ins = Cur { toks: c.toks.get(k + 1..).unwrap_or_default(), pos: 0, ..c };
                if outs.at_end() {
                    return err(eq_col, format!("expected register or expression {after_m}, found '='"));
                }
                if mnemonic == "alloc" {
                    // alloc's own output is named in the frame it creates.
                    let inputs = self.operands(&mut ins, "after '='", false)?;
                    self.alloc_frame(&inputs)?;
                    (self.operands(&mut outs, &after_m, true)?, inputs)
                } else {
                    let outputs = self.operands(&mut outs, &after_m, true)?;
                    (outputs, self.operands(&mut ins, "after '='", false)?)
                }
            }
        };
        let insn = InsnSyntax { qp, mnemonic: self.located(mnemonic, mcol), outputs, inputs, has_equals: eq.is_some() };
        self.push(StmtKind::Insn(insn), start_col);
        Ok(())
    }

    /// `real4`/`real8`/`.float`/`.single`/`.double` and their `.ua` forms: each argument is a
    /// decimal floating literal (optionally `0f`/`0d`/`0e`-prefixed), written as its IEEE bits,
    /// rounded to nearest (as gas).
    fn float_directive(&mut self, c: Cur<'_>, name: String, col: u32, width: usize) -> Result<(), PErr> {
        let mut args = Vec::new();
        let mut pieces = c.toks.get(c.pos..).unwrap_or_default().split(|t| t.kind == Tk::P(","));
        // `.xrealN section, values`: the section is a name or a string.
        if name.starts_with(".xreal") {
            match pieces.next() {
                Some([t]) => {
                    let v = match &t.kind {
                        Tk::Str(s) => DirArg::Str(s.clone()),
                        _ => DirArg::Expr(Expr::Sym(t.text.clone())),
                    };
                    args.push(self.located(v, t.col));
                }
                _ => return err(col, format!("expected a section name after '{name}'")),
            }
        }
        for piece in pieces {
            let Some(first) = piece.first() else {
                return err(c.end_col, format!("expected a floating-point number in {name}"));
            };
            let text: String = piece.iter().map(|t| t.text.as_str()).collect();
            if width >= 10 {
                let value = strip_float_prefix(&text);
                match super::data_real::extended_bytes(&value) {
                    Ok(b) => args.push(self.located(DirArg::Bytes(b.to_vec()), first.col)),
                    Err(super::data_real::RealError::Range) => {
                        return err(first.col, format!("'{text}' is out of range of the 80-bit extended format"))
                    }
                    Err(super::data_real::RealError::Syntax) => {
                        return err(first.col, format!("'{text}' is not a floating-point number"))
                    }
                }
                continue;
            }
            let Some(bits) = float_bits(&text, width) else {
                return err(first.col, format!("'{text}' is not a floating-point number"));
            };
            args.push(self.located(DirArg::Expr(Expr::Num(bits)), first.col));
        }
        self.push(StmtKind::Directive(name, args), col);
        Ok(())
    }

    /// `.rotr`/`.rotp`/`.rotf name[count], ...`: names for consecutive rotating registers
    /// from r32, p16 or f32. Each directive replaces the names of the previous one of its kind.
    fn rotating(&mut self, c: &mut Cur<'_>, dir: &str) -> Result<(), PErr> {
        let (base, limit): (fn(u8) -> Reg, u32) = match dir {
            ".rotr" => (Reg::Gr, 96),
            ".rotp" => (Reg::Pr, 48),
            _ => (Reg::Fr, 96),
        };
        let first = |r: Reg| match r {
            Reg::Gr(_) => 32,
            Reg::Pr(_) => 16,
            _ => 32,
        };
        let start = first(base(0));
        self.rot.retain(|_, (r, _)| std::mem::discriminant(r) != std::mem::discriminant(&base(0)));
        let mut next = 0u32;
        loop {
            let Some(Tk::Ident(name) | Tk::ForcedSym(name)) = c.peek_kind(0) else {
                return err(c.col(), format!("expected a register name after '{dir}', found {}", c.found()));
            };
            let name = name.clone();
            c.pos += 1;
            c.expect("[", &format!("after '{name}' in {dir}"))?;
            let col = c.col();
            let e = self.expr(c, "after '['")?;
            c.expect("]", "after the register count")?;
            // gas reports a count that is not a constant, then takes it as 0 (issue 13).
            let n = match e.eval(&self.consts) {
                Ok(n) => n,
                Err(_) => {
                    let loc = self.loc(col);
                    self.diags.push(Diagnostic::error(loc, "bad or irreducible absolute expression"));
                    0
                }
            };
            // gas's words for a count of zero or less (issue 13).
            if n <= 0 {
                return err(col, "Number of elements must be positive");
            }
            let n = u32::try_from(n)
                .ok()
                .filter(|n| *n > 0 && next.checked_add(*n).is_some_and(|end| end <= limit))
                .ok_or_else(|| PErr {
                    col,
                    msg: format!("{dir}: {n} registers do not fit (at most {limit} rotating registers)"),
                })?;
            let reg = base(u8::try_from(start + next).unwrap_or(0));
            self.rot.insert(name, (reg, n));
            next += n;
            if c.at_end() {
                return Ok(());
            }
            c.expect(",", &format!("between arguments of {dir}"))?;
        }
    }

    /// `name[index]` for a rotating register name.
    fn rotating_reg(&self, c: &mut Cur<'_>) -> Result<Reg, PErr> {
        let Some(Tk::Ident(name) | Tk::ForcedSym(name)) = c.peek_kind(0) else {
            return err(c.col(), "expected a rotating register name");
        };
        let Some(&(reg, count)) = self.rot.get(name) else {
            return err(c.col(), format!("'{name}' is not a rotating register name"));
        };
        c.pos += 2;
        let col = c.col();
        let e = self.expr(c, "after '['")?;
        c.expect("]", "after the register index")?;
        let i =
            e.eval(&self.consts).map_err(|x| PErr { col, msg: format!("register index must be a constant: {x}") })?;
        let i = u32::try_from(i)
            .ok()
            .filter(|i| *i < count)
            .ok_or_else(|| PErr { col, msg: format!("index {i} out of range for '{name}[{count}]'") })?;
        let add = |b: u8| u8::try_from(u32::from(b) + i).unwrap_or(b);
        Ok(match reg {
            Reg::Gr(b) => Reg::Gr(add(b)),
            Reg::Pr(b) => Reg::Pr(add(b)),
            Reg::Fr(b) => Reg::Fr(add(b)),
            other => other,
        })
    }

    /// Remembers `name` as a constant if `e` has a value now (for frame sizes).
    fn set_constant(&mut self, name: &str, e: &Expr) {
        match e.eval(&self.consts) {
            Ok(v) => self.consts.insert(name.to_string(), v as u64),
            Err(_) => self.consts.remove(name),
        };
    }

    /// `.set name, expr` and its synonyms.
    fn note_constant(&mut self, args: &[Located<DirArg>]) {
        if let [Located { value: DirArg::Expr(Expr::Sym(name)), .. }, Located { value: DirArg::Expr(e), .. }] = args {
            self.set_constant(name, e);
        }
    }

    /// Updates the frame from `alloc`'s inputs: `ar.pfs, i, l, o, r` or `i, l, o, r`.
    fn alloc_frame(&mut self, inputs: &[Located<Operand>]) -> Result<(), PErr> {
        let sizes = match inputs.len() {
            5 => inputs.get(1..4),
            4 => inputs.get(0..3),
            _ => None,
        };
        let Some(sizes) = sizes else { return Ok(()) };
        let mut exprs = Vec::new();
        for (k, s) in sizes.iter().enumerate() {
            // gas's wording for a size that is not a constant (issue 13).
            if let Operand::Expr(e) = &s.value {
                if e.eval(&self.consts).is_err() {
                    let msg = super::matcher::alloc_size_error(k, inputs.len() == 5);
                    return Err(PErr { col: s.loc.col, msg });
                }
            }
            match &s.value {
                Operand::Expr(e) => exprs.push((e, s.loc.col)),
                _ => return Ok(()),
            }
        }
        self.set_frame(exprs.into_iter())
    }

    /// Sets the frame from (ins, locals, outs). Sizes gas rejects ("Size of frame exceeds
    /// maximum of 96 registers") leave the frame unchanged: the encoder reports them.
    fn set_frame<'e>(&mut self, sizes: impl Iterator<Item = (&'e Expr, u32)>) -> Result<(), PErr> {
        let mut v = [0u32; 3];
        for (slot, (e, col)) in v.iter_mut().zip(sizes) {
            let n =
                e.eval(&self.consts).map_err(|x| PErr { col, msg: format!("frame size must be a constant: {x}") })?;
            match u32::try_from(n) {
                Ok(n) if n <= 96 => *slot = n,
                _ => return Ok(()),
            }
        }
        let [ins, locals, outs] = v;
        if ins + locals + outs <= 96 {
            self.frame = Some(Frame { ins, locals, outs });
        }
        Ok(())
    }

    /// A comma-separated operand list filling the cursor.
    fn operands(&self, c: &mut Cur<'_>, first_ctx: &str, allow_empty: bool) -> Result<Vec<Located<Operand>>, PErr> {
        let mut out = Vec::new();
        if c.at_end() && allow_empty {
            return Ok(out);
        }
        let mut ctx = first_ctx.to_string();
        loop {
            let col = c.col();
            let op = self.operand(c, &ctx)?;
            out.push(self.located(op, col));
            if c.at_end() {
                return Ok(out);
            }
            if !c.is_p(0, ",") {
                return err(c.col(), format!("expected ',' or {} after operand, found {}", c.end_desc, c.found()));
            }
            c.pos += 1;
            ctx = "after ','".to_string();
        }
    }

    fn operand(&self, c: &mut Cur<'_>, ctx: &str) -> Result<Operand, PErr> {
        let Some(t) = c.peek() else {
            return err(c.col(), format!("expected register or expression {ctx}, found {}", c.found()));
        };
        match &t.kind {
            Tk::P(",") | Tk::P("=") | Tk::P(")") | Tk::P("]") => {
                err(t.col, format!("expected register or expression {ctx}, found {}", c.found()))
            }
            Tk::P("[") => {
                c.pos += 1;
                Ok(Operand::Mem(self.bracketed_reg(c)?))
            }
            Tk::Ident(name) | Tk::ForcedSym(name) if c.is_p(1, "[") && self.rot.contains_key(name) => {
                Ok(Operand::Reg(self.rotating_reg(c)?))
            }
            Tk::Ident(name) if c.is_p(1, "[") => {
                // gas 2.40 also knows the upper-case `CPUID` (regs.s), and no other spelling.
                let name_lc = if name == "CPUID" { "cpuid" } else { name.as_str() };
                let Some((_, file)) = INDIRECT.iter().find(|(s, _)| *s == name_lc) else {
                    return err(
                        t.col,
                        format!("unknown indirect register file '{name}' (expected cpuid, dbr, ibr, pkr, pmc, pmd, rr, itr, dtr or msr)"),
                    );
                };
                c.pos += 2;
                Ok(Operand::Indirect(*file, self.bracketed_reg(c)?))
            }
            // A register stands alone unless an operator follows (then `expr` reports it).
            Tk::Ident(name) => match lookup_reg(name, self.frame) {
                RegLookup::Yes(r) if !matches!(c.peek_kind(1), Some(Tk::P(p)) if BinOp::from_text(p).is_some()) => {
                    c.pos += 1;
                    Ok(Operand::Reg(r))
                }
                RegLookup::Bad(m) => err(t.col, m),
                _ => Ok(Operand::Expr(self.expr(c, ctx)?)),
            },
            _ => Ok(Operand::Expr(self.expr(c, ctx)?)),
        }
    }

    /// `rN]` after a `[` that was already consumed.
    fn bracketed_reg(&self, c: &mut Cur<'_>) -> Result<Reg, PErr> {
        let reg = match c.peek_kind(0) {
            Some(Tk::Ident(n)) => match lookup_reg(n, self.frame) {
                RegLookup::Yes(r) => Some(r),
                RegLookup::Bad(m) => return err(c.col(), m),
                RegLookup::No => None,
            },
            _ => None,
        };
        let Some(r) = reg else {
            return err(c.col(), format!("expected a register after '[', found {}", c.found()));
        };
        c.pos += 1;
        c.expect("]", "after the register")?;
        Ok(r)
    }

    /// An expression that must fill the rest of the cursor.
    fn full_expr(&self, c: &mut Cur<'_>, ctx: &str) -> Result<Expr, PErr> {
        let e = self.expr(c, ctx)?;
        if !c.at_end() {
            return err(c.col(), format!("expected an operator or {}, found {}", c.end_desc, c.found()));
        }
        Ok(e)
    }

    fn expr(&self, c: &mut Cur<'_>, ctx: &str) -> Result<Expr, PErr> {
        self.binary(c, 0, 0, ctx).map(|(e, _)| e)
    }

    /// Precedence climbing; returns the expression and its tree depth.
    fn binary(&self, c: &mut Cur<'_>, min_rank: u8, depth: u32, ctx: &str) -> Result<(Expr, u32), PErr> {
        let (mut lhs, mut ld) = self.unary(c, depth + 1, ctx)?;
        while let Some(Tk::P(p)) = c.peek_kind(0) {
            let Some(op) = BinOp::from_text(p) else { break };
            if op.rank() < min_rank {
                break;
            }
            let op_col = c.col();
            c.pos += 1;
            let (rhs, rd) = self.binary(c, op.rank() + 1, depth + 1, &format!("after '{p}'"))?;
            ld = ld.max(rd) + 1;
            if ld > MAX_DEPTH {
                return err(op_col, "expression is too deeply nested");
            }
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok((lhs, ld))
    }

    fn unary(&self, c: &mut Cur<'_>, depth: u32, ctx: &str) -> Result<(Expr, u32), PErr> {
        let col = c.col();
        if depth > MAX_DEPTH {
            return err(col, "expression is too deeply nested");
        }
        let Some(t) = c.peek() else {
            return err(col, format!("expected an expression {ctx}, found {}", c.found()));
        };
        let unop = |op: UnaryOp, (e, d): (Expr, u32)| (Expr::Unary(op, Box::new(e)), d + 1);
        let result = match &t.kind {
            Tk::Num(v) => {
                c.pos += 1;
                (Expr::Num(*v), 1)
            }
            Tk::LocalRef(n, fwd) => {
                let count = self.local_counts.get(n).copied().unwrap_or(0);
                if !fwd && count == 0 {
                    return err(col, format!("backward reference '{n}b' to local label {n}, which is not defined yet"));
                }
                c.pos += 1;
                (Expr::Sym(local_label_name(*n, if *fwd { count + 1 } else { count })), 1)
            }
            Tk::Ident(name) if name == "." => {
                c.pos += 1;
                (Expr::Dot, 1)
            }
            Tk::Ident(name) if psr_bit(name).is_some() => {
                c.pos += 1;
                (Expr::Num(psr_bit(name).unwrap_or(0)), 1)
            }
            Tk::Ident(name) => match lookup_reg(name, self.frame) {
                RegLookup::Yes(_) => return err(col, format!("register '{name}' cannot be used in an expression")),
                RegLookup::Bad(m) => return err(col, m),
                RegLookup::No => {
                    c.pos += 1;
                    (Expr::Sym(name.clone()), 1)
                }
            },
            Tk::ForcedSym(name) => {
                c.pos += 1;
                (Expr::Sym(name.clone()), 1)
            }
            Tk::P("(") => {
                c.pos += 1;
                let inner = self.binary(c, 0, depth + 1, "after '('")?;
                if !c.is_p(0, ")") {
                    return err(c.col(), format!("expected ')' to close '(' at column {col}, found {}", c.found()));
                }
                c.pos += 1;
                inner
            }
            Tk::P("-") => {
                c.pos += 1;
                unop(UnaryOp::Neg, self.unary(c, depth + 1, "after '-'")?)
            }
            Tk::P("~") => {
                c.pos += 1;
                unop(UnaryOp::Not, self.unary(c, depth + 1, "after '~'")?)
            }
            Tk::P("!") => {
                c.pos += 1;
                unop(UnaryOp::LogNot, self.unary(c, depth + 1, "after '!'")?)
            }
            Tk::P("+") => {
                c.pos += 1;
                self.unary(c, depth + 1, "after '+'")?
            }
            Tk::At(w) if !c.is_p(1, "(") => match at_constant(w) {
                Some(v) => {
                    c.pos += 1;
                    (Expr::Num(v), 1)
                }
                None => return err(col, format!("unknown keyword '@{w}' in an expression")),
            },
            Tk::At(w) => {
                c.pos += 1;
                c.expect("(", &format!("after '@{w}' in an expression"))?;
                let (inner, d) = self.binary(c, 0, depth + 1, "after '('")?;
                c.expect(")", &format!("to close '@{w}('"))?;
                (Expr::RelocFn(w.clone(), Box::new(inner)), d + 1)
            }
            Tk::Str(_) => return err(col, "a string cannot be used in an expression"),
            _ => return err(col, format!("expected an expression {ctx}, found {}", c.found())),
        };
        if result.1 > MAX_DEPTH {
            return err(col, "expression is too deeply nested");
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests;
