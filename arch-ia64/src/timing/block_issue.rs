//! Timing once per block (issue 17, w8-itimed): what the group step ([`Itanium2::begin_group`],
//! [`Itanium2::end_group`]) does group by group, done for all the planned groups of a block in
//! one step when no group of it waits.
//!
//! A block's planned groups follow each other with nothing in between: each opens the cycle
//! after the one before (`now()`; nothing moves `next_min` inside a block), so when no group
//! waits, group `i` issues at `start + i`. Which split or port rule each later group's opening
//! charges depends only on the group before it, which is static ([`open_cause`]); so do the
//! counts. What is left for run time is one check that every source is ready in time, the
//! first group's opening (the rule that closed whatever ran before), and the writes of the
//! destinations, once per resource (the last writer's, the only one the board keeps).
//!
//! # Why the block step is exact
//! Group by group, group `i` takes the group step without waiting when every (resource, lane)
//! it reads is ready by `start + i` on the board as the groups before it left it. On that
//! board an entry is either one the block wrote, from group `j < i` at `start + j` plus its
//! latency (when its slot executed), or the one the block found at its entry. So the block
//! step requires, at build time, that every write of an earlier group `j` to a resource group
//! `i` reads makes it ready by `i` ([`BlockTiming::rebuild`]; else the block never takes the
//! step), and at run time that every resource read by the block was ready on the entry board
//! by `start + i` for the first group `i` that reads it ([`Itanium2::begin_block`]; else it
//! declines and the groups go one by one as before). Then group by group every group would
//! issue at `start + i` with no wait, and the block step leaves the same state:
//! - counts, groups and the split or port charges of every opening, added once;
//! - the board: the last write to each resource in program order, which is the state after
//!   all the group steps when every slot with destinations executed, less the writes ready
//!   by the cycle after the last group when every entry was (the board's horizon was at most
//!   the block's cycle): no later wait can tell such an entry from the one it replaces;
//! - the open group: the last group's, closed by its plan's end, as `begin_group` leaves it.
//!
//! A writer predicated off (`cond_ops`) changes only the writes: the others' then go in
//! program order, as `end_group` makes them.
//!
//! # When the block leaves early
//! [`Itanium2::exit_block`] then replays the groups up to the one left with the group step
//! itself (`open_planned`, `end_group`): every group would have begun without waiting (above),
//! so the replay is exactly the group-by-group path.
//!
//! # When a block never takes the step (`ok` false)
//! Any of its groups can never take the group step; a write of an earlier group is not ready
//! in time for a later group that reads it (that group would always wait); more than 64
//! operations.
//!
//! # The clock (issue 17, w9-itimed)
//! A slot that reads or writes `ar.itc` runs at its group's cycle, as in the group step: no
//! group of a block step waits, so that is the cycle the per-slot path gives it, and no
//! held-group fix (issue 15) can move it inside the block. The uses the group steps note
//! matter only while slots can still join the group they were noted in, which is the group
//! a block left early stops (`exit_block` notes that group's, `note_block_clocks`); every
//! other group of the block has closed, and the next slot opens a new one, which forgets
//! them.
//!
//! # Cost (host instructions, callgrind, `scripts/callgrind-per-insn.sh`)
//! Per slot with the model on, before -> after the block step: the `acctemu bench` ALU loop
//! (one block of three groups) 107.9 -> 52.9, the load/store/call loop (three blocks, five
//! groups) 177.6 -> 136.1; `ia64/syscall/v2` 44,402 -> 42,736 per system call. What is left
//! is fixed per block (the checks and `now()`, the first group's opening charge, the counts,
//! the open group's state, `taken_branch`), so a block of few slots pays the most per slot.
//! Clocked blocks taking the step (w9-itimed): `ia64/syscall/v2` 39,281 -> 35,775 per system
//! call (the loops, which read no clock, unchanged: 52.5 -> 52.7 and 111.4 -> 112.1 per slot,
//! one host instruction per ALU iteration, code placement).
//!
//! # What the caller guarantees
//! As for the group step (`group_issue`), with the block in place of the group: `begin_block`
//! where the CPU is about to issue the block's first slot, with the block's timing rebuilt for
//! the renaming in force; operation `k` executed at `start` plus [`BlockTiming::offset`]`(k)`;
//! `skipped` bit `k` set when operation `k` was predicated off; one `end_block` or
//! `exit_block` after the slots ran, with the resolved groups in order.

use super::group::{Close, Full, Group};
use super::group_issue::{open_cause, ResolvedGroup};
use super::scoreboard::FLAT_LEN;
use super::{Cause, ClockUse, Itanium2};

/// Slots in one planned group at most.
const GROUP_SLOTS: usize = 6;

