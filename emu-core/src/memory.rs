//! Sparse, endian-aware guest memory.
//!
//! Memory is a sorted list of named, non-overlapping regions. Each region stores its
//! bytes in 4 KiB pages that are allocated on the first write (or `load`): reading a
//! page nobody wrote yields zeros without allocating, so a harness can map a large
//! stack or a whole per-CPU area cheaply. A region's page table is one `Vec` slot per
//! page, which is why a single region is limited to [`MAX_REGION_SIZE`].
//!
//! The typed accesses (`read_u8` .. `write_u64`, `read_sized`, `write_sized`, and the `_in`
//! forms in a named byte order) take a fast path ([`typed`]) when the access lies inside one
//! page of the region the previous access touched: a bounds and permission check against
//! that region, then one fixed-size copy out of (or into) the page, converted in the byte
//! order (the memory's unless named). Anything else (another
//! region, a page or region boundary, a fault) falls back to the general byte path: a region
//! lookup (which moves the hint), then a chunked copy. Neither path allocates, except the
//! once-per-page allocation on the first write to a page. Faults come from the byte path
//! only, so they are the same whichever path an access started on.

use std::fmt;

mod fault;
mod perms;
mod typed;

pub use fault::{FaultKind, MemError, MemFault, PcFault};
pub use perms::{Access, Perms};

/// Size of a lazily allocated storage page.
pub const PAGE_SIZE: u64 = 4096;

/// Largest size one region may have (its page table holds one slot per page).
pub const MAX_REGION_SIZE: u64 = 1 << 32;

/// Byte order of multi-byte accesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Least significant byte at the lowest address (ia64, x86).
    Little,
    /// Most significant byte at the lowest address (s390).
    Big,
}

/// Description of one mapped region, as listed by [`Memory::regions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionInfo<'a> {
    /// Name given at mapping time.
    pub name: &'a str,
    /// First address.
    pub base: u64,
    /// Length in bytes.
    pub size: u64,
    /// Access permissions.
    pub perms: Perms,
}

type Page = Box<[u8; PAGE_SIZE as usize]>;

#[derive(Clone)]
struct Region {
    name: String,
    base: u64,
    size: u64,
    perms: Perms,
    /// One slot per page of the region; `None` reads as zeros.
    pages: Vec<Option<Page>>,
}

impl fmt::Debug for Region {
    /// Page contents are left out: a region may hold megabytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Region")
            .field("name", &self.name)
            .field("base", &format_args!("{:#x}", self.base))
            .field("size", &format_args!("{:#x}", self.size))
            .field("perms", &format_args!("{}", self.perms))
            .field("allocated_pages", &self.pages.iter().filter(|p| p.is_some()).count())
            .finish()
    }
}

impl Region {
    fn contains(&self, addr: u64) -> bool {
        addr >= self.base && addr - self.base < self.size
    }

    /// Bytes from `addr` to the end of the region (`addr` must be inside).
    fn remaining(&self, addr: u64) -> u64 {
        self.size - (addr - self.base)
    }

    /// Copy `out.len()` bytes at region offset `off`; the span stays inside one page.
    fn read_in_page(&self, off: u64, out: &mut [u8]) {
        let page_idx = (off / PAGE_SIZE) as usize;
        let in_page = (off % PAGE_SIZE) as usize;
        match self.pages.get(page_idx).and_then(|p| p.as_ref()) {
            Some(page) => {
                if let Some(src) = page.get(in_page..in_page + out.len()) {
                    out.copy_from_slice(src);
                }
            }
            None => out.fill(0),
        }
    }

    /// Store `data` at region offset `off`; the span stays inside one page.
    fn write_in_page(&mut self, off: u64, data: &[u8]) {
        let page_idx = (off / PAGE_SIZE) as usize;
        let in_page = (off % PAGE_SIZE) as usize;
        if let Some(slot) = self.pages.get_mut(page_idx) {
            let page = slot.get_or_insert_with(|| Box::new([0u8; PAGE_SIZE as usize]));
            if let Some(dst) = page.get_mut(in_page..in_page + data.len()) {
                dst.copy_from_slice(data);
            }
        }
    }
}

/// Sparse guest memory: named regions with permissions and one byte order.
#[derive(Debug, Clone)]
pub struct Memory {
    endian: Endian,
    /// Sorted by base; never overlapping.
    regions: Vec<Region>,
    /// Index of the region that served the last access (a hint, always bounds-checked).
    last: std::cell::Cell<usize>,
}

