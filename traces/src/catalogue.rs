//! The catalogue: every trace version, by name.

use crate::trace::{Accounting, Arch, Binding, PathEnd, PathKind, Trace};

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

static CATALOGUE: [Trace; 3] = [
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
