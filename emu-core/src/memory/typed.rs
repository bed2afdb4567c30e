//! Typed 1/2/4/8-byte accesses with a page fast path.
//!
//! An access that lies inside one page of the region the previous access touched (the
//! [`Memory`] hint) and that the region's permissions allow is served here with a bounds
//! check, one page-table index and a fixed-size copy, converted in the memory's byte order (or
//! the one the caller names: IA-64 data accesses follow PSR.be). A write takes the fast path
//! only into a page already allocated, so the fast path never calls out. Everything else goes
//! through the byte path of [`Memory::read_bytes`] and [`Memory::write_bytes`], which finds
//! the region (moving the hint), allocates pages, walks page and region boundaries and builds
//! the faults: a typed access faults exactly as the byte path does.

use super::{Endian, MemFault, Memory, Perms, Region, PAGE_SIZE};

/// A fixed-size value the memory stores in its byte order.
trait Word: Sized + Copy {
    /// Bytes per value.
    const N: usize;
    /// The bytes as they sit in memory.
    type Bytes: Default + AsRef<[u8]> + AsMut<[u8]>;
    fn from_bytes(b: Self::Bytes, e: Endian) -> Self;
    fn to_bytes(self, e: Endian) -> Self::Bytes;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const N: usize = std::mem::size_of::<$t>();
            type Bytes = [u8; std::mem::size_of::<$t>()];
            #[inline(always)]
            fn from_bytes(b: Self::Bytes, e: Endian) -> Self {
                match e {
                    Endian::Little => <$t>::from_le_bytes(b),
                    Endian::Big => <$t>::from_be_bytes(b),
                }
            }
            #[inline(always)]
            fn to_bytes(self, e: Endian) -> Self::Bytes {
                match e {
                    Endian::Little => self.to_le_bytes(),
                    Endian::Big => self.to_be_bytes(),
                }
            }
        }
    };
}

word!(u8);
word!(u16);
word!(u32);
word!(u64);

impl Region {
    /// The region offset of `[addr, addr + n)` when it lies inside the region and inside one
    /// of its pages, and the region grants `need`.
    #[inline(always)]
    fn hot_offset(&self, addr: u64, n: usize, need: Perms) -> Option<u64> {
        let off = addr.wrapping_sub(self.base);
        let n = n as u64;
        let inside = off < self.size && self.size - off >= n && off % PAGE_SIZE + n <= PAGE_SIZE;
        (inside && self.perms.contains(need)).then_some(off)
    }

    /// The `W` at region offset `off` (inside one page); an untouched page reads as zeros.
    #[inline(always)]
    fn load_word<W: Word>(&self, off: u64, e: Endian) -> W {
        let mut bytes = W::Bytes::default();
        if let Some(Some(page)) = self.pages.get((off / PAGE_SIZE) as usize) {
            let at = (off % PAGE_SIZE) as usize;
            if let Some(src) = page.get(at..at + W::N) {
                bytes.as_mut().copy_from_slice(src);
            }
        }
        W::from_bytes(bytes, e)
    }

    /// Stores `v` at region offset `off` (inside one page) when that page is allocated,
    /// returning whether it did (the byte path allocates, off the fast path).
    #[inline(always)]
    fn store_word<W: Word>(&mut self, off: u64, v: W, e: Endian) -> bool {
        let Some(Some(page)) = self.pages.get_mut((off / PAGE_SIZE) as usize) else { return false };
        let at = (off % PAGE_SIZE) as usize;
        let Some(dst) = page.get_mut(at..at + W::N) else { return false };
        dst.copy_from_slice(v.to_bytes(e).as_ref());
        true
    }
}

impl Memory {
    /// Reads a `W` in byte order `e`: the fast path in the hinted region, else the byte path.
    #[inline(always)]
    fn read_word<W: Word>(&self, addr: u64, e: Endian) -> Result<W, MemFault> {
        if let Some(r) = self.regions.get(self.last.get()) {
            if let Some(off) = r.hot_offset(addr, W::N, Perms::READ) {
                return Ok(r.load_word(off, e));
            }
        }
        self.read_word_slow(addr, e)
    }

    #[cold]
    #[inline(never)]
    fn read_word_slow<W: Word>(&self, addr: u64, e: Endian) -> Result<W, MemFault> {
        let mut bytes = W::Bytes::default();
        self.read_bytes(addr, bytes.as_mut())?;
        Ok(W::from_bytes(bytes, e))
    }

