//! Units in use per cycle, by kind (FXU, LSU, branch, millicode): an instruction that waits
//! for its operands does not hold a unit while it waits, so a younger one can use it earlier.
//!
//! Cycles are kept densely from `base` on in a ring (a cycle past the end holds nothing):
//! every query is at or after the open group's cycle, which never moves back, so the cycles
//! before it are dropped as the group moves on and a lookup is a mask and an index (issue 17:
//! the `VecDeque` this replaces showed in the profile with its general paths).

/// Unit kinds the model tells apart.
pub(super) const KINDS: usize = 4;

/// The reservation table.
#[derive(Debug, Clone, Default)]
pub(super) struct Reservations {
    /// The cycle of the slot at `head`.
    base: u64,
    head: usize,
    /// Cycles held from `base` on; every slot outside them is all zeros.
    len: usize,
    /// A power of two long (or empty).
    ring: Vec<[u64; KINDS]>,
}

impl Reservations {
    /// The slot of `cycle`, when it lies in the held span.
    #[inline(always)]
    fn slot(&self, cycle: u64) -> Option<usize> {
        let d = cycle.checked_sub(self.base)?;
        if d >= self.len as u64 {
            return None;
        }
        Some((self.head + d as usize) & (self.ring.len() - 1))
    }

    /// Units of kind `k` held in `cycle`.
    #[inline(always)]
    pub(super) fn used_at(&self, cycle: u64, k: usize) -> u64 {
        match self.slot(cycle) {
            Some(at) => self.ring.get(at).and_then(|c| c.get(k)).copied().unwrap_or(0),
            None => 0,
        }
    }

