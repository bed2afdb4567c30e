//! Macro definitions and their expansion.
//!
//! Expansion follows Prosser's hide-set algorithm (the model behind C's "a macro is
//! not re-expanded inside its own expansion" rule): every token carries the names of
//! the macros it came out of, and a name in its own hide set is never expanded again.
//! Arguments are fully expanded before substitution except next to `#` and `##`.
//! Invalid pastes are kept as the separate tokens they lex to, as cpp does for
//! assembler input. GNU `, ## __VA_ARGS__` drops the comma when the variable part is
//! empty, and `name...` names the variable part.

use std::collections::HashMap;
use std::rc::Rc;

use super::token::{tokenize, Kind, Token};
use super::PpError;

/// Most tokens one line may produce through expansion before it counts as runaway.
const MAX_TOKENS: usize = 1 << 16;
/// Deepest nesting of argument pre-expansion.
const MAX_DEPTH: usize = 200;

/// A `#define`d macro.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Macro {
    pub name: Rc<str>,
    /// Parameter names for a function-like macro (the variable one is last).
    pub params: Option<Vec<String>>,
    pub variadic: bool,
    pub body: Vec<Token>,
}

impl Macro {
    /// Whether `other` is the same definition (C's rule for a harmless redefinition:
    /// same parameters, same body tokens with the same whitespace separation).
    pub fn same_as(&self, other: &Macro) -> bool {
        let body = |m: &Macro| m.body.iter().map(|t| (t.text.clone(), t.ws)).collect::<Vec<_>>();
        self.params == other.params && self.variadic == other.variadic && body(self) == body(other)
    }
}

fn err(col: u32, message: impl Into<String>) -> PpError {
    PpError { col, message: message.into() }
}

/// Parse the tokens after `#define` (`col` is the directive's column, for errors).
pub(super) fn parse_define(tokens: &[Token], col: u32) -> Result<Macro, PpError> {
    let name = tokens.first().ok_or_else(|| err(col, "no macro name given in #define directive"))?;
    if name.kind != Kind::Ident {
        return Err(err(name.col, "macro names must be identifiers"));
    }
    if name.text == "defined" {
        return Err(err(name.col, "\"defined\" cannot be used as a macro name"));
    }
    let mut idx = 1;
    let mut params = None;
    let mut variadic = false;
    if tokens.get(1).is_some_and(|t| t.is("(") && !t.ws) {
        let (list, var, next) = parse_params(tokens, name.col)?;
        params = Some(list);
        variadic = var;
        idx = next;
    }
    let mut body: Vec<Token> = tokens.get(idx..).unwrap_or_default().to_vec();
    if let Some(first) = body.first_mut() {
        first.ws = false;
    }
    for t in [body.first(), body.last()].into_iter().flatten() {
        if t.is("##") {
            return Err(err(t.col, "'##' cannot appear at either end of a macro expansion"));
        }
    }
    Ok(Macro { name: Rc::from(name.text.as_str()), params, variadic, body })
}

/// Parse `( a, b, ... )` starting at `tokens[1]`; returns names, variadic flag and the
/// index of the first body token.
fn parse_params(tokens: &[Token], name_col: u32) -> Result<(Vec<String>, bool, usize), PpError> {
    let mut params: Vec<String> = Vec::new();
    let mut idx = 2;
    let at = |i: usize| tokens.get(i).ok_or_else(|| err(name_col, "missing ')' in macro parameter list"));
    // An empty list is only `()`.
    if at(idx)?.is(")") {
        return Ok((params, false, idx + 1));
    }
    loop {
        let t = at(idx)?;
        let variadic = if t.is("...") {
            params.push("__VA_ARGS__".to_string());
            true
        } else if t.kind == Kind::Ident {
            if params.contains(&t.text) || t.text == "__VA_ARGS__" {
                return Err(err(t.col, format!("duplicate or reserved macro parameter \"{}\"", t.text)));
            }
            params.push(t.text.clone());
            let named_variadic = tokens.get(idx + 1).is_some_and(|n| n.is("..."));
            if named_variadic {
                idx += 1;
            }
            named_variadic
        } else {
            return Err(err(t.col, format!("expected parameter name, found \"{}\"", t.text)));
        };
        idx += 1;
        let sep = at(idx)?;
        if sep.is(")") {
            return Ok((params, variadic, idx + 1));
        }
        if variadic || !sep.is(",") {
            return Err(err(sep.col, format!("expected ',' or ')' in macro parameter list, found \"{}\"", sep.text)));
        }
        idx += 1;
    }
}

fn add_hide(hide: &mut Vec<Rc<str>>, extra: &[Rc<str>]) {
    for name in extra {
        if !hide.contains(name) {
            hide.push(name.clone());
        }
    }
}

