//! Execution of the FP load pairs (ldfps, ldfpd, ldfp8) and of the integer multiply-add in the
//! FP unit (xma.l/.lu/.h/.hu and their xmpy pseudo-ops). "SDM V3 xma"/"SDM V3 ldfp" are the
//! instruction pages of the Intel Itanium Architecture Software Developer's Manual rev 2.3
//! vol. 3 (description and pseudo-code). The xma results are checked against Rust's u128/i128
//! arithmetic on pseudo-random operands.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;
use emu_core::rng::Xorshift64;
use helpers::{exec_error, nat, reg, run, run_cfg, wrap};

/// SDM V3 xma: f3 and f4's significands multiplied as 64-bit integers (signed for .l/.h,
/// unsigned for .lu/.hu) into 128 bits, f2's significand zero-extended and added, the low or
/// high 64 bits kept.
fn model(f3: u64, f4: u64, f2: u64, high: bool, unsigned: bool) -> u64 {
    let p = if unsigned {
        u128::from(f3) * u128::from(f4)
    } else {
        (i128::from(f3 as i64) * i128::from(f4 as i64)) as u128
    };
    let s = p.wrapping_add(u128::from(f2));
    if high {
        (s >> 64) as u64
    } else {
        s as u64
    }
}

/// A fixed-seed xorshift generator: the same operands on every run.
fn operands(n: usize) -> Vec<[u64; 3]> {
    let mut rng = Xorshift64::new(0x9E37_79B9_7F4A_7C15);
    let mut next = || rng.next_u64();
    let mut v: Vec<[u64; 3]> = (0..n).map(|_| [next(), next(), next()]).collect();
    // The corners: the most negative and largest operands, and a carry out of the low half.
    v.push([i64::MIN as u64, i64::MIN as u64, u64::MAX]);
    v.push([u64::MAX, u64::MAX, u64::MAX]);
    v.push([u64::MAX, 1, 1]);
    v.push([0, 0, 0]);
    v
}

/// (mnemonic, high, unsigned) of every xma spelling; `.lu` is `.l` in the encoding.
const FORMS: [(&str, bool, bool); 4] =
    [("l", false, false), ("lu", false, true), ("h", true, false), ("hu", true, true)];

/// Every xma and xmpy form on random operands: the significand of the result, exponent
/// 0x1003E and sign 0 (SDM V3 xma: "the exponent field of f1 is set to the biased exponent for
/// 2.0^63 (0x1003E) and the sign field of f1 is set to positive (0)").
#[test]
fn xma_and_xmpy_match_wide_integer_arithmetic() {
    for [a, b, c] in operands(12) {
        let mut body = format!("\tmovl r8={a:#x}\n\tmovl r9={b:#x}\n\tmovl r10={c:#x} ;;\n");
        body += "\tsetf.sig f6=r8\n\tsetf.sig f7=r9\n\tsetf.sig f8=r10 ;;\n";
        for (i, (c, _, _)) in FORMS.iter().enumerate() {
            body += &format!("\txma.{c} f{}=f6,f7,f8\n\txmpy.{c} f{}=f6,f7 ;;\n", 10 + i, 20 + i);
        }
        for i in 0..4 {
            body += &format!("\tgetf.sig r{}=f{} ;;\n\tgetf.sig r{}=f{} ;;\n", 14 + i, 10 + i, 24 + i, 20 + i);
        }
        body += "\tgetf.exp r18=f10 ;;\n\tgetf.exp r19=f23 ;;\n";
        let r = run(&body);
        for (i, (name, high, unsigned)) in FORMS.iter().enumerate() {
            let want = model(a, b, c, *high, *unsigned);
            assert_eq!(reg(&r, &format!("r{}", 14 + i)), want, "xma.{name} {a:#x}*{b:#x}+{c:#x}");
            let want = model(a, b, 0, *high, *unsigned);
            assert_eq!(reg(&r, &format!("r{}", 24 + i)), want, "xmpy.{name} {a:#x}*{b:#x}");
        }
        assert_eq!(reg(&r, "r18"), 0x1003E, "exponent 0x1003E, sign 0 (xma.l)");
        assert_eq!(reg(&r, "r19"), 0x1003E, "exponent 0x1003E, sign 0 (xmpy.hu)");
    }
}

