//! Scenario bindings: a catalogue trace prepared on its core, behind one entry point.
//!
//! [`Trace::prepare`] turns a trace (its own code, or an image of its source as the user
//! changed it) into a [`Prepared`] machine whose paths are bound to the trace's symbols and
//! whose accounting counters are located in its harness; [`Trace::run`] also runs a workload
//! through it. What differs between the cores is here and in the arch crates' adapters, not
//! in the caller: the clock of the core ([`Arch::core_hz`]), the workload as it runs there
//! ([`Trace::workload`]), how a path is entered (an external interrupt through cr.iva on
//! IA-64, a C call on x86-64 and s390x) and the counters' units.

use crate::trace::{Arch, Trace};
use emu_core::diff::GroupCost;
use emu_core::error::{Diagnostic, Diagnostics, SourceLoc};
use emu_core::harness::{Env, Harness};
use emu_core::image::Image;
use emu_core::profile::Profile;
use emu_core::scenario::{
    run as run_workload, Accounted, ArchError, PathKind, PathRun, ScenarioError, ScenarioMachine, ScenarioReport,
    Workload,
};

mod call;
mod compiled;
pub mod ia64;
pub mod s390;
// the timelines of a workload's chosen call (issue 18, w7-traceout)
pub mod timelines;
pub mod x86;

/// Cycles per second of the modelled IA-64 processor (Itanium 2 Madison, 1.5 GHz): the clock
/// the command line gives workloads on.
pub const IA64_CPU_HZ: u64 = 1_500_000_000;

/// Why a trace could not be prepared or its workload not run.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    /// The trace's (or the changed) source did not assemble.
    #[error("{0}")]
    Assemble(Diagnostics),
    /// The harness, a bound symbol or a counter is wrong (located at the harness or its line).
    #[error("{0}")]
    Setup(Diagnostic),
    /// A path (or a set-up call) did not run to its end, or the counters could not be read.
    #[error("{0}")]
    Scenario(ScenarioError<ArchError>),
    /// A point of a sweep cannot be meant (a value outside its range) or did not end as a call
    /// ends.
    #[error("{0}")]
    Point(String),
}

impl<E: std::error::Error + Send + Sync + 'static> From<ScenarioError<E>> for BindError {
    fn from(e: ScenarioError<E>) -> BindError {
        BindError::Scenario(e.erased())
    }
}

/// A set-up error of `trace`, located at its harness.
pub(crate) fn setup_error(trace: &Trace, msg: String) -> BindError {
    BindError::Setup(Diagnostic::error(SourceLoc::new(trace.harness_name.into(), 0, 0), msg))
}

impl Arch {
    /// Cycles per second of the core that runs this architecture's traces.
    pub fn core_hz(self) -> u64 {
        match self {
            Arch::Ia64 => IA64_CPU_HZ,
            Arch::X86_64 => x86::core_hz(),
            Arch::S390x => s390::core_hz(),
        }
    }
}

/// A catalogue trace bound to a machine of its core, ready for [`emu_core::scenario::run`]
/// (boxed: the IA-64 machine is large).
#[derive(Debug)]
pub enum Prepared {
    /// An IA-64 trace.
    Ia64(Box<arch_ia64::scenario::Ia64Scenario>),
    /// An x86-64 trace.
    X86(Box<arch_x86::scenario::X86Scenario>),
    /// An s390x trace.
    S390(Box<arch_s390::scenario::S390Scenario>),
}

/// `$body` with `$s` bound to the scenario of whichever core `$p` holds.
macro_rules! each {
    ($p:expr, $s:ident => $body:expr) => {
        match $p {
            Prepared::Ia64($s) => $body,
            Prepared::X86($s) => $body,
            Prepared::S390($s) => $body,
        }
    };
}

impl Prepared {
    /// Instructions retired and cycles of the core's clock so far.
    pub fn counters(&self) -> (u64, u64) {
        use emu_core::cpu::Cpu;
        each!(self, s => (s.machine.cpu.instructions(), s.machine.cpu.cycles()))
    }
}

impl ScenarioMachine for Prepared {
    type Error = ScenarioError<ArchError>;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, Self::Error> {
        each!(self, s => s.run_path(path).map_err(ScenarioError::erased))
    }

    fn advance(&mut self, cycles: u64) {
        each!(self, s => s.advance(cycles))
    }

    fn now(&self) -> u64 {
        each!(self, s => s.now())
    }

    fn accounted(&self) -> Result<Accounted, Self::Error> {
        each!(self, s => s.accounted().map_err(ScenarioError::erased))
    }

