//! Timing per block (issue 17): a block whose issue records are all static, issued whole with
//! no timeline, goes from one pipeline state to the next in one step once it has been seen
//! going from that state.
//!
//! The model's pipeline state (group, front end, completion, operand ready cycles, the
//! micro-ops in flight, the unit reservations) is read relative to the open
//! group's cycle `t`, a cycle at or before `t` counted as `t`: everything issued from there
//! on happens at or after `t`, so such a cycle acts as `t` everywhere it is read, and the
//! model runs the same from two states equal relative to their `t`s, shifted by the
//! difference. The model interns these relative states ([`States`]); a block remembers, for a
//! few (state, last branch taken) pairs, the state its whole issue led to, how far `t` moved
//! and what it charged (the operand producers, named only on a timeline, are not part of the
//! states: a block sets its own). A later run from a remembered state does not touch the pipeline: the
//! model only notes which interned state it is in and at which `t` ([`Known`]), and the
//! pipeline fields are written from the interned state when anything else reads or issues
//! ([`S390Model::settle`]). A loop whose blocks all repeat their states runs with no pipeline
//! work at all; a block whose entries keep differing goes back to the per-instruction issue.
//!
//! The per-instruction issue stays the oracle: `tests/block_diff.rs` holds the block engine,
//! which times its blocks here, to the reference steps' cycles and stall tables.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::plan::IssuePlan;
use super::{S390Model, CAUSES, CC};

/// Transitions one block remembers, in as many slots: a state (with the last branch) has two
/// slots side by side ([`slots`]), so a run from a remembered state finds it in one or two
/// looks.
const WAYS: usize = 32;
/// Misses after which a block that mostly misses stops being timed per block.
const GIVE_UP: u32 = 16;
/// The most states a model interns (beyond them, a block from a new state is timed per
/// instruction).
const MAX_STATES: usize = 1 << 12;
/// Stall counters: the [`CAUSES`] ones, then the operand ones.
const STALL_SLOTS: usize = CAUSES.len() + CC + 1;

/// The words of an interned state before the in-flight completions: group used, groups in
/// the cycle, front end, completion, CC ready, the 32 ready cycles.
const FIXED: usize = 5 + 32;

/// A block's static issue facts and the transitions seen so far.
#[derive(Debug, Clone)]
pub(crate) struct BlockTiming {
    /// The block's issue records (none of them costed per run).
    plans: Vec<IssuePlan>,
    /// Bit `k`: record `k` is an unconditional branch the block goes on through (it issues
    /// taken wherever it stands).
    through: u64,
    /// The registers it writes, each with its last writer (address, latency): the producers
    /// are not part of the interned states (only a timeline names them), so a run from a
    /// remembered state sets them.
    writes: Vec<(usize, (u64, u64))>,
    /// The last writer of the CC, if it writes it.
    cc_write: Option<(u64, u64)>,
    /// [`WAYS`] slots once the block has run whole ([`slot`]).
    trans: Vec<Trans>,
    hits: u32,
    misses: u32,
    /// Too many misses: the block is timed per instruction.
    off: bool,
}

/// A whole run of a block from an interned state.
#[derive(Debug, Clone)]
struct Trans {
    from: u32,
    /// The last instruction branched.
    taken: bool,
    to: u32,
    /// How far the open group's cycle moved.
    dt: u64,
    groups: u64,
    /// Stall counters charged ([`STALL_SLOTS`] index, cycles).
    stalls: Vec<(usize, u64)>,
}

impl BlockTiming {
    /// The timing of a block issuing `plans` in order; `None` when one of them is costed per
    /// run (the SS classes other than a block's MVC, whose length is static).
    pub(crate) fn new(plans: Vec<IssuePlan>, through: u64) -> Option<BlockTiming> {
        if plans.is_empty() || plans.iter().any(|p| p.dynamic) {
            return None;
        }
        let mut last_writer = [None; 32];
        let mut cc_write = None;
        for p in &plans {
            let mut w = p.info.deps.writes;
            while w != 0 {
                if let Some(slot) = last_writer.get_mut(w.trailing_zeros() as usize) {
                    *slot = Some((p.info.addr, p.cost.latency));
                }
                w &= w - 1;
            }
            if p.info.deps.writes_cc {
                cc_write = Some((p.info.addr, p.cost.latency));
            }
        }
        let writes = last_writer.iter().enumerate().filter_map(|(r, w)| w.map(|w| (r, w))).collect();
        Some(BlockTiming { plans, through, writes, cc_write, trans: Vec::new(), hits: 0, misses: 0, off: false })
    }

    /// Instructions in the block.
    pub(crate) fn len(&self) -> usize {
        self.plans.len()
    }

    /// Whether record `k` issues as a taken branch (`last`: it ended the run with a jump).
    #[inline(always)]
    fn taken_at(&self, k: usize, last: bool) -> bool {
        last || (self.through >> (k & 63)) & 1 != 0
    }

