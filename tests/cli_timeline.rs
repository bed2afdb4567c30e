//! `acctemu run --timeline` and `--explain-model` on the x86-64 and s390x cores (issue 16).

mod common;

use common::acctemu;

/// The run's stdout, which must succeed.
fn stdout(args: &[&str]) -> String {
    let out = acctemu(args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args:?}: {}{text}", String::from_utf8_lossy(&out.stderr));
    text
}

/// A summary figure (`cycles`, `instructions`, `groups`).
fn figure(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.trim().parse().ok()))
        .unwrap_or_else(|| panic!("no {name} line in\n{text}"))
}

/// The stall table's cycles, added up.
fn stalls(text: &str) -> u64 {
    let table = text.split("stalls:\n").nth(1).unwrap_or("");
    table
        .lines()
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().last().and_then(|n| n.parse::<u64>().ok()).expect("stall cycles"))
        .sum()
}

/// Checks the timeline against the summary and returns its lines.
fn consistent_timeline(text: &str) -> Vec<String> {
    let lines: Vec<String> = text
        .split("timeline:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no timeline in\n{text}"))
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    assert!(!lines.is_empty(), "{text}");
    let (cycles, insns) = (figure(text, "cycles"), figure(text, "instructions"));
    let mut last = 0;
    let (mut slots, mut waited) = (0, 0);
    for line in &lines {
        let first: u64 = line.split_whitespace().next().and_then(|c| c.parse().ok()).expect("a first cycle");
        assert!(first >= last && first <= cycles, "cycle {first} out of order or after {cycles}: {line}");
        last = first;
        let (group, why) = line.split_once("  <- waited ").unwrap_or((line, ""));
        slots += group.split(" ; ").count() as u64;
        for part in why.split(", ").filter(|p| !p.is_empty()) {
            waited += part.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()).expect("waited cycles");
        }
    }
    assert_eq!(slots, insns, "one slot per instruction:\n{text}");
    assert_eq!(waited, stalls(text), "the waits add up to the stall table:\n{text}");
    lines
}

#[test]
fn x86_timeline_lists_every_dispatch_group() {
    let text = stdout(&[
        "run",
        "arch-x86/tests/data/ops.o",
        "--entry",
        "div64",
        "--set",
        "rdi=1000",
        "--set",
        "rsi=7",
        "--set",
        "rdx=3",
        "--timeline",
    ]);
    let lines = consistent_timeline(&text);
    assert_eq!(lines.len() as u64, figure(&text, "groups"), "{text}");
    assert!(lines[0].contains("0x400410.0 mov %rdi,%rax") && text.contains("div %rsi"), "{text}");
    assert!(text.contains("<- waited") && text.contains("dependency on rdx"), "{text}");
    // The wait names the instruction that produced the value (issue 16).
    assert!(text.contains("dependency on rdx (div %rsi at 0x40041d.0: latency 15)"), "{text}");
    let plain = stdout(&["run", "arch-x86/tests/data/ops.o", "--entry", "div64", "--set", "rsi=7"]);
    assert!(!plain.contains("timeline:"), "only when asked:\n{plain}");
}

#[test]
fn s390_timeline_lists_every_decoder_group() {
    let text = stdout(&[
        "run",
        "arch-s390/tests/data/ops.o",
        "--entry",
        "f_mulh",
        "--set",
        "r2=12345",
        "--set",
        "r3=678",
        "--timeline",
    ]);
    let lines = consistent_timeline(&text);
    assert!(lines[0].contains("0x4004e0.0 mlgr [FXU, done "), "{text}");
    let plain = stdout(&["run", "arch-s390/tests/data/ops.o", "--entry", "f_mulh"]);
    assert!(!plain.contains("timeline:"), "only when asked:\n{plain}");
}

#[test]
fn explain_model_names_the_core_of_the_object() {
    let x86 = stdout(&["run", "--explain-model", "arch-x86/tests/data/ops.o"]);
    assert!(x86.starts_with("x86-64 model of Zen 4") && x86.contains("rob_size") && x86.contains("[AGNER]"), "{x86}");
    let s390 = stdout(&["run", "--explain-model", "arch-s390/tests/data/ops.o"]);
    assert!(s390.starts_with("s390x model of IBM z13"), "{s390}");
    let ia64 = stdout(&["run", "--explain-model"]);
    assert!(!ia64.contains("x86-64") && !ia64.contains("s390x"), "{ia64}");
    assert_ne!(ia64, x86);
}
