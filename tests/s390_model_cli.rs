//! `acctemu run --model GEN` (issue 15): the s390x timing presets from the command line.

mod common;

use common::acctemu;

fn cycles(args: &[&str]) -> u64 {
    let out = acctemu(args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args:?}: {}{text}", String::from_utf8_lossy(&out.stderr));
    text.lines()
        .find_map(|l| l.strip_prefix("cycles").map(str::trim))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{args:?}: no cycles line in\n{text}"))
}

const MULH: [&str; 8] =
    ["run", "arch-s390/tests/data/ops.o", "--entry", "f_mulh", "--set", "r2=12345", "--set", "r3=678"];

#[test]
fn each_generation_runs_with_its_own_figures() {
    let run = |model: &str| cycles(&[&MULH[..], &["--model", model]].concat());
    let (default, z13, z14, z15) = (cycles(&MULH), run("z13"), run("z14"), run("Z15"));
    assert_eq!(default, z13, "z13 is the default");
    // MLGR is one cycle faster from z14 on (LLVM's z14 model); f_mulh's result waits for it.
    assert_eq!(z14 + 1, z13);
    assert_eq!(z15, z14);
}

#[test]
fn the_table_of_a_generation_and_bad_names() {
    let out = acctemu(&["run", "--explain-model", "--model", "z15"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success() && text.contains("IBM z15") && text.contains("serial_refill"), "{text}");
    let out = acctemu(&[&MULH[..], &["--model", "z12"]].concat());
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success() && err.contains("--model z12") && err.contains("z13, z14, z15"), "{err}");
}