impl Memory {
    /// Empty memory with byte order `endian`.
    pub fn new(endian: Endian) -> Memory {
        Memory { endian, regions: Vec::new(), last: std::cell::Cell::new(0) }
    }

    /// Byte order of multi-byte accesses.
    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// Map `size` zero bytes at `base` with `perms`, named `name` in reports.
    ///
    /// # Errors
    /// Zero size, wrap past 2^64, a size above [`MAX_REGION_SIZE`], or overlap with a
    /// mapped region.
    pub fn map(&mut self, base: u64, size: u64, perms: Perms, name: &str) -> Result<(), MemError> {
        if size == 0 {
            return Err(MemError::ZeroSize { name: name.to_string(), base });
        }
        // `base + size == 2^64` is fine: the region ends exactly at the top.
        if base.checked_add(size - 1).is_none() {
            return Err(MemError::Wraps { name: name.to_string(), base, size });
        }
        if size > MAX_REGION_SIZE {
            return Err(MemError::TooLarge { name: name.to_string(), base, size });
        }
        let idx = self.regions.partition_point(|r| r.base < base);
        let last_byte = base + (size - 1);
        let clash = [idx.checked_sub(1), Some(idx)]
            .into_iter()
            .flatten()
            .filter_map(|i| self.regions.get(i))
            .find(|r| r.base <= last_byte && base <= r.base + (r.size - 1));
        if let Some(r) = clash {
            return Err(MemError::Overlap {
                name: name.to_string(),
                base,
                size,
                other: r.name.clone(),
                other_base: r.base,
                other_size: r.size,
            });
        }
        let pages = size.div_ceil(PAGE_SIZE) as usize;
        let region = Region { name: name.to_string(), base, size, perms, pages: vec![None; pages] };
        self.regions.insert(idx, region);
        self.last.set(idx);
        Ok(())
    }

    /// The mapped regions in address order.
    pub fn regions(&self) -> impl Iterator<Item = RegionInfo<'_>> + '_ {
        self.regions.iter().map(|r| RegionInfo { name: &r.name, base: r.base, size: r.size, perms: r.perms })
    }

