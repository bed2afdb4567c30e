//! Value expressions of a harness: `0x1000`, `4_096`, `-1`, `task`, `task+0x40`,
//! `stack-16`, `stack.top`, `task+ti_ac_stime`.

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
/// the two's complement), or a name optionally followed by `+offset` or `-offset`, the offset
/// a number or a name. Names are looked up as written, so `stack.top` is simply a name the
/// harness defines for every region (its end address). A named offset lets a counter follow
/// the layout of the code that runs: `task+ti_ac_stime` with `ti_ac_stime` an absolute symbol
/// the build defines, so a build with another layout moves the counter or, when it does not
/// define the symbol, is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueExpr {
    /// The expression as written (numbers from TOML integers in decimal).
    pub text: String,
    /// Where it was written.
    pub origin: Origin,
    base: Base,
    /// Signed offset added to the base (`true` = subtract).
    offset: Option<(bool, Base)>,
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
                    let off = match parse_number(rest) {
                        Some(n) => Base::Number(n),
                        None if is_name(rest) => Base::Name(rest.to_string()),
                        None => return Err(bad()),
                    };
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
        let base = self.value_of(&self.base, lookup)?;
        let value = match &self.offset {
            None => Some(base),
            Some((false, off)) => base.checked_add(self.value_of(off, lookup)?),
            Some((true, off)) => base.checked_sub(self.value_of(off, lookup)?),
        };
        value.ok_or_else(|| self.origin.error(format!("'{}' leaves the 64-bit address range", self.text.trim())))
    }

    fn value_of(&self, part: &Base, lookup: &dyn Fn(&str) -> Option<u64>) -> Result<u64, Diagnostic> {
        match part {
            Base::Number(v) => Ok(*v),
            Base::Name(name) => lookup(name).ok_or_else(|| match name.strip_suffix(".top") {
                Some(region) => self.origin.error(format!("unknown region '{region}' in '{name}'")),
                None => self.origin.error(format!("unknown symbol '{name}'")),
            }),
        }
    }

    /// The name the expression refers to, if it is not a plain number.
    pub fn name(&self) -> Option<&str> {
        match &self.base {
            Base::Name(n) => Some(n),
            Base::Number(_) => None,
        }
    }

    /// The name of the offset (`ti_ac_stime` in `task+ti_ac_stime`), if it is not a number.
    pub fn offset_name(&self) -> Option<&str> {
        match &self.offset {
            Some((_, Base::Name(n))) => Some(n),
            _ => None,
        }
    }
}

impl fmt::Display for ValueExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.trim())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(text: &str) -> Result<ValueExpr, Diagnostic> {
        let origin =
            Origin { path: "counter.c.address".into(), loc: SourceLoc::new("h.toml".into(), 3, 11), source_line: None };
        ValueExpr::parse(text, origin)
    }

    fn lookup(name: &str) -> Option<u64> {
        match name {
            "task" => Some(0x7200_0000),
            "ti_ac_stime" => Some(3568),
            _ => None,
        }
    }

    #[test]
    fn a_named_offset_is_looked_up_like_the_base() {
        let e = expr("task+ti_ac_stime").expect("parses");
        assert_eq!(e.eval(&lookup).expect("evaluates"), 0x7200_0000 + 3568);
        assert_eq!(e.offset_name(), Some("ti_ac_stime"));
        assert_eq!(expr("task-ti_ac_stime").expect("parses").eval(&lookup).expect("evaluates"), 0x7200_0000 - 3568);
        assert_eq!(expr("task+8").expect("parses").offset_name(), None);
    }

    #[test]
    fn an_undefined_named_offset_is_a_located_error() {
        let e = expr("task+ti_ac_leave").expect("parses");
        let err = e.eval(&lookup).expect_err("undefined").to_string();
        assert!(err.starts_with("h.toml:3:11: error: counter.c.address: unknown symbol 'ti_ac_leave'"), "{err}");
    }

    #[test]
    fn an_offset_that_is_neither_number_nor_name_is_refused() {
        for bad in ["task+", "task+8x", "task+a b", "task+1+2"] {
            assert!(expr(bad).is_err(), "{bad} parsed");
        }
    }
}
