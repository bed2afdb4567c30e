use super::*;
use crate::{catalogue, find, Knob};

fn trace(name: &str) -> &'static Trace {
    find(name).unwrap_or_else(|| panic!("no trace {name}"))
}

fn workload(syscalls: u64, hz: u64) -> Workload {
    Workload { syscalls, user_cycles: 1500, kernel_cycles: 300, hz, cpu_hz: IA64_CPU_HZ, irq_every: None, guest: false }
}

#[test]
fn workloads_move_to_the_clock_of_the_trace_core() {
    let w = workload(10, 250);
    assert_eq!(trace("ia64/syscall/v2").workload(&w), w);
    let x86 = trace("x86/nohz-syscall/patch4").workload(&w);
    assert_eq!((x86.cpu_hz, x86.hz), (x86::core_hz(), x86::KERNEL_HZ), "the C's compiled-in HZ");
    assert_eq!(trace("x86/nohz-syscall/patch4").workload(&workload(10, 0)).hz, 0, "no ticks stays no ticks");
    let s390 = trace("s390/vtime/delayed").workload(&w);
    assert_eq!((s390.cpu_hz, s390.hz), (5_000_000_000, 250));
    assert_eq!(trace("s390/vtime/delayed").compiled_hz(), None);
}

#[test]
fn every_trace_with_system_calls_runs_through_the_one_entry_point() {
    for t in catalogue().iter().filter(|t| t.binding(PathKind::SyscallEnter).is_some()) {
        let r = t.run(&workload(20, 1000), &mut |_| {}).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        assert_eq!(r.per_syscall.calls, 20, "{}", t.name);
        assert_eq!(r.workload.cpu_hz, t.arch.core_hz(), "{}", t.name);
        assert!(r.per_syscall.cycles.min > 0, "{}\n{r}", t.name);
    }
}

#[test]
fn a_changed_image_keeps_the_bindings_and_every_core_attributes_its_groups() {
    let t = trace("ia64/syscall/v2");
    let image = t.assemble().unwrap_or_else(|d| panic!("{d}")).image;
    let a = t.run_attributed(Some(&image), &workload(5, 0)).unwrap_or_else(|e| panic!("{e}"));
    let b = t.run_attributed(None, &workload(5, 0)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.report, b.report, "the same code either way");
    assert!(!a.groups.is_empty(), "the IA-64 core profiles its groups");
    let x = trace("x86/nohz-syscall/patch1").run_attributed(None, &workload(5, 0)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(x.report.per_syscall.calls, 5);
    // The compiled cores charge one more call's timeline, standing for each of the 5.
    for (name, groups) in [
        ("x86", x.groups),
        (
            "s390",
            trace("s390/vtime/delayed").run_attributed(None, &workload(5, 0)).map(|r| r.groups).unwrap_or_default(),
        ),
    ] {
        let charged: u64 = groups.iter().map(|g| g.cycles).sum();
        assert!(
            !groups.is_empty() && charged > 0 && charged.is_multiple_of(5),
            "{name}: {charged} cycles in {groups:?}"
        );
        assert!(groups.iter().all(|g| g.runs.is_multiple_of(5) && !g.text.is_empty()), "{name}: {groups:?}");
    }
}

#[test]
fn call_points_run_only_the_knob_of_their_trace() {
    let t = trace("x86/timer-target/new");
    let (cycles, insns) = t.call_point(Knob::Cpus, 8).unwrap_or_else(|e| panic!("{e}"));
    assert!(cycles > 0 && insns > 0);
    let e = t.call_point(Knob::Cpus, 1).err().map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("--param cpus: 1 is outside 2..=256 CPUs"));
    let e = t.call_point(Knob::MissedPeriods, 3).err().map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("--param missed-periods does not apply to x86/timer-target/new"));
    let (c0, _) = trace("x86/sched-avg/div").call_point(Knob::MissedPeriods, 0).unwrap_or_else(|e| panic!("{e}"));
    assert!(c0 > 0);
}

#[test]
fn a_call_is_no_scenario_path() {
    let t = trace("x86/sched-avg/loop");
    match t.prepare(None, &workload(1, 0), true) {
        Err(BindError::Setup(d)) => assert!(d.to_string().contains("unknown path `call`"), "{d}"),
        other => panic!("expected a set-up error, got {other:?}"),
    }
}
