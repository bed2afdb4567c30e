//! Timing per block (issue 17): a block's issue records run through the model as one step.
//!
//! The model's behaviour does not change when every cycle in its state moves by the same
//! amount, and a block reads only part of that state: the open group (its cycle `t`, slots
//! used, groups in the cycle), the front end's ready cycle, the in-order completion, the
//! ready cycles of the registers (and CC) it reads before writing them, the in-flight
//! completions its window pops return, and the reservation cycles its units are looked for
//! in. A cycle at or before `t` acts as `t` everywhere a block reads it (everything a block
//! does happens at or after its first group's cycle). So the first run of a block with a
//! given entry state (read relative to `t`, cycles before `t` counted as `t`) goes through
//! the per-instruction issue while noting what it changed, relative to `t`; a later entry in
//! the same relative state (one check of those values) applies the same changes moved to its
//! own `t`, stall charges included. A block remembers a few such entry states; one whose
//! entries keep differing (no steady state) goes back to the per-instruction issue.
//!
//! The per-instruction issue stays the oracle: `tests/block_diff.rs` holds the block engine,
//! which times its blocks here, to the reference steps' cycles and stall tables.

use super::plan::{IssuePlan, Probe};
use super::reserve::KINDS;
use super::{S390Model, CAUSES, CC};

/// Entry states one block remembers.
const WAYS: usize = 4;
/// Misses after which a block that mostly misses stops being timed per block.
const GIVE_UP: u32 = 16;
/// The most reservation counts an entry state keys on.
const MAX_PROBES: usize = 256;
/// Stall counters: the [`CAUSES`] ones, then the operand ones.
const STALL_SLOTS: usize = CAUSES.len() + CC + 1;

/// A block's static issue facts and the entry states seen so far with their outcomes.
#[derive(Debug, Clone)]
pub(crate) struct BlockTiming {
    /// The block's issue records (none of them costed per run).
    plans: Vec<IssuePlan>,
    /// Registers the block reads before it writes them.
    live: Vec<usize>,
    /// Whether it reads the CC before writing it.
    live_cc: bool,
    /// Registers it writes, each with its last writer (address, latency).
    writes: Vec<(usize, (u64, u64))>,
    /// The last writer of the CC, if it writes it.
    cc_write: Option<(u64, u64)>,
    entries: Vec<Entry>,
    /// The entry a miss replaces next.
    next: usize,
    hits: u32,
    misses: u32,
    /// Too many misses: the block is timed per instruction.
    off: bool,
}

/// One entry state (relative to the open group's cycle `t`) and what the block did from it.
#[derive(Debug, Clone, Default)]
struct Entry {
    /// The last instruction branched.
    taken: bool,
    group_used: Option<u64>,
    groups_in_cycle: u64,
    /// The front end's ready cycle, `u64::MAX` when before `t` (it stays unless written).
    fetch: u64,
    complete: u64,
    inflight: usize,
    /// Ready cycles of [`BlockTiming::live`].
    live: Vec<u64>,
    cc: u64,
    /// In-flight completions a pop returns: place after the oldest, cycle.
    pops: Vec<(usize, u64)>,
    /// Reservation counts the block's unit searches read: cycle, kind, units held.
    probes: Vec<(u64, usize, u64)>,
    out: Out,
}

/// What a block did from an entry state, cycles relative to the entry's `t`.
#[derive(Debug, Clone, Default)]
struct Out {
    group_cycle: u64,
    group_used: Option<u64>,
    groups_in_cycle: u64,
    /// The front end's ready cycle, when the block set it.
    fetch: Option<u64>,
    complete: u64,
    /// Ready cycles of [`BlockTiming::writes`].
    regs: Vec<u64>,
    cc: u64,
    /// In-flight completions of the entry state still in flight.
    keep: usize,
    /// Completions pushed that are still in flight: cycle, micro-ops.
    pushes: Vec<(u64, u64)>,
    /// Units held from the last group's cycle on, per cycle.
    holds: Vec<(u64, [u64; KINDS])>,
    /// Stall counters charged ([`STALL_SLOTS`] index, cycles).
    stalls: Vec<(usize, u64)>,
    groups: u64,
}

