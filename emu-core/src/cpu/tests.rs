use std::fmt;

use super::*;
use crate::memory::{Endian, Perms};
use crate::snapshot::Value;
use crate::timing::TimingSummary;

/// A counter CPU: each step stores its count at address 0 and yields the scripted event.
struct Counter {
    count: u64,
    script: Vec<(u64, StepEvent)>,
    fail_at: Option<u64>,
}

#[derive(Debug)]
struct CounterError(u64);

impl fmt::Display for CounterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "failed at pc {:#x}", self.0)
    }
}

impl std::error::Error for CounterError {}

impl Cpu for Counter {
    type Error = CounterError;

    fn step(&mut self, mem: &mut Memory) -> Result<StepEvent, CounterError> {
        if self.fail_at == Some(self.count) {
            return Err(CounterError(self.pc()));
        }
        self.count += 1;
        mem.write_u64(0, self.count).map_err(|_| CounterError(self.pc()))?;
        Ok(self.script.iter().find(|(at, _)| *at == self.count).map_or(StepEvent::Continue, |(_, e)| *e))
    }

    fn pc(&self) -> u64 {
        self.count * 4
    }

    fn cycles(&self) -> u64 {
        self.count * 2
    }

    fn instructions(&self) -> u64 {
        self.count
    }

    fn snapshot(&self, _mem: &Memory) -> Snapshot {
        let mut s = Snapshot::new();
        s.push("ip", Value::Hex(self.pc()));
        s
    }

    fn summary(&self) -> TimingSummary {
        TimingSummary { cycles: self.cycles(), instructions: self.count, ..TimingSummary::default() }
    }

    fn add_code(&mut self, _addr: u64, _bytes: &[u8]) {}

    fn set_entry(&mut self, addr: u64) {
        self.count = addr / 4;
    }

    fn advance(&mut self, _cycles: u64) {}

    fn counts(&self) -> Counts {
        Counts { cycles: self.cycles(), instructions: self.count, nops: 0, groups: self.count }
    }

    fn entry(&self) -> u64 {
        0
    }
}

fn machine(script: Vec<(u64, StepEvent)>, fail_at: Option<u64>) -> Machine<Counter> {
    let mut mem = Memory::new(Endian::Little);
    assert!(mem.map(0, 0x1000, Perms::RW, "data").is_ok());
    Machine::new(Counter { count: 0, script, fail_at }, mem)
}

#[test]
fn halt_stops_even_when_no_event_is_selected() {
    let mut m = machine(vec![(5, StepEvent::Halt)], None);
    let stop = StopWhen { on_sentinel: false, on_rfi: false, on_interruption: false, max_insns: 100 };
    assert_eq!(m.run(&stop).ok(), Some(StopReason::Halt));
    assert_eq!(m.cpu.instructions(), 5);
    assert_eq!(m.mem.read_u64(0).ok(), Some(5));
    assert_eq!(m.snapshot().register("ip"), Some(&Value::Hex(20)));
}

#[test]
fn unselected_events_are_stepped_over() {
    let script = vec![
        (2, StepEvent::Rfi),
        (3, StepEvent::Interruption { vector: 0x2c00, name: "break" }),
        (4, StepEvent::Sentinel),
    ];
    let mut m = machine(script.clone(), None);
    let stop = StopWhen { on_sentinel: true, on_rfi: false, on_interruption: false, max_insns: 100 };
    assert_eq!(m.run(&stop).ok(), Some(StopReason::Sentinel));
    assert_eq!(m.cpu.count, 4);

    let mut m = machine(script, None);
    assert_eq!(m.run(&StopWhen::default()).ok(), Some(StopReason::Rfi));
    let next = m.run(&StopWhen::default()).ok();
    // The third step raised it, from the pc its step started at.
    assert_eq!(next, Some(StopReason::Interruption { vector: 0x2c00, name: "break", pc: 8 }));
}

#[test]
fn budget_is_a_clean_stop_per_run() {
    let mut m = machine(vec![(10, StepEvent::Halt)], None);
    let stop = StopWhen { max_insns: 4, ..StopWhen::default() };
    assert_eq!(m.run(&stop).ok(), Some(StopReason::Budget { max_insns: 4, pc: 16 }));
    assert_eq!(m.run(&stop).ok(), Some(StopReason::Budget { max_insns: 4, pc: 32 }));
    assert_eq!(m.run(&stop).ok(), Some(StopReason::Halt));
    assert_eq!(m.cpu.instructions(), 10);
}

#[test]
fn a_zero_budget_executes_nothing() {
    let mut m = machine(vec![], None);
    let stop = StopWhen { max_insns: 0, ..StopWhen::default() };
    assert_eq!(m.run(&stop).ok(), Some(StopReason::Budget { max_insns: 0, pc: 0 }));
    assert_eq!(m.cpu.count, 0);
}

#[test]
fn errors_carry_the_step_count() {
    let mut m = machine(vec![], Some(3));
    match m.run(&StopWhen::default()) {
        Err(e) => {
            assert_eq!(e.executed, 3);
            assert_eq!(e.to_string(), "failed at pc 0xc (after 3 instructions)");
        }
        Ok(r) => panic!("expected an error, got {r}"),
    }
}

#[test]
fn stop_reasons_read_well() {
    let texts: Vec<String> = [
        StopReason::Sentinel,
        StopReason::Rfi,
        StopReason::Interruption { vector: 0x2c00, name: "break", pc: 0x1000 },
        StopReason::Halt,
        StopReason::Budget { max_insns: 500, pc: 0x2010 },
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    assert_eq!(
        texts,
        [
            "returned to the sentinel",
            "rfi",
            "interruption: break (vector 0x2c00) at pc 0x1000",
            "halt",
            "budget of 500 instructions exhausted at pc 0x2010"
        ]
    );
}

#[test]
fn counts_since_subtract_and_clamp() {
    let before = Counts { cycles: 10, instructions: 4, nops: 1, groups: 3 };
    let after = Counts { cycles: 25, instructions: 9, nops: 1, groups: 2 };
    assert_eq!(after.since(before), Counts { cycles: 15, instructions: 5, nops: 0, groups: 0 });
}
