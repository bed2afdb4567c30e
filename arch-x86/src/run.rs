//! Running x86-64 code: an ELF object (undefined data symbols get zeroed slots), a harness
//! (given or the default), register overrides, and the machine loop; the result is a
//! [`RunReport`]. Calls follow the SysV ABI: arguments in rdi, rsi, rdx, rcx, r8, r9, the
//! result in rax, and the return address on top of the stack; the default harness's return
//! address is [`SENTINEL`], so the function's `ret` ends the run.

use emu_core::cpu::{Machine, StopReason, StopWhen};
use emu_core::elf::ElfError;
use emu_core::error::Diagnostic;
use emu_core::harness::Harness;
use emu_core::image::{Image, SectionKind};
use emu_core::memory::Endian;
use emu_core::report::RunReport;
use emu_core::setup::{Setup, SetupRequest};

use crate::cpu::{CpuConfig, ExecError, X86Cpu};
use crate::reloc::X86Relocations;
use crate::state::GPR_NAMES;
use crate::timing::X86Params;

pub use emu_core::setup::{EXTERN_BASE, EXTERN_SLOT, SENTINEL, STACK_BASE, STACK_SIZE};

/// The harness used when none is given: a 64 KiB stack whose top holds the sentinel
/// return address (rsp = top - 8, so rsp + 8 is 16-byte aligned as at any SysV call), and
/// a zeroed 64 KiB data region for pointer arguments (`--set rdi=data`).
pub const DEFAULT_HARNESS: &str = r#"
[[region]]
name = "stack"
base = "0x0000000070000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "data"
base = "0x0000000071000000"
size = "0x10000"
perms = "rw"

[registers]
rsp = "stack.top-8"
"#;

/// How to run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// Entry symbol (else the harness's, else the start of `.text`).
    pub entry: Option<String>,
    /// The harness (else [`DEFAULT_HARNESS`]).
    pub harness: Option<Harness>,
    /// Register overrides `(name, value expression)` applied after the harness.
    pub sets: Vec<(String, String)>,
    /// Instruction budget.
    pub max_insns: u64,
    /// Use the timing model (else one cycle per instruction).
    pub timing: bool,
    /// TSC ticks per modelled cycle, numerator / denominator (else the timing parameters').
    pub tsc_ratio: Option<(u64, u64)>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { entry: None, harness: None, sets: Vec::new(), max_insns: 1_000_000, timing: true, tsc_ratio: None }
    }
}

/// Why a run could not be set up or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The object did not load.
    #[error("{0}")]
    Elf(#[from] ElfError),
    /// The harness, an override or the entry is wrong.
    #[error("{0}")]
    Setup(Diagnostic),
    /// Execution failed.
    #[error("{error} (after {executed} instructions)")]
    Exec {
        /// What failed.
        error: ExecError,
        /// Instructions executed before it.
        executed: u64,
    },
}

fn setup_error(msg: impl Into<String>) -> RunError {
    RunError::Setup(emu_core::setup::setup_error(msg))
}

/// Loads an x86-64 ELF object; each undefined symbol gets a zeroed [`EXTERN_SLOT`]-byte
/// slot in an `.externals` section at [`EXTERN_BASE`], listed in the image's symbols.
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object(bytes: &[u8]) -> Result<Image, ElfError> {
    load_object_with(bytes, &|_| None)
}

/// Like [`load_object`], resolving undefined symbols through `known` first (a harness's regions
/// and symbols: `jiffies`, `cpu_tsc`, ...); only the rest get slots.
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object_with(bytes: &[u8], known: &dyn Fn(&str) -> Option<u64>) -> Result<Image, ElfError> {
    emu_core::elf::load_with_extern_slots(bytes, &X86Relocations, known, EXTERN_BASE, EXTERN_SLOT)
}

/// Builds a machine for `image` as `cfg` says, ready at its entry point with the return
/// address on the stack.
///
/// # Errors
/// Harness, override and entry errors.
pub fn prepare(image: &Image, cfg: &RunConfig) -> Result<(Machine<X86Cpu>, Harness), RunError> {
    let setup = emu_core::setup::prepare(&SetupRequest {
        image,
        harness: cfg.harness.as_ref(),
        default_harness: DEFAULT_HARNESS,
        endian: Endian::Little,
        sentinel: SENTINEL,
        sets: &cfg.sets,
        entry: cfg.entry.as_deref(),
        // A harness that brings no stack gets the default one, so the C under test can call
        // and return (the traces' harnesses describe only the data the C reaches).
        default_stack: Some((STACK_BASE, STACK_SIZE)),
        status_register: "rflags",
        cpl_refusal: "the x86-64 core models privilege level 0 only",
    })
    .map_err(RunError::Setup)?;
    let config =
        CpuConfig { sentinel: SENTINEL, timing: cfg.timing.then(X86Params::default), tsc_ratio: cfg.tsc_ratio };
    let mut cpu = X86Cpu::new(config);
    for s in image.sections.iter().filter(|s| s.kind == SectionKind::Code) {
        cpu.add_code(s.addr, &s.data);
    }
    if let Some(itc) = setup.harness.itc {
        cpu.state.tsc_offset = itc;
    }
    // The entry first, so a `rip` the harness or the command line gives is the one that runs.
    cpu.set_entry(setup.entry);
    for r in &setup.registers {
        set_register(&mut cpu, &r.name, r.value).map_err(|m| RunError::Setup(r.error(m)))?;
    }
    if setup.default_stack && !setup.sets("rsp") {
        cpu.state.set_reg(4, STACK_BASE + STACK_SIZE - 8);
    }
    let Setup { harness, mut mem, .. } = setup;
    let rsp = cpu.state.reg(4);
    mem.write_u64(rsp, SENTINEL)
        .map_err(|e| setup_error(format!("cannot store the return address at rsp = {rsp:#x}: {e}")))?;
    Ok((Machine::new(cpu, mem), harness))
}

