//! `acctemu bench`: the table's and the JSON's shape, and the exact instruction counts of the
//! loops, worked out from the loop sources (`traces/bench/`): the block before a loop runs
//! once, the loop body (and the leaf it calls) once per iteration, the block after it once.
//! Throughput is measured by the command, never asserted here.

use std::collections::BTreeMap;
use std::process::{Command, Output};

use acctemu::arch_ia64;
use emu_core::image::SectionKind;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use traces::bench::Loops;

const ITERATIONS: u64 = 1000;

fn bench(args: &[&str]) -> Output {
    let iterations = ITERATIONS.to_string();
    Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .args(["bench", "--iterations", &iterations, "--syscalls", "200"])
        .args(args)
        .output()
        .expect("run acctemu bench")
}

fn stdout_of(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Instructions per labelled block of a gas source for a core that retires one instruction
/// per source line: the lines after `label:` up to the next label or `.size`, leaving out
/// comments, blank lines and other directives.
fn source_blocks(src: &str) -> BTreeMap<String, u64> {
    let mut blocks = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut in_comment = false;
    for raw in src.lines() {
        let mut line = raw.trim();
        if in_comment {
            match line.find("*/") {
                Some(end) => {
                    in_comment = false;
                    line = line[end + 2..].trim();
                }
                None => continue,
            }
        }
        if let Some(start) = line.find("/*") {
            in_comment = !line[start..].contains("*/");
            line = line[..start].trim();
        }
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(label) = line.strip_suffix(':') {
            blocks.insert(label.to_string(), 0);
            current = Some(label.to_string());
        } else if line.starts_with(".size") {
            current = None;
        } else if !line.is_empty() && !line.starts_with('.') {
            if let Some(label) = &current {
                *blocks.entry(label.clone()).or_default() += 1;
            }
        }
    }
    blocks
}

/// Instructions per labelled block of the IA-64 loops: the source assembled by acctemu's
/// assembler, three slots per bundle from a label to the next one (or the end of `.text`);
/// every branch of the source sits in slot 2, so every bundle retires all three.
fn ia64_blocks(loops: &Loops) -> BTreeMap<String, u64> {
    let asm = arch_ia64::asm::assemble(loops.source_name, loops.source, &PreprocessOptions::new(), &FsLoader)
        .unwrap_or_else(|d| panic!("{d}"));
    let text = asm.image.sections.iter().find(|s| s.kind == SectionKind::Code).expect(".text");
    let end = text.addr + text.data.len() as u64;
    let mut starts: Vec<(u64, String)> = ["alu", "alu_loop", "alu_done", "mem", "mem_loop", "mem_done", "leaf"]
        .iter()
        .map(|name| (asm.image.symbol(name).unwrap_or_else(|| panic!("no {name}")).value, name.to_string()))
        .collect();
    starts.sort();
    let mut blocks = BTreeMap::new();
    for (i, (addr, name)) in starts.iter().enumerate() {
        let next = starts.get(i + 1).map_or(end, |(a, _)| *a);
        blocks.insert(name.clone(), (next - addr) / 16 * 3);
    }
    blocks
}

/// The instructions of `workload` (`loop/alu` or `loop/load-store-call`) run for `n`
/// iterations, from the core's blocks.
fn expected(blocks: &BTreeMap<String, u64>, workload: &str, n: u64) -> u64 {
    let b = |name: &str| *blocks.get(name).unwrap_or_else(|| panic!("no block {name} in {blocks:?}"));
    match workload {
        "loop/alu" => b("alu") + n * b("alu_loop") + b("alu_done"),
        "loop/load-store-call" => b("mem") + n * (b("mem_loop") + b("leaf")) + b("mem_done"),
        other => panic!("not a loop: {other}"),
    }
}

fn blocks_of(core: &str) -> BTreeMap<String, u64> {
    match core {
        "ia64" => ia64_blocks(&traces::bench::IA64),
        "x86-64" => source_blocks(traces::bench::X86_64.source),
        "s390x" => source_blocks(traces::bench::S390X.source),
        other => panic!("unknown core {other}"),
    }
}

#[test]
fn source_blocks_are_what_the_sources_say() {
    // The x86 ALU loop: four set-up moves, eight operations with dec/jnz, a ret.
    let x86 = source_blocks(traces::bench::X86_64.source);
    assert_eq!((x86["alu"], x86["alu_loop"], x86["alu_done"]), (4, 10, 1), "{x86:?}");
    let ia64 = ia64_blocks(&traces::bench::IA64);
    assert_eq!((ia64["alu_loop"], ia64["mem_loop"], ia64["leaf"]), (9, 6, 9), "{ia64:?}");
}

#[test]
fn alu_rows_of_every_core_count_exactly_the_loop_instructions() {
    let text = stdout_of(&bench(&["--only", "loop/alu on"]));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split_whitespace().collect();
    assert_eq!(
        header,
        [
            "core",
            "workload",
            "timing",
            "instructions",
            "cycles",
            "cpu",
            "s",
            "M",
            "insns/s",
            "M",
            "cycles/s",
            "host/insn",
            "peak",
            "MiB"
        ],
        "{text}"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split_whitespace().collect()).collect();
    let cores: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(cores, ["ia64", "x86-64", "s390x"], "{text}");
    for r in &rows {
        assert_eq!(r.len(), 10, "{text}");
        assert_eq!((r[1], r[2]), ("loop/alu", "on"), "{text}");
        let insns: u64 = r[3].parse().expect("instructions");
        assert_eq!(insns, expected(&blocks_of(r[0]), "loop/alu", ITERATIONS), "{}: {text}", r[0]);
        let cycles: u64 = r[4].parse().expect("cycles");
        assert!(cycles > 0, "{text}");
        for f in &r[5..8] {
            let _: f64 = f.parse().expect("a number");
        }
        // host/insn is measured only with --callgrind.
        assert_eq!(r[8], "-", "{text}");
        let _: f64 = r[9].parse().expect("peak MiB");
    }
}

#[test]
fn json_rows_of_the_call_loop_count_exactly_with_timing_on_and_off() {
    let out = stdout_of(&bench(&["--only", "loop/load-store-call", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["iterations"], ITERATIONS);
    assert_eq!(doc["syscalls"], 200);
    let rows = doc["rows"].as_array().expect("rows");
    let keys: Vec<(&str, &str)> =
        rows.iter().map(|r| (r["core"].as_str().unwrap_or(""), r["timing"].as_str().unwrap_or(""))).collect();
    assert_eq!(
        keys,
        [("ia64", "on"), ("ia64", "off"), ("x86-64", "on"), ("x86-64", "off"), ("s390x", "on"), ("s390x", "off")]
    );
    for r in rows {
        let core = r["core"].as_str().unwrap_or("");
        assert_eq!(r["workload"], "loop/load-store-call");
        let want = expected(&blocks_of(core), "loop/load-store-call", ITERATIONS);
        assert_eq!(r["instructions"].as_u64(), Some(want), "{core}: {r}");
        for key in ["cycles", "cpu_seconds", "m_insns_per_s", "m_cycles_per_s", "peak_rss_kib"] {
            assert!(r[key].is_number(), "{key}: {r}");
        }
        for key in ["syscalls", "host_insns_per_insn", "host_insns_per_syscall"] {
            assert!(r[key].is_null(), "{key}: {r}");
        }
    }
}

#[test]
fn scenario_rows_run_with_timing_on_and_off() {
    let out = stdout_of(&bench(&["--only", "vtime/delayed", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let rows = doc["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{out}");
    for (r, timing) in rows.iter().zip(["on", "off"]) {
        assert_eq!((r["core"].as_str(), r["workload"].as_str()), (Some("s390x"), Some("s390/vtime/delayed")));
        assert_eq!(r["timing"], timing);
        assert!(r["instructions"].as_u64().is_some_and(|n| n > 0), "{r}");
        assert!(r["cycles"].as_u64().is_some_and(|n| n > 0), "{r}");
    }
    // The paths run the same instructions whatever the timing model says (no tick lands
    // differently in 200 system calls of 1800 cycles at 1000 Hz on a 5 GHz clock).
    assert_eq!(rows[0]["instructions"], rows[1]["instructions"], "{out}");
}

#[test]
fn only_matching_no_row_is_an_error_listing_the_rows() {
    let out = bench(&["--only", "no-such-row"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-row") && err.contains("x86-64 loop/alu off"), "{err}");
}

#[test]
fn scenario_rows_are_repeated_per_system_call_in_the_text() {
    let text = stdout_of(&bench(&["--only", "vtime/delayed on"]));
    let main: Vec<&str> = text.lines().nth(1).expect("row").split_whitespace().collect();
    assert_eq!(main[..3], ["s390x", "s390/vtime/delayed", "on"], "{text}");
    let per_call: Vec<&str> = text.lines().skip_while(|l| *l != "per system call:").collect();
    assert_eq!(per_call.len(), 3, "{text}");
    let header: Vec<&str> = per_call[1].split_whitespace().collect();
    assert_eq!(
        header,
        [
            "core",
            "workload",
            "timing",
            "syscalls",
            "insns/call",
            "cycles/call",
            "cpu",
            "us/call",
            "host/call",
            "peak",
            "MiB"
        ],
        "{text}"
    );
    let r: Vec<&str> = per_call[2].split_whitespace().collect();
    assert_eq!(r[..4], ["s390x", "s390/vtime/delayed", "on", "200"], "{text}");
    let insns: f64 = main[3].parse().expect("instructions");
    let per: f64 = r[4].parse().expect("insns/call");
    assert_eq!(format!("{per:.1}"), format!("{:.1}", insns / 200.0), "{text}");
    assert_eq!(r[7], "-", "host/call without --callgrind: {text}");
}

#[test]
fn row_selects_one_label_exactly() {
    let out = bench(&["--row", "s390x loop/alu"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--row \"s390x loop/alu\" matches no row"), "{err}");
    let text = stdout_of(&bench(&["--row", "s390x loop/alu off"]));
    assert_eq!(text.lines().count(), 2, "{text}");
}

#[test]
fn callgrind_counts_host_instructions_per_instruction_and_per_call() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if !std::env::split_paths(&path).any(|d| d.join("valgrind").is_file()) {
        eprintln!("skipped: valgrind is not installed");
        return;
    }
    for (row, scenario) in [("s390x loop/alu off", false), ("s390x s390/vtime/delayed off", true)] {
        let out = stdout_of(&bench(&[
            "--row",
            row,
            "--callgrind",
            "--callgrind-iterations",
            "100",
            "--callgrind-syscalls",
            "10",
            "--format",
            "json",
        ]));
        let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(doc["callgrind"]["iterations"], serde_json::json!([100, 200]), "{out}");
        let r = &doc["rows"][0];
        let per_insn = r["host_insns_per_insn"].as_f64().unwrap_or_else(|| panic!("{r}"));
        // Whatever the engine, an emulated instruction costs more than one host instruction
        // and (even in a debug build) far less than a million.
        assert!(per_insn > 1.0 && per_insn < 1e6, "{r}");
        assert_eq!(r["syscalls"].is_u64(), scenario, "{r}");
        assert_eq!(r["host_insns_per_syscall"].is_f64(), scenario, "{r}");
    }
}

#[test]
fn a_row_in_a_run_of_several_has_the_peak_memory_it_has_alone() {
    // Every row runs in a process of its own: the rows before it (here the IA-64 and x86-64
    // loops, whose set-up leaves more heap behind) do not add to its peak. In one process the
    // s390x row read 9.0 MiB after them and 6.6 MiB alone.
    let peak = |args: &[&str]| -> f64 {
        let out = stdout_of(&bench(&[args, &["--format", "json"]].concat()));
        let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
        let rows = doc["rows"].as_array().expect("rows");
        let last = rows.last().expect("a row");
        assert_eq!(last["core"], "s390x", "{out}");
        last["peak_rss_kib"].as_u64().expect("peak memory") as f64 / 1024.0
    };
    let alone = peak(&["--row", "s390x loop/alu on"]);
    let after_others = peak(&["--only", "loop/alu on"]);
    assert!((after_others - alone).abs() < 1.0, "{after_others:.1} MiB after other rows, {alone:.1} MiB alone");
}
