//! Execution of the indirect register files (rr, pkr, dbr, ibr, pmc, pmd, cpuid) and of the TLB
//! instructions. "SDM V3 mov-ind" is the `mov` indirect-register page of the Intel Itanium
//! Architecture Software Developer's Manual rev 2.3 vol. 3; "ref §9" the privilege summary of
//! /work/shared/reference/ia64-system.md.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;
use helpers::{exec_error, reg, run, symbol, with_harness, wrap};

/// A harness at privilege level `cpl` with PSR `psr` (bank 1 and the level set to match).
fn harness_at(cpl: u8, psr: u64) -> RunConfig {
    let psr = psr | 1 << 44 | u64::from(cpl) << 32;
    let h = format!(
        "cpl = {cpl}\npsr = \"{psr:#x}\"\n\
        [[region]]\nname = \"stack\"\nbase = \"0x70000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [[region]]\nname = \"rbs\"\nbase = \"0x71000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [registers]\nr12 = \"stack.top-16\"\nb0 = \"sentinel\"\n\"ar.bspstore\" = \"rbs\"\n"
    );
    with_harness(&h)
}

/// The vector and message of an unhandled interruption (there is no IVT).
fn unhandled(body: &str, cfg: &RunConfig) -> (u16, String) {
    match exec_error(body, cfg) {
        ExecError::Unhandled { vector, what, .. } => (vector, what),
        other => panic!("expected an unhandled interruption, got {other:?}"),
    }
}

/// SDM V3 mov-ind: rr is indexed by r3{63:61}, the region number; the other bits of r3 do not
/// matter. Each of the eight regions keeps its own value.
#[test]
fn region_registers_are_indexed_by_the_region_number() {
    let r = run("\tmovl r2=0xe000000000000123\n\tmovl r3=0x12345679 ;;\n\
        \tmovl r4=0x2000000000000000\n\tmovl r5=0x00abcd31 ;;\n\
        \tmov rr[r2]=r3\n\tmov rr[r4]=r5 ;;\n\tsrlz.d ;;\n\
        \tmovl r6=0xe000000000000000\n\tmovl r7=0x3fffffffffffffff ;;\n\
        \tmov r8=rr[r6]\n\tmov r9=rr[r7]\n\tmov r10=rr[r0] ;;");
    assert_eq!(reg(&r, "r8"), 0x1234_5679, "rr7");
    assert_eq!(reg(&r, "r9"), 0xab_cd31, "rr1 (r3{{63:61}} = 1)");
    assert_eq!(reg(&r, "r10"), 0, "rr0 was never written");
}

/// SDM V3 mov-ind: a region-register value with reserved bits set (bit 1, 63:32) is a Reserved
/// Register/Field fault (General Exception, vector 0x5400).
#[test]
fn region_register_reserved_bits_fault() {
    let (vector, what) = unhandled("\tmovl r3=0x100000000 ;;\n\tmov rr[r0]=r3 ;;", &RunConfig::default());
    assert_eq!(vector, 0x5400);
    assert!(what.contains("reserved register/field"), "{what}");
    let (vector, _) = unhandled("\tmov r3=2 ;;\n\tmov rr[r0]=r3 ;;", &RunConfig::default());
    assert_eq!(vector, 0x5400, "bit 1 is reserved");
}

