//! The ia64 syscall path in its three versions over fixed workloads: snapshots of the
//! scenario reports, V.1 against V.2 accounting, and tick sampling going wrong the way
//! seed 004 warns ("the faster hardware goes ... the more accuracy of traditional
//! tick-sampling based CPU time accounting drops").

use acctemu::cli::scenario::IA64_CPU_HZ;
use emu_core::scenario::{run, ScenarioReport, Workload};
use traces::bind::ia64::prepare as prepare_trace;

fn workload(syscalls: u64, user_cycles: u64, kernel_cycles: u64, hz: u64) -> Workload {
    Workload { syscalls, user_cycles, kernel_cycles, hz, cpu_hz: IA64_CPU_HZ, irq_every: None, guest: false }
}

fn scenario(name: &str, w: &Workload) -> ScenarioReport {
    let trace = traces::find(name).unwrap_or_else(|| panic!("no trace {name}"));
    let mut s = prepare_trace(trace, w).unwrap_or_else(|e| panic!("{name}: {e}"));
    run(&mut s, w, &mut |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A small fixed workload with a tick every 20,000 cycles, so ticks land in both modes.
fn small() -> Workload {
    workload(50, 3000, 1000, IA64_CPU_HZ / 20_000)
}

#[test]
fn scenario_reports_of_the_three_versions() {
    for (name, snap) in [("ia64/syscall/none", "none"), ("ia64/syscall/v1", "v1"), ("ia64/syscall/v2", "v2")] {
        let r = scenario(name, &small());
        insta::assert_yaml_snapshot!(format!("scenario_ia64_syscall_{snap}"), r);
    }
}

#[test]
fn v1_and_v2_account_the_same_times_within_the_path_tolerance_and_near_the_truth() {
    let w = workload(2000, 1500, 300, 1024);
    let (v1, v2) = (scenario("ia64/syscall/v1", &w), scenario("ia64/syscall/v2", &w));
    // Both stamp the ITC inside their entry and exit paths, so neither can be further from the
    // truth, or from the other, than the cycles spent in paths.
    let tolerance = v1.tolerance.max(v2.tolerance);
    assert!(v1.utime.accounted.abs_diff(v2.utime.accounted) <= tolerance);
    assert!(v1.stime.accounted.abs_diff(v2.stime.accounted) <= tolerance);
    for r in [&v1, &v2] {
        assert!(r.utime.within_tolerance && r.stime.within_tolerance, "{r}");
        // The same true times: the workload, not the version, decides them (path cycles differ,
        // so compare the user side, which is the workload's).
        assert_eq!(r.utime.truth, w.syscalls * w.user_cycles);
    }
}

#[test]
fn tick_sampling_misses_system_time_when_syscalls_beat_with_the_tick() {
    // A syscall-heavy workload (20,000 kernel cycles per call, 2,000 user) whose loop has the
    // tick's own period: every tick then interrupts the same point of the user phase, so tick
    // sampling charges every jiffy to user time although nine tenths of the time is system.
    use emu_core::scenario::PathKind;
    let (u, k) = (2_000, 20_000);
    let probe = scenario("ia64/syscall/none", &workload(10, u, k, 0));
    let iteration = probe.cycles / 10;
    // The loop with one tick taken in user mode lasts iteration + (cost of that tick path).
    let with_tick = scenario("ia64/syscall/none", &workload(10, u, k, IA64_CPU_HZ / (iteration + 100)));
    let user_tick = with_tick.path(PathKind::Tick).map_or(0, |t| t.cycles.min);
    let period = iteration + user_tick;
    // A tick period of exactly `period` cycles: HZ 1000 on a clock of 1000 periods a second.
    let w = Workload { cpu_hz: period * 1000, hz: 1000, ..workload(400, u, k, 0) };
    let r = scenario("ia64/syscall/none", &w);
    assert!(r.ticks.user > 350 && r.ticks.kernel == 0, "every tick should land in user mode:\n{r}");
    let share = |t: u64, total: u64| t as f64 / total as f64;
    let true_user = share(r.utime.truth, r.utime.truth + r.stime.truth);
    let sampled_user = share(r.utime.accounted, r.utime.accounted + r.stime.accounted);
    assert!(true_user < 0.15, "{r}");
    assert!(sampled_user > 0.99, "tick sampling should charge everything to user:\n{r}");
    // V.2's virtual accounting on the same workload stays within its tolerance of the truth.
    let v2 = scenario("ia64/syscall/v2", &w);
    assert!(v2.utime.within_tolerance && v2.stime.within_tolerance, "{v2}");
}
