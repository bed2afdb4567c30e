//! `#if` expressions: C integer constant expressions over `intmax_t`/`uintmax_t`.
//!
//! Values are 64-bit; an operation is unsigned when an operand is (the usual
//! arithmetic conversions), comparisons and logical operators give signed 0/1,
//! arithmetic wraps like GCC's (which only warns on overflow). Identifiers left after
//! macro expansion are 0. Division by zero is an error only where evaluated, so
//! `0 && 1/0` is fine.

use super::token::{Kind, Token};
use super::PpError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Val {
    bits: u64,
    unsigned: bool,
}

impl Val {
    fn signed(v: i64) -> Val {
        Val { bits: v as u64, unsigned: false }
    }

    fn truth(b: bool) -> Val {
        Val::signed(i64::from(b))
    }

    fn is_true(self) -> bool {
        self.bits != 0
    }

    fn neg(self) -> bool {
        !self.unsigned && (self.bits as i64) < 0
    }
}

/// Deepest nesting of parentheses and `?` middles accepted (the assembler's own expression
/// parser has the same limit). Each level costs about fifteen frames of recursive descent, so
/// this keeps the stack use far below a test thread's 2 MiB even in a debug build. Chains of
/// unary operators and of `?:` in the else position are evaluated in loops and cost no depth.
pub(super) const MAX_EXPR_DEPTH: u32 = 200;

/// Evaluate the fully expanded tokens of an `#if`/`#elif` (`col` locates an empty one).
pub(super) fn evaluate(tokens: &[Token], col: u32) -> Result<bool, PpError> {
    let mut p = Parser { toks: tokens, pos: 0, end_col: col, depth: 0 };
    if tokens.is_empty() {
        return Err(PpError { col, message: "#if with no expression".into() });
    }
    let v = p.comma(true)?;
    if let Some(t) = p.peek() {
        return Err(p.error_at(t, format!("missing binary operator before token \"{}\"", t.text)));
    }
    Ok(v.is_true())
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    end_col: u32,
    /// Current nesting of parentheses and `?` middles.
    depth: u32,
}