/// pkr, dbr, ibr round trips by r3{7:0}; an index past the architectural minimum (16 pkr, 8 dbr,
/// 8 ibr) is a Reserved Register/Field fault both ways.
#[test]
fn pkr_dbr_ibr_round_trip_and_unimplemented_indices_fault() {
    let r = run("\tmov r2=15\n\tmovl r3=0xfedcba01 ;;\n\tmov pkr[r2]=r3 ;;\n\
        \tmov r4=0x107\n\tmovl r5=0x8000000012345678 ;;\n\tmov dbr[r4]=r5\n\tmov ibr[r4]=r3 ;;\n\
        \tsrlz.d ;;\n\tmov r8=pkr[r2]\n\tmov r9=dbr[r4]\n\tmov r10=ibr[r4] ;;");
    assert_eq!(reg(&r, "r8"), 0xfedc_ba01);
    assert_eq!(reg(&r, "r9"), 0x8000_0000_1234_5678, "index 0x107 uses r3{{7:0}} = 7");
    assert_eq!(reg(&r, "r10"), 0xfedc_ba01);
    for body in [
        "\tmov r2=16 ;;\n\tmov pkr[r2]=r0 ;;",
        "\tmov r2=16 ;;\n\tmov r8=pkr[r2] ;;",
        "\tmov r2=8 ;;\n\tmov dbr[r2]=r0 ;;",
        "\tmov r2=8 ;;\n\tmov r8=ibr[r2] ;;",
        "\tmov r3=0xf0 ;;\n\tmov pkr[r0]=r3 ;;",
    ] {
        let (vector, what) = unhandled(body, &RunConfig::default());
        assert_eq!(vector, 0x5400, "{body}");
        assert!(what.contains("reserved register/field"), "{body}: {what}");
    }
}

/// pmc/pmd: implemented registers keep their values; unimplemented ones read 0 and ignore
/// writes (pmd0-3 are not generic counters).
#[test]
fn performance_monitor_registers() {
    let r = run("\tmov r2=4\n\tmov r3=0x55\n\tmov r4=200\n\tmov r5=1 ;;\n\
        \tmov pmc[r2]=r3\n\tmov pmd[r2]=r3\n\tmov pmd[r5]=r3\n\tmov pmc[r4]=r3 ;;\n\tsrlz.d ;;\n\
        \tmov r8=pmc[r2]\n\tmov r9=pmd[r2]\n\tmov r10=pmd[r5]\n\tmov r11=pmc[r4] ;;");
    assert_eq!(reg(&r, "r8"), 0x55);
    assert_eq!(reg(&r, "r9"), 0x55);
    assert_eq!(reg(&r, "r10"), 0, "pmd1 is not implemented");
    assert_eq!(reg(&r, "r11"), 0, "pmc200 is not implemented");
}

/// CPUID0/1 spell "GenuineIntel"; CPUID3 names an Itanium 2 (family 0x1f) Madison (model 1)
/// with number = 4; CPUID4 has lb (long branch) set; CPUID5 is not implemented. Readable at
/// cpl 3.
#[test]
fn cpuid_identifies_an_itanium2_madison_at_any_cpl() {
    let body = "\tmov r2=1\n\tmov r3=3\n\tmov r4=4 ;;\n\
        \tmov r8=cpuid[r0]\n\tmov r9=cpuid[r2]\n\tmov r10=cpuid[r3]\n\tmov r11=cpuid[r4] ;;";
    let r = helpers::run_cfg(&wrap(body), &harness_at(3, 0));
    assert_eq!(r.stop, "returned to the sentinel");
    let vendor: Vec<u8> =
        [reg(&r, "r8"), reg(&r, "r9")].iter().flat_map(|v| v.to_le_bytes()).filter(|&b| b != 0).collect();
    assert_eq!(vendor, b"GenuineIntel");
    let id = reg(&r, "r10");
    assert_eq!(id & 0xff, 4, "number: the last CPUID index");
    assert_eq!(id >> 24 & 0xff, 0x1f, "family: Itanium 2");
    assert_eq!(id >> 16 & 0xff, 1, "model: Madison");
    assert_eq!(reg(&r, "r11") & 1, 1, "lb");
    let (vector, _) = unhandled("\tmov r2=5 ;;\n\tmov r8=cpuid[r2] ;;", &RunConfig::default());
    assert_eq!(vector, 0x5400, "cpuid5 is a reserved register");
}

