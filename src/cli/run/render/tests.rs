use super::*;
use emu_core::timing::TimingSummary;

fn report(initial: &Snapshot, at_stop: &Snapshot) -> RunReport {
    RunReport {
        stop: "returned to the sentinel".into(),
        summary: TimingSummary { cycles: 8, instructions: 21, ..TimingSummary::default() },
        counters: Vec::new(),
        timeline: None,
        snapshot: at_stop.clone(),
        initial: Some(initial.clone()),
    }
}

fn state(regs: &[(&str, Value)]) -> Snapshot {
    let mut s = Snapshot::new();
    for (name, value) in regs {
        s.push(*name, value.clone());
    }
    s
}

#[test]
fn decimal_is_signed_only_for_small_negatives() {
    assert_eq!(decimal(800), "800");
    assert_eq!(decimal(u64::MAX), "-1");
    assert_eq!(decimal(0u64.wrapping_sub(16)), "-16");
    // An address in region 5 reads better unsigned than as a huge negative number.
    assert_eq!(decimal(0xa000_0000_0001_0000), "11529215046068535296");
}

#[test]
fn quiet_lists_only_the_changed_registers_old_then_new() {
    let initial = state(&[("r1", Value::Hex(0)), ("r2", Value::Hex(7)), ("p6", Value::Bool(false))]);
    let mut at_stop = state(&[("r1", Value::Hex(800)), ("r2", Value::Hex(7)), ("p6", Value::Bool(true))]);
    // A counter the run appends is in the counters table, not among the changes.
    at_stop.push_hex("counter.ac_stime", 5);
    let text = quiet(&report(&initial, &at_stop), None);
    assert_eq!(
        text,
        "stop: returned to the sentinel\n\
         cycles                 8\n\
         instructions          21\n\
         nops                   0\n\
         groups                 0\n\
         \n\
         registers changed by the run: 2 of 3 (-v shows them all):\n\
         \x20 register  at entry     at the stop\n\
         \x20 r1            0 (0x0)   800 (0x320)\n\
         \x20 p6        false        true\n"
    );
}

#[test]
fn quiet_says_when_nothing_changed() {
    let s = state(&[("r1", Value::Hex(3))]);
    let text = quiet(&report(&s, &s), None);
    assert!(text.ends_with("registers changed by the run: none of 1 (-v shows them all)\n"), "{text}");
}

#[test]
fn full_dumps_every_register() {
    let s = state(&[("r1", Value::Hex(3)), ("r2", Value::Hex(3))]);
    let text = full(&report(&s, &s), None);
    assert!(
        text.ends_with(
            "final state:\nregisters:\n  r1: \"0x0000000000000003\"\n  r2: \"0x0000000000000003\"\nmemory: {}\n"
        ),
        "{text}"
    );
}

#[test]
fn check_gives_expected_and_actual_in_decimal_and_hex_then_the_verdict() {
    let want = state(&[("r21", Value::Hex(0x5140)), ("ar.itc", Value::Hex(0x904)), ("r3", Value::Hex(1))]);
    let have = state(&[("r21", Value::Hex(0)), ("ar.itc", Value::Hex(0x903)), ("r3", Value::Hex(1))]);
    let text = check("v2.snap", &want, &diff(&want, &have));
    assert_eq!(
        text,
        "  register  expected        actual\n\
         \x20 r21       20800 (0x5140)     0 (0x0)\n\
         \x20 ar.itc     2308 (0x904)   2307 (0x903)\n\
         snapshot v2.snap: differs in 2 of 3 registers (-v shows the whole state)\n"
    );
    assert_eq!(check("v2.snap", &want, &diff(&want, &want)), "snapshot v2.snap: matches (3 registers)\n");
}