/// Binary operators by precedence level, loosest first (`||` and `&&` are separate
/// because they short-circuit).
const LEVELS: [&[&str]; 8] =
    [&["|"], &["^"], &["&"], &["==", "!="], &["<", "<=", ">", ">="], &["<<", ">>"], &["+", "-"], &["*", "/", "%"]];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, p: &str) -> bool {
        let hit = self.peek().is_some_and(|t| t.is(p));
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn error_at(&self, t: &Token, message: String) -> PpError {
        PpError { col: t.col, message }
    }

    fn col(&self) -> u32 {
        self.peek().map_or(self.end_col, |t| t.col)
    }

    fn comma(&mut self, ev: bool) -> Result<Val, PpError> {
        let mut v = self.cond(ev)?;
        while self.eat(",") {
            v = self.cond(ev)?;
        }
        Ok(v)
    }

    /// Run `f` one nesting level deeper, refusing to go past [`MAX_EXPR_DEPTH`] (`col` is
    /// the opening token's column).
    fn nested(&mut self, col: u32, f: impl FnOnce(&mut Self) -> Result<Val, PpError>) -> Result<Val, PpError> {
        if self.depth >= MAX_EXPR_DEPTH {
            return Err(PpError {
                col,
                message: format!("#if expression nested more than {MAX_EXPR_DEPTH} levels deep"),
            });
        }
        self.depth += 1;
        let v = f(self);
        self.depth -= 1;
        v
    }

    /// `c1 ? a1 : c2 ? a2 : ... : z`, right-associative, as a loop so that a long chain does
    /// not recurse. The first `a` whose condition holds is the value; its type is unsigned
    /// if any `a` or `z` is (each `?:` level applies the usual conversions to both arms).
    fn cond(&mut self, ev: bool) -> Result<Val, PpError> {
        let mut ev = ev;
        let mut pick: Option<u64> = None;
        let mut unsigned = false;
        let mut chained = false;
        loop {
            let c = self.logic_or(ev)?;
            let Some(q) = self.peek().filter(|t| t.is("?")) else {
                if !chained {
                    return Ok(c);
                }
                return Ok(Val { bits: pick.unwrap_or(c.bits), unsigned: unsigned || c.unsigned });
            };
            self.pos += 1;
            chained = true;
            let taken = c.is_true();
            let a = self.nested(q.col, |p| p.comma(ev && taken))?;
            if !self.eat(":") {
                return Err(PpError { col: self.col(), message: "expected ':' in conditional expression".into() });
            }
            unsigned |= a.unsigned;
            if taken && pick.is_none() {
                pick = Some(a.bits);
            }
            ev = ev && !taken;
        }
    }

    fn logic_or(&mut self, ev: bool) -> Result<Val, PpError> {
        let mut v = self.logic_and(ev)?;
        while self.eat("||") {
            let r = self.logic_and(ev && !v.is_true())?;
            v = Val::truth(v.is_true() || r.is_true());
        }
        Ok(v)
    }

    fn logic_and(&mut self, ev: bool) -> Result<Val, PpError> {
        let mut v = self.binary(0, ev)?;
        while self.eat("&&") {
            let r = self.binary(0, ev && v.is_true())?;
            v = Val::truth(v.is_true() && r.is_true());
        }
        Ok(v)
    }

    fn binary(&mut self, level: usize, ev: bool) -> Result<Val, PpError> {
        let Some(ops) = LEVELS.get(level) else {
            return self.unary(ev);
        };
        let mut v = self.binary(level + 1, ev)?;
        while let Some(t) = self.peek().filter(|t| t.kind == Kind::Punct && ops.contains(&t.text.as_str())) {
            self.pos += 1;
            let r = self.binary(level + 1, ev)?;
            v = apply(&t.text, v, r, ev).map_err(|m| self.error_at(t, m))?;
        }
        Ok(v)
    }

    /// A run of prefix operators and the operand they apply to. The operators are applied
    /// from the innermost out by walking their tokens backwards, so `!!!...!0` of any length
    /// costs no recursion.
    fn unary(&mut self, ev: bool) -> Result<Val, PpError> {
        let first = self.pos;
        while self.peek().is_some_and(|t| t.kind == Kind::Punct && matches!(t.text.as_str(), "!" | "~" | "-" | "+")) {
            self.pos += 1;
        }
        let ops = self.toks.get(first..self.pos).unwrap_or_default();
        let mut v = self.primary(ev)?;
        for op in ops.iter().rev() {
            v = match op.text.as_str() {
                "!" => Val::truth(!v.is_true()),
                "~" => Val { bits: !v.bits, ..v },
                "-" => Val { bits: v.bits.wrapping_neg(), ..v },
                _ => v,
            };
        }
        Ok(v)
    }

    fn primary(&mut self, ev: bool) -> Result<Val, PpError> {
        let Some(t) = self.peek() else {
            return Err(PpError { col: self.end_col, message: "missing expression in #if".into() });
        };
        self.pos += 1;
        match t.kind {
            Kind::Number => number(&t.text).map_err(|m| self.error_at(t, m)),
            Kind::Literal if t.text.starts_with('\'') => char_value(&t.text).map_err(|m| self.error_at(t, m)),
            Kind::Ident => Ok(Val::signed(0)),
            _ if t.is("(") => {
                let v = self.nested(t.col, |p| p.comma(ev))?;
                if !self.eat(")") {
                    return Err(PpError { col: self.col(), message: "missing ')' in expression".into() });
                }
                Ok(v)
            }
            _ => Err(self.error_at(t, format!("token \"{}\" is not valid in preprocessor expressions", t.text))),
        }
    }
}

fn apply(op: &str, a: Val, b: Val, ev: bool) -> Result<Val, String> {
    let unsigned = a.unsigned || b.unsigned;
    let (x, y) = (a.bits, b.bits);
    let (sx, sy) = (x as i64, y as i64);
    let arith = |bits: u64| Ok(Val { bits, unsigned });
    let cmp = |lt: bool, eq: bool| -> Result<Val, String> {
        Ok(Val::truth(match op {
            "<" => lt,
            "<=" => lt || eq,
            ">" => !lt && !eq,
            ">=" => !lt,
            "==" => eq,
            _ => !eq,
        }))
    };
    match op {
        "*" => arith(x.wrapping_mul(y)),
        "/" | "%" => {
            if y == 0 {
                return if ev { Err("division by zero in #if".into()) } else { arith(0) };
            }
            let div = op == "/";
            match (unsigned, div) {
                (true, true) => arith(x / y),
                (true, false) => arith(x % y),
                (false, true) => arith(sx.wrapping_div(sy) as u64),
                (false, false) => arith(sx.wrapping_rem(sy) as u64),
            }
        }
        "+" => arith(x.wrapping_add(y)),
        "-" => arith(x.wrapping_sub(y)),
        "<<" | ">>" => Ok(Val { bits: shift(a, b, op == "<<"), unsigned: a.unsigned }),
        "<" | "<=" | ">" | ">=" | "==" | "!=" => {
            let lt = if unsigned { x < y } else { sx < sy };
            cmp(lt, x == y)
        }
        "&" => arith(x & y),
        "^" => arith(x ^ y),
        _ => arith(x | y),
    }
}

