//! The one path runner every core's scenario shares: a [`Scenario`] is a machine plus a core's
//! [`Adapter`] (how each bound path is entered, how the accounted times are read); running a
//! path to its end within its budget, measuring it and mapping the other stops to errors is
//! done here once, for every core.

use super::{Accounted, PathKind, PathRun, ScenarioMachine};
use crate::cpu::{Cpu, Machine, RanEnd, StepEvent, StopWhen};
use crate::memory::MemFault;
use std::fmt;

/// What a core adds to [`Cpu`] for scenarios. The clock that moves with no instruction
/// executed (the user and kernel phases) is [`Cpu::advance`]; a path is measured by
/// [`Cpu::counts`].
pub trait ScenarioCpu: Cpu {
    /// Whether a path runs on through events that do not end it: the IA-64 model delivers
    /// interruptions itself, and a path may pass an `rfi` or the sentinel before its label.
    /// Otherwise such an event stops the path with [`ScenarioError::Stopped`].
    const RUNS_THROUGH_EVENTS: bool = false;
}

/// How a bound path ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathEnd {
    /// When control reaches this address (ia64: bundle | slot), by a branch or falling through.
    Label(u64),
    /// When a return from interruption retires (ia64 `rfi`).
    Rfi,
    /// When control returns to the machine's sentinel (a function's return).
    Return,
    /// On the return to the sentinel or a return from interruption, whichever comes first
    /// (s390 paths are functions, or entry code ending in LPSWE).
    ReturnOrRfi,
}

impl PathEnd {
    /// What the path does at its end, as a verb for messages (`return`, `reach 0x1230`).
    pub fn goal(&self) -> String {
        match self {
            PathEnd::Label(addr) => format!("reach {addr:#x}"),
            PathEnd::Rfi => "reach its rfi".to_string(),
            PathEnd::Return | PathEnd::ReturnOrRfi => "return".to_string(),
        }
    }

    /// Whether `event`, after which the pc is `pc`, ends a path ending here.
    fn reached(&self, event: StepEvent, pc: u64) -> bool {
        match (self, event) {
            (PathEnd::Label(addr), _) => pc == *addr,
            (PathEnd::Rfi, StepEvent::Rfi)
            | (PathEnd::Return, StepEvent::Sentinel)
            | (PathEnd::ReturnOrRfi, StepEvent::Sentinel | StepEvent::Rfi) => true,
            _ => false,
        }
    }
}

/// A guest event in words, for [`ScenarioError::Stopped`].
fn event_text(event: &StepEvent) -> String {
    match event {
        StepEvent::Continue => "no event".to_string(),
        StepEvent::Sentinel => "the return to the sentinel".to_string(),
        StepEvent::Rfi => "a return from interruption".to_string(),
        StepEvent::Interruption { vector, name } => format!("the {name} interruption (vector {vector:#x})"),
        StepEvent::Halt => "a halt".to_string(),
    }
}

/// Why a scenario path (or a set-up call) did not run to its end, or its counters could not be
/// read; `E` is the core's emulator error.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError<E: std::error::Error + 'static> {
    /// No path of this kind is bound.
    #[error("no {0} path is bound")]
    Unbound(PathKind),
    /// A path did not end within its budget.
    #[error("{path} did not {} within {max_insns} instructions (stopped at pc {pc:#x})", .end.goal())]
    Budget {
        /// The path (or set-up call).
        path: &'static str,
        /// The end it did not reach.
        end: PathEnd,
        /// The budget.
        max_insns: u64,
        /// Address of the next instruction when the budget ran out.
        pc: u64,
    },
    /// The emulator failed inside a path.
    #[error("{path}: {error} (after {executed} instructions of the path)")]
    Exec {
        /// The path (or set-up call).
        path: &'static str,
        /// What failed (it carries the pc).
        error: E,
        /// Instructions of the path run before it.
        executed: u64,
    },
    /// A guest event that does not end the path stopped it (a halt; on cores that do not run
    /// through events, also an interruption or a return of the other kind).
    #[error("{path} stopped on {} at pc {pc:#x} before it could {}", event_text(.event), .end.goal())]
    Stopped {
        /// The path (or set-up call).
        path: &'static str,
        /// The event.
        event: StepEvent,
        /// The end it did not reach.
        end: PathEnd,
        /// Address of the instruction that raised it.
        pc: u64,
    },
    /// An accounting counter could not be read.
    #[error("reading the accounted {name}: {fault}")]
    Counter {
        /// `utime`, `stime`, `guest`, `hardirq` or `softirq`.
        name: &'static str,
        /// The failed access.
        fault: MemFault,
    },
    /// Memory the adapter reads or writes to enter a path is not mapped.
    #[error("{0}")]
    Memory(#[from] MemFault),
}

