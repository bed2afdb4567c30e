//! The translation lookaside buffers (SDM vol. 2 part I chapter 4): instruction and data
//! translation registers (TRs, software-managed, never replaced) and translation caches (TCs,
//! replaced by the processor), each entry holding the fields of SDM vol. 2 Figure 4-5
//! ("Translation Insertion Format") plus the region id and page size it was inserted with.
//!
//! Sizes: the architecture requires at least 8 ITRs and 8 DTRs (SDM vol. 2 section 4.1.1.1);
//! Itanium 2 has 128-entry fully associative second-level ITLB and DTLB (McNairy and Soltis,
//! "Itanium 2 processor microarchitecture", IEEE Micro 23(2), 2003). This model keeps 8 TRs a
//! side and 128 TCs a side, the TCs replaced round robin (the replacement policy is
//! implementation-defined: a GUESS). The first-level TLBs are a timing matter and are not
//! modelled.
//!
//! The VHPT hash functions are here too: the short format is architectural; the long format's
//! hash and tag are implementation-specific (SDM vol. 3 thash/ttag), and the Itanium 2 ones are
//! not in the sources at hand, so [`vhpt_hash_long`] and [`vhpt_tag`] are this model's own
//! (GUESS), kept only to the properties the SDM requires (a unique (hash, tag) pair per
//! translation, tag bit 63 clear, only region bits and va{60:0} used).

/// Translation registers per side (the architectural minimum).
pub const N_TR: usize = 8;
/// Translation cache entries per side (Itanium 2's second-level TLB size).
pub const N_TC: usize = 128;
/// Highest implemented virtual address bit below the region bits (IMPL_VA_MSB of Itanium 2:
/// 51 implemented bits, Intel Itanium 2 Processor Reference Manual, "Virtual memory").
pub const IMPL_VA_MSB: u32 = 50;

/// Page sizes (log2) this implementation inserts and purges: 4K, 8K, 16K, 64K, 256K, 1M, 4M,
/// 16M, 64M, 256M, 1G and 4G (Intel Itanium 2 Processor Reference Manual, PAL_VM_PAGE_SIZE).
pub const PAGE_SIZES: u64 = 1 << 12
    | 1 << 13
    | 1 << 14
    | 1 << 16
    | 1 << 18
    | 1 << 20
    | 1 << 22
    | 1 << 24
    | 1 << 26
    | 1 << 28
    | 1 << 30
    | 1 << 32;

/// Whether `ps` (log2 bytes) is a page size the TLB supports.
pub fn page_size_supported(ps: u64) -> bool {
    ps < 64 && PAGE_SIZES & (1 << ps) != 0
}

/// Reserved bits of the insertion format (GR r2 of itc/itr): bit 1 and bits 51:50
/// (SDM vol. 2 Figure 4-5); bits 63:53 are ignored.
pub const PTE_RESERVED: u64 = 1 << 1 | 3 << 50;
/// Reserved bits of ITIR: 1:0 and 63:32 (SDM vol. 2 Figure 4-6: ps 7:2, key 31:8).
pub const ITIR_RESERVED: u64 = 0xFFFF_FFFF_0000_0003;

/// Memory attribute NaTPage (SDM vol. 2 Table 4-6); 1 to 3 are reserved encodings.
pub const MA_NATPAGE: u8 = 7;

/// The kind of access a translation is checked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A data read.
    Read,
    /// A data write.
    Write,
    /// A semaphore: read and write.
    ReadWrite,
    /// An instruction fetch.
    Exec,
}

impl Access {
    /// Reads data.
    pub fn reads(self) -> bool {
        matches!(self, Access::Read | Access::ReadWrite)
    }
    /// Writes data.
    pub fn writes(self) -> bool {
        matches!(self, Access::Write | Access::ReadWrite)
    }
}

