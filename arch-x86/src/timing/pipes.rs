//! Per-cycle pipe occupancy for one group of identical pipes, kept in a fixed ring so a later
//! instruction can take a pipe in an earlier cycle than a stalled earlier one (out-of-order
//! execution) at O(1) cost per instruction.

/// Cycles the ring remembers; reservations further apart than this forget each other.
const WINDOW: usize = 256;

/// Uses of one pipe group per cycle.
#[derive(Debug, Clone)]
pub(crate) struct Pipes {
    /// Per ring slot: the cycle it holds (`u64::MAX`: none yet) and the pipes used in it, side
    /// by side so one probe touches one place.
    ring: Box<[(u64, u64); WINDOW]>,
}

impl Pipes {
    /// An idle group.
    pub(crate) fn new() -> Pipes {
        Pipes { ring: Box::new([(u64::MAX, 0); WINDOW]) }
    }

    /// Takes one of `count` pipes in the first cycle at or after `from` that has one free, looking
    /// at most `WINDOW` cycles ahead; returns that cycle. `count` 0 means unlimited.
    #[inline]
    pub(crate) fn reserve(&mut self, from: u64, count: u64) -> u64 {
        if count == 0 {
            return from;
        }
        for c in from..from + WINDOW as u64 {
            // WINDOW is a power of two: the mask is `c % WINDOW` and keeps the index in bounds.
            let i = (c as usize) & (WINDOW - 1);
            let (tag, used) = &mut self.ring[i];
            if *tag != c {
                *tag = c;
                *used = 0;
            }
            if *used < count {
                *used += 1;
                return c;
            }
        }
        from + WINDOW as u64
    }

    /// Whether no cycle of `from..to` holds a reservation (what a block timed as a whole
    /// needs of the cycles its reservations look at, issue 17).
    #[inline]
    pub(crate) fn free(&self, from: u64, to: u64) -> bool {
        (from..to).all(|c| self.ring[(c as usize) & (WINDOW - 1)].0 != c)
    }

    /// Reserves `used` pipes in cycle `at`, which held none: the state reserving them one by
    /// one leaves.
    #[inline]
    pub(crate) fn fill(&mut self, at: u64, used: u64) {
        self.ring[(at as usize) & (WINDOW - 1)] = (at, used);
    }

    /// The cycles of the window from `base` that hold reservations, relative to `base`, with
    /// the pipes used in each.
    pub(crate) fn reserved_from(&self, base: u64) -> Vec<(u64, u64)> {
        (base..base + WINDOW as u64)
            .filter_map(|c| match self.ring[(c as usize) & (WINDOW - 1)] {
                (tag, used) if tag == c => Some((c - base, used)),
                _ => None,
            })
            .collect()
    }
}

const _: () = assert!(WINDOW.is_power_of_two());