/// One planned group of a block, as the block builder hands it to [`BlockTiming::rebuild`].
#[derive(Debug, Clone, Copy)]
pub struct BlockGroup<'a> {
    /// Its timing facts resolved for the block's renaming (`None`: it never takes the group
    /// step, nor does the block).
    pub group: Option<&'a ResolvedGroup>,
    /// The bundle of its first slot.
    pub bundle: u64,
    /// The block's operation index of each of its slots, `None` for a nop.
    pub ops: [Option<u8>; GROUP_SLOTS],
    /// Per slot: how it uses the clock (`ar.itc`), if it does.
    pub clocks: [Option<ClockUse>; GROUP_SLOTS],
}

/// A block's planned groups as one step, for one renaming (see the module doc).
#[derive(Debug, Clone)]
pub struct BlockTiming {
    ok: bool,
    first_bundle: u64,
    /// Every (resource, lane) the block reads as a scoreboard position, with the first group
    /// that reads it (its offset from the block's cycle).
    live: Vec<(u16, u16)>,
    /// The last write to each resource: its board index and ready cycles less the block's
    /// cycle (the group's offset plus the latencies; the padding lane the group's offset, as
    /// [`super::scoreboard::Scoreboard::write_lanes`] leaves it). The first `n_late` are
    /// those ready after the block's last group in some lane (see `end_block`).
    writes: Vec<(u16, [u64; 4])>,
    n_late: usize,
    /// Every write in program order, with the bit of the operation it is conditional on (0
    /// when it writes whatever the predicate), for a run with a writer predicated off.
    every: Vec<(u16, u64, [u64; 4])>,
    /// The latest of those ready cycles (less the block's cycle), for the board's horizon.
    reach: u64,
    /// Bit k: operation k has destinations it writes only when its predicate is true.
    cond_ops: u64,
    /// The charges of the openings of the groups after the first.
    charges: Vec<Cause>,
    groups: u64,
    instructions: u64,
    nops: u64,
    /// The open group once the last one issued, and its plan's end.
    last: Group,
    last_end: Close,
    /// The operation in the block's last slot (an exit there leaves nothing to replay), or
    /// none (`usize::MAX`).
    last_op: usize,
    /// Per operation: its group's index and its slot position there.
    ops: Vec<(u8, u8)>,
    /// Per group: its first slot's bundle and its first operation's index.
    bundles: Vec<(u64, u8)>,
    /// The operations that use the clock, in program order, with their use.
    clocks: Vec<(u8, ClockUse)>,
}

impl Default for BlockTiming {
    fn default() -> Self {
        BlockTiming {
            ok: false,
            first_bundle: 0,
            live: Vec::new(),
            writes: Vec::new(),
            n_late: 0,
            every: Vec::new(),
            reach: 0,
            cond_ops: 0,
            charges: Vec::new(),
            groups: 0,
            instructions: 0,
            nops: 0,
            last: Group::default(),
            last_end: Close::Full(Full::Window),
            last_op: usize::MAX,
            ops: Vec::new(),
            bundles: Vec::new(),
            clocks: Vec::new(),
        }
    }
}

