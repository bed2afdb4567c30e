//! The x86-64 side of a scenario: each bound path is a C function called with the task in
//! rdi (SysV ABI) that returns to the sentinel; user and kernel work advance the clock.
//! The adapter also plays the parts of the machine a path does not execute: it keeps the
//! mode (user after a syscall exit, kernel after an entry) to tell the tick path whether it
//! interrupted user mode (rsi), and advances `jiffies` at every tick (the timekeeping CPU's
//! work on a nohz_full system).

use crate::cpu::ExecError;
use crate::cpu::X86Cpu;
use emu_core::cpu::{Cpu, Machine, StepEvent};
use emu_core::memory::MemFault;
use emu_core::scenario::{Accounted, PathKind, PathRun, ScenarioMachine};

/// The registers a path call sets: rdi, rsi, rsp (GPR numbers in x86 encoding order).
const RSP: u8 = 4;
const RSI: u8 = 6;
const RDI: u8 = 7;

/// How accounted time is read back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Accounting {
    /// 64-bit user and system time counters in nanoseconds (cputime_t under GEN).
    Nanoseconds {
        /// Address of utime.
        utime_addr: u64,
        /// Address of stime.
        stime_addr: u64,
        /// Modelled core cycles per nanosecond.
        cycles_per_ns: f64,
    },
}

/// What a scenario needs to drive an x86 trace.
#[derive(Debug, Clone)]
pub struct Bindings {
    /// Entry address of each bound path.
    pub paths: Vec<(PathKind, u64)>,
    /// The task pointer passed in rdi.
    pub task: u64,
    /// The address a path returns to (written at the top of the stack before each call).
    pub sentinel: u64,
    /// rsp at a call (the return address is stored there).
    pub stack_top: u64,
    /// `jiffies`, advanced at each tick when given.
    pub jiffies: Option<u64>,
    /// How accounted time is read.
    pub accounting: Accounting,
    /// Instruction budget per path.
    pub max_insns: u64,
}

/// Why a scenario step failed.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// No path bound to this kind.
    #[error("no {0} path is bound")]
    Unbound(PathKind),
    /// A path ran out of its budget.
    #[error("{path} did not return within {max_insns} instructions (stopped at pc {pc:#x})")]
    Budget {
        /// Which path.
        path: PathKind,
        /// The budget.
        max_insns: u64,
        /// Address of the next instruction when the budget ran out.
        pc: u64,
    },
    /// Execution failed.
    #[error("{path}: {error}")]
    Exec {
        /// Which path.
        path: PathKind,
        /// What failed.
        error: ExecError,
    },
    /// A stop other than the return (an interruption, a halt).
    #[error("{path} stopped on {what} at pc {pc:#x} instead of returning")]
    Stopped {
        /// Which path.
        path: PathKind,
        /// The event.
        what: String,
        /// Address of the instruction that raised it.
        pc: u64,
    },
    /// Memory the adapter reads or writes is not mapped.
    #[error("{0}")]
    Memory(#[from] MemFault),
}

/// A machine bound to an x86 trace.
pub struct X86Scenario {
    /// The machine.
    pub machine: Machine<X86Cpu>,
    bindings: Bindings,
    user_mode: bool,
}

impl X86Scenario {
    /// Binds `machine` to `bindings`; the task starts in user mode.
    pub fn new(machine: Machine<X86Cpu>, bindings: Bindings) -> X86Scenario {
        X86Scenario { machine, bindings, user_mode: true }
    }

    fn counts(&self) -> (u64, u64, u64, u64) {
        let cpu = &self.machine.cpu;
        match cpu.counts() {
            Some(c) => (c.cycles, c.instructions, c.nops, c.groups),
            None => (cpu.cycles(), cpu.instructions(), 0, 0),
        }
    }
}

impl ScenarioMachine for X86Scenario {
    type Error = ScenarioError;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, ScenarioError> {
        let entry = self.bindings.paths.iter().find(|(k, _)| *k == path).map(|(_, a)| *a);
        let entry = entry.ok_or(ScenarioError::Unbound(path))?;
        if path == PathKind::Tick {
            if let Some(j) = self.bindings.jiffies {
                let v = self.machine.mem.read_u64(j)?;
                self.machine.mem.write_u64(j, v.wrapping_add(1))?;
            }
        }
        let b = &self.bindings;
        self.machine.mem.write_u64(b.stack_top, b.sentinel)?;
        let st = &mut self.machine.cpu.state;
        st.set_reg(RSP, b.stack_top);
        st.set_reg(RDI, b.task);
        st.set_reg(RSI, u64::from(self.user_mode));
        self.machine.cpu.set_entry(entry);
        let before = self.counts();
        let mut executed = 0;
        loop {
            if executed == self.bindings.max_insns {
                let pc = self.machine.cpu.pc();
                return Err(ScenarioError::Budget { path, max_insns: self.bindings.max_insns, pc });
            }
            executed += 1;
            let pc = self.machine.cpu.pc();
            match self.machine.cpu.step(&mut self.machine.mem) {
                Ok(StepEvent::Continue) => {}
                Ok(StepEvent::Sentinel) => break,
                Ok(other) => return Err(ScenarioError::Stopped { path, what: format!("{other:?}"), pc }),
                Err(error) => return Err(ScenarioError::Exec { path, error }),
            }
        }
        match path {
            PathKind::SyscallEnter => self.user_mode = false,
            PathKind::SyscallExit => self.user_mode = true,
            _ => {}
        }
        let after = self.counts();
        Ok(PathRun {
            cycles: after.0.saturating_sub(before.0),
            instructions: after.1.saturating_sub(before.1),
            nops: after.2.saturating_sub(before.2),
            groups: after.3.saturating_sub(before.3),
        })
    }

    fn advance(&mut self, cycles: u64) {
        self.machine.cpu.advance(cycles);
    }

    fn now(&self) -> u64 {
        self.machine.cpu.cycles()
    }

    fn accounted(&self) -> Result<Accounted, ScenarioError> {
        let Accounting::Nanoseconds { utime_addr, stime_addr, cycles_per_ns } = self.bindings.accounting;
        let ns_to_cycles = |ns: u64| (ns as f64 * cycles_per_ns).round() as u64;
        Ok(Accounted {
            utime: ns_to_cycles(self.machine.mem.read_u64(utime_addr)?),
            stime: ns_to_cycles(self.machine.mem.read_u64(stime_addr)?),
            ..Accounted::default()
        })
    }

    fn has_path(&self, path: PathKind) -> bool {
        self.bindings.paths.iter().any(|(k, _)| *k == path)
    }
}
