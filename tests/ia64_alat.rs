//! The ALAT and speculation (memory forms, issue 12): advanced loads allocate, check loads
//! reload only on a miss, `chk.a` branches to recovery on a miss, every store size and the
//! semaphores remove overlapping entries, `invala`/`invala.e` remove entries, capacity evicts
//! the oldest, `.sa`/`ldf.s` defer faults. "SDM V1 4.4.5" is the Intel Itanium Architecture
//! Software Developer's Manual rev 2.3 vol. 1 section on data speculation.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;
use helpers::{exec_error, nat, reg, run};

/// Sets up r2 = a stack buffer holding 0x1111 at [r2] and 0x2222 at [r2+8].
const SETUP: &str = "\tadds r2=-512,r12\n\tmov r3=0x1111\n\tmov r4=0x2222 ;;\n\
    \tst8 [r2]=r3\n\tadds r5=8,r2 ;;\n\tst8 [r5]=r4 ;;\n";

/// SDM V1 4.4.5: ld.a loads and allocates; a check load that hits does not reload (the new
/// memory value is not seen); one that misses reloads.
#[test]
fn check_load_hits_keep_the_value_and_misses_reload() {
    let r = run(&format!(
        "{SETUP}\tld8.a r8=[r2] ;;\n\
        \tmov r8=77 ;;\n\
        \tld8.c.nc r8=[r2] ;;\n\
        \tld8.c.clr r9=[r2] ;;\n\
        \tld8.a r10=[r2] ;;\n\tmov r10=5 ;;\n\tld8.c.clr r10=[r2] ;;\n\tmov r10=6 ;;\n\tld8.c.clr r10=[r2] ;;"
    ));
    assert_eq!(reg(&r, "r8"), 77, "ld8.c.nc hit: nothing loaded");
    assert_eq!(reg(&r, "r9"), 0x1111, "r9 had no entry: the check load reloads");
    assert_eq!(reg(&r, "r10"), 0x1111, "ld.c.clr hit removed the entry, so the second check reloads");
}

/// SDM V1 4.4.5: a store overlapping the advanced load's bytes removes its entry, whatever
/// its size; a store next to them does not.
#[test]
fn overlapping_stores_of_every_size_invalidate() {
    for (st, off, hit) in [
        ("st1", 0, false),
        ("st1", 7, false),
        ("st1", 8, true),
        ("st2", 6, false),
        ("st4", 4, false),
        ("st8", 0, false),
        ("st8", 8, true),
        ("st8", -8i32, true),
        ("st4.rel", 0, false),
        ("st8.spill", 0, false),
    ] {
        let r = run(&format!(
            "{SETUP}\tadds r6={off},r2\n\tmov r7=0x33 ;;\n\tld8.a r8=[r2] ;;\n\tmov r8=1 ;;\n\t{st} [r6]=r7 ;;\n\
            \tld8.c.nc r8=[r2] ;;"
        ));
        let kept = reg(&r, "r8") == 1;
        assert_eq!(kept, hit, "{st} at offset {off}: entry kept = {kept}");
    }
    // FP stores, semaphores and the 16-byte forms.
    for store in [
        "stf8 [r2]=f1",
        "stfe [r2]=f1",
        "xchg8 r9=[r2],r0",
        "fetchadd8.acq r9=[r2],1",
        "mov ar.ccv=r3 ;;\n\tcmpxchg8.acq r9=[r2],r0,ar.ccv",
        "st16 [r2]=r0,ar.csd",
    ] {
        let r = run(&format!("{SETUP}\tld8.a r8=[r2] ;;\n\tmov r8=1 ;;\n\t{store} ;;\n\tld8.c.nc r8=[r2] ;;"));
        assert_ne!(reg(&r, "r8"), 1, "{store} invalidates the entry");
    }
    // A cmpxchg that fails the compare writes nothing and keeps the entry.
    let r = run(&format!(
        "{SETUP}\tld8.a r8=[r2] ;;\n\tmov r8=1\n\tmov ar.ccv=r0 ;;\n\tcmpxchg8.acq r9=[r2],r0,ar.ccv ;;\n\tld8.c.nc r8=[r2] ;;"
    ));
    assert_eq!(reg(&r, "r8"), 1, "a failed cmpxchg keeps the entry");
}

/// SDM V3 chk.a: a miss branches to the recovery code; a hit falls through, and `.clr` then
/// removes the entry so a second chk.a.clr misses.
#[test]
fn chk_a_branches_on_a_miss() {
    let r = run(&format!(
        "{SETUP}\tmov r20=0\n\tld8.a r8=[r2] ;;\n\
        \tchk.a.nc r8,.Lrec1 ;;\n\tadds r20=1,r20 ;;\n.Lrec1:\n\
        \tchk.a.clr r8,.Lrec2 ;;\n\tadds r20=2,r20 ;;\n.Lrec2:\n\
        \tchk.a.clr r8,.Lrec3 ;;\n\tadds r20=4,r20 ;;\n.Lrec3:\n\
        \tldfd.a f6=[r2] ;;\n\tchk.a.nc f6,.Lrec4 ;;\n\tadds r20=8,r20 ;;\n.Lrec4:\n\
        \tinvala.e f6 ;;\n\tchk.a.nc f6,.Lrec5 ;;\n\tadds r20=16,r20 ;;\n.Lrec5:\n\
        \tld8.a r9=[r2] ;;\n\tinvala.e r9 ;;\n\tchk.a.nc r9,.Lrec6 ;;\n\tadds r20=32,r20 ;;\n.Lrec6:\n\
        \tld8.a r9=[r2]\n\tldf8.a f7=[r2] ;;\n\tinvala ;;\n\tchk.a.nc r9,.Lrec7 ;;\n\tadds r20=64,r20 ;;\n.Lrec7:\n\
        \tchk.a.nc f7,.Lrec8 ;;\n\tadds r20=128,r20 ;;\n.Lrec8:\n\tnop.m 0 ;;"
    ));
    assert_eq!(reg(&r, "r20"), 1 | 2 | 8, "hits fell through, misses branched");
}

