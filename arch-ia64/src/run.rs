//! Running IA-64 code: an image (assembled or loaded), a harness (given or the default),
//! register overrides, and the machine loop; the result is a [`RunReport`]. This is the
//! library API behind `acctemu run`, usable from a user's own tests:
//!
//! ```
//! use arch_ia64::run::{run_source, RunConfig};
//! let src = "\t.text\nf:\n\tadds r8=40,r0\n\tadds r9=2,r0 ;;\n\tadd r8=r8,r9\n\tbr.ret.sptk.many b0 ;;\n";
//! let report = run_source("f.S", src, &RunConfig::default()).unwrap();
//! assert_eq!(report.snapshot.register("r8").map(|v| v.to_string()).as_deref(), Some("0x000000000000002a"));
//! ```

use crate::asm::assemble;
use crate::cpu::{CpuConfig, Ia64Cpu};
use crate::exec::ExecError;
use crate::state::fr::Fr;
use crate::state::psr::Psr;
use crate::state::{ar, cr};
use crate::timing::Itanium2Params;
use emu_core::cpu::StopReason;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::{Env, Harness};
use emu_core::image::{Image, SectionKind};
use emu_core::memory::{Endian, Memory};
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::report::RunReport;
use emu_core::run::StandardSetup;
use emu_core::setup::{error_at, Setup};
use emu_core::timing::Timeline;

/// The address whose reach ends a path: b0 of the default harness. Never mapped.
pub const SENTINEL: u64 = 0x0000_5e47_1ee1_0000;

/// The harness used when none is given: a stack with r12 near its top, a register backing
/// store for the RSE, a zeroed task area at r13 (also ar.k6, Linux's `current`) large
/// enough for `thread_info` behind a 2.6-era `task_struct`, b0 = the sentinel, cpl 0.
pub const DEFAULT_HARNESS: &str = r#"
[[region]]
name = "stack"
base = "0x0000000070000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "rbs"
base = "0x0000000071000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "task"
base = "0x0000000072000000"
size = "0x8000"
perms = "rw"

[registers]
r12 = "stack.top-16"
r13 = "task"
b0 = "sentinel"
"ar.k6" = "task"
"ar.bspstore" = "rbs"
"#;

/// How to run on the IA-64 core.
pub type RunConfig = emu_core::run::RunConfig<Ia64Cpu>;

/// Why an IA-64 run could not be set up or did not finish.
pub type RunError = emu_core::run::RunError<ExecError>;

pub use emu_core::run::{prepare, report, run_image, run_image_until};

/// The IA-64 core's own run options.
#[derive(Debug, Clone)]
pub struct Ia64Options {
    /// ar.itc ticks per modelled cycle (1 on Itanium 2, reference section 3).
    pub itc_per_cycle: u64,
}

impl Default for Ia64Options {
    fn default() -> Self {
        Ia64Options { itc_per_cycle: 1 }
    }
}

/// Assembles `text` (named `file`) and runs it.
///
/// # Errors
/// Assembly errors, setup errors, execution errors.
pub fn run_source(file: &str, text: &str, cfg: &RunConfig) -> Result<RunReport, RunError> {
    let asm = assemble(file, text, &PreprocessOptions::new(), &FsLoader).map_err(RunError::Assemble)?;
    run_image(&asm.image, cfg)
}

impl StandardSetup for Ia64Cpu {
    type Options = Ia64Options;
    const DEFAULT_HARNESS: &'static str = DEFAULT_HARNESS;
    const SENTINEL: u64 = SENTINEL;
    const STOP_ON_INTERRUPTION: bool = false;
    const ENDIAN: Endian = Endian::Little;
    // A harness brings the stack and backing store it needs (the default one does).
    const DEFAULT_STACK: Option<(u64, u64)> = None;
    const STATUS_REGISTER: Option<&'static str> = None;
    const CPL_REFUSAL: Option<&'static str> = None;
    const TRANSLATION: bool = true;

    fn default_entry(image: &Image) -> Option<u64> {
        first_label(image)
    }

