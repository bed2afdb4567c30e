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
    let o = acctemu(&["scenario", "--tree", &t, "--kernel-config", V2, "--calls", "3"]);
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
        let o = acctemu(&[
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
        ]);
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
    let v1 = run("ia64/linux-6.1/v1");
    assert!(!v1.status.success() && String::from_utf8_lossy(&v1.stderr).contains("ACCTEMU_LINUX_V1"));
}
