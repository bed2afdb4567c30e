//! fcmp and fclass-free comparisons: fcmp's relations, and fmin/fmax/famin/famax (SDM vol. 3
//! fcmp, fmin, fmax, famin, famax pages).
//!
//! The hardware relations are eq, lt, le and unord; neq, nlt, nle and ord are the same
//! encodings with the predicate targets swapped, so [`fcmp`] answers them as complements.
//! lt, le (and so nlt, nle) signal Invalid on any NaN; eq and unord (neq, ord) only on a
//! signalling NaN. Unsupported operands always signal Invalid and compare unordered.

use super::class::{classify, exact, Class};
use super::env::{Env, Flags, Outcome};
use crate::state::fr::Fr;
use std::cmp::Ordering;

/// An fcmp relation, with its complement forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// Equal.
    Eq,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
    /// Unordered.
    Unord,
    /// Not equal (complement of eq).
    Neq,
    /// Not less than (complement of lt).
    Nlt,
    /// Not less than or equal (complement of le).
    Nle,
    /// Ordered (complement of unord).
    Ord,
}

/// The numeric order of two non-NaN, supported values (None if either is NaN/unsupported).
/// Zeros of either sign are equal; unnormals compare by value.
pub fn order(a: Fr, b: Fr) -> Option<Ordering> {
    let key = |f: Fr| -> Option<(i8, i32, u128)> {
        match classify(f) {
            Class::Zero => Some((0, 0, 0)),
            Class::Inf => Some((if f.sign { -2 } else { 2 }, 0, 0)),
            Class::Normal | Class::Unnormal => {
                let (m, x) = exact(f);
                // Normalize so the magnitudes compare as (exponent of the top bit, bits).
                let lz = m.leading_zeros();
                Some((if f.sign { -1 } else { 1 }, x - lz as i32, u128::from(m << lz)))
            }
            _ => None,
        }
    };
    let (ka, kb) = (key(a)?, key(b)?);
    Some(match ka.0.cmp(&kb.0) {
        Ordering::Equal if ka.0 == 1 => (ka.1, ka.2).cmp(&(kb.1, kb.2)),
        Ordering::Equal if ka.0 == -1 => (kb.1, kb.2).cmp(&(ka.1, ka.2)),
        o => o,
    })
}

/// The flags of comparing `a` and `b`: V for unsupported operands, for signalling NaNs,
/// and for quiet NaNs when `signal_qnan`; D for a denormal or unnormal operand.
fn compare_flags(a: Fr, b: Fr, signal_qnan: bool) -> Flags {
    let (ca, cb) = (classify(a), classify(b));
    let both = [ca, cb];
    if both.contains(&Class::Unsupported) || both.contains(&Class::SNan) {
        return Flags::V;
    }
    if both.contains(&Class::QNan) {
        return if signal_qnan { Flags::V } else { Flags::NONE };
    }
    if both.contains(&Class::Unnormal) {
        Flags::D
    } else {
        Flags::NONE
    }
}

/// fcmp.rel: whether `f2 rel f3`. NaTVal operands are the caller's (both predicates are
/// cleared); here a NaTVal compares unordered without flags.
pub fn fcmp(rel: Relation, f2: Fr, f3: Fr, env: &Env) -> Outcome<bool> {
    if f2 == Fr::NATVAL || f3 == Fr::NATVAL {
        return Outcome::new(false, Flags::NONE, false, env);
    }
    let signal = matches!(rel, Relation::Lt | Relation::Le | Relation::Nlt | Relation::Nle);
    let flags = compare_flags(f2, f3, signal);
    let o = order(f2, f3);
    let r = match rel {
        Relation::Eq => o == Some(Ordering::Equal),
        Relation::Lt => o == Some(Ordering::Less),
        Relation::Le => matches!(o, Some(Ordering::Less | Ordering::Equal)),
        Relation::Unord => o.is_none(),
        Relation::Neq => o != Some(Ordering::Equal),
        Relation::Nlt => o != Some(Ordering::Less),
        Relation::Nle => !matches!(o, Some(Ordering::Less | Ordering::Equal)),
        Relation::Ord => o.is_some(),
    };
    Outcome::new(r, flags, false, env)
}

/// Which of the four min/max operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinMax {
    /// fmin: f2 if f2 < f3, else f3.
    Min,
    /// fmax: f2 if f2 > f3, else f3.
    Max,
    /// famin: f2 if |f2| < |f3|, else f3.
    AbsMin,
    /// famax: f2 if |f2| > |f3|, else f3.
    AbsMax,
}

/// fmin/fmax/famin/famax: the chosen register unchanged; f3 when the operands are equal or
/// either is a NaN. The comparison is a less-than, so any NaN signals Invalid; a denormal
/// or unnormal operand raises D. A NaTVal operand gives NaTVal.
pub fn min_max(kind: MinMax, f2: Fr, f3: Fr, env: &Env) -> Outcome {
    if f2 == Fr::NATVAL || f3 == Fr::NATVAL {
        return Outcome::new(Fr::NATVAL, Flags::NONE, false, env);
    }
    let flags = compare_flags(f2, f3, true);
    let abs = |f: Fr| Fr { sign: false, ..f };
    let take_f2 = match kind {
        MinMax::Min => order(f2, f3) == Some(Ordering::Less),
        MinMax::Max => order(f2, f3) == Some(Ordering::Greater),
        MinMax::AbsMin => order(abs(f2), abs(f3)) == Some(Ordering::Less),
        MinMax::AbsMax => order(abs(f2), abs(f3)) == Some(Ordering::Greater),
    };
    Outcome::new(if take_f2 { f2 } else { f3 }, flags, false, env)
}