/// The operands are significands whatever the register holds: f1 (+1.0) has the significand
/// 2^63, f0 (+0.0) zero; an FP value with another exponent is read by its significand alone.
#[test]
fn xma_reads_significands_of_any_register() {
    let r = run("\tmovl r8=7 ;;\n\tsetf.sig f6=r8 ;;\n\
        \txma.lu f9=f6,f6,f1 ;;\n\txma.hu f10=f1,f1,f0 ;;\n\txma.h f11=f1,f6,f0 ;;\n\
        \tgetf.sig r14=f9 ;;\n\tgetf.sig r15=f10 ;;\n\tgetf.sig r16=f11 ;;");
    assert_eq!(reg(&r, "r14"), 49 + (1 << 63), "7*7 + significand of f1");
    assert_eq!(reg(&r, "r15"), 1 << 62, "2^63 * 2^63 = 2^126, high half 2^62");
    // Signed: 2^63 is i64::MIN, so the product is -7 * 2^63, whose high half is -4 (two's complement).
    assert_eq!(reg(&r, "r16"), model(1 << 63, 7, 0, true, false));
    assert_eq!(reg(&r, "r16"), (-4i64) as u64);
}

/// SDM V3 xma: a NaTVal in f2, f3 or f4 makes f1 NaTVal; getf.sig of a NaTVal gives a NaT.
#[test]
fn natval_operands_propagate() {
    let r = run("\tmovl r3=0x123450000 ;;\n\tld8.s r9=[r3] ;;\n\tsetf.sig f6=r9\n\tmovl r8=5 ;;\n\
        \tsetf.sig f7=r8 ;;\n\
        \txma.l f10=f6,f7,f7 ;;\n\txma.hu f11=f7,f6,f7 ;;\n\txma.h f12=f7,f7,f6 ;;\n\
        \txmpy.l f13=f7,f7 ;;\n\
        \tgetf.sig r14=f10 ;;\n\tgetf.sig r15=f11 ;;\n\tgetf.sig r16=f12 ;;\n\tgetf.sig r17=f13 ;;");
    for n in ["r14", "r15", "r16"] {
        assert!(nat(&r, n), "{n}: NaTVal operand gives NaTVal");
    }
    assert!(!nat(&r, "r17"));
    assert_eq!(reg(&r, "r17"), 25);
}

/// The predicate holds the whole instruction: a false qp leaves f1 as it was.
#[test]
fn false_predicate_writes_nothing() {
    let r = run("\tmovl r8=3 ;;\n\tsetf.sig f6=r8\n\tsetf.sig f9=r8\n\tcmp.eq p6,p7=r0,r8 ;;\n\
        (p6) xma.l f9=f6,f6,f6 ;;\n(p7) xmpy.lu f10=f6,f6 ;;\n\tgetf.sig r14=f9 ;;\n\tgetf.sig r15=f10 ;;");
    assert_eq!(reg(&r, "r14"), 3);
    assert_eq!(reg(&r, "r15"), 9);
}

/// A 16-byte aligned buffer below the stack pointer in r2 holding, from r2: the f32 bits of
/// 1.5 and -2.25, then the f64 bits of 3.0, then 0x1122334455667788 and 0x99aabbccddeeff00.
const BUFFER: &str = "\tadds r2=-512,r12 ;;\n\tand r2=-16,r2 ;;\n\tmov r3=r2\n\
    \tmovl r8=0xc01000003fc00000 ;;\n\tst8 [r3]=r8,8 ;;\n\
    \tmovl r8=0x4008000000000000 ;;\n\tst8 [r3]=r8,8 ;;\n\
    \tmovl r8=0x1122334455667788 ;;\n\tst8 [r3]=r8,8 ;;\n\
    \tmovl r8=0x99aabbccddeeff00 ;;\n\tst8 [r3]=r8 ;;\n";