    /// The region holding `addr`, if any.
    pub fn region_at(&self, addr: u64) -> Option<RegionInfo<'_>> {
        let r = self.regions.get(self.find(addr)?)?;
        Some(RegionInfo { name: &r.name, base: r.base, size: r.size, perms: r.perms })
    }

    /// Whether `addr` is inside some region.
    pub fn is_mapped(&self, addr: u64) -> bool {
        self.find(addr).is_some()
    }

    fn find(&self, addr: u64) -> Option<usize> {
        let hint = self.last.get();
        if self.regions.get(hint).is_some_and(|r| r.contains(addr)) {
            return Some(hint);
        }
        let idx = self.regions.partition_point(|r| r.base <= addr).checked_sub(1)?;
        if self.regions.get(idx)?.contains(addr) {
            self.last.set(idx);
            Some(idx)
        } else {
            None
        }
    }

    /// Check that `[addr, addr+len)` is mapped with `need` (if any); returns the first
    /// region index so callers can walk on.
    fn check(&self, addr: u64, len: u64, need: Option<Access>) -> Result<usize, MemFault> {
        let fault = |kind| MemFault { kind, addr, size: len };
        if len > 0 && addr.checked_add(len - 1).is_none() {
            return Err(fault(FaultKind::Wraps));
        }
        let first = self.find(addr).ok_or(fault(FaultKind::Unmapped))?;
        let mut idx = first;
        let mut cur = addr;
        let mut left = len;
        loop {
            let r = self.regions.get(idx).ok_or(fault(FaultKind::CrossesRegion { at: cur }))?;
            if !r.contains(cur) {
                return Err(fault(FaultKind::CrossesRegion { at: cur }));
            }
            if let Some(need) = need {
                if !r.perms.contains(need.perm()) {
                    return Err(fault(FaultKind::Protection { needed: need, at: cur }));
                }
            }
            let take = r.remaining(cur).min(left);
            left -= take;
            if left == 0 {
                return Ok(first);
            }
            cur += take;
            idx += 1;
        }
    }

    /// Copy out bytes after [`Memory::check`] succeeded, page by page.
    fn copy_out(&self, mut idx: usize, addr: u64, out: &mut [u8]) {
        let mut cur = addr;
        let mut done = 0usize;
        while done < out.len() {
            let Some(r) = self.regions.get(idx) else {
                return;
            };
            let off = cur - r.base;
            let in_page = PAGE_SIZE - off % PAGE_SIZE;
            let take = (out.len() - done).min(in_page.min(r.remaining(cur)) as usize);
            if let Some(dst) = out.get_mut(done..done + take) {
                r.read_in_page(off, dst);
            }
            done += take;
            cur = cur.wrapping_add(take as u64);
            if done < out.len() && !r.contains(cur) {
                idx += 1;
            }
        }
    }

    fn copy_in(&mut self, mut idx: usize, addr: u64, data: &[u8]) {
        let mut cur = addr;
        let mut done = 0usize;
        while done < data.len() {
            let Some(r) = self.regions.get_mut(idx) else {
                return;
            };
            let off = cur - r.base;
            let in_page = PAGE_SIZE - off % PAGE_SIZE;
            let take = (data.len() - done).min(in_page.min(r.remaining(cur)) as usize);
            if let Some(src) = data.get(done..done + take) {
                r.write_in_page(off, src);
            }
            done += take;
            cur = cur.wrapping_add(take as u64);
            if done < data.len() && !r.contains(cur) {
                idx += 1;
            }
        }
    }

    fn read_with(&self, addr: u64, out: &mut [u8], need: Option<Access>) -> Result<(), MemFault> {
        let len = out.len() as u64;
        if let Some(idx) = self.find(addr) {
            if let Some(r) = self.regions.get(idx) {
                let off = addr - r.base;
                let fast = off % PAGE_SIZE + len <= PAGE_SIZE && len <= r.remaining(addr);
                if fast && need.is_none_or(|n| r.perms.contains(n.perm())) {
                    r.read_in_page(off, out);
                    return Ok(());
                }
            }
        }
        let idx = self.check(addr, len, need)?;
        self.copy_out(idx, addr, out);
        Ok(())
    }

    fn write_with(&mut self, addr: u64, data: &[u8], need: Option<Access>) -> Result<(), MemFault> {
        let len = data.len() as u64;
        if let Some(r) = self.find(addr).and_then(|idx| self.regions.get_mut(idx)) {
            let off = addr - r.base;
            let fast = off % PAGE_SIZE + len <= PAGE_SIZE && len <= r.remaining(addr);
            if fast && need.is_none_or(|n| r.perms.contains(n.perm())) {
                r.write_in_page(off, data);
                return Ok(());
            }
        }
        // Check the whole span first so a faulting write changes nothing.
        let idx = self.check(addr, data.len() as u64, need)?;
        self.copy_in(idx, addr, data);
        Ok(())
    }

    /// Read `out.len()` bytes at `addr` (needs read permission on every byte).
    ///
    /// # Errors
    /// A [`MemFault`] if any byte is unmapped or unreadable; `out` is then unspecified.
    pub fn read_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        self.read_with(addr, out, Some(Access::Read))
    }

    /// Read bytes regardless of permissions, for reports and debuggers.
    ///
    /// # Errors
    /// A [`MemFault`] if any byte is unmapped.
    pub fn peek_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        self.read_with(addr, out, None)
    }

    /// Read instruction bytes at `addr` (needs execute permission on every byte).
    ///
    /// # Errors
    /// A [`MemFault`] if any byte is unmapped or not executable.
    pub fn fetch(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        self.read_with(addr, out, Some(Access::Exec))
    }

    /// Reads instruction bytes at `addr` into `out` as far as they are executable, for a
    /// decoder of variable-length instructions that learns the length from the bytes; returns
    /// how many were read.
    ///
    /// # Errors
    /// The [`MemFault`] of the first byte, when not even that one can be fetched.
    pub fn fetch_upto(&self, addr: u64, out: &mut [u8]) -> Result<usize, MemFault> {
        for (k, byte) in out.iter_mut().enumerate() {
            let mut b = [0u8];
            match self.fetch(addr.wrapping_add(k as u64), &mut b) {
                Ok(()) => *byte = b[0],
                Err(fault) if k == 0 => return Err(fault),
                Err(_) => return Ok(k),
            }
        }
        Ok(out.len())
    }

    /// Write `data` at `addr` (needs write permission on every byte). A faulting write
    /// changes nothing.
    ///
    /// # Errors
    /// A [`MemFault`] if any byte is unmapped or read-only.
    pub fn write_bytes(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.write_with(addr, data, Some(Access::Write))
    }

    /// Initialise bytes at `addr` ignoring permissions (image loading, harness setup).
    ///
    /// # Errors
    /// A [`MemFault`] if any byte is unmapped; nothing is written then.
    pub fn load(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.write_with(addr, data, None)
    }
}

#[cfg(test)]
mod tests;
