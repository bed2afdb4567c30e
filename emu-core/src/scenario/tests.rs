use super::*;

/// How the fake machine accounts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scheme {
    /// Stamps at the exact mode switches (start of an entry/tick/irq path, end of the
    /// path that returns to user): zero error.
    Exact,
    /// Stamps `late` cycles into the entry path and `late` cycles before the end of the
    /// exit path, as a real implementation reading the clock inside the path does.
    Late(u64),
    /// Charges a whole tick period to the mode each tick interrupted.
    TickSampled(u64),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Ev {
    Advance(u64),
    Path(PathKind, u64),
}

/// A machine whose paths take known cycles and that accounts in a known way.
struct Fake {
    now: u64,
    /// Cycles per path kind; entry alternates between `enter` and `enter + enter_jitter`.
    enter: u64,
    enter_jitter: u64,
    exit: u64,
    tick: u64,
    irq: u64,
    bound_tick: bool,
    bound_irq: bool,
    scheme: Scheme,
    user_mode: bool,
    /// Keeps guest, hardirq and softirq buckets (user-mode time of a guest workload is guest
    /// time too, interrupt paths are hardirq time).
    buckets: bool,
    guest: bool,
    in_irq: bool,
    stamp: u64,
    acc: Accounted,
    entries: u64,
    log: Option<Vec<Ev>>,
}

#[derive(Debug, thiserror::Error)]
#[error("fake failure")]
struct FakeError;

impl Fake {
    fn new(scheme: Scheme) -> Fake {
        Fake {
            now: 0,
            enter: 10,
            enter_jitter: 0,
            exit: 20,
            tick: 7,
            irq: 5,
            bound_tick: true,
            bound_irq: false,
            scheme,
            user_mode: true,
            buckets: false,
            guest: false,
            in_irq: false,
            stamp: 0,
            acc: Accounted::default(),
            entries: 0,
            log: None,
        }
    }

    /// Charges the time since the last stamp to the current mode.
    fn charge(&mut self, at: u64) {
        let d = at - self.stamp;
        self.acc = self.charged(d);
        self.stamp = at;
    }

    /// The accounts with `d` more cycles of the current mode.
    fn charged(&self, d: u64) -> Accounted {
        let mut acc = self.acc;
        let add = |bucket: &mut Option<u64>| *bucket = bucket.map(|b| b + d);
        match (self.user_mode, self.buckets) {
            (true, _) => {
                acc.utime += d;
                if self.guest {
                    add(&mut acc.guest);
                }
            }
            (false, true) if self.in_irq => add(&mut acc.hardirq),
            (false, _) => acc.stime += d,
        }
        acc
    }

    fn with_buckets(mut self, guest: bool) -> Fake {
        self.buckets = true;
        self.guest = guest;
        self.acc = Accounted { guest: Some(0), hardirq: Some(0), softirq: Some(0), ..Accounted::default() };
        self
    }

    fn switch(&mut self, at: u64, to_user: bool) {
        if !matches!(self.scheme, Scheme::TickSampled(_)) {
            self.charge(at);
        }
        self.user_mode = to_user;
    }
}

impl ScenarioMachine for Fake {
    type Error = FakeError;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, FakeError> {
        let start = self.now;
        let late = match self.scheme {
            Scheme::Late(l) => l,
            _ => 0,
        };
        let cycles = match path {
            PathKind::SyscallEnter | PathKind::GuestExit => {
                self.entries += 1;
                let c = self.enter + if self.entries & 1 == 0 { self.enter_jitter } else { 0 };
                self.switch(start + late, false);
                c
            }
            PathKind::SyscallExit | PathKind::GuestEnter => {
                self.switch(start + self.exit - late, true);
                self.exit
            }
            PathKind::Tick | PathKind::IrqEnter | PathKind::IrqExit => {
                let c = if path == PathKind::Tick { self.tick } else { self.irq };
                let was_user = self.user_mode;
                match self.scheme {
                    Scheme::TickSampled(period) if path == PathKind::Tick => {
                        if was_user {
                            self.acc.utime += period;
                        } else {
                            self.acc.stime += period;
                        }
                    }
                    Scheme::TickSampled(_) => {}
                    _ => {
                        self.switch(start, false);
                        self.in_irq = path != PathKind::Tick;
                        self.switch(start + c, was_user);
                        self.in_irq = false;
                    }
                }
                c
            }
            PathKind::Fsys | PathKind::Call => return Err(FakeError),
        };
        self.now += cycles;
        if let Some(log) = &mut self.log {
            log.push(Ev::Path(path, start));
        }
        Ok(PathRun { cycles, instructions: cycles * 3, nops: cycles, groups: cycles / 2 })
    }

