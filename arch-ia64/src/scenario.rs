//! The IA-64 side of a scenario: a prepared machine plus a plain description of where each
//! path starts and ends and where the accounting counters live, driven by
//! [`emu_core::scenario::run`].
//!
//! The description is plain data (addresses, not symbols) so that the trace catalogue,
//! which depends on this crate, can build it from its own bindings.
//!
//! A path runs on the machine's current state: the entry path usually starts at the user
//! stub's `break` ([`Start::At`]) and stops at the label where the syscall body would begin
//! ([`End::Label`]); the exit path continues from there ([`Start::Here`]) to the `rfi`
//! ([`End::Rfi`]); the tick is an external interrupt ([`Start::ExternalInterrupt`]: the
//! handler is cr.iva + 0x3000) that runs to its `rfi`, which resumes the interrupted code.
//! Each path has an instruction budget; exhausting it is a [`ScenarioError::Budget`]. Running
//! the paths is [`emu_core::scenario::Scenario`]'s; this module keeps what is IA-64's own: the
//! ways in (an address, the current ip, an external interrupt through cr.iva) and the counters'
//! units (ar.itc cycles, ticks).

use crate::cpu::Ia64Cpu;
use crate::exec::ExecError;
use emu_core::cpu::Machine;
use emu_core::scenario::{Accounted, Adapter, PathKind, ScenarioCpu};

pub use emu_core::scenario::PathEnd as End;

/// Why an IA-64 scenario path did not run to its end (the shared error, with IA-64's
/// emulator failures).
pub type ScenarioError = emu_core::scenario::ScenarioError<ExecError>;

/// Instructions one path may execute before the run stops with [`ScenarioError::Budget`].
pub const DEFAULT_PATH_BUDGET: u64 = 100_000;

/// Where a path begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// At this address (slot 0), keeping the rest of the state.
    At(u64),
    /// Wherever the previous path (or the interrupted code) left the ip.
    Here,
    /// By delivering an external interrupt now (the handler comes from cr.iva).
    ExternalInterrupt,
}

/// One path bound to code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathBinding {
    /// Which path.
    pub path: PathKind,
    /// Where it begins.
    pub start: Start,
    /// How it ends.
    pub end: End,
}

/// Where and how the trace keeps its accounted times (8-byte little-endian counters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accounting {
    /// Precise accounting: the counters hold ar.itc units (cycles times the itc ratio).
    Virtual {
        /// Address of the accounted user time.
        utime_addr: u64,
        /// Address of the accounted system time.
        stime_addr: u64,
    },
    /// Tick sampling: the counters hold ticks, each worth `cycles_per_tick`.
    TickSampling {
        /// Address of the user tick count.
        utime_addr: u64,
        /// Address of the system tick count.
        stime_addr: u64,
        /// Cycles one tick stands for (cpu_hz / HZ).
        cycles_per_tick: u64,
    },
}

/// A trace's scenario description: its paths, its accounting, the per-path budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bindings {
    /// The bound paths (at most one per kind; syscall_enter and syscall_exit required).
    pub paths: Vec<PathBinding>,
    /// Where the accounted times are.
    pub accounting: Accounting,
    /// Instruction budget of one path run.
    pub max_insns: u64,
}

/// Why bindings cannot drive a scenario.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BindingError {
    /// A path every workload needs has no binding.
    #[error("the trace binds no `{path}` path")]
    Unbound {
        /// The missing path.
        path: PathKind,
    },
    /// Two bindings for one path.
    #[error("the `{path}` path is bound twice")]
    Duplicate {
        /// The path.
        path: PathKind,
    },
}

/// The IA-64 side of a scenario: the bindings, and the sentinel [`End::Return`] waits for.
#[derive(Debug, Clone)]
pub struct Ia64Adapter {
    /// The bindings (public so a test can change one).
    pub bindings: Bindings,
    /// The machine's own sentinel (the harness's b0).
    return_to: u64,
}

impl Ia64Adapter {
    /// The bindings.
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }
}

/// An IA-64 machine with a trace's bindings, ready for [`emu_core::scenario::run`].
pub type Ia64Scenario = emu_core::scenario::Scenario<Ia64Adapter>;

/// Binds `machine` (from [`crate::run::prepare`]) to `bindings`.
///
/// # Errors
/// A path bound twice, or no syscall_enter / syscall_exit binding.
pub fn bind(machine: Machine<Ia64Cpu>, bindings: Bindings) -> Result<Ia64Scenario, BindingError> {
    for (i, b) in bindings.paths.iter().enumerate() {
        if bindings.paths.iter().skip(i + 1).any(|o| o.path == b.path) {
            return Err(BindingError::Duplicate { path: b.path });
        }
    }
    for path in [PathKind::SyscallEnter, PathKind::SyscallExit] {
        if !bindings.paths.iter().any(|b| b.path == path) {
            return Err(BindingError::Unbound { path });
        }
    }
    let return_to = machine.cpu.config().sentinel;
    Ok(Ia64Scenario::new(machine, Ia64Adapter { bindings, return_to }))
}

impl ScenarioCpu for Ia64Cpu {
    // Interruptions (a `break`) are delivered by the model; a path runs through them.
    const RUNS_THROUGH_EVENTS: bool = true;
}

impl Ia64Adapter {
    fn read(m: &Machine<Ia64Cpu>, name: &'static str, addr: u64) -> Result<u64, ScenarioError> {
        m.mem.read_u64(addr).map_err(|fault| ScenarioError::Counter { name, fault })
    }
}

impl Adapter for Ia64Adapter {
    type Cpu = Ia64Cpu;
    type Start = Start;

    fn binding(&self, path: PathKind) -> Option<(Start, End)> {
        self.bindings.paths.iter().find(|b| b.path == path).map(|b| (b.start, b.end))
    }

    fn max_insns(&self) -> u64 {
        self.bindings.max_insns
    }

    fn enter(
        &mut self,
        m: &mut Machine<Ia64Cpu>,
        path: Option<PathKind>,
        start: Start,
        _from_user: bool,
    ) -> Result<(), ScenarioError> {
        // The sentinel event only ends End::Return paths; keep it at the harness's b0.
        m.cpu.set_sentinel(self.return_to);
        match start {
            Start::At(addr) => m.cpu.set_entry(addr),
            Start::Here => {}
            Start::ExternalInterrupt => m.cpu.external_interrupt().map_err(|error| ScenarioError::Exec {
                path: path.map_or("call", PathKind::name),
                error,
                executed: 0,
            })?,
        }
        Ok(())
    }

    fn accounted(&self, m: &Machine<Ia64Cpu>) -> Result<Accounted, ScenarioError> {
        match self.bindings.accounting {
            Accounting::Virtual { utime_addr, stime_addr } => {
                let ratio = m.cpu.config().itc_per_cycle.max(1);
                Ok(Accounted {
                    utime: Self::read(m, "utime", utime_addr)? / ratio,
                    stime: Self::read(m, "stime", stime_addr)? / ratio,
                    ..Accounted::default()
                })
            }
            Accounting::TickSampling { utime_addr, stime_addr, cycles_per_tick } => Ok(Accounted {
                utime: Self::read(m, "utime", utime_addr)?.saturating_mul(cycles_per_tick),
                stime: Self::read(m, "stime", stime_addr)?.saturating_mul(cycles_per_tick),
                ..Accounted::default()
            }),
        }
    }
}

pub mod example;

#[cfg(test)]
mod tests;
