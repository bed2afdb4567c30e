//! What the C functions see of the machine: guest memory through the stub's context, the ITC
//! as the C reads it (`ia64_get_itc()`), and tasks that live only on the Rust side.
//!
//! A stub runs at one instant of the model (`StubCtx::now`) and states its cost afterwards;
//! the C it stands for reads the ITC several times on the way. [`Guest::spend`] moves the
//! clock the C sees by the cycles of a step, so each read returns the time of its step.
//!
//! A task the emulated code never touches (the task a switch runs in between, say) needs a
//! thread_info all the same; [`Guest::with_private`] gives one in Rust memory at an address
//! of the caller's choosing, so the C's code reads it like any other.

use std::collections::BTreeMap;

use emu_core::stub::{StubCtx, StubError};

/// Memory only the Rust side holds: a block of zeroed bytes at a chosen address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrivateMemory {
    blocks: BTreeMap<u64, Vec<u8>>,
}

impl PrivateMemory {
    /// Adds `len` zero bytes at `base` (an address no guest mapping uses).
    pub fn add_block(&mut self, base: u64, len: usize) {
        self.blocks.insert(base, vec![0; len]);
    }

    /// Writes `bytes` at `addr`, inside a block added before.
    ///
    /// # Errors
    /// The range is not inside one block.
    pub fn poke(&mut self, addr: u64, bytes: &[u8]) -> Result<(), StubError> {
        let (&base, block) = self
            .blocks
            .range_mut(..=addr)
            .next_back()
            .ok_or_else(|| StubError(format!("{addr:#x}: no private block")))?;
        let start = usize::try_from(addr - base).map_err(|e| StubError(e.to_string()))?;
        let dst = start
            .checked_add(bytes.len())
            .and_then(|end| block.get_mut(start..end))
            .ok_or_else(|| StubError(format!("{addr:#x}+{}: outside the private block at {base:#x}", bytes.len())))?;
        dst.copy_from_slice(bytes);
        Ok(())
    }

    /// The `__u64` at `addr`, if a block holds it.
    pub fn peek8(&self, addr: u64) -> Option<u64> {
        let (&base, block) = self.blocks.range(..=addr).next_back()?;
        let start = usize::try_from(addr - base).ok()?;
        let b = block.get(start..start.checked_add(8)?)?;
        let mut v = [0u8; 8];
        v.copy_from_slice(b);
        Some(u64::from_le_bytes(v))
    }

    fn slice(&mut self, addr: u64, width: u8) -> Option<&mut [u8]> {
        let (&base, block) = self.blocks.range_mut(..=addr).next_back()?;
        let start = usize::try_from(addr - base).ok()?;
        let end = start.checked_add(usize::from(width))?;
        block.get_mut(start..end)
    }
}

/// The machine as the C functions see it.
pub struct Guest<'a> {
    ctx: &'a mut dyn StubCtx,
    private: Option<&'a mut PrivateMemory>,
    itc: u64,
}

impl std::fmt::Debug for Guest<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guest").field("itc", &self.itc).finish_non_exhaustive()
    }
}

fn check_width(width: u8) -> Result<(), StubError> {
    if matches!(width, 1 | 2 | 4 | 8) {
        Ok(())
    } else {
        Err(StubError(format!("access of {width} bytes: not 1, 2, 4 or 8")))
    }
}

impl<'a> Guest<'a> {
    /// The guest behind `ctx`, its ITC at the call.
    pub fn new(ctx: &'a mut dyn StubCtx) -> Guest<'a> {
        let itc = ctx.now();
        Guest { ctx, private: None, itc }
    }

    /// As [`Guest::new`], with `private` memory served before the guest's.
    pub fn with_private(ctx: &'a mut dyn StubCtx, private: &'a mut PrivateMemory) -> Guest<'a> {
        let itc = ctx.now();
        Guest { ctx, private: Some(private), itc }
    }

    /// `ia64_get_itc()`: the clock at the current step.
    pub fn itc(&self) -> u64 {
        self.itc
    }

    /// Cycles since the stub was entered.
    pub fn elapsed(&self) -> u64 {
        self.itc.wrapping_sub(self.ctx.now())
    }

    /// The next step of the C takes `cycles`.
    pub fn spend(&mut self, cycles: u64) {
        self.itc = self.itc.wrapping_add(cycles);
    }