    fn new_cpu(cfg: &RunConfig) -> Ia64Cpu {
        Ia64Cpu::new(CpuConfig {
            sentinel: SENTINEL,
            gate: (0, 0),
            timing: cfg.timing.then(Itanium2Params::default),
            timeline: cfg.timeline,
            itc_per_cycle: cfg.options.itc_per_cycle,
        })
    }

    /// The `gate` promote range, the PSR from the harness's `psr` and `cpl` together, and a
    /// TLB when it asks for translation.
    fn start(&mut self, image: &Image, setup: &Setup) -> Result<(), Diagnostic> {
        let harness = &setup.harness;
        let symbol = emu_core::setup::image_symbols(image, SENTINEL);
        let env = harness.env(&symbol)?;
        self.set_gate(gate_range(harness, &env)?);
        self.state.psr = initial_psr(harness, &env)?;
        self.state.tlb.enabled = harness.translation;
        self.state.gr.set_bank(self.state.psr.bank());
        Ok(())
    }

    fn set_register(&mut self, mem: &mut Memory, name: &str, value: u64) -> Result<(), String> {
        set_register(self, mem, name, value)
    }

    /// The harness's `itc`, after the registers so it wins over an `ar.itc` among them.
    fn finish(&mut self, setup: &mut Setup) -> Result<(), Diagnostic> {
        if let Some(itc) = setup.harness.itc {
            self.state.itc_offset = itc;
        }
        Ok(())
    }

    fn timeline(&self) -> Option<&Timeline> {
        Ia64Cpu::timeline(self)
    }

    fn label_timeline(image: &Image, timeline: &mut Timeline) {
        label_timeline(image, timeline);
    }

    fn stop_text(reason: &StopReason) -> String {
        stop_text(reason)
    }
}

/// The PSR a run starts with: register bank 1 at the harness's `cpl`, or its `psr`.
///
/// # Errors
/// A `psr` with reserved bits or `ri = 3`, or one whose privilege level is not the `cpl`
/// the harness also gives (one of them would be ignored).
fn initial_psr(harness: &Harness, env: &Env<'_>) -> Result<Psr, Diagnostic> {
    let at_cpl = Psr::BN.with_cpl(harness.cpl.unwrap_or(0));
    let Some(expr) = &harness.psr else { return Ok(at_cpl) };
    let v = env.eval(expr)?;
    let psr = checked_psr(v).map_err(|m| expr.origin.error(m))?;
    match harness.cpl {
        Some(cpl) if cpl != psr.cpl() => {
            let msg = format!("cpl = {cpl} disagrees with the privilege level {} of psr = {v:#x}", psr.cpl());
            Err(error_at(harness.cpl_origin.as_ref(), msg))
        }
        _ => Ok(psr),
    }
}

/// `v` as a PSR, refused where `mov psr.l=` or `rfi` would fault rather than cut it: a
/// reserved bit set, or `ri = 3` (a bundle has slots 0 to 2).
fn checked_psr(v: u64) -> Result<Psr, String> {
    let reserved = v & !Psr::all().bits();
    if reserved != 0 {
        return Err(format!("psr {v:#x} sets reserved bits {reserved:#x}"));
    }
    let psr = Psr::from_bits_retain(v);
    if psr.ri() == 3 {
        return Err(format!("psr {v:#x} has ri = 3 (a bundle has slots 0 to 2)"));
    }
    Ok(psr)
}

/// The bits an application register defines; a harness value setting any other is refused,
/// as `mov ar=` raises a Reserved Register/Field fault for it (SDM vol. 2, 3.1.8).
const AR_DEFINED_BITS: &[(u8, &str, u64)] = &[
    // mode, pl, be; loadrs (bits 16-29).
    (ar::RSC, "ar.rsc", 0x3fff_001f),
    // pfm (bits 0-37), pec (52-57), ppl (62-63).
    (ar::PFS, "ar.pfs", 0xc3f0_003f_ffff_ffff),
    (ar::EC, "ar.ec", 0x3f),
    // traps (bits 0-5) and the four status fields (6-57).
    (ar::FPSR, "ar.fpsr", (1 << 58) - 1),
];