/// SDM V3 ldfp: f1 gets the element at the address, f2 the next one, each converted to the
/// register format as ldfs/ldfd/ldf8 convert it; the M12 form adds 8 (ldfps) or 16 (ldfpd,
/// ldfp8) to r3, the M11 form leaves it. Every type and hint loads the same way here.
#[test]
fn pairs_load_both_registers_and_update_the_base() {
    let body = BUFFER.to_string()
        + "\tmov r20=r2\n\tadds r21=8,r2\n\tadds r22=16,r2 ;;\n\
        \tldfps f6,f7=[r20],8 ;;\n\tldfpd.s f9,f8=[r21] ;;\n\tldfp8.c.nc.nta f32,f33=[r22],16 ;;\n\
        \tmov r23=r2 ;;\n\tldfp8.sa.nt1 f11,f10=[r23] ;;\n\
        \tgetf.s r14=f6 ;;\n\tgetf.s r15=f7 ;;\n\tgetf.d r16=f9 ;;\n\tgetf.sig r17=f8 ;;\n\
        \tgetf.sig r18=f32 ;;\n\tgetf.sig r19=f33 ;;\n\tgetf.exp r24=f33 ;;\n\
        \tgetf.sig r25=f11 ;;\n\tgetf.sig r26=f10 ;;";
    let r = run(&body);
    let base = reg(&r, "r2");
    assert_eq!(reg(&r, "r14"), u64::from(1.5f32.to_bits()), "ldfps f1: the first word");
    assert_eq!(reg(&r, "r15"), u64::from((-2.25f32).to_bits()), "ldfps f2: the second word");
    assert_eq!(reg(&r, "r20"), base + 8, "ldfps updates by 8");
    assert_eq!(reg(&r, "r16"), 3.0f64.to_bits(), "ldfpd f1");
    // f8 holds the double with the bits 0x1122334455667788 in register format: its
    // significand is the 52-bit fraction with the explicit integer bit.
    assert_eq!(reg(&r, "r17"), (0x1122334455667788u64 & ((1 << 52) - 1)) << 11 | 1 << 63, "ldfpd f2");
    assert_eq!(reg(&r, "r21"), base + 8, "the M11 form leaves r3");
    assert_eq!(reg(&r, "r18"), 0x1122334455667788, "ldfp8 f1: an integer significand");
    assert_eq!(reg(&r, "r19"), 0x99aabbccddeeff00, "ldfp8 f2");
    assert_eq!(reg(&r, "r24"), 0x1003E, "ldfp8: exponent 0x1003E, sign 0");
    assert_eq!(reg(&r, "r22"), base + 32, "ldfp8 updates by 16");
    assert_eq!(reg(&r, "r25"), 0xc01000003fc00000, "f1 odd, f2 even works as well");
    assert_eq!(reg(&r, "r26"), 0x4008000000000000);
}

/// SDM V3 ldfp: f1 and f2 both odd or both even (same bank) is an Illegal Operation, as is a
/// target f0 or f1, raised before the memory is touched (the address r0 = 0 is unmapped); so is
/// the base update of r0.
/// GNU as only warns ("Invalid simultaneous use"), so such code assembles and must stop here.
#[test]
fn same_bank_or_constant_targets_are_illegal_operations() {
    for body in [
        "\tldfps f6,f8=[r0] ;;",
        "\tldfpd f7,f9=[r0],16 ;;",
        "\tldfp8 f1,f2=[r0] ;;",
        "\tldfps f3,f0=[r0] ;;",
        "\tldfps f6,f7=[r0],8 ;;",
    ] {
        match exec_error(body, &RunConfig::default()) {
            ExecError::Unhandled { vector, what, .. } => {
                assert_eq!(vector, 0x5400, "general exception for {body}: {what}");
                assert!(what.contains("illegal operation"), "{body}: {what}");
            }
            other => panic!("expected an illegal operation for {body}, got {other:?}"),
        }
    }
}

/// A NaT base is Register NaT Consumption, as for ldf.
#[test]
fn nat_base_is_register_nat_consumption() {
    let body = "\tmovl r3=0x123450000 ;;\n\tld8.s r9=[r3] ;;\n\tldfpd f6,f7=[r9] ;;";
    match exec_error(body, &RunConfig::default()) {
        ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5600),
        other => panic!("expected an unhandled NaT consumption, got {other:?}"),
    }
}

/// The pair is one access of twice the element size: with PSR.ac set, ldfpd/ldfp8 need 16-byte
/// alignment and ldfps 8 (an 8-aligned ldfpd faults, an 8-aligned ldfps does not); with PSR.ac
/// clear the same ldfpd loads.
#[test]
fn alignment_is_the_pair_size_under_psr_ac() {
    let psr = 1u64 << 44 | 1 << 3;
    let ac = RunConfig { sets: vec![("psr".to_string(), format!("{psr:#x}"))], ..RunConfig::default() };
    let ok = BUFFER.to_string() + "\tadds r3=8,r2 ;;\n\tldfps f6,f7=[r3] ;;\n\tgetf.s r14=f6 ;;";
    let r = run_cfg(&wrap(&ok), &ac);
    assert_eq!(reg(&r, "r14"), 0x4008000000000000 & 0xffff_ffff, "ldfps at 8 mod 16 is aligned");
    let bad = BUFFER.to_string() + "\tadds r3=8,r2 ;;\n\tldfpd f6,f7=[r3] ;;";
    match exec_error(&bad, &ac) {
        ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5a00, "unaligned reference"),
        other => panic!("expected an unaligned reference, got {other:?}"),
    }
    let r = run(&(bad + "\tgetf.d r14=f6 ;;"));
    assert_eq!(reg(&r, "r14"), 3.0f64.to_bits(), "PSR.ac clear: no alignment check");
}
