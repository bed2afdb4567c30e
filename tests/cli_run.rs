//! `acctemu run` end to end: the README's commands, snapshots and checks, and errors.

mod common;

use common::acctemu;
use std::process::Output;

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

const SRC: &str = "tests/data/ia64/account_sys_enter.S";
const HARNESS: &str = "tests/data/ia64/account_sys_enter.toml";

#[test]
fn run_reports_cycles_counters_timeline_and_state() {
    let o = acctemu(&["run", SRC, "-D", "ACCOUNTING_V2", "--harness", HARNESS, "--timeline"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.starts_with("stop: returned to the sentinel\n"), "{out}");
    assert!(out.contains("ac_stime                            10500 itc"), "{out}");
    assert!(out.contains("ac_utime                            20800 itc"), "{out}");
    assert!(out.contains("timeline:"), "{out}");
    assert!(out.contains("ld8 r18=[r16],16"), "timeline shows disassembly: {out}");
    // Quiet: the registers the run changed, at entry then at the stop, in decimal and hex;
    // r13 (the task, from the harness) did not change, so it is not listed.
    let changed = out.split_once("registers changed by the run: 9 of 100 (-v shows them all):\n").map(|x| x.1);
    let changed = changed.unwrap_or_else(|| panic!("no changed registers: {out}"));
    let row = |name: &str| changed.lines().find(|l| l.split_whitespace().next() == Some(name));
    let r21: Vec<&str> = row("r21").unwrap_or_default().split_whitespace().collect();
    assert_eq!(r21, ["r21", "0", "(0x0)", "20800", "(0x5140)"], "{out}");
    let itc: Vec<&str> = row("ar.itc").unwrap_or_default().split_whitespace().collect();
    assert_eq!(itc, ["ar.itc", "2300", "(0x8fc)", "2308", "(0x904)"], "{out}");
    assert!(row("r13").is_none() && !out.contains("final state"), "{out}");
}

#[test]
fn verbose_prints_every_register() {
    let o = acctemu(&["run", SRC, "-D", "ACCOUNTING_V2", "--harness", HARNESS, "-v"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("final state:\nregisters:\n  ip: "), "{out}");
    assert!(out.contains("  r13: \"0x0000000072000000\"\n"), "unchanged registers too: {out}");
    assert!(out.contains("  r21: \"0x0000000000005140\"\n"), "{out}");
    assert!(!out.contains("registers changed"), "{out}");
}

#[test]
fn snapshot_then_check_passes_and_a_different_version_fails_with_a_diff() {
    let dir = std::env::temp_dir().join(format!("acctemu-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let snap = dir.join("v2.snap");
    let snap = snap.to_str().expect("utf-8 path");
    let o = acctemu(&["run", SRC, "-D", "ACCOUNTING_V2", "--harness", HARNESS, "--snapshot", snap]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // The file holds the whole state; the output is the quiet form.
    assert!(out.contains("registers changed by the run: 9 of 100") && !out.contains("final state"), "{out}");
    assert!(out.ends_with(&format!("snapshot {snap}: written (102 registers)\n")), "{out}");
    let file = std::fs::read_to_string(snap).expect("the snapshot");
    assert!(file.contains("  r13: \"0x0000000072000000\"\n") && file.contains("  cr.lrr1: "), "{file}");
    let o = acctemu(&["run", SRC, "-D", "ACCOUNTING_V2", "--harness", HARNESS, "--check", snap]);
    assert!(o.status.success());
    // A check that passes says so in one line, and nothing else.
    assert_eq!(text(&o).0, format!("snapshot {snap}: matches (102 registers)\n"));
    // V.1 reads the same memory with its own layout: the check must fail and say where, in
    // decimal and hex, expected then actual.
    let o = acctemu(&["run", SRC, "--harness", HARNESS, "--check", snap]);
    assert_eq!(o.status.code(), Some(1));
    let (out, _) = text(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.first().map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec!["register", "expected", "actual"])
    );
    let r21 =
        lines.iter().find(|l| l.trim_start().starts_with("r21 ")).map(|l| l.split_whitespace().collect::<Vec<_>>());
    assert_eq!(r21, Some(vec!["r21", "20800", "(0x5140)", "0", "(0x0)"]), "{out}");
    assert_eq!(lines.len(), 12, "a head, 10 differences and the verdict: {out}");
    assert_eq!(
        lines.last().copied(),
        Some(format!("snapshot {snap}: differs in 10 of 102 registers (-v shows the whole state)").as_str())
    );
    // -v: the run's whole report, then the same differences.
    let o = acctemu(&["run", SRC, "--harness", HARNESS, "--check", snap, "-v"]);
    let (verbose, _) = text(&o);
    assert!(verbose.starts_with("stop: returned to the sentinel\n") && verbose.contains("final state:\n"), "{verbose}");
    assert!(verbose.ends_with(&out), "{verbose}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_format_is_the_whole_report() {
    let o = acctemu(&["run", SRC, "-D", "ACCOUNTING_V2", "--harness", HARNESS, "--format", "json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["stop"], "returned to the sentinel");
    assert_eq!(v["counters"][0]["value"], 10500);
    assert!(v["summary"]["cycles"].as_u64().is_some_and(|c| c > 0));
}

#[test]
fn explain_model_lists_sources_and_guesses() {
    let o = acctemu(&["run", "--explain-model"]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.contains("[FSYS]"), "{out}");
    assert!(out.contains("GUESS"), "{out}");
}

#[test]
fn errors_name_their_place() {
    let o = acctemu(&["run", SRC, "--entry", "nowhere"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("entry symbol `nowhere` is not defined"), "{}", text(&o).1);
    let o = acctemu(&["run", SRC, "--set", "r200=1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("r200"), "{}", text(&o).1);
    let dir = std::env::temp_dir().join(format!("acctemu-cli-harness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad-harness.toml");
    std::fs::write(&bad, "[registers]\nr13 = \"nosuch\"\n").expect("write");
    let o = acctemu(&["run", SRC, "--harness", bad.to_str().unwrap_or("")]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o).1;
    assert!(err.contains("bad-harness.toml:2:7") && err.contains("nosuch"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_runaway_loop_stops_at_the_budget() {
    let dir = std::env::temp_dir().join(format!("acctemu-cli-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("loop.S");
    std::fs::write(&src, "\t.text\nspin:\n\tbr.cond.sptk.few spin\n\t;;\n").expect("write");
    let o = acctemu(&["run", src.to_str().unwrap_or(""), "--max-insns", "1000"]);
    let (out, err) = text(&o);
    // Not the expected end: the report still goes to stdout, and the status is 3.
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(out.contains("stop: budget of 1000 instructions exhausted"), "{out}");
    assert!(err.contains("stopped before its expected end"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runs_an_object_made_by_gnu_as() {
    // The golden seed004.o holds the V.2 account_sys_enter assembled by GNU as; its one
    // relocation is not applied by acctemu (so the .o is refused), its GNU ld output runs.
    let o = acctemu(&[
        "run",
        "-v",
        "tests/data/objects/seed004_linked.elf",
        "--entry",
        "account_sys_enter",
        "--set",
        "r13=task",
        "--set",
        "r20=2300",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.starts_with("stop: returned to the sentinel\n"), "{out}");
    // It stored the entry time as the new stamp at task + IA64_TASK_SIZE + TI_AC_STAMP.
    assert!(out.contains("r20: \"0x00000000000008fc\""), "{out}");
}

#[test]
fn diff_without_arguments_compares_v1_and_v2_with_the_baseline() {
    let o = acctemu(&["diff", "--syscalls", "200"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.starts_with("v2 saves 18.0 cycles per system call (-11.3%, 12.0 ns) over v1"), "{out}");
    assert!(out.contains("\nOverhead over none: v2 +28.0, v1 +46.0 cycles, 0.61x v1's.\n"), "{out}");
    assert!(
        out.contains("\nv1 = ia64/syscall/v1\nv2 = ia64/syscall/v2\nnone = ia64/syscall/none (the baseline)\n"),
        "{out}"
    );
    assert!(out.contains("\noverhead over none "), "{out}");
    assert!(out.contains("where the difference comes from (cycles per system call):\n  by label "), "{out}");
    assert!(out.contains("account_sys_leave"), "V.1's exit accounting shows up as the difference: {out}");
    assert!(out.contains("with each other: v1 and v2 agree (|"), "{out}");
}

#[test]
fn diff_of_a_trace_against_itself_under_other_defines_and_a_bad_patch() {
    // ia64/syscall/v1 with ACCOUNTING_V2 defined for B is V.2's source: same cycles as v2.
    let o =
        acctemu(&["diff", "ia64/syscall/v1", "--b-define", "ACCOUNTING_V2", "--syscalls", "100", "--format", "json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let b = v["b"]["report"]["per_syscall"]["cycles"]["mean"].as_f64();
    let o2 = acctemu(&["scenario", "ia64/syscall/v2", "--syscalls", "100", "--format", "json"]);
    let v2: serde_json::Value = serde_json::from_str(&text(&o2).0).expect("json");
    assert_eq!(b, v2["per_syscall"]["cycles"]["mean"].as_f64());
    // A patch that does not apply is an error naming both.
    let dir = std::env::temp_dir().join(format!("acctemu-cli-patch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let patch = dir.join("bad.diff");
    std::fs::write(&patch, "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-no such line\n+other\n").expect("write");
    let o = acctemu(&["diff", "ia64/syscall/v2", "--patch", patch.to_str().unwrap_or("")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("does not apply to"), "{}", text(&o).1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_of_plain_files_compares_one_run_each() {
    let o = acctemu(&["diff", SRC, "--b-define", "ACCOUNTING_V2", "--harness", HARNESS]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("cycles"), "{out}");
    assert!(out.contains("final state (A -> B):"), "{out}");
}

/// `text` indented as the README shows output: four spaces before each non-empty line.
fn indented(text: &str) -> String {
    text.lines().map(|l| if l.is_empty() { "\n".to_string() } else { format!("    {l}\n") }).collect()
}

#[test]
fn the_readme_shows_what_snapshot_and_check_print() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README.md");
    let dir = std::env::temp_dir().join(format!("acctemu-cli-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let snap = dir.join("v2.snap");
    let snap = snap.to_str().expect("utf-8 path");
    // The README writes /tmp/v2.snap; the test its own file, named back for the comparison.
    let shown = |o: &Output| indented(&text(o).0.replace(snap, "/tmp/v2.snap"));
    let o = acctemu(&["run", SRC, "-D", "ACCOUNTING_V2", "--harness", HARNESS, "--snapshot", snap]);
    assert!(readme.contains(&shown(&o)), "the README's --snapshot output is not\n{}", shown(&o));
    let o = acctemu(&["run", SRC, "--harness", HARNESS, "--check", snap]);
    assert!(readme.contains(&shown(&o)), "the README's --check output is not\n{}", shown(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
