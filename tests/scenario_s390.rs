//! The s390 vtime traces before (4.10, immediate) and after (4.11, delayed accounting):
//! the lowcore after each path, scenario reports of syscalls with ticks and interrupts, and
//! seed 002's KVM hypercall shape (guest exit + enter) with every accounting bucket checked.

use emu_core::harness::Harness;
use emu_core::scenario::{run, PathKind, ScenarioMachine, ScenarioReport, Workload};
use std::collections::BTreeMap;
use traces::bind::s390::{core_hz, prepare};

const VERSIONS: [(&str, &str); 2] = [("s390/vtime/immediate", "immediate"), ("s390/vtime/delayed", "delayed")];

fn trace(name: &str) -> &'static traces::Trace {
    traces::find(name).unwrap_or_else(|| panic!("no trace {name}"))
}

fn scenario(name: &str, w: &Workload) -> ScenarioReport {
    let mut s = prepare(trace(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    run(&mut s, w, &mut |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The harness's lowcore counters (`lc_*`) by name, in hex, read from `mem`.
fn lowcore(t: &traces::Trace, mem: &emu_core::memory::Memory) -> BTreeMap<String, String> {
    let h = Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("{d}"));
    let env = h.env(&|_: &str| None).unwrap_or_else(|d| panic!("{d}"));
    h.counters
        .iter()
        .filter(|c| c.name.starts_with("lc_"))
        .map(|c| {
            let addr = env.eval(&c.address).unwrap_or_else(|d| panic!("{d}"));
            let v = mem.read_u64(addr).unwrap_or_else(|e| panic!("{}: {e}", c.name));
            (c.name.clone(), format!("{v:#018x}"))
        })
        .collect()
}

#[test]
fn lowcore_after_each_path() {
    let order = [
        PathKind::SyscallEnter,
        PathKind::SyscallExit,
        PathKind::IrqEnter,
        PathKind::IrqExit,
        PathKind::GuestEnter,
        PathKind::GuestExit,
        PathKind::Tick,
    ];
    for (name, snap) in VERSIONS {
        let t = trace(name);
        let mut s = prepare(t).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut states = vec![("vtime_init".to_string(), lowcore(t, &s.machine.mem))];
        for path in order {
            s.advance(10_000);
            s.run_path(path).unwrap_or_else(|e| panic!("{name}: {e}"));
            states.push((path.name().to_string(), lowcore(t, &s.machine.mem)));
        }
        insta::assert_yaml_snapshot!(format!("lowcore_{snap}"), states);
    }
}

/// 6000 syscalls of 1500 user + 300 kernel cycles with an interrupt every 4th and HZ 1000
/// on the 5 GHz clock: two ticks, so the delayed version's flush is inside the run.
fn syscalls() -> Workload {
    Workload {
        syscalls: 6000,
        user_cycles: 1500,
        kernel_cycles: 300,
        hz: 1000,
        cpu_hz: core_hz(),
        irq_every: Some(4),
        guest: false,
    }
}

#[test]
fn scenario_reports_of_both_versions() {
    for (name, snap) in VERSIONS {
        insta::assert_yaml_snapshot!(format!("scenario_s390_{snap}"), scenario(name, &syscalls()));
    }
}

/// Seed 002's benchmark shape: guest hypercalls, ticks at HZ 1000 (both versions flush).
fn hypercalls() -> Workload {
    Workload { guest: true, irq_every: None, syscalls: 20_000, user_cycles: 500, ..syscalls() }
}

#[test]
fn delayed_accounting_makes_the_guest_switch_cheaper() {
    let [before, after] = VERSIONS.map(|(name, _)| scenario(name, &hypercalls()));
    for r in [&before, &after] {
        assert!(r.ticks.guest + r.ticks.kernel >= 3, "ticks inside the run: {:?}", r.ticks);
        let guest = r.guest.unwrap_or_else(|| panic!("the vtime traces keep guest time"));
        assert_eq!(guest.truth, 20_000 * 500);
        // Both versions move time into cpustat at the tick (4.10 user time, 4.11 everything):
        // what accrued since the last flush is still in the lowcore when the run ends, so the
        // bound is the cycles spent in paths plus one tick period.
        let period = r.tick_period.unwrap_or(0);
        for (what, t) in [("utime", r.utime), ("stime", r.stime), ("guest", guest)] {
            assert!(t.accounted > 0, "{what} is accounted: {t:?}");
            let bound = u128::from(r.tolerance) + u128::from(period);
            assert!(t.error.unsigned_abs() as u128 <= bound, "{what} off by at most {bound}: {t:?}\n{r}");
        }
    }
    let (b, a) = (before.per_syscall.cycles.mean, after.per_syscall.cycles.mean);
    assert!(a < b, "guest exit + enter: delayed {a} cycles, immediate {b}");
    let enter = |r: &ScenarioReport| r.path(PathKind::GuestExit).map_or(0.0, |s| s.instructions);
    assert!(enter(&after) < enter(&before), "the delayed guest exit runs fewer instructions");
}
