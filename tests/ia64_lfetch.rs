//! lfetch execution: a prefetch hint whose only architectural effects are the base update of
//! the `[r3],r2` and `[r3],imm9` forms and, for `lfetch.fault`, the faults a load would raise.
//! "SDM V3 lfetch" is the instruction page of the Intel Itanium Architecture Software
//! Developer's Manual rev 2.3 vol. 3 (description and pseudo-code); "ref §N" a section of
//! /work/shared/reference/ia64-system.md.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;
use emu_core::memory::FaultKind;
use helpers::{exec_error, nat, reg, run, run_cfg, symbol, with_harness, wrap};

/// An address no default-harness region covers.
const UNMAPPED: &str = "0x123450000";

/// Makes r9 a NaT (a speculative load of an unmapped address defers its fault, ref §6).
fn nat_r9() -> String {
    format!("\tmovl r3={UNMAPPED} ;;\n\tld8.s r9=[r3] ;;\n")
}

/// SDM V3 lfetch: the register form adds r2 to r3, the immediate form the sign-extended
/// imm9 (-256 and 255 are the ends), after the address is used; the plain form leaves r3
/// alone. Every lftype, `.excl` and hint behaves the same way, and memory is unchanged.
#[test]
fn base_update_register_and_immediate_forms() {
    let r = run("\tadds r2=-512,r12\n\tmovl r3=0x1122334455667788 ;;\n\tst8 [r2]=r3 ;;\n\
        \tmov r8=r2\n\tmov r9=r2\n\tmov r10=r2\n\tmov r11=r2\n\tmov r14=r2\n\tmov r5=-24 ;;\n\
        \tlfetch [r8] ;;\n\
        \tlfetch.excl.nt1 [r9],r5 ;;\n\
        \tlfetch.fault [r10],255 ;;\n\
        \tlfetch.fault.excl.nta [r11],-256 ;;\n\
        \tlfetch.nt2 [r14],r0 ;;\n\tlfetch.fault.nt1 [r14],1 ;;\n\
        \tld8 r15=[r2] ;;");
    let base = reg(&r, "r2");
    assert_eq!(reg(&r, "r8"), base, "no-update form leaves r3");
    assert_eq!(reg(&r, "r9"), base.wrapping_sub(24), "register form adds r2 (-24)");
    assert_eq!(reg(&r, "r10"), base + 255, "imm9 255 is the highest increment");
    assert_eq!(reg(&r, "r11"), base - 256, "imm9 -256 is the lowest increment");
    assert_eq!(reg(&r, "r14"), base + 1, "r0 adds nothing, then imm9 1");
    assert_eq!(reg(&r, "r15"), 0x1122_3344_5566_7788, "memory is untouched");
    for n in ["r8", "r9", "r10", "r11", "r14"] {
        assert!(!nat(&r, n), "{n} has no NaT");
    }
}

/// SDM V3 lfetch: "A non-faulting lfetch to an unimplemented address does not take the fault
/// and will not issue a prefetch request, but, if specified, will perform a register
/// post-increment": an unmapped address does nothing in all three forms.
#[test]
fn non_faulting_lfetch_of_an_unmapped_address_does_nothing() {
    let src = format!(
        "\tmovl r3={UNMAPPED} ;;\n\tmov r8=r3\n\tmov r9=r3\n\tmov r2=64 ;;\n\
        \tlfetch [r3] ;;\n\tlfetch.excl.nta [r8],r2 ;;\n\tlfetch.nt1 [r9],-8 ;;\n\tadds r10=1,r0 ;;"
    );
    let r = run(&src);
    let base = 0x1_2345_0000u64;
    assert_eq!(reg(&r, "r3"), base);
    assert_eq!(reg(&r, "r8"), base + 64);
    assert_eq!(reg(&r, "r9"), base - 8);
    assert_eq!(reg(&r, "r10"), 1, "execution went on");
}

