//! The arch-neutral accounting experiment: a workload of system calls driven through the
//! real entry, exit and tick paths of one accounting scheme, with the true user and system
//! time compared against what the scheme accounted.
//!
//! # What one system call is
//! 1. a **user phase** of `user_cycles` ([`ScenarioMachine::advance`], no instructions);
//! 2. the **`syscall_enter` path**, executed for real (on ia64 from the `break` to the
//!    label where the syscall body would start);
//! 3. a **kernel phase** of `kernel_cycles` (advance again: the syscall body);
//! 4. the **`syscall_exit` path**, executed for real up to the return to user mode (`rfi`).
//!
//! # True time
//! The mode switches happen at the `break` (user to kernel) and at the `rfi` (kernel to
//! user), so everything between the start of the entry path and the end of the exit path
//! is system time: **true stime** = the cycles of every path run (entry, exit, tick,
//! interrupt) plus the kernel phases; **true utime** = all the other cycles of the run
//! (the user phases, and any time the machine's clock moved outside paths and phases).
//! Both are measured on the machine's own cycle clock ([`ScenarioMachine::now`]).
//!
//! An ideal accounting would stamp the clock exactly at the mode switches and have zero
//! error. A real one reads the clock somewhere inside each path, so the cycles between the
//! mode switch and the read land on the wrong side; its error is therefore bounded by the
//! cycles spent in paths, which the report gives as `tolerance` (and each time check says
//! whether it stayed within it). Tick sampling has no such bound: it charges a whole tick to
//! the mode the tick interrupted.
//!
//! # Ticks
//! With `hz > 0` (and a bound [`PathKind::Tick`]) a tick is due every `cpu_hz / hz` cycles,
//! counted from the start of the run. A tick due inside a user or kernel phase (or at its
//! very end) splits the phase: the clock advances to the tick, the Tick path runs (in kernel
//! mode: its cycles are system time), then the rest of the phase's work follows. A tick that
//! falls due while a path runs is taken after that path, at the start of the next phase;
//! the run ends with the last exit path, so a tick due during it is not taken. If several
//! ticks fell due while one tick was being handled, they coalesce into that one (as a single
//! pending interrupt does) and are counted as `coalesced`.
//!
//! # Interrupts
//! With `irq_every = Some(n)` (and both [`PathKind::IrqEnter`] and [`PathKind::IrqExit`]
//! bound), every n-th system call's user phase is split in half by an interrupt: the
//! IrqEnter path, then the IrqExit path, both system time.
//!
//! # Guests
//! With `guest = true` the workload is a KVM guest making hypercalls (seed 002's benchmark)
//! instead of a process making system calls: each event is a **guest phase** of
//! `user_cycles`, the **`guest_exit` path**, a host kernel phase of `kernel_cycles` (the
//! hypercall's handling) and the **`guest_enter` path** back into the guest. Guest time is
//! user time to the kernel (it lands in the task's utime and in cpustat user as well as in
//! cpustat guest), so **true utime** includes it and **true guest time** is the guest phases.
//!
//! # Accounting buckets
//! Every scheme reports utime and stime. One that also keeps guest, hardirq or softirq time
//! ([`Accounted`]) gets those checked too: **true hardirq** is the cycles of the IrqEnter and
//! IrqExit paths (then no longer part of true stime), **true softirq** is zero (the workload
//! raises none, so anything accounted there is misplaced time).
//!
//! # Memory
//! Statistics are streamed (count, sum, min, max per path): a run of any length uses
//! constant memory. Progress is reported every [`PROGRESS_EVERY`] system calls and at the end.

use serde::{Serialize, Serializer};
use std::fmt;

mod engine;
mod report;

pub use report::verdict;

pub use engine::{Adapter, ArchError, CoreError, PathEnd, Scenario, ScenarioCpu, ScenarioError};
pub use report::{CallStats, PathReport, ScenarioReport, Spread, TickCounts, TimeCheck};

use report::Accumulator;

/// How often (in system calls) [`run`] calls its progress callback.
pub const PROGRESS_EVERY: u64 = 4096;

/// A kernel path a trace can bind to code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathKind {
    /// From the system-call instruction to the start of the syscall body.
    SyscallEnter,
    /// From the end of the syscall body back to user mode.
    SyscallExit,
    /// The timer interrupt, from its delivery to the return from interruption.
    Tick,
    /// A device interrupt's entry.
    IrqEnter,
    /// A device interrupt's exit back to the interrupted context.
    IrqExit,
    /// The light-weight system-call path (ia64 `epc` fsys calls).
    Fsys,
    /// The host's return to a guest (KVM: `guest_enter` accounting before SIE/VMRUN).
    GuestEnter,
    /// The guest's exit to the host (KVM: `guest_exit` accounting after a hypercall).
    GuestExit,
    /// A kernel helper called on its own (x86 `sched_avg_update`, `get_nohz_timer_target`):
    /// measured as a function, never part of a workload (not in [`PathKind::ALL`]).
    Call,
}