    fn advance(&mut self, cycles: u64) {
        self.now += cycles;
        if let Some(log) = &mut self.log {
            log.push(Ev::Advance(cycles));
        }
    }

    fn now(&self) -> u64 {
        self.now
    }

    fn accounted(&self) -> Result<Accounted, FakeError> {
        // What has not been stamped yet belongs to the current mode (a read flushes it).
        if matches!(self.scheme, Scheme::TickSampled(_)) {
            return Ok(self.acc);
        }
        Ok(self.charged(self.now - self.stamp))
    }

    fn has_path(&self, path: PathKind) -> bool {
        match path {
            PathKind::SyscallEnter | PathKind::SyscallExit => true,
            PathKind::GuestEnter | PathKind::GuestExit => self.guest,
            PathKind::Tick => self.bound_tick,
            PathKind::IrqEnter | PathKind::IrqExit => self.bound_irq,
            PathKind::Fsys | PathKind::Call => false,
        }
    }
}

fn workload(syscalls: u64, user: u64, kernel: u64, hz: u64, cpu_hz: u64) -> Workload {
    Workload { syscalls, user_cycles: user, kernel_cycles: kernel, hz, cpu_hz, irq_every: None, guest: false }
}

fn run_quiet(m: &mut Fake, w: &Workload) -> ScenarioReport {
    match run(m, w, &mut |_| {}) {
        Ok(r) => r,
        Err(e) => panic!("fake run failed: {e}"),
    }
}

#[test]
fn true_times_without_ticks_and_exact_accounting() {
    let mut m = Fake::new(Scheme::Exact);
    let r = run_quiet(&mut m, &workload(100, 1000, 500, 0, 1_000_000));
    assert_eq!(r.cycles, 100 * (1000 + 10 + 500 + 20));
    assert_eq!(r.utime.truth, 100 * 1000);
    assert_eq!(r.stime.truth, 100 * (10 + 500 + 20));
    assert_eq!((r.utime.error, r.stime.error), (0, 0), "exact stamps account the truth");
    assert_eq!(r.utime.relative_error, Some(0.0));
    assert_eq!(r.tolerance, 100 * 30, "tolerance = cycles spent in paths");
    assert_eq!(r.tick_period, None);
    assert_eq!(r.ticks, TickCounts::default());
}

#[test]
fn per_path_statistics_stream_min_mean_max() {
    let mut m = Fake::new(Scheme::Exact);
    m.enter_jitter = 10; // entries take 10, 20, 10, 20, ...
    let r = run_quiet(&mut m, &workload(4, 100, 50, 0, 1));
    let Some(enter) = r.path(PathKind::SyscallEnter) else { panic!("no entry stats") };
    assert_eq!(enter.calls, 4);
    assert_eq!((enter.cycles.min, enter.cycles.max), (10, 20));
    assert!((enter.cycles.mean - 15.0).abs() < 1e-9);
    assert_eq!(enter.total_cycles, 60);
    assert!((enter.instructions - 45.0).abs() < 1e-9, "3 instructions per cycle in the fake");
    assert!((enter.nops - 15.0).abs() < 1e-9);
    assert!((enter.groups - 7.5).abs() < 1e-9, "5 and 10 groups");
    assert_eq!((r.per_syscall.cycles.min, r.per_syscall.cycles.max), (30, 40), "entry + exit");
    assert!((r.per_syscall.cycles.mean - 35.0).abs() < 1e-9);
    assert!(r.path(PathKind::Tick).is_none(), "paths that never ran are left out");
    let order: Vec<PathKind> = r.paths.iter().map(|p| p.path).collect();
    assert_eq!(order, vec![PathKind::SyscallEnter, PathKind::SyscallExit]);
}

