use std::sync::Arc;

use super::*;

fn sym(name: &str, value: u64, section: Option<usize>, binding: Binding, kind: SymbolKind) -> Symbol {
    Symbol { name: name.to_string(), value, section, binding, kind, size: 0 }
}

fn image() -> Image {
    let mut img = Image::new(Endian::Little);
    img.sections.push(Section {
        name: ".text".into(),
        addr: 0x1000,
        data: vec![0x11; 0x40],
        kind: SectionKind::Code,
        align: 16,
    });
    img.sections.push(Section {
        name: ".data".into(),
        addr: 0x2000,
        data: vec![1, 2, 3, 4],
        kind: SectionKind::Data,
        align: 8,
    });
    img.sections.push(Section {
        name: ".bss".into(),
        addr: 0x3000,
        data: vec![0; 16],
        kind: SectionKind::Bss,
        align: 8,
    });
    img.symbols = vec![
        sym(".L1", 0x1010, Some(0), Binding::Local, SymbolKind::Label),
        sym("ia64_syscall", 0x1010, Some(0), Binding::Global, SymbolKind::Function),
        sym("start", 0x1000, Some(0), Binding::Global, SymbolKind::Function),
        sym("inner", 0x1020, Some(0), Binding::Local, SymbolKind::Label),
        sym("counter", 0x2000, Some(1), Binding::Global, SymbolKind::Object),
        sym("SIZE", 0x1030, None, Binding::Global, SymbolKind::Absolute),
    ];
    img
}

fn loc(line: u32) -> SourceLoc {
    SourceLoc::new(Arc::from("entry.S"), line, 0)
}

#[test]
fn symbolize_picks_nearest_preceding_code_symbol() {
    let img = image();
    assert_eq!(img.symbolize(0x1000), Some(("start", 0)));
    assert_eq!(img.symbolize(0x100f), Some(("start", 0xf)));
    // Global beats local at the same address.
    assert_eq!(img.symbolize(0x1018), Some(("ia64_syscall", 8)));
    // A local label is still the nearest when it is alone; absolute symbols never count.
    assert_eq!(img.symbolize(0x1035), Some(("inner", 0x15)));
    // Data symbols and addresses outside code do not symbolize as code.
    assert_eq!(img.symbolize(0x2000), None);
    assert_eq!(img.symbolize(0x5000), None);
}

#[test]
fn symbol_and_section_lookup() {
    let img = image();
    assert_eq!(img.symbol("counter").map(|s| s.value), Some(0x2000));
    assert!(img.symbol("nope").is_none());
    assert_eq!(img.section(".data").map(|s| s.size()), Some(4));
}

#[test]
fn source_map_exact_and_preceding() {
    let mut m = SourceMap::new();
    m.insert(0x1010, loc(5));
    m.insert(0x1000, loc(3));
    m.insert(0x1010, loc(6));
    assert_eq!(m.len(), 2);
    assert_eq!(m.lookup(0x1000).map(|l| l.line), Some(3));
    assert_eq!(m.lookup(0x100f).map(|l| l.line), Some(3));
    assert_eq!(m.lookup(0x1010).map(|l| l.line), Some(6));
    assert_eq!(m.lookup(0xfff), None);
    assert_eq!(m.lookup_within(0x1020, 0x1018), None);
}

#[test]
fn source_loc_does_not_cross_sections() {
    let mut img = image();
    img.source_map.insert(0x1000, loc(10));
    assert_eq!(img.source_loc(0x1008).map(|l| l.line), Some(10));
    assert_eq!(img.source_loc(0x2000), None);
}

#[test]
fn load_into_maps_with_permissions() {
    let img = image();
    let mut mem = Memory::new(Endian::Little);
    img.load_into(&mut mem).unwrap();
    assert_eq!(mem.read_u32(0x2000).unwrap(), 0x0403_0201);
    let mut b = [0u8; 1];
    mem.fetch(0x1000, &mut b).unwrap();
    assert_eq!(b, [0x11]);
    assert!(mem.write_u8(0x1000, 0).is_err());
    mem.write_u64(0x3008, 5).unwrap();
}

#[test]
fn load_into_reports_overlapping_sections() {
    let mut img = image();
    img.sections.push(Section {
        name: ".rodata".into(),
        addr: 0x2002,
        data: vec![0; 4],
        kind: SectionKind::Data,
        align: 1,
    });
    let mut mem = Memory::new(Endian::Little);
    let err = img.load_into(&mut mem).unwrap_err();
    assert!(matches!(&err, LoadError::Map { section, source: MemError::Overlap { .. } } if section == ".rodata"));
    assert_eq!(
        err.to_string(),
        "cannot map section `.rodata`: region `.rodata` [0x2002..=0x2005] overlaps region `.data` [0x2000..=0x2003]"
    );
}

/// A `.bss` is mapped, not copied: its pages stay unallocated until written, so an object
/// declaring gigabytes of `.bss` costs no memory (fuzz target `elf_ia64` ran out of it).
#[test]
fn load_into_leaves_bss_pages_unallocated() {
    let mut img = Image::new(Endian::Little);
    img.sections.push(Section {
        name: ".bss".into(),
        addr: 0x10_0000,
        data: vec![0; 1 << 20],
        kind: SectionKind::Bss,
        align: 16,
    });
    let mut mem = Memory::new(Endian::Little);
    img.load_into(&mut mem).unwrap();
    assert_eq!(mem.read_u64(0x10_0000 + (1 << 19)).unwrap(), 0);
    assert!(format!("{mem:?}").contains("allocated_pages: 0"), "{mem:?}");
    mem.write_u64(0x10_0008, 7).unwrap();
    assert_eq!(mem.read_u64(0x10_0008).unwrap(), 7);
}