/// SDM V3 lfetch: with a NaT base the non-faulting form makes no reference and raises no
/// fault; the update keeps r3's NaT, and in the register form r2's NaT is or'ed in ("no fault
/// is raised").
#[test]
fn non_faulting_lfetch_with_nat_registers_does_not_fault() {
    let src = format!(
        "{}\tmov r8=r9\n\tmov r10=r9\n\tadds r11=-512,r12\n\tadds r14=-512,r12 ;;\n\
        \tlfetch [r9] ;;\n\tlfetch.excl [r8],16 ;;\n\tlfetch.nt2 [r10],r9 ;;\n\
        \tlfetch [r11],r9 ;;\n\tlfetch [r14],8 ;;",
        nat_r9()
    );
    let r = run(&src);
    assert!(nat(&r, "r9"), "the plain form leaves r3 and its NaT");
    assert!(nat(&r, "r8"), "imm update keeps r3's NaT");
    assert!(nat(&r, "r10"), "register update: NaT r3 or NaT r2");
    assert!(nat(&r, "r11"), "register update: a NaT r2 sets r3's NaT, without a fault");
    assert!(!nat(&r, "r14"), "a clean base stays clean");
    assert_eq!(reg(&r, "r14"), reg(&r, "r12") - 512 + 8);
}

/// SDM V3 lfetch: `.fault` "raises faults normally associated with a regular load": an
/// address the machine cannot access (unmapped: there is no TLB, ref §2) stops the run as a
/// load to it does, at the lfetch's bundle and slot, and the base is not updated.
#[test]
fn faulting_lfetch_of_an_unmapped_address_stops_like_a_load() {
    let body = format!("\tmovl r3={UNMAPPED} ;;\nat:\n\tnop.m 0\n\tlfetch.fault.excl [r3],8\n\tnop.i 0 ;;");
    let at = symbol(&wrap(&body), "at");
    let err = exec_error(&body, &RunConfig::default());
    match &err {
        ExecError::Memory { pc, slot, fault } => {
            assert_eq!((*pc, *slot), (at, 1), "names the lfetch");
            assert_eq!(fault.addr, 0x1_2345_0000);
            assert_eq!(fault.kind, FaultKind::Unmapped);
        }
        other => panic!("expected a memory fault, got {other:?}"),
    }
    let load = exec_error(
        &format!("\tmovl r3={UNMAPPED} ;;\n\tnop.m 0\n\tld1 r8=[r3],8\n\tnop.i 0 ;;"),
        &RunConfig::default(),
    );
    let strip = |e: &ExecError| e.to_string().split_once(": ").map(|(_, m)| m.to_string()).unwrap_or_default();
    assert_eq!(strip(&err), strip(&load), "the same report as a 1-byte load");
}

/// A harness with an interruption vector table at `ivt` and psr `psr`, stopping at the
/// first interruption so the test reads what delivery recorded.
fn stop_at_interruption(psr: u64) -> RunConfig {
    let h = format!(
        "psr = \"{psr:#x}\"\n\
        [[region]]\nname = \"stack\"\nbase = \"0x70000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [[region]]\nname = \"rbs\"\nbase = \"0x71000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [registers]\nr12 = \"stack.top-16\"\nb0 = \"sentinel\"\n\"ar.bspstore\" = \"rbs\"\n\"cr.iva\" = \"ivt\"\n"
    );
    RunConfig { stop_on_interruption: true, ..with_harness(&h) }
}

/// An IVT after the test function; nothing in it runs (the run stops on delivery).
const IVT: &str = "\t.align 32768\nivt:\n\t.skip 0x8000\n";