/// GUESS parameter ALAT_ENTRIES (32): the 33rd advanced load evicts the oldest entry. (r33 is
/// checked first: r32's missing `.c.nc` allocates again and would evict r33's, the next oldest.)
#[test]
fn capacity_evicts_the_oldest_entry() {
    let mut body = String::from(SETUP);
    // 33 entries on r32..r64 (a frame of 42 locals after alloc).
    body.push_str("\talloc r73=ar.pfs,0,42,0,0 ;;\n");
    for n in 32..=64 {
        body.push_str(&format!("\tld8.a r{n}=[r2] ;;\n"));
    }
    body.push_str("\tmov r32=9\n\tmov r33=9 ;;\n\tld8.c.nc r33=[r2] ;;\n\tld8.c.nc r32=[r2] ;;\n\tmov r8=r32\n\tmov r9=r33 ;;\n\tmov ar.pfs=r73 ;;");
    let r = run(&body);
    assert_eq!(reg(&r, "r8"), 0x1111, "r32's entry (the oldest) was evicted: reload");
    assert_eq!(reg(&r, "r9"), 9, "r33's entry survived: no reload");
}

/// SDM V1 4.4.5 / V3 ld: `ld.sa` defers a fault (an unmapped address) into the target's NaT
/// and allocates nothing, so the check load reloads; `ld.a` of the same address faults; `ldf.s`
/// of it gives NaTVal, which chk.s detects.
#[test]
fn speculative_advanced_loads_defer_faults() {
    let r = run("\tmovl r3=0x123450000 ;;\n\tld8.sa r8=[r3] ;;\n\tmov r20=0\n\
        \tchk.a.nc r8,.Lmiss ;;\n\tadds r20=1,r20 ;;\n.Lmiss:\n\
        \tldfd.s f6=[r3] ;;\n\tchk.s f6,.Lnat ;;\n\tadds r20=2,r20 ;;\n.Lnat:\n\
        \tldfs.sa f7=[r3] ;;\n\tchk.s f7,.Lnat2 ;;\n\tadds r20=4,r20 ;;\n.Lnat2:\n\tnop.m 0 ;;");
    assert!(nat(&r, "r8"), "the deferred fault is r8's NaT");
    assert_eq!(reg(&r, "r20"), 0, "no entry (chk.a branched), NaTVals (chk.s branched)");
    match exec_error("\tmovl r3=0x123450000 ;;\n\tld8.a r8=[r3] ;;", &RunConfig::default()) {
        ExecError::Memory { .. } => {}
        other => panic!("ld.a does not defer: expected a memory fault, got {other:?}"),
    }
}

/// SDM V3 ld: a NaT address is Register NaT Consumption for ld.a and the check loads that
/// miss, deferred for ld.sa.
#[test]
fn nat_addresses_fault_unless_speculative() {
    let nat_r9 = "\tmovl r3=0x123450000 ;;\n\tld8.s r9=[r3] ;;\n";
    for ld in ["ld8.a r8=[r9]", "ld4.c.nc r8=[r9]", "ld8.c.clr.acq r8=[r9]", "ldfd.a f6=[r9]", "ldfs.c.clr f6=[r9]"] {
        match exec_error(&format!("{nat_r9}\t{ld} ;;"), &RunConfig::default()) {
            ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5600, "{ld}"),
            other => panic!("{ld}: expected NaT consumption, got {other:?}"),
        }
    }
    let r = run(&format!("{nat_r9}\tld8.sa r8=[r9] ;;\n\tldfd.s f6=[r9] ;;\n\tgetf.sig r10=f6 ;;"));
    assert!(nat(&r, "r8"), "ld.sa defers the NaT address");
    assert!(nat(&r, "r10"), "ldf.s gives NaTVal (getf.sig of it is a NaT)");
}

/// PSR.ed (bit 43): a speculative load defers without accessing memory, so even a mapped
/// address gives a NaT (ld.s, ld.sa, which then allocates nothing) or NaTVal (ldf.s); the
/// non-speculative ld.a still loads.
#[test]
fn psr_ed_defers_speculative_loads() {
    let src = format!(
        "{SETUP}\tld8.s r8=[r2]\n\tld8.sa r9=[r2]\n\tldfd.s f6=[r2]\n\tld8.a r10=[r2] ;;\n\tmov r20=0 ;;\n\
        \tchk.a.nc r9,.Lm ;;\n\tadds r20=1,r20 ;;\n.Lm:\n\tgetf.sig r11=f6 ;;"
    );
    let psr = 1u64 << 44 | 1 << 43;
    let cfg = RunConfig { sets: vec![("psr".to_string(), format!("{psr:#x}"))], ..RunConfig::default() };
    let r = helpers::run_cfg(&helpers::wrap(&src), &cfg);
    assert_eq!(r.stop, "returned to the sentinel");
    assert!(nat(&r, "r8"), "ld.s deferred");
    assert!(nat(&r, "r9"), "ld.sa deferred");
    assert_eq!(reg(&r, "r20"), 0, "the deferred ld.sa allocated nothing");
    assert!(nat(&r, "r11"), "ldf.s gave NaTVal");
    assert_eq!(reg(&r, "r10"), 0x1111, "ld.a is not speculative");
    assert!(!nat(&r, "r10"));
}