impl<E: std::error::Error + Send + Sync + 'static> ScenarioError<E> {
    /// The same error with the core's emulator error boxed, for callers that drive every core.
    pub fn erased(self) -> ScenarioError<ArchError> {
        match self {
            ScenarioError::Unbound(p) => ScenarioError::Unbound(p),
            ScenarioError::Budget { path, end, max_insns, pc } => ScenarioError::Budget { path, end, max_insns, pc },
            ScenarioError::Exec { path, error, executed } => {
                ScenarioError::Exec { path, error: ArchError(Box::new(error)), executed }
            }
            ScenarioError::Stopped { path, event, end, pc } => ScenarioError::Stopped { path, event, end, pc },
            ScenarioError::Counter { name, fault } => ScenarioError::Counter { name, fault },
            ScenarioError::Memory(f) => ScenarioError::Memory(f),
        }
    }

    /// Whether the emulated code stopped short of its end (budget, emulator failure, another
    /// event), as opposed to a binding or counter problem.
    pub fn stopped_short(&self) -> bool {
        matches!(self, ScenarioError::Budget { .. } | ScenarioError::Exec { .. } | ScenarioError::Stopped { .. })
    }
}

/// A core's emulator error with its type erased ([`ScenarioError::erased`]).
#[derive(Debug)]
pub struct ArchError(pub Box<dyn std::error::Error + Send + Sync>);

impl fmt::Display for ArchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ArchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// The error type of a scenario on core `C`.
pub type CoreError<C> = ScenarioError<<C as Cpu>::Error>;

/// What is a core's own in a scenario: where each path starts and how it is entered (registers,
/// psw, an interrupt delivered), and how the accounted times are read and converted to cycles.
pub trait Adapter {
    /// The core.
    type Cpu: ScenarioCpu;
    /// Where a path starts: an address, or the core's own way in.
    type Start: Copy + fmt::Debug;

    /// Where `path` starts and how it ends, when it is bound.
    fn binding(&self, path: PathKind) -> Option<(Self::Start, PathEnd)>;

    /// The instruction budget of one path.
    fn max_insns(&self) -> u64;

    /// Puts the machine at `start`, for path `path` (`None`: a set-up call outside the
    /// workload); `from_user` says whether it interrupts user mode (no path has run yet, or
    /// the last was a syscall exit).
    ///
    /// # Errors
    /// Memory the entry writes is not mapped; the core cannot deliver the interrupt.
    fn enter(
        &mut self,
        m: &mut Machine<Self::Cpu>,
        path: Option<PathKind>,
        start: Self::Start,
        from_user: bool,
    ) -> Result<(), CoreError<Self::Cpu>>;

    /// The accounted times, in cycles.
    ///
    /// # Errors
    /// A counter cannot be read.
    fn accounted(&self, m: &Machine<Self::Cpu>) -> Result<Accounted, CoreError<Self::Cpu>>;
}

/// A machine bound to a trace by a core's [`Adapter`], ready for [`super::run`].
#[derive(Debug, Clone)]
pub struct Scenario<A: Adapter> {
    /// The machine (public so a caller can inspect or instrument it).
    pub machine: Machine<A::Cpu>,
    /// The core's bindings.
    pub adapter: A,
    /// Whether the task is in user mode (it starts there).
    user_mode: bool,
}

impl<A: Adapter> Scenario<A> {
    /// Binds `machine` to `adapter`; the task starts in user mode.
    pub fn new(machine: Machine<A::Cpu>, adapter: A) -> Scenario<A> {
        Scenario { machine, adapter, user_mode: true }
    }

    /// Runs bound path `path` as [`ScenarioMachine::run_path`] does, telling `on_insn` the
    /// address of each instruction it executes.
    ///
    /// # Errors
    /// As [`ScenarioMachine::run_path`].
    pub fn run_path_traced(
        &mut self,
        path: PathKind,
        mut on_insn: impl FnMut(u64),
    ) -> Result<PathRun, CoreError<A::Cpu>> {
        self.run_bound(path, Some(&mut on_insn))
    }

    /// Runs bound path `path`, traced through `on_insn` or (`None`) in one call into the core.
    fn run_bound(
        &mut self,
        path: PathKind,
        on_insn: Option<&mut dyn FnMut(u64)>,
    ) -> Result<PathRun, CoreError<A::Cpu>> {
        let (start, end) = self.adapter.binding(path).ok_or(ScenarioError::Unbound(path))?;
        let run = self.run_from(path.name(), Some(path), start, end, on_insn)?;
        // A guest runs under SIE (VMRUN), entered from and left to the host kernel.
        match path {
            PathKind::SyscallEnter | PathKind::GuestEnter | PathKind::GuestExit => self.user_mode = false,
            PathKind::SyscallExit => self.user_mode = true,
            _ => {}
        }
        Ok(run)
    }