/// `a << b` or `a >> b` with C semantics for the left type; a negative count shifts the
/// other way and counts of 64 or more shift everything out (GCC's behaviour).
fn shift(a: Val, b: Val, left: bool) -> u64 {
    let (left, count) = if b.neg() { (!left, (b.bits as i64).unsigned_abs()) } else { (left, b.bits) };
    let fill = if a.neg() { u64::MAX } else { 0 };
    if count >= 64 {
        return if left { 0 } else { fill };
    }
    if left {
        a.bits << count
    } else if a.unsigned {
        a.bits >> count
    } else {
        ((a.bits as i64) >> count) as u64
    }
}

/// Value of an integer literal such as `0x10UL`, `017` or `42`.
fn number(text: &str) -> Result<Val, String> {
    let lower = text.to_ascii_lowercase();
    let digits = lower.trim_end_matches(['u', 'l']);
    let suffix = lower.get(digits.len()..).unwrap_or_default();
    if !matches!(suffix, "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu") {
        return Err(format!("invalid suffix \"{}\" on integer constant", text.get(digits.len()..).unwrap_or_default()));
    }
    let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = digits.strip_prefix("0b") {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, digits.get(1..).unwrap_or_default())
    } else {
        (10, digits)
    };
    if digits.contains('.') || (radix != 16 && digits.contains('e')) {
        return Err(format!("floating constant \"{text}\" in preprocessor expression"));
    }
    let bits = u64::from_str_radix(body, radix).map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => format!("integer constant \"{text}\" is too large"),
        _ => format!("invalid integer constant \"{text}\""),
    })?;
    // Too big for intmax_t: GCC makes it unsigned (with a warning).
    let unsigned = suffix.contains('u') || bits > i64::MAX as u64;
    Ok(Val { bits, unsigned })
}