impl PathKind {
    /// Every path kind a workload runs, in report order.
    pub const ALL: [PathKind; 8] = [
        PathKind::SyscallEnter,
        PathKind::SyscallExit,
        PathKind::Tick,
        PathKind::IrqEnter,
        PathKind::IrqExit,
        PathKind::Fsys,
        PathKind::GuestEnter,
        PathKind::GuestExit,
    ];

    /// The binding name: `syscall_enter`, `syscall_exit`, `tick`, `irq_enter`, `irq_exit`, `fsys`,
    /// `guest_enter`, `guest_exit`, `call`.
    pub fn name(self) -> &'static str {
        match self {
            PathKind::SyscallEnter => "syscall_enter",
            PathKind::SyscallExit => "syscall_exit",
            PathKind::Tick => "tick",
            PathKind::IrqEnter => "irq_enter",
            PathKind::IrqExit => "irq_exit",
            PathKind::Fsys => "fsys",
            PathKind::GuestEnter => "guest_enter",
            PathKind::GuestExit => "guest_exit",
            PathKind::Call => "call",
        }
    }

    /// The workload path kind whose [`PathKind::name`] is `name` (`call` is none).
    pub fn from_name(name: &str) -> Option<PathKind> {
        PathKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Position in [`PathKind::ALL`].
    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for PathKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for PathKind {
    /// As its binding name, the way traces and readers spell it.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The privilege mode the workload is in when something happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// User mode (the user phase).
    User,
    /// Kernel mode (a path or the kernel phase).
    Kernel,
    /// A KVM guest running (the guest phase of a guest workload).
    Guest,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::User => "user",
            Mode::Kernel => "kernel",
            Mode::Guest => "guest",
        })
    }
}

/// What to run: N system calls of U user and K kernel cycles each, with ticks and interrupts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Workload {
    /// Number of system calls.
    pub syscalls: u64,
    /// User-mode cycles before each system call.
    pub user_cycles: u64,
    /// Kernel-mode cycles inside each system call (the syscall body).
    pub kernel_cycles: u64,
    /// Timer ticks per second; 0 = no ticks.
    pub hz: u64,
    /// Cycles per second of the modelled processor (ia64 Madison: 1_500_000_000).
    pub cpu_hz: u64,
    /// An IrqEnter/IrqExit pair every this many system calls.
    pub irq_every: Option<u64>,
    /// Guest hypercalls instead of system calls: the user phase runs in a guest, the paths are
    /// GuestExit and GuestEnter (see the module docs).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
}

/// The most cycles the user and kernel phases of a workload may add up to: beyond any useful
/// run (24 years at 1.5 GHz), and far enough below 2^64 that no clock, timer or timing-model sum
/// can overflow.
pub const MAX_WORKLOAD_CYCLES: u64 = 1 << 60;

impl Workload {
    /// The cycles the user and kernel phases add up to (`syscalls * (user + kernel)`), or
    /// `None` when that exceeds [`MAX_WORKLOAD_CYCLES`].
    pub fn span(&self) -> Option<u64> {
        let total = self.user_cycles.checked_add(self.kernel_cycles)?.checked_mul(self.syscalls)?;
        (total <= MAX_WORKLOAD_CYCLES).then_some(total)
    }

    /// The paths of one event: entry into the kernel, then the way back out.
    pub fn event_paths(&self) -> (PathKind, PathKind) {
        if self.guest {
            (PathKind::GuestExit, PathKind::GuestEnter)
        } else {
            (PathKind::SyscallEnter, PathKind::SyscallExit)
        }
    }

    /// The mode of the phase before each event: the guest's or user mode.
    pub fn outer_mode(&self) -> Mode {
        if self.guest {
            Mode::Guest
        } else {
            Mode::User
        }
    }

    /// Cycles between ticks (`cpu_hz / hz`), or `None` without ticks; a period below one
    /// cycle is one cycle.
    pub fn tick_period(&self) -> Option<u64> {
        (self.hz > 0).then(|| (self.cpu_hz / self.hz).max(1))
    }
}

/// What one execution of a path cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct PathRun {
    /// Cycles from the path's first instruction to its end.
    pub cycles: u64,
    /// Instructions retired, nops included.
    pub instructions: u64,
    /// Nops among them.
    pub nops: u64,
    /// Issue groups.
    pub groups: u64,
}

