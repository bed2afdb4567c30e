//! The catalogue-scenario side of the engine differential tests (issue 17): which traces they
//! run and on what workload (include with `#[path = "common/scenario_diff.rs"] mod
//! scenario_diff;`).

#![allow(dead_code)] // each test that includes this uses a part of it

use emu_core::scenario::Workload;
use traces::{Arch, PathKind, Trace, IA64_CPU_HZ};

/// Every catalogue trace of `arch` that a scenario can drive: those binding a system-call
/// entry path.
pub fn scenario_traces(arch: Arch) -> impl Iterator<Item = &'static Trace> {
    traces::catalogue().iter().filter(move |t| t.arch == arch && t.binding(PathKind::SyscallEnter).is_some())
}

/// `syscalls` system calls of 1500 user and 300 kernel cycles, ticking often enough (250 kHz)
/// that the tick path runs too.
pub fn diff_workload(syscalls: u64) -> Workload {
    Workload {
        syscalls,
        user_cycles: 1500,
        kernel_cycles: 300,
        hz: 250_000,
        cpu_hz: IA64_CPU_HZ,
        irq_every: None,
        guest: false,
    }
}
