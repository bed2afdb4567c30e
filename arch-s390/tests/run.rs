//! `acctemu run`-style runs of relocatable s390x objects: relocations, the ABI set-up (args in
//! r2..r6, r14 = sentinel, r15 = stack top - 160), the report's registers and CC.

use arch_s390::run::{run_object, RunConfig, SENTINEL};
use emu_core::snapshot::Value;

fn object(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run(obj: &str, entry: &str, sets: &[(&str, &str)]) -> emu_core::report::RunReport {
    let cfg = RunConfig {
        entry: Some(entry.into()),
        sets: sets.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
        ..RunConfig::default()
    };
    run_object(&object(obj), &cfg).unwrap_or_else(|e| panic!("{entry}: {e}"))
}

fn reg(rep: &emu_core::report::RunReport, name: &str) -> u64 {
    match rep.snapshot.register(name) {
        Some(Value::Hex(v)) => *v,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn runs_c_functions_with_the_abi() {
    let rep = run("ops.o", "f_divu", &[("r2", "1000000"), ("r3", "7")]);
    assert_eq!(rep.stop, "returned to the sentinel");
    assert_eq!(reg(&rep, "r2"), 142_857);
    assert_eq!(reg(&rep, "psw.addr"), SENTINEL);
    let rep = run("ops.o", "f_cmpb", &[("r2", "-5"), ("r3", "3")]);
    assert_eq!(reg(&rep, "r2"), 1);
    let rep = run("ops.o", "f_add", &[("r2", "0xffffffffffffffff"), ("r3", "1")]);
    assert_eq!((reg(&rep, "r2"), reg(&rep, "cc")), (0, 0));
    // The z13 model is superscalar, so a short independent sequence may take fewer cycles
    // than instructions; the divide's latency shows that the model ran.
    let rep = run("ops.o", "f_divu", &[("r2", "1000000"), ("r3", "7")]);
    let div = arch_s390::timing::S390Params::default().div;
    assert!(rep.summary.cycles > div, "f_divu: {} cycles", rep.summary.cycles);
}

#[test]
fn applies_pc32dbl_relocations_and_uses_the_stack() {
    // r_call: stmg/aghi/larl/basr/lgrl (R_390_PC32DBL to .rodata)/algr/lmg.
    let rep = run("refops.o", "r_call", &[("r3", "1")]);
    assert_eq!(reg(&rep, "r2"), 0x8000_0000_0000_0001u64.wrapping_add(16u64.wrapping_neg()));
    assert_eq!(reg(&rep, "r15"), 0x7000_0000 + 0x1_0000 - 160);
}

#[test]
fn problem_state_runs_unprivileged_code_and_bad_entries_are_reported() {
    // psw_mask with the problem-state bit: unprivileged C runs as in supervisor state (the
    // privileged-operation check itself is unit-tested in exec).
    let cfg = RunConfig {
        entry: Some("f_add".into()),
        sets: vec![("psw_mask".into(), "0x0001000180000000".into())],
        ..RunConfig::default()
    };
    let rep = run_object(&object("ops.o"), &cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.stop, "returned to the sentinel");
    let bad = RunConfig { entry: Some("nonexistent".into()), ..RunConfig::default() };
    let err = run_object(&object("ops.o"), &bad).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("nonexistent"), "{err}");
}
