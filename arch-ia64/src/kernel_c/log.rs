//! What the kernel reported: every call the C made to a sink of `kernel/sched/cputime.c`, with
//! the value handed over and the cpustat index it lands in.

/// `enum cpu_usage_stat` (`include/linux/kernel_stat.h:20-32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CpuStat {
    /// CPUTIME_USER.
    User,
    /// CPUTIME_NICE.
    Nice,
    /// CPUTIME_SYSTEM.
    System,
    /// CPUTIME_SOFTIRQ.
    Softirq,
    /// CPUTIME_IRQ.
    Irq,
    /// CPUTIME_IDLE.
    Idle,
    /// CPUTIME_IOWAIT.
    Iowait,
    /// CPUTIME_STEAL.
    Steal,
    /// CPUTIME_GUEST.
    Guest,
    /// CPUTIME_GUEST_NICE.
    GuestNice,
}

impl CpuStat {
    /// Every index, in the enum's order.
    pub const ALL: [CpuStat; 10] = [
        CpuStat::User,
        CpuStat::Nice,
        CpuStat::System,
        CpuStat::Softirq,
        CpuStat::Irq,
        CpuStat::Idle,
        CpuStat::Iowait,
        CpuStat::Steal,
        CpuStat::Guest,
        CpuStat::GuestNice,
    ];

    /// The C name.
    pub fn name(self) -> &'static str {
        match self {
            CpuStat::User => "CPUTIME_USER",
            CpuStat::Nice => "CPUTIME_NICE",
            CpuStat::System => "CPUTIME_SYSTEM",
            CpuStat::Softirq => "CPUTIME_SOFTIRQ",
            CpuStat::Irq => "CPUTIME_IRQ",
            CpuStat::Idle => "CPUTIME_IDLE",
            CpuStat::Iowait => "CPUTIME_IOWAIT",
            CpuStat::Steal => "CPUTIME_STEAL",
            CpuStat::Guest => "CPUTIME_GUEST",
            CpuStat::GuestNice => "CPUTIME_GUEST_NICE",
        }
    }

    fn index(self) -> usize {
        CpuStat::ALL.iter().position(|c| *c == self).unwrap_or(0)
    }
}

/// Which sink of cputime.c was called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sink {
    /// `account_user_time(p, cputime)` (cputime.c:117).
    UserTime,
    /// `account_guest_time(p, cputime)` (cputime.c:139).
    GuestTime,
    /// `account_system_index_time(p, cputime, index)` (cputime.c:164).
    SystemIndexTime,
    /// `account_idle_time(cputime)` (cputime.c:218).
    IdleTime,
}

impl Sink {
    /// The C name.
    pub fn name(self) -> &'static str {
        match self {
            Sink::UserTime => "account_user_time",
            Sink::GuestTime => "account_guest_time",
            Sink::SystemIndexTime => "account_system_index_time",
            Sink::IdleTime => "account_idle_time",
        }
    }
}

/// One call to a sink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The ITC when the C made the call.
    pub itc: u64,
    /// The C function that called the sink (`vtime_flush`, `account_process_tick`).
    pub caller: &'static str,
    /// The sink.
    pub sink: Sink,
    /// The task charged (`p`); `None` for `account_idle_time`, which charges the CPU only.
    pub task: Option<u64>,
    /// The value handed over, in nanoseconds (u64 cputime).
    pub nsec: u64,
    /// The cycles it was converted from (`cycle_to_nsec`'s argument), when it was.
    pub cycles: Option<u64>,
    /// The cpustat index the value is added to.
    pub index: CpuStat,
}

/// Every report of a run, with the sums the sinks keep.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountingLog {
    /// The calls, in order.
    pub reports: Vec<Report>,
    /// Every C function entered, with the ITC at entry (for the evidence of a verdict).
    pub calls: Vec<(&'static str, u64)>,
    /// Each interval the scenario's task was off the CPU (ITC out, ITC back).
    pub switches: Vec<(u64, u64)>,
    /// Each tick: the ITC and whether it interrupted user mode (`user_mode(regs)`).
    pub ticks: Vec<(u64, bool)>,
    /// Values the C overwrote without reporting them: (ITC, task, field, value), e.g. the
    /// assembly's `ac_utime` zeroed by `arch_vtime_task_switch` (time.c:116).
    pub discarded: Vec<(u64, u64, &'static str, u64)>,
}

impl AccountingLog {
    /// Records a call to a sink.
    pub fn report(&mut self, r: Report) {
        self.reports.push(r);
    }

    /// Records that `func` ran at `itc`.
    pub fn entered(&mut self, func: &'static str, itc: u64) {
        self.calls.push((func, itc));
    }

    /// `p->utime` as the sinks leave it: what `account_user_time` and `account_guest_time`
    /// added to `task` (cputime.c:122, 144), in ns.
    pub fn utime(&self, task: u64) -> u64 {
        self.reports
            .iter()
            .filter(|r| r.task == Some(task) && matches!(r.sink, Sink::UserTime | Sink::GuestTime))
            .fold(0u64, |s, r| s.wrapping_add(r.nsec))
    }

    /// `p->stime`: what `account_system_index_time` added to `task` (cputime.c:168), in ns.
    pub fn stime(&self, task: u64) -> u64 {
        self.reports
            .iter()
            .filter(|r| r.task == Some(task) && r.sink == Sink::SystemIndexTime)
            .fold(0u64, |s, r| s.wrapping_add(r.nsec))
    }

    /// `task`'s reports to one cpustat index, in ns.
    pub fn task_index(&self, task: u64, index: CpuStat) -> u64 {
        self.reports
            .iter()
            .filter(|r| r.task == Some(task) && r.index == index && r.sink != Sink::GuestTime)
            .fold(0u64, |s, r| s.wrapping_add(r.nsec))
    }

    /// `kcpustat_this_cpu->cpustat[]` after the run: each index's sum (the guest sink adds to
    /// USER and GUEST both, cputime.c:149-155), in ns.
    pub fn cpustat(&self) -> [u64; 10] {
        let mut out = [0u64; 10];
        for r in &self.reports {
            let add = |out: &mut [u64; 10], i: CpuStat| out[i.index()] = out[i.index()].wrapping_add(r.nsec);
            add(&mut out, r.index);
            if r.sink == Sink::GuestTime {
                let guest = if r.index == CpuStat::Nice { CpuStat::GuestNice } else { CpuStat::Guest };
                add(&mut out, guest);
            }
        }
        out
    }

    /// How many times `func` was entered.
    pub fn count(&self, func: &str) -> usize {
        self.calls.iter().filter(|c| c.0 == func).count()
    }
}
