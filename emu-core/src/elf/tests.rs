use super::*;

/// Rules that know no relocation: enough to test headers and layout.
struct NoRelocs;

impl Relocations for NoRelocs {
    fn machine(&self) -> u16 {
        62
    }
    fn endian(&self) -> Endian {
        Endian::Little
    }
    fn name(&self, _r_type: u32) -> Option<&'static str> {
        None
    }
    fn needs_got(&self, _r_type: u32) -> bool {
        false
    }
    fn apply(&self, _r: &Reloc, _bytes: &mut [u8], ctx: &RelocCtx) -> Result<(), ElfError> {
        Err(ElfError::UnsupportedRelocation {
            type_name: ctx.type_name.clone(),
            symbol: ctx.symbol.clone(),
            section: ctx.section.clone(),
            offset: 0,
        })
    }
}

#[test]
fn rejects_what_is_not_an_object_of_the_rules_machine() {
    let none = |_: &str| None;
    assert_eq!(load(b"hello", &NoRelocs, &none), Err(ElfError::NotElf));
    assert_eq!(load(b"\x7fELF\x02\x01", &NoRelocs, &none), Err(ElfError::TruncatedHeader(6)));
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[EI_CLASS] = 1;
    assert_eq!(load(&h, &NoRelocs, &none), Err(ElfError::Not64Bit(1)));
    h[EI_CLASS] = 7;
    let e = load(&h, &NoRelocs, &none);
    assert_eq!(e, Err(ElfError::Not64Bit(7)));
    let text = e.map(drop).unwrap_err().to_string();
    assert!(text.starts_with("invalid ELF class: EI_CLASS (byte 4) is 7"), "{text}");
    assert!(!text.contains("32-bit"), "{text}");
    h[EI_CLASS] = ELFCLASS64;
    h[18] = 62;
    h[EI_DATA] = ELFDATA2MSB;
    let e = load(&h, &NoRelocs, &none);
    assert_eq!(e, Err(ElfError::WrongEndian { found: ELFDATA2MSB, machine: 62, want: Endian::Little }));
    assert_eq!(
        e.map(drop).unwrap_err().to_string(),
        "ELF byte order does not match the architecture: EI_DATA (byte 5) is 2 (ELFDATA2MSB, big-endian), \
         but x86-64 objects are little-endian (EI_DATA 1, ELFDATA2LSB)"
    );
    h[EI_DATA] = ELFDATA2LSB;
    h[18] = 50;
    assert_eq!(load(&h, &NoRelocs, &none), Err(ElfError::WrongMachine { found: 50, expected: 62 }));
    assert_eq!(machine(&h), Some(50));
    let e = load(&h, &NoRelocs, &none).map(drop).unwrap_err().to_string();
    assert_eq!(e, "wrong machine: e_machine is 50 (IA-64), expected 62 (x86-64)");
}

#[test]
fn machine_reads_a_known_machine_through_a_flipped_byte_order_byte() {
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[EI_DATA] = ELFDATA2MSB;
    h[18..20].copy_from_slice(&62u16.to_le_bytes());
    assert_eq!(machine(&h), Some(62));
    h[EI_DATA] = 9;
    h[18..20].copy_from_slice(&22u16.to_be_bytes());
    assert_eq!(machine(&h), Some(22));
    // An unknown machine is read as the header declares it.
    h[EI_DATA] = ELFDATA2LSB;
    h[18..20].copy_from_slice(&40u16.to_le_bytes());
    assert_eq!(machine(&h), Some(40));
    assert_eq!(machine_name(40), "ARM");
    assert_eq!(machine_name(0xfff0), "unknown");
}

#[test]
fn lays_out_sections_from_the_base_at_their_alignment() {
    let sec = |name: &str, len: usize, align: u64| Section {
        name: name.to_string(),
        addr: 0,
        data: vec![0; len],
        kind: SectionKind::Data,
        align,
    };
    let mut s = vec![sec(".text", 0x21, 16), sec(".data", 3, 8), sec(".bss", 1, 16)];
    assert_eq!(lay_out(&mut s, REL_BASE), Ok(()));
    let addrs: Vec<u64> = s.iter().map(|s| s.addr).collect();
    assert_eq!(addrs, vec![REL_BASE, REL_BASE + 0x28, REL_BASE + 0x30]);
}

#[test]
fn patches_fields_in_either_order_and_refuses_outside_ones() {
    let ctx = RelocCtx { section: ".text".into(), symbol: "x".into(), type_name: "R".into() };
    let mut b = [0u8; 6];
    assert_eq!(patch(&mut b, 1, 4, 0x1122_3344, Endian::Little, &ctx), Ok(()));
    assert_eq!(b, [0, 0x44, 0x33, 0x22, 0x11, 0]);
    assert_eq!(patch(&mut b, 0, 2, 0xaabb, Endian::Big, &ctx), Ok(()));
    assert_eq!(b[..2], [0xaa, 0xbb]);
    assert!(matches!(patch(&mut b, 4, 4, 0, Endian::Little, &ctx), Err(ElfError::OutOfSection { .. })));
    assert!(matches!(patch(&mut b, u64::MAX, 4, 0, Endian::Little, &ctx), Err(ElfError::OutOfSection { .. })));
}

/// An object whose allocated section ends past 2^64 (the IA-64 fuzz find, made an x86-64
/// executable so its addresses are taken as they stand) is refused, as the IA-64 loader does.
#[test]
fn refuses_a_section_ending_past_the_address_space() {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fuzz-regressions/elf_ia64/section-at-top-of-address-space.o");
    let mut bytes = std::fs::read(path).expect("the committed fuzz input");
    bytes[16] = 2; // ET_EXEC
    bytes[17] = 0;
    bytes[18] = 62; // EM_X86_64
    bytes[19] = 0;
    let result = load(&bytes, &NoRelocs, &|_: &str| None);
    assert!(matches!(result, Err(ElfError::SectionTooLarge(_))), "{result:?}");
}