    fn has_path(&self, path: PathKind) -> bool {
        each!(self, s => s.has_path(path))
    }
}

/// A workload's report with where its cycles went (per instruction group, by label).
#[derive(Debug, Clone)]
pub struct Attributed {
    /// The scenario report.
    pub report: ScenarioReport,
    /// The cycles of each instruction group with why it waited (x86-64 and s390x: over one
    /// more system call after the workload, from its timeline).
    pub groups: Vec<GroupCost>,
}

impl Trace {
    /// The tick rate compiled into this trace's code, when its C fixes one (the x86 traces:
    /// `#define HZ 1000`); a workload's ticks then run at that rate.
    pub fn compiled_hz(&self) -> Option<u64> {
        match self.arch {
            Arch::X86_64 => Some(x86::KERNEL_HZ),
            Arch::Ia64 | Arch::S390x => None,
        }
    }

    /// Workload `w` (given on the Itanium 2 clock, as the command line takes it) as it runs on
    /// this trace's core: the same events and cycle counts on that core's clock, the ticks at
    /// the [`Trace::compiled_hz`] when there is one (unless ticks are off).
    pub fn workload(&self, w: &Workload) -> Workload {
        if self.arch == Arch::Ia64 {
            return w.clone();
        }
        let hz = match self.compiled_hz() {
            Some(hz) if w.hz != 0 => hz,
            _ => w.hz,
        };
        Workload { cpu_hz: self.arch.core_hz(), hz, ..w.clone() }
    }

    /// This trace on its core, its paths bound and its counters located, ready for workload
    /// `w` (as [`Trace::workload`] adapts it: tick sampling charges its tick period per tick).
    /// `image` replaces the trace's own code (a patched or differently configured build of its
    /// source: same harness, same bindings by symbol); `timing` off runs one cycle per
    /// instruction (group).
    ///
    /// # Errors
    /// The trace does not assemble or load, its harness is wrong, a bound symbol or counter is
    /// missing, a set-up call fails.
    pub fn prepare(&self, image: Option<&Image>, w: &Workload, timing: bool) -> Result<Prepared, BindError> {
        Ok(match self.arch {
            Arch::Ia64 => Prepared::Ia64(Box::new(ia64::prepare_timed(self, image, &self.workload(w), timing)?)),
            Arch::X86_64 => Prepared::X86(Box::new(x86::prepare_timed(self, image, timing)?)),
            Arch::S390x => Prepared::S390(Box::new(s390::prepare_timed(self, image, timing)?)),
        })
    }

    /// Prepares this trace and runs workload `w` (as [`Trace::workload`] adapts it) through
    /// it; `progress` is called as [`emu_core::scenario::run`] calls it.
    ///
    /// # Errors
    /// As [`Trace::prepare`]; a path that fails.
    pub fn run(&self, w: &Workload, progress: &mut dyn FnMut(u64)) -> Result<ScenarioReport, BindError> {
        let aw = self.workload(w);
        let mut s = self.prepare(None, &aw, true)?;
        Ok(run_workload(&mut s, &aw, progress)?)
    }

    /// [`Trace::run`] on `image` (or the trace's own code), with where the cycles went: the
    /// IA-64 core keeps a per-group profile over the workload, then runs one more system call
    /// with its timeline on to tell why each group waited (its cycles stay out of the profile).
    ///
    /// # Errors
    /// As [`Trace::run`].
    pub fn run_attributed(&self, image: Option<&Image>, w: &Workload) -> Result<Attributed, BindError> {
        let aw = self.workload(w);
        let own;
        let image = match image {
            None if self.arch == Arch::Ia64 => {
                // Assembled once: the profile names its groups by this image's labels.
                own = self.assemble().map_err(BindError::Assemble)?.image;
                Some(&own)
            }
            image => image,
        };
        match self.prepare(image, &aw, true)? {
            Prepared::Ia64(mut s) => {
                s.machine.cpu.enable_profile();
                let report = run_workload(&mut *s, &aw, &mut |_| {})?;
                let profile = s.machine.cpu.profile().cloned();
                s.machine.cpu.record_timeline(true);
                s.advance(aw.user_cycles);
                s.run_path(PathKind::SyscallEnter)?;
                s.advance(aw.kernel_cycles);
                s.run_path(PathKind::SyscallExit)?;
                let groups = match (profile, image) {
                    (Some(p), Some(image)) => arch_ia64::profile::named_groups(&p, image, s.machine.cpu.timeline()),
                    _ => Vec::new(),
                };
                Ok(Attributed { report, groups })
            }
            Prepared::X86(mut s) => {
                let report = run_workload(&mut *s, &aw, &mut |_| {})?;
                let image = self.compiled_image(image, &arch_x86::reloc::X86Relocations)?;
                let groups = one_call_groups(&mut s, &aw, &image, |cpu, on| cpu.record_timeline(on))?;
                Ok(Attributed { report, groups })
            }
            Prepared::S390(mut s) => {
                let report = run_workload(&mut *s, &aw, &mut |_| {})?;
                let image = self.compiled_image(image, &arch_s390::reloc::S390Relocations)?;
                let groups = one_call_groups(&mut s, &aw, &image, |cpu, on| cpu.record_timeline(on))?;
                Ok(Attributed { report, groups })
            }
        }
    }