#[test]
fn ticks_split_user_and_kernel_phases() {
    let mut m = Fake::new(Scheme::Exact);
    m.log = Some(Vec::new());
    // A tick every 700 cycles.
    let r = run_quiet(&mut m, &workload(1, 1000, 500, 10, 7000));
    let log = m.log.take().unwrap_or_default();
    let expected = vec![
        Ev::Advance(700),
        Ev::Path(PathKind::Tick, 700),
        Ev::Advance(300),
        Ev::Path(PathKind::SyscallEnter, 1007),
        Ev::Advance(383),
        Ev::Path(PathKind::Tick, 1400),
        Ev::Advance(117),
        Ev::Path(PathKind::SyscallExit, 1524),
    ];
    assert_eq!(log, expected);
    assert_eq!(r.tick_period, Some(700));
    assert_eq!(r.ticks, TickCounts { user: 1, kernel: 1, coalesced: 0, guest: 0 });
    assert_eq!(r.utime.truth, 1000, "the tick's cycles are not user time");
    assert_eq!(r.stime.truth, 10 + 500 + 20 + 7 + 7, "the tick path runs in kernel mode");
    assert_eq!(r.cycles, 1544);
    assert_eq!((r.utime.error, r.stime.error), (0, 0));
}

#[test]
fn a_tick_due_inside_a_path_is_taken_after_it() {
    let mut m = Fake::new(Scheme::Exact);
    m.enter = 50;
    m.log = Some(Vec::new());
    // Tick due at 120, while the entry path runs (100..150).
    let r = run_quiet(&mut m, &workload(1, 100, 40, 1, 120));
    let log = m.log.take().unwrap_or_default();
    assert_eq!(
        log.get(1..4),
        Some(&[Ev::Path(PathKind::SyscallEnter, 100), Ev::Advance(0), Ev::Path(PathKind::Tick, 150)][..])
    );
    assert_eq!(r.ticks.kernel, 1, "taken at the start of the kernel phase");
    assert_eq!(r.stime.truth, 50 + 40 + 20 + 7);
}

#[test]
fn a_tick_at_the_very_end_of_a_phase_splits_it() {
    let mut m = Fake::new(Scheme::Exact);
    m.log = Some(Vec::new());
    let _ = run_quiet(&mut m, &workload(1, 100, 0, 1, 100));
    let log = m.log.take().unwrap_or_default();
    assert_eq!(log.first().copied(), Some(Ev::Advance(100)));
    assert_eq!(log.get(1).copied(), Some(Ev::Path(PathKind::Tick, 100)), "tick before the entry path");
}

#[test]
fn ticks_that_pile_up_during_a_long_tick_coalesce() {
    let mut m = Fake::new(Scheme::Exact);
    m.tick = 250;
    let r = run_quiet(&mut m, &workload(3, 1000, 0, 10, 1000));
    // Period 100, tick 250 cycles: after each tick two more fell due.
    assert!(r.ticks.coalesced >= 2 * (r.ticks.user + r.ticks.kernel) - 2, "{:?}", r.ticks);
    assert_eq!(r.utime.truth, 3000);
    assert_eq!((r.utime.error, r.stime.error), (0, 0));
}

#[test]
fn no_tick_path_means_no_ticks() {
    let mut m = Fake::new(Scheme::Exact);
    m.bound_tick = false;
    let r = run_quiet(&mut m, &workload(10, 1000, 500, 10, 7000));
    assert_eq!(r.tick_period, None);
    assert_eq!(r.ticks, TickCounts::default());
    assert!(r.to_string().contains("no tick path bound"));
}

