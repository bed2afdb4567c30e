//! Preprocessing tokens of one logical line, and turning tokens back into text.
//!
//! Identifiers are `[A-Za-z_$][A-Za-z0-9_$]*`; `.` is never part of one, so `ar.k6`
//! is `ar`, `.`, `k6` and `ar.k##n` pastes `k` with `n`. Numbers are C pp-numbers
//! (`1f`, `0x10UL`, `.5`). Quotes that are not closed on the line are ordinary
//! punctuators, as `cpp -x assembler-with-cpp` treats them.

use std::rc::Rc;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Identifier (also register names such as `r16`).
    Ident,
    /// pp-number.
    Number,
    /// String or character literal, quotes included.
    Literal,
    /// Punctuator or any other character.
    Punct,
    /// The empty result of an empty macro argument next to `##`; never output.
    Placemarker,
}

/// One preprocessing token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    pub kind: Kind,
    pub text: String,
    /// Whitespace precedes the token.
    pub ws: bool,
    /// 1-based column on the logical line (of the invocation, for expanded tokens).
    pub col: u32,
    /// Names of the macros this token must not expand (Prosser's hide set).
    pub hide: Vec<Rc<str>>,
    /// The token starts or follows a macro expansion or a substituted argument: cpp's
    /// "padding" boundary, where its printer adds a space between tokens that might
    /// otherwise read as one ([`gcc_avoid_paste`]).
    pub pad: bool,
}

impl Token {
    /// A fresh token without hide set.
    pub fn new(kind: Kind, text: impl Into<String>, ws: bool, col: u32) -> Token {
        Token { kind, text: text.into(), ws, col, hide: Vec::new(), pad: false }
    }

    /// Whether this is the punctuator `p`.
    pub fn is(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }
}

const PUNCT3: [&str; 3] = ["...", "<<=", ">>="];
const PUNCT2: [&str; 20] = [
    "##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
    "^=",
];

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Split a logical line into tokens.
pub(super) fn tokenize(line: &str) -> Vec<Token> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0usize;
    let mut ws = false;
    while let Some(&c) = chars.get(i) {
        let col = i as u32 + 1;
        let at = |k: usize| chars.get(k).copied();
        let start = i;
        let kind = if c.is_whitespace() {
            ws = true;
            i += 1;
            continue;
        } else if is_ident_start(c) {
            while at(i).is_some_and(is_ident_char) {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == '.' && at(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            i += 1;
            while let Some(d) = at(i) {
                let exp_sign = matches!(d, '+' | '-') && matches!(at(i - 1), Some('e' | 'E' | 'p' | 'P'));
                if is_ident_char(d) || d == '.' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if let Some(len) = (c == '"' || c == '\'').then(|| literal_end(&chars, i)).flatten() {
            i += len;
            Kind::Literal
        } else {
            let rest: String = chars.iter().skip(i).take(3).collect();
            let len = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
                3
            } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
                2
            } else {
                1
            };
            i += len;
            Kind::Punct
        };
        let text: String = chars.iter().skip(start).take(i - start).collect();
        out.push(Token::new(kind, text, ws, col));
        ws = false;
    }
    out
}

fn literal_end(chars: &[char], i: usize) -> Option<usize> {
    let quote = *chars.get(i)?;
    let mut j = i + 1;
    while let Some(&c) = chars.get(j) {
        match c {
            '\\' => j += 2,
            c if c == quote => return Some(j + 1 - i),
            _ => j += 1,
        }
    }
    None
}

/// Whether writing `b` right after `a` would lex as something else (so a space is needed).
pub(super) fn would_merge(a: &Token, b: &Token) -> bool {
    let joined = format!("{}{}", a.text, b.text);
    tokenize(&joined).first().is_none_or(|t| t.text != a.text)
}

/// Text of `tokens`: one space where the source had whitespace, plus a space wherever
/// two tokens would otherwise merge (as cpp does after a macro expansion: `- -1`).
/// Whether cpp's printer separates `a` and `b` at a padding boundary: its conservative
/// test of whether the two spellings could read as one token (an operator followed by `=`,
/// `+ +`, `- -`/`->`, `/ *`, `. 1`, an identifier or number followed by an identifier,
/// number or literal, a number followed by `.`, `+` or `-` as in `1e+5`, and the like).
pub(super) fn gcc_avoid_paste(a: &Token, b: &Token) -> bool {
    let c = if b.kind == Kind::Punct { b.text.chars().next() } else { None };
    let takes_eq = ["=", "!", ">", "<", "+", "-", "*", "/", "%", "&", "|", "^", ">>", "<<"];
    if a.kind == Kind::Punct && takes_eq.contains(&a.text.as_str()) && c == Some('=') {
        return true;
    }
    let word = |k: Kind| matches!(k, Kind::Ident | Kind::Number | Kind::Literal);
    match (a.kind, a.text.as_str()) {
        (Kind::Punct, ">") => c == Some('>'),
        (Kind::Punct, "<") => matches!(c, Some('<' | '%' | ':')),
        (Kind::Punct, "+") => c == Some('+'),
        (Kind::Punct, "-") => matches!(c, Some('-' | '>')),
        (Kind::Punct, "/") => matches!(c, Some('/' | '*')),
        (Kind::Punct, "%") => matches!(c, Some(':' | '%')),
        (Kind::Punct, "&") => c == Some('&'),
        (Kind::Punct, "|") => c == Some('|'),
        (Kind::Punct, ":") => matches!(c, Some(':' | '>')),
        (Kind::Punct, "->") => c == Some('*'),
        (Kind::Punct, ".") => matches!(c, Some('.' | '%')) || b.kind == Kind::Number,
        (Kind::Punct, "#") => matches!(c, Some('#' | '%')),
        (Kind::Ident, _) => word(b.kind),
        (Kind::Number, _) => word(b.kind) || matches!(c, Some('.' | '+' | '-')),
        _ => false,
    }
}

pub(super) fn spell(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut prev: Option<&Token> = None;
    for t in tokens.iter().filter(|t| t.kind != Kind::Placemarker) {
        match prev {
            Some(p) if t.ws || (t.pad && gcc_avoid_paste(p, t)) || would_merge(p, t) => out.push(' '),
            // cpp keeps a `#` that starts an expanded line from reading as a directive.
            None if t.pad && t.is("#") => out.push(' '),
            _ => {}
        }
        out.push_str(&t.text);
        prev = Some(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        tokenize(line).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn register_names_and_dots() {
        assert_eq!(texts("mov r2=ar.k6;;"), ["mov", "r2", "=", "ar", ".", "k6", ";", ";"]);
        assert_eq!(
            texts("ld8 r3=[r2],.5 0x10UL 1e+5 1f"),
            ["ld8", "r3", "=", "[", "r2", "]", ",", ".5", "0x10UL", "1e+5", "1f"]
        );
    }

    #[test]
    fn punctuators_and_literals() {
        assert_eq!(
            texts("a##b<<=c...\"x\\\"y\" 'q' 'it"),
            ["a", "##", "b", "<<=", "c", "...", "\"x\\\"y\"", "'q'", "'", "it"]
        );
    }

    #[test]
    fn spelling_avoids_accidental_pastes() {
        let toks = vec![Token::new(Kind::Punct, "-", false, 1), Token::new(Kind::Punct, "-", false, 2)];
        assert_eq!(spell(&toks), "- -");
        let toks = vec![Token::new(Kind::Punct, "(", false, 1), Token::new(Kind::Ident, "p9", false, 2)];
        assert_eq!(spell(&toks), "(p9");
    }
}
