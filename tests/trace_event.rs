//! `run --trace-out` on each core (issue 18): the file is trace-event JSON in the object form
//! the Trace Event Format describes, its tracks are named, every complete event has a
//! non-negative duration, and a port's events never overlap (each port takes one instruction
//! per cycle); `run --pressure` adds up to the instructions run.

mod common;

use common::{acctemu, oracle, scratch_dir};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Runs `args` with `--trace-out` and `--pressure`; returns the parsed file and stdout.
fn traced(name: &str, args: &[&str]) -> (Value, String) {
    let path = scratch_dir("trace-event").join(format!("{name}.json"));
    let path_s = path.display().to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--trace-out", &path_s, "--pressure"]);
    let out = acctemu(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{all:?}: {}{stdout}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).expect("the trace file");
    (serde_json::from_str(&text).expect("valid JSON"), stdout)
}

/// The structural rules of the subset emitted; returns the port tracks' names.
fn check(trace: &Value) -> BTreeSet<String> {
    assert_eq!(trace["displayTimeUnit"], "ns");
    let events = trace["traceEvents"].as_array().expect("traceEvents is an array");
    let mut names: BTreeMap<(u64, u64), String> = BTreeMap::new();
    let mut spans: BTreeMap<(u64, u64), Vec<(u64, u64)>> = BTreeMap::new();
    for e in events {
        let ph = e["ph"].as_str().expect("ph");
        let pid = e["pid"].as_u64().expect("pid");
        let tid = e["tid"].as_u64().expect("tid");
        assert!(e["name"].is_string() && e["args"].is_object(), "{e}");
        match ph {
            "M" => {
                if e["name"] == "thread_name" {
                    names.insert((pid, tid), e["args"]["name"].as_str().expect("a thread name").to_string());
                }
            }
            "X" => {
                let ts = e["ts"].as_f64().expect("ts");
                let dur = e["dur"].as_f64().expect("dur");
                assert!(ts >= 0.0 && dur >= 0.0, "{e}");
                if e["cat"] == "insn" {
                    let cycle = e["args"]["issue_cycle"].as_u64().expect("issue_cycle");
                    spans.entry((pid, tid)).or_default().push((cycle, cycle + 1));
                    assert!(e["args"]["pc"].as_str().is_some_and(|pc| pc.starts_with("0x")), "{e}");
                }
            }
            other => panic!("unexpected phase {other}: {e}"),
        }
    }
    for (track, mut list) in spans.clone() {
        assert!(names.contains_key(&track), "track {track:?} has no thread_name");
        list.sort_unstable();
        for pair in list.windows(2) {
            assert!(pair[0].1 <= pair[1].0, "track {} overlaps: {pair:?}", names[&track]);
        }
    }
    spans.keys().map(|t| names[t].clone()).collect()
}

/// The instructions the run reported.
fn instructions(stdout: &str) -> u64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("instructions").and_then(|v| v.trim().parse().ok()))
        .expect("an instructions line")
}

/// Busy cycles in the pressure table, added up.
fn busy(stdout: &str) -> u64 {
    let table = stdout.split("resource pressure per port").nth(1).expect("a pressure table");
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("  ") && !l.contains("pc.slot"))
        .filter_map(|l| l.split_whitespace().nth(1).and_then(|b| b.parse::<u64>().ok()))
        .sum()
}

#[test]
fn ia64_trace_has_a_track_per_port_and_source_lines() {
    let (trace, stdout) =
        traced("ia64", &["run", "tests/data/ia64/account_sys_enter.S", "--set", "r13=task", "--set", "r20=2300"]);
    let ports = check(&trace);
    for p in ["port M0", "port M1", "port M2", "port M3", "port I0", "port B2"] {
        assert!(ports.contains(p), "{p} missing from {ports:?}");
    }
    let events = trace["traceEvents"].as_array().expect("events");
    let ld = events.iter().find(|e| e["cat"] == "insn" && e["name"] == "ld8 r18=[r16]").expect("the first load");
    assert_eq!(ld["args"]["source"], "tests/data/ia64/account_sys_enter.S:53");
    assert_eq!(ld["args"]["symbol"], "account_sys_enter+0x10");
    // Loads issue on M0/M1 only.
    assert!(matches!(ld["args"]["port"].as_str(), Some("M0" | "M1")), "{ld}");
    // 1.5 GHz: one cycle is 1/1500 us.
    assert!((ld["dur"].as_f64().expect("dur") - 1.0 / 1500.0).abs() < 1e-12, "{ld}");
    assert_eq!(busy(&stdout), instructions(&stdout), "{stdout}");
}

#[test]
fn x86_trace_names_its_waits() {
    let (trace, stdout) = traced(
        "x86",
        &[
            "run",
            "tests/data/run_source/mix.c",
            "--arch",
            "x86_64",
            "-D",
            "USE_DIV",
            "--entry",
            "mix",
            "--set",
            "rdi=1000",
            "--set",
            "rsi=10",
        ],
    );
    let ports = check(&trace);
    assert!(ports.contains("port divider.0"), "{ports:?}");
    let events = trace["traceEvents"].as_array().expect("events");
    let wait = events
        .iter()
        .find(|e| e["cat"] == "wait" && e["args"]["producer"] == "div %rcx")
        .expect("a wait for the divide's result");
    assert_eq!(wait["args"]["resource"], "rax");
    assert_eq!(busy(&stdout), instructions(&stdout), "{stdout}");
}

#[test]
fn s390_trace_has_unit_tracks() {
    if oracle("s390x-linux-gnu-gcc").is_none() {
        return;
    }
    let (trace, stdout) = traced(
        "s390",
        &[
            "run",
            "tests/data/run_source/add3_s390.S",
            "--arch",
            "s390x",
            "-D",
            "PLUS_ONE",
            "--set",
            "r2=1",
            "--set",
            "r3=2",
        ],
    );
    let ports = check(&trace);
    assert!(ports.contains("port FXU.0") && ports.contains("port BRU.0"), "{ports:?}");
    assert!(trace["otherData"]["pid 1"].as_str().is_some_and(|s| s.contains("5000 MHz")), "{trace}");
    assert_eq!(busy(&stdout), instructions(&stdout), "{stdout}");
}

#[test]
fn no_timing_is_refused_with_a_reason() {
    let out = acctemu(&["run", "tests/data/ia64/account_sys_enter.S", "--no-timing", "--pressure"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("drop --no-timing"));
}
