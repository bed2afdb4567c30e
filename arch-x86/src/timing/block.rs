//! Timing per block (issue 17): a block of register-only instructions is issued once through
//! [`X86Model::issue_rec`] from a canonical state when it is built, and what that did is kept
//! relative to the block's first dispatch cycle ([`BlockTiming`]). At run time, once the first
//! instruction has dispatched at `c0`, a few checks tell whether the live state differs from
//! the canonical one in anything the block can observe; if not, the block's effect is applied
//! in one step (the recorded deltas shifted by `c0`), else its records are issued one by one.
//!
//! What the block observes, and the check that makes the live state equivalent:
//! - the front end: the first instruction opened a new group (then every later dispatch is
//!   fixed relative to it; the pending front-end charge was taken by that real dispatch);
//! - the reorder buffer: the slots the later instructions meet hold retirements no later than
//!   `c0` (the ring holds retirements in program order, so checking the last one suffices);
//! - each live-in register: ready no later than its first reader dispatches (never waited for);
//! - each pipe group used: no reservation yet in the cycles its reservations look at.
//!
//! The latest completion before the block needs no check: the charges of the records that
//! waited and the retirements are made against it at run time.
//!
//! Memory accesses, the rare rules (serialisation, divider, sequencer, locks) and clock reads
//! are not in such blocks (the CPU chooses which blocks get one), so nothing else is read.

use super::{Hold, IssueRec, X86Model};

/// The cycle the canonical issue starts at: far enough from 0 that "ready long ago" is 0.
const BASE: u64 = 1 << 20;
/// Records a block needs to be timed as a whole.
const MIN_LEN: usize = 4;
/// The cycles after `BASE` a block may reserve pipes in (under the pipe ring's window).
const SPAN: u64 = 192;

/// A block's timing relative to its first dispatch cycle `c0` (every cycle field is `c0 +`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockTiming {
    /// Records in the block.
    len: usize,
    /// Registers read before the block writes them, with the first reader's dispatch.
    live_ins: Vec<(u8, u64)>,
    /// Per record that waited and was charged for it: the stall slot, the wait, its completion
    /// and what the latest completion before it was compared with (without the completions
    /// before the block, which the charge takes at run time).
    waits: Vec<(u8, u64, u64, u64)>,
    /// Per pipe group used: the cycles its reservations look at, `from..to` (from the earliest
    /// dispatch of a user to past the latest cycle reserved), which must hold no reservation
    /// yet.
    pipes: Vec<(u8, u64, u64)>,
    /// The cycles the block reserves: group, cycle and the pipes used in it.
    fills: Vec<(u8, u64, u64)>,
    /// Registers written: ready cycle and last writer (address, latency).
    regs: Vec<(u8, u64, (u64, u64))>,
    /// Cycles charged when groups open, by stall slot.
    stalls: Vec<(u8, u64)>,
    /// Groups opened after the first.
    groups: u64,
    /// The retirement after each record (what its reorder-buffer slot gets, unless something
    /// before the block completes later).
    retire: Vec<u64>,
    /// Front end after the block: open group's cycle and use, the earliest next dispatch if the
    /// block held the front end, and the pending charge.
    fe_cycle: u64,
    fe_used: u64,
    fe_min: Option<u64>,
    fe_cause: Option<super::Cause>,
    /// The last record's dispatch and execution, and its front-end rule if it holds only when
    /// taken (a jcc: applied after the block, knowing whether it was).
    last: (u64, u64),
    taken_hold: Option<Hold>,
}

