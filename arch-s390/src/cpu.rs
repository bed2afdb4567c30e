//! [`S390Cpu`]: the s390x core as the machine loop sees it. One step executes one instruction;
//! the timing model (when configured) issues it afterwards. The CPU timer and the TOD clock are
//! derived from the model's cycle clock (4096 units per µs at the configured frequency) and read
//! at the instruction's issue cycle. SVC and program interruptions swap PSWs through the lowcore
//! (at the prefix) when it is mapped; LPSWE reports [`StepEvent::Rfi`].

use emu_core::cpu::{Cpu, Ran, RanEnd, RunError, StepEvent, StopWhen};
use emu_core::memory::{MemFault, Memory};
use emu_core::snapshot::Snapshot;
use emu_core::timing::TimingSummary;
use thiserror::Error;

use crate::decode::{Insn, S390Decoder, MAX_INSN_LEN};
use crate::exec::{execute, pgm, Ctx, Flow, Trap};
use crate::state::S390State;
use crate::timing::{units_of, IssueInfo, S390Model, S390Params};
use emu_core::code_cache::CodeCache;

use crate::block::{Blocks, Engine};

/// Lowcore offsets the interruptions use (z/Architecture, prefix-relative).
pub mod lowcore {
    /// SVC interruption ILC (halfword).
    pub const SVC_ILC: u64 = 0x88;
    /// SVC interruption code (halfword).
    pub const SVC_CODE: u64 = 0x8a;
    /// Program interruption ILC (halfword).
    pub const PGM_ILC: u64 = 0x8c;
    /// Program interruption code (halfword).
    pub const PGM_CODE: u64 = 0x8e;
    /// External old PSW.
    pub const EXT_OLD_PSW: u64 = 0x130;
    /// SVC old PSW.
    pub const SVC_OLD_PSW: u64 = 0x140;
    /// Program old PSW.
    pub const PGM_OLD_PSW: u64 = 0x150;
    /// I/O old PSW.
    pub const IO_OLD_PSW: u64 = 0x170;
    /// SVC new PSW.
    pub const SVC_NEW_PSW: u64 = 0x1c0;
    /// Program new PSW.
    pub const PGM_NEW_PSW: u64 = 0x1d0;
}

/// How the CPU is set up.
#[derive(Debug, Clone)]
pub struct CpuConfig {
    /// Reaching this address ends the path.
    pub sentinel: u64,
    /// Timing parameters; `None` counts one cycle per instruction.
    pub timing: Option<S390Params>,
    /// Frequency for the clocks when there is no timing model (MHz).
    pub freq_mhz: u64,
}

impl Default for CpuConfig {
    /// Sentinel 0, no timing model, z13's 5000 MHz for the clocks.
    fn default() -> CpuConfig {
        CpuConfig { sentinel: 0, timing: None, freq_mhz: S390Params::default().freq_mhz }
    }
}

/// An emulator failure, naming the instruction and its address.
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
    /// Not in the supported subset.
    #[error("unsupported instruction `{name}` (bytes {bytes}) at {addr:#x}")]
    Unsupported {
        /// Instruction address.
        addr: u64,
        /// Own mnemonic ("?" for opcodes outside the table).
        name: String,
        /// Hex bytes.
        bytes: String,
    },
    /// Bytes that are no instruction acctemu's opcode table knows; first byte 0x00 is not
    /// assigned in z/Architecture at all (a jump into zeroed memory, usually).
    #[error(
        "invalid instruction at {addr:#x}: bytes {bytes} are {}; the machine would raise an operation exception (program-interruption code 0x0001), which acctemu does not model",
        if bytes.starts_with("00") { "an undefined s390x opcode (0x00 is not assigned)" } else { "not an s390x opcode acctemu knows" }
    )]
    Invalid {
        /// Instruction address.
        addr: u64,
        /// Hex bytes.
        bytes: String,
    },
    /// A data access faulted.
    #[error("`{name}` (bytes {bytes}) at {addr:#x}: {fault}")]
    Memory {
        /// Instruction address.
        addr: u64,
        /// Own mnemonic.
        name: String,
        /// Hex bytes.
        bytes: String,
        /// The fault.
        fault: MemFault,
    },
}

