//! `.rept` / `.irp` / `.irpc` … `.endr`: GNU as's repeated blocks, expanded with the macros
//! before parsing (`macros.rs` calls [`block`] and [`bodies`]).
//!
//! What is modelled (checked against `ia64-linux-gnu-as` 2.40): `.rept N` repeats its body N
//! times (none when N ≤ 0); `.irp sym, a, b, …` once per value with `\sym` replaced (once
//! with the empty value when none is given); `.irpc sym, chars` once per character; blocks
//! nest, inside macros too. N must be a constant: an integer expression of literals (gas
//! also accepts symbols defined before, which expansion before parsing cannot know: those
//! are refused with gas's "bad or irreducible absolute expression").

/// The body of the block opened on line `start` of `lines`, and the index of its `.endr`;
/// `None` when no `.endr` closes it. `word` gives a line's first word, lowercase.
pub(super) fn block<'a>(
    lines: &[&'a str],
    start: usize,
    word: &dyn Fn(&str) -> Option<String>,
) -> Option<(Vec<&'a str>, usize)> {
    let mut nest = 0;
    let mut body = Vec::new();
    let mut i = start + 1;
    while let Some(l) = lines.get(i) {
        match word(l).as_deref() {
            Some(".rept" | ".irp" | ".irpc") => nest += 1,
            Some(".endr") if nest == 0 => return Some((body, i)),
            Some(".endr") => nest -= 1,
            _ => {}
        }
        body.push(*l);
        i += 1;
    }
    None
}

/// What one block expands to: each repetition's parameter binding (`None` for `.rept`).
pub(super) enum Repeats {
    /// `.rept`: the body this many times, as written.
    Times(u64),
    /// `.irp`/`.irpc`: the body once per value, `\name` replaced.
    Values(String, Vec<String>),
}

/// The repetitions `directive` (`.rept`, `.irp`, `.irpc`) with operands `args` asks for.
///
/// # Errors
/// gas's messages for a count that is not a constant, a negative count, or a missing symbol
/// name.
pub(super) fn bodies(directive: &str, args: &str, split: &dyn Fn(&str) -> Vec<String>) -> Result<Repeats, String> {
    let args = args.trim();
    if directive == ".rept" {
        let n = constant(args).ok_or("bad or irreducible absolute expression")?;
        return u64::try_from(n).map(Repeats::Times).map_err(|_| "negative count for REPT - ignored".to_string());
    }
    let (name, rest) = match args.split_once(',') {
        Some((n, r)) => (n.trim(), r.trim()),
        None => (args, ""),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$') {
        return Err("missing model parameter".into());
    }
    let values = if directive == ".irpc" {
        rest.chars().filter(|c| !c.is_whitespace()).map(String::from).collect()
    } else if rest.is_empty() {
        vec![String::new()]
    } else {
        split(rest).into_iter().map(|v| v.trim().to_string()).collect()
    };
    Ok(Repeats::Values(name.to_string(), values))
}

/// The value of an integer constant expression: literals (decimal, `0x`, `0b`, octal with a
/// leading 0), `+ - * / % << >> & | ^ ~ !`, parentheses.
fn constant(text: &str) -> Option<i64> {
    let tokens = tokens(text)?;
    let mut p = Parser { tokens: &tokens, at: 0 };
    let v = p.binary(0)?;
    (p.at == tokens.len()).then_some(v)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Op(&'static str),
}

fn tokens(text: &str) -> Option<Vec<Tok>> {
    const OPS: [&str; 14] = ["<<", ">>", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "(", ")"];
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
            out.push(Tok::Op(op));
            rest = &rest[op.len()..];
        } else {
            let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
            let word = &rest[..end];
            let (digits, radix) = if let Some(h) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
                (h, 16)
            } else if let Some(b) = word.strip_prefix("0b").or_else(|| word.strip_prefix("0B")) {
                (b, 2)
            } else if word.len() > 1 && word.starts_with('0') {
                (&word[1..], 8)
            } else {
                (word, 10)
            };
            out.push(Tok::Num(i64::from_str_radix(digits, radix).ok()?));
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    Some(out)
}

struct Parser<'a> {
    tokens: &'a [Tok],
    at: usize,
}

impl Parser<'_> {
    fn op(&self) -> Option<&'static str> {
        match self.tokens.get(self.at) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn unary(&mut self) -> Option<i64> {
        match self.tokens.get(self.at)?.clone() {
            Tok::Num(n) => {
                self.at += 1;
                Some(n)
            }
            Tok::Op("(") => {
                self.at += 1;
                let v = self.binary(0)?;
                (self.op() == Some(")")).then(|| self.at += 1)?;
                Some(v)
            }
            Tok::Op(o @ ("-" | "~" | "!" | "+")) => {
                self.at += 1;
                let v = self.unary()?;
                Some(match o {
                    "-" => v.wrapping_neg(),
                    "~" => !v,
                    "!" => i64::from(v == 0),
                    _ => v,
                })
            }
            Tok::Op(_) => None,
        }
    }

    /// gas's precedence: `* / % << >>` bind tightest, then `| & ^ !`, then `+ -`.
    fn binary(&mut self, level: u8) -> Option<i64> {
        const LEVELS: [&[&str]; 3] = [&["+", "-"], &["|", "&", "^"], &["*", "/", "%", "<<", ">>"]];
        let Some(ops) = LEVELS.get(usize::from(level)) else { return self.unary() };
        let mut v = self.binary(level + 1)?;
        while let Some(o) = self.op().filter(|o| ops.contains(o)) {
            self.at += 1;
            let r = self.binary(level + 1)?;
            v = match o {
                "+" => v.wrapping_add(r),
                "-" => v.wrapping_sub(r),
                "|" => v | r,
                "&" => v & r,
                "^" => v ^ r,
                "*" => v.wrapping_mul(r),
                "/" => v.checked_div(r)?,
                "%" => v.checked_rem(r)?,
                "<<" => v.wrapping_shl(u32::try_from(r).ok()?),
                _ => v.wrapping_shr(u32::try_from(r).ok()?),
            };
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_constant_expressions() {
        assert_eq!(constant("3"), Some(3));
        assert_eq!(constant("0x10 / 4 + 1"), Some(5));
        assert_eq!(constant("(2 + 1) * 2"), Some(6));
        assert_eq!(constant("1 << 3 - 1"), Some(7));
        assert_eq!(constant("010"), Some(8));
        assert_eq!(constant("-2"), Some(-2));
        assert_eq!(constant("n"), None);
        assert_eq!(constant("4 /"), None);
    }
}