impl X86Model {
    /// The timing of a block of `recs` (register-only, none rare: the caller's choice), or
    /// `None` if it spans too many cycles to be kept.
    pub fn plan_block(&self, recs: &[IssueRec]) -> Option<BlockTiming> {
        // The stack engine's rsp update depends on rsp's live ready cycle: not canonical.
        // Short blocks cost less record by record than through the checks.
        if recs.len() < MIN_LEN || recs.len() >= self.rob.len() || recs.iter().any(|r| r.rare || r.rsp_dst) {
            return None;
        }
        let mut m = X86Model::new(self.params.clone());
        m.fe_min = BASE;
        let mut written = [false; 32];
        let mut live_ins: Vec<(u8, u64)> = Vec::new();
        let mut first_user: Vec<(u8, u64)> = Vec::new();
        let mut waits = Vec::new();
        let mut retire = Vec::with_capacity(recs.len());
        let mut last = (0, 0);
        for r in recs {
            let d = m.dispatch_fast();
            let rel = d - BASE;
            for &k in r.srcs.get(..usize::from(r.nsrc)).unwrap_or(&[]) {
                if !written[usize::from(k) & 31] && !live_ins.iter().any(|&(l, _)| l == k) {
                    live_ins.push((k, rel));
                }
            }
            if r.pipe_count != 0 && !first_user.iter().any(|&(g, _)| g == r.pipe) {
                first_user.push((r.pipe, rel));
            }
            let compared = m.max_complete.max(m.fe_cycle + 1);
            let before = m.stalls;
            let start = m.issue_at(r, d, None, None, false);
            // Its own charge (the only one `issue_at` makes without memory): taken out of the
            // fixed charges, made again at run time against the live latest completion.
            // A charge means it extended the latest completion: that is now its completion.
            if let Some(slot) = (0..before.len()).find(|&k| m.stalls[k] != before[k]) {
                m.stalls[slot] = before[slot];
                waits.push((slot as u8, start - d, m.max_complete - BASE, compared - BASE));
            }
            retire.push(m.last_retire - BASE);
            for &k in r.dsts.get(..usize::from(r.ndst)).unwrap_or(&[]) {
                written[usize::from(k) & 31] = true;
            }
            last = (rel, start - BASE);
        }
        let (mut pipes, mut fills) = (Vec::new(), Vec::new());
        for &(g, from) in &first_user {
            let cycles = m.pipes.get(usize::from(g))?.reserved_from(BASE);
            let to = cycles.last().map_or(from, |&(c, _)| c);
            if to >= SPAN {
                return None;
            }
            pipes.push((g, from, to + 1));
            fills.extend(cycles.iter().map(|&(c, used)| (g, c, used)));
        }
        if m.fe_cycle > BASE + SPAN || m.max_complete > BASE + SPAN {
            return None;
        }
        let regs = (0..32u8)
            .filter(|&k| written[usize::from(k)])
            .map(|k| (k, m.ready[usize::from(k)].saturating_sub(BASE), m.producer[usize::from(k)]))
            .collect();
        let stalls = m.stalls.iter().enumerate().filter(|&(_, &c)| c > 0).map(|(slot, &c)| (slot as u8, c)).collect();
        Some(BlockTiming {
            len: recs.len(),
            live_ins,
            waits,
            pipes,
            fills,
            regs,
            stalls,
            groups: m.groups - 1,
            retire,
            fe_cycle: m.fe_cycle - BASE,
            fe_used: m.fe_used,
            fe_min: (m.fe_min > BASE).then(|| m.fe_min - BASE),
            fe_cause: m.fe_cause,
            last,
            taken_hold: recs.last().and_then(|r| r.hold).filter(|h| h.if_taken),
        })
    }