fn stringize(arg: &[Token], ws: bool, col: u32) -> Token {
    let mut s = String::from("\"");
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.ws {
            s.push(' ');
        }
        if t.kind == Kind::Literal {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    Token::new(Kind::Literal, s, ws, col)
}

/// Paste `rhs` onto the last token of `res` (the `##` operator).
fn paste(res: &mut Vec<Token>, rhs: Vec<Token>) {
    let mut rhs = rhs.into_iter();
    let Some(first) = rhs.next() else { return };
    match res.pop() {
        None => res.push(first),
        Some(l) if l.kind == Kind::Placemarker => res.push(Token { ws: l.ws, ..first }),
        Some(l) => {
            let joined = format!("{}{}", l.text, first.text);
            for (k, mut t) in tokenize(&joined).into_iter().enumerate() {
                t.ws = k == 0 && l.ws;
                t.col = l.col;
                res.push(t);
            }
        }
    }
    res.extend(rhs);
}

/// Expands the macros of one line.
pub(super) struct Expander<'a> {
    macros: &'a HashMap<String, Macro>,
    file: &'a str,
    line: u32,
    produced: usize,
    /// Set once any macro (or `__LINE__`/`__FILE__`) was expanded.
    pub changed: bool,
}

impl<'a> Expander<'a> {
    /// An expander for line `line` of `file`.
    pub fn new(macros: &'a HashMap<String, Macro>, file: &'a str, line: u32) -> Expander<'a> {
        Expander { macros, file, line, produced: 0, changed: false }
    }

    /// Fully expand `tokens`.
    pub fn expand(&mut self, tokens: Vec<Token>) -> Result<Vec<Token>, PpError> {
        self.expand_at(tokens, 0)
    }

    fn expand_at(&mut self, tokens: Vec<Token>, depth: usize) -> Result<Vec<Token>, PpError> {
        // An argument's pre-expansion works on a copy of it: count the copies, or nesting
        // `F(F(F(...)))` copies the rest of the line at every level (5,000 levels: 420 MB
        // before the depth limit was even reached).
        if depth > 0 {
            self.produced += tokens.len();
            if self.produced > MAX_TOKENS {
                let col = tokens.first().map_or(0, |t| t.col);
                return Err(err(col, format!("macro arguments expand to more than {MAX_TOKENS} tokens")));
            }
        }
        let mut input: Vec<Token> = tokens;
        input.reverse();
        let mut out = Vec::new();
        while let Some(t) = input.pop() {
            if t.kind != Kind::Ident || t.hide.iter().any(|h| **h == *t.text) {
                out.push(t);
                continue;
            }
            let Some(m) = self.macros.get(&t.text) else {
                out.push(self.builtin(t));
                continue;
            };
            let (args, hide) = match &m.params {
                None => (Vec::new(), t.hide.clone()),
                Some(params) => {
                    if !input.last().is_some_and(|n| n.is("(")) {
                        out.push(t);
                        continue;
                    }
                    let (args, rparen) = collect_args(&mut input, m, params.len(), t.col)?;
                    let hide = t.hide.iter().filter(|h| rparen.hide.contains(h)).cloned().collect();
                    (args, hide)
                }
            };
            if depth > MAX_DEPTH {
                return Err(err(t.col, format!("macro expansion nested too deeply at \"{}\"", t.text)));
            }
            let mut hide = hide;
            add_hide(&mut hide, std::slice::from_ref(&m.name));
            let mut body = self.subst(m, &args, depth)?;
            for (k, b) in body.iter_mut().enumerate() {
                b.col = t.col;
                add_hide(&mut b.hide, &hide);
                if k == 0 {
                    b.ws = t.ws;
                    b.pad = true;
                }
            }
            // cpp pads after an expansion too; an empty one leaves the name's whitespace.
            if let Some(after) = input.last_mut() {
                after.pad = true;
                after.ws |= body.is_empty() && t.ws;
            }
            self.produced += body.len();
            if self.produced > MAX_TOKENS {
                return Err(err(t.col, format!("expansion of \"{}\" exceeds {MAX_TOKENS} tokens", t.text)));
            }
            self.changed = true;
            input.extend(body.into_iter().rev());
        }
        Ok(out)
    }

    /// `__LINE__` and `__FILE__` when not user-defined; any other token unchanged.
    fn builtin(&mut self, t: Token) -> Token {
        match t.text.as_str() {
            "__LINE__" => {
                self.changed = true;
                Token { kind: Kind::Number, text: self.line.to_string(), ..t }
            }
            "__FILE__" => {
                self.changed = true;
                let name = self.file.replace('\\', "\\\\").replace('"', "\\\"");
                Token { kind: Kind::Literal, text: format!("\"{name}\""), ..t }
            }
            _ => t,
        }
    }

    /// The body of `m` with parameters replaced, `#` and `##` applied.
    fn subst(&mut self, m: &Macro, args: &[Vec<Token>], depth: usize) -> Result<Vec<Token>, PpError> {
        let param_of = |t: &Token| -> Option<usize> {
            (t.kind == Kind::Ident).then_some(())?;
            m.params.as_ref()?.iter().position(|p| *p == t.text)
        };
        let raw = |p: usize| args.get(p).cloned().unwrap_or_default();
        let last_param = m.params.as_ref().map(|p| p.len().saturating_sub(1));
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        // After a substituted argument: the next body token is padded (and takes the
        // parameter's whitespace when the argument was empty).
        let mut pad_next: Option<bool> = None;
        let mut res: Vec<Token> = Vec::new();
        let mut i = 0;
        while let Some(t) = m.body.get(i) {
            let next = m.body.get(i + 1);
            if m.params.is_some() && t.is("#") {
                if let Some(p) = next.and_then(param_of) {
                    res.push(stringize(&raw(p), t.ws, t.col));
                    i += 2;
                    continue;
                }
            }
            if let (true, Some(rhs_tok)) = (t.is("##"), next) {
                i += 2;
                let rhs_param = param_of(rhs_tok);
                let rhs = match (rhs_param, m.body.get(i).and_then(param_of)) {
                    (Some(p), _) => raw(p),
                    (None, Some(p)) if m.params.is_some() && rhs_tok.is("#") => {
                        i += 1;
                        vec![stringize(&raw(p), false, rhs_tok.col)]
                    }
                    _ => vec![rhs_tok.clone()],
                };
                let gnu_comma = m.variadic && rhs_param.is_some() && rhs_param == last_param;
                if gnu_comma && res.last().is_some_and(|l| l.is(",")) {
                    if rhs.is_empty() {
                        res.pop();
                    }
                    res.extend(rhs);
                } else {
                    paste(&mut res, rhs);
                }
                continue;
            }
            if let Some(p) = param_of(t) {
                let pasted = next.is_some_and(|n| n.is("##"));
                let mut toks = if pasted {
                    raw(p)
                } else {
                    match expanded.get(p).cloned().flatten() {
                        Some(done) => done,
                        None => {
                            let done = self.expand_at(raw(p), depth + 1)?;
                            if let Some(slot) = expanded.get_mut(p) {
                                *slot = Some(done.clone());
                            }
                            done
                        }
                    }
                };
                // cpp pads around a substituted argument (not on the left of the body's
                // first token, which the expansion's own padding covers, nor next to `##`).
                let after_paste = i > 0 && m.body.get(i - 1).is_some_and(|p| p.is("##"));
                match toks.first_mut() {
                    Some(first) => {
                        first.ws = t.ws;
                        first.pad |= i > 0 && !after_paste;
                    }
                    None if pasted => toks.push(Token::new(Kind::Placemarker, "", t.ws, t.col)),
                    None => {}
                }
                let empty = toks.is_empty();
                res.extend(toks);
                i += 1;
                if !pasted {
                    pad_next = Some(empty && t.ws);
                }
                continue;
            }
            let mut t = t.clone();
            if let Some(inherit_ws) = pad_next.take() {
                t.pad = true;
                t.ws |= inherit_ws;
            }
            res.push(t);
            i += 1;
        }
        res.retain(|t| t.kind != Kind::Placemarker);
        Ok(res)
    }
}

