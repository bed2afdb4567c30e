//! `acctemu scenario --tree` and `acctemu diff --tree` on the Linux 6.1 tree: the table of
//! cycles and instructions per call, the register state at the return to user mode
//! (`--format json`, snapshotted), a patch or an overlay as side B, and the usage errors.
//! Needs the tree as `ia64_kernel_paths.rs` does.

mod common;

use common::acctemu;
use std::path::PathBuf;

const V2: &str = "traces/ia64/linux-6.1/v2.config";
const NONE: &str = "traces/ia64/linux-6.1/none.config";

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("cli-kernel-tree-{name}"))
}

#[test]
fn scenario_prints_cycles_and_instructions_per_entry_kind() {
    let Some(tree) = common::kernel_source() else { return };
    let t = tree.display().to_string();
    let o = acctemu(&["scenario", "--tree", &t, "--kernel-config", V2, "--calls", "3", "--paths-only"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for kind in ["break", "epc", "fsys-getpid", "tick"] {
        let row = out.lines().find(|l| l.starts_with(kind)).unwrap_or_else(|| panic!("no {kind} row: {out}"));
        let cycles: f64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(cycles > 0.0, "{row}");
    }
    // getuid's value through break and epc, the pid through fsys.
    assert!(out.lines().find(|l| l.starts_with("break")).unwrap().ends_with("0x3e8"), "{out}");
    assert!(out.lines().find(|l| l.starts_with("fsys-getpid")).unwrap().ends_with("0x1092"), "{out}");
}

#[test]
fn scenario_json_has_the_register_state_at_the_return() {
    let Some(tree) = common::kernel_source() else { return };
    let t = tree.display().to_string();
    let o = acctemu(&[
        "scenario",
        "--tree",
        &t,
        "--kernel-config",
        V2,
        "--calls",
        "3",
        "--entry-kind",
        "break",
        "--format",
        "json",
        "--paths-only",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let path = &v["a"]["paths"][0];
    assert_eq!(path["entry"], "break");
    assert_eq!(path["r8"], "0x3e8");
    insta::assert_yaml_snapshot!("cli_break_v2_state", path["state"]);
}

#[test]
fn diff_with_a_patch_or_an_overlay_shows_the_difference() {
    let Some(tree) = common::kernel_source() else { return };
    let dir = scratch("diff");
    let rel = "arch/ia64/kernel/entry.S";
    let original = std::fs::read_to_string(tree.join(rel)).unwrap();
    // One more instruction group on ia64_leave_syscall's way.
    let marker = "\tcmp.eq pLvSys,p0=r0,r0\t\t// pLvSys=1: leave from syscall\n(pUStk)";
    let at = original.find(marker).expect("the 6.1 text");
    let changed = format!("{}\tnop.m 0\n\t;;\n{}", &original[..at], &original[at..]);
    let patch = diffy::create_patch(&original, &changed).to_string();
    let patch =
        patch.replacen("--- original", &format!("--- a/{rel}"), 1).replacen("+++ modified", &format!("+++ b/{rel}"), 1);
    std::fs::write(dir.join("p.diff"), &patch).unwrap();
    let overlay = dir.join("overlay");
    std::fs::create_dir_all(overlay.join("arch/ia64/kernel")).unwrap();
    std::fs::write(overlay.join(rel), &changed).unwrap();
    let t = tree.display().to_string();
    let p = dir.join("p.diff").display().to_string();
    let ov = overlay.display().to_string();
    for side_b in [["--patch", p.as_str()], ["--tree-b", ov.as_str()]] {
        // The accounting check once (with the patch), the paths alone with the overlay.
        let check = side_b[0] == "--patch";
        let mut args = vec![
            "diff",
            "--tree",
            &t,
            "--kernel-config",
            NONE,
            side_b[0],
            side_b[1],
            "--calls",
            "3",
            "--entry-kind",
            "break",
            "--entry-kind",
            "fsys-getpid",
        ];
        if !check {
            args.push("--paths-only");
        }
        let o = acctemu(&args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let insns_delta = |kind: &str| -> f64 {
            let row = out.lines().find(|l| l.starts_with(kind)).unwrap_or_else(|| panic!("{out}"));
            row.split_whitespace().nth(6).unwrap().parse().unwrap()
        };
        // The new group is a bundle of three instructions on the syscall exit; fsys never
        // passes there.
        assert_eq!(insns_delta("break"), 3.0, "{out}");
        assert_eq!(insns_delta("fsys-getpid"), 0.0, "{out}");
        if check {
            // Over the tree with accounting off (here A itself): A adds nothing, B's group
            // is on the four heavy calls' way out and not on getpid's.
            let row = |name: &str| -> Vec<String> {
                let l =
                    out.lines().find(|l| l.starts_with(name) && l.contains("epc")).unwrap_or_else(|| panic!("{out}"));
                l.split_whitespace().map(str::to_string).collect()
            };
            let it = out.lines().find(|l| l.starts_with("iteration")).unwrap_or_else(|| panic!("{out}"));
            let f: Vec<&str> = it.split_whitespace().collect();
            assert_eq!(f[f.len() - 2], "+0.0", "A overhead: {out}");
            assert!(f[f.len() - 1].parse::<f64>().unwrap() > 0.0, "B overhead: {out}");
            assert_eq!(row("getpid").last().unwrap(), "+0.0", "{out}");
            assert!(out.contains("A adds no cycles over none"), "{out}");
            assert_eq!(out.matches("verdict: ").count(), 2, "both sides' verdicts: {out}");
        } else {
            assert!(!out.contains("verdict"), "{out}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors() {
    let o = acctemu(&["scenario", "--tree", "/nonexistent", "--entry-kind", "sideways"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sideways"));
    let o = acctemu(&["scenario", "--tree", "/nonexistent", "--calls", "1"]);
    assert_eq!(o.status.code(), Some(2));
    // A tree that is not one: the error names the file.
    let o = acctemu(&["scenario", "--tree", "/nonexistent", "--kernel-config", NONE]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = acctemu(&["scenario", "ia64/linux-6.1/v7"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_catalogue_names_run_the_installed_tree() {
    let Some(tree) = common::kernel_source() else { return };
    let run = |name: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_acctemu"))
            .args(["scenario", name, "--calls", "3", "--entry-kind", "break"])
            .env("ACCTEMU_LINUX_TREE", &tree)
            .env_remove("ACCTEMU_LINUX_V1")
            .output()
            .unwrap()
    };
    let insns = |o: &std::process::Output| -> f64 {
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out.lines().find(|l| l.starts_with("break")).unwrap().split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    let (none, v2) = (run("ia64/linux-6.1/none"), run("ia64/linux-6.1/v2"));
    assert!(insns(&v2) > insns(&none), "V.2's stamps cost instructions");
    // V.1 needs nothing more than the tree: its files are made in memory.
    let v1 = run("ia64/linux-6.1/v1");
    assert!(insns(&v1) > insns(&v2), "V.1's stamps cost more instructions than V.2's");
}

/// A command's arguments and its output.
type Run = (&'static [&'static str], &'static std::process::Output);

/// One run of each command the accounting tests read (the runs are the slow part).
fn catalogue_output(args: &'static [&'static str]) -> Option<&'static std::process::Output> {
    use std::sync::{Mutex, OnceLock};
    static RUNS: OnceLock<Mutex<Vec<Run>>> = OnceLock::new();
    let tree = common::kernel_source()?;
    let runs = RUNS.get_or_init(|| Mutex::new(Vec::new()));
    let mut runs = runs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, o)) = runs.iter().find(|(a, _)| *a == args) {
        return Some(o);
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .args(args)
        .env("ACCTEMU_LINUX_TREE", &tree)
        .env_remove("ACCTEMU_LINUX_V1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    let o: &'static std::process::Output = Box::leak(Box::new(o));
    runs.push((args, o));
    Some(o)
}

const V1_TEXT: &[&str] = &["scenario", "ia64/linux-6.1/v1", "--calls", "3"];
const V1_JSON: &[&str] = &["scenario", "ia64/linux-6.1/v1", "--calls", "3", "--format", "json"];
const DIFF_JSON: &[&str] =
    &["diff", "ia64/linux-6.1/v1", "ia64/linux-6.1/v2", "--calls", "2", "--entry-kind", "break", "--format", "json"];

#[test]
fn scenario_v1_prints_the_accounting_check() {
    let Some(o) = catalogue_output(V1_TEXT) else { return };
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("CONFIG_VIRT_CPU_ACCOUNTING_NATIVE on"), "{out}");
    // The loop's five calls with the entry each takes, and the iteration.
    for (call, entry) in [
        ("dup", "epc (fsys_bubble_down)"),
        ("close", "epc (fsys_bubble_down)"),
        ("getpid", "epc (light-weight fsys)"),
        ("getuid", "epc (fsys_bubble_down)"),
        ("umask", "epc (fsys_bubble_down)"),
    ] {
        let row = out.lines().find(|l| l.starts_with(&format!("{call} "))).unwrap_or_else(|| panic!("{call}: {out}"));
        assert!(row.contains(entry), "{row}");
        let cycles: f64 = row.split_whitespace().rev().nth(1).unwrap().parse().unwrap();
        assert!(cycles > 0.0, "{row}");
    }
    assert!(out.lines().any(|l| l.starts_with("iteration")), "{out}");
    for field in ["utime: true ", "stime: true "] {
        assert!(out.lines().any(|l| l.starts_with(field) && l.contains("accounted")), "{field}: {out}");
    }
    assert!(out.contains("verdict: "), "{out}");
    assert!(out.contains("where the time is:"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("why: ")), "{out}");
    assert!(out.contains("ticks") && out.contains("switches"), "{out}");
}

#[test]
fn scenario_v1_json_has_the_states_and_the_accounting() {
    let Some(o) = catalogue_output(V1_JSON) else { return };
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let paths = v["a"]["paths"].as_array().unwrap();
    let names: Vec<&str> = paths.iter().map(|p| p["entry"].as_str().unwrap()).collect();
    assert_eq!(names, ["break", "epc", "fsys-getpid", "tick"]);
    for p in paths {
        let name = p["entry"].as_str().unwrap().replace('-', "_");
        insta::assert_yaml_snapshot!(format!("cli_{name}_v1_state"), p["state"]);
    }
    let acc = &v["a"]["accounting"];
    assert_eq!(acc["native"], true);
    assert_eq!(acc["calls"].as_array().unwrap().len(), 5);
    assert_eq!(acc["calls"][2]["entry"], "epc (light-weight fsys)");
    let verdict = &acc["verdict"];
    let (ut, st) = (verdict["utime"]["true_ns"].as_u64().unwrap(), verdict["stime"]["true_ns"].as_u64().unwrap());
    assert!(ut > 0 && st > 0, "{verdict}");
    let correct = verdict["utime"]["within_tolerance"] == true && verdict["stime"]["within_tolerance"] == true;
    assert_eq!(verdict["correct"], correct);
    assert!(!verdict["where"].as_array().unwrap().is_empty());
    assert!(acc["run"]["ticks"].as_u64().unwrap() > 0 && acc["run"]["switches"].as_u64().unwrap() > 0);
}

#[test]
fn diff_v1_v2_json_gives_overheads_over_none_and_both_verdicts() {
    let Some(o) = catalogue_output(DIFF_JSON) else { return };
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["a"]["tree"], "ia64/linux-6.1/v1");
    assert_eq!(v["b"]["tree"], "ia64/linux-6.1/v2");
    assert_eq!(v["none"]["tree"], "ia64/linux-6.1/none");
    assert_eq!(v["none"]["accounting"]["native"], false);
    for side in ["a", "b"] {
        assert_eq!(v[side]["accounting"]["native"], true, "{side}");
        assert!(v[side]["accounting"]["verdict"]["correct"].is_boolean(), "{side}");
    }
    let calls = v["diff"]["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 6, "five calls and the iteration");
    let f = |c: &serde_json::Value, k: &str| c[k].as_f64().unwrap();
    for c in calls {
        assert!((f(c, "delta") - (f(c, "b_cycles") - f(c, "a_cycles"))).abs() < 1e-9);
        assert!((f(c, "a_overhead") - (f(c, "a_cycles") - f(c, "none_cycles"))).abs() < 1e-9);
    }
    // getpid's light-weight path stamps nothing in either version.
    assert_eq!(f(&calls[2], "a_overhead"), 0.0);
    assert_eq!(f(&calls[2], "b_overhead"), 0.0);
    let it = &calls[5];
    assert!(f(it, "a_overhead") > 0.0 && f(it, "b_overhead") > 0.0, "{it}");
    let ratio = v["diff"]["overhead_ratio_b_over_a"].as_f64().unwrap();
    assert!((ratio - f(it, "b_overhead") / f(it, "a_overhead")).abs() < 1e-9);
    eprintln!("(V.2 overhead)/(V.1 overhead) = {ratio:.3} (seed 004: 0.670)");
}