    /// Block runs timed in one step, and ones timed per instruction.
    pub(crate) fn hits_misses(&self) -> (u32, u32) {
        (self.hits, self.misses)
    }
}

/// Pipeline states relative to their open group's cycle, numbered in the order first seen.
#[derive(Debug, Clone, Default)]
pub(super) struct States {
    list: Vec<Box<[u64]>>,
    ids: HashMap<Box<[u64]>, u32, BuildHasherDefault<WordHash>>,
    /// The state being read (kept to reuse its allocation).
    scratch: Vec<u64>,
}

/// The model's pipeline is interned state `id` at open group cycle `t`; `stale`: its fields
/// have not been written from it yet.
#[derive(Debug, Clone, Copy)]
pub(super) struct Known {
    id: u32,
    t: u64,
    stale: bool,
}

/// A multiply-rotate hash over the state's words (the default hasher costs more than the
/// comparison it guards).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct WordHash(u64);

impl Hasher for WordHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // A state's words arrive as their bytes, eight at a time.
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.write_u64(w.iter().rev().fold(0, |v, &b| (v << 8) | u64::from(b)));
        }
        for &b in words.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// The two slots of the transition from state `from` with the last branch `taken`.
#[inline(always)]
fn slots(from: u32, taken: bool) -> (usize, usize) {
    let a = (2 * from as usize + usize::from(taken)).wrapping_mul(0x9e37_79b9) % WAYS;
    (a, a ^ 1)
}

impl S390Model {
    /// Issues the first `issued` instructions of the block `bt` times (`taken`: the last of
    /// them branched), exactly as [`S390Model::issue_untimed`] on each would: in one step
    /// when the whole block issues from a state it was seen issuing from.
    #[inline]
    pub(crate) fn issue_block(&mut self, bt: &mut BlockTiming, issued: usize, taken: bool) {
        if issued == bt.plans.len() && !bt.off && self.known.is_some_and(|k| self.remembered(bt, k, taken)) {
            return;
        }
        self.issue_block_slow(bt, issued, taken);
    }

    /// Takes the transition `bt` remembers from the known state `k` with the last branch
    /// `taken`, if it remembers one; answers whether it did.
    #[inline(always)]
    fn remembered(&mut self, bt: &mut BlockTiming, k: Known, taken: bool) -> bool {
        let same = |tr: &&Trans| tr.from == k.id && tr.taken == taken;
        let (a, b) = slots(k.id, taken);
        let Some(tr) = bt.trans.get(a).filter(same).or_else(|| bt.trans.get(b).filter(same)) else {
            return false;
        };
        self.known = Some(Known { id: tr.to, t: k.t + tr.dt, stale: true });
        self.summary.instructions += bt.plans.len() as u64;
        self.summary.groups += tr.groups;
        for &(r, producer) in &bt.writes {
            if let Some(slot) = self.reg_producer.get_mut(r) {
                *slot = producer;
            }
        }
        if let Some(producer) = bt.cc_write {
            self.cc_producer = producer;
        }
        for &(s, cycles) in &tr.stalls {
            let slot = match s.checked_sub(CAUSES.len()) {
                None => self.stalls.get_mut(s),
                Some(r) => self.operand_stalls.get_mut(r),
            };
            if let Some((charged, total)) = slot {
                *charged = true;
                *total += cycles;
            }
        }
        bt.hits = bt.hits.saturating_add(1);
        true
    }

    /// [`S390Model::issue_block`] when the pipeline state is not known or the block does not
    /// remember a run from it: the state is looked up (or interned) and the block issued per
    /// instruction, the run remembered.
    #[inline(never)]
    fn issue_block_slow(&mut self, bt: &mut BlockTiming, issued: usize, taken: bool) {
        let n = bt.plans.len();
        if issued == n && !bt.off && self.known.is_none() {
            self.known = self.intern().map(|id| Known { id, t: self.group_cycle, stale: false });
            if self.known.is_some_and(|k| self.remembered(bt, k, taken)) {
                return;
            }
        }
        self.settle();
        if issued == n && !bt.off {
            bt.misses = bt.misses.saturating_add(1);
            if bt.misses >= GIVE_UP && bt.misses > bt.hits.saturating_mul(4) {
                bt.off = true;
                bt.trans = Vec::new();
            }
        }
        if issued < n || bt.off {
            let plans = bt.plans.get(..issued.min(n)).unwrap_or_default();
            for (k, p) in plans.iter().enumerate() {
                self.issue_untimed(p, bt.taken_at(k, taken && k + 1 == plans.len()));
            }
            return;
        }
        let from = self.known.map(|k| k.id);
        let (t, groups, stalls) = (self.group_cycle, self.summary.groups, self.stall_counters());
        for (k, p) in bt.plans.iter().enumerate() {
            self.issue_untimed(p, bt.taken_at(k, taken && k + 1 == n));
        }
        let to = self.intern();
        self.known = to.map(|id| Known { id, t: self.group_cycle, stale: false });
        let (Some(from), Some(to)) = (from, to) else { return };
        let mut tr = Trans {
            from,
            taken,
            to,
            dt: self.group_cycle - t,
            groups: self.summary.groups - groups,
            stalls: Vec::new(),
        };
        for (s, (now, was)) in self.stall_counters().iter().zip(&stalls).enumerate() {
            if now != was {
                tr.stalls.push((s, now.1 - was.1));
            }
        }
        if bt.trans.is_empty() {
            let empty = Trans { from: u32::MAX, taken: false, to: 0, dt: 0, groups: 0, stalls: Vec::new() };
            bt.trans = vec![empty; WAYS];
        }
        // The first slot unless it holds another state and the second is free; the second
        // is the one replaced.
        let (a, b) = slots(from, taken);
        let at = match bt.trans.get(a) {
            Some(old) if old.from != u32::MAX && bt.trans.get(b).is_some_and(|o| o.from == u32::MAX) => b,
            Some(old) if old.from == u32::MAX => a,
            _ => b,
        };
        if let Some(slot) = bt.trans.get_mut(at) {
            *slot = tr;
        }
    }