/// ref §9: every indirect move is privileged except reads of cpuid and pmd; at cpl 3 the others
/// are a Privileged Operation fault. A pmd read of a privileged monitor (PMC.pm) at cpl 3 is a
/// Privileged Register fault.
#[test]
fn privilege_rules() {
    let cfg = harness_at(3, 0);
    for body in [
        "\tmov rr[r0]=r0 ;;",
        "\tmov r8=rr[r0] ;;",
        "\tmov pkr[r0]=r0 ;;",
        "\tmov r8=pkr[r0] ;;",
        "\tmov dbr[r0]=r0 ;;",
        "\tmov r8=dbr[r0] ;;",
        "\tmov ibr[r0]=r0 ;;",
        "\tmov r8=ibr[r0] ;;",
        "\tmov pmc[r0]=r0 ;;",
        "\tmov r8=pmc[r0] ;;",
        "\tmov pmd[r0]=r0 ;;",
        "\tptc.l r0,r0 ;;",
        "\tptc.e r0 ;;",
        "\tptr.d r0,r0 ;;",
        "\titc.d r0 ;;",
        "\titr.i itr[r0]=r0 ;;",
        "\tmov msr[r0]=r0 ;;",
        "\tmov r8=msr[r0] ;;",
    ] {
        let (vector, what) = unhandled(body, &cfg);
        assert_eq!(vector, 0x5400, "{body}");
        assert!(what.contains("privileged operation"), "{body}: {what}");
    }
    let r = helpers::run_cfg(&wrap("\tmov r2=5 ;;\n\tmov r8=pmd[r2] ;;"), &cfg);
    assert_eq!(reg(&r, "r8"), 0, "an unprivileged pmd read is allowed");
}

/// PMC.pm (bit 6) marks a privileged monitor, whose pmd faults only at cpl != 0 (ref §9): at
/// cpl 0 the counter reads back. (A pmc cannot be set from cpl 3, and the harness has no way to
/// preset one, so the cpl 3 fault itself is not exercised here.)
#[test]
fn pmd_read_at_cpl0_ignores_pmc_pm() {
    let r = run("\tmov r2=4\n\tmov r3=0x40 ;;\n\tmov pmc[r2]=r3\n\tmov pmd[r2]=r2 ;;\n\tsrlz.d ;;\n\
        \tmov r8=pmd[r2] ;;");
    assert_eq!(reg(&r, "r8"), 4);
}

/// No model-specific register is modelled: with the privilege checks passed, every msr move
/// stops the run with an error naming the instruction and its address, never doing nothing.
/// (The TLB instructions execute on the TLB model: tests/ia64_tlb.rs.)
#[test]
fn msr_moves_stop_the_run() {
    for (insn, name) in [("mov msr[r2]=r3", "mov to/from msr"), ("mov r8=msr[r2]", "mov to/from msr")] {
        let body = format!("\tnop.m 0 ;;\nat:\n\t{insn} ;;");
        let src = wrap(&body);
        match exec_error(&body, &RunConfig::default()) {
            ExecError::Unimplemented { pc, slot, what } => {
                assert_eq!((pc, slot), (symbol(&src, "at"), 0), "{insn}");
                assert!(what.starts_with(name) && what.contains("not modelled"), "{insn}: {what}");
            }
            other => panic!("{insn}: expected an unimplemented-instruction error, got {other:?}"),
        }
    }
}

/// ref §9 (ski's order): itc/itr with PSR.ic = 1 are an Illegal Operation fault, checked before
/// the privilege level.
#[test]
fn itc_and_itr_with_psr_ic_are_illegal_operations() {
    for cpl in [0, 3] {
        for body in ["\titc.i r2 ;;", "\titr.d dtr[r2]=r3 ;;"] {
            let (vector, what) = unhandled(body, &harness_at(cpl, 1 << 13));
            assert_eq!(vector, 0x5400, "{body}");
            assert!(what.contains("illegal operation"), "cpl {cpl} {body}: {what}");
        }
    }
}

/// A NaT index or value is a Register NaT Consumption fault (vector 0x5600).
#[test]
fn nat_operands_are_nat_consumption() {
    let nat = "\tmovl r3=0x123450000 ;;\n\tld8.s r9=[r3] ;;\n";
    for tail in ["\tmov rr[r9]=r0 ;;", "\tmov rr[r0]=r9 ;;", "\tmov r8=cpuid[r9] ;;"] {
        let (vector, _) = unhandled(&format!("{nat}{tail}"), &RunConfig::default());
        assert_eq!(vector, 0x5600, "{tail}");
    }
}
