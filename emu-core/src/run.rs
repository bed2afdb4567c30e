//! The one runner every core shares: a [`RunConfig`], the set-up from a harness, the machine
//! loop with its stop conditions and budget, and the [`RunReport`]. A core plugs in through
//! [`Core`] (its default harness, how it builds its CPU, its register names); the standard
//! set-up of [`crate::setup::prepare`] is offered to it through [`StandardSetup`].

use std::fmt;

use crate::cpu::{Cpu, Machine, StopReason, StopWhen};
use crate::elf::{ElfError, Relocations};
use crate::error::{Diagnostic, Diagnostics};
use crate::harness::Harness;
use crate::image::{Image, SectionKind};
use crate::memory::{Endian, Memory};
use crate::report::RunReport;
use crate::setup::{Setup, SetupRequest, EXTERN_BASE, EXTERN_SLOT};
use crate::timing::Timeline;

/// A processor model the runner can set up, run and report on.
pub trait Core: Cpu + Sized {
    /// The core's own run options (timing presets, clock ratios).
    type Options: Clone + fmt::Debug + Default;

    /// The harness used when the user gives none.
    const DEFAULT_HARNESS: &'static str;

    /// The return address that ends a run; harness expressions call it `sentinel`.
    const SENTINEL: u64 = crate::setup::SENTINEL;

    /// Whether a run stops when the guest raises an interruption, unless told otherwise
    /// (else the core delivers it and runs the handler).
    const STOP_ON_INTERRUPTION: bool = true;

    /// A machine for `image` as `cfg` says, ready at its entry point, and the harness used.
    ///
    /// # Errors
    /// Harness, override and entry errors.
    fn prepare(image: &Image, cfg: &RunConfig<Self>) -> Result<(Machine<Self>, Harness), RunError<Self::Error>>;

    /// The issue groups recorded, when the core records them and was asked to.
    fn timeline(&self) -> Option<&Timeline> {
        None
    }

    /// Fills a timeline's slots with their disassembly (the models record addresses only).
    fn label_timeline(_image: &Image, _timeline: &mut Timeline) {}

    /// How a run ended, in words, with a pc written as the core's errors write it.
    fn stop_text(reason: &StopReason) -> String {
        reason.to_string()
    }
}

/// A core whose objects load with [`crate::elf`]'s loader alone (ia64 objects go through its
/// linker instead, so it is no `ObjectCore`).
pub trait ObjectCore: Core {
    /// The core's relocation rules.
    const RELOCATIONS: &'static dyn Relocations;

    /// Loads an ELF object of this core for a run, resolving undefined symbols through `known`
    /// first (a harness's regions and symbols: `jiffies`, `cpu_tsc`, ...); each of the rest
    /// gets a zeroed [`EXTERN_SLOT`]-byte slot in an `.externals` section at [`EXTERN_BASE`],
    /// listed in the image's symbols.
    ///
    /// # Errors
    /// Whatever the loader reports.
    fn load_object_with(bytes: &[u8], known: &dyn Fn(&str) -> Option<u64>) -> Result<Image, ElfError> {
        crate::elf::load_with_extern_slots(bytes, Self::RELOCATIONS, known, EXTERN_BASE, EXTERN_SLOT)
    }
}

impl<C: StandardSetup> Core for C {
    type Options = <C as StandardSetup>::Options;
    const DEFAULT_HARNESS: &'static str = <C as StandardSetup>::DEFAULT_HARNESS;
    const SENTINEL: u64 = <C as StandardSetup>::SENTINEL;
    const STOP_ON_INTERRUPTION: bool = <C as StandardSetup>::STOP_ON_INTERRUPTION;

    fn prepare(image: &Image, cfg: &RunConfig<C>) -> Result<(Machine<C>, Harness), RunError<C::Error>> {
        standard_prepare(image, cfg)
    }

    fn timeline(&self) -> Option<&Timeline> {
        <C as StandardSetup>::timeline(self)
    }

    fn label_timeline(image: &Image, timeline: &mut Timeline) {
        <C as StandardSetup>::label_timeline(image, timeline);
    }

    fn stop_text(reason: &StopReason) -> String {
        <C as StandardSetup>::stop_text(reason)
    }
}