impl ExecError {
    /// The address of the failing instruction.
    pub fn addr(&self) -> u64 {
        match self {
            ExecError::Fetch { addr, .. }
            | ExecError::Unsupported { addr, .. }
            | ExecError::Invalid { addr, .. }
            | ExecError::Memory { addr, .. } => *addr,
        }
    }

    pub(crate) fn from_trap(trap: Trap, i: &Insn) -> ExecError {
        let (addr, name, bytes) = (i.addr, i.name.to_string(), i.hex());
        match trap {
            Trap::Mem(fault) => ExecError::Memory { addr, name, bytes, fault },
            Trap::Unsupported if !i.known => ExecError::Invalid { addr, bytes },
            Trap::Unsupported => ExecError::Unsupported { addr, name, bytes },
        }
    }
}

/// The s390x core.
pub struct S390Cpu {
    /// Architectural state.
    pub state: S390State,
    pub(crate) config: CpuConfig,
    pub(crate) decoder: S390Decoder,
    pub(crate) code: CodeCache<Insn>,
    pub(crate) model: Option<S390Model>,
    pub(crate) instructions: u64,
    pub(crate) idle: u64,
    /// How `run_until` runs (issue 17).
    engine: Engine,
    /// The block engine's blocks (issue 17).
    pub(crate) blocks: Blocks,
    /// The last [`S390Cpu::set_entry`] address (issue 16).
    entry: u64,
    /// The last program-interruption code raised (0 if none).
    pub last_program_code: u16,
}

impl std::fmt::Debug for S390Cpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S390Cpu")
            .field("state", &self.state)
            .field("config", &self.config)
            .field("decoded", &self.code.len())
            .field("blocks", &self.blocks.len())
            .field("instructions", &self.instructions)
            .finish_non_exhaustive()
    }
}

impl S390Cpu {
    /// A core with zeroed registers, supervisor state, no decoded code.
    pub fn new(config: CpuConfig) -> S390Cpu {
        let model = config.timing.clone().map(S390Model::new);
        S390Cpu {
            state: S390State::default(),
            config,
            decoder: S390Decoder::new(),
            code: CodeCache::default(),
            model,
            instructions: 0,
            idle: 0,
            entry: 0,
            last_program_code: 0,
            engine: Engine::default(),
            blocks: Blocks::default(),
        }
    }

    /// Chooses how [`Cpu::run_until`] runs: blocks (the default) or the reference steps
    /// (issue 17: the differential test runs both).
    pub fn set_engine(&mut self, engine: Engine) {
        self.engine = engine;
    }

    /// Block runs the block engine timed in one step, and block runs it timed per
    /// instruction from an entry state not seen before (issue 17: the differential test
    /// checks it reaches both).
    pub fn block_timing_counts(&self) -> (u64, u64) {
        self.blocks.timing_counts()
    }

    /// How [`Cpu::run_until`] runs.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Decodes a code section once.
    pub fn add_code(&mut self, addr: u64, bytes: &[u8]) {
        let decoded = self.decoder.decode_all(addr, bytes).into_iter().map(|insn| (insn.addr, insn));
        self.code.add_section(addr, bytes.len(), decoded);
    }

    /// The decoded instruction at `addr`, if any.
    pub fn insn_at(&self, addr: u64) -> Option<&Insn> {
        self.code.get(addr)
    }

    /// Starts execution at `addr`.
    pub fn set_entry(&mut self, addr: u64) {
        self.entry = addr;
        self.state.psw_addr = addr;
    }

    /// Lets `cycles` pass without executing.
    pub fn advance(&mut self, cycles: u64) {
        match &mut self.model {
            Some(m) => m.advance(cycles),
            None => self.idle += cycles,
        }
    }

    /// Starts or stops recording the timing model's timeline (issue 16; no model, no timeline).
    pub fn record_timeline(&mut self, on: bool) {
        if let Some(m) = &mut self.model {
            m.set_timeline(on);
        }
    }

    /// The timing model, when it runs.
    pub fn model(&self) -> Option<&S390Model> {
        self.model.as_ref()
    }

    /// The clocks' frequency in MHz.
    pub fn freq_mhz(&self) -> u64 {
        self.model.as_ref().map_or(self.config.freq_mhz, |m| m.params().freq_mhz)
    }