    /// Calls the code at `start` (named `name` in errors) as a path is run, until `end`:
    /// scenario set-up uses it for calls outside the workload (s390 `vtime_init`).
    ///
    /// # Errors
    /// As [`ScenarioMachine::run_path`].
    pub fn call(&mut self, name: &'static str, start: A::Start, end: PathEnd) -> Result<PathRun, CoreError<A::Cpu>> {
        self.run_from(name, None, start, end, None)
    }

    fn run_from(
        &mut self,
        name: &'static str,
        path: Option<PathKind>,
        start: A::Start,
        end: PathEnd,
        on_insn: Option<&mut dyn FnMut(u64)>,
    ) -> Result<PathRun, CoreError<A::Cpu>> {
        let before = self.machine.cpu.counts();
        self.adapter.enter(&mut self.machine, path, start, self.user_mode)?;
        let max_insns = self.adapter.max_insns();
        let Machine { cpu, mem } = &mut self.machine;
        // issue 17 (w6-block2): untraced, the core runs the whole path in one call.
        let Some(on_insn) = on_insn else {
            run_untraced(cpu, mem, name, end, max_insns)?;
            return Ok(PathRun::from(cpu.counts().since(before)));
        };
        let mut executed = 0u64;
        loop {
            if executed == max_insns {
                return Err(ScenarioError::Budget { path: name, end, max_insns, pc: cpu.pc() });
            }
            let pc = cpu.pc();
            on_insn(pc);
            let event = cpu.step(mem).map_err(|error| ScenarioError::Exec { path: name, error, executed })?;
            executed += 1;
            if event == StepEvent::Halt {
                return Err(ScenarioError::Stopped { path: name, event, end, pc });
            }
            if end.reached(event, cpu.pc()) {
                break;
            }
            if event != StepEvent::Continue && !A::Cpu::RUNS_THROUGH_EVENTS {
                return Err(ScenarioError::Stopped { path: name, event, end, pc });
            }
        }
        Ok(PathRun::from(self.machine.cpu.counts().since(before)))
    }
}

// issue 17 (w6-block2): a path in one Cpu::run_until call.

/// Runs `cpu` from where it is to `end` with [`Cpu::run_until`], stopping as the traced loop of
/// [`Scenario::run_path_traced`] does: a halt, any event when the core does not run through
/// them, the budget.
fn run_untraced<C: ScenarioCpu>(
    cpu: &mut C,
    mem: &mut crate::memory::Memory,
    name: &'static str,
    end: PathEnd,
    max_insns: u64,
) -> Result<(), CoreError<C>> {
    let through = C::RUNS_THROUGH_EVENTS;
    let stop = StopWhen {
        on_sentinel: !through || matches!(end, PathEnd::Return | PathEnd::ReturnOrRfi),
        on_rfi: !through || matches!(end, PathEnd::Rfi | PathEnd::ReturnOrRfi),
        on_interruption: !through,
        max_insns,
    };
    let until_pc = match end {
        PathEnd::Label(addr) => Some(addr),
        _ => None,
    };
    let ran = cpu.run_until(mem, &stop, until_pc).map_err(|e| ScenarioError::Exec {
        path: name,
        error: e.error,
        executed: e.executed,
    })?;
    match ran.end {
        RanEnd::Pc => Ok(()),
        RanEnd::Budget => Err(ScenarioError::Budget { path: name, end, max_insns, pc: cpu.pc() }),
        RanEnd::Event { event, .. } if event != StepEvent::Halt && end.reached(event, cpu.pc()) => Ok(()),
        RanEnd::Event { event, pc } => Err(ScenarioError::Stopped { path: name, event, end, pc }),
    }
}

impl<A: Adapter> ScenarioMachine for Scenario<A> {
    type Error = CoreError<A::Cpu>;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, Self::Error> {
        self.run_bound(path, None)
    }

    fn advance(&mut self, cycles: u64) {
        self.machine.cpu.advance(cycles);
    }

    fn now(&self) -> u64 {
        self.machine.cpu.cycles()
    }

    fn accounted(&self) -> Result<Accounted, Self::Error> {
        self.adapter.accounted(&self.machine)
    }

    fn has_path(&self, path: PathKind) -> bool {
        self.adapter.binding(path).is_some()
    }
}
