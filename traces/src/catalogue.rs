//! The catalogue: every trace version, by name.

use crate::trace::{Accounting, Arch, Binding, Knob, PathEnd, PathKind, Trace};
use std::collections::BTreeMap;

/// Seed 004: "ia64: VIRT_CPU_ACCOUNTING (accurate cpu time accounting) take 2".
const SEED_004: &str = "004_45a46edebad92d63.txt";

/// One source for the three versions of the ia64 system-call path.
const SYSCALL_SOURCE: &str = include_str!("../ia64/syscall.S");

/// The same paths in every version; only the accounting they do differs. User code runs at
/// cpl 3 from `user_syscall` (its `break` enters `break_fault`), the kernel part of the
/// entry ends at `syscall_dispatch`, and every return to user mode ends in `rfi`.
const SYSCALL_BINDINGS: &[Binding] = &[
    Binding { kind: PathKind::SyscallEnter, start: "user_syscall", end: PathEnd::Symbol("syscall_dispatch") },
    Binding { kind: PathKind::SyscallExit, start: "ia64_leave_syscall", end: PathEnd::Rfi },
    Binding { kind: PathKind::Tick, start: "ext_interrupt", end: PathEnd::Rfi },
    Binding { kind: PathKind::Fsys, start: "user_fsys", end: PathEnd::Symbol("user_fsys_resume") },
];

/// Virtual accounting's counters (thread_info.ac_utime / ac_stime), in ar.itc cycles.
const VIRTUAL: Accounting = Accounting::Virtual { utime_counter: "ac_utime", stime_counter: "ac_stime" };

/// Seed 000: Rik van Riel, "sched,time: reduce nohz_full syscall overhead 40%".
const SEED_000: &str = "000_2c39b87cb7dcea5a.txt";
/// Seed 001: Wanpeng Li, "sched/nohz: Optimize get_nohz_timer_target()".
const SEED_001: &str = "001_fb9872666a54b8b1.txt";
/// Seed 003: Frederic Weisbecker, "sched: Unloop sched avg decaying".
const SEED_003: &str = "003_6c8452a7b1af273b.txt";

/// One C source for the five x86 nohz-syscall versions (`-D PATCHES=`).
const NOHZ_SOURCE: &str = include_str!("../x86/nohz_syscall.c");

/// Syscall entry runs the user-exit accounting, syscall exit the user-enter accounting, the
/// tick `account_process_tick` (in hardirq context); each is a C function that ends by
/// returning to the runner's sentinel. The task is in %rdi (the harness sets it); the tick's
/// second argument (%rsi) is 1 when it interrupted user mode.
const NOHZ_BINDINGS: &[Binding] = &[
    Binding { kind: PathKind::SyscallEnter, start: "user_exit_accounting", end: PathEnd::RETURN },
    Binding { kind: PathKind::SyscallExit, start: "user_enter_accounting", end: PathEnd::RETURN },
    Binding { kind: PathKind::Tick, start: "tick_accounting", end: PathEnd::RETURN },
];

/// task->utime / task->stime, in ns.
const NOHZ_VIRTUAL: Accounting = Accounting::Virtual { utime_counter: "utime", stime_counter: "stime" };

/// The harness before patch 4: vtime_snap holds sched_clock() nanoseconds.
const NOHZ_SCHED_CLOCK_HARNESS: &str = include_str!("../x86/harness/nohz-sched-clock.toml");

const SCHED_AVG_SOURCE: &str = include_str!("../x86/sched_avg.c");
const SCHED_AVG_BINDINGS: &[Binding] =
    &[Binding { kind: PathKind::Call, start: "sched_avg_update", end: PathEnd::RETURN }];
const SCHED_AVG_HARNESS: &str = include_str!("../x86/harness/sched-avg.toml");

const TIMER_TARGET_SOURCE: &str = include_str!("../x86/timer_target.c");
const TIMER_TARGET_BINDINGS: &[Binding] =
    &[Binding { kind: PathKind::Call, start: "get_nohz_timer_target", end: PathEnd::RETURN }];
const TIMER_TARGET_HARNESS: &str = include_str!("../x86/harness/timer-target.toml");

