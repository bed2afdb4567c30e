//! Itanium 9500 forms GNU as 2.40 assembles that the Itanium 2 modelled (Madison) predates
//! (issue 12, later forms). Encodings measured with gas 2.40 `-x` and objdump 2.40 over every
//! operand value (corpus `tests/corpus/ia64/src/lfetch_count.S`):
//! - `lfetch.count[.hint] [r3],count,stride`: M13's plain lfetch (op 6, m = 0, x6 0x2C) with
//!   bit 19, the top of the unused r2 field, set; count - 1 in bits 6-11 (1..64), stride / 64 a
//!   signed 5-bit field in bits 13-17 (-1024..960; gas drops a stride's low 6 bits with a
//!   warning); bit 18 is ignored by objdump. The `.excl` and `.fault` lfetch types have no
//!   count form: objdump shows those with bit 19 set as the plain forms.
//! - `mov r1=dahr[r3]`: M43 (op 1, x3 0) with x6 0x20, beside `mov r1=cpuid[r3]`'s 0x17.
//! - `mov dahrN=imm16`: inside hint.m's M48 space (op 0, x3 0, x4 1, x2 0, y = bit 26 = 1)
//!   with bit 10 set and bit 11 clear (objdump shows data8 when bit 11 is set, hint.m when bit
//!   10 is clear); N in bits 23-25; the immediate over bits 6-9, 12-22 and 36 (gas: "a 16-bit
//!   unsigned", dahr0-dahr7 only).
//!
//! Executing one raises Illegal Operation (an unimplemented opcode on Itanium 2), as mpy4 does.

use super::field::{f, Field};
use super::{Comp, Form, OpKind::*, Sem, TimingClass as T, Unit};
use crate::exec::mm::MmOp;

/// lfetch.count's hints, as the plain lfetch's (objdump keeps `.nt2` for hint 2).
const LF_COUNT_HINT: Comp = Comp {
    field: f::HINT,
    opts: &[("", 0), (".nt1", 1), (".nt2", 2), (".nta", 3), (".d1", 1), (".d2", 2), (".d3", 3)],
    implied: None,
};

/// What lfetch.count executes as, named for its Illegal Operation fault (also how the
/// `.d4`-`.d7` twin pass recognises the rows).
pub(super) const LFETCH_COUNT: Sem = Sem::Mm(MmOp::Later9500("lfetch.count"));

/// What `mov r1=dahr[r3]` and `mov dahrN=imm16` execute as (Illegal Operation).
const MOV_FROM_DAHR: Sem = Sem::Mm(MmOp::Later9500("mov from dahr"));
const MOV_TO_DAHR: Sem = Sem::Mm(MmOp::Later9500("mov to dahr"));

/// Adds the later forms. They must precede `m::list`'s rows: the plain lfetch row ignores
/// bit 19, and the decoder takes the first row that matches.
pub(super) fn list(out: &mut Vec<Form>) {
    let fixed = [(f::OP, 6), (f::BIT36, 0), (f::X27, 0), (f::X6LS, 0x2C), (Field::new(19, 1), 1)];
    out.push(
        Form::new("lfetch.count{}", &[LF_COUNT_HINT], Unit::M, "M13", &fixed)
            .ops(&[], &[Mem3, LfCount, LfStride])
            .timing(T::Lfetch)
            .sem(LFETCH_COUNT),
    );
    // Timing of the other system moves (the Tlb class, M2 only, a GUESS latency); it hardly
    // matters on Itanium 2, where both fault. Not hint.m's Nop class: a Nop row is skipped
    // rather than executed, and these must fault.
    out.push(
        Form::new("mov", &[], Unit::M, "M43", &[(f::OP, 1), (f::X3, 0), (f::X6, 0x20)])
            .ops(&[R1], &[IndDahr])
            .timing(T::Tlb)
            .sem(MOV_FROM_DAHR),
    );
    let to_dahr = [(f::OP, 0), (f::X3, 0), (f::X6, 0x01), (f::Y26, 1), (Field::new(10, 1), 1), (Field::new(11, 1), 0)];
    out.push(
        Form::new("mov", &[], Unit::M, "M48", &to_dahr).ops(&[DahrN], &[ImmU16Dahr]).timing(T::Tlb).sem(MOV_TO_DAHR),
    );
}
