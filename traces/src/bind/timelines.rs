//! The timelines of one chosen system call of a workload (issue 18: `scenario --trace-out`,
//! `diff --trace-out` and their `--pressure`).
//!
//! The call is fixed, so two runs and two versions show the same one: the **last system call
//! of the workload** (call N of N, after N-1 calls of warm-up), its entry and exit paths (the
//! guest exit and entry of a `--guest` workload); with ticks, the **last tick the workload
//! took**; with interrupts, the **last interrupt** (its enter and exit paths). Recording a
//! timeline does not change what a path costs, so the workload's report is the one
//! [`Trace::run`] gives.

use super::{run_workload, Arch, BindError, Prepared, Trace};
use emu_core::image::Image;
use emu_core::run::Core;
use emu_core::scenario::{Accounted, Adapter, PathKind, PathRun, Scenario, ScenarioMachine, ScenarioReport, Workload};
use emu_core::timing::Timeline;
use std::collections::BTreeMap;

/// One path of the chosen call, as it ran.
#[derive(Debug, Clone)]
pub struct TracedPath {
    /// Which path.
    pub path: PathKind,
    /// Which run of it this is, in words: `the workload's last system call (10000 of 10000)`.
    pub which: String,
    /// The machine's cycle clock when the path started (its timeline's cycles are on it).
    pub start: u64,
    /// What it cost.
    pub run: PathRun,
    /// Its issue groups, the slots labelled and the waits' producers named.
    pub timeline: Timeline,
}

/// A workload's report with the timelines of its chosen call (see the module docs).
#[derive(Debug, Clone)]
pub struct Traced {
    /// The scenario report (as [`Trace::run`] gives it).
    pub report: ScenarioReport,
    /// The chosen call's paths in the order a call takes them: the interrupt's, the entry,
    /// the exit, then the tick.
    pub paths: Vec<TracedPath>,
    /// The code that ran (its symbols and source map place the instructions).
    pub image: Image,
}

impl Trace {
    /// Runs workload `w` (as [`Trace::workload`] adapts it) on `image` (or the trace's own
    /// code) and keeps the timelines of its chosen call (see the module docs).
    ///
    /// # Errors
    /// As [`Trace::run`].
    pub fn run_traced(&self, image: Option<&Image>, w: &Workload) -> Result<Traced, BindError> {
        let aw = self.workload(w);
        // The code's image, as `run_attributed` has it: IA-64 runs the image it names groups
        // by; a compiled core runs its committed object, loaded again here for its symbols.
        let given = image;
        let image = match (given, self.arch) {
            (Some(image), _) => image.clone(),
            (None, Arch::Ia64) => self.assemble().map_err(BindError::Assemble)?.image,
            (None, Arch::X86_64) => self.compiled_image(None, &arch_x86::reloc::X86Relocations)?,
            (None, Arch::S390x) => self.compiled_image(None, &arch_s390::reloc::S390Relocations)?,
        };
        let run_on = if self.arch == Arch::Ia64 { Some(&image) } else { given };
        let (report, paths) = match self.prepare(run_on, &aw, true)? {
            Prepared::Ia64(mut s) => record(&mut s, &aw, &image, |cpu, on| cpu.record_timeline(on))?,
            Prepared::X86(mut s) => record(&mut s, &aw, &image, |cpu, on| cpu.record_timeline(on))?,
            Prepared::S390(mut s) => record(&mut s, &aw, &image, |cpu, on| cpu.record_timeline(on))?,
        };
        Ok(Traced { report, paths, image })
    }
}

