//! Issue 11, the command line's part: workload numbers that cannot be meant are refused with
//! an estimate, every subcommand ends with a status of the one table in `acctemu::cli::exit`
//! (0 done, 1 an error in the input or a check mismatch, 2 usage, 3 stopped before the expected
//! end), and messages quote user text cut and escaped.
//!
//! Each case runs the real binary in a directory of its own.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A directory of its own for `name`, created empty.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("acctemu-robust-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// Runs acctemu in `dir` with `args`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_acctemu")).args(args).current_dir(dir).output().expect("runs acctemu")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit status `code` and that stderr holds every fragment.
fn expect(o: &Output, code: i32, fragments: &[&str], what: &str) {
    let err = stderr(o);
    assert!(!err.contains("panicked at"), "{what} panicked:\n{err}");
    assert_eq!(o.status.code(), Some(code), "{what}: stderr:\n{err}");
    for f in fragments {
        assert!(err.contains(f), "{what}: `{f}` missing in:\n{err}");
    }
}

const OK_S: &str = "\t.text\nf:\n\tadds r8=42,r0\n\tbr.ret.sptk.many b0 ;;\n";

// ---- workload numbers ----

#[test]
fn a_workload_of_too_many_tick_paths_is_refused_with_an_estimate_before_running() {
    // Before: ~6.8e11 tick paths started running (no end in sight). The refusal comes from the
    // estimate alone, so it is immediate; the bound below is only a hang guard.
    let start = std::time::Instant::now();
    for sub in [&["scenario", "ia64/syscall/v1"][..], &["diff"][..]] {
        let mut args = sub.to_vec();
        args.extend(["--user-cycles", "1000000000000000", "--syscalls", "1000"]);
        let o = common::acctemu(&args);
        expect(
            &o,
            2,
            &[
                "this workload would run ~6.8e11 paths",
                "emulated instructions",
                "2000 system-call paths",
                "~6.8e11 tick paths = 1.0e18 cycles / 1464843 cycles per tick at 1024 Hz",
                "the limit is 1.0e8 paths",
                "--max-paths",
            ],
            &args.join(" "),
        );
        assert!(o.stdout.is_empty());
    }
    assert!(start.elapsed().as_secs() < 120, "the refusal must not run the workload");
}

#[test]
fn a_sweep_counts_the_paths_of_all_its_points() {
    let args = [
        "sweep",
        "ia64/syscall/v1",
        "ia64/syscall/v2",
        "--param",
        "user-cycles",
        "--from",
        "1000000000000",
        "--to",
        "1000000000000000",
        "--step",
        "100000000000000",
        "--syscalls",
        "1000",
    ];
    expect(
        &common::acctemu(&args),
        2,
        &[
            "sweep: this workload would run ~6.2e12 paths",
            "20 points; the largest, --param user-cycles 901000000000000",
        ],
        "sweep",
    );
}

#[test]
fn max_paths_sets_the_limit() {
    // 100 system calls are 200 entry and exit paths (no tick falls in 180,000 cycles at 1024 Hz).
    let base = ["scenario", "ia64/syscall/v1", "--syscalls", "100"];
    let refused = common::acctemu(&[&base[..], &["--max-paths", "199"]].concat());
    expect(&refused, 2, &["would run ~200 paths", "200 system-call paths", "the limit is 199 paths"], "199");
    let ran = common::acctemu(&[&base[..], &["--max-paths", "200"]].concat());
    expect(&ran, 0, &[], "200");
}

