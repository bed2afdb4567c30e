use super::*;
use crate::run::{prepare, RunConfig};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::scenario::{run, ScenarioReport, Workload};

use super::example::{self, tick_sampling, VIRTUAL};

fn image() -> Image {
    example::image().unwrap_or_else(|e| panic!("{e}"))
}

fn sym(image: &Image, name: &str) -> u64 {
    image.symbol(name).map(|s| s.value).unwrap_or_else(|| panic!("no symbol {name}"))
}

fn bindings(image: &Image, accounting: Accounting) -> Bindings {
    example::bindings(image, accounting).unwrap_or_else(|e| panic!("{e}"))
}

fn scenario(accounting: Accounting) -> Ia64Scenario {
    example::scenario(accounting).unwrap_or_else(|e| panic!("{e}"))
}

fn workload(syscalls: u64, hz: u64) -> Workload {
    Workload {
        syscalls,
        user_cycles: 2000,
        kernel_cycles: 700,
        hz,
        cpu_hz: 1_500_000_000,
        irq_every: None,
        guest: false,
    }
}

fn go(s: &mut Ia64Scenario, w: &Workload) -> ScenarioReport {
    run(s, w, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn virtual_accounting_is_within_the_path_tolerance() {
    let mut s = scenario(VIRTUAL);
    let r = go(&mut s, &workload(200, 0));
    let enter = r.path(PathKind::SyscallEnter).unwrap_or_else(|| panic!("no entry"));
    let exit = r.path(PathKind::SyscallExit).unwrap_or_else(|| panic!("no exit"));
    assert_eq!((enter.calls, exit.calls), (200, 200));
    // The user bundle and 9 handler bundles; 9 exit bundles: every slot counts.
    assert_eq!((enter.instructions, enter.nops), (30.0, 10.0), "{r}");
    assert_eq!(exit.instructions, 27.0, "{r}");
    assert_eq!(enter.cycles.min, enter.cycles.max, "the same path and state every time");
    assert!(enter.cycles.min > 0 && exit.cycles.min > 0);
    assert!(enter.groups > 5.0, "{r}");
    assert_eq!(r.utime.truth, 200 * 2000);
    assert_eq!(r.cycles, r.utime.truth + r.stime.truth);
    assert_eq!(r.stime.truth, 200 * 700 + enter.total_cycles + exit.total_cycles);
    assert!(r.utime.within_tolerance && r.stime.within_tolerance, "{r}");
    // Only the tail of the last exit path, after its stamp, is accounted to neither side.
    let unstamped = -(r.utime.error + r.stime.error);
    assert!(unstamped > 0 && unstamped < exit.cycles.min as i64, "{r}");
    assert_ne!(r.utime.error, 0, "the stamps sit inside the paths, not at the mode switches");
    // The rfi went back past the break, at user privilege.
    assert_eq!(s.machine.cpu.state.psr.cpl(), 3);
}

#[test]
fn ticks_interrupt_user_and_kernel_phases_and_sampling_counts_them() {
    let image = image();
    // HZ 500_000 at 1.5 GHz: a tick every 3000 cycles, about one per system call.
    let w = workload(300, 500_000);
    let period = 3000;
    let sampling = tick_sampling(period);
    let mut s = scenario(sampling);
    assert_eq!(s.adapter.bindings(), &bindings(&image, sampling));
    let r = go(&mut s, &w);
    assert_eq!(r.tick_period, Some(period));
    assert!(r.ticks.user > 0 && r.ticks.kernel > 0, "{:?}", r.ticks);
    assert_eq!(r.utime.accounted, r.ticks.user * period, "the handler saw cpl 3 exactly for the user ticks\n{r}");
    assert_eq!(r.stime.accounted, r.ticks.kernel * period);
    let tick = r.path(PathKind::Tick).unwrap_or_else(|| panic!("no ticks ran"));
    assert_eq!(tick.calls, r.ticks.user + r.ticks.kernel);

    // The same workload under the virtual scheme stays within tolerance despite the ticks.
    let mut v = scenario(VIRTUAL);
    let r = go(&mut v, &w);
    assert!(r.utime.within_tolerance && r.stime.within_tolerance, "{r}");
}

#[test]
fn a_path_that_never_ends_exhausts_its_budget() {
    let image = image();
    let mut b = bindings(&image, VIRTUAL);
    // `ivt` itself is never executed: the entry runs on through the exit's rfi into the
    // user stub's loop, break after break, until the budget runs out.
    if let Some(p) = b.paths.first_mut() {
        p.end = End::Label(sym(&image, "ivt"));
    }
    b.max_insns = 500;
    let mut s = scenario(VIRTUAL);
    s.adapter.bindings = b;
    match run(&mut s, &workload(1, 0), &mut |_| {}) {
        Err(ScenarioError::Budget { path: "syscall_enter", max_insns: 500, .. }) => {}
        other => panic!("expected a budget error, got {other:?}"),
    }
}

#[test]
fn bindings_are_checked() {
    let image = image();
    let harness = Harness::parse("example.toml", example::HARNESS).unwrap_or_else(|d| panic!("{d}"));
    let cfg = RunConfig { harness: Some(harness), ..RunConfig::default() };
    let (machine, _) = prepare(&image, &cfg).unwrap_or_else(|e| panic!("{e}"));
    let mut b = bindings(&image, VIRTUAL);
    b.paths.retain(|p| p.path != PathKind::SyscallExit);
    let err = bind(machine.clone(), b).map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(err, Err("the trace binds no `syscall_exit` path".to_string()));
    let mut b = bindings(&image, VIRTUAL);
    b.paths.push(PathBinding { path: PathKind::Tick, start: Start::Here, end: End::Rfi });
    let err = bind(machine, b).map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(err, Err("the `tick` path is bound twice".to_string()));
}

#[test]
fn unreadable_counters_are_a_clean_error() {
    let mut s = scenario(Accounting::Virtual { utime_addr: 0x1234_5000_0000, stime_addr: 0x1234_5000_0008 });
    match run(&mut s, &workload(1, 0), &mut |_| {}) {
        Err(e @ ScenarioError::Counter { name: "utime", .. }) => assert!(e.to_string().contains("accounted utime")),
        other => panic!("expected a counter error, got {other:?}"),
    }
}

/// The measurement behind the scenario's throughput figure (run it in release:
/// `cargo test --release -p arch-ia64 --lib scenario::tests::throughput -- --ignored`).
#[test]
#[ignore]
fn throughput_100k_syscalls() {
    let mut s = scenario(VIRTUAL);
    let started = std::time::Instant::now();
    let r = go(&mut s, &workload(100_000, 1000));
    eprintln!("{r}\nwall: {:?}", started.elapsed());
    assert_eq!(r.per_syscall.calls, 100_000);
}
