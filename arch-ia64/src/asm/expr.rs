//! Assembler expressions: the tree the parser builds, and its evaluation with GNU as
//! semantics.
//!
//! Everything here was checked against `ia64-linux-gnu-as` 2.40 by assembling `data8 EXPR`
//! and reading the bytes back with `objdump -s`:
//!
//! * Binary operators, from loosest to tightest binding (all left-associative):
//!   `||`; `&&`; `== != <> < <= > >=`; `+ -`; `| ^ & !`; `* / % << >>`.
//!   This is not C's table: `1|2^3` is `(1|2)^3` = 0, `6&3+1` is `(6&3)+1` = 3,
//!   `1<<2*3` is `(1<<2)*3` = 12, `3&1<<2` is `3&(1<<2)` = 0, `5 < 6 & 2` is `5 < (6&2)` = 0.
//! * Arithmetic wraps at 64 bits (`0xffffffffffffffff*2` = -2).
//! * `/` and `%` are signed and truncate toward zero (`-7/2` = -3, `-7%2` = -1, `7%-2` = 1).
//!   gas only warns on a zero divisor and divides by 1 instead; we report an error.
//!   `i64::MIN / -1` crashes gas (SIGFPE); we wrap.
//! * `>>` is a logical (unsigned) shift (`-16>>2` = 0x3ffffffffffffffc). A shift count
//!   outside 0..=63 gives 0 (gas warns "shift count out of range").
//! * Comparisons are signed and give -1 (all ones) for true, 0 for false; `<>` is `!=`.
//! * `&&`, `||` and unary `!` give 1 or 0. Binary `!` is "or not": `a ! b` = `a | ~b`.

