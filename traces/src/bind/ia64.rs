//! The IA-64 traces' bindings: the trace's source assembled (or a changed build of it), set up
//! under its harness, each path bound by symbol — the interrupt paths entered the way the
//! hardware enters them, through cr.iva — and the accounting counters located.

use super::{counter_address, scenario_path, setup_error, BindError};
use crate::trace::{Accounting as TraceAccounting, PathEnd as TraceEnd, Trace};
use arch_ia64::run::{prepare as prepare_machine, RunConfig, SENTINEL};
use arch_ia64::scenario::{bind, Accounting, Bindings, End, Ia64Scenario, PathBinding, Start, DEFAULT_PATH_BUDGET};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::scenario::{PathKind, Workload};

/// The trace assembled, set up under its harness and bound for workload `w` (tick sampling
/// charges `w`'s tick period per tick), with the Itanium 2 timing model.
///
/// # Errors
/// The trace does not assemble, its harness is wrong, a bound symbol or counter is missing.
pub fn prepare(trace: &Trace, w: &Workload) -> Result<Ia64Scenario, BindError> {
    prepare_timed(trace, None, w, true)
}

/// [`prepare`] on `image` (else the trace's own source assembled), with the timing model on or
/// off (off: one cycle per instruction group, as `acctemu run --no-timing`).
///
/// # Errors
/// As [`prepare`].
pub fn prepare_timed(
    trace: &Trace,
    image: Option<&Image>,
    w: &Workload,
    timing: bool,
) -> Result<Ia64Scenario, BindError> {
    let own;
    let image = match image {
        Some(image) => image,
        None => {
            own = trace.assemble().map_err(BindError::Assemble)?.image;
            &own
        }
    };
    let harness = Harness::parse(trace.harness_name, trace.harness).map_err(BindError::Setup)?;
    let cfg = RunConfig { harness: Some(harness), timing, ..RunConfig::default() };
    let (machine, harness) = prepare_machine(image, &cfg).map_err(|e| match e {
        emu_core::run::RunError::Assemble(d) => BindError::Assemble(d),
        emu_core::run::RunError::Setup(d) => BindError::Setup(d),
        e => setup_error(trace, e.to_string()),
    })?;
    let iva = machine.cpu.state.cr.get(usize::from(arch_ia64::state::cr::IVA)).copied().unwrap_or(0);
    let bindings = bindings(trace, image, &harness, iva, w.tick_period().unwrap_or(0))?;
    bind(machine, bindings).map_err(|e| setup_error(trace, e.to_string()))
}

/// Translates the trace's symbolic bindings into addresses of `image` under `harness`.
/// An interrupt path's start symbol must be where cr.iva vectors the external interrupt.
fn bindings(trace: &Trace, image: &Image, harness: &Harness, iva: u64, period: u64) -> Result<Bindings, BindError> {
    let outer = emu_core::setup::image_symbols(image, SENTINEL);
    let env = harness.env(&outer).map_err(BindError::Setup)?;
    let symbol = |name: &str| {
        env.lookup(name)
            .ok_or_else(|| setup_error(trace, format!("trace {}: bound symbol `{name}` is not defined", trace.name)))
    };
    let mut paths = Vec::new();
    for b in trace.bindings {
        let path = scenario_path(trace, b.kind)?;
        let start = match path {
            PathKind::Tick | PathKind::IrqEnter => {
                let handler = iva.wrapping_add(u64::from(arch_ia64::exec::interrupt::vector::EXTERNAL));
                if symbol(b.start)? != handler {
                    return Err(setup_error(
                        trace,
                        format!(
                            "trace {}: `{}` path starts at `{}`, but cr.iva + 0x3000 is {handler:#x}",
                            trace.name,
                            b.kind.name(),
                            b.start
                        ),
                    ));
                }
                Start::ExternalInterrupt
            }
            _ => Start::At(symbol(b.start)?),
        };
        let end = match b.end {
            TraceEnd::Symbol(name) => End::Label(symbol(name)?),
            TraceEnd::Rfi => End::Rfi,
        };
        paths.push(PathBinding { path, start, end });
    }
    let counter = |name: &str| counter_address(trace, harness, &env, name);
    let accounting = match trace.accounting {
        TraceAccounting::Virtual { utime_counter, stime_counter } => {
            Accounting::Virtual { utime_addr: counter(utime_counter)?, stime_addr: counter(stime_counter)? }
        }
        TraceAccounting::TickSampling { utime_counter, stime_counter } => Accounting::TickSampling {
            utime_addr: counter(utime_counter)?,
            stime_addr: counter(stime_counter)?,
            cycles_per_tick: period,
        },
    };
    Ok(Bindings { paths, accounting, max_insns: DEFAULT_PATH_BUDGET })
}
