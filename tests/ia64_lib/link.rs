//! Linking the objects into one image with acctemu's linker (`arch_ia64::link`), the
//! variables the routines read bound to addresses in harness memory.

use emu_core::image::Image;
use emu_core::link::Bindings;

/// Links `objects` (name, ELF bytes) with `data` symbols bound to addresses.
///
/// # Panics
/// When the link fails (the linker's message names the symbol or relocation).
pub fn link(label: &str, objects: &[(String, Vec<u8>)], data: &[(&str, u64)]) -> Image {
    let objs: Vec<(&str, &[u8])> = objects.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let mut bindings = Bindings::default();
    for (name, addr) in data {
        bindings.data.insert((*name).to_string(), *addr);
    }
    let linked = arch_ia64::link::link(&objs, &bindings).unwrap_or_else(|e| panic!("linking the {label} image: {e}"));
    assert!(linked.stubs.is_empty(), "the {label} image needs no stubs: {:?}", linked.stubs);
    linked.image
}