use std::collections::HashMap;
use thiserror::Error;

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`, wrapping.
    Neg,
    /// `~x`, bitwise complement.
    Not,
    /// `!x`: 1 when x is 0, else 0.
    LogNot,
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `*`.
    Mul,
    /// `/`, signed.
    Div,
    /// `%`, signed.
    Mod,
    /// `<<`.
    Shl,
    /// `>>`, logical.
    Shr,
    /// `|`.
    Or,
    /// `^`.
    Xor,
    /// `&`.
    And,
    /// Binary `!`: `a | ~b`.
    OrNot,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `==`.
    Eq,
    /// `!=` or `<>`.
    Ne,
    /// `<`, signed.
    Lt,
    /// `<=`, signed.
    Le,
    /// `>`, signed.
    Gt,
    /// `>=`, signed.
    Ge,
    /// `&&`.
    LogAnd,
    /// `||`.
    LogOr,
}

impl BinOp {
    /// Binding strength in gas's table: a higher rank binds tighter.
    pub fn rank(self) -> u8 {
        match self {
            BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Shl | BinOp::Shr => 5,
            BinOp::Or | BinOp::Xor | BinOp::And | BinOp::OrNot => 4,
            BinOp::Add | BinOp::Sub => 3,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 2,
            BinOp::LogAnd => 1,
            BinOp::LogOr => 0,
        }
    }

    /// The operator written as `text`, if it is one.
    pub fn from_text(text: &str) -> Option<BinOp> {
        Some(match text {
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Mod,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            "|" => BinOp::Or,
            "^" => BinOp::Xor,
            "&" => BinOp::And,
            "!" => BinOp::OrNot,
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "==" => BinOp::Eq,
            "!=" | "<>" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            "&&" => BinOp::LogAnd,
            "||" => BinOp::LogOr,
            _ => return None,
        })
    }

    fn apply(self, a: i64, b: i64) -> Result<i64, ExprError> {
        let truth = |c: bool| if c { -1 } else { 0 };
        Ok(match self {
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div => {
                if b == 0 {
                    return Err(ExprError::DivisionByZero);
                }
                a.wrapping_div(b)
            }
            BinOp::Mod => {
                if b == 0 {
                    return Err(ExprError::DivisionByZero);
                }
                a.wrapping_rem(b)
            }
            BinOp::Shl => match u32::try_from(b) {
                Ok(n) if n < 64 => a.wrapping_shl(n),
                _ => 0,
            },
            BinOp::Shr => match u32::try_from(b) {
                Ok(n) if n < 64 => ((a as u64) >> n) as i64,
                _ => 0,
            },
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::And => a & b,
            BinOp::OrNot => a | !b,
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Eq => truth(a == b),
            BinOp::Ne => truth(a != b),
            BinOp::Lt => truth(a < b),
            BinOp::Le => truth(a <= b),
            BinOp::Gt => truth(a > b),
            BinOp::Ge => truth(a >= b),
            BinOp::LogAnd => i64::from(a != 0 && b != 0),
            BinOp::LogOr => i64::from(a != 0 || b != 0),
        })
    }
}

/// An expression as written (parentheses are implied by the tree shape; unary `+` is dropped).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A number literal or character constant.
    Num(u64),
    /// A symbol reference; numeric local labels (`1b`, `1f`) appear under their internal
    /// names from [`local_label_name`].
    Sym(String),
    /// `.`: the current location.
    Dot,
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A relocation operator such as `@gprel(x)` or `@ltoff(@fptr(f))`: the name without `@`
    /// and its argument. Only the object writer can give it a value.
    RelocFn(String, Box<Expr>),
}

/// Where an evaluation gets symbol values and the current location from.
pub trait SymbolEnv {
    /// The value of `name`, or `None` when it is not (yet) defined.
    fn symbol(&self, name: &str) -> Option<u64>;
    /// The current location, or `None` where `.` has no meaning.
    fn dot(&self) -> Option<u64>;
}

/// A [`SymbolEnv`] with a fixed table and no current location (e.g. for `name = 4*8`).
impl SymbolEnv for HashMap<String, u64> {
    fn symbol(&self, name: &str) -> Option<u64> {
        self.get(name).copied()
    }
    fn dot(&self) -> Option<u64> {
        None
    }
}

/// Why an expression has no constant value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExprError {
    /// A symbol the environment does not know.
    #[error("undefined symbol '{0}'")]
    UndefinedSymbol(String),
    /// `.` where there is no current location.
    #[error("'.' (the current location) is not available here")]
    NoDot,
    /// `/` or `%` by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// A relocation operator, which only the linker can resolve.
    #[error("'@{0}(...)' cannot be evaluated to a constant")]
    Reloc(String),
}

impl Expr {
    /// The value as a 64-bit two's-complement number (cast to `u64` for data and addresses).
    ///
    /// # Errors
    /// Undefined symbols, `.` without a location, division by zero and relocation operators.
    pub fn eval(&self, env: &dyn SymbolEnv) -> Result<i64, ExprError> {
        match self {
            Expr::Num(n) => Ok(*n as i64),
            Expr::Sym(name) => {
                env.symbol(name).map(|v| v as i64).ok_or_else(|| ExprError::UndefinedSymbol(name.clone()))
            }
            Expr::Dot => env.dot().map(|v| v as i64).ok_or(ExprError::NoDot),
            Expr::Unary(op, e) => {
                let v = e.eval(env)?;
                Ok(match op {
                    UnaryOp::Neg => v.wrapping_neg(),
                    UnaryOp::Not => !v,
                    UnaryOp::LogNot => i64::from(v == 0),
                })
            }
            Expr::Binary(op, a, b) => op.apply(a.eval(env)?, b.eval(env)?),
            Expr::RelocFn(name, _) => Err(ExprError::Reloc(name.clone())),
        }
    }

    /// Every symbol name referenced, in order of appearance (with repeats).
    pub fn symbols(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Num(_) | Expr::Dot => {}
                Expr::Sym(s) => out.push(s.as_str()),
                Expr::Unary(_, x) | Expr::RelocFn(_, x) => stack.push(x),
                Expr::Binary(_, a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
            }
        }
        out
    }

    /// Whether the expression refers to the current location `.`.
    pub fn has_dot(&self) -> bool {
        match self {
            Expr::Dot => true,
            Expr::Unary(_, x) | Expr::RelocFn(_, x) => x.has_dot(),
            Expr::Binary(_, a, b) => a.has_dot() || b.has_dot(),
            _ => false,
        }
    }
}

/// The internal symbol name of the `instance`-th definition (1-based) of numeric local
/// label `digit:`. The `\u{2}` cannot occur in a source identifier, so the name never
/// collides with a user symbol; the `.L` prefix keeps it out of object symbol tables.
pub fn local_label_name(digit: u32, instance: u32) -> String {
    format!(".L{digit}\u{2}{instance}")
}

/// The inverse of [`local_label_name`]: `(digit, instance)` if `name` is such an internal
/// name, so that errors can say "local label 7 (instance 1)" instead of the raw name.
pub fn split_local_label_name(name: &str) -> Option<(u32, u32)> {
    let (digit, instance) = name.strip_prefix(".L")?.split_once('\u{2}')?;
    Some((digit.parse().ok()?, instance.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(v: u64) -> Box<Expr> {
        Box::new(Expr::Num(v))
    }

    fn bin(op: BinOp, a: i64, b: i64) -> Result<i64, ExprError> {
        Expr::Binary(op, n(a as u64), n(b as u64)).eval(&HashMap::new())
    }

    /// Each value here is what `ia64-linux-gnu-as` 2.40 emitted for `data8 a OP b`.
    #[test]
    fn operators_match_gas() {
        assert_eq!(bin(BinOp::Div, -7, 2), Ok(-3));
        assert_eq!(bin(BinOp::Mod, -7, 2), Ok(-1));
        assert_eq!(bin(BinOp::Mod, 7, -2), Ok(1));
        assert_eq!(bin(BinOp::Div, -8, -3), Ok(2));
        assert_eq!(bin(BinOp::Div, -1, 2), Ok(0));
        assert_eq!(bin(BinOp::Shr, -16, 2), Ok(0x3fff_ffff_ffff_fffc));
        assert_eq!(bin(BinOp::Shr, i64::MIN, 63), Ok(1));
        assert_eq!(bin(BinOp::Shr, 8, 64), Ok(0));
        assert_eq!(bin(BinOp::Shr, -1, 64), Ok(0));
        assert_eq!(bin(BinOp::Shr, 1, -1), Ok(0));
        assert_eq!(bin(BinOp::Shl, 1, 64), Ok(0));
        assert_eq!(bin(BinOp::Shl, 1, -1), Ok(0));
        assert_eq!(bin(BinOp::Shl, 1, 63), Ok(i64::MIN));
        assert_eq!(bin(BinOp::Mul, -1, 2), Ok(-2));
        assert_eq!(bin(BinOp::Add, i64::MAX, 1), Ok(i64::MIN));
        assert_eq!(bin(BinOp::Eq, 5, 5), Ok(-1));
        assert_eq!(bin(BinOp::Ne, 5, 5), Ok(0));
        assert_eq!(bin(BinOp::Lt, 3, 5), Ok(-1));
        assert_eq!(bin(BinOp::Lt, -1, 1), Ok(-1));
        assert_eq!(bin(BinOp::Ge, 3, 3), Ok(-1));
        assert_eq!(bin(BinOp::Le, 3, 2), Ok(0));
        assert_eq!(bin(BinOp::LogAnd, 1, 2), Ok(1));
        assert_eq!(bin(BinOp::LogOr, 0, 3), Ok(1));
        assert_eq!(bin(BinOp::OrNot, 2, 3), Ok(-2));
        assert_eq!(bin(BinOp::Div, i64::MIN, -1), Ok(i64::MIN));
        assert_eq!(bin(BinOp::Div, 5, 0), Err(ExprError::DivisionByZero));
        assert_eq!(bin(BinOp::Mod, 5, 0), Err(ExprError::DivisionByZero));
    }

    #[test]
    fn unary_ops() {
        let env = HashMap::new();
        assert_eq!(Expr::Unary(UnaryOp::Not, n(0)).eval(&env), Ok(-1));
        assert_eq!(Expr::Unary(UnaryOp::LogNot, n(5)).eval(&env), Ok(0));
        assert_eq!(Expr::Unary(UnaryOp::LogNot, n(0)).eval(&env), Ok(1));
        assert_eq!(Expr::Unary(UnaryOp::Neg, n(1)).eval(&env), Ok(-1));
    }

    #[test]
    fn precedence_ranks_follow_gas() {
        let rank = |s: &str| BinOp::from_text(s).map(BinOp::rank);
        assert!(rank("*") > rank("&"));
        assert_eq!(rank("|"), rank("^"));
        assert_eq!(rank("&"), rank("|"));
        assert!(rank("&") > rank("+"));
        assert!(rank("+") > rank("=="));
        assert_eq!(rank("<"), rank("=="));
        assert!(rank("==") > rank("&&"));
        assert!(rank("&&") > rank("||"));
        assert_eq!(BinOp::from_text("<>"), Some(BinOp::Ne));
        assert_eq!(BinOp::from_text("="), None);
    }

    struct Env;
    impl SymbolEnv for Env {
        fn symbol(&self, name: &str) -> Option<u64> {
            (name == "x").then_some(0x100)
        }
        fn dot(&self) -> Option<u64> {
            Some(0x180)
        }
    }

    #[test]
    fn symbols_dot_and_errors() {
        let e = Expr::Binary(BinOp::Sub, Box::new(Expr::Dot), Box::new(Expr::Sym("x".into())));
        assert_eq!(e.eval(&Env), Ok(0x80));
        assert_eq!(e.eval(&HashMap::new()), Err(ExprError::NoDot));
        let u = Expr::Binary(BinOp::Add, Box::new(Expr::Sym("y".into())), Box::new(Expr::Sym("x".into())));
        assert_eq!(u.eval(&Env), Err(ExprError::UndefinedSymbol("y".into())));
        assert_eq!(u.symbols(), vec!["y", "x"]);
        let r = Expr::RelocFn("gprel".into(), Box::new(Expr::Sym("x".into())));
        assert_eq!(r.eval(&Env), Err(ExprError::Reloc("gprel".into())));
        assert_eq!(r.symbols(), vec!["x"]);
    }

    #[test]
    fn local_label_names_are_distinct_and_not_identifiers() {
        assert_ne!(local_label_name(1, 2), local_label_name(12, 2));
        assert_ne!(local_label_name(1, 12), local_label_name(11, 2));
        assert!(local_label_name(1, 1).contains('\u{2}'));
        assert_eq!(split_local_label_name(&local_label_name(7, 12)), Some((7, 12)));
        assert_eq!(split_local_label_name(".L7"), None);
        assert_eq!(split_local_label_name("foo"), None);
    }
}
