//! The kernel harness in a few calls: a tree's objects ([`super::sources`]) linked by
//! acctemu's linker with the harness's `ia64_handle_irq` ([`super::irq`]), every other
//! undefined symbol bound to data in harness memory or to a stub, booted
//! ([`super::setup`]) and run ([`super::paths`]).
//!
//! ```no_run
//! use arch_ia64::kernel::harness::{Call, KernelHarness, HarnessOptions};
//! use arch_ia64::kernel::{EntryKind, KernelSources};
//! use emu_core::kernel::KernelConfig;
//! let config = KernelConfig::parse(".config", "CONFIG_MCKINLEY=y\n").unwrap();
//! let objects = KernelSources::new("/usr/src/linux-6.1", config).build().unwrap();
//! let harness = KernelHarness::new(objects, HarnessOptions::default()).unwrap();
//! // 100 getpid calls through the gate, the default stubs.
//! let run = harness.run_kind(EntryKind::FsysGetpid, 100, Vec::new()).unwrap();
//! println!("{} cycles per call", run.mean_cycles(1));
//! // Any program: the caller's own stubs replace the defaults of the same name.
//! let calls = [Call::epc(1057, &[0]), Call::epc(1029, &[3])];
//! let run = harness.run(&calls, Some(100_000), 50, Vec::new()).unwrap();
//! # let _ = run;
//! ```
//!
//! Bindings. Data: the symbols in [`DATA_SYMBOLS`] (used only by paths the harness does not
//! take: the TLB-miss handlers, `fsys_gettimeofday`, clone) get zeroed harness memory.
//! Stubs, unless the caller passes one of the same name: the system calls of the
//! Unixbench loop return what they would for a fresh process ([`DEFAULT_RETURNS`]: dup(0)
//! the next descriptor 3, close 0, getpid [`super::setup::PID`], getuid 1000, umask the
//! default 022), `sys_ni_syscall` -ENOSYS, `timer_interrupt` IRQ_HANDLED, all at no cost
//! (so the cycles measured are the entry and exit paths' own); every other function is an
//! [`Unmodelled`] stub whose call stops the run naming it.

use std::any::Any;
use std::collections::HashMap;

use super::irq::TICK_INTERVAL_SYMBOL;
use super::offsets::Offsets;
use super::paths::{self, EntryKind, PathError, PathRun};
use super::setup::{self, KernelMachine, SetupError, SetupOptions, PID};
use super::sources::{KernelObjects, SourcesError};
use super::user::{self, UserEntry};
use crate::timing::Itanium2Params;
use emu_core::error::Diagnostics;
use emu_core::link::{Bindings, LinkError, LinkOptions, Linked};
use emu_core::stub::{Stub, StubCtx, StubError, StubReturn, StubSpec};

/// Undefined data symbols of the entry objects and the bytes of zeroed memory each gets.
pub const DATA_SYMBOLS: &[(&str, u64)] = &[
    ("swapper_pg_dir", 0x2000),
    ("init_task", 0x2000),
    ("fsyscall_gtod_data", 0x1000),
    ("itc_jitter_data", 0x1000),
    ("cpu_to_node_map", 0x1000),
];

/// The default stubs' return values (see the module documentation).
pub const DEFAULT_RETURNS: &[(&str, i64)] = &[
    ("sys_dup", 3),
    ("sys_close", 0),
    ("sys_getpid", PID as i64),
    ("sys_getuid", 1000),
    ("sys_umask", 0o22),
    ("sys_ni_syscall", -38),
    ("timer_interrupt", 1),
];

/// Where the data symbols go: behind the task's signal_struct and pid in the kernel-data
/// region.
const DATA_OFFSET: u64 = 0x4000;
/// Where the tick interval the interrupt stand-in reads lives in the kernel-data region.
const TICK_INTERVAL_OFFSET: u64 = 0x3000;

/// A C function the harness does not model: calling it stops the run.
#[derive(Debug, Clone)]
pub struct Unmodelled {
    name: String,
}

impl Unmodelled {
    /// The stub for `name`.
    pub fn new(name: impl Into<String>) -> Unmodelled {
        Unmodelled { name: name.into() }
    }
}

impl Stub for Unmodelled {
    fn name(&self) -> &str {
        &self.name
    }

    fn call(&mut self, _ctx: &mut dyn StubCtx) -> Result<StubReturn, StubError> {
        Err(StubError(format!(
            "`{}` is not modelled by the kernel harness (the path reached it); pass a stub for it",
            self.name
        )))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One call of a user program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// System-call number (`__NR_*`, 1024 and up).
    pub nr: u64,
    /// Arguments (at most 8).
    pub args: Vec<u64>,
    /// Through `break 0x100000` (else through the gate, as glibc calls).
    pub by_break: bool,
}

impl Call {
    /// `break 0x100000` with r15 = `nr`.
    pub fn brk(nr: u64, args: &[u64]) -> Call {
        Call { nr, args: args.to_vec(), by_break: true }
    }

