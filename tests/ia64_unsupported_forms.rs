//! `tests/corpus/ia64/src/unsupported_forms.S` lists the forms the table encodes, decodes and
//! formats but the executor does not run. Each of its instruction lines, run alone, stops the
//! run with `ExecError::Unimplemented` naming the form and where it is, so the file stays a
//! true record: a form that starts executing must leave it.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::RunConfig;
use helpers::{exec_error, symbol, wrap};

/// The instruction lines of the file (comments and directives dropped).
fn forms() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/ia64/src/unsupported_forms.S");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default().trim().to_string())
        .filter(|l| !l.is_empty() && l != ";;" && !l.starts_with('.') && !l.ends_with(':'))
        .collect()
}

#[test]
fn every_listed_form_stops_the_run_where_it_is() {
    let forms = forms();
    assert!(forms.len() >= 3, "{forms:?}");
    for insn in &forms {
        // The MFI/MMI/MIB bundle at f: a nop.m in slot 0 puts the form in slot 1 or 2.
        let body = format!("\tnop.m 0\n\t{insn} ;;\n");
        let at = symbol(&wrap(&body), "f");
        match exec_error(&body, &RunConfig::default()) {
            ExecError::Unimplemented { pc, slot, what } => {
                let head = insn.split([' ', '.']).next().unwrap_or_default();
                assert!(what.contains(head), "{insn}: {what}");
                assert_eq!(pc, at, "{insn}: located at {pc:#x} slot {slot}");
                assert!(slot >= 1, "{insn}: slot {slot}");
            }
            other => panic!("{insn}: expected an unimplemented-form stop, got {other}"),
        }
    }
    println!("{} forms stop the run", forms.len());
}

/// The forms later than the Itanium 2 modelled (Madison): mpy4, mpyshl4, clz, tf,
/// lfetch.count and the dahr moves are unimplemented opcodes there, so they take the General Exception vector's
/// Illegal Operation fault (as vmsw does) instead of stopping the run.
#[test]
fn later_forms_are_an_illegal_operation_on_itanium2() {
    for insn in [
        "mpy4 r8=r9,r10",
        "mpyshl4 r8=r9,r10",
        "clz r8=r9",
        "tf.z p6,p7=32",
        "tf.nz.or.andcm p6,p7=33",
        "lfetch.count [r3],1,64",
        "lfetch.count.d5 [r3],64,-1024",
        "mov r8=dahr[r3]",
        "mov dahr5=0x1234",
    ] {
        let body = format!("\tnop.m 0\n\t{insn} ;;\n");
        match exec_error(&body, &RunConfig::default()) {
            ExecError::Unhandled { vector, .. } => assert_eq!(vector, 0x5400, "{insn}"),
            other => panic!("{insn}: expected an Illegal Operation fault, got {other:?}"),
        }
    }
}
