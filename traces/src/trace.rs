//! What a trace is: source, defines, harness, path bindings and accounting counters.

use arch_ia64::asm::{assemble, Assembly};
use emu_core::error::{Diagnostic, Diagnostics, SourceLoc};
use emu_core::preprocess::{PreprocessOptions, SourceLoader};

/// The instruction-set architecture a trace is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arch {
    /// IA-64 (Itanium), assembled by `arch_ia64::asm`.
    Ia64,
    /// x86-64: C compiled by gcc into a committed relocatable object ([`Trace::object`]),
    /// loaded and run by `arch_x86`.
    X86_64,
    /// s390x (z/Architecture): assembly and C built by `traces/s390/build.sh` into a committed
    /// big-endian relocatable object ([`Trace::object`]), run by `arch_s390`.
    S390x,
}

impl Arch {
    /// The short name used in catalogue names and listings (`ia64`).
    pub fn name(self) -> &'static str {
        match self {
            Arch::Ia64 => "ia64",
            Arch::X86_64 => "x86_64",
            Arch::S390x => "s390x",
        }
    }
}

/// The kinds of path a trace binds: the scenario's, and [`PathKind::Call`] for a helper run on
/// its own.
pub use emu_core::scenario::PathKind;

/// Where a path ends: the runner stops there and the path's cycles are counted up to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathEnd {
    /// Control reaches this symbol (IA-64: the label where the path's work ends). The compiled
    /// traces' paths end with [`PathEnd::RETURN`].
    Symbol(&'static str),
    /// The return from interruption (`rfi`) retires: the runner stops on the rfi event.
    Rfi,
}

impl PathEnd {
    /// The x86 paths are C functions: they end when they return to the runner's sentinel
    /// return address, which harness expressions name `sentinel`.
    pub const RETURN: PathEnd = PathEnd::Symbol("sentinel");
}

/// One path of a trace: where it starts, how it starts, where it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Binding {
    /// Which path this is.
    pub kind: PathKind,
    /// The symbol the path starts at. For [`PathKind::Tick`] it is the handler the
    /// interruption vectors to: the runner delivers an external interrupt rather than setting
    /// the instruction pointer.
    pub start: &'static str,
    /// Where the path ends.
    pub end: PathEnd,
}

/// How a trace accounts CPU time, and the harness counters that hold the result. The
/// counters' unit is the harness counter's `unit`: ticks or ar.itc cycles on ia64,
/// nanoseconds (cputime_t with VIRT_CPU_ACCOUNTING_GEN) on x86.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Accounting {
    /// Each tick charges one whole jiffy to the mode it interrupted; counters in ticks (ia64)
    /// or in the jiffy's nanoseconds (x86).
    TickSampling {
        /// Harness counter with the user ticks.
        utime_counter: &'static str,
        /// Harness counter with the system ticks.
        stime_counter: &'static str,
    },
    /// The entry and exit paths read a clock and charge the intervals; counters in cycles
    /// (ia64 ar.itc) or nanoseconds (x86, sched_clock or, after patch 4, whole jiffies).
    Virtual {
        /// Harness counter with the accumulated user time.
        utime_counter: &'static str,
        /// Harness counter with the accumulated system time.
        stime_counter: &'static str,
    },
}

impl Accounting {
    /// A helper that accounts nothing (`x86/sched-avg/*`, `x86/timer-target/*`): no counters.
    pub const NONE: Accounting = Accounting::Virtual { utime_counter: "", stime_counter: "" };

    /// The user and system time counters, or `None` for [`Accounting::NONE`].
    pub fn counters(&self) -> Option<(&'static str, &'static str)> {
        let (Accounting::TickSampling { utime_counter, stime_counter }
        | Accounting::Virtual { utime_counter, stime_counter }) = *self;
        if utime_counter.is_empty() && stime_counter.is_empty() {
            None
        } else {
            Some((utime_counter, stime_counter))
        }
    }
}

/// A harness value `acctemu sweep` can vary on a trace that binds a [`PathKind::Call`]: each
/// point is one call of the helper with this value set (see [`Trace::call_point`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Knob {
    /// The CPU count: the harness is generated for N CPUs ([`crate::timer_target::harness`]),
    /// one of them housekeeping.
    Cpus,
    /// The periods of `sysctl_sched_time_avg / 2` missed since the last update: the harness's
    /// rq.clock is set that far past its age stamp.
    MissedPeriods,
}

