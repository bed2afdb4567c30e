//! M-unit memory rows beyond the ordinary loads and stores (issue 12): the 16-byte accesses
//! with ar.csd (ld16, st16, cmp8xchg16), the ALAT checks chk.a (M22/M23) and the single-entry
//! ALAT invalidations invala.e (M26/M27). Encodings were taken from GNU as 2.40's output
//! (`tests/corpus/ia64/src/mem_all.S`) and agree with SDM vol. 3 section 4.4.

use super::field::{f, Field};
use super::m::SEM_HINT;
use super::{Comp, Form, OpKind::*, Resource, Sem, TimingClass as T, Unit};
use crate::regs::ar;

/// ar.csd, the high half of the 16-byte accesses.
const CSD: &[Resource] = &[Resource::Ar(ar::CSD)];
/// cmp8xchg16 compares with ar.ccv and stores ar.csd as the high half.
const CSD_CCV: &[Resource] = &[Resource::Ar(ar::CSD), Resource::Ar(ar::CCV)];

/// ld16's ordering completer: x6 0x28 plain, 0x2C `.acq` (bit 32).
const ACQ: Comp = Comp { field: Field::new(32, 1), opts: &[("", 0), (".acq", 1)], implied: None };
/// st16's ordering completer: x6 0x30 plain, 0x34 `.rel` (bit 32).
const REL: Comp = Comp { field: Field::new(32, 1), opts: &[("", 0), (".rel", 1)], implied: None };
/// cmp8xchg16's ordering: x6 0x20 `.acq`, 0x24 `.rel` (bit 32); one is required.
const SEM16: Comp = Comp { field: Field::new(32, 1), opts: &[(".acq", 0), (".rel", 1)], implied: None };
/// ld16 hints (it has no update form, so all of gas 2.40's spellings); objdump prints hint 2
/// as `.d2`.
const LD16_HINT: Comp = Comp {
    field: f::HINT,
    opts: &[("", 0), (".nt1", 1), (".d2", 2), (".nta", 3), (".nt2", 2), (".d1", 1), (".d3", 3)],
    implied: None,
};
/// st16 hints; objdump prints hints 1 and 2 as `.d1`/`.d2`.
const ST16_HINT: Comp = Comp {
    field: f::HINT,
    opts: &[("", 0), (".d1", 1), (".d2", 2), (".nta", 3), (".nt1", 1), (".nt2", 2), (".d3", 3)],
    implied: None,
};
/// chk.a's ALAT completer: x3 bit 0 (4/6 `.nc`, 5/7 `.clr`).
const CHK_CLR: Comp = Comp { field: Field::new(33, 1), opts: &[(".nc", 0), (".clr", 1)], implied: None };

/// An op-4, x = 1 (semaphore/16-byte) row with x6 bits 35:33 = `x6_hi` and size bits 0.
fn x16(name: &'static str, comps: &'static [Comp], x6_hi: u64) -> Form {
    Form::new(
        name,
        comps,
        Unit::M,
        "M",
        &[(f::OP, 4), (f::BIT36, 0), (f::X27, 1), (Field::new(33, 3), x6_hi), (f::LS_SIZE, 0)],
    )
}

/// Appends the rows.
pub(super) fn list(out: &mut Vec<Form>) {
    out.extend([
        // ld16 r1,ar.csd=[r3] (M1 with x = 1): the low 8 bytes to r1, the high 8 to ar.csd.
        x16("ld16{}{}", &[ACQ, LD16_HINT], 5)
            .ops(&[R1, ArCsd], &[Mem3])
            .timing(T::Load)
            .sem(Sem::Load16)
            .implicit(&[], CSD),
        // st16 [r3]=r2,ar.csd (M4 with x = 1).
        x16("st16{}{}", &[REL, ST16_HINT], 6)
            .ops(&[Mem3], &[R2, ArCsd])
            .timing(T::Store)
            .sem(Sem::Store16)
            .implicit(CSD, &[]),
        // cmp8xchg16 r1=[r3],r2,ar.csd,ar.ccv (M16 with x6 0x20/0x24).
        x16("cmp8xchg16{}{}", &[SEM16, SEM_HINT], 4)
            .ops(&[R1], &[Mem3, R2, ArCsd, ArCcv])
            .timing(T::Atomic)
            .sem(Sem::Cmp8xchg16)
            .implicit(CSD_CCV, &[]),
        // chk.a.nc/.clr r1 (M22, x3 4/5) and f1 (M23, x3 6/7): imm20b and s as in M20's target.
        Form::new("chk.a{}", &[CHK_CLR], Unit::M, "M22", &[(f::OP, 0), (Field::new(34, 2), 2)])
            .ops(&[], &[R1, Tgt25])
            .timing(T::Chk)
            .sem(Sem::ChkA { fp: false, clr: false }),
        Form::new("chk.a{}", &[CHK_CLR], Unit::M, "M23", &[(f::OP, 0), (Field::new(34, 2), 3)])
            .ops(&[], &[F1, Tgt25])
            .timing(T::Chk)
            .sem(Sem::ChkA { fp: true, clr: false }),
        // invala.e r1 (M26, x2:x4 = 0x12) and f1 (M27, 0x13).
        Form::new("invala.e", &[], Unit::M, "M26", &[(f::OP, 0), (f::X3, 0), (f::X6, 0x12)])
            .ops(&[], &[R1])
            .timing(T::Invala)
            .sem(Sem::InvalaE { fp: false }),
        Form::new("invala.e", &[], Unit::M, "M27", &[(f::OP, 0), (f::X3, 0), (f::X6, 0x13)])
            .ops(&[], &[F1])
            .timing(T::Invala)
            .sem(Sem::InvalaE { fp: true }),
    ]);
}
