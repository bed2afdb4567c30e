//! Value expressions of a harness: `0x1000`, `4_096`, `-1`, `task`, `task+0x40`,
//! `stack-16`, `stack.top`.

use std::fmt;
use std::sync::Arc;

use crate::error::{Diagnostic, SourceLoc};

/// Where a harness item was written, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Key path of the item (`registers.r12`, `region.stack.fill[0]`).
    pub path: String,
    /// File, line and column of its value.
    pub loc: SourceLoc,
    /// The text of that line, shown under the message (shared by every item on the line).
    pub source_line: Option<Arc<str>>,
}

impl Origin {
    /// An error about this item: `file:line:col: error: path: message` (without `path: `
    /// when the path is empty, as for a value given on the command line).
    pub fn error(&self, message: impl fmt::Display) -> Diagnostic {
        let text = if self.path.is_empty() { message.to_string() } else { format!("{}: {message}", self.path) };
        let d = Diagnostic::error(self.loc.clone(), text);
        match &self.source_line {
            Some(line) => d.with_source_line(line.to_string()),
            None => d,
        }
    }
}

/// What an expression starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Base {
    Number(u64),
    Name(String),
}

/// A parsed value expression; evaluate it with [`ValueExpr::eval`].
///
/// Grammar: a number (decimal or `0x` hex, `_` separators allowed, a leading `-` gives
/// the two's complement), or a name optionally followed by `+number` or `-number`.
/// Names are looked up as written, so `stack.top` is simply a name the harness defines
/// for every region (its end address).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueExpr {
    /// The expression as written (numbers from TOML integers in decimal).
    pub text: String,
    /// Where it was written.
    pub origin: Origin,
    base: Base,
    /// Signed offset added to the base (`true` = subtract).
    offset: Option<(bool, u64)>,
}

/// A number as the grammar allows it, without sign.
fn parse_number(text: &str) -> Option<u64> {
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    if text.starts_with('_') || digits.is_empty() {
        return None;
    }
    match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => digits.parse().ok(),
    }
}

/// Whether `name` is a usable symbol or region name.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
}

impl ValueExpr {
    /// Parses `text` written at `origin`.
    ///
    /// # Errors
    /// A located diagnostic when `text` is not an expression.
    pub fn parse(text: &str, origin: Origin) -> Result<ValueExpr, Diagnostic> {
        let t = text.trim();
        let bad = || {
            origin.error(format!(
                "'{text}' is not a value (expected a number, a name, name+offset, name-offset or region.top)"
            ))
        };
        let starts_numeric = t.starts_with(|c: char| c.is_ascii_digit()) || t.starts_with('-');
        let (base, offset) = if starts_numeric {
            let value = match t.strip_prefix('-') {
                Some(rest) => parse_number(rest.trim_start()).map(u64::wrapping_neg),
                None => parse_number(t),
            };
            (Base::Number(value.ok_or_else(bad)?), None)
        } else {
            match t.find(['+', '-']) {
                Some(op) => {
                    let name = t.get(..op).unwrap_or("").trim_end();
                    let rest = t.get(op + 1..).unwrap_or("").trim_start();
                    let off = parse_number(rest).ok_or_else(bad)?;
                    (Base::Name(name.to_string()), Some((t.get(op..).is_some_and(|s| s.starts_with('-')), off)))
                }
                None => (Base::Name(t.to_string()), None),
            }
        };
        if let Base::Name(name) = &base {
            if !is_name(name) {
                return Err(bad());
            }
        }
        Ok(ValueExpr { text: text.to_string(), origin, base, offset })
    }

    /// A constant written as a TOML integer (negative ones as two's complement).
    pub fn number(value: i64, origin: Origin) -> ValueExpr {
        ValueExpr { text: value.to_string(), origin, base: Base::Number(value as u64), offset: None }
    }

    /// The value, with names looked up by `lookup`.
    ///
    /// # Errors
    /// An unknown name, or an offset that leaves the 64-bit range.
    pub fn eval(&self, lookup: &dyn Fn(&str) -> Option<u64>) -> Result<u64, Diagnostic> {
        let base = match &self.base {
            Base::Number(v) => *v,
            Base::Name(name) => match lookup(name) {
                Some(v) => v,
                None => {
                    return Err(match name.strip_suffix(".top") {
                        Some(region) => self.origin.error(format!("unknown region '{region}' in '{name}'")),
                        None => self.origin.error(format!("unknown symbol '{name}'")),
                    })
                }
            },
        };
        let value = match self.offset {
            None => Some(base),
            Some((false, off)) => base.checked_add(off),
            Some((true, off)) => base.checked_sub(off),
        };
        value.ok_or_else(|| self.origin.error(format!("'{}' leaves the 64-bit address range", self.text.trim())))
    }

    /// The name the expression refers to, if it is not a plain number.
    pub fn name(&self) -> Option<&str> {
        match &self.base {
            Base::Name(n) => Some(n),
            Base::Number(_) => None,
        }
    }
}

impl fmt::Display for ValueExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.trim())
    }
}
