//! The workload of seed 004's benchmark: Unixbench 4.1's "System Call Overhead" loop,
//! `close(dup(0)); getpid(); getuid(); umask(022);` (reference
//! `linux-ia64-paths.md` §7), as data a scenario runs.
//!
//! Which kernel entry each call takes on ia64 with glibc (§7): a dynamically linked libc
//! that received AT_SYSINFO calls `__kernel_syscall_via_epc` (`br.call b6=b7`) for all five
//! (glibc `sysdeps/unix/sysv/linux/ia64/sysdep.h`, IA64_USE_NEW_STUB; dup/getpid/getuid/umask
//! are `syscalls.list` wrappers using DO_CALL, close a C wrapper using INTERNAL_SYSCALL_NCS).
//! In the kernel, `fsyscall_table` (`arch/ia64/kernel/fsys.S:547-837`) has a light-weight
//! handler only for getpid (`fsys.S:570`); the other four slots are 0, which `mem_init`
//! fills with `sys_call_table[i] | 1` (`arch/ia64/mm/init.c:456-462`), so they go to
//! `fsys_bubble_down` and the full path. Code without AT_SYSINFO (a static binary built to
//! use `_dl_sysinfo_break`, or IA64_USE_NEW_STUB=0) uses `break 0x100000` for all five
//! instead; whether Unixbench's binary is static was not checked, so both are offered.

/// How a system call enters the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// `epc` through the gate, then `fsys_bubble_down` → `ia64_syscall_setup` → the C handler
    /// → `ia64_leave_syscall` → `rfi` (fsys.S:406-545).
    EpcHeavy,
    /// `epc` to a light-weight fsys handler that returns to the gate with `br.ret`: no
    /// pt_regs, no accounting, no `rfi` (fsys.S:61-92 for getpid).
    EpcLight,
    /// `break 0x100000` → `break_fault` (ivt.S:709-861) → … → `rfi`.
    Break,
}

impl Entry {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Entry::EpcHeavy => "epc (fsys_bubble_down)",
            Entry::EpcLight => "epc (light-weight fsys)",
            Entry::Break => "break",
        }
    }
}

/// One system call of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// Its name.
    pub name: &'static str,
    /// r15: `__NR_Linux` (1024) + its slot (arch/ia64/kernel/syscalls/syscall.tbl).
    pub nr: u64,
    /// The entry a dynamically linked glibc takes.
    pub entry: Entry,
    /// The kernel function `sys_call_table` holds (what a stub binds).
    pub handler: &'static str,
    /// The light-weight handler, when `fsyscall_table` has one.
    pub fsys_handler: Option<&'static str>,
    /// Arguments (out0..).
    pub args: [u64; 1],
    /// What the handler returns in the benchmark's steady state (r8): dup(0) gives the
    /// lowest free descriptor, 3 with 0-2 open; close 0; umask the previous mask, 022.
    /// getpid/getuid return the scenario task's ids ([`Workload::pid`], [`Workload::uid`]).
    pub returns: Returns,
}

/// A call's return value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returns {
    /// A fixed value.
    Value(u64),
    /// The task's pid.
    Pid,
    /// The task's uid.
    Uid,
}

/// The loop body, in order (reference §7's table).
pub const SYSCALL_OVERHEAD_LOOP: [Call; 5] = [
    Call {
        name: "dup",
        nr: 1057,
        entry: Entry::EpcHeavy,
        handler: "sys_dup",
        fsys_handler: None,
        args: [0],
        returns: Returns::Value(3),
    },
    Call {
        name: "close",
        nr: 1029,
        entry: Entry::EpcHeavy,
        handler: "sys_close",
        fsys_handler: None,
        args: [3],
        returns: Returns::Value(0),
    },
    Call {
        name: "getpid",
        nr: 1041,
        entry: Entry::EpcLight,
        handler: "sys_getpid",
        fsys_handler: Some("fsys_getpid"),
        args: [0],
        returns: Returns::Pid,
    },
    Call {
        name: "getuid",
        nr: 1046,
        entry: Entry::EpcHeavy,
        handler: "sys_getuid",
        fsys_handler: None,
        args: [0],
        returns: Returns::Uid,
    },
    Call {
        name: "umask",
        nr: 1067,
        entry: Entry::EpcHeavy,
        handler: "sys_umask",
        fsys_handler: None,
        args: [0o22],
        returns: Returns::Value(0o22),
    },
];

/// Where a task switch happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Switches {
    /// Never.
    Never,
    /// Every `n` ticks (the tick sets TIF_NEED_RESCHED; the return to user switches).
    EveryTicks(u64),
}

/// The workload a scenario runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    /// The calls of one iteration.
    pub calls: Vec<Call>,
    /// Iterations.
    pub iterations: u64,
    /// Whether every call enters by `break` (a libc without AT_SYSINFO).
    pub all_break: bool,
    /// The interval timer's period, in ITC cycles (itc_freq / HZ, time.c:301's itm_delta).
    pub tick_cycles: u64,
    /// Task switches.
    pub switches: Switches,
    /// getpid's value.
    pub pid: u64,
    /// getuid's value.
    pub uid: u64,
}

impl Workload {
    /// Seed 004's loop at `hz` ticks on an `itc_freq` ITC, `iterations` times.
    pub fn syscall_overhead(iterations: u64, itc_freq: u64, hz: u64) -> Workload {
        let hz = hz.max(1);
        Workload {
            calls: SYSCALL_OVERHEAD_LOOP.to_vec(),
            iterations,
            all_break: false,
            tick_cycles: (itc_freq + hz / 2) / hz,
            switches: Switches::EveryTicks(4),
            pid: 1000,
            uid: 1000,
        }
    }

    /// The entry `call` takes in this workload.
    pub fn entry(&self, call: &Call) -> Entry {
        if self.all_break {
            Entry::Break
        } else {
            call.entry
        }
    }

    /// The value `call` returns.
    pub fn value(&self, call: &Call) -> u64 {
        match call.returns {
            Returns::Value(v) => v,
            Returns::Pid => self.pid,
            Returns::Uid => self.uid,
        }
    }

    /// The calls in run order, `iterations` times over.
    pub fn sequence(&self) -> impl Iterator<Item = &Call> + '_ {
        (0..self.iterations).flat_map(move |_| self.calls.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_is_five_calls_four_heavy_and_getpid_light() {
        let w = Workload::syscall_overhead(2, 1_500_000_000, 250);
        assert_eq!(w.tick_cycles, 6_000_000);
        let names: Vec<_> = w.sequence().map(|c| c.name).collect();
        assert_eq!(names, ["dup", "close", "getpid", "getuid", "umask", "dup", "close", "getpid", "getuid", "umask"]);
        let heavy = w.calls.iter().filter(|c| w.entry(c) == Entry::EpcHeavy).count();
        assert_eq!(heavy, 4);
        assert_eq!(
            w.calls.iter().find(|c| c.entry == Entry::EpcLight).map(|c| c.fsys_handler),
            Some(Some("fsys_getpid"))
        );
        // Every number is __NR_Linux plus its slot, and close takes what dup returned.
        assert!(w.calls.iter().all(|c| (1024..1024 + 451).contains(&c.nr)));
        assert_eq!(w.value(&w.calls[0]), w.calls[1].args[0]);
        assert_eq!(w.value(&w.calls[2]), 1000);
        let b = Workload { all_break: true, ..w };
        assert!(b.calls.iter().all(|c| b.entry(c) == Entry::Break));
    }
}