#[test]
fn late_stamps_err_by_the_stamp_offset_within_tolerance() {
    let mut m = Fake::new(Scheme::Late(3));
    let r = run_quiet(&mut m, &workload(1000, 1000, 500, 0, 1));
    // Each system call: 3 cycles of entry go to user, 3 of exit go to user.
    assert_eq!(r.utime.error, 6000);
    assert_eq!(r.stime.error, -6000);
    assert!(r.utime.within_tolerance && r.stime.within_tolerance);
    assert_eq!(r.utime.relative_error, Some(6000.0 / 1_000_000.0));
}

#[test]
fn tick_sampling_misses_user_time_of_a_workload_synchronised_with_the_tick() {
    // A syscall-heavy workload: 5 user cycles, then a 1537-cycle system call (tick
    // included) that lasts exactly one period, so every tick falls due 7 cycles into the
    // system call, during the entry path, and is taken in kernel mode: sampling charges
    // every jiffy to the system and none to the user.
    let mut m = Fake::new(Scheme::TickSampled(1537));
    let r = run_quiet(&mut m, &workload(1000, 5, 1495, 1, 1537));
    assert_eq!(r.ticks, TickCounts { user: 0, kernel: 999, coalesced: 0, guest: 0 });
    assert_eq!(r.utime.truth, 5000);
    assert_eq!(r.utime.accounted, 0);
    assert_eq!(r.utime.relative_error, Some(-1.0), "all user time lost");
    assert_eq!(r.stime.accounted, 999 * 1537);
    assert_eq!(r.stime.truth, 1000 * (10 + 1495 + 20) + 999 * 7);
    assert_eq!(r.stime.error, (999 * 1537 - 1000 * 1525 - 999 * 7) as i64);
}

#[test]
fn interrupts_every_nth_syscall_split_the_user_phase() {
    let mut m = Fake::new(Scheme::Exact);
    m.bound_irq = true;
    m.log = Some(Vec::new());
    let w = Workload { irq_every: Some(2), ..workload(4, 100, 10, 0, 1) };
    let r = run_quiet(&mut m, &w);
    assert_eq!(r.irqs, 2);
    assert_eq!(r.path(PathKind::IrqEnter).map(|s| s.calls), Some(2));
    assert_eq!(r.stime.truth, 4 * (10 + 10 + 20) + 2 * (5 + 5));
    assert_eq!(r.utime.truth, 400);
    assert_eq!(r.utime.error, 0);
    let log = m.log.take().unwrap_or_default();
    // The second syscall starts at 140: 50 user cycles, then the interrupt.
    assert_eq!(
        log.get(4..7),
        Some(&[Ev::Advance(50), Ev::Path(PathKind::IrqEnter, 190), Ev::Path(PathKind::IrqExit, 195)][..])
    );

    let mut unbound = Fake::new(Scheme::Exact);
    assert_eq!(run_quiet(&mut unbound, &w).irqs, 0, "interrupts need both paths bound");
}

#[test]
fn progress_is_reported_in_steps_and_at_the_end() {
    let mut m = Fake::new(Scheme::Exact);
    let mut seen = Vec::new();
    let r = run(&mut m, &workload(10_000, 1, 1, 0, 1), &mut |n| seen.push(n));
    assert!(r.is_ok());
    assert_eq!(seen, vec![4096, 8192, 10_000]);
}

#[test]
fn machine_errors_stop_the_run() {
    struct Broken;
    impl ScenarioMachine for Broken {
        type Error = FakeError;
        fn run_path(&mut self, _: PathKind) -> Result<PathRun, FakeError> {
            Err(FakeError)
        }
        fn advance(&mut self, _: u64) {}
        fn now(&self) -> u64 {
            0
        }
        fn accounted(&self) -> Result<Accounted, FakeError> {
            Ok(Accounted::default())
        }
        fn has_path(&self, _: PathKind) -> bool {
            true
        }
    }
    assert!(run(&mut Broken, &workload(1, 1, 1, 0, 1), &mut |_| {}).is_err());
}

