//! Multimedia rows (issue 12): the parallel ALU forms of the A unit (A9, A10) and the
//! multimedia multiply, shift, mix, pack, permute and count forms of the I unit (I1-I9), plus
//! the compute-zero-index forms (I29) and test feature (I30), I-unit forms gas has that no
//! other row file holds. Encodings from SDM vol. 3 section 4.2.2 and 4.3.1; the
//! set of forms is GNU as 2.40's (binutils `opcodes/ia64-opc-a.c` and `ia64-opc-i.c`), which
//! includes the later `clz`, `mpy4` and `mpyshl4`.
//!
//! Timing classes: reference `itanium2-timing.md` sections 1, 2 and 5 ([GCC] mmalua, mmshf,
//! mmshfi and mmmul; [KAPI] I0/I1 for MM ALU/shift, I0 only for pmpy/popcnt). Which GCC
//! class the I2 min/max/sad forms belong to is not in the reference; they take the MM ALU
//! class, whose latency equals the MM shift class's.

use super::field::{f, Field};
use super::{Form, OpKind::*, Sem, TimingClass as T, Unit};
use crate::exec::mm::{MmOp as M, Sat};
use crate::exec::op::CmpType as Ct;

const fn mm(op: M) -> Sem {
    Sem::Mm(op)
}

/// A9/A10 `za` (bit 36) and I1-I9 `za`.
const ZA: Field = f::BIT36;
/// A9/A10 and I1-I9 `zb` (bit 33).
const ZB: Field = f::ZB;

/// An A9 row: (za, zb) give the element size, x4 the operation, x2b the saturation.
fn a9(name: &'static str, za: u64, zb: u64, x4: u64, x2b: u64) -> Form {
    Form::new(name, &[], Unit::A, "A9", &[(f::OP, 8), (f::X2A, 1), (ZA, za), (ZB, zb), (f::X4A, x4), (f::X2B, x2b)])
        .ops(&[R1], &[R2, R3])
        .timing(T::MmAlu)
}

/// An A10 row (pshladd2/pshradd2): the count sits where A9 has x2b.
fn a10(name: &'static str, x4: u64) -> Form {
    Form::new(name, &[], Unit::A, "A10", &[(f::OP, 8), (f::X2A, 1), (ZA, 0), (ZB, 1), (f::X4A, x4)])
        .ops(&[R1], &[R2, Cnt2Shladd, R3])
        .timing(T::MmAlu)
}

/// An I1-I9 row of major opcode 7 with za, zb, ve, x2a, x2b and (unless `None`: pmpyshr2's
/// count lives there) x2c fixed.
fn i7(name: &'static str, format: &'static str, zazb: (u64, u64), x2a: u64, x2b: u64, x2c: Option<u64>) -> Form {
    let (za, zb) = zazb;
    let form = Form::new(
        name,
        &[],
        Unit::I,
        format,
        &[(f::OP, 7), (ZA, za), (ZB, zb), (f::VE32, 0), (f::X2A, x2a), (f::X2B_SH, x2b)],
    );
    match x2c {
        Some(v) => form.pin(f::X2C, v),
        None => form,
    }
}

/// Element size to (za, zb): 1 = (0, 0), 2 = (0, 1), 4 = (1, 0); (1, 1) is the 64-bit shifts.
const B1: (u64, u64) = (0, 0);
const B2: (u64, u64) = (0, 1);
const B4: (u64, u64) = (1, 0);

