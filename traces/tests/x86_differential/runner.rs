//! Runner tests: the x86 traces as `acctemu run` runs them (arch_x86::run on the committed
//! object, externs resolved to the harness's regions), and the nohz counters against the C.

use arch_x86::run::{load_object_with, prepare, report, run_image, RunConfig, SENTINEL};
use emu_core::cpu::{StopReason, StopWhen};
use emu_core::harness::Harness;
use emu_core::image::Image;
use traces::{Arch, Trace};

/// The harness's initial jiffies (INITIAL_JIFFIES) and mm: rss 1000 + 2000 + 10 pages, total_vm.
const JIFFIES0: u64 = 4_294_667_296;
const RSS: u64 = 1000 + 2000 + 10;
const TOTAL_VM: u64 = 50_000;
const NSEC_PER_JIFFY: u64 = 1_000_000;

fn harness(t: &Trace) -> Harness {
    Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("{}: {d}", t.name))
}

fn image(t: &Trace, h: &Harness) -> Image {
    let outer = |name: &str| (name == "sentinel").then_some(SENTINEL);
    let env = h.env(&outer).unwrap_or_else(|d| panic!("{}: {d}", t.name));
    let bytes = t.object.unwrap_or_else(|| panic!("{} has no object", t.name));
    load_object_with(bytes, &|n| env.lookup(n)).unwrap_or_else(|e| panic!("{}: {e}", t.name))
}

