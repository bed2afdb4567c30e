//! The recent stores a load may forward from: a fixed ring, newest first, so the lookup is O(1).

/// Stores remembered (Golden Cove's store buffer is larger; older stores have long committed
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
    /// A counting filter over the live entries (issue 17): per 8-byte granule hash, how many
    /// entries touch it, so a load no live store can overlap skips the scan. Entries that wrap
    /// or span more than two granules are counted in `wide` instead and force the scan.
    granules: [u8; GRANULE_SLOTS],
    wide: u32,
}

/// Granule hash buckets of the filter.
const GRANULE_SLOTS: usize = 256;

/// The first and last 8-byte granule of `[addr, end)`, unless the range wraps or spans more
/// than two granules.
#[inline(always)]
fn granules(addr: u64, end: u64) -> Option<(usize, usize)> {
    if end <= addr || ((end - 1) >> 3) - (addr >> 3) > 1 {
        return None;
    }
    Some(((addr >> 3) as usize % GRANULE_SLOTS, ((end - 1) >> 3) as usize % GRANULE_SLOTS))
}

impl Stores {
    /// No stores yet.
    pub(crate) fn new() -> Stores {
        Stores {
            ring: [Entry { addr: 0, end: 0, ready: 0 }; DEPTH],
            next: 0,
            filled: 0,
            granules: [0; GRANULE_SLOTS],
            wide: 0,
        }
    }

    /// Remembers a store of `size` bytes at `addr` whose data is ready at `ready`.
    #[inline]
    pub(crate) fn push(&mut self, addr: u64, size: u8, ready: u64) {
        if self.filled == DEPTH {
            // The ring is full: the slot taken holds the oldest live entry.
            let old = self.ring[self.next % DEPTH];
            self.count(old.addr, old.end, false);
        }
        let end = addr.wrapping_add(u64::from(size.max(1)));
        self.count(addr, end, true);
        self.ring[self.next % DEPTH] = Entry { addr, end, ready };
        self.next = (self.next + 1) % DEPTH;
        self.filled = (self.filled + 1).min(DEPTH);
    }

    /// Adds (`live`) or removes an entry's granules in the filter.
    #[inline(always)]
    fn count(&mut self, addr: u64, end: u64, live: bool) {
        match granules(addr, end) {
            Some((g0, g1)) => {
                for g in [g0, g1] {
                    let c = &mut self.granules[g];
                    *c = if live { c.wrapping_add(1) } else { c.wrapping_sub(1) };
                    if g0 == g1 {
                        break;
                    }
                }
            }
            None if live => self.wide += 1,
            None => self.wide -= 1,
        }
    }

    /// The newest store overlapping a load of `size` bytes at `addr`.
    #[inline]
    pub(crate) fn lookup(&self, addr: u64, size: u8) -> Forward {
        let size = u64::from(size.max(1));
        let load_end = addr.wrapping_add(size);
        // Overlapping byte ranges share a granule: if neither of the load's has a live entry
        // (and none is wide), no store overlaps it.
        if self.wide == 0 {
            if let Some((g0, g1)) = granules(addr, load_end) {
                if self.granules[g0] == 0 && self.granules[g1] == 0 {
                    return Forward::None;
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The filtered lookup against a plain scan of every live entry, on random stores and loads
    /// (aligned, unaligned, wrapping, wide).
    #[test]
    fn the_granule_filter_never_hides_an_overlapping_store() {
        let mut rng = emu_core::rng::Xorshift64::new(0x0057_07e5);
        let mut st = Stores::new();
        let mut live: Vec<(u64, u64, u64)> = Vec::new();
        for n in 0..50_000u64 {
            let mut pick = || {
                let base = match rng.next_u64() % 8 {
                    0 => u64::MAX - 16,
                    1 => 0x7000_0000 + 0x4000,
                    _ => 0x7000_0000,
                };
                (base.wrapping_add(rng.next_u64() % 200), [1u8, 2, 4, 8, 8, 16, 64][(rng.next_u64() % 7) as usize])
            };
            let (addr, size) = pick();
            if n.is_multiple_of(2) {
                st.push(addr, size, n);
                live.push((addr, addr.wrapping_add(u64::from(size)), n));
                if live.len() > DEPTH {
                    live.remove(0);
                }
            } else {
                let end = addr.wrapping_add(u64::from(size));
                let want =
                    live.iter().rev().find(|&&(a, e, _)| addr < e && a < end).map_or(Forward::None, |&(a, e, r)| {
                        if a <= addr && end <= e {
                            Forward::Full(r)
                        } else {
                            Forward::Partial(r)
                        }
                    });
                assert_eq!(st.lookup(addr, size), want, "load {addr:#x}+{size}");
            }
        }
    }
}
