//! Running x86-64 code: an ELF object (undefined data symbols get zeroed slots), a harness
//! (given or the default), register overrides, and the machine loop; the result is a
//! [`emu_core::report::RunReport`]. Calls follow the SysV ABI: arguments in rdi, rsi, rdx, rcx, r8, r9, the
//! result in rax, and the return address on top of the stack; the default harness's return
//! address is [`SENTINEL`], so the function's `ret` ends the run.

use emu_core::elf::ElfError;
use emu_core::elf::Relocations;
use emu_core::error::Diagnostic;
use emu_core::image::Image;
use emu_core::memory::{Endian, Memory};
use emu_core::run::StandardSetup;
use emu_core::setup::Setup;

use crate::cpu::{CpuConfig, ExecError, X86Cpu};
use crate::reloc::X86Relocations;
use crate::state::GPR_NAMES;
use crate::timing::X86Params;

pub use emu_core::setup::{EXTERN_BASE, EXTERN_SLOT, SENTINEL, STACK_BASE, STACK_SIZE};

/// The harness used when none is given: a 64 KiB stack whose top holds the sentinel
/// return address (rsp = top - 8, so rsp + 8 is 16-byte aligned as at any SysV call), and
/// a zeroed 64 KiB data region for pointer arguments (`--set rdi=data`).
pub const DEFAULT_HARNESS: &str = emu_core::standard_harness!("rsp = \"stack.top-8\"\n");

/// How to run on the x86-64 core.
pub type RunConfig = emu_core::run::RunConfig<X86Cpu>;

/// Why an x86-64 run could not be set up or did not finish.
pub type RunError = emu_core::run::RunError<ExecError>;

pub use emu_core::run::{prepare, report, run_image, run_image_until, run_object};

/// The x86-64 core's own run options.
#[derive(Debug, Clone, Default)]
pub struct X86Options {
    /// TSC ticks per modelled cycle, numerator / denominator (else the timing parameters').
    pub tsc_ratio: Option<(u64, u64)>,
    /// The timing model's preset ([`X86Params::preset`], `--model`; default Zen 4).
    pub model: X86Params,
}

/// The table `--explain-model` prints for x86-64: the preset `model` names (`--model`), else
/// the default one.
///
/// # Errors
/// A name that is not one of [`crate::timing::PRESETS`], in words.
pub fn explain_model(model: Option<&str>) -> Result<String, String> {
    let params = match model {
        Some(name) => X86Params::preset(name).ok_or_else(|| {
            format!("--model {name}: no such x86-64 timing model (known: {})", crate::timing::PRESETS.join(", "))
        })?,
        None => X86Params::default(),
    };
    Ok(params.explain_model())
}

/// Loads an object: [`ObjectCore::load_object_with`] with no symbols known.
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object(bytes: &[u8]) -> Result<Image, ElfError> {
    X86Cpu::load_object_with(bytes, &|_| None)
}

pub use emu_core::run::ObjectCore;

/// [`ObjectCore::load_object_with`] for this core.
///
/// # Errors
/// Whatever the loader reports.
pub fn load_object_with(bytes: &[u8], known: &dyn Fn(&str) -> Option<u64>) -> Result<Image, ElfError> {
    X86Cpu::load_object_with(bytes, known)
}

impl ObjectCore for X86Cpu {
    const RELOCATIONS: &'static dyn Relocations = &X86Relocations;
}

impl StandardSetup for X86Cpu {
    type Options = X86Options;
    const DEFAULT_HARNESS: &'static str = DEFAULT_HARNESS;
    const ENDIAN: Endian = Endian::Little;
    const STATUS_REGISTER: Option<&'static str> = Some("rflags");
    const CPL_REFUSAL: Option<&'static str> = Some("the x86-64 core models privilege level 0 only");

    fn new_cpu(cfg: &RunConfig) -> X86Cpu {
        let timing = cfg.timing.then(|| cfg.options.model.clone());
        let mut cpu = X86Cpu::new(CpuConfig { sentinel: SENTINEL, timing, tsc_ratio: cfg.options.tsc_ratio });
        cpu.record_timeline(cfg.timeline);
        cpu
    }

    fn start(&mut self, _image: &Image, setup: &Setup) -> Result<(), Diagnostic> {
        if let Some(itc) = setup.harness.itc {
            self.state.tsc_offset = itc;
        }
        Ok(())
    }

    fn set_register(&mut self, _mem: &mut Memory, name: &str, value: u64) -> Result<(), String> {
        set_register(self, name, value)
    }

    fn timeline(&self) -> Option<&emu_core::timing::Timeline> {
        self.model().and_then(crate::timing::X86Model::timeline)
    }

    /// The return address on top of the stack, at the default stack's top unless `rsp` is set.
    fn finish(&mut self, setup: &mut Setup) -> Result<(), Diagnostic> {
        if setup.default_stack && !setup.sets("rsp") {
            self.state.set_reg(4, STACK_BASE + STACK_SIZE - 8);
        }
        let rsp = self.state.reg(4);
        setup.mem.write_u64(rsp, SENTINEL).map_err(|e| {
            emu_core::setup::setup_error(format!("cannot store the return address at rsp = {rsp:#x}: {e}"))
        })
    }
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

#[cfg(test)]
mod tests {
    use super::explain_model;

    #[test]
    fn explain_model_shows_the_preset_named() {
        let zen = explain_model(None).unwrap_or_default();
        assert!(zen.starts_with("x86-64 model of Zen 4"), "{zen}");
        let gc = explain_model(Some("golden-cove")).unwrap_or_default();
        assert!(gc.starts_with("x86-64 model of Golden Cove"), "{gc}");
        let err = explain_model(Some("k6")).err().unwrap_or_default();
        assert!(err.contains("no such x86-64 timing model (known: zen4, golden-cove)"), "{err}");
    }
}
