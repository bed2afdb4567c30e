//! The kernel's C accounting functions, written in Rust as stubs the emulated assembly calls.
//!
//! The real files' assembly (entry.S, ivt.S, fsys.S, minstate.h) only stamps and sums cycles
//! in `thread_info` (`ac_stamp`, `ac_leave`, `ac_stime`, `ac_utime`). What the kernel reports
//! to user space is decided by C: the functions the tick and the scheduler reach, which read
//! those fields and hand values to `account_user_time`, `account_system_index_time` and the
//! other sinks of `kernel/sched/cputime.c`. This module does what the tree's C does (each
//! access cites the file and line of Debian's linux-source-6.1, 6.1.192) on the guest's
//! memory, and records every call to a sink in an [`AccountingLog`] a scenario reads back.
//!
//! - [`time_c`]: `arch/ia64/kernel/time.c` (the `vtime_*` functions, `cycle_to_nsec`).
//! - [`cputime_c`]: `kernel/sched/cputime.c` and the inlines of `include/linux/vtime.h` and
//!   `include/linux/kernel_stat.h` (`vtime_task_switch`, `vtime_account_irq`,
//!   `account_process_tick`, the sinks).
//! - [`irq_c`]: the C around them that the tick and a task switch run (`ia64_handle_irq`,
//!   `irq_enter`/`irq_exit`, the timer softirq, `finish_task_switch`), with the cycles each
//!   step takes as named parameters.
//! - [`stubs`]: the [`emu_core::stub::Stub`] implementations binding those symbols.
//! - [`truth`]: the true user/system time of a run against what the log reports.
//! - [`workload`]: Unixbench's "System Call Overhead" loop as the scenario runs it.
//! - [`check`]: the whole check of one tree (build, accounting run, cycles per call) and
//!   the diff of two against a third without accounting.
//! - [`scenario`]: the workload on the kernel harness ([`crate::kernel`]) with these stubs
//!   bound, the truth from psr.cpl beside it, and the verdict.

pub mod account_c;
pub mod check;
pub mod cputime_c;
pub mod guest;
pub mod irq_c;
pub mod layout;
pub mod log;
pub mod scenario;
pub mod stubs;
pub mod time_c;
pub mod truth;
pub mod workload;

pub use guest::Guest;
pub use layout::TaskLayout;
pub use log::{AccountingLog, CpuStat, Report, Sink};

use emu_core::stub::StubError;

/// What one C function runs against: the machine, the tree's layout and config, the log,
/// and `current`.
#[derive(Debug)]
pub struct Cx<'k, 'g> {
    /// Guest memory and the ITC.
    pub guest: &'k mut Guest<'g>,
    /// Field offsets of this tree.
    pub layout: &'k TaskLayout,
    /// Config and clock.
    pub config: &'k KernelCConfig,
    /// Where the sinks' calls go.
    pub log: &'k mut AccountingLog,
    /// `current` (what r13 and ar.k6 hold).
    pub current: u64,
}

impl Cx<'_, '_> {
    /// Reads `task`'s thread_info member `name` (a `__u64`).
    ///
    /// # Errors
    /// No such member in this tree, or the memory is not there.
    pub fn ti_get(&mut self, task: u64, name: &str) -> Result<u64, StubError> {
        let a = self.layout.ti_addr(task, name)?;
        self.guest.ld8(a)
    }

    /// Writes `task`'s thread_info member `name` (a `__u64`).
    ///
    /// # Errors
    /// As [`Cx::ti_get`].
    pub fn ti_set(&mut self, task: u64, name: &str, value: u64) -> Result<(), StubError> {
        let a = self.layout.ti_addr(task, name)?;
        self.guest.st8(a, value)
    }

    /// `preempt_count()`: `current_thread_info()->preempt_count` (an int).
    ///
    /// # Errors
    /// The memory is not there.
    pub fn preempt_count(&mut self) -> Result<u64, StubError> {
        let a = self.current.wrapping_add(self.layout.task_size).wrapping_add(self.layout.ti_preempt_count);
        self.guest.read(a, 4)
    }

    /// Sets `preempt_count()` (as `preempt_count_add`/`_sub` leave it).
    ///
    /// # Errors
    /// The memory is not there.
    pub fn set_preempt_count(&mut self, value: u64) -> Result<(), StubError> {
        let a = self.current.wrapping_add(self.layout.task_size).wrapping_add(self.layout.ti_preempt_count);
        self.guest.write(a, 4, value)
    }

    /// `task->flags`.
    ///
    /// # Errors
    /// The memory is not there.
    pub fn task_flags(&mut self, task: u64) -> Result<u64, StubError> {
        self.guest.read(task.wrapping_add(self.layout.task_flags), 4)
    }
}

/// The configuration the C is compiled with and the machine's clock, as the kernel sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelCConfig {
    /// CONFIG_VIRT_CPU_ACCOUNTING_NATIVE (`init/Kconfig:498-501`): on, the `vtime_*` code of
    /// time.c accounts; off, `account_process_tick` samples one tick at a time.
    pub native: bool,
    /// CONFIG_HZ: ticks per second (`TICK_NSEC` = (NSEC_PER_SEC + HZ/2) / HZ,
    /// `include/vdso/jiffies.h:9` via `include/linux/jiffies.h`).
    pub hz: u64,
    /// The ITC frequency in Hz (`local_cpu_data->itc_freq`, time.c:316). Default: the seed's
    /// machine, Madison 1.5 GHz, whose ITC counts processor cycles.
    pub itc_freq: u64,
}

impl Default for KernelCConfig {
    fn default() -> KernelCConfig {
        KernelCConfig { native: true, hz: 250, itc_freq: 1_500_000_000 }
    }
}

impl KernelCConfig {
    /// `local_cpu_data->nsec_per_cyc` as `ia64_init_itm` computes it (time.c:318-319):
    /// ((NSEC_PER_SEC << IA64_NSEC_PER_CYC_SHIFT) + itc_freq/2) / itc_freq.
    pub fn nsec_per_cyc(&self) -> u64 {
        let f = self.itc_freq.max(1);
        ((time_c::NSEC_PER_SEC << time_c::IA64_NSEC_PER_CYC_SHIFT) + f / 2) / f
    }

    /// `TICK_NSEC` for [`KernelCConfig::hz`].
    pub fn tick_nsec(&self) -> u64 {
        let hz = self.hz.max(1);
        (time_c::NSEC_PER_SEC + hz / 2) / hz
    }
}
