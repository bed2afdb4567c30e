//! Running s390x code: an ELF object (undefined data symbols get zeroed slots), a harness
//! (given or the default), register overrides, and the machine loop; the result is a
//! [`emu_core::report::RunReport`]. Calls follow the s390x ELF ABI: arguments in r2..r6, the result in r2, the
//! return address in r14 ([`SENTINEL`], so the function's `br %r14` ends the run) and r15 the
//! stack pointer with the caller's 160-byte register save area above it.

use emu_core::elf::ElfError;
use emu_core::elf::Relocations;
use emu_core::error::Diagnostic;
use emu_core::image::Image;
use emu_core::memory::{Endian, Memory};
use emu_core::run::StandardSetup;
use emu_core::setup::{error_at, Setup};

use crate::cpu::{CpuConfig, ExecError, S390Cpu};
use crate::reloc::S390Relocations;
use crate::state::{psw, GPR_NAMES};
use crate::timing::S390Params;

pub use emu_core::setup::{EXTERN_BASE, EXTERN_SLOT, SENTINEL, STACK_BASE, STACK_SIZE};

/// The ABI's register save area the caller provides above the stack pointer.
pub const SAVE_AREA: u64 = 160;

/// The harness used when none is given: a 64 KiB stack (r15 = top - 160, the caller's save
/// area), r14 = the sentinel, and a zeroed 64 KiB data region for pointer arguments.
pub const DEFAULT_HARNESS: &str = emu_core::standard_harness!("r15 = \"stack.top-160\"\n");

/// How to run on the s390x core.
pub type RunConfig = emu_core::run::RunConfig<S390Cpu>;

/// Why an s390x run could not be set up or did not finish.
pub type RunError = emu_core::run::RunError<ExecError>;

pub use emu_core::run::{prepare, report, run_image, run_image_until, run_object};

/// The s390x core's own run options.
#[derive(Debug, Clone, Default)]
pub struct S390Options {
    /// The timing model's generation preset ([`S390Params::preset`]; default z13).
    pub model: S390Params,
}

/// Loads an object: [`ObjectCore::load_object_with`] with no symbols known.
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object(bytes: &[u8]) -> Result<Image, ElfError> {
    S390Cpu::load_object_with(bytes, &|_| None)
}

pub use emu_core::run::ObjectCore;

/// [`ObjectCore::load_object_with`] for this core.
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object_with(bytes: &[u8], known: &dyn Fn(&str) -> Option<u64>) -> Result<Image, ElfError> {
    S390Cpu::load_object_with(bytes, known)
}

impl ObjectCore for S390Cpu {
    const RELOCATIONS: &'static dyn Relocations = &S390Relocations;
}

impl StandardSetup for S390Cpu {
    type Options = S390Options;
    const DEFAULT_HARNESS: &'static str = DEFAULT_HARNESS;
    const ENDIAN: Endian = Endian::Big;
    const STATUS_REGISTER: Option<&'static str> = Some("psw_mask");
    const CPL_REFUSAL: Option<&'static str> =
        Some("the s390x core has no privilege levels; set the problem-state bit (15) in psw_mask");

    /// A CPU with r14 = the sentinel and r15 = stack top - 160 (unless the harness or an
    /// override sets them).
    fn new_cpu(cfg: &RunConfig) -> S390Cpu {
        let timing = cfg.timing.then(|| cfg.options.model.clone());
        let mut cpu = S390Cpu::new(CpuConfig { sentinel: SENTINEL, timing, ..CpuConfig::default() });
        cpu.state.set_reg(14, SENTINEL);
        cpu.state.set_reg(15, STACK_BASE + STACK_SIZE - SAVE_AREA);
        cpu.record_timeline(cfg.timeline);
        cpu
    }

    /// Its clocks start at modelled time zero, so only `itc = 0` means what it says.
    fn start(&mut self, _image: &Image, setup: &Setup) -> Result<(), Diagnostic> {
        match setup.harness.itc.filter(|itc| *itc != 0) {
            Some(itc) => {
                let msg = format!(
                    "itc = {itc}: the s390x core's cycle count starts at 0; set `tod` or `cpu_timer` in [registers]"
                );
                Err(error_at(setup.harness.itc_origin.as_ref(), msg))
            }
            None => Ok(()),
        }
    }

    fn set_register(&mut self, _mem: &mut Memory, name: &str, value: u64) -> Result<(), String> {
        set_register(self, name, value)
    }

    fn timeline(&self) -> Option<&emu_core::timing::Timeline> {
        self.model().and_then(crate::timing::S390Model::timeline)
    }
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
