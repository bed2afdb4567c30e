//! The recent stores a load may forward from: a fixed ring, newest first, so the lookup is O(1).

/// Stores remembered (a power of two, so the ring index is a mask) (Golden Cove's store buffer is larger; older stores have long committed
/// in the short paths the model runs, and a committed store costs a plain L1 hit).
const DEPTH: usize = 16;

/// One store: its bytes and the cycle its data is ready.
#[derive(Debug, Clone, Copy)]
struct Entry {
    addr: u64,
    /// One past the last byte.
    end: u64,
    ready: u64,
}

/// How a load relates to the recent stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Forward {
    /// No recent store overlaps the load.
    None,
    /// The newest overlapping store contains the load; its data is ready at this cycle.
    Full(u64),
    /// The newest overlapping store covers only part of the load; its data is ready at this cycle.
    Partial(u64),
}

/// The ring of recent stores.
#[derive(Debug, Clone)]
pub(crate) struct Stores {
    ring: [Entry; DEPTH],
    next: usize,
    /// Entries written so far, at most `DEPTH`: the newest `filled` slots before `next` hold
    /// stores, the others were never written.
    filled: usize,
}

impl Stores {
    /// No stores yet.
    pub(crate) fn new() -> Stores {
        Stores { ring: [Entry { addr: 0, end: 0, ready: 0 }; DEPTH], next: 0, filled: 0 }
    }

    /// Remembers a store of `size` bytes at `addr` whose data is ready at `ready`.
    #[inline]
    pub(crate) fn push(&mut self, addr: u64, size: u8, ready: u64) {
        self.ring[self.next % DEPTH] = Entry { addr, end: addr.wrapping_add(u64::from(size.max(1))), ready };
        self.next = (self.next + 1) % DEPTH;
        self.filled = (self.filled + 1).min(DEPTH);
    }

    /// The newest store overlapping a load of `size` bytes at `addr`.
    #[inline]
    pub(crate) fn lookup(&self, addr: u64, size: u8) -> Forward {
        let size = u64::from(size.max(1));
        let load_end = addr.wrapping_add(size);
        for k in 1..=self.filled {
            let e = &self.ring[(self.next + DEPTH - k) % DEPTH];
            let store_end = e.end;
            let overlaps = addr < store_end && e.addr < load_end;
            if !overlaps {
                continue;
            }
            let contains = e.addr <= addr && load_end <= store_end;
            return if contains { Forward::Full(e.ready) } else { Forward::Partial(e.ready) };
        }
        Forward::None
    }
}