/// Seed 002: Christian Borntraeger on "vtime: Delay cputime accounting to tick" (the KVM
/// hypercall benchmark, 280 ns -> 260 ns, half of it from Martin Schwidefsky's s390 patch).
const SEED_002: &str = "002_444712d0ae2cf32d.txt";

/// One C source for both s390 versions (`-D DELAYED`); the objects also hold `entry.S`.
const VTIME_SOURCE: &str = include_str!("../s390/vtime.c");

/// Each path is a function returning through r14 to the runner's sentinel, the task in r2.
/// The syscall paths are entry.S's timer bookkeeping of system_call and of the return to user;
/// irq enter is the I/O interrupt's bookkeeping followed by the irq enter accounting, irq exit
/// the irq exit accounting and the return (through the exit bookkeeping when it interrupted
/// user state); the tick is the external interrupt's bookkeeping, irq enter/exit accounting
/// around vtime_flush, and the same return; guest enter and exit are
/// `vtime_guest_enter` and `vtime_guest_exit` (the KVM hypercall's accounting). `vtime_init`
/// and `vtime_task_switch` are entry points without a path kind.
const VTIME_BINDINGS: &[Binding] = &[
    Binding { kind: PathKind::SyscallEnter, start: "syscall_entry_bookkeeping", end: PathEnd::RETURN },
    Binding { kind: PathKind::SyscallExit, start: "syscall_exit_bookkeeping", end: PathEnd::RETURN },
    Binding { kind: PathKind::IrqEnter, start: "irq_enter_path", end: PathEnd::RETURN },
    Binding { kind: PathKind::IrqExit, start: "irq_exit_path", end: PathEnd::RETURN },
    Binding { kind: PathKind::Tick, start: "tick_path", end: PathEnd::RETURN },
    Binding { kind: PathKind::GuestEnter, start: "vtime_guest_enter", end: PathEnd::RETURN },
    Binding { kind: PathKind::GuestExit, start: "vtime_guest_exit", end: PathEnd::RETURN },
];

/// kcpustat's user and system time, in ns (the harness also names hardirq, softirq, guest
/// and steal).
const VTIME_ACCOUNTING: Accounting =
    Accounting::Virtual { utime_counter: "cpustat_user", stime_counter: "cpustat_system" };