/// The padd (x4 0) and psub (x4 1) rows: name, (za, zb), x2b.
type AddSubRow = (&'static str, (u64, u64), u64, u8, Sat);
const ADD_SUB_NAMES: [[AddSubRow; 9]; 2] = [
    [
        ("padd1", B1, 0, 1, Sat::Modulo),
        ("padd2", B2, 0, 2, Sat::Modulo),
        ("padd4", B4, 0, 4, Sat::Modulo),
        ("padd1.sss", B1, 1, 1, Sat::Sss),
        ("padd2.sss", B2, 1, 2, Sat::Sss),
        ("padd1.uuu", B1, 2, 1, Sat::Uuu),
        ("padd2.uuu", B2, 2, 2, Sat::Uuu),
        ("padd1.uus", B1, 3, 1, Sat::Uus),
        ("padd2.uus", B2, 3, 2, Sat::Uus),
    ],
    [
        ("psub1", B1, 0, 1, Sat::Modulo),
        ("psub2", B2, 0, 2, Sat::Modulo),
        ("psub4", B4, 0, 4, Sat::Modulo),
        ("psub1.sss", B1, 1, 1, Sat::Sss),
        ("psub2.sss", B2, 1, 2, Sat::Sss),
        ("psub1.uuu", B1, 2, 1, Sat::Uuu),
        ("psub2.uuu", B2, 2, 2, Sat::Uuu),
        ("psub1.uus", B1, 3, 1, Sat::Uus),
        ("psub2.uus", B2, 3, 2, Sat::Uus),
    ],
];

/// Appends the multimedia rows.
pub(super) fn list(out: &mut Vec<Form>) {
    // A9 padd/psub by (za, zb) and x2b: 0 modulo, 1 sss, 2 uuu, 3 uus (no saturating 4-byte forms).
    for (x4, names) in [(0, &ADD_SUB_NAMES[0]), (1, &ADD_SUB_NAMES[1])] {
        for &(name, (za, zb), x2b, size, sat) in names.iter() {
            let op = if x4 == 0 { M::Add { size, sat } } else { M::Sub { size, sat } };
            out.push(a9(name, za, zb, x4, x2b).sem(mm(op)));
        }
    }
    out.extend([
        a9("pavg1", 0, 0, 2, 2).sem(mm(M::Avg { size: 1, raz: false })),
        a9("pavg2", 0, 1, 2, 2).sem(mm(M::Avg { size: 2, raz: false })),
        a9("pavg1.raz", 0, 0, 2, 3).sem(mm(M::Avg { size: 1, raz: true })),
        a9("pavg2.raz", 0, 1, 2, 3).sem(mm(M::Avg { size: 2, raz: true })),
        a9("pavgsub1", 0, 0, 3, 2).sem(mm(M::AvgSub { size: 1 })),
        a9("pavgsub2", 0, 1, 3, 2).sem(mm(M::AvgSub { size: 2 })),
        a9("pcmp1.eq", 0, 0, 9, 0).sem(mm(M::Cmp { size: 1, gt: false })),
        a9("pcmp2.eq", 0, 1, 9, 0).sem(mm(M::Cmp { size: 2, gt: false })),
        a9("pcmp4.eq", 1, 0, 9, 0).sem(mm(M::Cmp { size: 4, gt: false })),
        a9("pcmp1.gt", 0, 0, 9, 1).sem(mm(M::Cmp { size: 1, gt: true })),
        a9("pcmp2.gt", 0, 1, 9, 1).sem(mm(M::Cmp { size: 2, gt: true })),
        a9("pcmp4.gt", 1, 0, 9, 1).sem(mm(M::Cmp { size: 4, gt: true })),
        a10("pshladd2", 4).sem(mm(M::ShlAdd)),
        a10("pshradd2", 6).sem(mm(M::ShrAdd)),
    ]);
    let rrr = |form: Form, class: T| form.ops(&[R1], &[R2, R3]).timing(class);
    out.extend([
        // I1: the count (0, 7, 15, 16) is x2c.
        i7("pmpyshr2", "I1", B2, 0, 3, None)
            .ops(&[R1], &[R2, R3, Cnt2Pmpy])
            .timing(T::MmMul)
            .sem(mm(M::MpyShr { unsigned: false })),
        i7("pmpyshr2.u", "I1", B2, 0, 1, None)
            .ops(&[R1], &[R2, R3, Cnt2Pmpy])
            .timing(T::MmMul)
            .sem(mm(M::MpyShr { unsigned: true })),
        // I2.
        rrr(i7("pmpy2.r", "I2", B2, 2, 1, Some(3)), T::MmMul).sem(mm(M::Mpy { left: false })),
        rrr(i7("pmpy2.l", "I2", B2, 2, 3, Some(3)), T::MmMul).sem(mm(M::Mpy { left: true })),
        rrr(i7("mix1.r", "I2", B1, 2, 0, Some(2)), T::MmShift).sem(mm(M::Mix { size: 1, left: false })),
        rrr(i7("mix2.r", "I2", B2, 2, 0, Some(2)), T::MmShift).sem(mm(M::Mix { size: 2, left: false })),
        rrr(i7("mix4.r", "I2", B4, 2, 0, Some(2)), T::MmShift).sem(mm(M::Mix { size: 4, left: false })),
        rrr(i7("mix1.l", "I2", B1, 2, 2, Some(2)), T::MmShift).sem(mm(M::Mix { size: 1, left: true })),
        rrr(i7("mix2.l", "I2", B2, 2, 2, Some(2)), T::MmShift).sem(mm(M::Mix { size: 2, left: true })),
        rrr(i7("mix4.l", "I2", B4, 2, 2, Some(2)), T::MmShift).sem(mm(M::Mix { size: 4, left: true })),
        rrr(i7("pack2.uss", "I2", B2, 2, 0, Some(0)), T::MmShift).sem(mm(M::Pack { size: 2, unsigned: true })),
        rrr(i7("pack2.sss", "I2", B2, 2, 2, Some(0)), T::MmShift).sem(mm(M::Pack { size: 2, unsigned: false })),
        rrr(i7("pack4.sss", "I2", B4, 2, 2, Some(0)), T::MmShift).sem(mm(M::Pack { size: 4, unsigned: false })),
        rrr(i7("unpack1.h", "I2", B1, 2, 0, Some(1)), T::MmShift).sem(mm(M::Unpack { size: 1, high: true })),
        rrr(i7("unpack2.h", "I2", B2, 2, 0, Some(1)), T::MmShift).sem(mm(M::Unpack { size: 2, high: true })),
        rrr(i7("unpack4.h", "I2", B4, 2, 0, Some(1)), T::MmShift).sem(mm(M::Unpack { size: 4, high: true })),
        rrr(i7("unpack1.l", "I2", B1, 2, 2, Some(1)), T::MmShift).sem(mm(M::Unpack { size: 1, high: false })),
        rrr(i7("unpack2.l", "I2", B2, 2, 2, Some(1)), T::MmShift).sem(mm(M::Unpack { size: 2, high: false })),
        rrr(i7("unpack4.l", "I2", B4, 2, 2, Some(1)), T::MmShift).sem(mm(M::Unpack { size: 4, high: false })),
        rrr(i7("pmin1.u", "I2", B1, 2, 1, Some(0)), T::MmAlu).sem(mm(M::Min { size: 1 })),
        rrr(i7("pmax1.u", "I2", B1, 2, 1, Some(1)), T::MmAlu).sem(mm(M::Max { size: 1 })),
        rrr(i7("pmin2", "I2", B2, 2, 3, Some(0)), T::MmAlu).sem(mm(M::Min { size: 2 })),
        rrr(i7("pmax2", "I2", B2, 2, 3, Some(1)), T::MmAlu).sem(mm(M::Max { size: 2 })),
        rrr(i7("psad1", "I2", B1, 2, 3, Some(2)), T::MmAlu).sem(mm(M::Sad)),
        // I3/I4.
        i7("mux1", "I3", B1, 3, 2, Some(2)).ops(&[R1], &[R2, Mbtype4]).timing(T::MmShift).sem(mm(M::Mux1)),
        i7("mux2", "I4", B2, 3, 2, Some(2)).ops(&[R1], &[R2, Mhtype8]).timing(T::MmShift).sem(mm(M::Mux2)),
        // I5: shift right by r2 (the value is r3).
        i7("pshr2", "I5", B2, 0, 2, Some(0)).ops(&[R1], &[R3, R2]).timing(T::MmShift).sem(mm(M::Shr {
            size: 2,
            unsigned: false,
            imm: false,
        })),
        i7("pshr4", "I5", B4, 0, 2, Some(0)).ops(&[R1], &[R3, R2]).timing(T::MmShift).sem(mm(M::Shr {
            size: 4,
            unsigned: false,
            imm: false,
        })),
        i7("pshr2.u", "I5", B2, 0, 0, Some(0)).ops(&[R1], &[R3, R2]).timing(T::MmShift).sem(mm(M::Shr {
            size: 2,
            unsigned: true,
            imm: false,
        })),
        i7("pshr4.u", "I5", B4, 0, 0, Some(0)).ops(&[R1], &[R3, R2]).timing(T::MmShift).sem(mm(M::Shr {
            size: 4,
            unsigned: true,
            imm: false,
        })),
        // I6: shift right by an immediate.
        i7("pshr2", "I6", B2, 1, 3, Some(0)).ops(&[R1], &[R3, Cnt5]).timing(T::MmShiftImm).sem(mm(M::Shr {
            size: 2,
            unsigned: false,
            imm: true,
        })),
        i7("pshr4", "I6", B4, 1, 3, Some(0)).ops(&[R1], &[R3, Cnt5]).timing(T::MmShiftImm).sem(mm(M::Shr {
            size: 4,
            unsigned: false,
            imm: true,
        })),
        i7("pshr2.u", "I6", B2, 1, 1, Some(0)).ops(&[R1], &[R3, Cnt5]).timing(T::MmShiftImm).sem(mm(M::Shr {
            size: 2,
            unsigned: true,
            imm: true,
        })),
        i7("pshr4.u", "I6", B4, 1, 1, Some(0)).ops(&[R1], &[R3, Cnt5]).timing(T::MmShiftImm).sem(mm(M::Shr {
            size: 4,
            unsigned: true,
            imm: true,
        })),
        // I7: shift left by r3 (the value is r2).
        rrr(i7("pshl2", "I7", B2, 0, 0, Some(1)), T::MmShift).sem(mm(M::Shl { size: 2, imm: false })),
        rrr(i7("pshl4", "I7", B4, 0, 0, Some(1)), T::MmShift).sem(mm(M::Shl { size: 4, imm: false })),
        // The 32 x 32 multiplies of the Itanium 9500 (gas 2.40 knows them; I2 layout).
        rrr(i7("mpy4", "I2", B4, 0, 1, Some(3)), T::MmMul).sem(mm(M::Mpy4 { shl: false })),
        rrr(i7("mpyshl4", "I2", B4, 0, 3, Some(3)), T::MmMul).sem(mm(M::Mpy4 { shl: true })),
        // I8: shift left by an immediate (encoded as 31 - count).
        i7("pshl2", "I8", B2, 3, 1, Some(1))
            .ops(&[R1], &[R2, CCnt5])
            .timing(T::MmShiftImm)
            .sem(mm(M::Shl { size: 2, imm: true })),
        i7("pshl4", "I8", B4, 3, 1, Some(1))
            .ops(&[R1], &[R2, CCnt5])
            .timing(T::MmShiftImm)
            .sem(mm(M::Shl { size: 4, imm: true })),
        // I9: population count and (Itanium 9500) count leading zeros.
        i7("popcnt", "I9", B2, 1, 1, Some(2)).ops(&[R1], &[R3]).timing(T::MmMul).sem(mm(M::Popcnt)),
        i7("clz", "I9", B2, 1, 1, Some(3)).ops(&[R1], &[R3]).timing(T::MmMul).sem(mm(M::Clz)),
    ]);
    // I30 tf: the test-feature relations, by (tb, ta, c) as tbit's (gas 2.40; later processors).
    for (tb, ta, c, name, ctype) in [
        (0, 0, 0, "tf.z", Ct::Normal),
        (0, 0, 1, "tf.z.unc", Ct::Unc),
        (1, 0, 0, "tf.z.and", Ct::And),
        (1, 0, 1, "tf.nz.and", Ct::And),
        (0, 1, 0, "tf.z.or", Ct::Or),
        (0, 1, 1, "tf.nz.or", Ct::Or),
        (1, 1, 0, "tf.z.or.andcm", Ct::OrAndcm),
        (1, 1, 1, "tf.nz.or.andcm", Ct::OrAndcm),
    ] {
        let fixed =
            [(f::OP, 5), (f::X2I, 0), (f::BIT36, tb), (f::TA, ta), (f::C, c), (f::Y13, 1), (Field::new(19, 1), 1)];
        out.push(
            Form::new(name, &[], Unit::I, "I30", &fixed)
                .ops(&[P1, P2], &[ImmU5Tf])
                .timing(T::Tbit)
                .sem(mm(M::Tf { ctype })),
        );
    }
    // I29: compute zero index, with the extensions' layout (op 0, x3 0, x6) and class xtd.
    for (name, x6, size, left) in
        [("czx1.l", 0x18, 1, true), ("czx2.l", 0x19, 2, true), ("czx1.r", 0x1c, 1, false), ("czx2.r", 0x1d, 2, false)]
    {
        out.push(
            Form::new(name, &[], Unit::I, "I29", &[(f::OP, 0), (f::X3, 0), (f::X6, x6)])
                .ops(&[R1], &[R3])
                .timing(T::Extend)
                .sem(mm(M::Czx { size, left })),
        );
    }
}