impl BlockTiming {
    /// The timing of a block issuing `plans` in order; `None` when one of them is costed per
    /// run (the SS classes other than a block's MVC, whose length is static).
    pub(crate) fn new(plans: Vec<IssuePlan>) -> Option<BlockTiming> {
        if plans.is_empty() || plans.iter().any(|p| p.dynamic) {
            return None;
        }
        let (mut written, mut live, mut live_cc, mut cc_written) = (0u32, 0u32, false, false);
        let mut last_writer = [(0u64, 0u64); 32];
        let mut cc_write = None;
        for p in &plans {
            let d = &p.info.deps;
            live |= (d.addr | d.data) & !written;
            live_cc |= d.reads_cc && !cc_written;
            written |= d.writes;
            let mut w = d.writes;
            while w != 0 {
                last_writer[(w.trailing_zeros() & 31) as usize] = (p.info.addr, p.cost.latency);
                w &= w - 1;
            }
            if d.writes_cc {
                cc_written = true;
                cc_write = Some((p.info.addr, p.cost.latency));
            }
        }
        let regs = |set: u32| (0..32usize).filter(move |r| set & (1 << r) != 0);
        Some(BlockTiming {
            live: regs(live).collect(),
            live_cc,
            writes: regs(written).map(|r| (r, last_writer[r])).collect(),
            cc_write,
            plans,
            entries: Vec::new(),
            next: 0,
            hits: 0,
            misses: 0,
            off: false,
        })
    }

    /// Instructions in the block.
    pub(crate) fn len(&self) -> usize {
        self.plans.len()
    }

    /// Entry states seen that were applied in one step, and ones that were not.
    pub(crate) fn hits_misses(&self) -> (u32, u32) {
        (self.hits, self.misses)
    }
}

/// Notes the reservation counts a run reads and the units it holds.
struct Recorder {
    /// Cycle and kind of every count read (a superset: each unit's kind over the span its
    /// search covered), while there are at most [`MAX_PROBES`].
    probes: Vec<(u64, usize)>,
    holds: Vec<(u64, [u64; KINDS])>,
}

impl Probe for Recorder {
    fn took(&mut self, from: u64, start: u64, needs: &[(usize, u64, u64)]) {
        let Some(span) = needs.iter().map(|&(_, busy, _)| busy).max() else { return };
        let end = start.saturating_add(span.max(1));
        for &(k, _, _) in needs {
            for c in from..end {
                if self.probes.len() > MAX_PROBES {
                    break;
                }
                if !self.probes.contains(&(c, k)) {
                    self.probes.push((c, k));
                }
            }
        }
        for &(k, busy, _) in needs {
            for c in start..start.saturating_add(busy) {
                let at = match self.holds.iter().position(|(h, _)| *h == c) {
                    Some(at) => at,
                    None => {
                        self.holds.push((c, [0; KINDS]));
                        self.holds.len() - 1
                    }
                };
                if let Some(n) = self.holds.get_mut(at).and_then(|(_, u)| u.get_mut(k)) {
                    *n += 1;
                }
            }
        }
    }
}

