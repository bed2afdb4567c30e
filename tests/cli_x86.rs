//! `acctemu run` on x86-64 objects: dispatch on the ELF machine, `--set`, `--format json`.

use std::process::Command;

#[test]
fn runs_an_x86_object_and_reports_registers_as_json() {
    let obj = concat!(env!("CARGO_MANIFEST_DIR"), "/arch-x86/tests/data/ops.o");
    let out = Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .args([
            "run", obj, "--entry", "div64", "--set", "rdi=1000", "--set", "rsi=7", "--set", "rdx=3", "--format", "json",
        ])
        .output()
        .expect("run acctemu");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["stop"], "returned to the sentinel");
    assert_eq!(json["snapshot"]["registers"]["rax"], "0x0000000000001801");
}

#[test]
fn x86_errors_are_reported_not_panics() {
    let obj = concat!(env!("CARGO_MANIFEST_DIR"), "/arch-x86/tests/data/ops.o");
    let out = Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .args(["run", obj, "--entry", "div64", "--set", "rsi=0"])
        .output()
        .expect("run acctemu");
    assert!(out.status.success(), "div64 guards a zero divisor");
    let out = Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .args(["run", obj, "--entry", "missing"])
        .output()
        .expect("run acctemu");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("`missing`"));
}
