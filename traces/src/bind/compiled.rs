//! What the scenarios of compiled traces (x86-64, s390x objects) share: loading the committed
//! object with its harness naming the C's extern symbols, and binding each path to a function.

use super::{scenario_path, setup_error, BindError};
use crate::trace::Trace;
use emu_core::elf::Relocations;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::{Env, Harness};
use emu_core::image::Image;
use emu_core::scenario::PathKind;
use emu_core::setup::{EXTERN_BASE, EXTERN_SLOT, SENTINEL};

/// Loads the object `bytes` under `rules`, resolving extern symbols to the regions of the
/// harness `text` (named `name`) of the same name; the rest get zeroed slots.
///
/// # Errors
/// A harness or object that does not load.
pub fn load_with_harness(name: &str, text: &str, bytes: &[u8], rules: &dyn Relocations) -> Result<Image, BindError> {
    let harness = Harness::parse(name, text).map_err(BindError::Setup)?;
    let outer = |name: &str| (name == "sentinel").then_some(SENTINEL);
    let env = harness.env(&outer).map_err(BindError::Setup)?;
    emu_core::elf::load_with_extern_slots(bytes, rules, &|name| env.lookup(name), EXTERN_BASE, EXTERN_SLOT)
        .map_err(|e| BindError::Setup(Diagnostic::error(SourceLoc::new(name.into(), 0, 0), e.to_string())))
}

/// The trace's committed object, or the error that it has none.
pub fn object(trace: &Trace) -> Result<&'static [u8], BindError> {
    trace.object.ok_or_else(|| setup_error(trace, format!("trace {} has no object", trace.name)))
}

/// Each binding of `trace` as its path kind and the address of its start symbol in `env`.
///
/// # Errors
/// A path kind the scenarios do not know, an undefined start symbol.
pub fn bind_paths(trace: &Trace, env: &Env<'_>) -> Result<Vec<(PathKind, u64)>, BindError> {
    trace
        .bindings
        .iter()
        .map(|b| {
            let path = scenario_path(trace, b.kind)?;
            let entry = env.lookup(b.start).ok_or_else(|| {
                setup_error(trace, format!("trace {}: bound symbol `{}` is not defined", trace.name, b.start))
            })?;
            Ok((path, entry))
        })
        .collect()
}
