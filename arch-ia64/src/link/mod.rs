//! Loading and linking IA-64 objects: several GNU as objects into one image with every
//! relocation applied ([`crate::reloc::Ia64Relocations`] over [`emu_core::link`]), their
//! undefined symbols bound by a harness to data or to stubs, and runs of the result with the
//! stubs executing in the core ([`crate::stub_call`]).
//!
//! Layout: `.text` at [`LINK_BASE`] (0, so a single object's addresses are those
//! `objdump -d` shows and those it ran at before linking existed), the other output sections
//! after it by name in order of first appearance (see [`emu_core::link`]); the stub page
//! (one bundle per stub), `.opd` and `.got` last.

mod run;

pub use run::{prepare_linked, run_linked};

use emu_core::error::Diagnostic;
use emu_core::harness::Harness;
use emu_core::image::{Binding, Symbol, SymbolKind};
use emu_core::link::{Bindings, LinkError, LinkOptions, Linked};

use crate::reloc::Ia64Relocations;

/// Where `.text` goes.
pub const LINK_BASE: u64 = 0;

/// The IA-64 link options: [`LINK_BASE`], the stub page right after the objects' sections
/// (within `br.call` reach of their code).
pub fn options() -> LinkOptions {
    LinkOptions { base: LINK_BASE, stub_base: None }
}

/// Links IA-64 `objects` (name, bytes) with `opts`, binding undefined symbols by `bindings`;
/// the data bindings also become absolute symbols of the image (a harness counter or a stub
/// can name them).
///
/// # Errors
/// What [`emu_core::link::load_objects`] reports.
pub fn link_with(objects: &[(&str, &[u8])], bindings: &Bindings, opts: &LinkOptions) -> Result<Linked, LinkError> {
    let mut linked = emu_core::link::load_objects(objects, &Ia64Relocations, bindings, opts)?;
    for (name, value) in &bindings.data {
        if linked.image.symbol(name).is_none() {
            linked.image.symbols.push(Symbol {
                name: name.clone(),
                value: *value,
                section: None,
                binding: Binding::Global,
                kind: SymbolKind::Absolute,
                size: 0,
            });
        }
    }
    Ok(linked)
}

/// [`link_with`] at the default [`options`].
///
/// # Errors
/// What [`emu_core::link::load_objects`] reports.
pub fn link(objects: &[(&str, &[u8])], bindings: &Bindings) -> Result<Linked, LinkError> {
    link_with(objects, bindings, &options())
}

/// The bindings a harness gives: `[data]` evaluated against its own symbols and regions,
/// the `[[stub]]` names; plus `extra` stub names (Rust stubs a library user passes).
///
/// # Errors
/// A `[data]` value that does not evaluate (located).
pub fn bindings(harness: Option<&Harness>, extra: &[&str]) -> Result<Bindings, Diagnostic> {
    let mut b = Bindings::default();
    if let Some(h) = harness {
        let none = |_: &str| None;
        let env = h.env(&none)?;
        b.data = h.data_bindings(&env)?;
        b.stubs = h.stubs.iter().map(|s| s.name.clone()).collect();
    }
    for name in extra {
        if !b.stubs.iter().any(|s| s == name) {
            b.stubs.push((*name).to_string());
        }
    }
    Ok(b)
}

#[cfg(test)]
mod tests;
