//! The x86-64 traces' bindings: each path is a call of a compiled C function with the task in
//! rdi; the clock is the Zen 4 model's, so the workload's cycles are that core's.

use super::compiled::{bind_paths, load_with_harness as load_with_rules, object};
use super::{counter_address, setup_error, BindError};
use crate::trace::Trace;
use arch_x86::run::{RunConfig, SENTINEL};
use arch_x86::scenario::{Accounting, Bindings, X86Scenario};
use arch_x86::timing::X86Params;
use emu_core::harness::Harness;
use emu_core::image::Image;

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

/// Loads `bytes`, resolving the C's extern symbols to the regions of the harness `text` (named
/// `name`) of the same name.
///
/// # Errors
/// A harness or object that does not load.
pub fn load_with_harness(name: &str, text: &str, bytes: &[u8]) -> Result<Image, BindError> {
    load_with_rules(name, text, bytes, &arch_x86::reloc::X86Relocations)
}

/// The trace's committed object (or `image`, a build of its source) under its harness, its
/// paths bound, the Zen 4 timing model on or off (off: one cycle per instruction).
///
/// # Errors
/// A trace without an object, harness or binding errors.
pub fn prepare_timed(trace: &Trace, image: Option<&Image>, timing: bool) -> Result<X86Scenario, BindError> {
    let own;
    let image = match image {
        Some(image) => image,
        None => {
            own = load_with_harness(trace.harness_name, trace.harness, object(trace)?)?;
            &own
        }
    };
    let harness = Harness::parse(trace.harness_name, trace.harness).map_err(BindError::Setup)?;
    let cfg = RunConfig { harness: Some(harness), max_insns: PATH_BUDGET, timing, ..RunConfig::default() };
    let (machine, harness) = arch_x86::run::prepare(image, &cfg).map_err(|e| setup_error(trace, e.to_string()))?;
    let outer = emu_core::setup::image_symbols(image, SENTINEL);
    let env = harness.env(&outer).map_err(BindError::Setup)?;
    let paths = bind_paths(trace, &env)?;
    let (utime, stime) = match trace.accounting {
        crate::Accounting::Virtual { utime_counter, stime_counter }
        | crate::Accounting::TickSampling { utime_counter, stime_counter } => (utime_counter, stime_counter),
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