    /// Writes a `W` in byte order `e`: the fast path in the hinted region, else the byte path.
    #[inline(always)]
    fn write_word<W: Word>(&mut self, addr: u64, v: W, e: Endian) -> Result<(), MemFault> {
        if let Some(r) = self.regions.get_mut(self.last.get()) {
            if let Some(off) = r.hot_offset(addr, W::N, Perms::WRITE) {
                if r.store_word(off, v, e) {
                    return Ok(());
                }
            }
        }
        self.write_word_slow(addr, v, e)
    }

    #[cold]
    #[inline(never)]
    fn write_word_slow<W: Word>(&mut self, addr: u64, v: W, e: Endian) -> Result<(), MemFault> {
        self.write_bytes(addr, v.to_bytes(e).as_ref())
    }

    /// Read an unsigned value of `size` bytes (at most 8; larger sizes read 8) in the
    /// memory's byte order.
    ///
    /// # Errors
    /// A [`MemFault`] as for [`Memory::read_bytes`].
    #[inline]
    pub fn read_sized(&self, addr: u64, size: usize) -> Result<u64, MemFault> {
        self.read_sized_in(addr, size, self.endian)
    }

    /// Read an unsigned value of `size` bytes (at most 8; larger sizes read 8) in byte order
    /// `order`, whatever the memory's (IA-64 data accesses follow PSR.be). The common sizes
    /// are one inlined fast path (issue 17).
    ///
    /// # Errors
    /// A [`MemFault`] as for [`Memory::read_bytes`].
    #[inline(always)]
    pub fn read_sized_in(&self, addr: u64, size: usize, order: Endian) -> Result<u64, MemFault> {
        match size {
            1 => self.read_word::<u8>(addr, order).map(u64::from),
            2 => self.read_word::<u16>(addr, order).map(u64::from),
            4 => self.read_word::<u32>(addr, order).map(u64::from),
            8.. => self.read_word::<u64>(addr, order),
            _ => self.read_odd(addr, size, order),
        }
    }

    /// A 0, 3, 5, 6 or 7-byte read in byte order `order`, through the byte path.
    #[cold]
    #[inline(never)]
    fn read_odd(&self, addr: u64, n: usize, order: Endian) -> Result<u64, MemFault> {
        let mut buf = [0u8; 8];
        self.read_bytes(addr, buf.get_mut(..n).unwrap_or_default())?;
        Ok(match order {
            Endian::Little => u64::from_le_bytes(buf),
            // The value's bytes lead, so it sits in the top `n` bytes of the big-endian word.
            Endian::Big => u64::from_be_bytes(buf).checked_shr(8 * (8 - n) as u32).unwrap_or(0),
        })
    }

    /// Write the low `size` bytes (at most 8; larger sizes write 8) of `value` in the memory's
    /// byte order.
    ///
    /// # Errors
    /// A [`MemFault`] as for [`Memory::write_bytes`].
    #[inline]
    pub fn write_sized(&mut self, addr: u64, size: usize, value: u64) -> Result<(), MemFault> {
        self.write_sized_in(addr, size, value, self.endian)
    }

    /// Write the low `size` bytes (at most 8; larger sizes write 8) of `value` in byte order
    /// `order`, whatever the memory's (IA-64 data accesses follow PSR.be). The common sizes
    /// are one inlined fast path (issue 17).
    ///
    /// # Errors
    /// A [`MemFault`] as for [`Memory::write_bytes`].
    #[inline(always)]
    pub fn write_sized_in(&mut self, addr: u64, size: usize, value: u64, order: Endian) -> Result<(), MemFault> {
        match size {
            1 => self.write_word(addr, value as u8, order),
            2 => self.write_word(addr, value as u16, order),
            4 => self.write_word(addr, value as u32, order),
            8.. => self.write_word(addr, value, order),
            _ => self.write_odd(addr, size, value, order),
        }
    }

    /// A 0, 3, 5, 6 or 7-byte write in byte order `order`, through the byte path.
    #[cold]
    #[inline(never)]
    fn write_odd(&mut self, addr: u64, n: usize, value: u64, order: Endian) -> Result<(), MemFault> {
        let (buf, start) = match order {
            Endian::Little => (value.to_le_bytes(), 0),
            Endian::Big => (value.to_be_bytes(), 8 - n),
        };
        self.write_bytes(addr, buf.get(start..start + n).unwrap_or_default())
    }

