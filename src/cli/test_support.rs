//! What the command line's unit tests share: catalogue lookups and workloads on the Itanium 2
//! clock, as the command line builds them.

use emu_core::scenario::Workload;

/// Catalogue trace `name`.
///
/// # Panics
/// When the catalogue has no such trace.
pub fn trace(name: &str) -> &'static traces::Trace {
    traces::find(name).unwrap_or_else(|| panic!("no {name}"))
}

/// `syscalls` system calls of `user_cycles` user and 300 kernel cycles each, `hz` ticks per
/// second, on the Itanium 2 clock, no interrupts, no guest.
pub fn ia64_workload(syscalls: u64, user_cycles: u64, hz: u64) -> Workload {
    Workload {
        syscalls,
        user_cycles,
        kernel_cycles: 300,
        hz,
        cpu_hz: super::scenario::IA64_CPU_HZ,
        irq_every: None,
        guest: false,
    }
}