impl BlockTiming {
    /// Works the block step out anew from the block's planned groups in order (`n_ops`
    /// operations in all), keeping the lists' room.
    pub fn rebuild<'a>(&mut self, groups: impl IntoIterator<Item = BlockGroup<'a>>, n_ops: usize) {
        self.live.clear();
        self.writes.clear();
        self.every.clear();
        self.charges.clear();
        self.ops.clear();
        self.bundles.clear();
        self.clocks.clear();
        (self.reach, self.cond_ops, self.groups, self.instructions, self.nops) = (0, 0, 0, 0, 0);
        self.last_op = usize::MAX;
        self.ok = n_ops <= 64 && self.gather(groups);
        self.ok &= self.ops.len() == n_ops && self.groups > 0;
        if self.last_op != usize::MAX {
            self.last_op = n_ops.wrapping_sub(1);
        }
        // The board keeps the last write of each resource; those ready only after the block's
        // last group first.
        let groups = self.groups;
        let late = |lanes: &[u64; 4]| lanes.iter().take(3).any(|&l| l > groups);
        self.writes.clear();
        for (n, &(index, _, lanes)) in self.every.iter().enumerate().rev() {
            let later = self.every.get(n + 1..).unwrap_or(&[]);
            if !later.iter().any(|&(i, _, _)| i == index) {
                self.writes.push((index, lanes));
            }
        }
        self.writes.sort_by_key(|(_, lanes)| !late(lanes));
        self.n_late = self.writes.iter().filter(|(_, lanes)| late(lanes)).count();
    }

    /// The per-group part of `rebuild`: false when the block can never take the step.
    fn gather<'a>(&mut self, groups: impl IntoIterator<Item = BlockGroup<'a>>) -> bool {
        let mut before: Option<Group> = None;
        for (i, bg) in groups.into_iter().enumerate() {
            let (Some(g), Ok(offset)) = (bg.group, u8::try_from(i)) else { return false };
            if !g.ok {
                return false;
            }
            match &before {
                Some(prev) => self.charges.extend(open_cause(prev, bg.bundle)),
                None => self.first_bundle = bg.bundle,
            }
            let offset_u64 = u64::from(offset);
            // Writes of earlier groups must be ready in time for this group's reads.
            let earlier = self.every.len();
            for &at in g.live.get(..usize::from(g.n_live)).unwrap_or(&[]) {
                let (index, lane) = (at / 4, usize::from(at % 4));
                let late = self.every[..earlier]
                    .iter()
                    .any(|&(i, _, lanes)| i == index && lanes.get(lane).is_none_or(|&l| l > offset_u64));
                if late {
                    return false;
                }
                if !self.live.iter().any(|&(a, _)| a == at) {
                    self.live.push((at, u16::from(offset)));
                }
            }
            for d in g.dsts.get(..usize::from(g.n_dsts)).unwrap_or(&[]) {
                let [data, address, branch] = d.lanes.map(|l| l + offset_u64);
                let Ok(index) = u16::try_from(d.res.index()) else { return false };
                self.reach = self.reach.max(data).max(address).max(branch);
                let mut cond = 0;
                if d.bit & !g.always_mask != 0 {
                    let pos = d.bit.trailing_zeros() as usize;
                    let Some(&Some(k)) = bg.ops.get(pos) else { return false };
                    cond = 1 << k;
                }
                self.cond_ops |= cond;
                self.every.push((index, cond, [data, address, branch, offset_u64]));
            }
            let first_op = u8::try_from(self.ops.len()).unwrap_or(u8::MAX);
            for (pos, op) in bg.ops.iter().enumerate().take(usize::from(g.plan.len)) {
                if let Some(k) = op {
                    if usize::from(*k) != self.ops.len() {
                        return false;
                    }
                    self.ops.push((offset, pos as u8)); // pos < GROUP_SLOTS
                    if let Some(&Some(clock)) = bg.clocks.get(pos) {
                        self.clocks.push((*k, clock));
                    }
                }
            }
            self.bundles.push((bg.bundle, first_op));
            self.groups += 1;
            self.instructions += u64::from(g.plan.len);
            self.nops += u64::from(g.n_nops);
            let mut after = Group::default();
            after.start_planned(bg.bundle, &g.plan);
            after.closed = Some(g.plan.end);
            (self.last, self.last_end) = (after, g.plan.end);
            // Marks (for `rebuild`) whether the last slot so far is an operation.
            let ends_with_op = bg.ops.get(usize::from(g.plan.len).saturating_sub(1)).copied().flatten().is_some();
            self.last_op = if ends_with_op { 0 } else { usize::MAX };
            before = Some(after);
        }
        true
    }

    /// Whether the block can take the step (for some start).
    pub fn ok(&self) -> bool {
        self.ok
    }

    /// The cycle operation `k` issues at, less the block's cycle (its group's index).
    #[inline]
    pub fn offset(&self, k: usize) -> u64 {
        self.ops.get(k).map_or(0, |&(g, _)| u64::from(g))
    }
}

impl Itanium2 {
    /// Opens the block `bt` describes and issues it whole when doing so is exactly what the
    /// group step group by group would do (no timeline recording, no group open that its
    /// first slot would join, every source ready in time): returns the block's cycle, at which
    /// its first group issues (group i at that plus i). `None`: nothing changed.
    #[inline(always)]
    pub fn begin_block(&mut self, bt: &BlockTiming) -> Option<u64> {
        let joins = self.group.open & self.group.closed.is_none();
        if !bt.ok | joins | self.timeline.is_some() {
            return None;
        }
        let start = self.now();
        // Nothing on the board is ready later than the horizon.
        if self.board.horizon() > start {
            let board = self.board.flat();
            for &(at, offset) in &bt.live {
                let ready = board.get(usize::from(at) & (FLAT_LEN - 1)).copied().unwrap_or(0);
                if ready > start + u64::from(offset) {
                    return None;
                }
            }
        }
        self.open_block(bt, start);
        Some(start)
    }

    /// `open_untimed` for the block's first group at `start`, less two things the block step
    /// leaves to its ends: the group count (`end_block` adds the block's, `replay` the first
    /// group's) and forgetting the open group's writes and clock uses (nothing reads them once
    /// the block's last group has closed, as `end_block` leaves it: the next slot opens a
    /// group, which forgets them; `replay` forgets them before a block left early stops a
    /// group mid-way).
    #[inline(always)]
    fn open_block(&mut self, bt: &BlockTiming, start: u64) {
        let cause = open_cause(&self.group, bt.first_bundle);
        self.cycle = start;
        if let Some(cause) = cause {
            self.charge(cause, 1, true);
        }
    }

