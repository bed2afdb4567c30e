//! `run` and `diff` of x86-64 and s390x sources (issue 16): C and `.S` compiled with the host's
//! gcc or s390x-linux-gnu-gcc (`emu_core::cc`), `-D` honoured, then run like the object; a
//! missing compiler is an error naming its package. The compilers are oracles: these tests
//! skip without them, and fail under `ACCTEMU_REQUIRE_ORACLES=1`.

mod common;

use acctemu::{Arch, Run};
use common::{acctemu, oracle};

const MIX: &str = "tests/data/run_source/mix.c";

/// stdout of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let o = acctemu(args);
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{args:?}: {err}\n{out}");
    out
}

/// The value of register `name` in a text report with `-v` (every register).
fn register(out: &str, name: &str) -> String {
    let key = format!("  {name}: \"");
    let line = out.lines().find(|l| l.starts_with(&key)).unwrap_or_else(|| panic!("no {name} in\n{out}"));
    line[key.len()..].trim_end_matches('"').to_string()
}

/// mix(1000, 10) of tests/data/run_source/mix.c, without and with -DUSE_DIV.
const SHIFTED: &str = "0x0000000001695bb1";
const DIVIDED: &str = "0x00000000016e37fc";

#[test]
fn x86_c_source_runs_with_defines() {
    if oracle("gcc").is_none() {
        return;
    }
    let args = ["run", "-v", MIX, "--arch", "x86_64", "--entry", "mix", "--set", "rdi=1000", "--set", "rsi=10"];
    assert_eq!(register(&ok(&args), "rax"), SHIFTED);
    assert_eq!(register(&ok(&[&args[..], &["-D", "USE_DIV"]].concat()), "rax"), DIVIDED);
    let asm = ["run", "-v", "tests/data/run_source/add3_x86.S", "--arch", "x86-64", "--set", "rdi=1", "--set", "rsi=2"];
    assert_eq!(register(&ok(&asm), "rax"), "0x0000000000000003");
    assert_eq!(register(&ok(&[&asm[..], &["-DPLUS_ONE"]].concat()), "rax"), "0x0000000000000004");
}

#[test]
fn s390_c_source_runs_with_defines() {
    if oracle("s390x-linux-gnu-gcc").is_none() {
        return;
    }
    let args = ["run", "-v", MIX, "--arch", "s390x", "--entry", "mix", "--set", "r2=1000", "--set", "r3=10"];
    assert_eq!(register(&ok(&args), "r2"), SHIFTED);
    assert_eq!(register(&ok(&[&args[..], &["-DUSE_DIV"]].concat()), "r2"), DIVIDED);
    let asm = ["run", "-v", "tests/data/run_source/add3_s390.S", "--arch", "s390x", "--set", "r2=1", "--set", "r3=2"];
    assert_eq!(register(&ok(&asm), "r2"), "0x0000000000000003");
    assert_eq!(register(&ok(&[&asm[..], &["-DPLUS_ONE"]].concat()), "r2"), "0x0000000000000004");
}

/// The A and B cycles of a diff's totals.
fn cycles(out: &str) -> (u64, u64) {
    let line = out.lines().find(|l| l.trim_start().starts_with("cycles ")).unwrap_or_else(|| panic!("{out}"));
    let n: Vec<u64> = line.split_whitespace().skip(1).take(2).map(|v| v.parse().expect("a number")).collect();
    (n[0], n[1])
}

#[test]
fn diff_of_one_source_under_two_defines_on_each_compiled_core() {
    for (arch, cc, sets) in [
        ("x86_64", "gcc", ["--set", "rdi=1000", "--set", "rsi=10"]),
        ("s390x", "s390x-linux-gnu-gcc", ["--set", "r2=1000", "--set", "r3=10"]),
    ] {
        if oracle(cc).is_none() {
            continue;
        }
        let out = ok(&[&["diff", MIX, "--b-define", "USE_DIV", "--arch", arch, "--entry", "mix"][..], &sets].concat());
        assert!(out.contains(&format!("\nA = {MIX}\nB = mix.c (-DUSE_DIV): {MIX} built with -DUSE_DIV\n")), "{out}");
        let (a, b) = cycles(&out);
        assert!(b > a, "{arch}: the division costs more than the shift:\n{out}");
        assert!(out.contains("\n  mix  ") && out.contains("\n  mix#"), "{arch}: attribution:\n{out}");
    }
}

#[test]
fn a_missing_compiler_is_named_with_its_package() {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_acctemu"));
    cmd.current_dir(common::root()).env("ACCTEMU_CC_S390", "acctemu-no-such-gcc");
    let o = cmd.args(["run", MIX, "--arch", "s390x", "--entry", "mix"]).output().expect("runs acctemu");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "{MIX}: `acctemu-no-such-gcc` is not installed, and building s390x code needs it: install the Debian \
             package `gcc-s390x-linux-gnu`"
        )),
        "{err}"
    );
}

#[test]
fn c_without_an_architecture_is_refused() {
    let o = acctemu(&["run", MIX]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{MIX}: C source runs on a compiled core: give --arch x86_64 or --arch s390x")),
        "{err}"
    );
}

#[test]
fn the_library_runs_a_compiled_source() {
    if oracle("s390x-linux-gnu-gcc").is_none() {
        return;
    }
    let text = std::fs::read_to_string(common::root().join(MIX)).expect("mix.c");
    let run = Run::source("mix.c", &text).arch(Arch::S390x).define("USE_DIV").entry("mix");
    let snapshot = run.set("r2", "1000").set("r3", "10").snapshot().expect("runs");
    assert_eq!(snapshot.register("r2").map(|v| v.to_string()).as_deref(), Some(DIVIDED));
}