    /// Read one byte.
    ///
    /// # Errors
    /// A [`MemFault`] if the byte is unmapped or unreadable.
    #[inline]
    pub fn read_u8(&self, addr: u64) -> Result<u8, MemFault> {
        self.read_word(addr, self.endian)
    }

    /// Read a 2-byte value in the memory's byte order.
    ///
    /// # Errors
    /// A [`MemFault`] if a byte is unmapped or unreadable.
    #[inline]
    pub fn read_u16(&self, addr: u64) -> Result<u16, MemFault> {
        self.read_word(addr, self.endian)
    }

    /// Read a 4-byte value in the memory's byte order.
    ///
    /// # Errors
    /// A [`MemFault`] if a byte is unmapped or unreadable.
    #[inline]
    pub fn read_u32(&self, addr: u64) -> Result<u32, MemFault> {
        self.read_word(addr, self.endian)
    }

    /// Read an 8-byte value in the memory's byte order.
    ///
    /// # Errors
    /// A [`MemFault`] if a byte is unmapped or unreadable.
    #[inline]
    pub fn read_u64(&self, addr: u64) -> Result<u64, MemFault> {
        self.read_word(addr, self.endian)
    }

    /// Write one byte.
    ///
    /// # Errors
    /// A [`MemFault`] if the byte is unmapped or read-only.
    #[inline]
    pub fn write_u8(&mut self, addr: u64, value: u8) -> Result<(), MemFault> {
        self.write_word(addr, value, self.endian)
    }

    /// Write a 2-byte value in the memory's byte order.
    ///
    /// # Errors
    /// A [`MemFault`] if a byte is unmapped or read-only.
    #[inline]
    pub fn write_u16(&mut self, addr: u64, value: u16) -> Result<(), MemFault> {
        self.write_word(addr, value, self.endian)
    }

    /// Write a 4-byte value in the memory's byte order.
    ///
    /// # Errors
    /// A [`MemFault`] if a byte is unmapped or read-only.
    #[inline]
    pub fn write_u32(&mut self, addr: u64, value: u32) -> Result<(), MemFault> {
        self.write_word(addr, value, self.endian)
    }

