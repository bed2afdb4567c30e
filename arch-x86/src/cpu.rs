//! [`X86Cpu`]: the x86-64 core as the machine loop sees it. One step executes one
//! instruction; the timing model (when configured) issues it afterwards with the memory
//! accesses the step made, except for rdtsc/rdtscp, which issue first because their result
//! is the issue cycle.

use emu_core::cpu::{Cpu, Ran, RanEnd, RunError, StepEvent, StopWhen};
use emu_core::memory::{MemFault, Memory};
use emu_core::snapshot::Snapshot;
use emu_core::timing::TimingSummary;
use thiserror::Error;

use crate::block::{Blocks, Engine};
use crate::decode::{Insn, Op, X86Decoder, MAX_INSN_LEN};
use crate::exec::{execute, Ctx, Flow, Trap};
use crate::state::X86State;
use crate::timing::{IssueInfo, X86Model, X86Params};
use emu_core::code_cache::CodeCache;

/// How the CPU is set up (the default: sentinel 0, no timing model, 1:1 TSC).
#[derive(Debug, Clone, Default)]
pub struct CpuConfig {
    /// Reaching this address ends the path ([`StepEvent::Sentinel`]).
    pub sentinel: u64,
    /// Timing model parameters; `None` counts one cycle per instruction.
    pub timing: Option<X86Params>,
    /// TSC ticks per modelled cycle as numerator / denominator (the host's TSC runs slower
    /// than its core clock); `None` takes the timing parameters' ratio (1:1 without them).
    pub tsc_ratio: Option<(u64, u64)>,
}

/// An emulator failure, naming the instruction, its bytes and its address.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExecError {
    /// Fetching the instruction faulted.
    #[error("cannot fetch an instruction at {addr:#x}: {fault}")]
    Fetch {
        /// Instruction address.
        addr: u64,
        /// The fault.
        fault: MemFault,
    },
    /// Not in the supported subset, or not decodable.
    #[error("unsupported instruction `{text}` (bytes {bytes}) at {addr:#x}")]
    Unsupported {
        /// Instruction address.
        addr: u64,
        /// AT&T text.
        text: String,
        /// Hex bytes.
        bytes: String,
    },
    /// A data access faulted.
    #[error("`{text}` (bytes {bytes}) at {addr:#x}: {fault}")]
    Memory {
        /// Instruction address.
        addr: u64,
        /// AT&T text.
        text: String,
        /// Hex bytes.
        bytes: String,
        /// The fault.
        fault: MemFault,
    },
    /// Divide error (#DE): zero divisor or quotient overflow.
    #[error("divide error (#DE) in `{text}` (bytes {bytes}) at {addr:#x}")]
    Divide {
        /// Instruction address.
        addr: u64,
        /// AT&T text.
        text: String,
        /// Hex bytes.
        bytes: String,
    },
}

impl ExecError {
    /// The address of the failing instruction.
    pub fn addr(&self) -> u64 {
        match self {
            ExecError::Fetch { addr, .. }
            | ExecError::Unsupported { addr, .. }
            | ExecError::Memory { addr, .. }
            | ExecError::Divide { addr, .. } => *addr,
        }
    }

    pub(crate) fn from_trap(trap: Trap, i: &Insn) -> ExecError {
        let (addr, text, bytes) = (i.addr, i.text(), i.hex());
        match trap {
            Trap::Mem(fault) => ExecError::Memory { addr, text, bytes, fault },
            Trap::Divide => ExecError::Divide { addr, text, bytes },
            Trap::Unsupported => ExecError::Unsupported { addr, text, bytes },
        }
    }
}

/// The x86-64 core.
pub struct X86Cpu {
    /// Architectural state.
    pub state: X86State,
    pub(crate) config: CpuConfig,
    pub(crate) decoder: X86Decoder,
    pub(crate) code: CodeCache<Insn>,
    pub(crate) model: Option<X86Model>,
    pub(crate) instructions: u64,
    pub(crate) nops: u64,
    /// Cycles added by [`X86Cpu::advance`] when there is no timing model.
    pub(crate) idle: u64,
    /// The last [`X86Cpu::set_entry`] address (issue 16).
    entry: u64,
    /// The block engine's blocks (issue 17).
    pub(crate) blocks: Blocks,
    /// Which engine [`Cpu::run_until`] uses.
    engine: Engine,
}