    /// `image`, else this compiled trace's committed object loaded under its harness (the
    /// symbols attribution names groups by).
    fn compiled_image(
        &self,
        image: Option<&Image>,
        rules: &dyn emu_core::elf::Relocations,
    ) -> Result<Image, BindError> {
        match image {
            Some(image) => Ok(image.clone()),
            None => compiled::load_with_harness(self.harness_name, self.harness, compiled::object(self)?, rules),
        }
    }
}

/// Where one more system call's cycles go on a compiled core (x86-64, s390x), which keeps no
/// running profile: each path runs with a fresh timeline and its groups are charged from it
/// ([`Profile::from_timeline`]), so the phases between the paths are charged to no group.
/// The call stands for every call of the workload (the report divides by their number): the
/// compiled paths take the same branches each call, ticks aside, which this call leaves out.
fn one_call_groups<A>(
    s: &mut emu_core::scenario::Scenario<A>,
    aw: &Workload,
    image: &Image,
    record: impl Fn(&mut A::Cpu, bool),
) -> Result<Vec<GroupCost>, BindError>
where
    A: emu_core::scenario::Adapter,
    A::Cpu: emu_core::run::Core,
    <A::Cpu as emu_core::cpu::Cpu>::Error: Send + Sync,
{
    use emu_core::cpu::Cpu as _;
    use emu_core::run::Core as _;
    let mut profile = Profile::new();
    for (phase, path) in [(aw.user_cycles, PathKind::SyscallEnter), (aw.kernel_cycles, PathKind::SyscallExit)] {
        s.advance(phase);
        record(&mut s.machine.cpu, false);
        record(&mut s.machine.cpu, true);
        s.run_path(path)?;
        let Some(timeline) = s.machine.cpu.timeline() else { break };
        let mut timeline = timeline.clone();
        timeline.name_producers();
        profile.merge(Profile::from_timeline(&timeline, s.machine.cpu.cycles()));
    }
    record(&mut s.machine.cpu, false);
    Ok(profile.repeated(aw.syscalls).named_groups(image, &|a| a, &|_| None))
}

/// The address of the harness counter `name` (which must be 8 bytes wide), resolved in `env`.
pub(crate) fn counter_address(trace: &Trace, harness: &Harness, env: &Env<'_>, name: &str) -> Result<u64, BindError> {
    let c = harness
        .counters
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| setup_error(trace, format!("trace {}: the harness has no counter `{name}`", trace.name)))?;
    if c.width != 8 {
        return Err(BindError::Setup(
            c.address.origin.error(format!("counter `{name}` must be 8 bytes wide for a scenario")),
        ));
    }
    if let Some(field) = c.address.offset_name().filter(|n| env.lookup(n).is_none()) {
        // The build names the fields it keeps; one it lacks means the harness was written for
        // another layout, and reading there would report a stale or foreign field as the time.
        return Err(BindError::Setup(c.address.origin.error(format!(
            "trace {}: counter `{name}` is at `{}`, but the code that runs does not define `{field}`: \
             the harness's layout does not match this build (its defines or patch); give a harness for it",
            trace.name,
            c.address.text.trim()
        ))));
    }
    env.eval(&c.address).map_err(BindError::Setup)
}

/// The binding's path when a workload can run it (a [`PathKind::Call`] is run on its own).
pub(crate) fn scenario_path(trace: &Trace, kind: PathKind) -> Result<PathKind, BindError> {
    match kind {
        PathKind::Call => Err(setup_error(trace, format!("trace {}: unknown path `{}`", trace.name, kind.name()))),
        kind => Ok(kind),
    }
}

#[cfg(test)]
mod tests;