static CATALOGUE: [Trace; 14] = [
    Trace {
        name: "ia64/syscall/none",
        arch: Arch::Ia64,
        seed: SEED_004,
        description: "ia64 syscall path without CONFIG_VIRT_CPU_ACCOUNTING: tick sampling (2.6.24-rc5)",
        source_name: "syscall.S",
        source: SYSCALL_SOURCE,
        defines: &[],
        harness_name: "syscall-none.toml",
        harness: include_str!("../ia64/syscall-none.toml"),
        bindings: SYSCALL_BINDINGS,
        accounting: Accounting::TickSampling { utime_counter: "utime_ticks", stime_counter: "stime_ticks" },
        object: None,
        knob: None,
    },
    Trace {
        name: "ia64/syscall/v1",
        arch: Arch::Ia64,
        seed: SEED_004,
        description: "ia64 syscall path, VIRT_CPU_ACCOUNTING V.1: utime charged at entry, stime at exit",
        source_name: "syscall.S",
        source: SYSCALL_SOURCE,
        defines: &[("CONFIG_VIRT_CPU_ACCOUNTING", "1")],
        harness_name: "syscall-v1.toml",
        harness: include_str!("../ia64/syscall-v1.toml"),
        bindings: SYSCALL_BINDINGS,
        accounting: VIRTUAL,
        object: None,
        knob: None,
    },
    Trace {
        name: "ia64/syscall/v2",
        arch: Arch::Ia64,
        seed: SEED_004,
        description: "ia64 syscall path, VIRT_CPU_ACCOUNTING V.2: exit stores ac_leave, entry charges both",
        source_name: "syscall.S",
        source: SYSCALL_SOURCE,
        defines: &[("CONFIG_VIRT_CPU_ACCOUNTING", "1"), ("ACCOUNTING_V2", "1")],
        harness_name: "syscall-v2.toml",
        harness: include_str!("../ia64/syscall-v2.toml"),
        bindings: SYSCALL_BINDINGS,
        accounting: VIRTUAL,
        object: None,
        knob: None,
    },
    Trace {
        name: "x86/nohz-syscall/v4.5-rc1",
        arch: Arch::X86_64,
        seed: SEED_000,
        description:
            "x86-64 nohz_full syscall accounting, 4.5-rc1: sched_clock vtime, jiffies->timeval acct under irqsave",
        source_name: "nohz_syscall.c",
        source: NOHZ_SOURCE,
        defines: &[("PATCHES", "0")],
        harness_name: "nohz-sched-clock.toml",
        harness: NOHZ_SCHED_CLOCK_HARNESS,
        bindings: NOHZ_BINDINGS,
        accounting: NOHZ_VIRTUAL,
        object: Some(include_bytes!("../x86/obj/nohz-syscall-v4.5-rc1.o")),
        knob: None,
    },
    Trace {
        name: "x86/nohz-syscall/patch1",
        arch: Arch::X86_64,
        seed: SEED_000,
        description: "x86-64 nohz_full syscall accounting + patch 1: acct in ns, >> 10, TICK_NSEC early-out",
        source_name: "nohz_syscall.c",
        source: NOHZ_SOURCE,
        defines: &[("PATCHES", "1")],
        harness_name: "nohz-sched-clock.toml",
        harness: NOHZ_SCHED_CLOCK_HARNESS,
        bindings: NOHZ_BINDINGS,
        accounting: NOHZ_VIRTUAL,
        object: Some(include_bytes!("../x86/obj/nohz-syscall-patch1.o")),
        knob: None,
    },
    Trace {
        name: "x86/nohz-syscall/patch3",
        arch: Arch::X86_64,
        seed: SEED_000,
        description: "x86-64 nohz_full syscall accounting + patches 1-3: acct without its own irq save/restore",
        source_name: "nohz_syscall.c",
        source: NOHZ_SOURCE,
        defines: &[("PATCHES", "3")],
        harness_name: "nohz-sched-clock.toml",
        harness: NOHZ_SCHED_CLOCK_HARNESS,
        bindings: NOHZ_BINDINGS,
        accounting: NOHZ_VIRTUAL,
        object: Some(include_bytes!("../x86/obj/nohz-syscall-patch3.o")),
        knob: None,
    },
    Trace {
        name: "x86/nohz-syscall/patch4",
        arch: Arch::X86_64,
        seed: SEED_000,
        description: "x86-64 nohz_full syscall accounting + patches 1-4: vtime at jiffy granularity, no clock read",
        source_name: "nohz_syscall.c",
        source: NOHZ_SOURCE,
        defines: &[("PATCHES", "4")],
        harness_name: "nohz-jiffies.toml",
        harness: include_str!("../x86/harness/nohz-jiffies.toml"),
        bindings: NOHZ_BINDINGS,
        accounting: NOHZ_VIRTUAL,
        object: Some(include_bytes!("../x86/obj/nohz-syscall-patch4.o")),
        knob: None,
    },
    Trace {
        name: "x86/nohz-syscall/housekeeping",
        arch: Arch::X86_64,
        seed: SEED_000,
        description: "x86-64 housekeeping (non-nohz_full) CPU: context tracking only per syscall, one jiffy per tick",
        source_name: "nohz_syscall.c",
        source: NOHZ_SOURCE,
        defines: &[("PATCHES", "4")],
        harness_name: "nohz-housekeeping.toml",
        harness: include_str!("../x86/harness/nohz-housekeeping.toml"),
        bindings: NOHZ_BINDINGS,
        accounting: Accounting::TickSampling { utime_counter: "utime", stime_counter: "stime" },
        object: Some(include_bytes!("../x86/obj/nohz-syscall-housekeeping.o")),
        knob: None,
    },
    Trace {
        name: "x86/sched-avg/loop",
        arch: Arch::X86_64,
        seed: SEED_003,
        description: "sched_avg_update before the seed: one loop iteration per missed period",
        source_name: "sched_avg.c",
        source: SCHED_AVG_SOURCE,
        defines: &[("SCHED_AVG_DIV", "0")],
        harness_name: "sched-avg.toml",
        harness: SCHED_AVG_HARNESS,
        bindings: SCHED_AVG_BINDINGS,
        accounting: Accounting::NONE,
        object: Some(include_bytes!("../x86/obj/sched-avg-loop.o")),
        knob: Some(Knob::MissedPeriods),
    },
    Trace {
        name: "x86/sched-avg/div",
        arch: Arch::X86_64,
        seed: SEED_003,
        description: "sched_avg_update after the seed: one div64_u64_rem for all missed periods",
        source_name: "sched_avg.c",
        source: SCHED_AVG_SOURCE,
        defines: &[("SCHED_AVG_DIV", "1")],
        harness_name: "sched-avg.toml",
        harness: SCHED_AVG_HARNESS,
        bindings: SCHED_AVG_BINDINGS,
        accounting: Accounting::NONE,
        object: Some(include_bytes!("../x86/obj/sched-avg-div.o")),
        knob: Some(Knob::MissedPeriods),
    },
    Trace {
        name: "x86/timer-target/old",
        arch: Arch::X86_64,
        seed: SEED_001,
        description: "get_nohz_timer_target before the seed: housekeeping_cpu() on every busy CPU of every domain",
        source_name: "timer_target.c",
        source: TIMER_TARGET_SOURCE,
        defines: &[("TIMER_TARGET_NEW", "0")],
        harness_name: "timer-target.toml",
        harness: TIMER_TARGET_HARNESS,
        bindings: TIMER_TARGET_BINDINGS,
        accounting: Accounting::NONE,
        object: Some(include_bytes!("../x86/obj/timer-target-old.o")),
        knob: Some(Knob::Cpus),
    },
    Trace {
        name: "x86/timer-target/new",
        arch: Arch::X86_64,
        seed: SEED_001,
        description: "get_nohz_timer_target after the seed: walk domain spans AND the housekeeping mask",
        source_name: "timer_target.c",
        source: TIMER_TARGET_SOURCE,
        defines: &[("TIMER_TARGET_NEW", "1")],
        harness_name: "timer-target.toml",
        harness: TIMER_TARGET_HARNESS,
        bindings: TIMER_TARGET_BINDINGS,
        accounting: Accounting::NONE,
        object: Some(include_bytes!("../x86/obj/timer-target-new.o")),
        knob: Some(Knob::Cpus),
    },
    Trace {
        name: "s390/vtime/immediate",
        arch: Arch::S390x,
        seed: SEED_002,
        description: "s390 vtime, 4.10: account_system_time() at every irq enter/exit and guest switch",
        source_name: "vtime.c",
        source: VTIME_SOURCE,
        defines: &[],
        harness_name: "vtime-4.10.toml",
        harness: include_str!("../s390/harness/vtime-4.10.toml"),
        bindings: VTIME_BINDINGS,
        accounting: VTIME_ACCOUNTING,
        object: Some(include_bytes!("../s390/obj/vtime-immediate.o")),
        knob: None,
    },
    Trace {
        name: "s390/vtime/delayed",
        arch: Arch::S390x,
        seed: SEED_002,
        description: "s390 vtime, 4.11: irq enter/exit add to one lowcore bucket, tick/task switch account five",
        source_name: "vtime.c",
        source: VTIME_SOURCE,
        defines: &[("LOWCORE_411", "1"), ("DELAYED", "1")],
        harness_name: "vtime-4.11.toml",
        harness: include_str!("../s390/harness/vtime-4.11.toml"),
        bindings: VTIME_BINDINGS,
        accounting: VTIME_ACCOUNTING,
        object: Some(include_bytes!("../s390/obj/vtime-delayed.o")),
        knob: None,
    },
];