    /// Issues the records `recs` that ran of a block `t` was planned for (only a jcc, which
    /// ends a block, uses `taken`): in one step when all ran and the live state allows, else
    /// record by record as [`X86Model::issue_rec`] would.
    #[inline]
    pub fn issue_block<'a>(
        &mut self,
        t: &BlockTiming,
        mut recs: impl ExactSizeIterator<Item = &'a IssueRec>,
        taken: bool,
    ) {
        let c0 = self.dispatch_fast();
        if recs.len() == t.len && self.block_ready(t, c0) {
            self.block_outcomes[0] += 1;
            self.apply_block(t, c0, taken);
            return;
        }
        self.block_outcomes[1] += 1;
        if let Some(r) = recs.next() {
            self.issue_at(r, c0, None, None, taken);
        }
        for r in recs {
            self.issue_rec(r, None, None, taken);
        }
    }

    /// How many blocks [`X86Model::issue_block`] applied in one step, and how many it issued
    /// record by record (for the differential tests: both must happen).
    pub fn block_outcomes(&self) -> (u64, u64) {
        (self.block_outcomes[0], self.block_outcomes[1])
    }

    /// Whether the live state is equivalent to the canonical one for `t`, the first record
    /// having dispatched at `c0`.
    #[inline(always)]
    fn block_ready(&self, t: &BlockTiming, c0: u64) -> bool {
        if self.fe_used != 1 {
            return false;
        }
        // The slot the last record meets: `len` is below the ring's size (checked when planned).
        let mut at = self.rob_pos + t.len - 1;
        if at >= self.rob.len() {
            at -= self.rob.len();
        }
        if self.rob.get(at).is_some_and(|&r| r > c0) {
            return false;
        }
        t.live_ins.iter().all(|&(k, d)| self.ready[usize::from(k) & 31] <= c0 + d)
            && t.pipes
                .iter()
                .all(|&(g, from, to)| self.pipes.get(usize::from(g)).is_some_and(|p| p.free(c0 + from, c0 + to)))
    }

    /// Applies `t` shifted to `c0`.
    #[inline(always)]
    fn apply_block(&mut self, t: &BlockTiming, c0: u64, taken: bool) {
        // What completes latest before the block: a record's charge is the smaller of its wait
        // and how far it extends the latest completion, which this may be.
        let before = self.max_complete;
        for &(slot, c) in &t.stalls {
            self.stalls[usize::from(slot) & 31] += c;
        }
        for &(slot, waited, complete, compared) in &t.waits {
            let extends = (c0 + complete).saturating_sub(before.max(c0 + compared));
            self.stalls[usize::from(slot) & 31] += waited.min(extends);
        }
        self.groups += t.groups;
        for &(k, ready, producer) in &t.regs {
            self.ready[usize::from(k) & 31] = c0 + ready;
            self.producer[usize::from(k) & 31] = producer;
        }
        for &(g, rel, used) in &t.fills {
            if let Some(p) = self.pipes.get_mut(usize::from(g)) {
                p.fill(c0 + rel, used);
            }
        }
        // The reorder buffer's slots from `rob_pos` on, wrapping once at most. Each gets
        // `before.max(c0 + r)`: the retirements never decrease, so that is the running maximum
        // from `before`, a scalar loop (the vectorised elementwise one cost twice as much for
        // the ten records of the bench's loop).
        let (n, pos) = (self.rob.len(), self.rob_pos);
        let end = pos + t.len;
        let (head, tail) = t.retire.split_at(t.len.min(n - pos));
        let mut done = before;
        if let Some(slots) = self.rob.get_mut(pos..end.min(n)) {
            for (slot, &r) in slots.iter_mut().zip(head) {
                done = done.max(c0 + r);
                *slot = done;
            }
        }
        if end > n {
            for (slot, &r) in self.rob.iter_mut().zip(tail) {
                done = done.max(c0 + r);
                *slot = done;
            }
        }
        self.rob_pos = if end >= n { end - n } else { end };
        self.seq += t.len as u64;
        self.max_complete = done;
        self.last_retire = done;
        self.fe_cycle = c0 + t.fe_cycle;
        self.fe_used = t.fe_used;
        self.has_group = true;
        if let Some(min) = t.fe_min {
            self.fe_min = c0 + min;
        }
        self.fe_cause = t.fe_cause;
        if let Some(h) = t.taken_hold {
            self.hold_front_end(h, taken, c0 + t.last.0, c0 + t.last.1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TimingClass as T, X86Params, XReg};
    use super::*;

    /// A random register-only record at `addr`.
    fn rec(m: &X86Model, rng: &mut emu_core::rng::Xorshift64, addr: u64, class: T) -> IssueRec {
        let mut reg = || match rng.next_u64() % 18 {
            16 | 17 => XReg::Flags,
            n => XReg::Gpr(n as u8),
        };
        let srcs = [reg(), reg(), reg()];
        let dsts = [reg(), reg()];
        let (ns, nd) = ((addr % 4) as usize, (addr % 3) as usize);
        IssueRec::new(Some(m), addr, class, &srcs[..ns], &dsts[..nd])
    }

    /// Blocks timed as a whole leave exactly the state issuing their records one by one does,
    /// whatever came before (long latencies, busy pipes, a full reorder buffer, pending
    /// front-end holds), and both outcomes happen.
    #[test]
    fn a_block_timed_whole_matches_its_records_one_by_one() {
        let mut rng = emu_core::rng::Xorshift64::new(0xb10c_7173);
        let mut a = X86Model::new(X86Params::zen4());
        let body = [T::Alu, T::Lea, T::Mov, T::MovImm, T::Shift, T::Imul, T::Cmov, T::Setcc, T::Nop, T::Jmp];
        let div = T::Div { bytes: 8, signed: false };
        let noise = [T::Imul, div, div, T::Alu, div, T::Mul];
        let blocks: Vec<Vec<IssueRec>> = (0..40u64)
            .map(|b| {
                let n = 4 + (rng.next_u64() % 12) as usize;
                (0..n as u64)
                    .map(|i| {
                        let class = if i + 1 == n as u64 { T::Jcc } else { body[(rng.next_u64() % 10) as usize] };
                        rec(&a, &mut rng, 0x1000 * b + i, class)
                    })
                    .collect()
            })
            .collect();
        let plans: Vec<BlockTiming> = blocks.iter().map(|b| a.plan_block(b).expect("planned")).collect();
        let mut b = a.clone();
        for step in 0..20_000u64 {
            if rng.next_u64().is_multiple_of(3) {
                let class = noise[(rng.next_u64() % 6) as usize];
                let r = rec(&a, &mut rng, 0x9000 + step % 64, class);
                let taken = rng.next_u64().is_multiple_of(2);
                a.issue_rec(&r, None, None, taken);
                b.issue_rec(&r, None, None, taken);
                continue;
            }
            let k = (rng.next_u64() % blocks.len() as u64) as usize;
            let taken = rng.next_u64().is_multiple_of(2);
            a.issue_block(&plans[k], blocks[k].iter(), taken);
            for r in &blocks[k] {
                b.issue_rec(r, None, None, taken);
            }
            let what = format!("step {step}, block {k}");
            assert_eq!(a.summary(), b.summary(), "{what}");
            assert_eq!((a.ready, a.producer, a.stalls), (b.ready, b.producer, b.stalls), "{what}");
            assert_eq!(
                (a.fe_cycle, a.fe_used, a.has_group, a.fe_min, a.fe_cause),
                (b.fe_cycle, b.fe_used, b.has_group, b.fe_min, b.fe_cause),
                "{what}"
            );
            assert_eq!(
                (a.seq, a.rob_pos, a.max_complete, a.last_retire),
                (b.seq, b.rob_pos, b.max_complete, b.last_retire),
                "{what}"
            );
            assert!(a.rob == b.rob, "{what}: reorder buffer");
            assert_eq!(format!("{:?}", a.pipes), format!("{:?}", b.pipes), "{what}: pipes");
        }
        let (whole, one_by_one) = a.block_outcomes();
        assert!(whole > 100 && one_by_one > 100, "timed whole {whole}, record by record {one_by_one}");
    }
}
