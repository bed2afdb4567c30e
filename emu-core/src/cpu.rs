//! The arch-neutral machine loop: a [`Cpu`] steps over [`Memory`] until a stop condition.
//!
//! Guest events (return to the sentinel, `rfi`, an interruption, a halt) are values the
//! CPU reports; only emulator failures (unmapped fetch, unimplemented form, ...) are
//! errors. Running out of the instruction budget is a clean [`StopReason::Budget`], so a
//! report can say how far the path got instead of failing.

use std::fmt;

use thiserror::Error;

use crate::memory::Memory;
use crate::snapshot::Snapshot;
use crate::timing::TimingSummary;

/// What one step of a [`Cpu`] led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepEvent {
    /// Nothing special: keep going.
    Continue,
    /// Control reached the harness's sentinel address (the path returned).
    Sentinel,
    /// A return from interruption (ia64 `rfi`, s390 `lpswe`) retired.
    Rfi,
    /// The guest raised an interruption (ia64 `break`, a fault the model delivers).
    Interruption {
        /// Offset of the interruption vector (ia64: 0x2c00 for break).
        vector: u64,
        /// Short name of the interruption ("break").
        name: &'static str,
    },
    /// The guest stopped the processor (a halt instruction or an equivalent).
    Halt,
}

/// An architecture's processor model as the machine loop sees it.
///
/// Keep ISA specifics out: everything here makes sense for ia64, x86-64 and s390x.
pub trait Cpu {
    /// Emulator failures of this architecture; each carries the pc it happened at.
    type Error: std::error::Error + 'static;

    /// Executes one instruction (ia64: one slot) against `mem`.
    ///
    /// # Errors
    /// An emulator failure (unmapped fetch, unimplemented form, ...); guest events are
    /// returned as [`StepEvent`]s instead.
    fn step(&mut self, mem: &mut Memory) -> Result<StepEvent, Self::Error>;

    /// Address of the next instruction (ia64: bundle address | slot).
    fn pc(&self) -> u64;

    /// The timing model's cycle clock.
    fn cycles(&self) -> u64;

    /// Instructions retired so far, nops included.
    fn instructions(&self) -> u64;

    /// The architectural state, for tests and `--snapshot`.
    fn snapshot(&self, mem: &Memory) -> Snapshot;

    /// Cycle, instruction and stall totals so far.
    fn summary(&self) -> TimingSummary;

    /// Makes the `bytes` at `addr` executable code (the CPU predecodes what it fetches there).
    fn add_code(&mut self, addr: u64, bytes: &[u8]);

    /// Starts execution at `addr` (ia64: a bundle address | slot).
    fn set_entry(&mut self, addr: u64);

    // issue 16 (w5-core): what a scenario engine needs of any core.

    /// Lets `cycles` pass with no instruction executing: work outside the modelled code (a
    /// scenario's phases between paths). The clock, and so the guest's time registers, move on.
    fn advance(&mut self, cycles: u64);

    /// Cycles, instructions, nops and groups so far, without the stall table (cheap enough to
    /// read at every path boundary; [`Counts::since`] gives one path's share).
    fn counts(&self) -> Counts;

    /// The address the last [`Cpu::set_entry`] gave: where the current run or path started
    /// (0 before any).
    fn entry(&self) -> u64;

    // issue 17 (w6-block2): many instructions per call.

    /// Steps until an event `stop` selects, a halt, `stop.max_insns` steps, or (when
    /// `until_pc` is given) the pc equalling it after a step: the machine loop and the scenario
    /// engine call this once per run or path instead of [`Cpu::step`] once per instruction, so
    /// a core can keep its loop inside itself. A core overriding it must stop exactly where
    /// this default does ([`Ran::after_step`] decides).
    ///
    /// # Errors
    /// The first emulator failure, with the steps completed before it.
    fn run_until(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Result<Ran, RunError<Self::Error>> {
        let mut executed = 0u64;
        while executed < stop.max_insns {
            let pc = self.pc();
            let event = self.step(mem).map_err(|error| RunError { error, executed })?;
            executed += 1;
            if let Some(end) = Ran::after_step(event, pc, self.pc(), stop, until_pc) {
                return Ok(Ran { executed, end });
            }
        }
        Ok(Ran { executed, end: RanEnd::Budget })
    }
}

// issue 17 (w6-block2): what Cpu::run_until reports.

/// How far a [`Cpu::run_until`] got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ran {
    /// Steps executed.
    pub executed: u64,
    /// Why it returned.
    pub end: RanEnd,
}

/// Why [`Cpu::run_until`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RanEnd {
    /// A halt, or an event the [`StopWhen`] selects, at `pc` (the pc before its step).
    Event {
        /// The event.
        event: StepEvent,
        /// Address of the instruction whose step raised it.
        pc: u64,
    },
    /// The pc reached `until_pc` (checked before the events other than a halt).
    Pc,
    /// `max_insns` steps ran with no stop.
    Budget,
}