/// What a core that uses the standard set-up ([`crate::setup::prepare`]) brings to it; every
/// core does (issue 16), each step below a hook with the common case as its default.
///
/// The order is: the harness applied ([`crate::setup::prepare`]: memory, register values,
/// entry), [`StandardSetup::new_cpu`], the image's code, [`StandardSetup::start`], the entry,
/// the registers in order ([`StandardSetup::set_register`]), then [`StandardSetup::finish`].
pub trait StandardSetup: Cpu + Sized {
    /// The core's own run options (timing presets, clock ratios).
    type Options: Clone + fmt::Debug + Default;
    /// The harness used when the user gives none.
    const DEFAULT_HARNESS: &'static str;
    /// The return address that ends a run; harness expressions call it `sentinel`.
    const SENTINEL: u64 = crate::setup::SENTINEL;
    /// Whether a run stops when the guest raises an interruption, unless told otherwise.
    const STOP_ON_INTERRUPTION: bool = true;
    /// Byte order of the memory.
    const ENDIAN: Endian;
    /// A stack `(base, size)` mapped when the harness brings no region named `stack`: by
    /// default the shared [`crate::setup::STACK_BASE`], so the C under test can call and
    /// return (the traces' harnesses describe only the data the C reaches).
    const DEFAULT_STACK: Option<(u64, u64)> = Some((crate::setup::STACK_BASE, crate::setup::STACK_SIZE));
    /// The register a harness's `psr` key sets (the core's status word), applied before the
    /// `[registers]` table; `None` for a core whose [`StandardSetup::start`] applies it (ia64:
    /// together with `cpl`, before the entry sets the slot).
    const STATUS_REGISTER: Option<&'static str>;
    /// Why the core refuses a harness `cpl` other than 0: the end of the error message; `None`
    /// for a core that models privilege levels (its [`StandardSetup::start`] applies `cpl`).
    const CPL_REFUSAL: Option<&'static str>;
    /// Whether the core models address translation (a harness's `translation = true` is
    /// refused otherwise).
    const TRANSLATION: bool = false;

    /// Where a run starts when neither the command line nor the harness names an entry: the
    /// start of the first code section.
    fn default_entry(image: &Image) -> Option<u64> {
        image.sections.iter().find(|s| s.kind == SectionKind::Code).map(|s| s.addr)
    }

    /// A CPU configured as `cfg` says, with no code yet.
    fn new_cpu(cfg: &RunConfig<Self>) -> Self;

    /// What the core takes from the harness (and the image's symbols) before the entry and the
    /// registers: its `itc`, ia64's `psr`/`cpl`, translation and gate range.
    ///
    /// # Errors
    /// A harness value the core cannot honour.
    fn start(&mut self, image: &Image, setup: &Setup) -> Result<(), Diagnostic>;

    /// Sets a register by the core's name for it (`mem` for state kept there: ia64's frame).
    ///
    /// # Errors
    /// An unknown name or a value the register cannot hold, in words.
    fn set_register(&mut self, mem: &mut Memory, name: &str, value: u64) -> Result<(), String>;

    /// What the calling convention needs once the registers are set (a return address on the
    /// stack, say), and harness values applied after the registers (ia64's `itc`).
    ///
    /// # Errors
    /// Memory the convention needs that is not there.
    fn finish(&mut self, _setup: &mut Setup) -> Result<(), Diagnostic> {
        Ok(())
    }

    /// The groups recorded, when the core's model records them and was asked to (issue 16:
    /// [`Core::timeline`] for a core with the standard set-up; slot texts filled in).
    fn timeline(&self) -> Option<&Timeline> {
        None
    }

    /// Fills a timeline's slots with their disassembly ([`Core::label_timeline`]).
    fn label_timeline(_image: &Image, _timeline: &mut Timeline) {}

    /// How a run ended, in words ([`Core::stop_text`]).
    fn stop_text(reason: &StopReason) -> String {
        reason.to_string()
    }
}

/// How to run, on core `C`.
pub struct RunConfig<C: Core> {
    /// Entry symbol (else the harness's, else the start of the code).
    pub entry: Option<String>,
    /// The harness (else [`Core::DEFAULT_HARNESS`]).
    pub harness: Option<Harness>,
    /// Register overrides `(name, value expression)` applied after the harness.
    pub sets: Vec<(String, String)>,
    /// Instruction budget.
    pub max_insns: u64,
    /// Use the core's timing model (else one cycle per instruction or group).
    pub timing: bool,
    /// Record the issue groups, on a core that records them.
    pub timeline: bool,
    /// Stop after a return from interruption.
    pub stop_on_rfi: bool,
    /// Stop when an interruption is raised (else run the handler).
    pub stop_on_interruption: bool,
    /// The core's own options.
    pub options: C::Options,
}

impl<C: Core> Default for RunConfig<C> {
    fn default() -> Self {
        RunConfig {
            entry: None,
            harness: None,
            sets: Vec::new(),
            max_insns: 1_000_000,
            timing: true,
            timeline: false,
            stop_on_rfi: true,
            stop_on_interruption: C::STOP_ON_INTERRUPTION,
            options: C::Options::default(),
        }
    }
}

impl<C: Core> Clone for RunConfig<C> {
    fn clone(&self) -> Self {
        RunConfig {
            entry: self.entry.clone(),
            harness: self.harness.clone(),
            sets: self.sets.clone(),
            options: self.options.clone(),
            ..*self
        }
    }
}

impl<C: Core> fmt::Debug for RunConfig<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunConfig")
            .field("entry", &self.entry)
            .field("harness", &self.harness)
            .field("sets", &self.sets)
            .field("max_insns", &self.max_insns)
            .field("timing", &self.timing)
            .field("timeline", &self.timeline)
            .field("stop_on_rfi", &self.stop_on_rfi)
            .field("stop_on_interruption", &self.stop_on_interruption)
            .field("options", &self.options)
            .finish()
    }
}