/// Every catalogued trace, in listing order.
pub fn catalogue() -> &'static [Trace] {
    &CATALOGUE
}

/// The trace called `name` (`ia64/syscall/v2`).
pub fn find(name: &str) -> Option<&'static Trace> {
    CATALOGUE.iter().find(|t| t.name == name)
}

/// The catalogued version that is this build: the same source text under the same defines
/// (by name and value, in any order; a define given twice keeps its last value, as `-D` does).
/// A trace changed by `--b-define` into another version's build must run with that version's
/// harness, bindings and counters, not with the ones of the trace it started from. Only traces
/// the tool assembles count: a compiled trace's build is its committed object, and two of them
/// may share source and defines (x86 `patch4` and `housekeeping` differ by harness).
pub fn find_build(source: &str, defines: &[(String, String)]) -> Option<&'static Trace> {
    let wanted: BTreeMap<&str, &str> = defines.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    CATALOGUE.iter().find(|t| {
        t.object.is_none()
            && t.source == source
            && t.defines.iter().copied().collect::<BTreeMap<&str, &str>>() == wanted
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defines(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn v1_under_accounting_v2_is_the_v2_build() {
        let v1 = find("ia64/syscall/v1").expect("v1");
        let mut d = defines(v1.defines);
        d.push(("ACCOUNTING_V2".into(), "1".into()));
        assert_eq!(find_build(v1.source, &d).map(|t| t.name), Some("ia64/syscall/v2"));
        // Order does not matter; the last value of a name counts.
        let d = defines(&[("ACCOUNTING_V2", "0"), ("ACCOUNTING_V2", "1"), ("CONFIG_VIRT_CPU_ACCOUNTING", "1")]);
        assert_eq!(find_build(v1.source, &d).map(|t| t.name), Some("ia64/syscall/v2"));
        assert_eq!(find_build(v1.source, &[]).map(|t| t.name), Some("ia64/syscall/none"));
    }

    /// Where the harness of `harness_of` puts the user and system counters when `build`'s code
    /// runs: `None` when the build does not define a field it names (the harness is refused).
    fn counters_on(build: &Trace, harness_of: &Trace) -> Option<(u64, u64)> {
        let image = build.assemble().expect("assembles").image;
        let h = emu_core::harness::Harness::parse(harness_of.harness_name, harness_of.harness).expect("harness");
        let symbols = |name: &str| image.symbol(name).map(|s| s.value);
        let env = h.env(&symbols).expect("harness symbols");
        let (u, s) = harness_of.accounting.counters().expect("counters");
        let at = |name: &str| {
            let c = h.counters.iter().find(|c| c.name == name).expect("counter listed");
            env.eval(&c.address).ok()
        };
        Some((at(u)?, at(s)?))
    }

    /// No ia64 harness reads another build's code at a place that build does not keep the
    /// time: on every version's code, every version's harness either puts its counters where
    /// that version's own harness does, or is refused.
    #[test]
    fn an_ia64_harness_follows_or_refuses_every_build() {
        let ia64: Vec<&Trace> = catalogue().iter().filter(|t| t.arch == Arch::Ia64).collect();
        for build in &ia64 {
            let own = counters_on(build, build);
            assert!(own.is_some(), "{}: its own harness does not resolve", build.name);
            for other in &ia64 {
                let theirs = counters_on(build, other);
                assert!(
                    theirs.is_none() || theirs == own,
                    "{}'s harness on {}'s code reads {theirs:x?}, the build keeps {own:x?}",
                    other.name,
                    build.name
                );
            }
        }
        // V.1 and V.2 harnesses agree on each other's code; the tick-sampling one is refused there.
        let (v1, v2, none) = (find("ia64/syscall/v1"), find("ia64/syscall/v2"), find("ia64/syscall/none"));
        let (v1, v2, none) = (v1.expect("v1"), v2.expect("v2"), none.expect("none"));
        assert_eq!(counters_on(v2, v1), counters_on(v2, v2));
        assert_eq!(counters_on(v1, v2), counters_on(v1, v1));
        assert_eq!(counters_on(v1, none), None);
        assert_eq!(counters_on(none, v1), None);
    }

    #[test]
    fn another_source_or_value_is_no_catalogued_build() {
        let v1 = find("ia64/syscall/v1").expect("v1");
        assert!(find_build(v1.source, &defines(&[("CONFIG_VIRT_CPU_ACCOUNTING", "2")])).is_none());
        assert!(find_build("nop.m 0\n", &defines(v1.defines)).is_none());
    }
}
