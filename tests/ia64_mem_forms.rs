//! ld16/st16 with ar.csd and cmp8xchg16 (memory forms, issue 12), per SDM V3 ld/st/cmpxchg
//! (rev 2.3 vol. 3): values, the fixed alignments and NaT consumption.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;
use helpers::{exec_error, nat, reg, run};

/// r2 = a 16-byte aligned stack buffer.
const BUF: &str = "\tadds r2=-512,r12 ;;\n\tadds r2=15,r2 ;;\n\tand r2=-16,r2 ;;\n";

/// st16 stores r2 then ar.csd; ld16 loads the low 8 bytes into r1 and the high 8 into ar.csd.
#[test]
fn ld16_and_st16_move_sixteen_bytes() {
    let r = run(&format!(
        "{BUF}\tmovl r3=0x0123456789abcdef\n\tmovl r4=0xfedcba9876543210 ;;\n\tmov ar.csd=r4 ;;\n\
        \tst16.rel [r2]=r3,ar.csd ;;\n\tmov ar.csd=r0 ;;\n\
        \tld8 r5=[r2],8 ;;\n\tld8 r6=[r2],-8 ;;\n\
        \tld16.acq r8,ar.csd=[r2] ;;\n\tmov r9=ar.csd ;;"
    ));
    assert_eq!(reg(&r, "r5"), 0x0123_4567_89ab_cdef, "r2 at the address");
    assert_eq!(reg(&r, "r6"), 0xfedc_ba98_7654_3210, "ar.csd at address + 8");
    assert_eq!(reg(&r, "r8"), 0x0123_4567_89ab_cdef);
    assert_eq!(reg(&r, "r9"), 0xfedc_ba98_7654_3210);
    assert!(!nat(&r, "r8"));
}

/// cmp8xchg16: the 8 bytes at r3 are compared with ar.ccv; when equal, r2 goes to r3 & ~8 and
/// ar.csd to (r3 & ~8) + 8; r1 gets the old 8 bytes either way.
#[test]
fn cmp8xchg16_compares_eight_and_writes_sixteen() {
    let r = run(&format!(
        "{BUF}\tmov r3=0x11\n\tmov r4=0x22 ;;\n\tst8 [r2]=r3\n\tadds r5=8,r2 ;;\n\tst8 [r5]=r4 ;;\n\
        \tmov ar.ccv=r4\n\tmov r6=0x66\n\tmov r7=0x77 ;;\n\tmov ar.csd=r7 ;;\n\
        \tcmp8xchg16.acq r8=[r5],r6,ar.csd,ar.ccv ;;\n\
        \tld8 r10=[r2]\n\tld8 r11=[r5] ;;\n\
        \tcmp8xchg16.rel r9=[r2],r0,ar.csd,ar.ccv ;;\n\tld8 r12=[r2] ;;"
    ));
    assert_eq!(reg(&r, "r8"), 0x22, "old value at r3 (= base + 8)");
    assert_eq!(reg(&r, "r10"), 0x66, "r2 stored at r3 & ~8");
    assert_eq!(reg(&r, "r11"), 0x77, "ar.csd stored at (r3 & ~8) + 8");
    assert_eq!(reg(&r, "r9"), 0x66, "second compare (0x66 vs 0x22) fails: old value");
    assert_eq!(reg(&r, "r12"), 0x66, "nothing written");
}

/// ld16/st16 need 16-byte alignment and cmp8xchg16 8-byte alignment whatever PSR.ac
/// (Unaligned Data Reference, vector 0x5a00); a NaT store value is Register NaT Consumption.
#[test]
fn alignment_and_nat_faults() {
    for (body, vector) in [
        ("\tadds r3=8,r2 ;;\n\tld16 r8,ar.csd=[r3] ;;", 0x5a00),
        ("\tadds r3=8,r2 ;;\n\tst16 [r3]=r0,ar.csd ;;", 0x5a00),
        ("\tadds r3=4,r2 ;;\n\tcmp8xchg16.acq r8=[r3],r0,ar.csd,ar.ccv ;;", 0x5a00),
        ("\tmovl r3=0x123450000 ;;\n\tld8.s r9=[r3] ;;\n\tst16 [r2]=r9,ar.csd ;;", 0x5600),
        ("\tmovl r3=0x123450000 ;;\n\tld8.s r9=[r3] ;;\n\tld16 r8,ar.csd=[r9] ;;", 0x5600),
    ] {
        match exec_error(&format!("{BUF}{body}"), &RunConfig::default()) {
            ExecError::Unhandled { vector: v, .. } => assert_eq!(v, vector, "{body}"),
            other => panic!("{body}: expected vector {vector:#x}, got {other:?}"),
        }
    }
    // cmp8xchg16 at an 8-byte (not 16-byte) boundary is fine.
    let r = run(&format!("{BUF}\tadds r3=8,r2 ;;\n\tmov ar.ccv=r0 ;;\n\tcmp8xchg16.acq r8=[r3],r0,ar.csd,ar.ccv ;;"));
    assert!(!nat(&r, "r8"));
}

/// GUESS parameter UNALIGNED_HW_LINE (64): with PSR.ac = 0 a misaligned ordinary access
/// within one 64-byte line completes, one crossing a line raises Unaligned Data Reference;
/// with PSR.ac = 1 (bit 3) both fault.
#[test]
fn misaligned_accesses_within_and_across_a_line() {
    // r2 = a 64-byte aligned buffer.
    let line = "\tadds r2=-512,r12 ;;\n\tadds r2=63,r2 ;;\n\tand r2=-64,r2 ;;\n";
    let r = run(&format!("{line}\tadds r3=4,r2\n\tmovl r4=0x1122334455667788 ;;\n\tst8 [r3]=r4 ;;\n\tld8 r8=[r3] ;;"));
    assert_eq!(reg(&r, "r8"), 0x1122_3344_5566_7788, "within a line: done in hardware");
    match exec_error(&format!("{line}\tadds r3=60,r2 ;;\n\tld8 r8=[r3] ;;"), &RunConfig::default()) {
        ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5a00, "crossing a line"),
        other => panic!("expected an unaligned reference, got {other:?}"),
    }
    let psr = 1u64 << 44 | 1 << 3;
    let cfg = RunConfig { sets: vec![("psr".to_string(), format!("{psr:#x}"))], ..RunConfig::default() };
    match exec_error(&format!("{line}\tadds r3=4,r2 ;;\n\tld8 r8=[r3] ;;"), &cfg) {
        ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5a00, "PSR.ac"),
        other => panic!("expected an unaligned reference, got {other:?}"),
    }
}
