//! `--trace-out` and `--pressure` on each core (issue 18): `run`'s, `scenario`'s and `diff`'s
//! files are trace-event JSON in the object form the Trace Event Format describes, valid
//! against `tests/data/trace-event.schema.json` (our schema of the subset acctemu emits, checked
//! with the `jsonschema` crate, which also has to refuse broken files); their tracks are named,
//! every complete event has a non-negative duration, and a port's events never overlap (each
//! port takes one instruction per cycle); a scenario's file has a process per path of the
//! chosen call, a diff's a process per side; `--pressure` adds up to the instructions run.

mod common;

use common::{acctemu, oracle, scratch_dir};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The schema's validator.
fn schema() -> jsonschema::Validator {
    let path = common::root().join("tests/data/trace-event.schema.json");
    let text = std::fs::read_to_string(&path).expect("the schema");
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// Every way `trace` breaks the schema, one line each.
fn schema_errors(trace: &Value) -> Vec<String> {
    schema().iter_errors(trace).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

/// Runs `args` with `--trace-out` and `--pressure`; returns the parsed file and stdout.
fn traced(name: &str, args: &[&str]) -> (Value, String) {
    traced_with(name, args, &["--pressure"])
}

/// Runs `args` with `--trace-out FILE` and `extra`; returns the parsed file and stdout.
fn traced_with(name: &str, args: &[&str], extra: &[&str]) -> (Value, String) {
    let path = scratch_dir("trace-event").join(format!("{name}.json"));
    let path_s = path.display().to_string();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--trace-out", &path_s]);
    all.extend(extra);
    let out = acctemu(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{all:?}: {}{stdout}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).expect("the trace file");
    (serde_json::from_str(&text).expect("valid JSON"), stdout)
}

/// The structural rules of the subset emitted, the schema first; returns the port tracks'
/// names.
fn check(trace: &Value) -> BTreeSet<String> {
    let errors = schema_errors(trace);
    assert!(errors.is_empty(), "the file breaks the schema:\n{}", errors.join("\n"));
    assert_eq!(trace["displayTimeUnit"], "ns");
    let events = trace["traceEvents"].as_array().expect("traceEvents is an array");
    let mut names: BTreeMap<(u64, u64), String> = BTreeMap::new();
    let mut spans: BTreeMap<(u64, u64), Vec<(f64, f64)>> = BTreeMap::new();
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
                    assert!(e["args"]["issue_cycle"].is_u64(), "{e}");
                    spans.entry((pid, tid)).or_default().push((ts, ts + dur));
                    assert!(e["args"]["pc"].as_str().is_some_and(|pc| pc.starts_with("0x")), "{e}");
                }
            }
            other => panic!("unexpected phase {other}: {e}"),
        }
    }
    for (track, mut list) in spans.clone() {
        assert!(names.contains_key(&track), "track {track:?} has no thread_name");
        list.sort_by(|a, b| a.0.total_cmp(&b.0));
        for pair in list.windows(2) {
            // One cycle apart at most GHz clocks is ~1e-4 us: far above rounding.
            assert!(pair[0].1 <= pair[1].0 + 1e-9, "track {} overlaps: {pair:?}", names[&track]);
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

/// The events of process `pid`.
fn of_process(trace: &Value, pid: u64) -> Vec<&Value> {
    trace["traceEvents"].as_array().expect("events").iter().filter(|e| e["pid"] == pid).collect()
}

/// Each process's `process_name` event, by pid.
fn processes(trace: &Value) -> BTreeMap<u64, &Value> {
    trace["traceEvents"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "process_name")
        .map(|e| (e["pid"].as_u64().expect("pid"), e))
        .collect()
}

/// The `paths` slices of process `pid`: (name, ts, dur, instructions).
fn paths(trace: &Value, pid: u64) -> Vec<(String, f64, f64, u64)> {
    of_process(trace, pid)
        .into_iter()
        .filter(|e| e["cat"] == "path")
        .map(|e| {
            let name = e["name"].as_str().expect("name").to_string();
            (
                name,
                e["ts"].as_f64().expect("ts"),
                e["dur"].as_f64().expect("dur"),
                e["args"]["instructions"].as_u64().expect("instructions"),
            )
        })
        .collect()
}

/// A scenario's file: a process per path, named "TRACE PATH", each from time 0, the chosen call
/// named in its metadata and every instruction inside its path's slice.
fn check_scenario(trace: &Value, name: &str, want: &[&str], calls: u64) {
    check(trace);
    let procs = processes(trace);
    let names: Vec<String> = procs.values().map(|e| e["args"]["name"].as_str().expect("a name").to_string()).collect();
    let expected: Vec<String> = want.iter().map(|p| format!("{name} {p}")).collect();
    assert_eq!(names, expected);
    for (pid, e) in &procs {
        let path = e["args"]["path"].as_str().expect("the path's name");
        let which = e["args"]["which"].as_str().expect("which call");
        if path.starts_with("syscall") {
            assert_eq!(which, format!("the workload's last system call ({calls} of {calls})"), "{e}");
        }
        assert!(e["args"]["call"].as_str().is_some_and(|c| c.contains(which)), "{e}");
        let slices = paths(trace, *pid);
        let [(slice, ts, dur, _)] = &slices[..] else { panic!("one path slice in {pid}") };
        assert_eq!((slice.as_str(), *ts), (path, 0.0));
        let dur = *dur;
        for insn in of_process(trace, *pid).into_iter().filter(|e| e["cat"] == "insn") {
            let t = insn["ts"].as_f64().expect("ts");
            assert!((0.0..dur).contains(&t), "{insn} outside its path [0, {dur})");
        }
    }
}

/// A diff's file: a process per side named by its label, its paths end to end from 0, both
/// sides the same paths; returns each side's instructions over its paths.
fn check_diff(trace: &Value, a: &str, b: &str) -> [u64; 2] {
    check(trace);
    let procs = processes(trace);
    let names: Vec<(&str, &str)> = procs
        .values()
        .map(|e| (e["args"]["name"].as_str().expect("name"), e["args"]["side"].as_str().expect("side")))
        .collect();
    assert_eq!(names, [(a, "A"), (b, "B")]);
    let (pa, pb) = (paths(trace, 1), paths(trace, 2));
    let kinds = |p: &[(String, f64, f64, u64)]| p.iter().map(|s| s.0.clone()).collect::<Vec<_>>();
    assert_eq!(kinds(&pa), kinds(&pb));
    assert!(!pa.is_empty());
    for side in [&pa, &pb] {
        let mut at = 0.0;
        for (name, ts, dur, _) in side.iter() {
            assert!((ts - at).abs() < 1e-9, "{name} starts at {ts}, not at {at}");
            at = ts + dur;
        }
    }
    [pa.iter().map(|p| p.3).sum(), pb.iter().map(|p| p.3).sum()]
}

/// Busy cycles of each side in a diff's pressure table, added up.
fn busy_sides(stdout: &str) -> [u64; 2] {
    let table = stdout.split("resource pressure per port").nth(1).expect("a pressure table");
    let rows = table.lines().skip_while(|l| !l.contains("B-A busy")).skip(1).take_while(|l| !l.starts_with("side A"));
    let mut sum = [0, 0];
    for l in rows {
        let cols: Vec<&str> = l.split_whitespace().collect();
        sum[0] += cols.get(1).and_then(|v| v.parse::<u64>().ok()).expect("A busy");
        sum[1] += cols.get(3).and_then(|v| v.parse::<u64>().ok()).expect("B busy");
    }
    sum
}

#[test]
fn ia64_scenario_traces_the_last_call_and_the_last_tick() {
    let (trace, stdout) = traced("scenario-ia64", &["scenario", "ia64/syscall/v2", "--syscalls", "3000"]);
    check_scenario(&trace, "ia64/syscall/v2", &["syscall_enter", "syscall_exit", "tick"], 3000);
    // The paths' cycles are the report's (each call takes the same path here).
    let procs = processes(&trace);
    let cycles: Vec<u64> = procs.values().map(|e| e["args"]["cycles"].as_u64().expect("cycles")).collect();
    assert!(
        stdout.contains(&format!("syscall_enter        3000       {0}       {0}.0", cycles[0])),
        "{cycles:?}\n{stdout}"
    );
    let events = trace["traceEvents"].as_array().expect("events");
    let src = events.iter().find(|e| e["cat"] == "insn" && e["args"]["source"].is_string()).expect("a source line");
    assert!(src["args"]["source"].as_str().is_some_and(|s| s.contains("syscall.S:")), "{src}");
    // The catalogue's source is in memory: its lines come from there.
    assert!(src["args"]["source_text"].as_str().is_some_and(|s| !s.is_empty()), "{src}");
    // An MLX bundle's long instruction is slot 1's; slot 0 keeps its own M instruction.
    let movl: Vec<&Value> = events
        .iter()
        .filter(|e| e["cat"] == "insn" && e["name"].as_str().is_some_and(|n| n.starts_with("movl")))
        .collect();
    assert!(!movl.is_empty() && movl.iter().all(|e| e["args"]["slot"] == 1), "{movl:?}");
    assert!(
        stdout.contains(
            "resource pressure per port over the workload's last system call (3000 of 3000); the workload's last tick"
        ),
        "{stdout}"
    );
    let insns: u64 = procs.keys().flat_map(|pid| paths(&trace, *pid)).map(|p| p.3).sum();
    assert_eq!(busy(&stdout), insns, "{stdout}");
}

#[test]
fn x86_scenario_traces_entry_and_exit() {
    let (trace, stdout) = traced("scenario-x86", &["scenario", "x86/nohz-syscall/patch1", "--syscalls", "200"]);
    check_scenario(&trace, "x86/nohz-syscall/patch1", &["syscall_enter", "syscall_exit"], 200);
    let insns: u64 = processes(&trace).keys().flat_map(|pid| paths(&trace, *pid)).map(|p| p.3).sum();
    assert_eq!(busy(&stdout), insns, "{stdout}");
}

#[test]
fn s390_scenario_traces_the_last_interrupt_too() {
    let (trace, _) =
        traced_with("scenario-s390", &["scenario", "s390/vtime/delayed", "--syscalls", "100", "--irq-every", "7"], &[]);
    check_scenario(&trace, "s390/vtime/delayed", &["irq_enter", "irq_exit", "syscall_enter", "syscall_exit"], 100);
    let irq = processes(&trace).into_values().next().expect("irq_enter");
    assert_eq!(irq["args"]["which"], "the workload's last interrupt (14 of 14)");
}

#[test]
fn ia64_diff_puts_both_sides_on_one_time_scale() {
    let (trace, stdout) = traced("diff-ia64", &["diff", "ia64/syscall/v1", "ia64/syscall/v2", "--syscalls", "500"]);
    let insns = check_diff(&trace, "ia64/syscall/v1", "ia64/syscall/v2");
    assert_eq!(busy_sides(&stdout), insns, "{stdout}");
    assert!(stdout.contains("B-A busy") && stdout.contains("  A = ia64/syscall/v1"), "{stdout}");
}

#[test]
fn ia64_patch_diff_names_the_patched_side() {
    let (trace, _) = traced_with(
        "diff-ia64-patch",
        &["diff", "ia64/syscall/v2", "--patch", "tests/data/patches/ia64-v2-stop.diff", "--syscalls", "100"],
        &[],
    );
    check_diff(&trace, "ia64/syscall/v2", "v2+ia64-v2-stop.diff");
}

#[test]
fn x86_diff_of_catalogue_traces() {
    let (trace, stdout) =
        traced("diff-x86", &["diff", "x86/nohz-syscall/v4.5-rc1", "x86/nohz-syscall/patch1", "--syscalls", "200"]);
    let insns = check_diff(&trace, "x86/nohz-syscall/v4.5-rc1", "x86/nohz-syscall/patch1");
    assert_eq!(busy_sides(&stdout), insns, "{stdout}");
}

#[test]
fn s390_diff_of_catalogue_traces() {
    let (trace, stdout) =
        traced("diff-s390", &["diff", "s390/vtime/immediate", "s390/vtime/delayed", "--syscalls", "100"]);
    let insns = check_diff(&trace, "s390/vtime/immediate", "s390/vtime/delayed");
    assert_eq!(busy_sides(&stdout), insns, "{stdout}");
}

#[test]
fn plain_diff_has_a_process_per_run() {
    let (trace, stdout) = traced(
        "diff-plain",
        &[
            "diff",
            "tests/data/ia64/account_sys_enter.S",
            "--b-define",
            "ACCOUNTING_V2",
            "--harness",
            "tests/data/ia64/account_sys_enter.toml",
        ],
    );
    check(&trace);
    let names: Vec<&Value> = processes(&trace).into_values().map(|e| &e["args"]["name"]).collect();
    assert_eq!(names, ["tests/data/ia64/account_sys_enter.S", "account_sys_enter.S (-DACCOUNTING_V2)"]);
    assert!(stdout.contains("over each side's run"), "{stdout}");
}

#[test]
fn kernel_tree_runs_refuse_with_a_reason() {
    for command in ["scenario", "diff"] {
        let out = acctemu(&[command, "--tree", "/nonexistent", "--pressure"]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("record no timeline"), "{command}: {out:?}");
    }
    let out = acctemu(&["scenario", "ia64/syscall/v2", "--pressure", "--format", "json"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format text"), "{out:?}");
}

/// A small valid file, and the same file broken one way at a time.
#[test]
fn the_schema_refuses_broken_files() {
    let good = serde_json::json!({
        "traceEvents": [
            { "name": "process_name", "cat": "__metadata", "ph": "M", "pid": 1, "tid": 0, "args": { "name": "run" } },
            { "name": "thread_sort_index", "ph": "M", "pid": 1, "tid": 10, "args": { "sort_index": 10 } },
            { "name": "add r1=r2,r3", "cat": "insn", "ph": "X", "ts": 0.0, "dur": 0.001, "pid": 1, "tid": 10, "args": { "pc": "0x0" } }
        ],
        "displayTimeUnit": "ns",
        "otherData": { "pid 1": "run: 1000 MHz" }
    });
    assert!(schema_errors(&good).is_empty(), "{:?}", schema_errors(&good));
    let broken = |what: &str, f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        assert!(!schema_errors(&v).is_empty(), "the schema takes a file with {what}: {v}");
    };
    broken("a complete event without ts", &|v| {
        v["traceEvents"][2].as_object_mut().expect("event").remove("ts");
    });
    broken("a negative dur", &|v| v["traceEvents"][2]["dur"] = serde_json::json!(-0.001));
    broken("an unknown phase", &|v| v["traceEvents"][2]["ph"] = serde_json::json!("Q"));
    broken("a phase acctemu does not emit", &|v| v["traceEvents"][2]["ph"] = serde_json::json!("B"));
    broken("a process name without its name", &|v| v["traceEvents"][0]["args"] = serde_json::json!({}));
    broken("a text pid", &|v| v["traceEvents"][2]["pid"] = serde_json::json!("1"));
    broken("a metadata event with a time", &|v| v["traceEvents"][1]["ts"] = serde_json::json!(0));
    broken("no traceEvents", &|v| {
        v.as_object_mut().expect("object").remove("traceEvents");
    });
    broken("an array of events alone (the array form)", &|v| *v = v["traceEvents"].clone());
}

/// The README's trace-viewer commands run and write files the schema takes.
#[test]
fn the_readme_trace_out_examples_run() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README.md");
    let section = readme.split("### Timelines in a trace viewer").nth(1).expect("the section");
    let section = section.split("\n### ").next().unwrap_or(section);
    let commands: Vec<&str> = section
        .lines()
        .filter_map(|l| l.trim().strip_prefix("cargo run -- "))
        .filter(|l| l.contains("--trace-out"))
        .collect();
    assert!(commands.len() >= 3, "{commands:?}");
    for (i, command) in commands.iter().enumerate() {
        let mut args: Vec<String> =
            command.split('#').next().unwrap_or("").split_whitespace().map(str::to_string).collect();
        let at = args.iter().position(|a| a == "--trace-out").expect("--trace-out") + 1;
        let path = scratch_dir("trace-event-readme").join(format!("{i}.json"));
        args[at] = path.display().to_string();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = acctemu(&args);
        assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
        let trace: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the file")).expect("JSON");
        check(&trace);
    }
}