#[test]
fn flag_values_that_cannot_be_meant_are_usage_errors() {
    for (args, fragment) in [
        (
            &["scenario", "ia64/syscall/v1", "--hz", "1000000000000"][..],
            "--hz 1000000000000: more ticks per second than the 1500000000 Hz clock of ia64/syscall/v1's core",
        ),
        (&["scenario", "s390/vtime/immediate", "--hz", "5000000001"][..], "clock of s390/vtime/immediate's core"),
        (&["scenario", "ia64/syscall/v1", "--irq-every", "0"][..], "--irq-every 0: an interrupt every 0th"),
        (&["scenario", "ia64/syscall/v1", "--irq-every", "4"][..], "trace ia64/syscall/v1 binds no irq_enter"),
        (&["scenario", "ia64/syscall/v1", "--syscalls", "0"][..], "--syscalls 0: a workload of no system calls"),
        (&["diff", "--syscalls", "0"][..], "--syscalls 0"),
        (&["diff", "s390/vtime/immediate", "s390/vtime/delayed", "--irq-every", "0"][..], "--irq-every 0"),
        (
            &["sweep", "ia64/syscall/v1", "--param", "syscalls", "--from", "0", "--to", "2"][..],
            "sweep: --param syscalls 0: --syscalls 0",
        ),
        (
            &["sweep", "ia64/syscall/v1", "--param", "hz", "--from", "1", "--to", "2000000001", "--step", "1000000000"]
                [..],
            "sweep: --param hz 2000000001: --hz 2000000001",
        ),
        // Before: the x86 traces ran at their compiled-in HZ 1000 whatever --hz said.
        (
            &["scenario", "x86/nohz-syscall/patch4", "--hz", "250"][..],
            "--hz 250: x86/nohz-syscall/patch4 is compiled with HZ 1000",
        ),
        (&["diff", "x86/nohz-syscall/patch3", "x86/nohz-syscall/patch4", "--hz", "300"][..], "--hz 300: x86/"),
        (
            &["sweep", "x86/nohz-syscall/patch3", "--param", "syscalls", "--from", "1", "--to", "2", "--hz", "100"][..],
            "--hz 100",
        ),
        (&["bench", "--syscalls", "0"][..], "bench: --syscalls 0: the scenario rows would run no system call"),
        (
            &["bench", "--syscalls", "100000000000"][..],
            "bench: --syscalls 100000000000: this workload would run ~4.0e12 paths (20 scenario rows",
        ),
    ] {
        let o = common::acctemu(args);
        expect(&o, 2, &[fragment], &args.join(" "));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn the_irq_flag_still_runs_on_a_trace_with_interrupt_paths() {
    let o = common::acctemu(&["scenario", "s390/vtime/immediate", "--syscalls", "40", "--irq-every", "4"]);
    expect(&o, 0, &[], "s390 --irq-every 4");
}

// ---- exit statuses ----

#[test]
fn every_kind_of_end_has_its_status() {
    let d = dir("status");
    let w = |name: &str, text: &str| std::fs::write(d.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    w("ok.S", OK_S);
    w("spin.S", "\t.text\nspin:\n\tbr.cond.sptk.few spin ;;\n");
    w("bad.S", "\t.text\nf:\n\tadd r1=,r2 ;;\n");
    w("undecodable.S", "\t.text\nf:\n\tdata8 -1, -1\n");
    w("spin-if.S", "\t.text\nf:\n#ifdef SPIN\nspin:\n\tbr.cond.sptk.few spin ;;\n#endif\n\tbr.ret.sptk.many b0 ;;\n");
    let cases: &[(&[&str], i32, &str)] = &[
        (&["run", "ok.S"], 0, ""),
        (&["asm", "ok.S"], 0, ""),
        (&["--help"], 0, ""),
        (&["run", "bad.S"], 1, "bad.S:3:"),
        (&["asm", "bad.S"], 1, "bad.S:3:"),
        (&["disasm", "nothere.o"], 1, "nothere.o"),
        (&["run", "spin.S", "--max-insns", "50"], 3, "stopped before its expected end"),
        (&["run", "undecodable.S"], 3, "undecodable instruction bits"),
        (
            &["diff", "spin-if.S", "--b-define", "SPIN"],
            3,
            "spin-if.S (-DSPIN): budget of 1000000 instructions exhausted",
        ),
        (&["diff", "spin-if.S", "--b-define", "NOSPIN"], 0, ""),
        (&["run", "ok.S", "--frob"], 2, "unexpected argument '--frob'"),
        (&["run", "ok.S", "--max-insns", "x"], 2, "invalid value 'x'"),
        (&["run", "ok.S", "--set", "r13"], 2, "--set r13: expected REG=VALUE"),
        (&["run"], 2, "a source or object file is required"),
        (&["scenario", "ia64/nope"], 2, "no trace `ia64/nope`"),
        (&["bench", "--only", "zzz"], 2, "matches no row"),
        (&["frob"], 2, "unrecognized subcommand"),
    ];
    for (args, code, fragment) in cases {
        let o = run_in(&d, args);
        let fragments: &[&str] = if fragment.is_empty() { &[] } else { std::slice::from_ref(fragment) };
        expect(&o, *code, fragments, &args.join(" "));
    }
    // A budget stop still prints its report, on stdout.
    let o = run_in(&d, &["run", "spin.S", "--max-insns", "50"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("stop: budget of 50 instructions exhausted"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_check_mismatch_is_status_1_and_a_match_0() {
    let d = dir("check");
    std::fs::write(d.join("ok.S"), OK_S).expect("write");
    expect(&run_in(&d, &["run", "ok.S", "--snapshot", "s.snap"]), 0, &[], "snapshot");
    expect(&run_in(&d, &["run", "ok.S", "--check", "s.snap"]), 0, &[], "check");
    let snap = std::fs::read_to_string(d.join("s.snap")).expect("read");
    let other = snap.replace("r8: \"0x000000000000002a\"", "r8: \"0x000000000000002b\"");
    assert_ne!(snap, other, "the snapshot holds r8:\n{snap}");
    std::fs::write(d.join("other.snap"), other).expect("write");
    let o = run_in(&d, &["run", "ok.S", "--check", "other.snap"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("differs"));
    let _ = std::fs::remove_dir_all(&d);
}

// ---- messages ----

#[test]
fn a_malformed_snapshot_value_is_an_error_at_its_line_not_a_difference() {
    let d = dir("snapvalue");
    std::fs::write(d.join("ok.S"), OK_S).expect("write");
    expect(&run_in(&d, &["run", "ok.S", "--snapshot", "s.snap"]), 0, &[], "snapshot");
    let snap = std::fs::read_to_string(d.join("s.snap")).expect("read");
    let line = snap.lines().position(|l| l.starts_with("  r8: ")).map(|i| i + 1).expect("r8 in the snapshot");
    for (bad, shown) in [("0x2a", "'0x2a'"), ("garbage", "'garbage'"), ("true", "'true'")] {
        let text = snap.replace("r8: \"0x000000000000002a\"", &format!("r8: {bad}"));
        std::fs::write(d.join("bad.snap"), text).expect("write");
        let o = run_in(&d, &["run", "ok.S", "--check", "bad.snap"]);
        let at = format!("bad.snap:{line}: error: in the snapshot: register 'r8' has the malformed value {shown}");
        expect(&o, 1, &[&at, "it must be a 64-bit word"], bad);
        assert!(!String::from_utf8_lossy(&o.stdout).contains("differs"), "{bad}");
    }
    std::fs::write(d.join("junk.snap"), "registers:\n  r8: 1\nmemory: {}\ngarbage: [\n").expect("write");
    expect(
        &run_in(&d, &["run", "ok.S", "--check", "junk.snap"]),
        1,
        &["junk.snap:4: error: in the snapshot: unknown key 'garbage'"],
        "junk",
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_patch_of_two_files_says_so() {
    let d = dir("patch2");
    let two = "--- a/syscall.S\n+++ b/syscall.S\n@@ -1,1 +1,1 @@\n-x\n+y\n\
               --- a/other.h\n+++ b/other.h\n@@ -1,1 +1,1 @@\n-a\n+b\n";
    std::fs::write(d.join("two.diff"), two).expect("write");
    let o = run_in(&d, &["diff", "ia64/syscall/v1", "--patch", "two.diff"]);
    expect(
        &o,
        1,
        &["two.diff: holds diffs of 2 files (`b/syscall.S` at line 1, `b/other.h` at line 6); --patch takes a diff of one file"],
        "two files",
    );
    assert!(!stderr(&o).contains("Hunk header does not match hunk"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_10_mb_line_is_echoed_cut_around_the_column() {
    let d = dir("longline");
    // `shl`'s count needs a constant, so the undefined symbol cannot become a relocation.
    let src = format!("\t.text\nf:\n\tshl r1=r2,{} ;;\n", "x".repeat(10_000_000));
    std::fs::write(d.join("long.S"), src).expect("write");
    let o = run_in(&d, &["asm", "long.S"]);
    expect(&o, 1, &["long.S:3:12: error: undefined symbol `xxx", "…"], "long line");
    // Before: the 10 MB line was printed twice (20,000,127 bytes of stderr).
    assert!(o.stderr.len() < 2_000, "{} bytes of stderr", o.stderr.len());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn control_bytes_are_escaped_in_echoes() {
    let d = dir("ctl");
    std::fs::write(d.join("ctl.S"), "\t.text\nf:\n\tadd r1=\x1b[2J\x1b]0;title\x07,r2 ;;\n").expect("write");
    std::fs::write(d.join("h.toml"), "[registers]\nr1 = \"a\x1b[31mb\"\n").expect("write");
    std::fs::write(d.join("ok.S"), OK_S).expect("write");
    for args in [&["asm", "ctl.S"][..], &["run", "ok.S", "--harness", "h.toml"][..]] {
        let o = run_in(&d, args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("\\x1b"), "{args:?}: {err}");
        let raw = err.chars().filter(|c| c.is_control() && *c != '\n' && *c != '\t').count();
        assert_eq!(raw, 0, "{args:?}: raw control characters in {err:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