/// Value of a character constant such as `'a'` or `'\n'` (multi-character constants
/// combine bytes, most significant first).
fn char_value(text: &str) -> Result<Val, String> {
    let inner = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or_default();
    let mut chars = inner.chars().peekable();
    let mut value: i64 = 0;
    let mut count = 0;
    while let Some(c) = chars.next() {
        let byte = if c == '\\' {
            match chars.next() {
                Some('n') => 10,
                Some('t') => 9,
                Some('r') => 13,
                Some('a') => 7,
                Some('b') => 8,
                Some('f') => 12,
                Some('v') => 11,
                Some('e') => 27,
                Some('x') => {
                    let mut v: u32 = 0;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) {
                        v = v.wrapping_mul(16).wrapping_add(d);
                        chars.next();
                    }
                    v
                }
                Some(d @ '0'..='7') => {
                    let mut v = d.to_digit(8).unwrap_or(0);
                    for _ in 0..2 {
                        match chars.peek().and_then(|d| d.to_digit(8)) {
                            Some(d) => {
                                v = v * 8 + d;
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    v
                }
                Some(other) => u32::from(other),
                None => return Err(format!("invalid character constant {text}")),
            }
        } else {
            u32::from(c)
        };
        value = value.wrapping_shl(8) | i64::from(byte & 0xff);
        count += 1;
    }
    if count == 0 {
        return Err("empty character constant".into());
    }
    // A single char is a (signed, as on ia64/x86 GCC) `char` promoted to int.
    if count == 1 {
        value = i64::from(value as u8 as i8);
    }
    Ok(Val::signed(value))
}

#[cfg(test)]
mod tests {
    use super::super::token::tokenize;
    use super::*;

    fn eval(s: &str) -> Result<bool, String> {
        evaluate(&tokenize(s), 1).map_err(|e| e.message)
    }

    #[test]
    fn precedence_and_arithmetic() {
        assert_eq!(eval("1 + 2 * 3 == 7"), Ok(true));
        assert_eq!(eval("(1 + 2) * 3 == 9 && 10 / 3 == 3 && 10 % 3 == 1"), Ok(true));
        assert_eq!(eval("1 << 4 == 16 && 256 >> 4 == 0x10 && 017 == 15"), Ok(true));
        assert_eq!(eval("~0 == -1 && !0 && -(-3) == +3"), Ok(true));
        assert_eq!(eval("(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5"), Ok(true));
        assert_eq!(eval("1 ? 2 : 3"), Ok(true));
        assert_eq!(eval("0 ? 2 : 0"), Ok(false));
        assert_eq!(eval("3 > 2 && 2 >= 2 && 1 < 2 && 2 <= 2 && 1 != 2"), Ok(true));
        assert_eq!(eval("UNDEFINED_THING"), Ok(false));
        assert_eq!(eval("'a' == 97 && '\\n' == 10"), Ok(true));
    }

    #[test]
    fn unsigned_conversions() {
        assert_eq!(eval("-1 < 0"), Ok(true));
        assert_eq!(eval("-1 < 0u"), Ok(false));
        assert_eq!(eval("0xffffffffffffffff == -1"), Ok(true));
        assert_eq!(eval("0xffffffffffffffffUL > 0"), Ok(true));
        assert_eq!(eval("(1 ? -1 : 0u) > 0"), Ok(true));
        assert_eq!(eval("-16 >> 2 == -4 && 1 << 64 == 0"), Ok(true));
        assert_eq!(eval("1L == 1LL && 5ULL == 5lu"), Ok(true));
    }

    #[test]
    fn division_by_zero_only_when_evaluated() {
        assert_eq!(eval("1 / 0"), Err("division by zero in #if".to_string()));
        assert_eq!(eval("1 % (2 - 2)"), Err("division by zero in #if".to_string()));
        assert_eq!(eval("0 && 1 / 0"), Ok(false));
        assert_eq!(eval("1 || 1 / 0"), Ok(true));
        assert_eq!(eval("1 ? 2 : 1 / 0"), Ok(true));
    }

    #[test]
    fn malformed_expressions() {
        assert!(eval("1 +").is_err());
        assert!(eval("(1").is_err());
        assert!(eval("1 2").is_err());
        assert!(eval("1 ? 2").is_err());
        assert!(eval("1.5").is_err());
        assert!(eval("12z").is_err());
        assert!(eval("99999999999999999999").is_err());
        assert!(eval("a = 1").is_err());
        assert!(eval("").is_err());
    }

    /// Nesting past the limit is an error at the opening token, not a stack overflow; the
    /// limit itself fits in a test thread's stack in a debug build.
    #[test]
    fn deep_parentheses_are_refused_at_the_limit() {
        let ok = format!("{}1{}", "(".repeat(MAX_EXPR_DEPTH as usize), ")".repeat(MAX_EXPR_DEPTH as usize));
        assert_eq!(eval(&ok), Ok(true));
        let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        let e = evaluate(&tokenize(&deep), 1).unwrap_err();
        assert_eq!(e.col, MAX_EXPR_DEPTH + 1);
        assert_eq!(e.message, format!("#if expression nested more than {MAX_EXPR_DEPTH} levels deep"));
        assert!(eval(&"(".repeat(5000)).is_err());
    }

    /// Long runs of prefix operators and long else-chains of `?:` are loops, so they have
    /// no depth limit at all; nesting in the middle operand counts like parentheses.
    #[test]
    fn long_unary_runs_and_conditional_chains_evaluate() {
        assert_eq!(eval(&format!("{}0", "!".repeat(100_000))), Ok(false));
        assert_eq!(eval(&format!("{}0", "!".repeat(100_001))), Ok(true));
        assert_eq!(eval(&format!("{}1", "- ".repeat(100_001))), Ok(true));
        assert_eq!(eval(&format!("{}1", "0 ? 0 : ".repeat(100_000))), Ok(true));
        assert_eq!(eval(&format!("{}0", "0 ? 1 : ".repeat(100_000))), Ok(false));
        let middle = format!("{}1{}", "1 ? ".repeat(100_000), " : 0".repeat(100_000));
        assert_eq!(eval(&middle), Err(format!("#if expression nested more than {MAX_EXPR_DEPTH} levels deep")));
        // The arms' types still combine across the whole chain.
        assert_eq!(eval("(1 ? -1 : 0 ? 0 : 0u) > 0"), Ok(true));
        assert_eq!(eval("(0 ? 0 : 1 ? -1 : 0) > 0"), Ok(false));
        assert_eq!(eval("0 ? 1 / 0 : 1 ? 2 : 1 / 0"), Ok(true));
        assert_eq!(eval("1 ? 2 : 0 ? 1 / 0 : 3"), Ok(true));
    }
}