    /// The CPU timer at the current cycle (counts down).
    pub fn cpu_timer(&self) -> u64 {
        self.state.cpu_timer_base.wrapping_sub(units_of(self.cycles(), self.freq_mhz()))
    }

    /// Sets the CPU timer to `v` at the current cycle.
    pub fn set_cpu_timer(&mut self, v: u64) {
        self.state.cpu_timer_base = v.wrapping_add(units_of(self.cycles(), self.freq_mhz()));
    }

    /// The TOD clock at the current cycle (counts up).
    pub fn tod(&self) -> u64 {
        self.state.tod_base.wrapping_add(units_of(self.cycles(), self.freq_mhz()))
    }

    /// Cycle, instruction and stall totals.
    pub fn summary(&self) -> TimingSummary {
        match &self.model {
            Some(m) => m.summary(),
            None => TimingSummary {
                cycles: self.cycles(),
                instructions: self.instructions,
                groups: self.instructions,
                ..TimingSummary::default()
            },
        }
    }

    /// Stores the old PSW and the code at the prefix and loads the new PSW, when the lowcore is
    /// mapped; otherwise the PSW just moves to `next` (the instruction after the one that
    /// raised it, `len` bytes long).
    fn interrupt(&mut self, mem: &mut Memory, next: u64, len: u8, slots: Slots, code: u16) {
        let Slots { old, new, ilc: ilc_at } = slots;
        let p = self.state.prefix;
        let mask = self.state.full_psw_mask();
        let swapped = mem.write_u64(p + old, mask).is_ok()
            && mem.write_u64(p + old + 8, next).is_ok()
            && mem.write_u16(p + ilc_at, u16::from(len)).is_ok()
            && mem.write_u16(p + ilc_at + 2, code).is_ok();
        let loaded = match (mem.read_u64(p + new), mem.read_u64(p + new + 8)) {
            (Ok(m), Ok(a)) if swapped => Some((m, a)),
            _ => None,
        };
        match loaded {
            Some((m, a)) => {
                self.state.set_full_psw_mask(m);
                self.state.psw_addr = a;
            }
            None => self.state.psw_addr = next,
        }
    }

    /// Moves the PSW on after an instruction that ended with `flow` (`next`: the address
    /// after it, `len` bytes long), delivering interruptions, and names the event; a run
    /// reaching the sentinel reports it.
    pub(crate) fn complete(&mut self, mem: &mut Memory, flow: Flow, next: u64, len: u8) -> StepEvent {
        let event = match flow {
            Flow::Next => {
                self.state.psw_addr = next;
                StepEvent::Continue
            }
            Flow::Jump(to) => {
                self.state.psw_addr = to;
                StepEvent::Continue
            }
            Flow::Svc(n) => {
                self.interrupt(mem, next, len, SVC_SLOTS, u16::from(n));
                StepEvent::Interruption { vector: lowcore::SVC_NEW_PSW, name: "svc" }
            }
            Flow::Program(code) => {
                self.last_program_code = code;
                self.interrupt(mem, next, len, PGM_SLOTS, code);
                StepEvent::Interruption { vector: lowcore::PGM_NEW_PSW, name: program_name(code) }
            }
            Flow::Lpswe(mask, addr) => {
                self.state.set_full_psw_mask(mask);
                self.state.psw_addr = addr;
                StepEvent::Rfi
            }
        };
        if event == StepEvent::Continue && self.state.psw_addr == self.config.sentinel {
            return StepEvent::Sentinel;
        }
        event
    }
}

/// The lowcore doublewords one interruption class uses: old PSW, new PSW, and the
/// interruption length/code word.
#[derive(Debug, Clone, Copy)]
struct Slots {
    old: u64,
    new: u64,
    ilc: u64,
}

const SVC_SLOTS: Slots = Slots { old: lowcore::SVC_OLD_PSW, new: lowcore::SVC_NEW_PSW, ilc: lowcore::SVC_ILC };
const PGM_SLOTS: Slots = Slots { old: lowcore::PGM_OLD_PSW, new: lowcore::PGM_NEW_PSW, ilc: lowcore::PGM_ILC };