impl std::fmt::Debug for X86Cpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("X86Cpu")
            .field("state", &self.state)
            .field("config", &self.config)
            .field("decoded", &self.code.len())
            .field("instructions", &self.instructions)
            .finish_non_exhaustive()
    }
}

impl X86Cpu {
    /// A core with zeroed registers and no decoded code.
    pub fn new(config: CpuConfig) -> X86Cpu {
        let model = config.timing.clone().map(X86Model::new);
        X86Cpu {
            state: X86State::default(),
            config,
            decoder: X86Decoder::new(),
            code: CodeCache::default(),
            model,
            instructions: 0,
            nops: 0,
            idle: 0,
            entry: 0,
            blocks: Blocks::default(),
            engine: Engine::default(),
        }
    }

    /// Selects the engine [`Cpu::run_until`] runs (issue 17): the block engine (the default)
    /// or the per-step reference interpreter. Both give identical results.
    pub fn set_engine(&mut self, engine: Engine) {
        self.engine = engine;
    }

    /// The engine [`Cpu::run_until`] runs.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Decodes a code section once; instructions reached outside decoded code (or at an
    /// address inside a decoded one) are decoded from memory when first executed.
    pub fn add_code(&mut self, addr: u64, bytes: &[u8]) {
        let decoded = self.decoder.decode_all(addr, bytes).into_iter().map(|insn| (insn.addr, insn));
        self.code.add_section(addr, bytes.len(), decoded);
        // Blocks built over the old view of this range would not see the new code.
        self.blocks.clear();
    }

    /// The decoded instruction at `addr`, if any.
    pub fn insn_at(&self, addr: u64) -> Option<&Insn> {
        self.code.get(addr)
    }

    /// Starts execution at `addr`.
    pub fn set_entry(&mut self, addr: u64) {
        self.entry = addr;
        self.state.rip = addr;
    }

    /// Lets `cycles` pass without executing (work outside the modelled code).
    pub fn advance(&mut self, cycles: u64) {
        match &mut self.model {
            Some(m) => m.advance(cycles),
            None => self.idle += cycles,
        }
    }

    /// The timing model's event counts, when it runs.
    pub fn counts(&self) -> Option<crate::timing::Counts> {
        self.model.as_ref().map(X86Model::counts)
    }

    /// Replaces the timing model with a fresh one of `params` (issue 15: the fidelity table picks
    /// the preset of the host's core); call before running.
    pub fn set_timing(&mut self, params: crate::timing::X86Params) {
        self.config.timing = Some(params.clone());
        self.model = Some(X86Model::new(params));
        // The blocks' issue records hold the old model's figures.
        self.blocks.clear();
    }

    /// Starts or stops recording the timing model's timeline (issue 16; no model, no timeline).
    pub fn record_timeline(&mut self, on: bool) {
        if let Some(m) = &mut self.model {
            m.set_timeline(on);
        }
    }

    /// The timing model, when it runs.
    pub fn model(&self) -> Option<&X86Model> {
        self.model.as_ref()
    }

    /// Cycle, instruction and stall totals.
    pub fn summary(&self) -> TimingSummary {
        match &self.model {
            Some(m) => m.summary(),
            None => TimingSummary {
                cycles: self.cycles(),
                instructions: self.instructions,
                nops: self.nops,
                groups: self.instructions,
                ..TimingSummary::default()
            },
        }
    }

    /// The TSC for a clock reading of `cycle`.
    pub fn tsc_at(&self, cycle: u64) -> u64 {
        tsc_at(&self.config, self.model.as_ref(), self.state.tsc_offset, cycle)
    }
}

/// The TSC for a clock reading of `cycle`: scaled by the configured ratio, else the model's.
pub(crate) fn tsc_at(config: &CpuConfig, model: Option<&X86Model>, offset: u64, cycle: u64) -> u64 {
    let ticks = match (config.tsc_ratio, model) {
        (Some((num, den)), _) => {
            let scaled = u128::from(cycle) * u128::from(num) / u128::from(den.max(1));
            u64::try_from(scaled).unwrap_or(u64::MAX)
        }
        (None, Some(m)) => m.tsc_of(cycle),
        (None, None) => cycle,
    };
    ticks.wrapping_add(offset)
}