#[test]
fn time_check_error_and_relative_error() {
    let t = TimeCheck::new(100, 90, 5);
    assert_eq!(t.error, -10);
    assert_eq!(t.relative_error, Some(-0.1));
    assert!(!t.within_tolerance);
    let t = TimeCheck::new(100, 105, 5);
    assert_eq!(t.error, 5);
    assert!(t.within_tolerance);
    assert_eq!(TimeCheck::new(0, 7, 10).relative_error, None);
    assert_eq!(TimeCheck::new(0, u64::MAX, 0).error, i64::MAX, "saturates");
}

#[test]
fn path_names_round_trip() {
    for k in PathKind::ALL {
        assert_eq!(PathKind::from_name(&k.to_string()), Some(k));
    }
    assert_eq!(PathKind::from_name("syscall"), None);
    assert_eq!(PathKind::SyscallEnter.to_string(), "syscall_enter");
}

#[test]
fn report_renders_as_text_and_json() {
    let mut m = Fake::new(Scheme::Exact);
    let r = run_quiet(&mut m, &workload(10, 1000, 500, 10, 7000));
    let text = r.to_string();
    for needle in ["syscall_enter", "syscall_exit", "tick", "per syscall", "utime", "stime", "tolerance"] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
    let json = serde_json::to_value(&r).unwrap_or_default();
    assert_eq!(json["paths"][0]["path"], "syscall_enter");
    assert_eq!(json["paths"][0]["calls"], 10);
    assert_eq!(json["utime"]["error"], 0);
    assert_eq!(json["workload"]["hz"], 10);
}

#[test]
fn guest_hypercalls_check_guest_hardirq_and_softirq_buckets() {
    let mut m = Fake::new(Scheme::Exact).with_buckets(true);
    m.bound_irq = true;
    let w = Workload { guest: true, irq_every: Some(2), ..workload(10, 1000, 300, 0, 1) };
    let r = run_quiet(&mut m, &w);
    let (Some(guest), Some(hardirq), Some(softirq)) = (r.guest, r.hardirq, r.softirq) else {
        panic!("a scheme with buckets gets them checked: {r:?}")
    };
    assert_eq!(guest.truth, 10 * 1000, "the guest phases");
    assert_eq!(r.utime.truth, 10 * 1000, "guest time is user time too");
    assert_eq!(hardirq.truth, 5 * 2 * 5, "five interrupts of two 5-cycle paths");
    assert_eq!(r.stime.truth, 10 * (10 + 300 + 20), "interrupt paths leave system time");
    assert_eq!(softirq.truth, 0);
    for t in [r.utime, r.stime, guest, hardirq, softirq] {
        assert_eq!(t.error, 0, "exact stamps account every bucket exactly: {t:?}");
    }
    assert!(r.path(PathKind::SyscallEnter).is_none());
    assert_eq!(r.path(PathKind::GuestExit).map(|s| s.calls), Some(10));
    assert_eq!(r.path(PathKind::GuestEnter).map(|s| s.calls), Some(10));
    let text = r.to_string();
    for needle in ["10 guest hypercalls", "per hypercall", "guest_exit", "hardirq", "softirq"] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
}

#[test]
fn guest_ticks_are_counted_as_guest_ticks() {
    let mut m = Fake::new(Scheme::Exact).with_buckets(true);
    let w = Workload { guest: true, ..workload(10, 1000, 300, 1, 500) };
    let r = run_quiet(&mut m, &w);
    assert!(r.ticks.guest > 0, "ticks in the guest phases: {:?}", r.ticks);
    assert_eq!(r.ticks.user, 0);
}

#[test]
fn schemes_without_buckets_keep_interrupts_in_system_time() {
    let mut m = Fake::new(Scheme::Exact);
    m.bound_irq = true;
    let r = run_quiet(&mut m, &Workload { irq_every: Some(1), ..workload(4, 100, 10, 0, 1) });
    assert_eq!((r.guest, r.hardirq, r.softirq), (None, None, None));
    assert_eq!(r.stime.truth, 4 * (10 + 10 + 20 + 5 + 5));
    assert_eq!(r.stime.error, 0);
}
