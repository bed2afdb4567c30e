use super::*;

fn mem() -> Memory {
    let mut m = Memory::new(Endian::Little);
    m.map(0x1000, 0x2000, Perms::RW, "data").unwrap();
    m.map(0x3000, 0x1000, Perms::RW, "more").unwrap();
    m.map(0x8000, 0x1000, Perms::RX, "text").unwrap();
    m
}

#[test]
fn little_and_big_endian_round_trip() {
    let mut m = mem();
    m.write_u64(0x1008, 0x1122_3344_5566_7788).unwrap();
    assert_eq!(m.read_u8(0x1008).unwrap(), 0x88);
    assert_eq!(m.read_u16(0x1008).unwrap(), 0x7788);
    assert_eq!(m.read_u32(0x100c).unwrap(), 0x1122_3344);
    assert_eq!(m.read_u64(0x1008).unwrap(), 0x1122_3344_5566_7788);

    let mut b = Memory::new(Endian::Big);
    b.map(0, 0x100, Perms::RW, "b").unwrap();
    b.write_u32(0x10, 0xdead_beef).unwrap();
    let mut raw = [0u8; 4];
    b.read_bytes(0x10, &mut raw).unwrap();
    assert_eq!(raw, [0xde, 0xad, 0xbe, 0xef]);
    assert_eq!(b.read_u16(0x12).unwrap(), 0xbeef);
    b.write_u16(0x20, 0x1234).unwrap();
    assert_eq!(b.read_u8(0x20).unwrap(), 0x12);
}

#[test]
fn untouched_memory_reads_zero() {
    let m = mem();
    assert_eq!(m.read_u64(0x2ff8).unwrap(), 0);
}

#[test]
fn access_straddling_pages_and_adjacent_regions() {
    let mut m = mem();
    // Crosses the page boundary inside "data".
    m.write_u64(0x1ffc, 0x0102_0304_0506_0708).unwrap();
    assert_eq!(m.read_u64(0x1ffc).unwrap(), 0x0102_0304_0506_0708);
    // Crosses from "data" into the adjacent "more".
    m.write_u64(0x2ffd, 0xa1a2_a3a4_a5a6_a7a8).unwrap();
    assert_eq!(m.read_u64(0x2ffd).unwrap(), 0xa1a2_a3a4_a5a6_a7a8);
    assert_eq!(m.read_u8(0x3000).unwrap(), 0xa5);
}

#[test]
fn unmapped_and_partially_unmapped_accesses_fault() {
    let mut m = mem();
    let f = m.read_u32(0x500).unwrap_err();
    assert_eq!(f, MemFault { kind: FaultKind::Unmapped, addr: 0x500, size: 4 });
    let f = m.write_u64(0x3ffc, 1).unwrap_err();
    assert_eq!(f.kind, FaultKind::CrossesRegion { at: 0x4000 });
    // The faulting write changed nothing.
    assert_eq!(m.read_u32(0x3ffc).unwrap(), 0);
    let f = m.read_u16(u64::MAX).unwrap_err();
    assert_eq!(f.kind, FaultKind::Wraps);
}

#[test]
fn permissions_are_enforced_but_load_ignores_write() {
    let mut m = mem();
    let f = m.write_u32(0x8000, 1).unwrap_err();
    assert_eq!(f.kind, FaultKind::Protection { needed: Access::Write, at: 0x8000 });
    m.load(0x8000, &[1, 2, 3, 4]).unwrap();
    let mut insn = [0u8; 4];
    m.fetch(0x8000, &mut insn).unwrap();
    assert_eq!(insn, [1, 2, 3, 4]);
    let f = m.fetch(0x1000, &mut insn).unwrap_err();
    assert_eq!(f.kind, FaultKind::Protection { needed: Access::Exec, at: 0x1000 });
    assert!(m.load(0x9000, &[1]).is_err());
}

#[test]
fn protection_fault_in_second_region_of_a_straddling_write() {
    let mut m = Memory::new(Endian::Little);
    m.map(0, 0x10, Perms::RW, "rw").unwrap();
    m.map(0x10, 0x10, Perms::READ, "ro").unwrap();
    let f = m.write_u32(0xe, 0xffff_ffff).unwrap_err();
    assert_eq!(f.kind, FaultKind::Protection { needed: Access::Write, at: 0x10 });
    assert_eq!(m.read_u16(0xe).unwrap(), 0);
}

#[test]
fn map_rejects_bad_regions() {
    let mut m = mem();
    assert!(matches!(m.map(0x2fff, 2, Perms::RW, "x"), Err(MemError::Overlap { .. })));
    assert!(matches!(m.map(0x0, 0x1001, Perms::RW, "x"), Err(MemError::Overlap { .. })));
    assert!(matches!(m.map(0x7000, 0x4000, Perms::RW, "x"), Err(MemError::Overlap { .. })));
    assert!(matches!(m.map(0x100, 0, Perms::RW, "x"), Err(MemError::ZeroSize { .. })));
    assert!(matches!(m.map(u64::MAX, 2, Perms::RW, "x"), Err(MemError::Wraps { .. })));
    assert!(matches!(m.map(0x1_0000_0000, MAX_REGION_SIZE + 1, Perms::RW, "x"), Err(MemError::TooLarge { .. })));
    // Ending exactly at the top of the address space is fine.
    m.map(u64::MAX - 0xfff, 0x1000, Perms::RW, "top").unwrap();
    m.write_u8(u64::MAX, 7).unwrap();
    assert_eq!(m.read_u8(u64::MAX).unwrap(), 7);
    // Adjacent regions are fine.
    m.map(0x0, 0x1000, Perms::NONE, "guard").unwrap();
}

#[test]
fn regions_are_listed_in_address_order() {
    let mut m = mem();
    m.map(0x0, 0x10, Perms::NONE, "zero").unwrap();
    let names: Vec<_> = m.regions().map(|r| (r.name, r.base, r.size, r.perms.to_string())).collect();
    assert_eq!(
        names,
        vec![
            ("zero", 0, 0x10, "---".to_string()),
            ("data", 0x1000, 0x2000, "rw-".to_string()),
            ("more", 0x3000, 0x1000, "rw-".to_string()),
            ("text", 0x8000, 0x1000, "r-x".to_string()),
        ]
    );
    assert_eq!(m.region_at(0x8123).map(|r| r.name), Some("text"));
}

#[test]
fn fault_messages_name_address_size_and_pc() {
    let m = mem();
    let f = m.read_u64(0x5000).unwrap_err();
    assert_eq!(f.to_string(), "memory fault: 8-byte access at 0x5000: unmapped address");
    assert_eq!(f.at_pc(0x8010).to_string(), "memory fault: 8-byte access at 0x5000: unmapped address (pc 0x8010)");
}

#[test]
fn large_sparse_region_does_not_allocate_untouched_pages() {
    let mut m = Memory::new(Endian::Little);
    m.map(0xe000_0000_0000_0000, 1 << 30, Perms::RW, "region7").unwrap();
    m.write_u64(0xe000_0000_3fff_fff8, 42).unwrap();
    assert_eq!(m.read_u64(0xe000_0000_3fff_fff8).unwrap(), 42);
    assert_eq!(m.read_u64(0xe000_0000_0000_0000).unwrap(), 0);
}
