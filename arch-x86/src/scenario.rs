//! The x86-64 side of a scenario: each bound path is a C function called with the task in
//! rdi (SysV ABI) that returns to the sentinel; user and kernel work advance the clock.
//! The adapter also plays the parts of the machine a path does not execute: it tells the tick
//! path whether it interrupted user mode (rsi; [`emu_core::scenario::Scenario`] keeps the
//! mode), and advances `jiffies` at every tick (the timekeeping CPU's work on a nohz_full
//! system). Running the path is the shared engine's.

use crate::cpu::ExecError;
use crate::cpu::X86Cpu;
use emu_core::cpu::Machine;
use emu_core::scenario::{Accounted, Adapter, PathEnd, PathKind, ScenarioCpu};

/// The registers a path call sets: rdi, rsi, rsp (GPR numbers in x86 encoding order).
const RSP: u8 = 4;
const RSI: u8 = 6;
const RDI: u8 = 7;

/// Why an x86 scenario path did not run to its end (the shared error, with x86's emulator
/// failures).
pub type ScenarioError = emu_core::scenario::ScenarioError<ExecError>;

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

/// A machine bound to an x86 trace.
pub type X86Scenario = emu_core::scenario::Scenario<Bindings>;

impl ScenarioCpu for X86Cpu {}

impl Adapter for Bindings {
    type Cpu = X86Cpu;
    type Start = u64;

    fn binding(&self, path: PathKind) -> Option<(u64, PathEnd)> {
        self.paths.iter().find(|(k, _)| *k == path).map(|(_, a)| (*a, PathEnd::Return))
    }

    fn max_insns(&self) -> u64 {
        self.max_insns
    }

    /// A call: the sentinel as return address on the stack, the task in rdi, "interrupted
    /// user mode" in rsi; a tick first advances `jiffies`.
    fn enter(
        &mut self,
        m: &mut Machine<X86Cpu>,
        path: Option<PathKind>,
        entry: u64,
        from_user: bool,
    ) -> Result<(), ScenarioError> {
        if path == Some(PathKind::Tick) {
            if let Some(j) = self.jiffies {
                let v = m.mem.read_u64(j)?;
                m.mem.write_u64(j, v.wrapping_add(1))?;
            }
        }
        m.mem.write_u64(self.stack_top, self.sentinel)?;
        let st = &mut m.cpu.state;
        st.set_reg(RSP, self.stack_top);
        st.set_reg(RDI, self.task);
        st.set_reg(RSI, u64::from(from_user));
        m.cpu.set_entry(entry);
        Ok(())
    }

    fn accounted(&self, m: &Machine<X86Cpu>) -> Result<Accounted, ScenarioError> {
        let Accounting::Nanoseconds { utime_addr, stime_addr, cycles_per_ns } = self.accounting;
        let ns_to_cycles = |ns: u64| (ns as f64 * cycles_per_ns).round() as u64;
        let read = |name, addr| m.mem.read_u64(addr).map_err(|fault| ScenarioError::Counter { name, fault });
        Ok(Accounted {
            utime: ns_to_cycles(read("utime", utime_addr)?),
            stime: ns_to_cycles(read("stime", stime_addr)?),
            ..Accounted::default()
        })
    }
}
