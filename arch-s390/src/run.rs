//! Running s390x code: an ELF object (undefined data symbols get zeroed slots), a harness
//! (given or the default), register overrides, and the machine loop; the result is a
//! [`RunReport`]. Calls follow the s390x ELF ABI: arguments in r2..r6, the result in r2, the
//! return address in r14 ([`SENTINEL`], so the function's `br %r14` ends the run) and r15 the
//! stack pointer with the caller's 160-byte register save area above it.

use emu_core::cpu::{Machine, StopReason, StopWhen};
use emu_core::elf::ElfError;
use emu_core::error::Diagnostic;
use emu_core::harness::Harness;
use emu_core::image::{Image, SectionKind};
use emu_core::memory::Endian;
use emu_core::report::RunReport;
use emu_core::setup::{error_at, SetupRequest};

use crate::cpu::{CpuConfig, ExecError, S390Cpu};
use crate::reloc::S390Relocations;
use crate::state::{psw, GPR_NAMES};
use crate::timing::S390Params;

pub use emu_core::setup::{EXTERN_BASE, EXTERN_SLOT, SENTINEL, STACK_BASE, STACK_SIZE};

/// The ABI's register save area the caller provides above the stack pointer.
pub const SAVE_AREA: u64 = 160;

/// The harness used when none is given: a 64 KiB stack (r15 = top - 160, the caller's save
/// area), r14 = the sentinel, and a zeroed 64 KiB data region for pointer arguments.
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
r15 = "stack.top-160"
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
    /// The timing model's generation preset ([`S390Params::preset`]; default z13).
    pub model: S390Params,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            entry: None,
            harness: None,
            sets: Vec::new(),
            max_insns: 1_000_000,
            timing: true,
            model: S390Params::default(),
        }
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

/// Loads an s390x ELF object; each undefined symbol gets a zeroed [`EXTERN_SLOT`]-byte slot in
/// an `.externals` section at [`EXTERN_BASE`].
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object(bytes: &[u8]) -> Result<Image, ElfError> {
    load_object_with(bytes, &|_| None)
}

/// Like [`load_object`], resolving undefined symbols through `known` first.
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object_with(bytes: &[u8], known: &dyn Fn(&str) -> Option<u64>) -> Result<Image, ElfError> {
    emu_core::elf::load_with_extern_slots(bytes, &S390Relocations, known, EXTERN_BASE, EXTERN_SLOT)
}

/// Builds a machine for `image` as `cfg` says, ready at its entry point with r14 = the
/// sentinel and r15 = stack top - 160 (unless the harness or an override sets them).
///
/// # Errors
/// Harness, override and entry errors.
pub fn prepare(image: &Image, cfg: &RunConfig) -> Result<(Machine<S390Cpu>, Harness), RunError> {
    let setup = emu_core::setup::prepare(&SetupRequest {
        image,
        harness: cfg.harness.as_ref(),
        default_harness: DEFAULT_HARNESS,
        endian: Endian::Big,
        sentinel: SENTINEL,
        sets: &cfg.sets,
        entry: cfg.entry.as_deref(),
        default_stack: Some((STACK_BASE, STACK_SIZE)),
        status_register: "psw_mask",
        cpl_refusal: "the s390x core has no privilege levels; set the problem-state bit (15) in psw_mask",
    })
    .map_err(RunError::Setup)?;
    let config =
        CpuConfig { sentinel: SENTINEL, timing: cfg.timing.then(|| cfg.model.clone()), ..CpuConfig::default() };
    let mut cpu = S390Cpu::new(config);
    for s in image.sections.iter().filter(|s| s.kind == SectionKind::Code) {
        cpu.add_code(s.addr, &s.data);
    }
    cpu.state.set_reg(14, SENTINEL);
    cpu.state.set_reg(15, STACK_BASE + STACK_SIZE - SAVE_AREA);
    // Its clocks start at modelled time zero, so only `itc = 0` means what it says.
    if let Some(itc) = setup.harness.itc.filter(|itc| *itc != 0) {
        let msg =
            format!("itc = {itc}: the s390x core's cycle count starts at 0; set `tod` or `cpu_timer` in [registers]");
        return Err(RunError::Setup(error_at(setup.harness.itc_origin.as_ref(), msg)));
    }
    // The entry first, so a `psw_addr` the harness or the command line gives is the one that runs.
    cpu.set_entry(setup.entry);
    for r in &setup.registers {
        set_register(&mut cpu, &r.name, r.value).map_err(|m| RunError::Setup(r.error(m)))?;
    }
    Ok((Machine::new(cpu, setup.mem), setup.harness))
}

/// Sets a register by name: r0..r15, psw_mask (CC included), psw_addr, cc, prefix, cpu_timer
/// (its value now), tod (its value now).
///
/// # Errors
/// An unknown name.
pub fn set_register(cpu: &mut S390Cpu, name: &str, v: u64) -> Result<(), String> {
    if let Some(n) = GPR_NAMES.iter().position(|g| *g == name) {
        cpu.state.set_reg(n as u8, v);
        return Ok(());
    }
    match name {
        "psw_mask" | "psw.mask" => cpu.state.set_full_psw_mask(checked_psw_mask(v)?),
        "psw_addr" | "psw.addr" => cpu.state.psw_addr = v,
        "cc" => cpu.state.cc = u8::try_from(v).ok().filter(|cc| *cc <= 3).ok_or(format!("cc {v:#x} is not 0 to 3"))?,
        "prefix" if v & !PREFIX_BITS != 0 => {
            return Err(format!("prefix {v:#x} is not a multiple of 8 KiB below 2^31"));
        }
        "prefix" => cpu.state.prefix = v,
        "cpu_timer" => cpu.set_cpu_timer(v),
        "tod" => cpu.state.tod_base = v,
        _ => return Err(format!("unknown register `{name}`")),
    }
    Ok(())
}

/// The PSW mask bits z/Architecture defines (bit 0 the most significant): PER (1), DAT,
/// I/O, external (5-7), key (8-11), machine check, wait, problem state (13-15), address
/// space (16-17), condition code (18-19), program mask (20-23), EA (31), BA (32). Any other
/// makes LPSWE a specification exception.
const PSW_MASK_DEFINED: u64 = 0x47f7_ff01_8000_0000;

/// The prefix register's address bits: a multiple of 8 KiB below 2^31.
const PREFIX_BITS: u64 = 0x7fff_e000;

/// `v` for the PSW mask, refused if it sets a bit the architecture reserves, or asks for
/// 24- or 31-bit addressing, which the core does not model (it always addresses in 64 bits).
fn checked_psw_mask(v: u64) -> Result<u64, String> {
    let reserved = v & !PSW_MASK_DEFINED;
    if reserved != 0 {
        return Err(format!("psw_mask {v:#x} sets reserved bits {reserved:#x}"));
    }
    if v & (psw::EA | psw::BA) != psw::EA | psw::BA {
        return Err(format!(
            "psw_mask {v:#x} is not 64-bit addressing (EA and BA, bits 31-32, both set): the only mode the core runs"
        ));
    }
    Ok(v)
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
    machine: &Machine<S390Cpu>,
    harness: &Harness,
    stop: String,
) -> Result<RunReport, RunError> {
    let (snapshot, summary) = (machine.snapshot(), machine.cpu.summary());
    emu_core::setup::run_report(image, harness, SENTINEL, &machine.mem, snapshot, summary, stop)
        .map_err(RunError::Setup)
}