    /// The current cycle while the pipeline is an interned state not written back yet.
    pub(super) fn known_now(&self) -> Option<u64> {
        let k = self.known.filter(|k| k.stale)?;
        let complete = self.states.list.get(k.id as usize).and_then(|s| s.get(3)).copied().unwrap_or(0);
        Some(k.t + complete)
    }

    /// Writes the pipeline fields from the interned state the model is in, if they lag it.
    pub(super) fn settle(&mut self) {
        let Some(k) = self.known.filter(|k| k.stale) else { return };
        self.known = Some(Known { stale: false, ..k });
        let Some(words) = self.states.list.get_mut(k.id as usize).map(std::mem::take) else { return };
        self.load(k.t, &words);
        if let Some(slot) = self.states.list.get_mut(k.id as usize) {
            *slot = words;
        }
    }

    /// [`S390Model::settle`], and the pipeline is no longer known to be an interned state
    /// (it is about to change otherwise).
    #[inline(always)]
    pub(super) fn leave(&mut self) {
        if self.known.is_some() {
            self.settle();
            self.known = None;
        }
    }

    /// The number of the current pipeline state (interned if new), `None` when the table
    /// is full.
    fn intern(&mut self) -> Option<u32> {
        let mut words = std::mem::take(&mut self.states.scratch);
        words.clear();
        self.write_state(&mut words);
        let id = match self.states.ids.get(words.as_slice()) {
            Some(&id) => Some(id),
            None if self.states.list.len() < MAX_STATES => {
                let id = u32::try_from(self.states.list.len()).ok();
                if let Some(id) = id {
                    let key: Box<[u64]> = words.as_slice().into();
                    self.states.list.push(key.clone());
                    self.states.ids.insert(key, id);
                }
                id
            }
            None => None,
        };
        self.states.scratch = words;
        id
    }

    /// The pipeline state relative to the open group's cycle, as words.
    fn write_state(&self, out: &mut Vec<u64>) {
        let t = self.group_cycle;
        let rel = |v: u64| v.saturating_sub(t);
        out.extend([
            self.group_used.unwrap_or(u64::MAX),
            self.groups_in_cycle,
            rel(self.fetch_ready),
            rel(self.complete),
            rel(self.cc_ready),
        ]);
        out.extend(self.reg_ready.iter().map(|&v| rel(v)));
        self.inflight.write_from(t, out);
        self.units.write_from(t, out);
    }

    /// Sets the pipeline to the state [`S390Model::write_state`] wrote as `words`, at `t`.
    fn load(&mut self, t: u64, words: &[u64]) {
        let (fixed, rest) = words.split_at(FIXED.min(words.len()));
        let word = |k: usize| fixed.get(k).copied().unwrap_or(0);
        self.group_cycle = t;
        self.group_used = Some(word(0)).filter(|&u| u != u64::MAX);
        self.groups_in_cycle = word(1);
        self.fetch_ready = t + word(2);
        self.complete = t + word(3);
        self.cc_ready = t + word(4);
        for (r, ready) in self.reg_ready.iter_mut().enumerate() {
            *ready = t + word(5 + r);
        }
        let units = self.inflight.load(t, rest);
        self.units.load(t, units.get(1..).unwrap_or_default());
    }

    /// The stall counters, [`STALL_SLOTS`] long.
    fn stall_counters(&self) -> [(bool, u64); STALL_SLOTS] {
        let mut all = [(false, 0); STALL_SLOTS];
        for (slot, v) in all.iter_mut().zip(self.stalls.iter().chain(&self.operand_stalls)) {
            *slot = *v;
        }
        all
    }
}
