//! Scenarios of the x86-64 traces: each path is a call of a compiled C function with the task
//! in rdi; the clock is the Zen 4 model's, so the workload's cycles are that core's.

use super::compiled::{bind_paths, setup_error};
use super::scenario::counter_address;
use super::CliError;
use arch_x86::run::{RunConfig, SENTINEL};
use arch_x86::scenario::{Accounting, Bindings, X86Scenario};
use arch_x86::timing::X86Params;
use emu_core::harness::Harness;
use emu_core::scenario::Workload;

/// The TSC rate the x86 harnesses' cyc2ns mult/shift assume (reference/x86-host.md: 2600 MHz).
pub const TSC_HZ: u64 = 2_600_000_000;

/// Path budget: the longest trace function (a 64-CPU timer-target walk) stays far below it.
const PATH_BUDGET: u64 = 200_000;

/// The modelled core's cycles per second: the TSC rate divided by TSC ticks per cycle.
pub fn core_hz() -> u64 {
    TSC_HZ * 1000 / X86Params::default().tsc_per_kcycle.max(1)
}

/// The kernel HZ the x86 traces are compiled with (`#define HZ 1000` in nohz_syscall.c): a tick
/// rate the C does not assume would skew its jiffy arithmetic.
pub const KERNEL_HZ: u64 = 1000;

/// `w` on the x86 clock: the same system calls and cycle counts on this core's cycles, ticks at
/// the traces' kernel HZ (unless ticks are off).
pub fn workload(w: &Workload) -> Workload {
    Workload { cpu_hz: core_hz(), hz: if w.hz == 0 { 0 } else { KERNEL_HZ }, ..w.clone() }
}

/// Loads the trace's committed object, applies its harness and binds its paths.
///
/// # Errors
/// A trace without an object, harness or binding errors.
pub fn prepare_image(trace: &traces::Trace, image: &emu_core::image::Image) -> Result<X86Scenario, CliError> {
    prepare_image_timed(trace, image, true)
}

/// [`prepare_image`] with the Zen 4 timing model on or off (off: one cycle per instruction).
///
/// # Errors
/// As [`prepare_image`].
pub fn prepare_image_timed(
    trace: &traces::Trace,
    image: &emu_core::image::Image,
    timing: bool,
) -> Result<X86Scenario, CliError> {
    let harness = Harness::parse(trace.harness_name, trace.harness).map_err(CliError::Setup)?;
    let cfg = RunConfig { harness: Some(harness), max_insns: PATH_BUDGET, timing, ..RunConfig::default() };
    let (machine, harness) = arch_x86::run::prepare(image, &cfg).map_err(|e| setup_error(trace, e.to_string()))?;
    let outer = emu_core::setup::image_symbols(image, SENTINEL);
    let env = harness.env(&outer).map_err(CliError::Setup)?;
    let paths = bind_paths(trace, &env)?;
    let (utime, stime) = match trace.accounting {
        traces::Accounting::Virtual { utime_counter, stime_counter }
        | traces::Accounting::TickSampling { utime_counter, stime_counter } => (utime_counter, stime_counter),
    };
    let accounting = Accounting::Nanoseconds {
        utime_addr: counter_address(trace, &harness, &env, utime)?,
        stime_addr: counter_address(trace, &harness, &env, stime)?,
        cycles_per_ns: core_hz() as f64 / 1e9,
    };
    let state = &machine.cpu.state;
    let bindings = Bindings {
        paths,
        task: state.reg(7),
        sentinel: SENTINEL,
        stack_top: state.reg(4),
        jiffies: env.lookup("jiffies"),
        accounting,
        max_insns: PATH_BUDGET,
    };
    Ok(X86Scenario::new(machine, bindings))
}

/// Loads `bytes`, resolving the C's extern symbols to the harness regions of the same name.
///
/// # Errors
/// A harness or object that does not load.
pub fn load_trace_object(trace: &traces::Trace, bytes: &[u8]) -> Result<emu_core::image::Image, CliError> {
    load_with_harness(trace.harness_name, trace.harness, bytes)
}

/// Loads `bytes`, resolving extern symbols to the regions of the harness `text` (named `name`).
///
/// # Errors
/// A harness or object that does not load.
pub fn load_with_harness(name: &str, text: &str, bytes: &[u8]) -> Result<emu_core::image::Image, CliError> {
    super::compiled::load_with_harness(name, text, bytes, &arch_x86::reloc::X86Relocations)
}

/// [`prepare_image`] on the trace's committed object.
///
/// # Errors
/// As [`prepare_image`]; a trace without an object.
pub fn prepare(trace: &traces::Trace, _w: &Workload) -> Result<X86Scenario, CliError> {
    prepare_timed(trace, true)
}

/// [`prepare`] with the timing model on or off.
///
/// # Errors
/// As [`prepare_image`]; a trace without an object.
pub fn prepare_timed(trace: &traces::Trace, timing: bool) -> Result<X86Scenario, CliError> {
    let bytes = trace.object.ok_or_else(|| setup_error(trace, format!("trace {} has no object", trace.name)))?;
    let image = load_trace_object(trace, bytes)?;
    prepare_image_timed(trace, &image, timing)
}
