//! The exact FP unit wired into the ia64 executor: fma honours its status-field completer,
//! writes the status-field flags of ar.fpsr, and raises the FP Exception fault (0x5c00) or
//! trap (0x5d00) an enabled exception asks for; ldfs/stfs/getf/setf use the register
//! encodings of the SDM (no host `f64` on the way).

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)]
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;
use helpers::{exec_error, reg, run};

/// Linux's default FPSR: every trap disabled, sf0 extended precision round to nearest,
/// sf1 with wre, sf2/sf3 with td.
const FPSR: &str = "0x9804c0270033f";

/// The vector and message of an unhandled interruption (the default harness has no IVT).
fn unhandled(body: &str) -> (u16, String) {
    match exec_error(body, &RunConfig::default()) {
        ExecError::Unhandled { vector, what, .. } => (vector, what),
        other => panic!("expected an unhandled interruption, got {other}"),
    }
}

/// Sets ar.fpsr, f6 = a and f7 = b (doubles), then runs `op` and reads f8 back as a double.
fn body(fpsr: &str, a: f64, b: f64, op: &str) -> String {
    format!(
        "\tmovl r2={fpsr} ;;\n\tmov.m ar.fpsr=r2 ;;\n\tmovl r3=0x{:x} ;;\n\tmovl r4=0x{:x} ;;\n\
         \tsetf.d f6=r3\n\tsetf.d f7=r4 ;;\n\t{op} ;;\n\tgetf.d r8=f8 ;;\n\tmov.m r9=ar.fpsr ;;",
        a.to_bits(),
        b.to_bits()
    )
}

/// fma.d rounds once to double and sets sf0's inexact flag (FPSR bit 6 + 12).
#[test]
fn fma_d_rounds_once_and_sets_the_inexact_flag() {
    let (a, b) = (1.0 + f64::EPSILON, 1.0 - f64::EPSILON);
    let r = run(&body(FPSR, a, b, "fma.d f8=f6,f7,f6"));
    assert_eq!(reg(&r, "r8"), a.mul_add(b, a).to_bits());
    assert_eq!(reg(&r, "r9") >> 18 & 1, 1, "sf0.i");
    assert_eq!(reg(&r, "r9") & ((1 << 58) - 1) & !(1 << 18), 0x9804c0270033f, "only sf0.i added");
}

/// An exact result raises no flag; the .s1 completer writes status field 1's flags.
#[test]
fn the_status_field_completer_selects_the_flags_written() {
    let r = run(&body(FPSR, 1.5, 2.0, "fma.d f8=f6,f7,f0"));
    assert_eq!(f64::from_bits(reg(&r, "r8")), 3.0);
    assert_eq!(reg(&r, "r9"), 0x9804c0270033f, "exact: no flag");
    let r = run(&body(FPSR, 0.1, 0.7, "fma.d.s1 f8=f6,f7,f6"));
    assert_eq!(reg(&r, "r9") >> (19 + 12) & 1, 1, "sf1.i");
    assert_eq!(reg(&r, "r9") >> 18 & 1, 0, "sf0.i untouched");
}

/// The precision of a completer-less fma is sf0.pc: pc = 00 rounds to 24 bits.
#[test]
fn dynamic_precision_comes_from_the_status_field() {
    // sf0: pc = 00 (single), rc = nearest, all traps disabled.
    let r = run(&body("0x3f", 1.0 / 3.0, 1.0, "fma f8=f6,f7,f0"));
    assert_eq!(f64::from_bits(reg(&r, "r8")), f64::from((1.0f64 / 3.0) as f32));
}

/// An enabled inexact trap: the result and flags are written and the FP trap (0x5d00) is
/// raised with ISR.code i (bit 13: the scalar o u i fpa are bits 11-14; bit 0 marks an FP trap).
#[test]
fn enabled_inexact_traps_after_the_result() {
    // Trap-disable bits 0x1f: id (bit 5) clear.
    let (vector, what) = unhandled(&body("0x9804c0270031f", 0.1, 0.7, "fma.d f8=f6,f7,f6"));
    assert_eq!(vector, 0x5d00, "{what}");
    assert!(what.contains("ISR.code 0x2001)") || what.contains("ISR.code 0x6001)"), "{what}");
}

/// An enabled invalid operation (infinity times zero) faults (0x5c00, ISR.code v) before
/// anything is written.
#[test]
fn enabled_invalid_faults_before_the_result() {
    let (vector, what) = unhandled(&body("0x9804c0270033e", f64::INFINITY, 0.0, "fma.d f8=f6,f7,f0"));
    assert_eq!(vector, 0x5c00, "{what}");
    assert!(what.contains("ISR.code 0x1)"), "{what}");
    // Disabled: the QNaN indefinite, and sf0.v set.
    let r = run(&body(FPSR, f64::INFINITY, 0.0, "fma.d f8=f6,f7,f0"));
    assert_eq!(reg(&r, "r8"), 0xfff8_0000_0000_0000, "QNaN indefinite as a double");
    assert_eq!(reg(&r, "r9") >> 13 & 1, 1, "sf0.v");
}

/// ldfs of a single denormal and stfs back give the same bits; ldfd/stfd likewise, and
/// stfs of NaTVal is a Register NaT Consumption fault.
#[test]
fn single_and_double_memory_formats_are_exact() {
    let r = run("\tadds r3=-64,r12\n\tmovl r2=0x00012345 ;;\n\tst4 [r3]=r2 ;;\n\tldfs f6=[r3] ;;\n\
        \tadds r4=-32,r12 ;;\n\tstfs [r4]=f6 ;;\n\tld4 r8=[r4]\n\tgetf.exp r9=f6\n\
        \tmovl r2=0x000fedcba9876543 ;;\n\tst8 [r3]=r2 ;;\n\tldfd f7=[r3] ;;\n\tstfd [r4]=f7 ;;\n\
        \tld8 r10=[r4] ;;");
    assert_eq!(reg(&r, "r8"), 0x0001_2345, "single denormal round trip");
    assert_eq!(reg(&r, "r9"), 0xff81, "single denormal held with exponent 0xFF81");
    assert_eq!(reg(&r, "r10"), 0x000f_edcb_a987_6543, "double denormal round trip");
    let (vector, _) = unhandled("\tmovl r2=0x7000000000000000 ;;\n\tld8.s r3=[r2] ;;\n\tsetf.sig f6=r3 ;;\n\tadds r4=-32,r12 ;;\n\tstfs [r4]=f6 ;;");
    assert_eq!(vector, 0x5600);
}