impl Ran {
    /// Whether the step just done (from `before`, raising `event`, leaving the pc at `after`)
    /// ends a [`Cpu::run_until`], and how: a halt first, then `until_pc`, then the events
    /// `stop` selects.
    #[inline(always)]
    pub fn after_step(
        event: StepEvent,
        before: u64,
        after: u64,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Option<RanEnd> {
        if event == StepEvent::Continue {
            return (until_pc == Some(after)).then_some(RanEnd::Pc);
        }
        if event == StepEvent::Halt {
            return Some(RanEnd::Event { event, pc: before });
        }
        if until_pc == Some(after) {
            return Some(RanEnd::Pc);
        }
        let selected = match event {
            StepEvent::Sentinel => stop.on_sentinel,
            StepEvent::Rfi => stop.on_rfi,
            StepEvent::Interruption { .. } => stop.on_interruption,
            StepEvent::Continue | StepEvent::Halt => true,
        };
        selected.then_some(RanEnd::Event { event, pc: before })
    }
}

/// The running totals of a [`Cpu`] ([`Cpu::counts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Cycles so far ([`Cpu::cycles`]).
    pub cycles: u64,
    /// Instructions retired, nops included.
    pub instructions: u64,
    /// Nops among them (cores that tell no nops apart count none).
    pub nops: u64,
    /// Issue groups: ia64 instruction groups, x86 dispatch groups, s390 decoder groups (one
    /// per instruction without a timing model).
    pub groups: u64,
}

impl Counts {
    /// What was counted from `before` to `self` (each total clamped at zero).
    pub fn since(self, before: Counts) -> Counts {
        Counts {
            cycles: self.cycles.saturating_sub(before.cycles),
            instructions: self.instructions.saturating_sub(before.instructions),
            nops: self.nops.saturating_sub(before.nops),
            groups: self.groups.saturating_sub(before.groups),
        }
    }
}

/// Which events end [`Machine::run`], and the instruction budget.
///
/// A halt always stops the machine; the other events stop it only when their flag is set
/// (otherwise the CPU carries on, e.g. into the interruption handler).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StopWhen {
    /// Stop when control returns to the sentinel address.
    pub on_sentinel: bool,
    /// Stop after a return from interruption.
    pub on_rfi: bool,
    /// Stop when the guest raises an interruption.
    pub on_interruption: bool,
    /// Stop cleanly after this many steps of one run.
    pub max_insns: u64,
}

impl Default for StopWhen {
    /// Stop on every event, after at most one million instructions.
    fn default() -> StopWhen {
        StopWhen { on_sentinel: true, on_rfi: true, on_interruption: true, max_insns: 1_000_000 }
    }
}

/// Why [`Machine::run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// Control returned to the sentinel address.
    Sentinel,
    /// A return from interruption retired.
    Rfi,
    /// The guest raised an interruption.
    Interruption {
        /// Offset of the interruption vector.
        vector: u64,
        /// Short name of the interruption.
        name: &'static str,
        /// Address of the instruction that raised it ([`Cpu::pc`] before its step).
        pc: u64,
    },
    /// The guest halted the processor.
    Halt,
    /// The instruction budget ran out before any stopping event.
    Budget {
        /// The budget that was exhausted.
        max_insns: u64,
        /// Address of the next instruction ([`Cpu::pc`]), where the run would go on.
        pc: u64,
    },
}

impl StopReason {
    /// Whether this is the end a run is expected to reach: a return to the sentinel, or an
    /// `rfi` (which a run only stops on when asked to). Any other stop left the code short of
    /// its end, which the command line reports with its own exit status.
    pub fn is_expected_end(&self) -> bool {
        matches!(self, StopReason::Sentinel | StopReason::Rfi)
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Sentinel => f.write_str("returned to the sentinel"),
            StopReason::Rfi => f.write_str("rfi"),
            StopReason::Interruption { vector, name, pc } => {
                write!(f, "interruption: {name} (vector {vector:#x}) at pc {pc:#x}")
            }
            StopReason::Halt => f.write_str("halt"),
            StopReason::Budget { max_insns, pc } => {
                write!(f, "budget of {max_insns} instructions exhausted at pc {pc:#x}")
            }
        }
    }
}

/// An emulator failure during [`Machine::run`], with how far the run got.
#[derive(Debug, Error)]
#[error("{error} (after {executed} instructions)")]
pub struct RunError<E: std::error::Error + 'static> {
    /// The architecture's error (it carries the pc).
    pub error: E,
    /// Steps completed in this run before the failing one.
    pub executed: u64,
}

/// A CPU together with the memory it runs on.
#[derive(Debug, Clone)]
pub struct Machine<C: Cpu> {
    /// The processor model.
    pub cpu: C,
    /// Guest memory.
    pub mem: Memory,
}

impl<C: Cpu> Machine<C> {
    /// A machine of `cpu` over `mem`.
    pub fn new(cpu: C, mem: Memory) -> Machine<C> {
        Machine { cpu, mem }
    }

    /// Steps the CPU until an event selected by `stop`, a halt, or the budget.
    ///
    /// The loop allocates nothing; each call has its own budget of `stop.max_insns` steps.
    ///
    /// # Errors
    /// The CPU's first emulator failure, wrapped with the number of steps done.
    pub fn run(&mut self, stop: &StopWhen) -> Result<StopReason, RunError<C::Error>> {
        let ran = self.cpu.run_until(&mut self.mem, stop, None)?;
        match ran.end {
            RanEnd::Event { event, pc } => match event {
                StepEvent::Sentinel => return Ok(StopReason::Sentinel),
                StepEvent::Rfi => return Ok(StopReason::Rfi),
                StepEvent::Interruption { vector, name } => return Ok(StopReason::Interruption { vector, name, pc }),
                StepEvent::Halt => return Ok(StopReason::Halt),
                StepEvent::Continue => {}
            },
            RanEnd::Pc | RanEnd::Budget => {}
        }
        Ok(StopReason::Budget { max_insns: stop.max_insns, pc: self.cpu.pc() })
    }

    /// The CPU's architectural snapshot of the current state.
    pub fn snapshot(&self) -> Snapshot {
        self.cpu.snapshot(&self.mem)
    }
}

#[cfg(test)]
mod tests;