/// SDM V3 lfetch, ref §2/§6: `lfetch.fault` with a NaT address raises Register NaT
/// Consumption (vector 0x5600) as a non-access instruction: ISR.code 0x10 | 4 (lfetch),
/// ISR.na set, ei = its slot; cr.iip is its bundle and r3 is not updated. Without an IVT it
/// is an error naming the vector.
#[test]
fn faulting_lfetch_with_a_nat_address_is_nat_consumption() {
    let body = format!("{}at:\n\tnop.m 0\n\tlfetch.fault [r9],16\n\tnop.i 0 ;;", nat_r9());
    let src = wrap(&body) + IVT;
    let psr = 1u64 << 44 | 1 << 13;
    let r = run_cfg(&src, &stop_at_interruption(psr));
    assert!(r.stop.contains("0x5600"), "stopped at NaT consumption: {}", r.stop);
    let isr = reg(&r, "cr.isr");
    assert_eq!(isr & 0xffff, 0x14, "register NaT consumption by lfetch");
    assert_eq!(isr >> 35 & 1, 1, "ISR.na: a non-access instruction");
    assert_eq!(isr >> 41 & 3, 1, "ISR.ei = slot 1");
    assert_eq!(reg(&r, "cr.iip"), symbol(&src, "at"));
    assert_eq!(reg(&r, "r9"), 0, "a fault leaves r3 as it was (the deferred ld8.s gave 0)");
    match exec_error(&body, &RunConfig::default()) {
        ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5600),
        other => panic!("expected an unhandled NaT consumption, got {other:?}"),
    }
}

/// SDM V3 lfetch: with PSR.ed set (how an OS skips a faulting lfetch on return) `.fault`
/// makes no reference and raises nothing, neither for a NaT nor for an unmapped address, but
/// still updates its base.
#[test]
fn psr_ed_suppresses_the_faults_of_lfetch_fault() {
    let src = format!(
        "{}\tmovl r8={UNMAPPED} ;;\n\tlfetch.fault [r9],8 ;;\n\tlfetch.fault.excl.nt1 [r8],-16 ;;\n\tadds r10=1,r0 ;;",
        nat_r9()
    );
    let psr = 1u64 << 44 | 1 << 43;
    let cfg = RunConfig { sets: vec![("psr".to_string(), format!("{psr:#x}"))], ..RunConfig::default() };
    let r = run_cfg(&wrap(&src), &cfg);
    assert_eq!(r.stop, "returned to the sentinel");
    assert!(nat(&r, "r9"), "the update keeps the NaT");
    assert_eq!(reg(&r, "r8"), 0x1_2345_0000 - 16);
    assert_eq!(reg(&r, "r10"), 1);
}

/// SDM V3 lfetch: `.fault` on a mapped address is a hint like the plain form (no alignment
/// check either: PSR.ac does not apply to a prefetch), and a false qualifying predicate
/// nullifies the update.
#[test]
fn faulting_lfetch_of_a_mapped_address_and_predication() {
    let src = "\tadds r2=-511,r12\n\tmov r3=r12\n\tcmp.eq p6,p7=r0,r0 ;;\n\
        \tlfetch.fault [r2],r0 ;;\n\t(p7) lfetch.fault [r3],8 ;;\n\t(p6) lfetch.fault [r3],8 ;;\n\
        \t(p7) lfetch [r3],r3 ;;";
    let psr = 1u64 << 44 | 1 << 3;
    let cfg = RunConfig { sets: vec![("psr".to_string(), format!("{psr:#x}"))], ..RunConfig::default() };
    let r = run_cfg(&wrap(src), &cfg);
    assert_eq!(r.stop, "returned to the sentinel", "an odd address with PSR.ac set does not fault");
    assert_eq!(reg(&r, "r3"), reg(&r, "r12") + 8, "only the (p6) update happened");
}

/// SDM V3 lfetch (`check_target_register(r3)` comes first): an update form with base r0 is
/// an Illegal Operation, raised before `.fault` would look at the (unmapped) address 0.
#[test]
fn update_of_r0_is_an_illegal_operation_before_the_access() {
    match exec_error("\tlfetch.fault [r0],8 ;;", &RunConfig::default()) {
        ExecError::Unhandled { vector, what, .. } => {
            assert_eq!(vector, 0x5400, "general exception: {what}");
            assert!(what.contains("illegal operation"), "{what}");
        }
        other => panic!("expected an illegal operation, got {other:?}"),
    }
}