/// Pop `( args )` off the reversed `input`; returns the arguments (arity-checked) and
/// the closing parenthesis.
fn collect_args(
    input: &mut Vec<Token>,
    m: &Macro,
    nparams: usize,
    col: u32,
) -> Result<(Vec<Vec<Token>>, Token), PpError> {
    input.pop();
    let mut args: Vec<Vec<Token>> = vec![Vec::new()];
    let mut level = 0usize;
    let rparen = loop {
        let t =
            input.pop().ok_or_else(|| err(col, format!("unterminated argument list invoking macro \"{}\"", m.name)))?;
        if t.is(")") && level == 0 {
            break t;
        }
        if t.is("(") {
            level += 1;
        } else if t.is(")") {
            level -= 1;
        } else if t.is(",") && level == 0 && !(m.variadic && args.len() >= nparams) {
            args.push(Vec::new());
            continue;
        }
        if let Some(cur) = args.last_mut() {
            cur.push(t);
        }
    };
    let given = args.len();
    if nparams == 0 && given == 1 && args.first().is_some_and(|a| a.is_empty()) {
        args.clear();
    } else if m.variadic && given + 1 == nparams {
        args.push(Vec::new());
    } else if given > nparams {
        return Err(err(col, format!("macro \"{}\" passed {given} arguments, but takes just {nparams}", m.name)));
    } else if given < nparams {
        return Err(err(col, format!("macro \"{}\" requires {nparams} arguments, but only {given} given", m.name)));
    }
    Ok((args, rparen))
}