impl Knob {
    /// The name `--param` takes (`cpus`, `missed-periods`).
    pub fn name(self) -> &'static str {
        match self {
            Knob::Cpus => "cpus",
            Knob::MissedPeriods => "missed-periods",
        }
    }

    /// What a sweep of this knob measures, for messages.
    pub fn what(self) -> &'static str {
        match self {
            Knob::Cpus => "it sweeps one call of get_nohz_timer_target (x86/timer-target/*)",
            Knob::MissedPeriods => "it sweeps one call of sched_avg_update (x86/sched-avg/*)",
        }
    }
}

/// One catalogued trace version.
#[derive(Debug, Clone, Copy)]
pub struct Trace {
    /// Catalogue name, `arch/path/version` (`ia64/syscall/v1`).
    pub name: &'static str,
    /// The architecture of the source.
    pub arch: Arch,
    /// The seed document the hunks come from (a file name under the shared seeds directory).
    pub seed: &'static str,
    /// One line for listings.
    pub description: &'static str,
    /// File name of the source, used in diagnostics and by `acctemu show`.
    pub source_name: &'static str,
    /// The source: ia64 assembly, or the C the x86 or s390x object is compiled from (the s390x
    /// object also holds `traces/s390/entry.S`).
    pub source: &'static str,
    /// Preprocessor defines `(name, value)` that select this version (x86: the `-D` flags
    /// `traces/x86/build.sh` passes).
    pub defines: &'static [(&'static str, &'static str)],
    /// File name of the harness.
    pub harness_name: &'static str,
    /// The TOML harness (see `emu_core::harness`).
    pub harness: &'static str,
    /// The paths this version binds.
    pub bindings: &'static [Binding],
    /// How it accounts time and where the counters are.
    pub accounting: Accounting,
    /// The compiled relocatable ELF object (x86: `traces/x86/obj/*.o`, built by
    /// `traces/x86/build.sh`; s390x: `traces/s390/obj/*.o`, built by `traces/s390/build.sh`);
    /// `None` for traces assembled from source (ia64).
    pub object: Option<&'static [u8]>,
    /// The harness value a sweep varies on this trace's call, when it has one.
    pub knob: Option<Knob>,
}

/// The source has no `#include`: a loader that finds nothing keeps the build hermetic.
struct NoIncludes;

impl SourceLoader for NoIncludes {
    fn load(&self, path: &std::path::Path) -> std::io::Result<String> {
        Err(std::io::Error::new(std::io::ErrorKind::NotFound, format!("{}: traces include nothing", path.display())))
    }
}

impl Trace {
    /// The preprocessor options of this version: its defines, nothing else.
    pub fn preprocess_options(&self) -> PreprocessOptions {
        self.defines.iter().fold(PreprocessOptions::new(), |o, (name, value)| o.defined(*name, *value))
    }

    /// Assembles this version's source with its defines. An x86 trace is not assembled:
    /// its code is [`Trace::object`].
    ///
    /// # Errors
    /// The assembler's diagnostics (a catalogue test keeps every version assembling); for
    /// an x86 trace, one error located at its source.
    pub fn assemble(&self) -> Result<Assembly, Diagnostics> {
        if self.arch != Arch::Ia64 {
            let loc = SourceLoc::new(self.source_name.into(), 0, 0);
            let msg =
                format!("{} is an {} trace: run its compiled object, not the assembler", self.name, self.arch.name());
            return Err(Diagnostics(vec![Diagnostic::error(loc, msg)]));
        }
        assemble(self.source_name, self.source, &self.preprocess_options(), &NoIncludes)
    }

    /// Assembles `source` (this version's source as changed by the user: patched, under other
    /// defines) with `options` and `loader`; the version keeps its harness and bindings.
    ///
    /// # Errors
    /// The assembler's diagnostics; for a compiled trace, one error located at its source (its
    /// C needs the cross compiler).
    pub fn assemble_source(
        &self,
        source: &str,
        options: &PreprocessOptions,
        loader: &dyn SourceLoader,
    ) -> Result<Assembly, Diagnostics> {
        if self.arch != Arch::Ia64 {
            return self.assemble();
        }
        assemble(self.source_name, source, options, loader)
    }

    /// The binding of `kind`, if this version has that path.
    pub fn binding(&self, kind: PathKind) -> Option<&'static Binding> {
        self.bindings.iter().find(|b| b.kind == kind)
    }
}
