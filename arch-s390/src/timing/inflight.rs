//! The completion cycles of the micro-ops in flight, oldest first: a ring that grows only when
//! more micro-ops are in flight than ever before (a `VecDeque`'s general paths showed in the
//! profile, issue 17).

/// A first-in first-out queue of cycles.
#[derive(Debug, Clone, Default)]
pub(super) struct Inflight {
    ring: Vec<u64>,
    head: usize,
    len: usize,
}

impl Inflight {
    /// Micro-ops in flight.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Appends the completions relative to `t` (one at or before `t` as `t`: it holds back
    /// nothing dispatched from `t` on), oldest first, as runs: the number of runs, then each
    /// run's cycle and length (the completions never decrease, and most micro-ops complete
    /// with others, so this is short).
    pub(super) fn write_from(&self, t: u64, out: &mut Vec<u64>) {
        let at = out.len();
        out.push(0);
        let mask = self.ring.len().wrapping_sub(1);
        let mut runs = 0;
        let mut k = 0;
        while k < self.len {
            let v = self.ring.get((self.head + k) & mask).map_or(0, |&v| v.saturating_sub(t));
            let mut n = 1;
            while k + n < self.len && self.ring.get((self.head + k + n) & mask).map_or(0, |&w| w.saturating_sub(t)) == v
            {
                n += 1;
            }
            out.extend([v, n as u64]);
            runs += 1;
            k += n;
        }
        if let Some(slot) = out.get_mut(at) {
            *slot = runs;
        }
    }

    /// The completions [`Inflight::write_from`] wrote at the start of `words`, from `t` on;
    /// answers the words after them.
    pub(super) fn load<'w>(&mut self, t: u64, words: &'w [u64]) -> &'w [u64] {
        self.clear();
        let Some((&runs, rest)) = words.split_first() else { return words };
        let (these, after) = rest.split_at((2 * runs as usize).min(rest.len()));
        for run in these.chunks_exact(2) {
            if let [v, n] = *run {
                self.push_n(t + v, n);
            }
        }
        after
    }

    /// Forgets every micro-op.
    pub(super) fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }

    /// The oldest micro-op's completion, removed; `None` when nothing is in flight.
    #[inline]
    pub(super) fn pop_front(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        let v = self.ring.get(self.head).copied();
        self.head += 1;
        if self.head == self.ring.len() {
            self.head = 0;
        }
        self.len -= 1;
        v
    }

    /// Removes the oldest micro-ops until at most `keep` are in flight; returns the latest
    /// completion removed (0 when none was). The completions pushed never decrease (each is
    /// the in-order completion so far), so the latest removed is the last.
    #[inline(always)]
    pub(super) fn pop_to(&mut self, keep: usize) -> u64 {
        if self.len <= keep {
            return 0;
        }
        let n = self.len - keep;
        // The ring is a power of two long (`grow`), and not empty while anything is in it.
        let mask = self.ring.len().wrapping_sub(1);
        let last = self.ring.get((self.head + n - 1) & mask).copied().unwrap_or(0);
        self.head = (self.head + n) & mask;
        self.len = keep;
        last
    }

    /// Adds `n` micro-ops completing at `cycle` as the youngest.
    #[inline(always)]
    pub(super) fn push_n(&mut self, cycle: u64, n: u64) {
        let n = usize::try_from(n).unwrap_or(0);
        while self.len + n > self.ring.len() {
            self.grow();
        }
        let mask = self.ring.len().wrapping_sub(1);
        for k in 0..n {
            if let Some(slot) = self.ring.get_mut((self.head + self.len + k) & mask) {
                *slot = cycle;
            }
        }
        self.len += n;
    }

    /// Adds a micro-op completing at `cycle` as the youngest.
    #[inline]
    pub(super) fn push_back(&mut self, cycle: u64) {
        if self.len == self.ring.len() {
            self.grow();
        }
        let mut at = self.head + self.len;
        if at >= self.ring.len() {
            at -= self.ring.len();
        }
        if let Some(slot) = self.ring.get_mut(at) {
            *slot = cycle;
        }
        self.len += 1;
    }

    /// Doubles the ring, keeping the order (oldest at index 0 afterwards).
    fn grow(&mut self) {
        let cap = self.ring.len();
        let new_cap = (cap * 2).max(64);
        let mut ring = Vec::with_capacity(new_cap);
        for k in 0..self.len {
            let at = (self.head + k) % cap.max(1);
            ring.push(self.ring.get(at).copied().unwrap_or(0));
        }
        // A power of two long, so positions wrap with a mask.
        ring.resize(new_cap, 0);
        self.ring = ring;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn behaves_as_a_fifo_across_wraps_and_growth() {
        let (mut ring, mut model) = (Inflight::default(), VecDeque::new());
        let mut seed = 12345u64;
        for step in 0..5000u64 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            if seed >> 62 == 0 || step % 997 == 0 {
                if step % 997 == 0 {
                    ring.clear();
                    model.clear();
                }
                assert_eq!(ring.pop_front(), model.pop_front());
            } else {
                for _ in 0..(seed >> 60) % 4 {
                    ring.push_back(step);
                    model.push_back(step);
                }
            }
            assert_eq!(ring.len(), model.len());
        }
        while let Some(v) = model.pop_front() {
            assert_eq!(ring.pop_front(), Some(v));
        }
        assert_eq!(ring.pop_front(), None);
    }

    #[test]
    fn pop_to_removes_the_oldest_and_answers_the_last_removed() {
        let (mut ring, mut model) = (Inflight::default(), VecDeque::new());
        let mut seed = 777u64;
        let mut cycle = 0u64;
        for _ in 0..5000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            cycle += (seed >> 61) % 3;
            let n = (seed >> 40) % 7;
            ring.push_n(cycle, n);
            model.extend((0..n).map(|_| cycle));
            let keep = ((seed >> 20) % 80) as usize;
            let mut want = 0;
            while model.len() > keep {
                want = model.pop_front().unwrap_or(0).max(want);
            }
            assert_eq!(ring.pop_to(keep), want);
            assert_eq!(ring.len(), model.len());
        }
    }

    #[test]
    fn written_runs_load_back_as_the_same_queue_from_t() {
        let mut seed = 99u64;
        let mut cycle = 0u64;
        let mut ring = Inflight::default();
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            cycle += (seed >> 61) % 3;
            ring.push_n(cycle, (seed >> 40) % 4);
            ring.pop_to(((seed >> 20) % 70) as usize);
            let t = cycle.saturating_sub((seed >> 10) % 5);
            let mut words = vec![7];
            ring.write_from(t, &mut words);
            words.push(42);
            let mut back = Inflight::default();
            assert_eq!(back.load(t, &words[1..]), &[42]);
            assert_eq!(back.len(), ring.len());
            let (mut a, mut b) = (ring.clone(), back);
            while let Some(v) = a.pop_front() {
                assert_eq!(b.pop_front(), Some(v.max(t)));
            }
        }
    }
}
