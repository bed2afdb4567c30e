//! `acctemu diff` tells the truth about accounting: each side's counters are read where the
//! code that runs keeps them (a trace under other defines or a patch is not read at the
//! layout of the trace it started from), a build whose layout the harness does not describe
//! is refused, and the diff says whether each side is correct against the true time, not only
//! whether A and B agree.

mod common;

use common::acctemu;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let o = acctemu(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{args:?}: {err}");
    serde_json::from_slice(&o.stdout).expect("json")
}

fn accounted(v: &Value, side: &str) -> (u64, u64) {
    let r = &v[side]["report"];
    (r["utime"]["accounted"].as_u64().expect("utime"), r["stime"]["accounted"].as_u64().expect("stime"))
}

/// The defect of issue #11: B was V.2's code with its counters read at V.1's offsets
/// (utime -76%, "A and B DIFFER"). B is the build of ia64/syscall/v2 and must account exactly
/// what that trace accounts.
#[test]
fn v1_under_accounting_v2_reads_the_counters_where_v2_keeps_them() {
    let changed =
        json(&["diff", "ia64/syscall/v1", "--b-define", "ACCOUNTING_V2", "--syscalls", "1000", "--format", "json"]);
    let named = json(&["diff", "ia64/syscall/v1", "ia64/syscall/v2", "--syscalls", "1000", "--format", "json"]);
    assert_eq!(accounted(&changed, "b"), accounted(&named, "b"));
    assert_eq!(accounted(&changed, "a"), accounted(&named, "a"));
    assert_eq!(changed["b_verdict"]["correct"], Value::Bool(true), "{:#}", changed["b_verdict"]);
    assert_eq!(changed["a_verdict"]["correct"], Value::Bool(true), "{:#}", changed["a_verdict"]);
    let b = changed["b"]["name"].as_str().expect("name");
    // Named after the version it is (issue 18), the legend saying how it was built.
    assert_eq!(b, "ia64/syscall/v2");
    assert_eq!(
        changed["b"]["built"].as_str(),
        Some("ia64/syscall/v1 built with -DACCOUNTING_V2, the same build (its harness and counters)")
    );

    let o = acctemu(&["diff", "ia64/syscall/v1", "--b-define", "ACCOUNTING_V2", "--syscalls", "1000"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("with each other: v1 and v2 agree (|"), "{out}");
    assert!(!out.contains("DISAGREE"), "{out}");
}

/// Without a catalogued version to take the harness from (an extra define), the trace's own
/// harness names the fields through the symbols the build defines, so the counters still
/// follow the code.
#[test]
fn counters_follow_the_build_when_no_catalogued_version_matches() {
    let extra = json(&[
        "diff",
        "ia64/syscall/v1",
        "--b-define",
        "ACCOUNTING_V2",
        "--b-define",
        "UNRELATED=1",
        "--syscalls",
        "500",
        "--format",
        "json",
    ]);
    let named = json(&["diff", "ia64/syscall/v1", "ia64/syscall/v2", "--syscalls", "500", "--format", "json"]);
    assert_eq!(accounted(&extra, "b"), accounted(&named, "b"));
    assert_eq!(extra["b"]["name"].as_str(), Some("v1 (-DACCOUNTING_V2 -DUNRELATED=1)"));
    assert_eq!(extra["b"]["built"].as_str(), Some("ia64/syscall/v1 built with -DACCOUNTING_V2 -DUNRELATED=1"));
    assert_eq!(extra["b_verdict"]["correct"], Value::Bool(true));
}

/// A patch that moves V.1's ac_stime and ac_utime (swaps their offsets): B's counters move
/// with it, so B accounts what A does; read at the old offsets it would swap user and system.
#[test]
fn a_patch_that_moves_the_fields_moves_the_counters() {
    let v1 = traces::find("ia64/syscall/v1").expect("v1").source;
    let (old, new) = (
        "#define TI_AC_STIME\t\t104\t/* __u64 ac_stime; */\n#define TI_AC_UTIME\t\t112\t/* __u64 ac_utime; */\n",
        "#define TI_AC_STIME\t\t112\t/* __u64 ac_stime; */\n#define TI_AC_UTIME\t\t104\t/* __u64 ac_utime; */\n",
    );
    assert!(v1.contains(old), "syscall.S's V.1 offsets moved: update this test");
    let patch = diffy::create_patch(v1, &v1.replacen(old, new, 1)).to_string();
    let path = std::env::temp_dir().join(format!("acctemu-swap-{}.patch", std::process::id()));
    std::fs::write(&path, patch).expect("write patch");
    let p = path.to_str().expect("utf-8 path");
    let v = json(&["diff", "ia64/syscall/v1", "--patch", p, "--syscalls", "500", "--format", "json"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(accounted(&v, "b"), accounted(&v, "a"));
    assert_eq!(v["b_verdict"]["correct"], Value::Bool(true));
}

/// The tick-sampling harness on a VIRT_CPU_ACCOUNTING build (with an extra define, so no
/// catalogued version matches): the build keeps no tick counters, and reading them would give
/// zero user and system time. It is refused, naming the harness line and the missing field.
#[test]
fn a_build_without_the_harness_fields_is_refused() {
    let o = acctemu(&[
        "diff",
        "ia64/syscall/none",
        "--b-define",
        "CONFIG_VIRT_CPU_ACCOUNTING",
        "--b-define",
        "UNRELATED=1",
        "--syscalls",
        "100",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("syscall-none.toml:"), "{err}");
    assert!(err.contains("does not define `ti_tick_utime`"), "{err}");
    assert!(err.contains("the harness's layout does not match this build"), "{err}");
    assert!(o.stdout.is_empty());
}

/// Defines given for a named B were dropped (B ran as catalogued): they now build B, and the
/// result is the catalogued version it becomes.
#[test]
fn defines_for_a_named_b_are_applied() {
    let v = json(&[
        "diff",
        "ia64/syscall/none",
        "ia64/syscall/v1",
        "--b-define",
        "ACCOUNTING_V2",
        "--syscalls",
        "300",
        "--format",
        "json",
    ]);
    let named = json(&["diff", "ia64/syscall/none", "ia64/syscall/v2", "--syscalls", "300", "--format", "json"]);
    assert_eq!(accounted(&v, "b"), accounted(&named, "b"));
    assert_eq!(v["b"]["name"].as_str(), Some("ia64/syscall/v2"));
    assert_eq!(
        v["b"]["built"].as_str(),
        Some("ia64/syscall/v1 built with -DACCOUNTING_V2, the same build (its harness and counters)")
    );
}

/// The text names each side's verdict with its errors and tolerance in percent of the truth;
/// JSON gives the same per bucket.
#[test]
fn the_diff_says_whether_each_side_is_correct() {
    let o = acctemu(&["diff", "--syscalls", "300"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = |side: &str| {
        let verdict = |l: &&str| ["correct:", "WRONG:"].iter().any(|v| l.starts_with(&format!("  {side} {v}")));
        out.lines().find(verdict).map(str::to_string)
    };
    for side in ["v1", "v2"] {
        let l = line(side).unwrap_or_else(|| panic!("no verdict line for {side}: {out}"));
        assert!(l.starts_with(&format!("  {side} correct: utime ")), "{l}");
        assert!(l.contains("% (within ±") && l.contains(", stime ") && l.contains("; tolerance "), "{l}");
    }
    let v = json(&["diff", "--syscalls", "300", "--format", "json"]);
    for side in ["a_verdict", "b_verdict"] {
        let verdict = &v[side];
        assert_eq!(verdict["correct"], Value::Bool(true), "{verdict:#}");
        let buckets = verdict["buckets"].as_array().expect("buckets");
        assert_eq!(buckets.iter().map(|b| b["bucket"].as_str().unwrap_or("")).collect::<Vec<_>>(), ["utime", "stime"]);
        for b in buckets {
            let (e, t) = (b["error_percent"].as_f64().expect("error"), b["tolerance_percent"].as_f64().expect("tol"));
            assert!(e.abs() <= t && b["within_tolerance"] == Value::Bool(true), "{b:#}");
        }
    }
}

/// A side that accounts nothing close to the truth is called wrong, even when the other
/// side is right: x86 patch 4 counts whole jiffies, and 1,000 system calls are less than one.
#[test]
fn a_side_off_the_truth_is_called_wrong() {
    let o = acctemu(&["diff", "x86/nohz-syscall/patch3", "x86/nohz-syscall/patch4", "--syscalls", "1000"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("\n  patch3 correct: utime "), "{out}");
    assert!(out.contains("\n  patch4 WRONG: utime -100.00% (BEYOND ±"), "{out}");
    assert!(out.contains("patch4 WRONG, beyond tolerance ("), "the headline says so: {out}");
}

/// A compiled trace under other defines runs the code those defines build with the harness of
/// that code's layout (issue 16, w5-patch): defines that select a catalogued version are that
/// version, committed object and harness; a layout no harness has does not build, because the
/// C checks its layout against the harness's (`_Static_assert`), so nothing runs with the old
/// counters.
#[test]
fn compiled_traces_under_other_defines_follow_the_code_or_do_not_build() {
    let o = acctemu(&["diff", "x86/nohz-syscall/patch3", "x86/nohz-syscall/patch4", "--b-define", "PATCHES=3"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains(
        "patch3' = x86/nohz-syscall/patch3: x86/nohz-syscall/patch4 built with -DPATCHES=3, the same build (its \
         harness and counters)"
    ));
    assert!(out.contains("with each other: patch3 and patch3' agree (|"), "{out}");
    if common::oracle("s390x-linux-gnu-gcc").is_none() {
        return;
    }
    for args in [
        &["diff", "s390/vtime/immediate", "s390/vtime/delayed", "--a-define", "DELAYED"][..],
        &["diff", "s390/vtime/immediate", "--b-define", "DELAYED"][..],
        &["diff", "s390/vtime/immediate", "--b-define", "LOWCORE_411"][..],
    ] {
        let o = acctemu(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(err.contains("s390/vtime/immediate: rebuilding failed: `s390x-linux-gnu-gcc "), "{args:?}: {err}");
        assert!(err.contains("static assertion failed"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

const SRC: &str = "tests/data/ia64/account_sys_enter.S";
const HARNESS: &str = "tests/data/ia64/account_sys_enter.toml";

fn counters(v: &Value, side: &str) -> Vec<(String, u64)> {
    let list = v[side]["report"]["counters"].as_array().expect("counters");
    list.iter().map(|c| (c["name"].as_str().unwrap_or("").to_string(), c["value"].as_u64().unwrap_or(0))).collect()
}

/// One harness for a plain file under two define sets: each side's fields and counters are
/// where its own build keeps them. Before, A (V.1) ran on the V.2 layout: its "ac_stime" was
/// V.1's ac_utime and its "ac_utime" a word past the fields.
#[test]
fn plain_diff_counters_follow_each_sides_layout() {
    let v = json(&["diff", SRC, "--b-define", "ACCOUNTING_V2", "--harness", HARNESS, "--format", "json"]);
    // History: stamp 1000, leave 1500 (V.2), now 2300, stime 10000, utime 20000.
    // V.1 charges all 1300 cycles since the stamp to utime at entry; V.2 charges stamp..leave
    // (500) to stime and leave..now (800) to utime.
    let want = |s: u64, u: u64| vec![("ac_stime".to_string(), s), ("ac_utime".to_string(), u)];
    assert_eq!(counters(&v, "a"), want(10_000, 21_300));
    assert_eq!(counters(&v, "b"), want(10_500, 20_800));
}

/// A harness that names a field only one build keeps is refused for that side, located at
/// the harness line and naming the side.
#[test]
fn plain_diff_refuses_a_harness_field_one_side_lacks() {
    let text = std::fs::read_to_string(common::root().join(HARNESS)).expect("harness");
    let text = format!(
        "{text}\n[[counter]]\nname = \"ac_leave\"\naddress = \"task+ti_ac_leave\"\nwidth = 8\nunit = \"itc\"\n"
    );
    let path = std::env::temp_dir().join(format!("acctemu-leave-{}.toml", std::process::id()));
    std::fs::write(&path, text).expect("write harness");
    let h = path.to_str().expect("utf-8 path");
    let o = acctemu(&["diff", SRC, "--b-define", "ACCOUNTING_V2", "--harness", h]);
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("{h}:")) && err.contains("unknown symbol 'ti_ac_leave'"), "{err}");
    assert!(err.contains(&format!("note: in diff side A = {SRC}")), "{err}");
    assert!(o.stdout.is_empty());
}
