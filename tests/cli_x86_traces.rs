//! The x86 traces through the CLI: scenarios of the nohz_full ladder, a diff between steps,
//! and the sweeps of seeds 001 and 003 with JSON and SVG output.

mod common;

use common::acctemu;

fn json(args: &[&str]) -> serde_json::Value {
    let o = acctemu(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("json")
}

fn per_syscall(name: &str) -> f64 {
    let v = json(&["scenario", name, "--syscalls", "2000", "--format", "json"]);
    v["per_syscall"]["cycles"]["mean"].as_f64().expect("mean cycles")
}

#[test]
fn every_nohz_step_runs_and_the_ladder_descends() {
    // Each patch of the series removes work from the per-syscall accounting: the model's
    // cycles per syscall must not grow from one step to the next, and the housekeeping CPU
    // (tick accounting only) does the least.
    let steps = ["v4.5-rc1", "patch1", "patch3", "patch4", "housekeeping"];
    let cycles: Vec<f64> = steps.iter().map(|s| per_syscall(&format!("x86/nohz-syscall/{s}"))).collect();
    for w in cycles.windows(2) {
        assert!(w[1] <= w[0], "ladder {steps:?}: {cycles:?}");
    }
}

#[test]
fn diff_between_two_steps_reports_both() {
    let o = acctemu(&["diff", "x86/nohz-syscall/patch3", "x86/nohz-syscall/patch4", "--syscalls", "500"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("\npatch3 = x86/nohz-syscall/patch3\n") && out.contains("\npatch4 = x86/nohz-syscall/patch4\n"),
        "{out}"
    );
}

#[test]
fn sweeps_write_json_and_an_svg() {
    let dir = std::env::temp_dir().join(format!("acctemu-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("tt.svg");
    let v = json(&[
        "sweep",
        "x86/timer-target/old",
        "x86/timer-target/new",
        "--param",
        "cpus",
        "--from",
        "2",
        "--to",
        "40",
        "--step",
        "19",
        "--format",
        "json",
        "--svg",
        svg.to_str().unwrap_or(""),
    ]);
    let points = v["points"].as_array().expect("points");
    assert_eq!(points.iter().map(|p| p["value"].as_u64()).collect::<Vec<_>>(), vec![Some(2), Some(21), Some(40)]);
    // The old search walks every busy CPU of the domains; the new one only the housekeeping
    // mask: the old grows with the CPU count, the new does not.
    let old: Vec<u64> = points.iter().filter_map(|p| p["cycles"][0].as_u64()).collect();
    let new: Vec<u64> = points.iter().filter_map(|p| p["cycles"][1].as_u64()).collect();
    assert!(old[2] > old[1] && old[1] > old[0], "{old:?}");
    assert_eq!(new[1], new[2], "{new:?}");
    let plot = std::fs::read_to_string(&svg).expect("svg written");
    assert!(plot.starts_with("<svg") && plot.matches("<polyline").count() == 2);
    // Seed 003: the loop grows with the missed periods, the division does not.
    let v = json(&[
        "sweep",
        "x86/sched-avg/loop",
        "x86/sched-avg/div",
        "--param",
        "missed-periods",
        "--from",
        "1",
        "--to",
        "33",
        "--step",
        "16",
        "--format",
        "json",
    ]);
    let p = v["points"].as_array().expect("points");
    let loop_cycles: Vec<u64> = p.iter().filter_map(|p| p["cycles"][0].as_u64()).collect();
    let div_cycles: Vec<u64> = p.iter().filter_map(|p| p["cycles"][1].as_u64()).collect();
    assert!(loop_cycles[2] > loop_cycles[1] && loop_cycles[1] > loop_cycles[0], "{loop_cycles:?}");
    assert_eq!(div_cycles[1], div_cycles[2], "{div_cycles:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_parameter_that_does_not_apply_is_an_error() {
    let o = acctemu(&["sweep", "x86/sched-avg/loop", "--param", "cpus", "--from", "2", "--to", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not apply"));
}