    /// The `i`-th argument of the call.
    pub fn arg(&self, i: usize) -> u64 {
        self.ctx.arg(i)
    }

    /// Reads `width` bytes at `addr`.
    ///
    /// # Errors
    /// Not mapped, or a width other than 1, 2, 4, 8.
    pub fn read(&mut self, addr: u64, width: u8) -> Result<u64, StubError> {
        check_width(width)?;
        if let Some(bytes) = self.private.as_deref_mut().and_then(|p| p.slice(addr, width)) {
            let mut v = [0u8; 8];
            v[..bytes.len()].copy_from_slice(bytes);
            return Ok(u64::from_le_bytes(v));
        }
        self.ctx.read(addr, width)
    }

    /// Writes the low `width` bytes of `value` at `addr`.
    ///
    /// # Errors
    /// Not mapped, or a width other than 1, 2, 4, 8.
    pub fn write(&mut self, addr: u64, width: u8, value: u64) -> Result<(), StubError> {
        check_width(width)?;
        if let Some(bytes) = self.private.as_deref_mut().and_then(|p| p.slice(addr, width)) {
            let n = bytes.len();
            bytes.copy_from_slice(&value.to_le_bytes()[..n]);
            return Ok(());
        }
        self.ctx.write(addr, width, value)
    }

    /// A `__u64` field.
    ///
    /// # Errors
    /// As [`Guest::read`].
    pub fn ld8(&mut self, addr: u64) -> Result<u64, StubError> {
        self.read(addr, 8)
    }

    /// Stores a `__u64` field.
    ///
    /// # Errors
    /// As [`Guest::write`].
    pub fn st8(&mut self, addr: u64, value: u64) -> Result<(), StubError> {
        self.write(addr, 8, value)
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! A flat guest for the unit tests: little-endian bytes in a map, a settable clock.
    use super::*;

    #[derive(Debug, Default)]
    pub struct FlatCtx {
        pub mem: BTreeMap<u64, u8>,
        pub now: u64,
        pub args: Vec<u64>,
    }

    impl StubCtx for FlatCtx {
        fn arg(&self, i: usize) -> u64 {
            self.args.get(i).copied().unwrap_or(0)
        }
        fn read(&mut self, addr: u64, width: u8) -> Result<u64, StubError> {
            let mut v = 0u64;
            for i in 0..u64::from(width) {
                let b = self.mem.get(&(addr + i)).ok_or_else(|| StubError(format!("{:#x} not mapped", addr + i)))?;
                v |= u64::from(*b) << (8 * i);
            }
            Ok(v)
        }
        fn write(&mut self, addr: u64, width: u8, value: u64) -> Result<(), StubError> {
            for i in 0..u64::from(width) {
                self.mem.insert(addr + i, (value >> (8 * i)) as u8);
            }
            Ok(())
        }
        fn now(&self) -> u64 {
            self.now
        }
        fn symbol(&self, _name: &str) -> Option<u64> {
            None
        }
    }

    impl FlatCtx {
        /// Maps `len` zero bytes at `base`.
        pub fn map(&mut self, base: u64, len: u64) {
            for a in base..base + len {
                self.mem.insert(a, 0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::FlatCtx;
    use super::*;

    #[test]
    fn private_memory_is_served_before_the_guest_and_the_clock_moves_by_steps() {
        let mut ctx = FlatCtx { now: 100, ..FlatCtx::default() };
        ctx.map(0x1000, 16);
        let mut private = PrivateMemory::default();
        private.add_block(0x9000, 16);
        let mut g = Guest::with_private(&mut ctx, &mut private);
        g.st8(0x9008, 0x1122_3344_5566_7788).unwrap();
        g.st8(0x1000, 5).unwrap();
        assert_eq!(g.ld8(0x9008), Ok(0x1122_3344_5566_7788));
        assert_eq!(g.read(0x9009, 1), Ok(0x77));
        assert_eq!(g.ld8(0x1000), Ok(5));
        assert!(g.ld8(0x2000).is_err());
        assert!(g.read(0x1000, 3).is_err());
        assert_eq!(g.itc(), 100);
        g.spend(40);
        assert_eq!((g.itc(), g.elapsed()), (140, 40));
        assert_eq!(ctx.read(0x1000, 8), Ok(5));
    }
}
