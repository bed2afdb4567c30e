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
//! Each path has an instruction budget; exhausting it is a [`ScenarioError::Budget`].

use crate::cpu::Ia64Cpu;
use crate::exec::ExecError;
use emu_core::cpu::{Cpu, Machine, StepEvent};
use emu_core::memory::MemFault;
use emu_core::scenario::{Accounted, PathKind, PathRun, ScenarioMachine};

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

/// How a path ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// When control reaches this address (slot 0), by a branch or by falling through.
    Label(u64),
    /// When an `rfi` retires.
    Rfi,
    /// When control returns to the machine's sentinel (b0 of the harness).
    Return,
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

/// Why a scenario could not be set up or a path did not run to its end.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// A path the workload needs has no binding.
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
    /// A path did not end within its budget.
    #[error("`{path}` path: budget of {max_insns} instructions exhausted at 0x{pc:x} without reaching its end")]
    Budget {
        /// The path.
        path: PathKind,
        /// The budget.
        max_insns: u64,
        /// Where it was (bundle address | slot).
        pc: u64,
    },
    /// The guest halted inside a path.
    #[error("`{path}` path: the processor halted at 0x{pc:x}")]
    Halt {
        /// The path.
        path: PathKind,
        /// Where.
        pc: u64,
    },
    /// The emulator failed inside a path.
    #[error("`{path}` path: {error} (after {executed} instructions of the path)")]
    Exec {
        /// The path.
        path: PathKind,
        /// What failed (it carries the pc).
        error: ExecError,
        /// Instructions of this path run before it.
        executed: u64,
    },
    /// An accounting counter could not be read.
    #[error("reading the accounted {name}: {fault}")]
    Counter {
        /// "utime" or "stime".
        name: &'static str,
        /// The failed access.
        fault: MemFault,
    },
}

/// An IA-64 machine with a trace's bindings, ready for [`emu_core::scenario::run`].
#[derive(Debug, Clone)]
pub struct Ia64Scenario {
    /// The machine (public so a caller can inspect the final state).
    pub machine: Machine<Ia64Cpu>,
    bindings: Bindings,
    /// The machine's own sentinel, which [`End::Return`] waits for.
    return_to: u64,
}

impl Ia64Scenario {
    /// Binds `machine` (from [`crate::run::prepare`]) to `bindings`.
    ///
    /// # Errors
    /// A path bound twice, or no syscall_enter / syscall_exit binding.
    pub fn new(machine: Machine<Ia64Cpu>, bindings: Bindings) -> Result<Ia64Scenario, ScenarioError> {
        for (i, b) in bindings.paths.iter().enumerate() {
            if bindings.paths.iter().skip(i + 1).any(|o| o.path == b.path) {
                return Err(ScenarioError::Duplicate { path: b.path });
            }
        }
        for path in [PathKind::SyscallEnter, PathKind::SyscallExit] {
            if !bindings.paths.iter().any(|b| b.path == path) {
                return Err(ScenarioError::Unbound { path });
            }
        }
        let return_to = machine.cpu.config().sentinel;
        Ok(Ia64Scenario { machine, bindings, return_to })
    }

    /// The bindings.
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }

    fn binding(&self, path: PathKind) -> Option<PathBinding> {
        self.bindings.paths.iter().find(|b| b.path == path).copied()
    }

    /// Steps until the binding's end, within the budget; returns the instructions run.
    fn run_to_end(&mut self, b: &PathBinding) -> Result<u64, ScenarioError> {
        let path = b.path;
        let max_insns = self.bindings.max_insns;
        let Machine { cpu, mem } = &mut self.machine;
        let mut executed = 0u64;
        while executed < max_insns {
            let event = cpu.step(mem).map_err(|error| ScenarioError::Exec { path, error, executed })?;
            executed += 1;
            let done = match (event, b.end) {
                (StepEvent::Halt, _) => return Err(ScenarioError::Halt { path, pc: cpu.pc() }),
                (_, End::Label(addr)) => cpu.pc() == addr,
                (StepEvent::Rfi, End::Rfi) | (StepEvent::Sentinel, End::Return) => true,
                _ => false,
            };
            if done {
                return Ok(executed);
            }
        }
        Err(ScenarioError::Budget { path, max_insns, pc: cpu.pc() })
    }

    fn read(&self, name: &'static str, addr: u64) -> Result<u64, ScenarioError> {
        self.machine.mem.read_u64(addr).map_err(|fault| ScenarioError::Counter { name, fault })
    }
}

impl ScenarioMachine for Ia64Scenario {
    type Error = ScenarioError;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, ScenarioError> {
        let b = self.binding(path).ok_or(ScenarioError::Unbound { path })?;
        // The sentinel event only ends End::Return paths; keep it at the harness's b0.
        self.machine.cpu.set_sentinel(self.return_to);
        let before = self.machine.cpu.counts();
        match b.start {
            Start::At(addr) => self.machine.cpu.set_entry(addr),
            Start::Here => {}
            Start::ExternalInterrupt => self.machine.cpu.external_interrupt().map_err(|error| ScenarioError::Exec {
                path,
                error,
                executed: 0,
            })?,
        }
        self.run_to_end(&b)?;
        let after = self.machine.cpu.counts();
        Ok(PathRun {
            cycles: after.cycles.saturating_sub(before.cycles),
            instructions: after.instructions.saturating_sub(before.instructions),
            nops: after.nops.saturating_sub(before.nops),
            groups: after.groups.saturating_sub(before.groups),
        })
    }

    fn advance(&mut self, cycles: u64) {
        self.machine.cpu.advance(cycles);
    }

    fn now(&self) -> u64 {
        self.machine.cpu.cycles()
    }

    fn accounted(&self) -> Result<Accounted, ScenarioError> {
        match self.bindings.accounting {
            Accounting::Virtual { utime_addr, stime_addr } => {
                let ratio = self.machine.cpu.config().itc_per_cycle.max(1);
                Ok(Accounted {
                    utime: self.read("utime", utime_addr)? / ratio,
                    stime: self.read("stime", stime_addr)? / ratio,
                    ..Accounted::default()
                })
            }
            Accounting::TickSampling { utime_addr, stime_addr, cycles_per_tick } => Ok(Accounted {
                utime: self.read("utime", utime_addr)?.saturating_mul(cycles_per_tick),
                stime: self.read("stime", stime_addr)?.saturating_mul(cycles_per_tick),
                ..Accounted::default()
            }),
        }
    }

    fn has_path(&self, path: PathKind) -> bool {
        self.binding(path).is_some()
    }
}

pub mod example;

#[cfg(test)]
mod tests;