/// Sets a register by name: rax..r15, rip, rflags (or eflags), fs_base, gs_base,
/// tsc_offset, tsc_aux.
///
/// # Errors
/// An unknown name.
pub fn set_register(cpu: &mut X86Cpu, name: &str, v: u64) -> Result<(), String> {
    if let Some(n) = GPR_NAMES.iter().position(|g| *g == name) {
        cpu.state.set_reg(n as u8, v);
        return Ok(());
    }
    let st = &mut cpu.state;
    match name {
        "rip" => st.rip = v,
        "rflags" | "eflags" => st.rflags = checked_rflags(name, v)? | crate::state::flags::RESERVED1,
        "fs_base" | "gs_base" if !is_canonical(v) => {
            return Err(format!("{name} {v:#x} is not canonical (bits 47-63 differ); wrmsr would fault"))
        }
        "fs_base" => st.fs_base = v,
        "gs_base" => st.gs_base = v,
        "tsc_offset" => st.tsc_offset = v,
        "tsc_aux" => st.tsc_aux = u32::try_from(v).map_err(|_| format!("tsc_aux {v:#x} is wider than 32 bits"))?,
        _ => return Err(format!("unknown register `{name}`")),
    }
    Ok(())
}

/// The RFLAGS bits the architecture defines: CF, bit 1 (always 1), PF, AF, ZF, SF, TF, IF,
/// DF, OF, IOPL, NT, RF, VM, AC, VIF, VIP, ID. Bits 3, 5, 15 and 22-63 are reserved.
const RFLAGS_DEFINED: u64 = 0x3f_7fd7;

/// `v` for `rflags` (or `eflags`, 32 bits), refused if it sets a reserved bit: popf and iret
/// would keep them clear, so the value would not be the one that runs.
fn checked_rflags(name: &str, v: u64) -> Result<u64, String> {
    if name == "eflags" && v > u64::from(u32::MAX) {
        return Err(format!("eflags {v:#x} is wider than 32 bits"));
    }
    match v & !RFLAGS_DEFINED {
        0 => Ok(v),
        reserved => Err(format!("{name} {v:#x} sets reserved bits {reserved:#x}")),
    }
}

/// Whether `v` is a canonical 48-bit address (bits 47-63 all equal).
fn is_canonical(v: u64) -> bool {
    let high = v >> 47;
    high == 0 || high == (1 << 17) - 1
}

/// Runs `image` as `cfg` says.
///
/// # Errors
/// Setup and execution errors.
pub fn run_image(image: &Image, cfg: &RunConfig) -> Result<RunReport, RunError> {
    run_image_until(image, cfg).map(|(report, _)| report)
}

/// Runs `image` as `cfg` says, and tells how the run stopped (whether the code reached its
/// expected end is the caller's question: the command line maps it onto an exit status).
///
/// # Errors
/// Setup and execution errors.
pub fn run_image_until(image: &Image, cfg: &RunConfig) -> Result<(RunReport, StopReason), RunError> {
    let (mut machine, harness) = prepare(image, cfg)?;
    let stop = StopWhen { on_sentinel: true, on_rfi: true, on_interruption: true, max_insns: cfg.max_insns };
    let reason = machine.run(&stop).map_err(|e| RunError::Exec { error: e.error, executed: e.executed })?;
    Ok((report(image, &machine, &harness, reason.to_string())?, reason))
}

/// Loads `bytes` as an object and runs it.
///
/// # Errors
/// Load, setup and execution errors.
pub fn run_object(bytes: &[u8], cfg: &RunConfig) -> Result<RunReport, RunError> {
    let image = load_object(bytes)?;
    run_image(&image, cfg)
}

/// The report of a finished machine.
///
/// # Errors
/// A counter that cannot be read.
pub fn report(
    image: &Image,
    machine: &Machine<X86Cpu>,
    harness: &Harness,
    stop: String,
) -> Result<RunReport, RunError> {
    let (snapshot, summary) = (machine.snapshot(), machine.cpu.summary());
    emu_core::setup::run_report(image, harness, SENTINEL, &machine.mem, snapshot, summary, stop)
        .map_err(RunError::Setup)
}
