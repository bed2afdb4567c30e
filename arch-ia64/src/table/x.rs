//! X-unit rows: the MLX long forms (SDM vol. 3 section 4.7; reference section 9).

use super::b::{DH, PH, WH};
use super::field::f;
use super::{Flags, Form, OpKind::*, Sem, TimingClass as T, Unit};
use crate::exec::op::BrKind;

/// Appends the X-unit rows.
const COND: Sem = Sem::Branch { kind: BrKind::Cond, indirect: false };

pub(super) fn list(out: &mut Vec<Form>) {
    out.extend([
        Form::new("break.x", &[], Unit::X, "X1", &[(f::OP, 0), (f::X3, 0), (f::X6, 0)])
            .ops(&[], &[Imm62])
            .timing(T::Break)
            .sem(Sem::Break),
        Form::new("nop.x", &[], Unit::X, "X5", &[(f::OP, 0), (f::X3, 0), (f::X6, 1), (f::Y26, 0)])
            .ops(&[], &[Imm62])
            .timing(T::Nop)
            .sem(Sem::Nop),
        Form::new("hint.x", &[], Unit::X, "X5", &[(f::OP, 0), (f::X3, 0), (f::X6, 1), (f::Y26, 1)])
            .ops(&[], &[Imm62])
            .timing(T::Nop)
            .sem(Sem::Nop),
        Form::new("movl", &[], Unit::X, "X2", &[(f::OP, 6), (f::VC, 0)])
            .ops(&[R1], &[Imm64])
            .timing(T::Movl)
            .sem(Sem::Movl),
        // Like `br`, objdump shows the short alias only for an unpredicated slot:
        // `(p6) brl.cond.sptk.few` keeps its full name.
        Form::new("brl{}{}", &[PH, DH], Unit::X, "X3", &[(f::OP, 0xC), (f::B1, 0)])
            .pin(f::WH, 0)
            .flags(Flags::PSEUDO | Flags::QP0_ALIAS)
            .ops(&[], &[Tgt64])
            .timing(T::Branch)
            .sem(COND),
        Form::new("brl.cond{}{}{}", &[WH, PH, DH], Unit::X, "X3", &[(f::OP, 0xC), (f::B1, 0)])
            .ops(&[], &[Tgt64])
            .timing(T::Branch)
            .sem(COND),
        Form::new("brl.call{}{}{}", &[WH, PH, DH], Unit::X, "X4", &[(f::OP, 0xD)])
            .ops(&[B1], &[Tgt64])
            .timing(T::Call)
            .sem(Sem::Branch { kind: BrKind::Call, indirect: false })
            .implicit(super::b::CALL_READS, super::b::CALL_WRITES),
    ]);
}