/// Whether access rights `ar` with privilege level `pl` allow `access` at privilege level
/// `level` (SDM vol. 2 Table 4-3). A level at or above the page's (numerically `level <= pl`)
/// gets the rights of the first column; a less privileged level gets the reduced ones: ar 4
/// read only, ar 5 read-execute, ar 6 read-write, ar 7 execute only (the promote page); ar 0-3
/// nothing.
pub fn rights_allow(ar: u8, pl: u8, level: u8, access: Access) -> bool {
    // (read, write, execute)
    let (r, w, x) = if level <= pl {
        match ar & 7 {
            0 => (true, false, false),
            1 => (true, false, true),
            2 => (true, true, false),
            3 | 5 | 6 => (true, true, true),
            4 => (true, true, false),
            _ => (true, false, true),
        }
    } else {
        match ar & 7 {
            4 => (true, false, false),
            5 => (true, false, true),
            6 => (true, true, false),
            7 => (false, false, true),
            _ => (false, false, false),
        }
    };
    match access {
        Access::Read => r,
        Access::Write => w,
        Access::ReadWrite => r && w,
        Access::Exec => x,
    }
}

/// One translation (SDM vol. 2 Figure 4-5 fields, with the region id and page size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Entry {
    /// Virtual page: va{60:0} aligned down to the page size (the region number selects the
    /// rid and is not itself matched).
    pub vpage: u64,
    /// log2 of the page size.
    pub ps: u8,
    /// Region id the translation belongs to.
    pub rid: u32,
    /// Physical page address (ppn, bits 49:12, aligned down to the page size).
    pub ppage: u64,
    /// Present.
    pub p: bool,
    /// Memory attribute.
    pub ma: u8,
    /// Accessed.
    pub a: bool,
    /// Dirty.
    pub d: bool,
    /// Privilege level.
    pub pl: u8,
    /// Access rights.
    pub ar: u8,
    /// Exception deferral.
    pub ed: bool,
    /// Protection key.
    pub key: u32,
}

/// Virtual address bits 60:0 (what a TLB entry matches under a region id).
const VA_OFFSET: u64 = (1 << 61) - 1;
/// Physical page number bits 49:12.
const PPN: u64 = 0x0003_FFFF_FFFF_F000;

impl Entry {
    /// The entry `itc`/`itr` make from the virtual address (cr.ifa), the region id, the
    /// insertion-format value (GR r2) and cr.itir.
    pub fn new(va: u64, rid: u32, pte: u64, itir: u64) -> Entry {
        let ps = ((itir >> 2) & 0x3F) as u8;
        let mask = page_mask(ps);
        Entry {
            vpage: va & VA_OFFSET & !mask,
            ps,
            rid,
            ppage: pte & PPN & !mask,
            p: pte & 1 != 0,
            ma: ((pte >> 2) & 7) as u8,
            a: pte & (1 << 5) != 0,
            d: pte & (1 << 6) != 0,
            pl: ((pte >> 7) & 3) as u8,
            ar: ((pte >> 9) & 7) as u8,
            ed: pte & (1 << 52) != 0,
            key: ((itir >> 8) & 0xFF_FFFF) as u32,
        }
    }

    /// Whether the entry translates `va` in region `rid`.
    pub fn matches(&self, rid: u32, va: u64) -> bool {
        self.rid == rid && va & VA_OFFSET & !page_mask(self.ps) == self.vpage
    }

    /// Whether the entry overlaps the `2^ps`-byte page at `va` in region `rid`.
    pub fn overlaps(&self, rid: u32, va: u64, ps: u8) -> bool {
        let mask = page_mask(self.ps.max(ps));
        self.rid == rid && va & VA_OFFSET & !mask == self.vpage & !mask
    }

    /// The physical address of `va` through this entry.
    pub fn physical(&self, va: u64) -> u64 {
        self.ppage | (va & page_mask(self.ps))
    }

    /// The entry's ITIR image (ps 7:2, key 31:8), as interruptions report it.
    pub fn itir(&self) -> u64 {
        u64::from(self.ps) << 2 | u64::from(self.key) << 8
    }
}

/// The offset mask of a `2^ps`-byte page.
pub fn page_mask(ps: u8) -> u64 {
    if ps >= 64 {
        u64::MAX
    } else {
        (1u64 << ps) - 1
    }
}