/// Decodes the instruction at `pc` from memory (execution reached code no section held).
pub(crate) fn decode_at(decoder: &mut S390Decoder, mem: &Memory, pc: u64) -> Result<Insn, ExecError> {
    let mut buf = [0u8; MAX_INSN_LEN];
    let n = mem.fetch_upto(pc, &mut buf).map_err(|fault| ExecError::Fetch { addr: pc, fault })?;
    Ok(decoder.decode_one(pc, buf.get(..n).unwrap_or(&[])))
}

fn program_name(code: u16) -> &'static str {
    match code {
        pgm::PRIVILEGED => "privileged-operation",
        pgm::FIXED_DIVIDE => "fixed-point-divide",
        pgm::SPECIFICATION => "specification",
        _ => "program",
    }
}

impl Cpu for S390Cpu {
    type Error = ExecError;

    fn step(&mut self, mem: &mut Memory) -> Result<StepEvent, ExecError> {
        let (pc, decoder) = (self.state.psw_addr, &mut self.decoder);
        let insn = self.code.fetch_or_decode(pc, || decode_at(decoder, mem, pc))?;
        let (next, len) = (insn.next(), insn.len);
        let flow = if insn.privileged && self.state.problem_state() {
            Flow::Program(pgm::PRIVILEGED)
        } else {
            // The clocks as of this instruction's issue: only the timer instructions read them,
            // and each costs a 128-bit division.
            let units = if insn.reads_clocks {
                let cycles = match &self.model {
                    Some(m) => m.now(),
                    None => self.instructions + self.idle,
                };
                let freq = self.model.as_ref().map_or(self.config.freq_mhz, |m| m.params().freq_mhz);
                units_of(cycles, freq)
            } else {
                0
            };
            let timer = self.state.cpu_timer_base.wrapping_sub(units);
            let tod = self.state.tod_base.wrapping_add(units);
            let mut cx = Ctx::new(&mut self.state, mem, timer, tod);
            let flow = execute(insn, &mut cx).map_err(|t| ExecError::from_trap(t, insn))?;
            let (spt, ss_len) = (cx.set_cpu_timer, cx.ss_len);
            // SPT sets the timer as of the current cycle, before this instruction issues.
            if let Some(v) = spt {
                self.state.cpu_timer_base = v.wrapping_add(units);
            }
            if let Some(m) = &mut self.model {
                let taken = matches!(flow, Flow::Jump(_));
                m.issue(&IssueInfo::of(insn, taken, ss_len));
                if m.timeline().is_some() {
                    m.label_last(insn.addr, insn.name.to_string());
                }
            }
            flow
        };
        self.instructions += 1;
        Ok(self.complete(mem, flow, next, len))
    }

    fn pc(&self) -> u64 {
        self.state.psw_addr
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
        S390Cpu::summary(self)
    }

    fn add_code(&mut self, addr: u64, bytes: &[u8]) {
        S390Cpu::add_code(self, addr, bytes);
    }

    fn set_entry(&mut self, addr: u64) {
        S390Cpu::set_entry(self, addr);
    }

    fn advance(&mut self, cycles: u64) {
        S390Cpu::advance(self, cycles);
    }

    fn counts(&self) -> emu_core::cpu::Counts {
        match &self.model {
            Some(m) => m.counts(self.instructions),
            None => emu_core::cpu::Counts {
                cycles: self.cycles(),
                instructions: self.instructions,
                nops: 0,
                groups: self.instructions,
            },
        }
    }

    fn entry(&self) -> u64 {
        self.entry
    }

    // issue 17 (w7-s390): the block engine, or the reference steps.
    fn run_until(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Result<Ran, RunError<ExecError>> {
        if self.engine == Engine::Blocks {
            return self.run_blocks(mem, stop, until_pc);
        }
        let mut executed = 0u64;
        while executed < stop.max_insns {
            let pc = self.state.psw_addr;
            let event = self.step(mem).map_err(|error| RunError { error, executed })?;
            executed += 1;
            if let Some(end) = Ran::after_step(event, pc, self.state.psw_addr, stop, until_pc) {
                return Ok(Ran { executed, end });
            }
        }
        Ok(Ran { executed, end: RanEnd::Budget })
    }
}
