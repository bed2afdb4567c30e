//! The tokenizer: one line of text to tokens; comments dropped, lexical errors kept as
//! `Tk::Bad` tokens so the statement containing them reports them.

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tk {
    /// An identifier (symbol, register, mnemonic, directive, `.`).
    Ident(String),
    /// `name#`: an identifier that is always a symbol.
    ForcedSym(String),
    /// A number or character constant.
    Num(u64),
    /// `Nb` (false) or `Nf` (true): a numeric local label reference.
    LocalRef(u32, bool),
    /// A string literal with escapes resolved.
    Str(String),
    /// `@word`.
    At(String),
    /// Punctuation or an operator.
    P(&'static str),
    /// Something unlexable; the message says what.
    Bad(String),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Tok {
    pub(super) kind: Tk,
    /// 1-based column of the first character.
    pub(super) col: u32,
    /// The source text, for messages.
    pub(super) text: String,
}

const PUNCT2: [&str; 10] = [";;", "<<", ">>", "<=", ">=", "==", "!=", "<>", "&&", "||"];
const PUNCT1: [&str; 23] =
    ["(", ")", "[", "]", "{", "}", ",", "=", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "!", "~", ":", ";", "'"];

pub(super) fn col_of(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$' || c == '?'
}

struct Lexer {
    cs: Vec<char>,
    i: usize,
}

impl Lexer {
    fn at(&self, k: usize) -> Option<char> {
        self.cs.get(self.i + k).copied()
    }

    fn text_from(&self, start: usize) -> String {
        self.cs.get(start..self.i).map(|s| s.iter().collect()).unwrap_or_default()
    }

    fn take_while(&mut self, f: impl Fn(char) -> bool) {
        while self.at(0).is_some_and(&f) {
            self.i += 1;
        }
    }

    /// One escape after a backslash (already consumed), in a string or character constant.
    fn escape(&mut self) -> Result<u32, String> {
        let Some(c) = self.at(0) else {
            return Err("unterminated escape sequence".into());
        };
        self.i += 1;
        Ok(match c {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'a' => 7,
            'x' | 'X' => {
                let mut v: u32 = 0;
                let mut any = false;
                while let Some(d) = self.at(0).and_then(|d| d.to_digit(16)) {
                    v = (v << 4 | d) & 0xff;
                    any = true;
                    self.i += 1;
                }
                if !any {
                    return Err("expected hex digits after '\\x'".into());
                }
                v
            }
            // gas reads up to three decimal digits in base 8 (`"\80"` is '@'; issue 13).
            '0'..='9' => {
                let mut v = c as u32 - '0' as u32;
                for _ in 0..2 {
                    match self.at(0).and_then(|d| d.to_digit(10)) {
                        Some(d) => {
                            v = v * 8 + d;
                            self.i += 1;
                        }
                        None => break,
                    }
                }
                v & 0xff
            }
            other => other as u32,
        })
    }

    fn string(&mut self) -> Tk {
        self.i += 1;
        let mut s = String::new();
        loop {
            match self.at(0) {
                None => return Tk::Bad("unterminated string (missing closing '\"')".into()),
                Some('"') => {
                    self.i += 1;
                    return Tk::Str(s);
                }
                Some('\\') => {
                    self.i += 1;
                    match self.escape() {
                        // Escaped bytes 0x80..0xff are kept as U+0080..U+00FF.
                        Ok(v) => s.push(char::from_u32(v).unwrap_or('\u{fffd}')),
                        Err(m) => return Tk::Bad(m),
                    }
                }
                Some(c) => {
                    s.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// `'c`, `'\n`, with an optional closing quote (gas accepts both `'a` and `'a'`).
    fn char_const(&mut self) -> Tk {
        self.i += 1;
        let v = match self.at(0) {
            None => return Tk::Bad("unterminated character constant".into()),
            Some('\\') => {
                self.i += 1;
                match self.at(0) {
                    // gas gives odd values for numeric escapes in character constants.
                    Some(d) if d.is_ascii_digit() || d == 'x' || d == 'X' => {
                        return Tk::Bad("numeric escapes in character constants are not supported".into())
                    }
                    _ => match self.escape() {
                        Ok(v) => v,
                        Err(m) => return Tk::Bad(m),
                    },
                }
            }
            Some(c) => {
                self.i += 1;
                c as u32
            }
        };
        if self.at(0) == Some('\'') {
            self.i += 1;
        }
        Tk::Num(u64::from(v))
    }

    fn digits(&self, start: usize, end: usize, radix: u32) -> Result<u64, String> {
        let digits: String = self.cs.get(start..end).map(|s| s.iter().collect()).unwrap_or_default();
        let mut v: u64 = 0;
        for ch in digits.chars() {
            let Some(d) = ch.to_digit(radix) else {
                return Err(format!("invalid digit '{ch}' in base-{radix} number"));
            };
            v = v
                .checked_mul(u64::from(radix))
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| "number does not fit in 64 bits".to_string())?;
        }
        Ok(v)
    }

    fn number(&mut self) -> Tk {
        let start = self.i;
        let second = self.at(1);
        let result = if self.at(0) == Some('0') && matches!(second, Some('x' | 'X')) {
            self.i += 2;
            let ds = self.i;
            self.take_while(|c| c.is_ascii_hexdigit());
            if ds == self.i {
                Err("expected hex digits after '0x'".to_string())
            } else {
                self.digits(ds, self.i, 16)
            }
        } else if self.at(0) == Some('0') && matches!(second, Some('b' | 'B')) && matches!(self.at(2), Some('0' | '1'))
        {
            self.i += 2;
            let ds = self.i;
            self.take_while(|c| c == '0' || c == '1');
            self.digits(ds, self.i, 2)
        } else {
            self.take_while(|c| c.is_ascii_digit());
            let end = self.i;
            if matches!(self.at(0), Some('b' | 'f')) && !self.at(1).is_some_and(is_ident_char) {
                let fwd = self.at(0) == Some('f');
                self.i += 1;
                let label = self.digits(start, end, 10).ok().and_then(|v| u32::try_from(v).ok());
                return match label {
                    Some(n) => Tk::LocalRef(n, fwd),
                    None => Tk::Bad("local label number is too large".into()),
                };
            }
            if end - start > 1 && self.cs.get(start) == Some(&'0') {
                // A leading 0 means octal, as in gas (`010` is 8).
                self.digits(start + 1, end, 8)
            } else {
                self.digits(start, end, 10)
            }
        };
        if self.at(0).is_some_and(is_ident_char) {
            self.take_while(is_ident_char);
            return Tk::Bad(format!("invalid number '{}'", self.text_from(start)));
        }
        match result {
            Ok(v) => Tk::Num(v),
            Err(m) => Tk::Bad(format!("{m}: '{}'", self.text_from(start))),
        }
    }

    fn next_token(&mut self) -> Option<Tk> {
        let c = self.at(0)?;
        if is_ident_start(c) {
            let start = self.i;
            self.take_while(is_ident_char);
            let name = self.text_from(start);
            if self.at(0) == Some('#') {
                self.i += 1;
                return Some(Tk::ForcedSym(name));
            }
            return Some(Tk::Ident(name));
        }
        if c.is_ascii_digit() {
            return Some(self.number());
        }
        match c {
            '"' => return Some(self.string()),
            '\'' => return Some(self.char_const()),
            '@' => {
                self.i += 1;
                let start = self.i;
                self.take_while(is_ident_char);
                let word = self.text_from(start);
                if word.is_empty() {
                    return Some(Tk::Bad("expected a word after '@'".into()));
                }
                return Some(Tk::At(word));
            }
            _ => {}
        }
        let two: String = [Some(c), self.at(1)].iter().flatten().collect();
        if let Some(p) = PUNCT2.iter().find(|p| **p == two) {
            self.i += 2;
            return Some(Tk::P(p));
        }
        let one = c.to_string();
        if let Some(p) = PUNCT1.iter().find(|p| **p == one) {
            self.i += 1;
            return Some(Tk::P(p));
        }
        self.i += 1;
        Some(Tk::Bad(format!("unexpected character '{}'", c.escape_debug())))
    }
}

/// Splits one line into tokens; comments are dropped, lexical errors become `Tk::Bad`.
pub(super) fn lex_line(line: &str) -> Vec<Tok> {
    let mut lx = Lexer { cs: line.chars().collect(), i: 0 };
    let mut out = Vec::new();
    if line.trim_start().starts_with('#') {
        return out;
    }
    loop {
        lx.take_while(char::is_whitespace);
        if lx.at(0) == Some('/') && lx.at(1) == Some('/') {
            break;
        }
        let start = lx.i;
        let Some(kind) = lx.next_token() else { break };
        out.push(Tok { kind, col: col_of(start), text: lx.text_from(start) });
    }
    out
}