/// One side (instruction or data) of the TLB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// Translation registers, by slot.
    pub tr: [Option<Entry>; N_TR],
    /// Translation cache.
    pub tc: [Option<Entry>; N_TC],
    /// The TC slot the next insertion replaces when none is free.
    victim: usize,
}

impl Default for Side {
    fn default() -> Side {
        Side { tr: [None; N_TR], tc: [None; N_TC], victim: 0 }
    }
}

impl Side {
    /// The translation of `va` in region `rid`: TRs first, then the TC.
    pub fn lookup(&self, rid: u32, va: u64) -> Option<&Entry> {
        self.tr.iter().chain(self.tc.iter()).flatten().find(|e| e.matches(rid, va))
    }

    /// The first TR slot (other than `except`) overlapping the page.
    pub fn tr_overlap(&self, rid: u32, va: u64, ps: u8, except: Option<usize>) -> Option<usize> {
        (0..N_TR).find(|&i| Some(i) != except && self.tr[i].is_some_and(|e| e.overlaps(rid, va, ps)))
    }

    /// Removes every TC entry overlapping the page.
    pub fn purge_tc(&mut self, rid: u32, va: u64, ps: u8) {
        for slot in &mut self.tc {
            if slot.is_some_and(|e| e.overlaps(rid, va, ps)) {
                *slot = None;
            }
        }
    }

    /// Removes every TR entry overlapping the page.
    pub fn purge_tr(&mut self, rid: u32, va: u64, ps: u8) {
        for slot in &mut self.tr {
            if slot.is_some_and(|e| e.overlaps(rid, va, ps)) {
                *slot = None;
            }
        }
    }

    /// Removes every TC entry.
    pub fn purge_all_tc(&mut self) {
        self.tc = [None; N_TC];
    }

    /// Inserts `e` into the TC: a free slot, else the round-robin victim.
    pub fn insert_tc(&mut self, e: Entry) {
        let slot = match self.tc.iter().position(Option::is_none) {
            Some(i) => i,
            None => {
                let v = self.victim;
                self.victim = (v + 1) % N_TC;
                v
            }
        };
        self.tc[slot] = Some(e);
    }

    /// Number of valid TC entries.
    pub fn tc_len(&self) -> usize {
        self.tc.iter().flatten().count()
    }
}

/// The whole TLB and whether translation is modelled at all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tlb {
    /// Translate accesses through the TLB when PSR.dt/PSR.it are set. Off by default: paths
    /// written for a flat address space run with translation bits on and no entries.
    pub enabled: bool,
    /// Instruction side.
    pub i: Side,
    /// Data side.
    pub d: Side,
}

/// Region register fields (SDM vol. 2 Figure 4-8): ve bit 0, ps 7:2, rid 31:8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// VHPT walker enabled for the region.
    pub ve: bool,
    /// Preferred page size (log2).
    pub ps: u8,
    /// Region id.
    pub rid: u32,
}

impl Region {
    /// The fields of a region register value.
    pub fn of(rr: u64) -> Region {
        Region { ve: rr & 1 != 0, ps: ((rr >> 2) & 0x3F) as u8, rid: ((rr >> 8) & 0xFF_FFFF) as u32 }
    }

    /// The default ITIR a translation miss reports: ps = RR.ps, key = RR.rid (SDM vol. 2
    /// section 8, "Alternate Data TLB vector").
    pub fn default_itir(&self) -> u64 {
        u64::from(self.ps) << 2 | u64::from(self.rid) << 8
    }
}

/// PTA fields (SDM vol. 2 Figure 3-9): ve bit 0, size 7:2, vf bit 8, base 63:15.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pta {
    /// VHPT walker enabled.
    pub ve: bool,
    /// log2 of the VHPT size.
    pub size: u8,
    /// Long format.
    pub vf: bool,
    /// Base address (bits 63:15).
    pub base: u64,
}

impl Pta {
    /// The fields of a cr.pta value.
    pub fn of(pta: u64) -> Pta {
        Pta { ve: pta & 1 != 0, size: ((pta >> 2) & 0x3F) as u8, vf: pta & (1 << 8) != 0, base: pta & !0x7FFF }
    }