impl From<crate::cpu::Counts> for PathRun {
    fn from(c: crate::cpu::Counts) -> PathRun {
        PathRun { cycles: c.cycles, instructions: c.instructions, nops: c.nops, groups: c.groups }
    }
}

/// The accounting scheme's own view of the time spent, converted to cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Accounted {
    /// User time accounted, in cycles.
    pub utime: u64,
    /// System time accounted, in cycles.
    pub stime: u64,
    /// Guest time accounted, in cycles, when the scheme keeps it.
    pub guest: Option<u64>,
    /// Hard-interrupt time accounted, in cycles, when the scheme keeps it.
    pub hardirq: Option<u64>,
    /// Soft-interrupt time accounted, in cycles, when the scheme keeps it.
    pub softirq: Option<u64>,
}

/// A machine that can run a trace's bound paths: every core's [`Scenario`] implements it (a wrapper may
/// too, e.g. to count the cycles it skips).
pub trait ScenarioMachine {
    /// Why a path could not run (an emulator failure, an exhausted budget, an unbound path).
    type Error: std::error::Error + 'static;

    /// Runs one bound path from the current state to its end.
    ///
    /// # Errors
    /// The path is not bound, did not end within its budget, or the emulator failed.
    fn run_path(&mut self, path: PathKind) -> Result<PathRun, Self::Error>;

    /// Advances the cycle clock by `cycles` of user or kernel work (no instructions).
    fn advance(&mut self, cycles: u64);

    /// The cycle clock.
    fn now(&self) -> u64;

    /// The trace's accounted utime and stime, in cycles.
    ///
    /// # Errors
    /// The counters cannot be read.
    fn accounted(&self) -> Result<Accounted, Self::Error>;

    /// Whether `path` is bound to code.
    fn has_path(&self, path: PathKind) -> bool;
}

/// Runs workload `w` on `m`; `progress` gets the number of system calls done every
/// [`PROGRESS_EVERY`] calls and once at the end.
///
/// # Errors
/// The machine's first failure (a path that does not run, unreadable counters).
pub fn run<M: ScenarioMachine>(
    m: &mut M,
    w: &Workload,
    progress: &mut dyn FnMut(u64),
) -> Result<ScenarioReport, M::Error> {
    let mut r = Runner::new(m, w)?;
    for i in 1..=w.syscalls {
        r.syscall(i)?;
        if i % PROGRESS_EVERY == 0 {
            progress(i);
        }
    }
    progress(w.syscalls);
    r.finish()
}

/// The state of one run.
struct Runner<'m, 'w, M: ScenarioMachine> {
    m: &'m mut M,
    w: &'w Workload,
    start: u64,
    before: Accounted,
    /// Tick period, only when ticks are on and the Tick path is bound.
    period: Option<u64>,
    next_tick: u64,
    irq: Option<u64>,
    paths: [Accumulator; PathKind::ALL.len()],
    per_syscall: Accumulator,
    /// Cycles inside paths (by the clock) and kernel phases: the true system time.
    path_cycles: u64,
    kernel_phase_cycles: u64,
    /// Cycles of the interrupt paths (true hardirq time) and of the guest phases.
    irq_path_cycles: u64,
    guest_cycles: u64,
    ticks: TickCounts,
    irqs: u64,
}

impl<'m, 'w, M: ScenarioMachine> Runner<'m, 'w, M> {
    fn new(m: &'m mut M, w: &'w Workload) -> Result<Self, M::Error> {
        let before = m.accounted()?;
        let start = m.now();
        let period = w.tick_period().filter(|_| m.has_path(PathKind::Tick));
        let irq_bound = m.has_path(PathKind::IrqEnter) && m.has_path(PathKind::IrqExit);
        Ok(Runner {
            start,
            before,
            period,
            next_tick: period.map_or(u64::MAX, |p| start.saturating_add(p)),
            irq: w.irq_every.filter(|n| *n > 0 && irq_bound),
            m,
            w,
            paths: Default::default(),
            per_syscall: Accumulator::default(),
            path_cycles: 0,
            kernel_phase_cycles: 0,
            irq_path_cycles: 0,
            guest_cycles: 0,
            ticks: TickCounts::default(),
            irqs: 0,
        })
    }

