//! `acctemu sweep` over workload parameters: each point a full scenario of a trace with
//! system-call paths, run in parallel, in a fixed order, with JSON, a table and an SVG plot.

mod common;

use common::acctemu;
use std::path::PathBuf;

/// Runs a successful sweep twice: both runs must print the same bytes, and (stderr being a
/// pipe) draw no progress bar.
fn twice(args: &[&str]) -> String {
    let (a, b) = (acctemu(args), acctemu(args));
    for o in [&a, &b] {
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stderr.is_empty(), "{args:?}: stderr is not a terminal, yet: {}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(a.stdout, b.stdout, "{args:?}: two runs differ");
    String::from_utf8_lossy(&a.stdout).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    common::scratch_dir(&format!("cli-sweep-{name}"))
}

fn u(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a u64: {v}"))
}

/// The points' (trace, value) pairs, in output order.
fn order(points: &[serde_json::Value]) -> Vec<(String, u64)> {
    points.iter().map(|p| (p["trace"].as_str().unwrap_or_default().to_string(), u(&p["value"]))).collect()
}

#[test]
fn hz_sweep_of_the_ia64_syscall_path() {
    let dir = temp_dir("hz");
    let svg = dir.join("hz.svg");
    let svg_arg = svg.to_str().unwrap_or_default();
    // 200 system calls of 100,000 user cycles: 20 M cycles, a dozen ticks at 1000 Hz.
    let mut args = vec![
        "sweep",
        "ia64/syscall/v1",
        "ia64/syscall/v2",
        "--param",
        "hz",
        "--from",
        "250",
        "--to",
        "1000",
        "--step",
        "250",
        "--syscalls",
        "200",
        "--user-cycles",
        "100000",
        "--format",
        "json",
        "--svg",
        svg_arg,
    ];
    let out = twice(&args);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["param"], "hz");
    assert_eq!(v["traces"], serde_json::json!(["ia64/syscall/v1", "ia64/syscall/v2"]));
    assert_eq!(v["values"], serde_json::json!([250, 500, 750, 1000]));
    let points = v["points"].as_array().expect("points");
    // By trace (in the order given), then by value.
    let expected: Vec<(String, u64)> = ["ia64/syscall/v1", "ia64/syscall/v2"]
        .iter()
        .flat_map(|t| [250, 500, 750, 1000].map(|hz| (t.to_string(), hz)))
        .collect();
    assert_eq!(order(points), expected);
    for p in points {
        let w = &p["workload"];
        assert_eq!(
            (u(&w["hz"]), u(&w["syscalls"]), u(&w["user_cycles"]), u(&w["kernel_cycles"])),
            (u(&p["value"]), 200, 100_000, 300)
        );
        // The tick period is the 1.5 GHz clock over HZ.
        assert_eq!(u(&p["tick_period"]), 1_500_000_000 / u(&p["value"]), "{p}");
        let cycles = &p["cycles_per_syscall"];
        assert!(u(&cycles["min"]) > 0 && cycles["mean"].as_f64() >= Some(u(&cycles["min"]) as f64), "{p}");
        assert!(p["instructions_per_syscall"].as_f64() > Some(0.0), "{p}");
        // Virtual accounting stamps the ITC inside its paths: within the tolerance.
        assert_eq!(p["within_tolerance"], true, "{p}");
        assert_eq!(p["utime"]["within_tolerance"], true, "{p}");
        // The user phases are the workload's: the true utime is theirs exactly.
        assert_eq!(u(&p["utime"]["truth"]), 200 * 100_000, "{p}");
    }
    // More ticks per second, more ticks taken over the same workload.
    for trace in points.chunks(4) {
        let ticks: Vec<u64> = trace.iter().map(|p| u(&p["ticks"]["user"]) + u(&p["ticks"]["kernel"])).collect();
        assert!(ticks.windows(2).all(|w| w[0] <= w[1]) && ticks[3] > ticks[0], "{ticks:?}");
    }
    let plot = std::fs::read_to_string(&svg).expect("svg written");
    assert!(plot.starts_with("<svg") && plot.ends_with("</svg>\n"));
    assert_eq!(plot.matches("<polyline").count(), 2, "one series per trace");
    assert!(plot.contains("ia64/syscall/v1") && plot.contains("ia64/syscall/v2"));
    // The table: a header and one row per point, in the same order.
    args.truncate(args.len() - 4);
    let table = twice(&args);
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("ia64/")).collect();
    assert_eq!(rows.len(), 8, "{table}");
    assert!(rows[0].starts_with("ia64/syscall/v1") && rows[4].starts_with("ia64/syscall/v2"), "{table}");
    assert!(table.lines().next().is_some_and(|h| h.contains("hz") && h.contains("cycles/call")), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn user_cycles_sweep_of_the_s390_vtime_paths() {
    let dir = temp_dir("user");
    let svg = dir.join("user.svg");
    let out = twice(&[
        "sweep",
        "s390/vtime/delayed",
        "--param",
        "user-cycles",
        "--from",
        "500",
        "--to",
        "4500",
        "--step",
        "2000",
        "--syscalls",
        "300",
        "--format",
        "json",
        "--svg",
        svg.to_str().unwrap_or_default(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["param"], "user-cycles");
    let points = v["points"].as_array().expect("points");
    assert_eq!(order(points), [500, 2500, 4500].map(|n| ("s390/vtime/delayed".to_string(), n)).to_vec());
    let mut utimes = Vec::new();
    for p in points {
        // The s390x core's own clock (5 GHz), the workload otherwise as given.
        assert_eq!(u(&p["workload"]["cpu_hz"]), 5_000_000_000, "{p}");
        assert_eq!(u(&p["workload"]["user_cycles"]), u(&p["value"]), "{p}");
        let utime = u(&p["utime"]["truth"]);
        assert_eq!(utime, 300 * u(&p["value"]), "true utime is the user phases: {p}");
        // The kernel phases are system time, and so are the paths.
        assert!(u(&p["stime"]["truth"]) > 300 * 300, "{p}");
        assert!(p["utime"]["relative_error"].is_f64() && p["stime"]["relative_error"].is_f64(), "{p}");
        assert!(p["within_tolerance"].is_boolean(), "{p}");
        utimes.push(utime);
    }
    assert!(utimes.windows(2).all(|w| w[0] < w[1]), "more user cycles, more true utime: {utimes:?}");
    let plot = std::fs::read_to_string(&svg).expect("svg written");
    assert_eq!(plot.matches("<polyline").count(), 1, "one series per trace");
    assert!(plot.contains("s390/vtime/delayed"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_workload_sweep_runs_every_architecture() {
    // The same kernel-cycles sweep through one trace of each core.
    let traces = ["ia64/syscall/v2", "x86/nohz-syscall/patch4", "s390/vtime/immediate"];
    let mut args = vec!["sweep"];
    args.extend(traces);
    args.extend(["--param", "kernel-cycles", "--from", "100", "--to", "1100", "--step", "1000"]);
    args.extend(["--syscalls", "50", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&twice(&args)).expect("JSON");
    let points = v["points"].as_array().expect("points");
    let expected: Vec<(String, u64)> = traces.iter().flat_map(|t| [100, 1100].map(|k| (t.to_string(), k))).collect();
    assert_eq!(order(points), expected);
    for pair in points.chunks(2) {
        // More kernel work per call, more true system time; the user side does not move.
        assert!(u(&pair[1]["stime"]["truth"]) > u(&pair[0]["stime"]["truth"]), "{pair:?}");
        assert_eq!(pair[0]["utime"]["truth"], pair[1]["utime"]["truth"], "{pair:?}");
        assert!(pair[0]["cycles_per_syscall"]["mean"].as_f64() > Some(0.0), "{pair:?}");
    }
}

#[test]
fn a_parameter_that_does_not_apply_names_the_trace_and_the_parameter() {
    for (args, expected) in [
        (
            &["sweep", "ia64/syscall/v2", "--param", "cpus", "--from", "2", "--to", "4"][..],
            "sweep: --param cpus does not apply to ia64/syscall/v2",
        ),
        (
            &["sweep", "x86/timer-target/old", "--param", "hz", "--from", "100", "--to", "1000"][..],
            "sweep: --param hz does not apply to x86/timer-target/old",
        ),
        (
            &["sweep", "ia64/syscall/v2", "x86/sched-avg/div", "--param", "syscalls", "--from", "1", "--to", "2"][..],
            "sweep: --param syscalls does not apply to x86/sched-avg/div",
        ),
        (
            // The x86 traces' C has its HZ compiled in.
            &["sweep", "x86/nohz-syscall/patch4", "--param", "hz", "--from", "100", "--to", "1000"][..],
            "sweep: --param hz does not apply to x86/nohz-syscall/patch4",
        ),
        (
            // Under --guest a scenario needs the guest paths.
            &["sweep", "ia64/syscall/v2", "--guest", "--param", "user-cycles", "--from", "1", "--to", "2"][..],
            "sweep: --param user-cycles does not apply to ia64/syscall/v2",
        ),
        (
            &[
                "sweep",
                "ia64/syscall/v2",
                "--param",
                "user-cycles",
                "--from",
                "1",
                "--to",
                "1",
                "--syscalls",
                "18446744073709551615",
            ][..],
            "sweep: --param user-cycles 1: --syscalls 18446744073709551615",
        ),
    ] {
        let o = acctemu(args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        // A usage error (the exit-status table of acctemu::cli::exit).
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: expected `{expected}` in: {stderr}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// Every numeric leaf of `v`, as dotted paths.
fn numeric_paths(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, child) in map {
                let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                numeric_paths(child, &path, out);
            }
        }
        serde_json::Value::Number(_) => out.push(prefix.to_string()),
        _ => {}
    }
}

#[test]
fn any_metric_of_the_points_plots_with_the_model_clock_and_workload() {
    let dir = temp_dir("metric");
    let svg = dir.join("err.svg");
    let base = ["sweep", "ia64/syscall/none", "ia64/syscall/v2", "--param", "hz", "--from", "500", "--to", "1000"];
    let mut args = base.to_vec();
    args.extend(["--step", "500", "--syscalls", "200", "--user-cycles", "100000"]);
    let json = twice(&[&args[..], &["--format", "json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let points = v["points"].as_array().expect("points");
    // The list --y takes holds every numeric field of a point (the swept value is the x).
    for p in points {
        let mut paths = Vec::new();
        numeric_paths(p, "", &mut paths);
        for path in paths.iter().filter(|p| *p != "value") {
            assert!(acctemu::cli::sweep::metric::WORKLOAD_METRICS.contains(&path.as_str()), "--y misses {path}");
        }
    }
    let out = twice(&[&args[..], &["--y", "stime.relative_error", "--svg", svg.to_str().unwrap_or_default()]].concat());
    // The table gains the metric's column, in %, the JSON's value times 100.
    let head = out.lines().next().unwrap_or_default();
    assert!(head.ends_with("within tolerance  stime.relative_error"), "{out}");
    for (row, p) in out.lines().filter(|l| l.starts_with("ia64/")).zip(points) {
        let err = p["stime"]["relative_error"].as_f64().expect("an error") * 100.0;
        let shown = row.split_whitespace().last().unwrap_or_default();
        assert!(shown == format!("{err:.4}%") || shown == format!("{err}%"), "{row} against {err}");
    }
    let plot = std::fs::read_to_string(&svg).expect("svg written");
    assert_eq!(plot.matches("<polyline").count(), 2, "one series per trace");
    for want in [
        ">system time accounting error vs HZ</text>",
        ">Itanium 2 model at 1.5 GHz; 200 system calls of 100000 user + 300 kernel cycles, ticks at HZ swept</text>",
        ">HZ (timer ticks per second)</text>",
        ">stime error in %: (accounted - true) / true</text>",
        // The first value swept is labelled (issue 18: it was not when off the ticks' step).
        r#"text-anchor="middle">500</text>"#,
    ] {
        assert!(plot.contains(want), "{want} not in\n{plot}");
    }
    // An unknown metric is refused before anything runs, with the list.
    let o = acctemu(&[&base[..], &["--y", "stime.err"]].concat());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sweep: --y stime.err: no such metric of a workload sweep; the metrics are: cycles, instructions"),
        "{err}"
    );
    assert!(err.contains("stime.relative_error"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