    /// The first cycle at or after `from` when every unit of `units` (kind index, cycles held,
    /// capacity) is free for its cycles.
    #[inline]
    pub(super) fn earliest(&self, from: u64, units: &[(usize, u64, u64)]) -> u64 {
        let mut s = from;
        // A unit full at cycle `c` of the span from `s` is full in the span of every start up
        // to `c`, so the next start worth probing is `c + 1` (the last such `c`). The start
        // only grows and only held cycles stop it, so this ends.
        'probe: loop {
            for &(k, busy, cap) in units {
                if busy == 1 {
                    if self.used_at(s, k) >= cap {
                        s = s.saturating_add(1);
                        continue 'probe;
                    }
                    continue;
                }
                let mut c = s.saturating_add(busy);
                while c > s {
                    c -= 1;
                    if self.used_at(c, k) >= cap {
                        s = c.saturating_add(1);
                        continue 'probe;
                    }
                }
            }
            return s;
        }
    }

    /// [`Reservations::earliest`] and [`Reservations::hold`] of every unit of `units` at the
    /// cycle found, which it returns; one probe per cycle when every unit is held for one cycle
    /// (most instructions).
    #[inline(always)]
    pub(super) fn take(&mut self, from: u64, units: &[(usize, u64, u64)]) -> u64 {
        if !units.iter().all(|&(_, busy, _)| busy == 1) || from < self.base {
            let start = self.earliest(from, units);
            for &(k, busy, _) in units {
                self.hold(start, k, busy);
            }
            return start;
        }
        let mut s = from;
        loop {
            let counts = self.slot(s).and_then(|at| self.ring.get(at)).copied().unwrap_or([0; KINDS]);
            if units.iter().all(|&(k, _, cap)| counts.get(k).is_some_and(|n| *n < cap)) {
                break;
            }
            s = s.saturating_add(1);
        }
        let Ok(d) = usize::try_from(s - self.base) else { return s };
        if d >= self.ring.len() {
            self.grow(d + 1);
        }
        if d >= self.len {
            self.len = d + 1;
        }
        let at = (self.head + d) & (self.ring.len() - 1);
        if let Some(slot) = self.ring.get_mut(at) {
            for &(k, _, _) in units {
                if let Some(n) = slot.get_mut(k) {
                    *n += 1;
                }
            }
        }
        s
    }

    /// Holds a unit of kind `k` for `busy` cycles from `start`.
    #[inline]
    pub(super) fn hold(&mut self, start: u64, k: usize, busy: u64) {
        // `forget_before` keeps `base` at or before the open group, so this never runs; it
        // keeps an out-of-order reservation from being lost if it ever did.
        if start < self.base {
            self.extend_front(start);
        }
        for c in start..start.saturating_add(busy) {
            let Some(at) = self.kept_slot(c) else { continue };
            if let Some(n) = self.ring.get_mut(at).and_then(|u| u.get_mut(k)) {
                *n += 1;
            }
        }
    }

    /// The ring index of `cycle` (at or after the first cycle kept), the ring grown and the
    /// kept length extended to hold it.
    #[inline(always)]
    fn kept_slot(&mut self, cycle: u64) -> Option<usize> {
        let d = usize::try_from(cycle - self.base).ok()?;
        if d >= self.ring.len() {
            self.grow(d + 1);
        }
        if d >= self.len {
            self.len = d + 1;
        }
        Some((self.head + d) & (self.ring.len() - 1))
    }

    /// Forgets the cycles before `cycle` (nothing can issue there any more).
    #[inline]
    pub(super) fn forget_before(&mut self, cycle: u64) {
        if self.base >= cycle {
            return;
        }
        let drop = usize::try_from(cycle - self.base).unwrap_or(usize::MAX).min(self.len);
        let mask = self.ring.len().wrapping_sub(1);
        for _ in 0..drop {
            if let Some(s) = self.ring.get_mut(self.head) {
                *s = [0; KINDS];
            }
            self.head = (self.head + 1) & mask;
        }
        self.base += drop as u64;
        self.len -= drop;
        if self.len == 0 {
            self.base = self.base.max(cycle);
        }
    }

    /// Appends the held counts from `t` on (the cycles before it are never read again), as
    /// their number of cycles then four counts per cycle, trailing empty cycles left out: two
    /// tables that answer the same from `t` on write the same words.
    pub(super) fn write_from(&self, t: u64, out: &mut Vec<u64>) {
        let end = self.base + self.len as u64;
        let mut last = t;
        for c in t..end {
            if (0..KINDS).any(|k| self.used_at(c, k) != 0) {
                last = c + 1;
            }
        }
        out.push(last - t);
        for c in t..last {
            out.extend((0..KINDS).map(|k| self.used_at(c, k)));
        }
    }

    /// The table [`Reservations::write_from`] wrote `words` of, from cycle `t` on.
    pub(super) fn load(&mut self, t: u64, words: &[u64]) {
        let mask = self.ring.len().wrapping_sub(1);
        for d in 0..self.len {
            if let Some(s) = self.ring.get_mut((self.head + d) & mask) {
                *s = [0; KINDS];
            }
        }
        let cycles = words.len() / KINDS;
        if self.ring.len() < cycles {
            self.ring = vec![[0; KINDS]; cycles.max(64).next_power_of_two()];
        }
        for (slot, counts) in self.ring.iter_mut().zip(words.chunks_exact(KINDS)) {
            for (n, &v) in slot.iter_mut().zip(counts) {
                *n = v;
            }
        }
        (self.base, self.head, self.len) = (t, 0, cycles);
    }

    /// The held slots in cycle order.
    fn in_order(&self) -> Vec<[u64; KINDS]> {
        let mask = self.ring.len().wrapping_sub(1);
        (0..self.len).map(|d| self.ring.get((self.head + d) & mask).copied().unwrap_or([0; KINDS])).collect()
    }

    /// Rebuilds the ring with room for `at_least` cycles from `base`.
    fn grow(&mut self, at_least: usize) {
        let mut ring = self.in_order();
        let cap = at_least.max(64).next_power_of_two();
        ring.resize(cap, [0; KINDS]);
        self.ring = ring;
        self.head = 0;
    }

    /// Moves `base` back to `start`, the cycles in between holding nothing.
    fn extend_front(&mut self, start: u64) {
        let Ok(extra) = usize::try_from(self.base - start) else { return };
        let mut ring = vec![[0; KINDS]; extra];
        ring.extend(self.in_order());
        self.len = ring.len();
        let cap = self.len.max(64).next_power_of_two();
        ring.resize(cap, [0; KINDS]);
        self.ring = ring;
        self.head = 0;
        self.base = start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The table against a plain map of cycle to counts, on random holds and forgets.
    #[test]
    fn agrees_with_a_map_of_cycles() {
        let mut r = Reservations::default();
        let mut model: BTreeMap<u64, [u64; KINDS]> = BTreeMap::new();
        let mut floor = 0u64;
        let mut seed = 0x5eed_u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = seed >> 33;
            match pick % 5 {
                0 => {
                    floor += pick % 4;
                    r.forget_before(floor);
                    model.retain(|c, _| *c >= floor);
                }
                1 => {
                    // A start before the floor (the path `hold` keeps for safety).
                    let start = floor.saturating_sub(pick % 3);
                    let (k, busy) = ((pick >> 8) as usize % KINDS, 1 + (pick >> 12) % 40);
                    r.hold(start, k, busy);
                    for c in start..start + busy {
                        model.entry(c).or_default()[k] += 1;
                    }
                }
                _ => {
                    let start = floor + (pick >> 4) % 300;
                    let (k, busy) = ((pick >> 8) as usize % KINDS, 1 + (pick >> 12) % 6);
                    r.hold(start, k, busy);
                    for c in start..start + busy {
                        model.entry(c).or_default()[k] += 1;
                    }
                }
            }
            for c in floor.saturating_sub(2)..floor + 320 {
                for k in 0..KINDS {
                    let want = model.get(&c).map_or(0, |u| u[k]);
                    assert_eq!(r.used_at(c, k), want, "cycle {c} kind {k}");
                }
            }
            let units = [(0usize, 2u64, 2u64), (1, 1, 1)];
            let from = floor + pick % 50;
            let mut s = from;
            while !units.iter().all(|&(k, b, cap)| (s..s + b).all(|c| model.get(&c).map_or(0, |u| u[k]) < cap)) {
                s += 1;
            }
            assert_eq!(r.earliest(from, &units), s);
            // `take` finds the same cycle and holds there as `earliest` + `hold` would.
            let ones =
                [((pick >> 3) as usize % KINDS, 1u64, 1 + (pick >> 5) % 3), ((pick >> 7) as usize % KINDS, 1, 2)];
            let ones = &ones[..1 + (pick % 2) as usize];
            let mut twin = r.clone();
            let want = twin.earliest(from, ones);
            for &(k, busy, _) in ones {
                twin.hold(want, k, busy);
            }
            assert_eq!(r.take(from, ones), want);
            for &(k, _, _) in ones {
                model.entry(want).or_default()[k] += 1;
            }
            for c in floor..floor + 320 {
                for k in 0..KINDS {
                    assert_eq!(r.used_at(c, k), twin.used_at(c, k));
                }
            }
        }
    }

    /// What `write_from` writes loads back as a table that answers the same from `t` on.
    #[test]
    fn written_counts_load_back_the_same_from_t() {
        let mut r = Reservations::default();
        let mut seed = 0xfeed_u64;
        let mut floor = 0u64;
        for _ in 0..3000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = seed >> 33;
            floor += pick % 3;
            r.forget_before(floor.saturating_sub(pick % 4));
            r.hold(floor + (pick >> 4) % 40, (pick >> 8) as usize % KINDS, 1 + (pick >> 12) % 5);
            let mut words = Vec::new();
            r.write_from(floor, &mut words);
            let mut back = Reservations::default();
            back.hold(3, 1, 2);
            back.load(floor, words.get(1..).unwrap_or_default());
            for c in floor..floor + 80 {
                for k in 0..KINDS {
                    assert_eq!(back.used_at(c, k), r.used_at(c, k), "cycle {c} kind {k}");
                }
            }
        }
    }
}
