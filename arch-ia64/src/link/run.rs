//! Running a linked image with its stubs installed in the core.

use std::collections::HashMap;
use std::sync::Arc;

use emu_core::cpu::{Machine, StopReason, StopWhen};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::Harness;
use emu_core::link::Linked;
use emu_core::report::RunReport;
use emu_core::stub::Stub;

use crate::cpu::Ia64Cpu;
use crate::run::{prepare, report, stop_text, RunConfig, RunError, SENTINEL};
use crate::stub_call::StubTable;

/// Like [`prepare`] for a linked image: the harness's `[[stub]]`s (evaluated against the
/// harness and the image's symbols) and the caller's `extra` stubs are installed for the
/// image's stub entries.
///
/// # Errors
/// Setup errors; a stub entry with no stub, a stub with no entry, or a stub named twice.
pub fn prepare_linked(
    linked: &Linked,
    cfg: &RunConfig,
    extra: Vec<Box<dyn Stub>>,
) -> Result<(Machine<Ia64Cpu>, Harness), RunError> {
    let (mut machine, harness) = prepare(&linked.image, cfg)?;
    let symbol = emu_core::setup::image_symbols(&linked.image, SENTINEL);
    let env = harness.env(&symbol).map_err(RunError::Setup)?;
    let mut stubs: Vec<Box<dyn Stub>> = Vec::new();
    for spec in harness.stub_specs(&env).map_err(RunError::Setup)? {
        stubs.push(Box::new(spec));
    }
    stubs.extend(extra);
    let symbols: HashMap<String, u64> = linked.image.symbols.iter().map(|s| (s.name.clone(), s.value)).collect();
    let table = StubTable::new(&linked.stubs, stubs, symbols).map_err(|m| {
        RunError::Setup(Diagnostic::error(SourceLoc::new(Arc::from("<link>"), 0, 0), format!("stubs: {m}")))
    })?;
    machine.cpu.set_stubs(table);
    Ok((machine, harness))
}

/// Runs a linked image with its stubs (see [`prepare_linked`]) as
/// [`crate::run::run_image_until`] runs an image.
///
/// # Errors
/// Setup and execution errors.
pub fn run_linked(
    linked: &Linked,
    cfg: &RunConfig,
    extra: Vec<Box<dyn Stub>>,
) -> Result<(RunReport, StopReason), RunError> {
    let (mut machine, harness) = prepare_linked(linked, cfg, extra)?;
    let stop = StopWhen {
        on_sentinel: true,
        on_rfi: cfg.stop_on_rfi,
        on_interruption: cfg.stop_on_interruption,
        max_insns: cfg.max_insns,
    };
    // The state at entry, so a report can show what the run changed (issue 18).
    let initial = machine.snapshot();
    let reason = machine.run(&stop).map_err(|e| RunError::Exec { error: e.error, executed: e.executed })?;
    let mut report = report(&linked.image, &machine, &harness, stop_text(&reason))?;
    report.initial = Some(initial);
    Ok((report, reason))
}
