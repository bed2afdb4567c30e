//! Scaffolding of the engine differential tests (issue 17): the code image both engines run
//! and the memory comparison they must pass. Needs only `emu_core`, so that every crate's diff
//! test can include it: `#[path = "common/engine_diff.rs"] mod engine_diff;` here, and
//! `#[path = "../../tests/common/engine_diff.rs"] mod engine_diff;` from `arch-x86/tests/`.

#![allow(dead_code)] // each test that includes this uses a part of it

use emu_core::image::{Image, Section, SectionKind};
use emu_core::memory::{Endian, Memory};

/// A little-endian image (IA-64 and x86-64 both) of one `.text` section holding `code` at
/// `addr`.
pub fn code_image(addr: u64, code: &[u8]) -> Image {
    let mut image = Image::new(Endian::Little);
    image.sections.push(Section {
        name: ".text".into(),
        addr,
        data: code.to_vec(),
        kind: SectionKind::Code,
        align: 16,
    });
    image
}

/// Every mapped byte, region by region (permissions ignored; a region that cannot be read
/// whole compares as empty), for comparing memories. Regions are capped at 4 MiB: the tests'
/// programs touch less.
pub fn memory_image(mem: &Memory) -> Vec<(u64, Vec<u8>)> {
    mem.regions()
        .map(|r| {
            let len = r.size.min(1 << 22) as usize;
            let mut bytes = vec![0u8; len];
            let ok = mem.peek_bytes(r.base, &mut bytes).is_ok();
            (r.base, if ok { bytes } else { Vec::new() })
        })
        .collect()
}