/// Refuses `v` for application register `n` when it sets bits the register does not have,
/// or is a misaligned backing-store address (the RSE ignores its low three bits).
fn check_ar(n: u8, v: u64) -> Result<(), String> {
    if let Some((_, name, defined)) = AR_DEFINED_BITS.iter().find(|(r, _, _)| *r == n) {
        let reserved = v & !defined;
        if reserved != 0 {
            return Err(format!("{v:#x} sets bits {reserved:#x} that {name} reserves (defined: {defined:#x})"));
        }
    }
    if n == ar::BSPSTORE && v & 7 != 0 {
        return Err(format!("ar.bspstore {v:#x} is not 8-byte aligned"));
    }
    Ok(())
}

/// The promote range of `epc` (reference section 4, "simplified model"): harness symbols
/// `gate` and `gate_end` bound the gate page(s), end exclusive. Without them no address
/// promotes (epc still promotes with psr.it = 0). Added so a harness can configure the gate
/// page; before, `prepare` always left the range empty.
fn gate_range(harness: &Harness, env: &Env<'_>) -> Result<(u64, u64), Diagnostic> {
    let defined = |n: &str| harness.symbols.iter().any(|(s, _)| s == n);
    if !defined("gate") || !defined("gate_end") {
        return Ok((0, 0));
    }
    match (env.lookup("gate"), env.lookup("gate_end")) {
        (Some(start), Some(end)) if start < end => Ok((start, end)),
        _ => {
            let gate = harness.symbols.iter().find(|(s, _)| s == "gate").map(|(_, e)| &e.origin);
            let msg = "harness symbols `gate`..`gate_end` do not form a range";
            Err(gate.map_or_else(|| Diagnostic::error(SourceLoc::unknown(), msg), |o| o.error(msg)))
        }
    }
}

/// The first label of the first code section (or its start).
fn first_label(image: &Image) -> Option<u64> {
    let text = image.sections.iter().find(|s| s.kind == SectionKind::Code)?;
    let first = image
        .symbols
        .iter()
        .filter(|s| s.value >= text.addr && s.value < text.addr + text.data.len() as u64)
        .map(|s| s.value)
        .min();
    Some(first.unwrap_or(text.addr))
}

/// How a run ended, in words, with an IA-64 pc (`bundle | slot`) shown as the executor's errors
/// show it: `0x10010 slot 1`.
pub fn stop_text(reason: &StopReason) -> String {
    let at = |pc: u64| format!("0x{:x} slot {}", pc & !0xf, pc & 0xf);
    match *reason {
        StopReason::Budget { max_insns, pc } => format!("budget of {max_insns} instructions exhausted at {}", at(pc)),
        StopReason::Interruption { vector, name, pc } => {
            format!("interruption: {name} (vector {vector:#x}) at {}", at(pc))
        }
        ref other => other.to_string(),
    }
}

/// Fills each timeline slot with its disassembly (the model records addresses only).
pub(crate) fn label_timeline(image: &Image, timeline: &mut Timeline) {
    use crate::decode::{decode_bundle, Slot};
    use crate::format::format_insn;
    for slot in timeline.groups.iter_mut().flat_map(|g| g.slots.iter_mut()) {
        let Some(sec) = image.sections.iter().find(|s| s.addr <= slot.addr && slot.addr < s.addr + s.data.len() as u64)
        else {
            continue;
        };
        let off = (slot.addr - sec.addr) as usize;
        let Some(bytes) = sec.data.get(off..off + 16).and_then(|b| <[u8; 16]>::try_from(b).ok()) else { continue };
        let Ok(bundle) = decode_bundle(bytes) else { continue };
        // The long instruction of MLX is shown for slot 1 (its X half sits in slot 2); slot 0
        // is its own M instruction (issue 18: it was labelled with the long one).
        let long = slot.slot == 1 && bundle.template.units()[1] == crate::bundle::SlotUnit::L;
        let index = if long { 2 } else { usize::from(slot.slot) };
        if let Some(Slot::Insn(insn)) = bundle.slots.get(index) {
            let mut text = String::new();
            if insn.qp != 0 {
                text.push_str(&format!("(p{}) ", insn.qp));
            }
            format_insn(&mut text, insn, slot.addr, image);
            slot.text = text;
        }
    }
}