    /// The table's index mask: `2^size - 1`, at least the 32 KB the base alignment implies.
    fn mask(&self) -> u64 {
        page_mask(self.size.max(15))
    }
}

/// `va{IMPL_VA_MSB:0} >> ps`: the virtual page number the hashes use.
fn vpn(va: u64, ps: u8) -> u64 {
    (va & ((1u64 << (IMPL_VA_MSB + 1)) - 1)) >> ps.min(63)
}

/// The short-format VHPT entry address of `va` (SDM vol. 2 section 4.1.5.3, Figure 4-13):
/// the region bits of `va`, PTA.base{60:15} outside the table mask, and the 8-byte entry index
/// `vpn << 3` inside it.
pub fn vhpt_hash_short(pta: Pta, region: Region, va: u64) -> u64 {
    let mask = pta.mask();
    (va & !VA_OFFSET) | (pta.base & VA_OFFSET & !mask) | ((vpn(va, region.ps) << 3) & mask)
}

/// The long-format VHPT entry address of `va`: the region bits and base of PTA, and a 32-byte
/// entry index. The index is `(vpn XOR rid) << 5` (this model's function, GUESS: the Itanium 2
/// one is implementation-specific and not in the sources at hand).
pub fn vhpt_hash_long(pta: Pta, region: Region, va: u64) -> u64 {
    let mask = pta.mask();
    let index = (vpn(va, region.ps) ^ u64::from(region.rid)) << 5;
    (pta.base & !mask) | (index & mask)
}

/// The long-format VHPT tag of `va`: the rid in bits 62:39 over the vpn (GUESS, as for
/// [`vhpt_hash_long`]); bit 63 (ti, tag invalid) is always clear, and with the vpn below 2^39
/// for 4 KB pages the pair (hash, tag) is unique per translation.
pub fn vhpt_tag(region: Region, va: u64) -> u64 {
    (u64::from(region.rid) << 39 ^ vpn(va, region.ps)) & !(1 << 63)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SDM vol. 2 Table 4-3, row by row: the less privileged column of each ar.
    #[test]
    fn access_rights_table() {
        use Access::*;
        // ar 0 at its own level reads only; from a less privileged level nothing.
        assert!(rights_allow(0, 0, 0, Read) && !rights_allow(0, 0, 0, Write) && !rights_allow(0, 0, 0, Exec));
        assert!(!rights_allow(0, 0, 3, Read));
        // ar 4: privileged read-write, user read.
        assert!(rights_allow(4, 0, 0, Write) && rights_allow(4, 0, 3, Read) && !rights_allow(4, 0, 3, Write));
        // ar 7: the promote page, execute only from below.
        assert!(rights_allow(7, 0, 3, Exec) && !rights_allow(7, 0, 3, Read));
        assert!(rights_allow(7, 3, 3, Read) && !rights_allow(7, 3, 3, Write));
        // A page at pl 3 is the user's own.
        assert!(rights_allow(2, 3, 3, ReadWrite));
    }

    #[test]
    fn overlap_uses_the_larger_page() {
        let e = Entry::new(0x2000_0000_0040_0000, 5, 1, 22 << 2);
        assert!(e.matches(5, 0x2000_0000_0041_2345));
        assert!(!e.matches(6, 0x2000_0000_0041_2345), "another region id");
        assert!(e.overlaps(5, 0x0000_0000_0043_f000, 12), "a 4 KB page inside the 4 MB one");
        assert!(!e.overlaps(5, 0x0000_0000_0080_0000, 12));
        assert_eq!(e.physical(0x0000_0000_0041_2345), 0x1_2345, "ppn 0 + offset");
    }

    #[test]
    fn tc_replaces_round_robin_when_full() {
        let mut s = Side::default();
        for i in 0..N_TC as u64 + 2 {
            s.insert_tc(Entry::new(i << 12, 1, 1, 12 << 2));
        }
        assert_eq!(s.tc_len(), N_TC);
        assert!(s.lookup(1, 0).is_none() && s.lookup(1, 1 << 12).is_none(), "the first two were replaced");
        assert!(s.lookup(1, (N_TC as u64 + 1) << 12).is_some());
    }
}
