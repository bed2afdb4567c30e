//! Parallel FP: two IEEE singles packed in the significand (bits 63:32 the high half, 31:0
//! the low half) of a register with exponent 0x1003E (SDM vol. 1 section 5.6, vol. 3 fpma,
//! fpms, fpnma, fpcmp, fpmin, fpmax, fpamin, fpamax, fpcvt pages). Each half is computed as
//! the scalar operation in single precision with the 8-bit exponent range ([`Env`] of
//! [`super::env::Precision::Parallel`]); the flags of both halves go to the status field,
//! and a fault or trap reports each half's exceptions separately (ISR low and high half).

use super::class::{classify, Class, EXP_INTEGER};
use super::cmp::{fcmp, min_max, MinMax, Relation};
use super::cvt::{fit_integer, to_integer};
use super::env::{Env, Event, Flags, Outcome, Rounding};
use super::fma::{fma, FmaOp};
use super::memfmt::{from_single, to_single};
use crate::state::fr::Fr;

pub(crate) fn halves(f: Fr) -> [u32; 2] {
    [(f.sig >> 32) as u32, f.sig as u32]
}

pub(crate) fn pack(hi: u32, lo: u32) -> Fr {
    Fr { sign: false, exp: EXP_INTEGER, sig: (u64::from(hi) << 32) | u64::from(lo) }
}

/// Combines the two halves' outcomes into one (faults of either half first).
pub(crate) fn combine(hi: Outcome<u32>, lo: Outcome<u32>, env: &Env) -> Outcome {
    let value = pack(hi.value, lo.value);
    let flags = hi.flags.with(lo.flags);
    let fault = |o: &Outcome<u32>| o.flags.and(Flags::FAULTS).and(env.enabled);
    let trap = |o: &Outcome<u32>| o.flags.and(Flags::TRAPS);
    let event = if !fault(&hi).is_empty() || !fault(&lo).is_empty() {
        Event::Fault { low: fault(&lo), high: fault(&hi) }
    } else if !flags.and(Flags::TRAPS).and(env.enabled).is_empty() {
        let fpa = |o: &Outcome<u32>| matches!(o.event, Event::Trap { fpa: true, .. });
        Event::Trap { low: trap(&lo), high: trap(&hi), fpa: fpa(&lo), fpa_high: fpa(&hi) }
    } else {
        Event::None
    };
    Outcome { value, flags, event }
}

/// fpma/fpms/fpnma: per half `f3 * f4 + f2` (or the fms/fnma forms), rounded once to
/// single. `f2` is `None` for f0 (fpmpy, fpnmpy: no addition). NaTVal gives NaTVal.
pub fn fpma(op: FmaOp, f3: Fr, f4: Fr, f2: Option<Fr>, env: &Env) -> Outcome {
    if [Some(f3), Some(f4), f2].contains(&Some(Fr::NATVAL)) {
        return Outcome::new(Fr::NATVAL, Flags::NONE, false, env);
    }
    let (h3, h4) = (halves(f3), halves(f4));
    let h2 = f2.map(halves);
    let half = |i: usize| {
        let o = fma(op, from_single(h3[i]), from_single(h4[i]), h2.map(|h| from_single(h[i])), env);
        Outcome { value: to_single(o.value), flags: o.flags, event: o.event }
    };
    combine(half(0), half(1), env)
}

/// fpcmp.rel: per half all ones when `f2 rel f3` holds, else zero. NaTVal gives NaTVal.
pub fn fpcmp(rel: Relation, f2: Fr, f3: Fr, env: &Env) -> Outcome {
    per_half(f2, f3, env, |a, b| {
        let o = fcmp(rel, from_single(a), from_single(b), env);
        Outcome::new(if o.value { u32::MAX } else { 0 }, o.flags, false, env)
    })
}

/// fpmin/fpmax/fpamin/fpamax: per half the chosen single unchanged (f3's on ties and NaNs).
pub fn fp_min_max(kind: MinMax, f2: Fr, f3: Fr, env: &Env) -> Outcome {
    per_half(f2, f3, env, |a, b| {
        let o = min_max(kind, from_single(a), from_single(b), env);
        let v = if o.value == from_single(a) && o.value != from_single(b) { a } else { b };
        Outcome::new(v, o.flags, false, env)
    })
}

/// A two-source parallel operation: `op` on the high halves of `f2` and `f3`, then on the
/// low halves, joined by [`combine`]. A NaTVal source gives NaTVal and no flags.
fn per_half(f2: Fr, f3: Fr, env: &Env, op: impl Fn(u32, u32) -> Outcome<u32>) -> Outcome {
    if f2 == Fr::NATVAL || f3 == Fr::NATVAL {
        return Outcome::new(Fr::NATVAL, Flags::NONE, false, env);
    }
    let (a, b) = (halves(f2), halves(f3));
    combine(op(a[0], b[0]), op(a[1], b[1]), env)
}

/// fpcvt.fx/fpcvt.fxu (and `.trunc`): per half the single to a signed or unsigned 32-bit
/// integer; invalid halves give the integer indefinite 0x80000000.
pub fn fpcvt_fx(f2: Fr, unsigned: bool, trunc: bool, env: &Env) -> Outcome {
    if f2 == Fr::NATVAL {
        return Outcome::new(Fr::NATVAL, Flags::NONE, false, env);
    }
    let a = halves(f2);
    let rc = if trunc { Rounding::Zero } else { env.rc };
    let half = |i: usize| {
        let f = from_single(a[i]);
        let d = if classify(f) == Class::Unnormal { Flags::D } else { Flags::NONE };
        let v = to_integer(f, rc)
            .and_then(|(sign, mag, inexact)| fit_integer(unsigned, sign, mag, 32).map(|v| (v as u32, inexact)));
        match v {
            Some((v, inexact)) => Outcome::new(v, d.with(if inexact { Flags::I } else { Flags::NONE }), false, env),
            None => Outcome::new(0x8000_0000, d.with(Flags::V), false, env),
        }
    };
    combine(half(0), half(1), env)
}