/// Decodes the instruction at `rip` from memory (execution reached code no section held).
pub(crate) fn decode_at(decoder: &mut X86Decoder, mem: &Memory, rip: u64) -> Result<Insn, ExecError> {
    let mut buf = [0u8; MAX_INSN_LEN];
    let n = mem.fetch_upto(rip, &mut buf).map_err(|fault| ExecError::Fetch { addr: rip, fault })?;
    Ok(decoder.decode_one(rip, buf.get(..n).unwrap_or(&[])))
}

/// Feeds the timing model one instruction and returns its issue cycle (`untimed` without one).
pub(crate) fn issue(
    model: &mut Option<X86Model>,
    untimed: u64,
    i: &Insn,
    load: Option<(u64, u8)>,
    store: Option<(u64, u8)>,
    taken: bool,
) -> u64 {
    match model {
        Some(m) => {
            let cycle =
                m.issue(&IssueInfo { addr: i.addr, class: i.class, srcs: &i.srcs, dsts: &i.dsts, load, store, taken });
            // The model records addresses; the text is built only when a timeline is kept.
            if let Some(slot) = m.timeline_mut().and_then(|t| t.groups.last_mut()).and_then(|g| g.slots.last_mut()) {
                slot.text = i.text();
                slot.nop = i.class == crate::timing::TimingClass::Nop;
            }
            cycle
        }
        None => untimed,
    }
}

impl Cpu for X86Cpu {
    type Error = ExecError;

    fn step(&mut self, mem: &mut Memory) -> Result<StepEvent, ExecError> {
        let untimed = self.instructions + self.idle;
        let (rip, decoder) = (self.state.rip, &mut self.decoder);
        let insn = self.code.fetch_or_decode(rip, || decode_at(decoder, mem, rip))?;
        let clock = matches!(insn.op, Op::Rdtsc | Op::Rdtscp);
        let tsc = if clock {
            let cycle = issue(&mut self.model, untimed, insn, None, None, false);
            tsc_at(&self.config, self.model.as_ref(), self.state.tsc_offset, cycle)
        } else {
            0
        };
        let mut cx = Ctx::new(&mut self.state, mem, tsc);
        let flow = execute(insn, &mut cx).map_err(|t| ExecError::from_trap(t, insn))?;
        let (load, store) = (cx.load, cx.store);
        let taken = matches!(flow, Flow::Jump(_));
        if !clock {
            issue(&mut self.model, untimed, insn, load, store, taken);
        }
        self.instructions += 1;
        if matches!(insn.op, Op::Nop | Op::Endbr64 | Op::Pause) {
            self.nops += 1;
        }
        self.state.rip = match flow {
            Flow::Jump(to) => to,
            Flow::Next | Flow::Halt => insn.next(),
        };
        Ok(match flow {
            Flow::Halt => StepEvent::Halt,
            _ if self.state.rip == self.config.sentinel => StepEvent::Sentinel,
            _ => StepEvent::Continue,
        })
    }

    fn pc(&self) -> u64 {
        self.state.rip
    }

    fn cycles(&self) -> u64 {
        match &self.model {
            Some(m) => m.now(),
            None => self.instructions + self.idle,
        }
    }

    fn instructions(&self) -> u64 {
        self.instructions
    }

    fn snapshot(&self, _mem: &Memory) -> Snapshot {
        crate::snapshot::capture(&self.state)
    }

    // The runner's view (issue 16): the inherent methods, through the trait.
    fn summary(&self) -> TimingSummary {
        X86Cpu::summary(self)
    }

    fn add_code(&mut self, addr: u64, bytes: &[u8]) {
        X86Cpu::add_code(self, addr, bytes);
    }

    fn set_entry(&mut self, addr: u64) {
        X86Cpu::set_entry(self, addr);
    }

    fn advance(&mut self, cycles: u64) {
        X86Cpu::advance(self, cycles);
    }

    fn counts(&self) -> emu_core::cpu::Counts {
        match &self.model {
            Some(m) => m.counts(),
            // One group per instruction, as the summary says.
            None => emu_core::cpu::Counts {
                cycles: self.cycles(),
                instructions: self.instructions,
                nops: self.nops,
                groups: self.instructions,
            },
        }
    }

    fn entry(&self) -> u64 {
        self.entry
    }

    // issue 17 (w7-x86): the block engine keeps the loop inside the CPU.
    fn run_until(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Result<Ran, RunError<ExecError>> {
        match self.engine {
            Engine::Block => self.run_blocks(mem, stop, until_pc),
            Engine::Step => {
                // The trait's default loop: one step at a time.
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
    }
}
