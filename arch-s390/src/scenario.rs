//! The s390x side of a scenario: each bound path is either a C function called with the task
//! in r2 and "came from user" in r3 (s390x ELF ABI: r14 = the sentinel, r15 = stack top - 160)
//! that returns to the sentinel, or an assembly entry sequence that ends with LPSWE (the
//! return from interruption). Each path starts in supervisor state, as an interruption or SVC
//! would deliver it; user and kernel work advance the clock, and with it the CPU timer and TOD.

use crate::cpu::{lowcore, ExecError, S390Cpu};
use crate::state::psw;
use emu_core::cpu::{Cpu, Machine, StepEvent};
use emu_core::memory::MemFault;
use emu_core::scenario::{Accounted, PathKind, PathRun, ScenarioMachine};

/// The unit of the trace's accounted-time counters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unit {
    /// Nanoseconds (cputime after the switch to nsec), at `cycles_per_ns`.
    Nanoseconds {
        /// Modelled cycles per nanosecond.
        cycles_per_ns: f64,
    },
    /// CPU-timer units (4096 per µs), converted at the CPU's frequency.
    TimerUnits,
}

/// Where the accounted time is read back from (64-bit counters).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Accounting {
    /// utime.
    pub utime_addr: u64,
    /// stime.
    pub stime_addr: u64,
    /// Guest time, when the scheme keeps it.
    pub guest_addr: Option<u64>,
    /// Hard-interrupt time, when kept.
    pub hardirq_addr: Option<u64>,
    /// Soft-interrupt time, when kept.
    pub softirq_addr: Option<u64>,
    /// The counters' unit.
    pub unit: Unit,
}

/// What a scenario needs to drive an s390x trace.
#[derive(Debug, Clone)]
pub struct Bindings {
    /// Entry address of each bound path.
    pub paths: Vec<(PathKind, u64)>,
    /// The task pointer passed in r2.
    pub task: u64,
    /// The return address put in r14.
    pub sentinel: u64,
    /// r15 at a call (the caller's 160-byte save area is above it).
    pub stack_pointer: u64,
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
        /// Which path (or set-up call).
        path: &'static str,
        /// The budget.
        max_insns: u64,
        /// Address of the next instruction when the budget ran out.
        pc: u64,
    },
    /// Execution failed.
    #[error("{path}: {error}")]
    Exec {
        /// Which path (or set-up call).
        path: &'static str,
        /// What failed.
        error: ExecError,
    },
    /// A stop other than the return or LPSWE (an SVC, a program check, a halt).
    #[error("{path} stopped on {what} at pc {pc:#x} instead of returning")]
    Stopped {
        /// Which path (or set-up call).
        path: &'static str,
        /// The event.
        what: String,
        /// Address of the instruction that raised it.
        pc: u64,
    },
    /// Memory the adapter reads is not mapped.
    #[error("{0}")]
    Memory(#[from] MemFault),
}

/// A machine bound to an s390x trace.
pub struct S390Scenario {
    /// The machine.
    pub machine: Machine<S390Cpu>,
    bindings: Bindings,
    user_mode: bool,
}

impl S390Scenario {
    /// Binds `machine` to `bindings`; the task starts in user mode.
    pub fn new(machine: Machine<S390Cpu>, bindings: Bindings) -> S390Scenario {
        S390Scenario { machine, bindings, user_mode: true }
    }

    fn to_cycles(&self, v: u64) -> u64 {
        match self.bindings.accounting.unit {
            Unit::Nanoseconds { cycles_per_ns } => (v as f64 * cycles_per_ns).round() as u64,
            Unit::TimerUnits => {
                let c = u128::from(v) * u128::from(self.machine.cpu.freq_mhz()) / 4096;
                u64::try_from(c).unwrap_or(u64::MAX)
            }
        }
    }

    /// Calls the code at `entry` (named `path` in errors) as a path is run: supervisor state,
    /// the task in r2, "came from user" in r3, until it returns to the sentinel or LPSWE.
    /// Scenario set-up uses it for calls outside the workload (`vtime_init`).
    ///
    /// # Errors
    /// The call does not end within the budget, stops on another event, or fails.
    pub fn call(&mut self, path: &'static str, entry: u64) -> Result<PathRun, ScenarioError> {
        self.call_traced(path, entry, |_| {})
    }

    /// [`S390Scenario::call`], telling `on_insn` the address of each instruction it executes
    /// (the llvm-mca comparison feeds the executed sequence to llvm-mca).
    ///
    /// # Errors
    /// As [`S390Scenario::call`].
    pub fn call_traced(
        &mut self,
        path: &'static str,
        entry: u64,
        mut on_insn: impl FnMut(u64),
    ) -> Result<PathRun, ScenarioError> {
        let b = &self.bindings;
        let st = &mut self.machine.cpu.state;
        st.psw_mask &= !psw::PROBLEM;
        st.set_reg(2, b.task);
        st.set_reg(3, u64::from(self.user_mode));
        st.set_reg(14, b.sentinel);
        st.set_reg(15, b.stack_pointer);
        self.machine.cpu.set_entry(entry);
        let (c0, i0) = (self.machine.cpu.cycles(), self.machine.cpu.instructions());
        // Decoder groups the timing model formed (one per instruction without it).
        let g0 = self.machine.cpu.summary().groups;
        let mut executed = 0;
        loop {
            if executed == self.bindings.max_insns {
                let pc = self.machine.cpu.pc();
                return Err(ScenarioError::Budget { path, max_insns: self.bindings.max_insns, pc });
            }
            executed += 1;
            on_insn(self.machine.cpu.state.psw_addr);
            let pc = self.machine.cpu.pc();
            match self.machine.cpu.step(&mut self.machine.mem) {
                Ok(StepEvent::Continue) => {}
                Ok(StepEvent::Sentinel | StepEvent::Rfi) => break,
                Ok(other) => return Err(ScenarioError::Stopped { path, what: format!("{other:?}"), pc }),
                Err(error) => return Err(ScenarioError::Exec { path, error }),
            }
        }
        let (c1, i1) = (self.machine.cpu.cycles(), self.machine.cpu.instructions());
        let instructions = i1.saturating_sub(i0);
        let groups = self.machine.cpu.summary().groups.saturating_sub(g0);
        Ok(PathRun { cycles: c1.saturating_sub(c0), instructions, nops: 0, groups })
    }