    /// Ends a block `begin_block` opened whose slots all issued; `skipped` bit k set when
    /// operation k was predicated off; `groups`, the block's resolved groups in order.
    #[inline(always)]
    pub fn end_block(&mut self, bt: &BlockTiming, skipped: u64) {
        let start = self.cycle;
        self.instructions += bt.instructions;
        self.nops += bt.nops;
        self.groups += bt.groups;
        for &cause in &bt.charges {
            self.charge(cause, 1, true);
        }
        // A write ready by the cycle after the last group (the earliest any later slot can
        // read it) can be left out when the entry it replaces was ready by then too (every
        // entry was when the board's horizon was at most `start`): no later wait can tell
        // them apart (a wait compares an entry with a cycle at least that one). The board then
        // differs from the group steps' only in entries both have ready.
        if skipped & bt.cond_ops == 0 {
            let all = if self.board.horizon() <= start { bt.n_late } else { bt.writes.len() };
            for &(index, lanes) in bt.writes.get(..all).unwrap_or(&[]) {
                self.board.put_lanes(usize::from(index), start, lanes);
            }
        } else {
            // A writer was predicated off: the writes of the others in program order, as the
            // group steps make them (`end_group`).
            for &(index, cond, lanes) in &bt.every {
                if skipped & cond == 0 {
                    self.board.put_lanes(usize::from(index), start, lanes);
                }
            }
        }
        self.board.raise(start + bt.reach);
        self.cycle = start + bt.groups - 1;
        self.group = bt.last;
        self.remaining = 0;
        self.plan_end = bt.last_end;
    }

    /// Ends a block `begin_block` opened that execution left at operation `k` (a branch, a
    /// fault, a change of what the block depends on): as `end_block` when `k` is the block's
    /// last slot, else the groups up to `k`'s replayed, `k`'s stopped after it. `k_ran`: `k`
    /// completed (it continued to the next slot, as far as its clock use goes).
    #[inline(always)]
    pub fn exit_block<'a>(
        &mut self,
        bt: &BlockTiming,
        k: usize,
        skipped: u64,
        groups: impl IntoIterator<Item = Option<&'a ResolvedGroup>>,
        k_ran: bool,
    ) {
        if k == bt.last_op {
            self.end_block(bt, skipped);
        } else {
            let (group, pos) = bt.ops.get(k).copied().unwrap_or((0, 0));
            self.replay(bt, skipped, groups, (usize::from(group), usize::from(pos) + 1));
            if !bt.clocks.is_empty() {
                self.note_block_clocks(bt, k, skipped, k_ran);
            }
        }
    }

    /// The clock uses the group steps would have noted in the group a block left early
    /// stopped (`k`'s; `replay` left the model at its cycle): those of its executed operations
    /// up to `k`, `k`'s only when it completed. (Those of the groups before it are forgotten
    /// when the next group opens, so they are never noted; so are those of a block's last
    /// group, which is closed.)
    #[inline(never)]
    fn note_block_clocks(&mut self, bt: &BlockTiming, k: usize, skipped: u64, k_ran: bool) {
        let group = bt.ops.get(k).map(|&(g, _)| g);
        for &(j, clock) in &bt.clocks {
            let j = usize::from(j);
            let ran = j < k || (j == k && k_ran);
            if ran && skipped >> j & 1 == 0 && bt.ops.get(j).map(|&(g, _)| g) == group {
                self.note_clock_use(clock);
            }
        }
    }

    /// The group steps of the block's groups after `begin_block` (which opened the first), up to
    /// group `stop`, of which `issued` slots issued.
    #[inline(never)]
    fn replay<'a>(
        &mut self,
        bt: &BlockTiming,
        skipped: u64,
        groups: impl IntoIterator<Item = Option<&'a ResolvedGroup>>,
        (stop, issued): (usize, usize),
    ) {
        // What `begin_block` left out of `open_untimed` for the first group.
        self.groups += 1;
        self.written.len = 0;
        self.clock_uses.clear();
        for (i, (g, &(bundle, first_op))) in groups.into_iter().zip(&bt.bundles).enumerate() {
            let Some(g) = g else { return };
            if i == 0 {
                self.planned(g, bundle);
            } else {
                let now = self.now();
                self.open_planned(g, bundle, now);
            }
            let ops = bt.ops.iter().enumerate().skip(usize::from(first_op));
            let executed = ops
                .take_while(|&(_, &(group, _))| usize::from(group) == i)
                .filter(|&(k, _)| skipped >> k & 1 == 0)
                .fold(0u8, |m, (_, &(_, pos))| m | 1 << pos);
            if i == stop {
                return self.end_group(g, issued, executed);
            }
            self.end_group(g, usize::from(g.plan.len), executed);
        }
    }
}