    /// System call (or guest hypercall) number `i` (1-based).
    fn syscall(&mut self, i: u64) -> Result<(), M::Error> {
        let outer = self.w.outer_mode();
        match self.irq {
            Some(n) if i.checked_rem(n) == Some(0) => {
                let half = self.w.user_cycles / 2;
                self.phase(half, outer)?;
                let enter = self.path(PathKind::IrqEnter)?;
                let exit = self.path(PathKind::IrqExit)?;
                self.irq_path_cycles = self.irq_path_cycles.saturating_add(enter.cycles).saturating_add(exit.cycles);
                self.irqs += 1;
                self.phase(self.w.user_cycles - half, outer)?;
            }
            _ => self.phase(self.w.user_cycles, outer)?,
        }
        let (into_kernel, out_of_kernel) = self.w.event_paths();
        let enter = self.path(into_kernel)?;
        self.phase(self.w.kernel_cycles, Mode::Kernel)?;
        let exit = self.path(out_of_kernel)?;
        self.per_syscall.add(&PathRun {
            cycles: enter.cycles.saturating_add(exit.cycles),
            instructions: enter.instructions.saturating_add(exit.instructions),
            nops: enter.nops.saturating_add(exit.nops),
            groups: enter.groups.saturating_add(exit.groups),
        });
        Ok(())
    }

    /// `work` cycles of work in `mode`, split by the ticks that fall due inside it.
    fn phase(&mut self, work: u64, mode: Mode) -> Result<(), M::Error> {
        let mut remaining = work;
        loop {
            let now = self.m.now();
            match self.period {
                Some(period) if self.next_tick <= now.saturating_add(remaining) => {
                    let to_tick = self.next_tick.saturating_sub(now);
                    self.work(to_tick, mode);
                    remaining = remaining.saturating_sub(to_tick);
                    self.tick(period, mode)?;
                }
                _ => {
                    self.work(remaining, mode);
                    return Ok(());
                }
            }
        }
    }

    fn work(&mut self, cycles: u64, mode: Mode) {
        self.m.advance(cycles);
        match mode {
            Mode::Kernel => self.kernel_phase_cycles = self.kernel_phase_cycles.saturating_add(cycles),
            Mode::Guest => self.guest_cycles = self.guest_cycles.saturating_add(cycles),
            Mode::User => {}
        }
    }

    /// Takes the due tick and schedules the next one after the tick path's end.
    fn tick(&mut self, period: u64, mode: Mode) -> Result<(), M::Error> {
        self.path(PathKind::Tick)?;
        match mode {
            Mode::User => self.ticks.user += 1,
            Mode::Kernel => self.ticks.kernel += 1,
            Mode::Guest => self.ticks.guest += 1,
        }
        let now = self.m.now();
        self.next_tick = self.next_tick.saturating_add(period);
        while self.next_tick <= now {
            self.ticks.coalesced += 1;
            self.next_tick = self.next_tick.saturating_add(period);
        }
        Ok(())
    }

    fn path(&mut self, kind: PathKind) -> Result<PathRun, M::Error> {
        let before = self.m.now();
        let run = self.m.run_path(kind)?;
        let spent = self.m.now().saturating_sub(before);
        self.path_cycles = self.path_cycles.saturating_add(spent);
        if let Some(acc) = self.paths.get_mut(kind.index()) {
            acc.add(&run);
        }
        Ok(run)
    }

    fn finish(self) -> Result<ScenarioReport, M::Error> {
        let after = self.m.accounted()?;
        let total = self.m.now().saturating_sub(self.start);
        let kernel = self.path_cycles.saturating_add(self.kernel_phase_cycles);
        let utime = total.saturating_sub(kernel);
        // A scheme with a hardirq bucket takes the interrupt paths out of system time.
        let stime = match after.hardirq {
            Some(_) => kernel.saturating_sub(self.irq_path_cycles),
            None => kernel,
        };
        let tolerance = self.path_cycles;
        let bucket = |truth: u64, before: Option<u64>, after: Option<u64>| {
            after.map(|a| TimeCheck::new(truth, a.wrapping_sub(before.unwrap_or(0)), tolerance))
        };
        let paths = PathKind::ALL
            .into_iter()
            .zip(self.paths.iter())
            .filter(|(_, acc)| acc.calls() > 0)
            .map(|(path, acc)| PathReport { path, stats: acc.stats() })
            .collect();
        Ok(ScenarioReport {
            workload: self.w.clone(),
            tick_period: self.period,
            cycles: total,
            paths,
            per_syscall: self.per_syscall.stats(),
            ticks: self.ticks,
            irqs: self.irqs,
            utime: TimeCheck::new(utime, after.utime.wrapping_sub(self.before.utime), tolerance),
            stime: TimeCheck::new(stime, after.stime.wrapping_sub(self.before.stime), tolerance),
            guest: bucket(self.guest_cycles, self.before.guest, after.guest),
            hardirq: bucket(self.irq_path_cycles, self.before.hardirq, after.hardirq),
            softirq: bucket(0, self.before.softirq, after.softirq),
            tolerance,
        })
    }
}

#[cfg(test)]
mod tests;