    /// Runs one bound path as [`ScenarioMachine::run_path`] does, telling `on_insn` the address
    /// of each instruction executed.
    ///
    /// # Errors
    /// As [`ScenarioMachine::run_path`].
    pub fn run_path_traced(&mut self, path: PathKind, on_insn: impl FnMut(u64)) -> Result<PathRun, ScenarioError> {
        let entry = self.bindings.paths.iter().find(|(k, _)| *k == path).map(|(_, a)| *a);
        let entry = entry.ok_or(ScenarioError::Unbound(path))?;
        // An interruption stores the interrupted PSW, whose problem-state bit the entry code
        // tests: the timer tick arrives as an external interrupt, a device's as an I/O one.
        let old_psw = match path {
            PathKind::Tick => Some(lowcore::EXT_OLD_PSW),
            PathKind::IrqEnter => Some(lowcore::IO_OLD_PSW),
            _ => None,
        };
        if let Some(at) = old_psw {
            let mask = self.machine.mem.read_u64(at)?;
            let problem = if self.user_mode { psw::PROBLEM } else { 0 };
            self.machine.mem.write_u64(at, (mask & !psw::PROBLEM) | problem)?;
        }
        let run = self.call_traced(path.name(), entry, on_insn)?;
        // A guest runs under SIE, entered from (and left to) the host kernel.
        match path {
            PathKind::SyscallEnter | PathKind::GuestEnter | PathKind::GuestExit => self.user_mode = false,
            PathKind::SyscallExit => self.user_mode = true,
            _ => {}
        }
        Ok(run)
    }

    fn read(&self, addr: Option<u64>) -> Result<Option<u64>, ScenarioError> {
        Ok(match addr {
            Some(a) => Some(self.to_cycles(self.machine.mem.read_u64(a)?)),
            None => None,
        })
    }
}

impl ScenarioMachine for S390Scenario {
    type Error = ScenarioError;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, ScenarioError> {
        self.run_path_traced(path, |_| {})
    }

    fn advance(&mut self, cycles: u64) {
        self.machine.cpu.advance(cycles);
    }

    fn now(&self) -> u64 {
        self.machine.cpu.cycles()
    }

    fn accounted(&self) -> Result<Accounted, ScenarioError> {
        let a = self.bindings.accounting;
        Ok(Accounted {
            utime: self.to_cycles(self.machine.mem.read_u64(a.utime_addr)?),
            stime: self.to_cycles(self.machine.mem.read_u64(a.stime_addr)?),
            guest: self.read(a.guest_addr)?,
            hardirq: self.read(a.hardirq_addr)?,
            softirq: self.read(a.softirq_addr)?,
        })
    }

    fn has_path(&self, path: PathKind) -> bool {
        self.bindings.paths.iter().any(|(k, _)| *k == path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::CpuConfig;
    use crate::timing::S390Params;
    use emu_core::memory::{Endian, Memory, Perms};

    /// A syscall-enter path that stores the CPU timer (STPT) into a counter and returns:
    /// stpt 0(%r2); br %r14. Accounted "utime" is the timer, counting down from zero.
    #[test]
    fn runs_a_path_and_reads_timer_units() {
        let mut mem = Memory::new(Endian::Big);
        assert!(mem.map(0x1000, 0x1000, Perms::RWX, "code").is_ok());
        assert!(mem.map(0x2000, 0x1000, Perms::RW, "data").is_ok());
        assert!(mem.map(0x7000, 0x1000, Perms::RW, "stack").is_ok());
        let code = [0xb2, 0x09, 0x20, 0x00, 0x07, 0xfe];
        assert!(mem.write_bytes(0x1000, &code).is_ok());
        let cfg = CpuConfig { sentinel: 0xdead_0000, timing: Some(S390Params::default()), freq_mhz: 5000 };
        let mut cpu = S390Cpu::new(cfg);
        cpu.add_code(0x1000, &code);
        cpu.state.cpu_timer_base = 1 << 40;
        let bindings = Bindings {
            paths: vec![(PathKind::SyscallEnter, 0x1000)],
            task: 0x2000,
            sentinel: 0xdead_0000,
            stack_pointer: 0x7f00 - 160,
            accounting: Accounting {
                utime_addr: 0x2000,
                stime_addr: 0x2008,
                guest_addr: None,
                hardirq_addr: None,
                softirq_addr: None,
                unit: Unit::TimerUnits,
            },
            max_insns: 100,
        };
        let mut sc = S390Scenario::new(Machine::new(cpu, mem), bindings);
        sc.advance(5_000_000);
        let run = sc.run_path(PathKind::SyscallEnter);
        assert!(matches!(run, Ok(PathRun { instructions: 2, .. })), "{run:?}");
        let stored = sc.machine.mem.read_u64(0x2000).unwrap_or(0);
        assert_eq!(stored, (1 << 40) - 4096 * 1000);
        assert!(matches!(sc.run_path(PathKind::Tick), Err(ScenarioError::Unbound(_))));
        assert!(sc.accounted().is_ok());
    }
}