impl S390Model {
    /// Issues the first `issued` instructions of the block `bt` times (`taken`: the last of
    /// them branched), exactly as [`S390Model::issue_untimed`] on each would: in one step
    /// when the whole block issues from an entry state seen before.
    pub(crate) fn issue_block(&mut self, bt: &mut BlockTiming, issued: usize, taken: bool) {
        let n = bt.plans.len();
        if issued < n || bt.off {
            let plans = bt.plans.get(..issued.min(n)).unwrap_or_default();
            for (k, p) in plans.iter().enumerate() {
                self.issue_untimed(p, taken && k + 1 == plans.len());
            }
            return;
        }
        let t = self.group_cycle;
        if let Some(k) =
            (0..bt.entries.len()).find(|&k| bt.entries.get(k).is_some_and(|e| self.matches(bt, e, t, taken)))
        {
            bt.hits = bt.hits.saturating_add(1);
            if let Some(e) = bt.entries.get(k) {
                self.apply(bt, &e.out, t);
            }
            return;
        }
        bt.misses = bt.misses.saturating_add(1);
        if bt.misses >= GIVE_UP && bt.misses > bt.hits.saturating_mul(4) {
            bt.off = true;
            bt.entries = Vec::new();
        }
        if bt.off {
            for (k, p) in bt.plans.iter().enumerate() {
                self.issue_untimed(p, taken && k + 1 == n);
            }
            return;
        }
        self.record(bt, taken);
    }

    /// A cycle relative to `t`, cycles before it counted as `t`.
    #[inline(always)]
    fn rel(v: u64, t: u64) -> u64 {
        v.saturating_sub(t)
    }

    /// The front end's ready cycle relative to `t` ([`Entry::fetch`]).
    #[inline(always)]
    fn rel_fetch(&self, t: u64) -> u64 {
        self.fetch_ready.checked_sub(t).unwrap_or(u64::MAX)
    }

    /// Whether the model is in the entry state `e` relative to `t`.
    #[inline]
    fn matches(&self, bt: &BlockTiming, e: &Entry, t: u64, taken: bool) -> bool {
        if e.taken != taken
            || e.group_used != self.group_used
            || e.groups_in_cycle != self.groups_in_cycle
            || e.inflight != self.inflight.len()
            || e.fetch != self.rel_fetch(t)
            || e.complete != Self::rel(self.complete, t)
            || (bt.live_cc && e.cc != Self::rel(self.cc_ready, t))
        {
            return false;
        }
        bt.live.iter().zip(&e.live).all(|(&r, &v)| Self::rel(self.reg_ready[r & 31], t) == v)
            && e.pops.iter().all(|&(k, v)| Self::rel(self.inflight.at(k), t) == v)
            && e.probes.iter().all(|&(c, k, n)| self.units.used_at(t + c, k) == n)
    }

    /// Applies `o`, recorded from an entry state this one matches, at this entry's `t`.
    #[inline]
    fn apply(&mut self, bt: &BlockTiming, o: &Out, t: u64) {
        self.group_cycle = t + o.group_cycle;
        self.group_used = o.group_used;
        self.groups_in_cycle = o.groups_in_cycle;
        if let Some(f) = o.fetch {
            self.fetch_ready = t + f;
        }
        self.complete = t + o.complete;
        for (&(r, producer), &v) in bt.writes.iter().zip(&o.regs) {
            self.reg_ready[r & 31] = t + v;
            self.reg_producer[r & 31] = producer;
        }
        if let Some(producer) = bt.cc_write {
            self.cc_ready = t + o.cc;
            self.cc_producer = producer;
        }
        self.inflight.pop_to(o.keep);
        for &(v, n) in &o.pushes {
            self.inflight.push_n(t + v, n);
        }
        self.units.forget_before(self.group_cycle);
        for &(c, u) in &o.holds {
            self.units.add(t + c, u);
        }
        for &(k, cycles) in &o.stalls {
            let slot = match k.checked_sub(CAUSES.len()) {
                None => self.stalls.get_mut(k),
                Some(r) => self.operand_stalls.get_mut(r),
            };
            if let Some((charged, total)) = slot {
                *charged = true;
                *total += cycles;
            }
        }
        self.summary.instructions += bt.plans.len() as u64;
        self.summary.groups += o.groups;
    }

    /// The stall counters, [`STALL_SLOTS`] long.
    fn stall_counters(&self) -> [(bool, u64); STALL_SLOTS] {
        let mut all = [(false, 0); STALL_SLOTS];
        for (slot, v) in all.iter_mut().zip(self.stalls.iter().chain(&self.operand_stalls)) {
            *slot = *v;
        }
        all
    }