/// Sets a register by name: `r0`-`r127`, `f2`-`f127` (integer significand), `p1`-`p63`
/// (0 or 1), `b0`-`b7`, `ar.NAME`/`arN`, `cr.NAME`/`crN`, `psr`, `pr`, `ip`, `cfm` (the
/// frame: sof, sol, sor; set it before the stacked registers it makes).
fn set_register(cpu: &mut Ia64Cpu, mem: &mut Memory, name: &str, v: u64) -> Result<(), String> {
    let st = &mut cpu.state;
    let num = |prefix: &str, max: u64| -> Option<u8> {
        let n: u64 = name.strip_prefix(prefix)?.parse().ok()?;
        (n <= max).then_some(n as u8)
    };
    if let Some(r) = num("r", 127) {
        return st.gr.write(r, v, false).map_err(|e| e.to_string());
    }
    if let Some(f) = num("f", 127).filter(|f| *f >= 2) {
        st.fr[usize::from(f)] = Fr::integer(v);
        return Ok(());
    }
    if let Some(p) = num("p", 63).filter(|p| *p >= 1) {
        if v > 1 {
            return Err(format!("p{p} = {v:#x}: a predicate is 0 or 1"));
        }
        st.set_p(p, v != 0);
        return Ok(());
    }
    if let Some(b) = num("b", 7) {
        st.br[usize::from(b)] = v;
        return Ok(());
    }
    let ar_num = crate::regs::named_register(name).filter(|_| name.starts_with("ar.")).or_else(|| num("ar", 127));
    if let Some(n) = ar_num {
        check_ar(n, v)?;
        match n {
            ar::BSPSTORE => st.gr.set_bspstore(v),
            ar::RNAT => st.gr.set_rnat(v),
            ar::BSP => return Err("ar.bsp is read-only; set ar.bspstore".into()),
            ar::ITC => st.itc_offset = v,
            _ => st.ar[usize::from(n)] = v,
        }
        let _ = mem;
        return Ok(());
    }
    let cr_num = crate::regs::named_register(name).filter(|_| name.starts_with("cr.")).or_else(|| num("cr", 127));
    if let Some(n) = cr_num {
        if n == cr::IVA && v & 0x7fff != 0 {
            return Err(format!("cr.iva {v:#x} is not 32 KiB aligned (the table's low 15 bits are ignored)"));
        }
        st.cr[usize::from(n)] = v;
        return Ok(());
    }
    match name {
        "psr" => {
            st.psr = checked_psr(v)?;
            st.gr.set_bank(st.psr.bank());
        }
        "pr" => st.pr = v | 1,
        // The starting frame, as CFM bits (sof 0-6, sol 7-13, sor 14-17), so a harness can
        // pass arguments in r32.. as a caller's outputs (library routines, issue 14, i14-lib).
        "cfm" => {
            let (sof, sol, sor) = ((v & 0x7f) as u8, ((v >> 7) & 0x7f) as u8, ((v >> 14) & 0xf) as u8);
            if v >> 18 != 0 {
                return Err(format!("cfm {v:#x}: only sof, sol and sor (bits 0-17) can be set"));
            }
            st.gr.alloc(sof, sol, sor, mem).map_err(|e| format!("cfm {v:#x}: {e}"))?;
        }
        "ip" if v & 0xf > 2 => return Err(format!("ip {v:#x} names slot {} of a bundle (0 to 2)", v & 0xf)),
        "ip" => cpu.set_entry(v),
        _ => return Err(format!("unknown register `{name}`")),
    }
    Ok(())
}