/// Why a run could not be set up or did not finish; `E` is the core's execution error.
#[derive(Debug, thiserror::Error)]
pub enum RunError<E: std::error::Error + 'static> {
    /// The source did not assemble.
    #[error("{0}")]
    Assemble(Diagnostics),
    /// The object did not load.
    #[error("{0}")]
    Elf(#[from] ElfError),
    /// The harness, an override or the entry is wrong.
    #[error("{0}")]
    Setup(Diagnostic),
    /// Execution failed (an emulator error at a pc).
    #[error("{error} (after {executed} instructions)")]
    Exec {
        /// What failed.
        error: E,
        /// Instructions executed before it.
        executed: u64,
    },
}

/// Builds a machine for `image` as `cfg` says, ready at its entry point.
///
/// # Errors
/// Harness, override and entry errors.
pub fn prepare<C: Core>(image: &Image, cfg: &RunConfig<C>) -> Result<(Machine<C>, Harness), RunError<C::Error>> {
    C::prepare(image, cfg)
}

/// The standard set-up: [`crate::setup::prepare`], then the core's CPU with the image's code,
/// the harness's start values, the entry, the registers in order, and the calling convention.
///
/// # Errors
/// Harness, override and entry errors.
fn standard_prepare<C: StandardSetup>(
    image: &Image,
    cfg: &RunConfig<C>,
) -> Result<(Machine<C>, Harness), RunError<C::Error>> {
    let setup = crate::setup::prepare(&SetupRequest {
        image,
        harness: cfg.harness.as_ref(),
        default_harness: <C as StandardSetup>::DEFAULT_HARNESS,
        endian: C::ENDIAN,
        sentinel: <C as Core>::SENTINEL,
        sets: &cfg.sets,
        entry: cfg.entry.as_deref(),
        default_stack: C::DEFAULT_STACK,
        default_entry: C::default_entry(image),
        status_register: C::STATUS_REGISTER,
        cpl_refusal: C::CPL_REFUSAL,
        translation: C::TRANSLATION,
    })
    .map_err(RunError::Setup)?;
    let mut cpu = C::new_cpu(cfg);
    for s in image.sections.iter().filter(|s| s.kind == SectionKind::Code) {
        cpu.add_code(s.addr, &s.data);
    }
    cpu.start(image, &setup).map_err(RunError::Setup)?;
    // The entry first, so a pc the harness or the command line gives is the one that runs.
    cpu.set_entry(setup.entry);
    let mut setup = setup;
    for r in &setup.registers {
        cpu.set_register(&mut setup.mem, &r.name, r.value).map_err(|m| RunError::Setup(r.error(m)))?;
    }
    cpu.finish(&mut setup).map_err(RunError::Setup)?;
    Ok((Machine::new(cpu, setup.mem), setup.harness))
}

/// Loads `bytes` as an object of core `C` and runs it.
///
/// # Errors
/// Load, setup and execution errors.
pub fn run_object<C: ObjectCore>(bytes: &[u8], cfg: &RunConfig<C>) -> Result<RunReport, RunError<C::Error>> {
    let image = C::load_object_with(bytes, &|_| None)?;
    run_image(&image, cfg)
}

/// Runs `image` as `cfg` says.
///
/// # Errors
/// Setup and execution errors.
pub fn run_image<C: Core>(image: &Image, cfg: &RunConfig<C>) -> Result<RunReport, RunError<C::Error>> {
    run_image_until(image, cfg).map(|(report, _)| report)
}

/// Runs `image` as `cfg` says, and tells how the run stopped (whether the code reached its
/// expected end is the caller's question: the command line maps it onto an exit status).
///
/// # Errors
/// Setup and execution errors.
pub fn run_image_until<C: Core>(
    image: &Image,
    cfg: &RunConfig<C>,
) -> Result<(RunReport, StopReason), RunError<C::Error>> {
    let (mut machine, harness) = C::prepare(image, cfg)?;
    let stop = StopWhen {
        on_sentinel: true,
        on_rfi: cfg.stop_on_rfi,
        on_interruption: cfg.stop_on_interruption,
        max_insns: cfg.max_insns,
    };
    // The state at entry, so a report can show what the run changed (issue 18).
    let initial = machine.snapshot();
    let reason = machine.run(&stop).map_err(|e| RunError::Exec { error: e.error, executed: e.executed })?;
    let mut report = report(image, &machine, &harness, C::stop_text(&reason))?;
    report.initial = Some(initial);
    Ok((report, reason))
}

/// The report of a finished machine: the core's snapshot and totals, the harness's counters,
/// and the labelled timeline when one was recorded.
///
/// # Errors
/// A counter that cannot be read.
pub fn report<C: Core>(
    image: &Image,
    machine: &Machine<C>,
    harness: &Harness,
    stop: String,
) -> Result<RunReport, RunError<C::Error>> {
    let (snapshot, summary) = (machine.snapshot(), machine.cpu.summary());
    let mut report = crate::setup::run_report(image, harness, C::SENTINEL, &machine.mem, snapshot, summary, stop)
        .map_err(RunError::Setup)?;
    report.timeline = machine.cpu.timeline().cloned();
    if let Some(t) = &mut report.timeline {
        C::label_timeline(image, t);
        t.name_producers();
    }
    Ok(report)
}