    /// `br.call` to `__kernel_syscall_via_epc` with r15 = `nr`.
    pub fn epc(nr: u64, args: &[u64]) -> Call {
        Call { nr, args: args.to_vec(), by_break: false }
    }
}

/// How the harness runs.
#[derive(Debug, Clone)]
pub struct HarnessOptions {
    /// The Itanium 2 timing model (else one cycle per instruction group).
    pub timing: bool,
    /// ITC ticks between two timer interrupts for [`EntryKind::Tick`]'s program (the tick's
    /// own cost does not depend on it; Linux's is ITC frequency / HZ). [`KernelHarness::run`]
    /// takes its own.
    pub tick_interval: u64,
    /// The most instructions a run may take per round trip asked for.
    pub budget_per_trip: u64,
}

impl Default for HarnessOptions {
    fn default() -> Self {
        HarnessOptions { timing: true, tick_interval: 20_000, budget_per_trip: 1_000_000 }
    }
}

/// Why the harness could not run.
#[derive(Debug, Clone, thiserror::Error)]
pub enum HarnessError {
    /// The tree did not build.
    #[error(transparent)]
    Sources(#[from] SourcesError),
    /// The objects did not link (every unbound symbol is named with its object).
    #[error("linking the kernel objects: {0}")]
    Link(String),
    /// The stubs do not match the bindings.
    #[error("stubs: {0}")]
    Stubs(String),
    /// A harness-generated program did not assemble.
    #[error("{0}")]
    Assemble(Diagnostics),
    /// The machine could not be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The path did not complete.
    #[error(transparent)]
    Path(#[from] PathError),
}

/// A built tree ready to run paths.
#[derive(Debug, Clone)]
pub struct KernelHarness {
    /// The tree's objects.
    pub objects: KernelObjects,
    /// Its asm-offsets.
    pub offsets: Offsets,
    /// The options.
    pub options: HarnessOptions,
    /// The harness's `ia64_handle_irq` object.
    irq: Vec<u8>,
    /// Its assembled image (source lines).
    irq_image: emu_core::image::Image,
    /// The undefined symbols the link must bind (found by a link without bindings).
    undefined: Vec<String>,
}

impl KernelHarness {
    /// Prepares `objects`: assembles the interrupt stand-in and finds the symbols to bind.
    ///
    /// # Errors
    /// The stand-in does not assemble, or the objects do not link for another reason than
    /// unbound symbols.
    pub fn new(objects: KernelObjects, options: HarnessOptions) -> Result<KernelHarness, HarnessError> {
        let offsets = Offsets::parse(&objects.asm_offsets);
        let irq_asm = super::irq::assemble_handler(objects.constants.timer_vector).map_err(HarnessError::Assemble)?;
        let irq = irq_asm.object_file().map_err(|e| HarnessError::Link(e.to_string()))?;
        let mut h =
            KernelHarness { objects, offsets, options, irq, irq_image: irq_asm.image.clone(), undefined: Vec::new() };
        h.undefined = match h.link(&Bindings::default()) {
            Ok(_) => Vec::new(),
            Err(LinkError::Undefined(list)) => list.into_iter().map(|u| u.symbol).collect(),
            Err(e) => return Err(HarnessError::Link(e.to_string())),
        };
        Ok(h)
    }

    /// The undefined symbols of the objects (what the bindings cover).
    pub fn undefined(&self) -> &[String] {
        &self.undefined
    }

    fn link(&self, bindings: &Bindings) -> Result<Linked, LinkError> {
        let mut objs: Vec<(&str, &[u8])> =
            self.objects.objects.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
        objs.push(("harness_irq.o", &self.irq));
        let opts = LinkOptions { base: self.objects.constants.kernel_start, ..crate::link::options() };
        crate::link::link_with(&objs, bindings, &opts)
    }

    /// The bindings and the stub list: the caller's stubs, then the defaults for every other
    /// undefined function.
    fn bind(&self, mut stubs: Vec<Box<dyn Stub>>, kdata: u64) -> (Bindings, Vec<Box<dyn Stub>>) {
        let mut b = Bindings::default();
        let mut at = kdata + DATA_OFFSET;
        b.data.insert(TICK_INTERVAL_SYMBOL.to_string(), kdata + TICK_INTERVAL_OFFSET);
        for (name, size) in DATA_SYMBOLS {
            if self.undefined.iter().any(|u| u == name) {
                b.data.insert((*name).to_string(), at);
                at += size;
            }
        }
        for name in self.undefined.iter().filter(|u| !b.data.contains_key(*u)) {
            if !stubs.iter().any(|s| s.name() == name) {
                let stub: Box<dyn Stub> = match DEFAULT_RETURNS.iter().find(|(n, _)| n == name) {
                    Some((_, v)) => {
                        Box::new(StubSpec { name: name.clone(), returns: *v as u64, ..StubSpec::default() })
                    }
                    None => Box::new(Unmodelled::new(name.clone())),
                };
                stubs.push(stub);
            }
        }
        b.stubs = stubs.iter().map(|s| s.name().to_string()).collect();
        (b, stubs)
    }

    /// Links, boots and returns the machine for `calls` (none: a spin loop), with the timer
    /// firing every `timer` ITC ticks if given.
    ///
    /// # Errors
    /// Link, stub, setup errors.
    pub fn boot(
        &self,
        calls: &[Call],
        timer: Option<u64>,
        stubs: Vec<Box<dyn Stub>>,
    ) -> Result<KernelMachine, HarnessError> {
        let lay = super::layout::Layout::new(&self.offsets, &self.objects.constants)
            .map_err(|e| HarnessError::Setup(e.into()))?;
        let (bindings, stubs) = self.bind(stubs, lay.kdata);
        let linked = self.link(&bindings).map_err(|e| HarnessError::Link(e.to_string()))?;
        let gate_entry = linked
            .image
            .symbol("__kernel_syscall_via_epc")
            .map(|s| s.value)
            .ok_or_else(|| HarnessError::Setup(SetupError::Symbol("__kernel_syscall_via_epc".into(), "gate.S")))?;
        let program: Vec<UserEntry> = calls
            .iter()
            .map(|c| match c.by_break {
                true => UserEntry::Break { nr: c.nr, args: c.args.clone() },
                false => UserEntry::Epc { nr: c.nr, args: c.args.clone(), gate_entry },
            })
            .collect();
        let code = user::assemble_program(&program).map_err(HarnessError::Assemble)?;
        let symbols: HashMap<String, u64> = linked.image.symbols.iter().map(|s| (s.name.clone(), s.value)).collect();
        let table = crate::stub_call::StubTable::new(&linked.stubs, stubs, symbols).map_err(HarnessError::Stubs)?;
        let opts = SetupOptions { timing: self.options.timing.then(Itanium2Params::default), timer_delta: timer };
        let mut images: Vec<emu_core::image::Image> =
            self.objects.assemblies.iter().map(|(_, a)| a.image.clone()).collect();
        images.push(self.irq_image.clone());
        let sources = super::locate::SourceIndex::new(&linked.image, images);
        let mut km = setup::boot(linked.image, &self.offsets, &self.objects.constants, &code, &opts)?;
        km.sources = sources;
        if let Some(interval) = timer {
            let at = lay.kdata + TICK_INTERVAL_OFFSET;
            km.machine.mem.write_u64(at, interval).map_err(|e| HarnessError::Setup(e.into()))?;
        }
        km.machine.cpu.set_stubs(table);
        Ok(km)
    }

    /// Boots for `calls` and runs `trips` round trips.
    ///
    /// # Errors
    /// As [`KernelHarness::boot`], or the path fails.
    pub fn run(
        &self,
        calls: &[Call],
        timer: Option<u64>,
        trips: usize,
        stubs: Vec<Box<dyn Stub>>,
    ) -> Result<PathRun, HarnessError> {
        let mut km = self.boot(calls, timer, stubs)?;
        let budget = self.options.budget_per_trip.saturating_mul(trips as u64 + 1);
        Ok(paths::run(&mut km, trips, budget)?)
    }

    /// The program each entry kind runs: getuid through `break`, getuid through the gate
    /// (its fsyscall slot is empty, so it takes fsys_bubble_down), getpid through the gate
    /// (fsys_getpid), and the spin loop under the timer.
    pub fn program(&self, kind: EntryKind) -> (Vec<Call>, Option<u64>) {
        let nr = self.objects.constants.nr;
        match kind {
            EntryKind::Break => (vec![Call::brk(nr.getuid, &[])], None),
            EntryKind::EpcHeavy => (vec![Call::epc(nr.getuid, &[])], None),
            EntryKind::FsysGetpid => (vec![Call::epc(nr.getpid, &[])], None),
            EntryKind::Tick => (Vec::new(), Some(self.options.tick_interval)),
        }
    }

    /// Runs `trips` round trips of `kind`'s program.
    ///
    /// # Errors
    /// As [`KernelHarness::run`].
    pub fn run_kind(&self, kind: EntryKind, trips: usize, stubs: Vec<Box<dyn Stub>>) -> Result<PathRun, HarnessError> {
        let (calls, timer) = self.program(kind);
        self.run(&calls, timer, trips, stubs)
    }
}