    /// Issues the block per instruction from the entry state at `t`, and remembers that state
    /// with what the block did from it.
    fn record(&mut self, bt: &mut BlockTiming, taken: bool) {
        let t = self.group_cycle;
        let mut e = if bt.entries.len() < WAYS {
            Entry::default()
        } else {
            let k = bt.next % WAYS;
            bt.next = (k + 1) % WAYS;
            bt.entries.swap_remove(k)
        };
        e.taken = taken;
        e.group_used = self.group_used;
        e.groups_in_cycle = self.groups_in_cycle;
        e.fetch = self.rel_fetch(t);
        e.complete = Self::rel(self.complete, t);
        e.inflight = self.inflight.len();
        e.live.clear();
        e.live.extend(bt.live.iter().map(|&r| Self::rel(self.reg_ready[r & 31], t)));
        e.cc = Self::rel(self.cc_ready, t);
        // The pops: each instruction's window pop returns its last completion removed.
        e.pops.clear();
        let (mut len, mut popped) = (e.inflight, 0usize);
        for p in &bt.plans {
            if len > p.keep {
                let last = popped + (len - p.keep) - 1;
                if last < e.inflight {
                    e.pops.push((last, Self::rel(self.inflight.at(last), t)));
                }
                popped += len - p.keep;
                len = p.keep;
            }
            len += usize::try_from(p.uops).unwrap_or(usize::MAX);
        }
        let mut before = std::mem::take(&mut self.memo_units);
        before.clone_from(&self.units);
        let stalls = self.stall_counters();
        let (groups, fetch_before) = (self.summary.groups, self.fetch_ready);
        let mut rec = Recorder { probes: Vec::new(), holds: std::mem::take(&mut e.out.holds) };
        rec.holds.clear();
        let n = bt.plans.len();
        let mut pushed = 0u64;
        for (k, p) in bt.plans.iter().enumerate() {
            self.issue_probed(p, taken && k + 1 == n, &mut rec);
            pushed += p.uops;
        }
        e.probes.clear();
        e.probes.extend(rec.probes.iter().map(|&(c, k)| (c - t, k, before.used_at(c, k))));
        self.memo_units = before;
        // What the block did, relative to `t`.
        let o = &mut e.out;
        o.group_cycle = self.group_cycle - t;
        o.group_used = self.group_used;
        o.groups_in_cycle = self.groups_in_cycle;
        o.fetch = (fetch_before >= t || self.fetch_ready != fetch_before).then(|| self.fetch_ready - t);
        o.complete = self.complete - t;
        o.regs.clear();
        o.regs.extend(bt.writes.iter().map(|&(r, _)| self.reg_ready[r & 31] - t));
        o.cc = Self::rel(self.cc_ready, t);
        let in_flight = self.inflight.len();
        let fresh = in_flight.min(usize::try_from(pushed).unwrap_or(usize::MAX));
        o.keep = in_flight - fresh;
        o.pushes.clear();
        for k in o.keep..in_flight {
            let v = self.inflight.at(k) - t;
            match o.pushes.last_mut() {
                Some((last, count)) if *last == v => *count += 1,
                _ => o.pushes.push((v, 1)),
            }
        }
        let floor = self.group_cycle;
        o.holds = rec.holds;
        o.holds.retain(|&(c, _)| c >= floor);
        for h in &mut o.holds {
            h.0 -= t;
        }
        o.stalls.clear();
        for (k, (now, was)) in self.stall_counters().iter().zip(&stalls).enumerate() {
            if now != was {
                o.stalls.push((k, now.1 - was.1));
            }
        }
        o.groups = self.summary.groups - groups;
        // Searches too long to check cheaply are not worth keeping.
        if rec.probes.len() <= MAX_PROBES {
            bt.entries.push(e);
        }
    }
}
