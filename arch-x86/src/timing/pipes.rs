//! Per-cycle pipe occupancy for one group of identical pipes, kept in a fixed ring so a later
//! instruction can take a pipe in an earlier cycle than a stalled earlier one (out-of-order
//! execution) at O(1) cost per instruction.

/// Cycles the ring remembers; reservations further apart than this forget each other.
const WINDOW: usize = 256;

/// Uses of one pipe group per cycle.
#[derive(Debug, Clone)]
pub(crate) struct Pipes {
    tag: Box<[u64; WINDOW]>,
    used: Box<[u64; WINDOW]>,
}

impl Pipes {
    /// An idle group.
    pub(crate) fn new() -> Pipes {
        Pipes { tag: Box::new([u64::MAX; WINDOW]), used: Box::new([0; WINDOW]) }
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
            let (tag, used) = (&mut self.tag[i], &mut self.used[i]);
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
}

const _: () = assert!(WINDOW.is_power_of_two());