    /// Write an 8-byte value in the memory's byte order.
    ///
    /// # Errors
    /// A [`MemFault`] if a byte is unmapped or read-only.
    #[inline]
    pub fn write_u64(&mut self, addr: u64, value: u64) -> Result<(), MemFault> {
        self.write_word(addr, value, self.endian)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{Access, FaultKind};

    /// Every size at every offset around a page boundary, in both byte orders, agrees with
    /// the byte path and with a plain model of the bytes.
    #[test]
    fn typed_accesses_agree_with_the_byte_path_around_page_and_region_edges() {
        for endian in [Endian::Little, Endian::Big] {
            let mut m = Memory::new(endian);
            m.map(0x1000, 0x2000, Perms::RW, "a").unwrap();
            m.map(0x3000, 0x10, Perms::RW, "b").unwrap();
            let mut model = vec![0u8; 0x2010];
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for base in [0x1ff0u64, 0x2ff0, 0x3000] {
                for off in 0..0x18u64 {
                    for size in [1usize, 2, 4, 8, 3, 5, 6, 7] {
                        let addr = base + off;
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let value = seed & (u64::MAX >> (64 - 8 * size));
                        let wrote = m.write_sized(addr, size, value);
                        let end = addr + size as u64;
                        assert_eq!(wrote.is_ok(), end <= 0x3010, "{endian:?} write {size} at {addr:#x}");
                        if let Err(fault) = wrote {
                            assert_eq!(m.read_sized(addr, size).unwrap_err(), fault);
                            continue;
                        }
                        let bytes: Vec<u8> = match endian {
                            Endian::Little => value.to_le_bytes()[..size].to_vec(),
                            Endian::Big => value.to_be_bytes()[8 - size..].to_vec(),
                        };
                        let at = (addr - 0x1000) as usize;
                        model[at..at + size].copy_from_slice(&bytes);
                        assert_eq!(m.read_sized(addr, size).unwrap(), value, "{endian:?} read {size} at {addr:#x}");
                        let mut raw = vec![0u8; size];
                        m.read_bytes(addr, &mut raw).unwrap();
                        assert_eq!(raw, &model[at..at + size]);
                    }
                }
            }
        }
    }

    /// An access in a named byte order stores and loads the value's bytes in that order,
    /// whatever the memory's, for every size around page and region edges; its faults are the
    /// memory-order access's.
    #[test]
    fn accesses_in_a_named_order_agree_with_a_byte_model() {
        for endian in [Endian::Little, Endian::Big] {
            for order in [Endian::Little, Endian::Big] {
                let mut m = Memory::new(endian);
                m.map(0x1000, 0x2000, Perms::RW, "a").unwrap();
                m.map(0x3000, 0x10, Perms::RW, "b").unwrap();
                let mut seed = 0x2545_f491_4f6c_dd1du64;
                for addr in (0x1ff0u64..0x2008).chain(0x2ff0..0x3010) {
                    for size in [1usize, 2, 4, 8, 3, 5, 6, 7] {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let wrote = m.write_sized_in(addr, size, seed, order);
                        if let Err(fault) = wrote {
                            assert_eq!(m.write_sized(addr, size, seed).unwrap_err(), fault);
                            assert_eq!(m.read_sized_in(addr, size, order).unwrap_err(), fault);
                            continue;
                        }
                        let value = seed & (u64::MAX >> (64 - 8 * size));
                        let bytes: Vec<u8> = match order {
                            Endian::Little => value.to_le_bytes()[..size].to_vec(),
                            Endian::Big => value.to_be_bytes()[8 - size..].to_vec(),
                        };
                        let mut raw = vec![0u8; size];
                        m.read_bytes(addr, &mut raw).unwrap();
                        assert_eq!(raw, bytes, "{endian:?}/{order:?} write {size} at {addr:#x}");
                        assert_eq!(m.read_sized_in(addr, size, order).unwrap(), value);
                    }
                }
            }
        }
    }

    /// The first write to a page of the hinted region (not yet allocated, so off the fast
    /// path) allocates it and lands; the page around it still reads as zeros.
    #[test]
    fn first_write_to_an_untouched_page_of_the_hinted_region_lands() {
        let mut m = Memory::new(Endian::Little);
        m.map(0x1_0000, 0x4000, Perms::RW, "stack").unwrap();
        assert_eq!(m.read_u64(0x1_0000).unwrap(), 0);
        m.write_u64(0x1_2008, 0x1122_3344_5566_7788).unwrap();
        assert_eq!(m.read_u64(0x1_2008).unwrap(), 0x1122_3344_5566_7788);
        assert_eq!(m.read_u64(0x1_2000).unwrap(), 0);
        m.write_u32(0x1_2000, 7).unwrap();
        assert_eq!(m.read_sized(0x1_2000, 8).unwrap(), 7);
        let f = m.write_u64(0x1_3ffc, 1).unwrap_err();
        assert_eq!(f, MemFault { kind: FaultKind::CrossesRegion { at: 0x1_4000 }, addr: 0x1_3ffc, size: 8 });
    }

    /// The fast path honours the region's permissions and faults as the byte path does.
    #[test]
    fn typed_fast_path_keeps_permissions_and_fault_values() {
        let mut m = Memory::new(Endian::Little);
        m.map(0x1000, 0x1000, Perms::READ, "ro").unwrap();
        m.map(0x2000, 0x1000, Perms::EXEC, "x").unwrap();
        // The hint now points at "ro": a write there must still fault.
        assert_eq!(m.read_u64(0x1000).unwrap(), 0);
        let f = m.write_u32(0x1004, 1).unwrap_err();
        assert_eq!(
            f,
            MemFault { kind: FaultKind::Protection { needed: Access::Write, at: 0x1004 }, addr: 0x1004, size: 4 }
        );
        // Execute-only: not readable, even once the hint points there.
        let mut insn = [0u8; 4];
        m.fetch(0x2000, &mut insn).unwrap();
        let f = m.read_u16(0x2000).unwrap_err();
        assert_eq!(f.kind, FaultKind::Protection { needed: Access::Read, at: 0x2000 });
        let f = m.read_sized(0x2ffe, 0).unwrap_err();
        assert_eq!(f.kind, FaultKind::Protection { needed: Access::Read, at: 0x2ffe });
        assert_eq!(m.read_sized(0x1ffe, 0).unwrap(), 0);
    }
}
