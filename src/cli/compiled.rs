//! What the scenarios of compiled traces (x86-64, s390x objects) share: loading the committed
//! object with its harness naming the C's extern symbols, and binding each path to a function.

use super::CliError;
use emu_core::elf::Relocations;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::{Env, Harness};
use emu_core::image::Image;
use emu_core::scenario::PathKind;
use emu_core::setup::{EXTERN_BASE, EXTERN_SLOT, SENTINEL};

/// A set-up error of `trace`, located at its harness.
pub fn setup_error(trace: &traces::Trace, msg: String) -> CliError {
    CliError::Setup(Diagnostic::error(SourceLoc::new(trace.harness_name.into(), 0, 0), msg))
}

/// Loads the object `bytes` under `rules`, resolving extern symbols to the regions of the
/// harness `text` (named `name`) of the same name; the rest get zeroed slots.
///
/// # Errors
/// A harness or object that does not load.
pub fn load_with_harness(name: &str, text: &str, bytes: &[u8], rules: &dyn Relocations) -> Result<Image, CliError> {
    let harness = Harness::parse(name, text).map_err(CliError::Setup)?;
    let outer = |name: &str| (name == "sentinel").then_some(SENTINEL);
    let env = harness.env(&outer).map_err(CliError::Setup)?;
    emu_core::elf::load_with_extern_slots(bytes, rules, &|name| env.lookup(name), EXTERN_BASE, EXTERN_SLOT)
        .map_err(|e| CliError::Setup(Diagnostic::error(SourceLoc::new(name.into(), 0, 0), e.to_string())))
}

/// Each binding of `trace` as its path kind and the address of its start symbol in `env`.
///
/// # Errors
/// A path kind the scenarios do not know, an undefined start symbol.
pub fn bind_paths(trace: &traces::Trace, env: &Env<'_>) -> Result<Vec<(PathKind, u64)>, CliError> {
    trace
        .bindings
        .iter()
        .map(|b| {
            let path = PathKind::from_name(b.kind.name())
                .ok_or_else(|| setup_error(trace, format!("trace {}: unknown path `{}`", trace.name, b.kind.name())))?;
            let entry = env.lookup(b.start).ok_or_else(|| {
                setup_error(trace, format!("trace {}: bound symbol `{}` is not defined", trace.name, b.start))
            })?;
            Ok((path, entry))
        })
        .collect()
}
