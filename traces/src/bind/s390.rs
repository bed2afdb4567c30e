//! The s390x traces' bindings: each path is a function of the committed object (entry.S's
//! bookkeeping or vtime.c's accounting) called with the task in r2; the clock is the z13
//! model's at 5 GHz, and the CPU timer and TOD run from it.

use super::compiled::{bind_paths, load_with_harness, object};
use super::{counter_address, setup_error, BindError};
use crate::trace::Trace;
use arch_s390::run::{prepare as prepare_machine, RunConfig, SENTINEL};
use arch_s390::scenario::{Accounting, Bindings, S390Scenario, Unit};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::scenario::{PathEnd, PathKind, ScenarioMachine};

/// Path budget: the longest vtime path (a five-bucket flush) runs a few hundred instructions.
const PATH_BUDGET: u64 = 100_000;

/// The boot-time call that starts the CPU timer and the lowcore snapshots together, run once
/// before the workload when the object defines it.
const INIT_SYMBOL: &str = "vtime_init";

/// The modelled core's cycles per second (`CpuConfig::default().freq_mhz`).
pub fn core_hz() -> u64 {
    arch_s390::cpu::CpuConfig::default().freq_mhz.saturating_mul(1_000_000)
}

/// Loads the trace's committed object under its harness, binds its paths and its cpustat
/// counters (ns: user, system, guest, hardirq, softirq), and runs `vtime_init`.
///
/// # Errors
/// A trace without an object, harness, binding or counter errors; a failing `vtime_init`.
pub fn prepare(trace: &Trace) -> Result<S390Scenario, BindError> {
    prepare_with_image(trace, None, true).map(|(scenario, _)| scenario)
}

/// [`prepare`] on `image` (else the committed object), with the z13 timing model on or off
/// (off: one cycle per instruction).
///
/// # Errors
/// As [`prepare`].
pub fn prepare_timed(trace: &Trace, image: Option<&Image>, timing: bool) -> Result<S390Scenario, BindError> {
    prepare_with_image(trace, image, timing).map(|(scenario, _)| scenario)
}

/// [`prepare_timed`], also returning the image (where each section and symbol went).
fn prepare_with_image(trace: &Trace, image: Option<&Image>, timing: bool) -> Result<(S390Scenario, Image), BindError> {
    let image = match image {
        Some(image) => image.clone(),
        None => {
            load_with_harness(trace.harness_name, trace.harness, object(trace)?, &arch_s390::reloc::S390Relocations)?
        }
    };
    let harness = Harness::parse(trace.harness_name, trace.harness).map_err(BindError::Setup)?;
    let cfg = RunConfig { harness: Some(harness), max_insns: PATH_BUDGET, timing, ..RunConfig::default() };
    let (machine, harness) = prepare_machine(&image, &cfg).map_err(|e| setup_error(trace, e.to_string()))?;
    let outer = emu_core::setup::image_symbols(&image, SENTINEL);
    let env = harness.env(&outer).map_err(BindError::Setup)?;
    let paths = bind_paths(trace, &env)?;
    let (utime, stime) = trace
        .accounting
        .counters()
        .ok_or_else(|| setup_error(trace, format!("trace {} names no accounting counters", trace.name)))?;
    let counter = |name: &str| counter_address(trace, &harness, &env, name);
    let optional = |name: &str| harness.counters.iter().any(|c| c.name == name).then(|| counter(name)).transpose();
    let accounting = Accounting {
        utime_addr: counter(utime)?,
        stime_addr: counter(stime)?,
        guest_addr: optional("cpustat_guest")?,
        hardirq_addr: optional("cpustat_hardirq")?,
        softirq_addr: optional("cpustat_softirq")?,
        unit: Unit::Nanoseconds { cycles_per_ns: core_hz() as f64 / 1e9 },
    };
    let bindings = Bindings {
        paths,
        task: env
            .lookup("task")
            .ok_or_else(|| setup_error(trace, format!("trace {}: the harness has no `task`", trace.name)))?,
        sentinel: SENTINEL,
        stack_pointer: machine.cpu.state.reg(15),
        accounting,
        max_insns: PATH_BUDGET,
    };
    let init = env.lookup(INIT_SYMBOL);
    drop(env);
    drop(outer);
    let mut scenario = S390Scenario::new(machine, bindings);
    if let Some(init) = init {
        scenario.call(INIT_SYMBOL, init, PathEnd::ReturnOrRfi)?;
    }
    Ok((scenario, image))
}

// The llvm-mca comparison's input (issue 15): shared by examples/s390_path_insns.rs and
// tests/s390_mca.rs.

/// One run of a path: the model's figures and the offsets into `.text` of the instructions it
/// executed, in order.
#[derive(Debug, Clone)]
pub struct TracedPath {
    /// Which path.
    pub path: PathKind,
    /// The model's cycles for the run.
    pub cycles: u64,
    /// Instructions executed.
    pub instructions: u64,
    /// `.text` offsets of the executed instructions.
    pub offsets: Vec<u64>,
}

/// The paths in the workload's order: guest exit and enter, a syscall, an interrupt, a tick.
pub const TRACED_ORDER: [PathKind; 7] = {
    use PathKind::{GuestEnter, GuestExit, IrqEnter, IrqExit, SyscallEnter, SyscallExit, Tick};
    [GuestExit, GuestEnter, SyscallEnter, SyscallExit, IrqEnter, IrqExit, Tick]
};

/// Runs every path of [`TRACED_ORDER`] three times, each after 10,000 cycles of other work,
/// and returns the third round (the first two warm the accounting state up).
///
/// # Errors
/// Setup errors of [`prepare`]; a path that fails; an image without code.
pub fn traced_paths(trace: &Trace) -> Result<Vec<TracedPath>, BindError> {
    use emu_core::image::SectionKind;
    let (mut s, image) = prepare_with_image(trace, None, true)?;
    let text = image
        .sections
        .iter()
        .find(|sec| sec.kind == SectionKind::Code)
        .ok_or_else(|| setup_error(trace, format!("trace {}: no code section", trace.name)))?;
    let base = text.addr;
    let mut out = Vec::new();
    for round in 0..3 {
        for path in TRACED_ORDER {
            s.advance(10_000);
            let mut offsets = Vec::new();
            let run = s.run_path_traced(path, |pc| offsets.push(pc.wrapping_sub(base)))?;
            if round == 2 {
                out.push(TracedPath { path, cycles: run.cycles, instructions: run.instructions, offsets });
            }
        }
    }
    Ok(out)
}
