//! The s390x side of a scenario: each bound path is either a C function called with the task
//! in r2 and "came from user" in r3 (s390x ELF ABI: r14 = the sentinel, r15 = stack top - 160)
//! that returns to the sentinel, or an assembly entry sequence that ends with LPSWE (the
//! return from interruption). Each path starts in supervisor state, as an interruption or SVC
//! would deliver it; user and kernel work advance the clock, and with it the CPU timer and TOD.
//! Running the path is the shared engine's ([`emu_core::scenario::Scenario`]); a set-up call
//! outside the workload (`vtime_init`) is its `call`.

use crate::cpu::{lowcore, ExecError, S390Cpu};
use crate::state::psw;
use emu_core::cpu::Machine;
use emu_core::scenario::{Accounted, Adapter, PathEnd, PathKind, ScenarioCpu};

/// Why an s390x scenario path (or set-up call) did not run to its end (the shared error, with
/// s390x's emulator failures).
pub type ScenarioError = emu_core::scenario::ScenarioError<ExecError>;

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

/// A machine bound to an s390x trace.
pub type S390Scenario = emu_core::scenario::Scenario<Bindings>;

impl ScenarioCpu for S390Cpu {}

impl Bindings {
    fn to_cycles(&self, m: &Machine<S390Cpu>, v: u64) -> u64 {
        match self.accounting.unit {
            Unit::Nanoseconds { cycles_per_ns } => (v as f64 * cycles_per_ns).round() as u64,
            Unit::TimerUnits => {
                let c = u128::from(v) * u128::from(m.cpu.freq_mhz()) / 4096;
                u64::try_from(c).unwrap_or(u64::MAX)
            }
        }
    }

    fn read(&self, m: &Machine<S390Cpu>, name: &'static str, addr: u64) -> Result<u64, ScenarioError> {
        let v = m.mem.read_u64(addr).map_err(|fault| ScenarioError::Counter { name, fault })?;
        Ok(self.to_cycles(m, v))
    }
}

impl Adapter for Bindings {
    type Cpu = S390Cpu;
    type Start = u64;

    fn binding(&self, path: PathKind) -> Option<(u64, PathEnd)> {
        self.paths.iter().find(|(k, _)| *k == path).map(|(_, a)| (*a, PathEnd::ReturnOrRfi))
    }

    fn max_insns(&self) -> u64 {
        self.max_insns
    }

    /// Supervisor state, the task in r2, "came from user" in r3, the sentinel in r14; an
    /// interrupt path first gets the interrupted PSW's problem-state bit in its old PSW.
    fn enter(
        &mut self,
        m: &mut Machine<S390Cpu>,
        path: Option<PathKind>,
        entry: u64,
        from_user: bool,
    ) -> Result<(), ScenarioError> {
        // The entry code tests the old PSW's problem-state bit: the timer tick arrives as an
        // external interrupt, a device's as an I/O one.
        let old_psw = match path {
            Some(PathKind::Tick) => Some(lowcore::EXT_OLD_PSW),
            Some(PathKind::IrqEnter) => Some(lowcore::IO_OLD_PSW),
            _ => None,
        };
        if let Some(at) = old_psw {
            let mask = m.mem.read_u64(at)?;
            let problem = if from_user { psw::PROBLEM } else { 0 };
            m.mem.write_u64(at, (mask & !psw::PROBLEM) | problem)?;
        }
        let st = &mut m.cpu.state;
        st.psw_mask &= !psw::PROBLEM;
        st.set_reg(2, self.task);
        st.set_reg(3, u64::from(from_user));
        st.set_reg(14, self.sentinel);
        st.set_reg(15, self.stack_pointer);
        m.cpu.set_entry(entry);
        Ok(())
    }

    fn accounted(&self, m: &Machine<S390Cpu>) -> Result<Accounted, ScenarioError> {
        let a = self.accounting;
        let optional = |name, addr: Option<u64>| addr.map(|at| self.read(m, name, at)).transpose();
        Ok(Accounted {
            utime: self.read(m, "utime", a.utime_addr)?,
            stime: self.read(m, "stime", a.stime_addr)?,
            guest: optional("guest", a.guest_addr)?,
            hardirq: optional("hardirq", a.hardirq_addr)?,
            softirq: optional("softirq", a.softirq_addr)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::CpuConfig;
    use crate::timing::S390Params;
    use emu_core::memory::{Endian, Memory, Perms};
    use emu_core::scenario::{PathRun, ScenarioMachine};

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
        // svc 1: an event that is no path's end.
        assert!(mem.write_bytes(0x1010, &[0x0a, 0x01]).is_ok());
        cpu.add_code(0x1010, &[0x0a, 0x01]);
        cpu.state.cpu_timer_base = 1 << 40;
        let bindings = Bindings {
            paths: vec![(PathKind::SyscallEnter, 0x1000), (PathKind::SyscallExit, 0x1010)],
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
        let stopped = sc.run_path(PathKind::SyscallExit).err().map(|e| e.to_string());
        assert_eq!(
            stopped.as_deref(),
            Some("syscall_exit stopped on the svc interruption (vector 0x1c0) at pc 0x1010 before it could return")
        );
        assert!(sc.accounted().is_ok());
    }
}