#[test]
fn every_x86_entry_point_returns_to_the_sentinel() {
    let mut runs = 0;
    for t in traces::catalogue().iter().filter(|t| t.arch == Arch::X86_64) {
        let h = harness(t);
        let img = image(t, &h);
        for b in t.bindings {
            for user_tick in ["0", "1"] {
                let cfg = RunConfig {
                    entry: Some(b.start.to_string()),
                    harness: Some(h.clone()),
                    sets: vec![("rsi".into(), user_tick.into())],
                    ..RunConfig::default()
                };
                let r = run_image(&img, &cfg).unwrap_or_else(|e| panic!("{} {}: {e}", t.name, b.start));
                assert_eq!(r.stop, StopReason::Sentinel.to_string(), "{} {}", t.name, b.start);
                assert!(r.summary.instructions > 0 && r.summary.cycles > 0, "{} {}", t.name, b.start);
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 2 * (5 * 3 + 4), "five nohz versions of three paths, four single-call traces");
}

/// One nohz trace on its harness, for calls in sequence on the same memory.
struct Nohz {
    img: Image,
    h: Harness,
    machine: emu_core::cpu::Machine<arch_x86::cpu::X86Cpu>,
    task: u64,
    jiffies: u64,
}

impl Nohz {
    fn new(name: &str, tsc: u64) -> Nohz {
        let t = traces::find(name).unwrap_or_else(|| panic!("no trace {name}"));
        let h = harness(t);
        let img = image(t, &h);
        let cfg = RunConfig {
            harness: Some(h.clone()),
            options: arch_x86::run::X86Options { tsc_ratio: Some((0, 1)), ..Default::default() },
            sets: vec![("tsc_offset".into(), tsc.to_string())],
            ..RunConfig::default()
        };
        let (machine, _) = prepare(&img, &cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let task = machine.cpu.state.reg(7);
        let outer = |name: &str| (name == "sentinel").then_some(SENTINEL);
        let env = h.env(&outer).unwrap_or_else(|d| panic!("{name}: {d}"));
        let jiffies = env.lookup("jiffies").unwrap_or_else(|| panic!("{name}: no jiffies region"));
        Nohz { img, h, machine, task, jiffies }
    }

    /// Calls `entry(task, arg)` after moving jiffies on by `ticks`; the counters afterwards.
    fn call(&mut self, entry: &str, arg: u64, ticks: u64) -> Vec<(String, u64)> {
        let m = &mut self.machine;
        let j = m.mem.read_u64(self.jiffies).unwrap_or_default();
        m.mem.write_u64(self.jiffies, j + ticks).unwrap_or_else(|e| panic!("jiffies: {e}"));
        let rsp = arch_x86::run::STACK_BASE + arch_x86::run::STACK_SIZE - 8;
        m.cpu.state.set_reg(4, rsp);
        m.cpu.state.set_reg(7, self.task);
        m.cpu.state.set_reg(6, arg);
        m.mem.write_u64(rsp, SENTINEL).unwrap_or_else(|e| panic!("stack: {e}"));
        let entry_addr = self.img.symbol(entry).map(|s| s.value).unwrap_or_else(|| panic!("no {entry}"));
        m.cpu.set_entry(entry_addr);
        let stop = m.run(&StopWhen::default()).unwrap_or_else(|e| panic!("{entry}: {e}"));
        assert_eq!(stop, StopReason::Sentinel, "{entry}");
        let r = report(&self.img, &self.machine, &self.h, stop.to_string()).unwrap_or_else(|e| panic!("{e}"));
        r.counters.into_iter().map(|c| (c.name, c.value)).collect()
    }
}

fn counter(cs: &[(String, u64)], name: &str) -> u64 {
    cs.iter().find(|(n, _)| n == name).map(|(_, v)| *v).unwrap_or_else(|| panic!("no counter {name}"))
}

fn expect(cs: &[(String, u64)], want: &[(&str, u64)], what: &str) {
    for (name, v) in want {
        assert_eq!(counter(cs, name), *v, "{what}: counter {name}");
    }
}

/// Patch 4: a syscall entry 5 jiffies after the last snapshot charges 5 ms of user time, the
/// exit 3 jiffies later 3 ms of system time; acct integrals in pages * ns / 1024.
#[test]
fn patch4_counters_follow_the_jiffies() {
    let mut n = Nohz::new("x86/nohz-syscall/patch4", 0);
    let exit = n.call("user_exit_accounting", 0, 5);
    let user = 5 * NSEC_PER_JIFFY;
    let (rss1, vm1) = ((user * RSS) >> 10, (user * TOTAL_VM) >> 10);
    let want = [
        ("utime", user),
        ("stime", 0),
        ("vtime_snap", JIFFIES0 + 5),
        ("acct_timexpd", user),
        ("acct_rss_mem1", rss1),
        ("acct_vm_mem1", vm1),
        ("vtime_seqcount", 2),
        ("cpustat_user", user),
        ("cpustat_system", 0),
        ("warnings", 0),
    ];
    expect(&exit, &want, "user_exit_accounting after 5 jiffies");
    let enter = n.call("user_enter_accounting", 0, 3);
    let sys = 3 * NSEC_PER_JIFFY;
    let want = [
        ("utime", user),
        ("stime", sys),
        ("vtime_snap", JIFFIES0 + 8),
        ("acct_timexpd", user + sys),
        ("acct_rss_mem1", rss1 + ((sys * RSS) >> 10)),
        ("acct_vm_mem1", vm1 + ((sys * TOTAL_VM) >> 10)),
        ("vtime_seqcount", 4),
        ("cpustat_user", user),
        ("cpustat_system", sys),
        ("warnings", 0),
    ];
    expect(&enter, &want, "user_enter_accounting 3 jiffies later");
    // Same jiffy: nothing to charge, only the seqcount moves.
    let again = n.call("user_exit_accounting", 0, 0);
    expect(&again, &[("utime", user), ("stime", sys), ("vtime_seqcount", 6)], "user_exit_accounting, same jiffy");
}

/// 4.5-rc1: the clock is sched_clock() of the pinned TSC (ns = tsc * 825955249 >> 31 in the
/// harness); the acct integral goes through jiffies and a timeval, so in pages * usec of whole
/// jiffies.
#[test]
fn v4_5_rc1_counters_follow_the_tsc() {
    let tsc = 2_600_000_000u64;
    let ns = ((u128::from(tsc) * 825_955_249) >> 31) as u64;
    let mut n = Nohz::new("x86/nohz-syscall/v4.5-rc1", tsc);
    let cs = n.call("user_exit_accounting", 0, 0);
    let usec = ns / NSEC_PER_JIFFY * 1000;
    let want = [
        ("utime", ns),
        ("stime", 0),
        ("vtime_snap", ns),
        ("acct_timexpd", ns),
        ("acct_rss_mem1", usec * RSS),
        ("acct_vm_mem1", usec * TOTAL_VM),
        ("vtime_seqcount", 2),
        ("cpustat_user", ns),
        ("warnings", 0),
    ];
    expect(&cs, &want, "user_exit_accounting at TSC 2.6e9");
}

/// The housekeeping CPU: syscalls only track the context; a user tick charges one jiffy.
#[test]
fn housekeeping_counters_move_only_on_ticks() {
    let mut n = Nohz::new("x86/nohz-syscall/housekeeping", 0);
    let exit = n.call("user_exit_accounting", 0, 7);
    expect(&exit, &[("utime", 0), ("stime", 0), ("vtime_seqcount", 0), ("cpustat_user", 0)], "syscall entry");
    let tick = n.call("tick_accounting", 1, 1);
    let want = [
        ("utime", NSEC_PER_JIFFY),
        ("stime", 0),
        ("cpustat_user", NSEC_PER_JIFFY),
        ("acct_timexpd", NSEC_PER_JIFFY),
        ("acct_rss_mem1", (NSEC_PER_JIFFY * RSS) >> 10),
        ("acct_vm_mem1", (NSEC_PER_JIFFY * TOTAL_VM) >> 10),
        ("vtime_seqcount", 0),
    ];
    expect(&tick, &want, "user tick");
    let tick = n.call("tick_accounting", 0, 1);
    expect(&tick, &[("stime", NSEC_PER_JIFFY), ("cpustat_system", NSEC_PER_JIFFY)], "system tick");
}