/// Runs `aw` on `s` through a [`Recorder`]; the report and the chosen call's paths.
fn record<A>(
    s: &mut Scenario<A>,
    aw: &Workload,
    image: &Image,
    on: fn(&mut A::Cpu, bool),
) -> Result<(ScenarioReport, Vec<TracedPath>), BindError>
where
    A: Adapter,
    A::Cpu: Core,
    <A::Cpu as emu_core::cpu::Cpu>::Error: Send + Sync,
{
    let irqs = match aw.irq_every {
        Some(n) if n > 0 && s.has_path(PathKind::IrqEnter) && s.has_path(PathKind::IrqExit) => aw.syscalls / n,
        _ => 0,
    };
    let mut r = Recorder {
        s,
        on,
        events: aw.event_paths(),
        last_event: aw.syscalls,
        last_irq: irqs,
        seen: Seen::default(),
        kept: BTreeMap::new(),
    };
    let report = run_workload(&mut r, aw, &mut |_| {})?;
    let seen = r.seen;
    let mut paths: Vec<TracedPath> = r.kept.into_values().collect();
    for p in &mut paths {
        <A::Cpu as Core>::label_timeline(image, &mut p.timeline);
        p.timeline.name_producers();
        p.which = match p.path {
            PathKind::Tick => format!("the workload's last tick ({} of {})", seen.ticks, seen.ticks),
            PathKind::IrqEnter | PathKind::IrqExit => format!("the workload's last interrupt ({irqs} of {irqs})"),
            _ if aw.guest => format!("the workload's last hypercall ({} of {})", aw.syscalls, aw.syscalls),
            _ => format!("the workload's last system call ({} of {})", aw.syscalls, aw.syscalls),
        };
    }
    paths.sort_by_key(|p| order(p.path, aw));
    Ok((report, paths))
}

/// Where a path comes in one call: the interrupt (in the user phase), the entry, the exit,
/// then the tick (which may fall anywhere).
fn order(path: PathKind, aw: &Workload) -> u8 {
    let (into, out) = aw.event_paths();
    match path {
        PathKind::IrqEnter => 0,
        PathKind::IrqExit => 1,
        p if p == into => 2,
        p if p == out => 3,
        PathKind::Tick => 4,
        _ => 5,
    }
}

/// How many of each path the workload has run so far.
#[derive(Debug, Default, Clone, Copy)]
struct Seen {
    events: u64,
    ticks: u64,
    irqs: u64,
}

/// A scenario machine that records the timelines of the chosen call's paths (each kind's
/// last, so a tick's is replaced by the next tick's).
struct Recorder<'s, A: Adapter> {
    s: &'s mut Scenario<A>,
    on: fn(&mut A::Cpu, bool),
    events: (PathKind, PathKind),
    last_event: u64,
    last_irq: u64,
    seen: Seen,
    kept: BTreeMap<PathKind, TracedPath>,
}

impl<A: Adapter> Recorder<'_, A>
where
    A::Cpu: Core,
{
    /// Whether this run of `path` is one of the chosen call's, counting it.
    fn chosen(&mut self, path: PathKind) -> bool {
        let (into, out) = self.events;
        match path {
            p if p == into => {
                self.seen.events += 1;
                self.seen.events == self.last_event
            }
            p if p == out => self.seen.events == self.last_event,
            PathKind::Tick => {
                self.seen.ticks += 1;
                true
            }
            PathKind::IrqEnter => {
                self.seen.irqs += 1;
                self.seen.irqs == self.last_irq
            }
            PathKind::IrqExit => self.seen.irqs == self.last_irq,
            _ => false,
        }
    }
}

impl<A: Adapter> ScenarioMachine for Recorder<'_, A>
where
    A::Cpu: Core,
{
    type Error = <Scenario<A> as ScenarioMachine>::Error;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, Self::Error> {
        if !self.chosen(path) {
            return self.s.run_path(path);
        }
        // A fresh timeline for this path alone.
        (self.on)(&mut self.s.machine.cpu, false);
        (self.on)(&mut self.s.machine.cpu, true);
        let start = self.s.now();
        let run = self.s.run_path(path);
        let timeline = self.s.machine.cpu.timeline().cloned();
        (self.on)(&mut self.s.machine.cpu, false);
        let run = run?;
        if let Some(timeline) = timeline {
            self.kept.insert(path, TracedPath { path, which: String::new(), start, run, timeline });
        }
        Ok(run)
    }

    fn advance(&mut self, cycles: u64) {
        self.s.advance(cycles);
    }

    fn now(&self) -> u64 {
        self.s.now()
    }

    fn accounted(&self) -> Result<Accounted, Self::Error> {
        self.s.accounted()
    }

    fn has_path(&self, path: PathKind) -> bool {
        self.s.has_path(path)
    }
}
