//! Timing once per block (issue 17, w8-itimed): the block step must leave the model as the
//! per-slot path does. Two models walk the same random programs as `group_issue_tests` (random
//! templates, stops, classes, registers from a small pool, predicates, taken branches, faults,
//! events, stops mid-group, random scoreboard states): at each slot one model tries to issue a
//! block of up to four planned groups (ending, as a CPU block does, after a group with a
//! branch) with `begin_block` and `end_block`/`exit_block`, the other issues every slot with
//! `issue_prepared`. Every slot's cycle, the counts, the stall table, `now()`, the open group
//! and the scoreboard as far as a later wait can tell (`Scoreboard::same_from`) must agree, and
//! the board's horizon must stay at least its latest entry.

use super::group_issue_tests::{
    after, between, changes_renaming_class, class_lists, finish, perturb, program, After, Program, Renaming, Side,
};
use super::*;
use crate::table::TimingClass as T;
use emu_core::rng::Xorshift64;
use scoreboard::is_branch;

/// Tallies over all cases, to show the generator reaches every path of the block step.
#[derive(Debug, Default)]
struct Tally {
    steps: u64,
    /// Block steps of two groups or more.
    multi: u64,
    /// Begun with the board's horizon at most the block's cycle (writes left out), or past it
    /// (every live-in checked).
    below_horizon: u64,
    checked: u64,
    /// Left before the last slot (groups replayed), or whole with a slot predicated off.
    exits: u64,
    skipped_whole: u64,
    /// Blocks that can never take the step, and those a late live-in or an open group refused.
    declined_static: u64,
    declined_dynamic: u64,
    /// Block steps with an executed `ar.itc` read, and those left early in the read's group
    /// (its use then noted for the slots that still join the group).
    clock_steps: u64,
    clock_exits: u64,
}

fn same(a: &Side, b: &Side, what: &str) {
    assert_eq!(a.m.counts(), b.m.counts(), "{what}: counts");
    assert_eq!(a.m.now(), b.m.now(), "{what}: now");
    assert!(a.m.board.same_from(&b.m.board, a.m.now()), "{what}: scoreboard");
    assert!(a.m.board.horizon() >= a.m.board.latest(), "{what}: horizon");
    assert_eq!(a.m.remaining, b.m.remaining, "{what}: remaining");
    assert_eq!(a.m.group.closed, b.m.group.closed, "{what}: closed");
    assert_eq!(a.m.group.open, b.m.group.open, "{what}: open");
    // The clock uses matter while later slots can still join the open group.
    if b.m.group.open && b.m.group.closed.is_none() {
        assert_eq!(a.m.clock_uses.noted(), b.m.clock_uses.noted(), "{what}: clock uses");
    }
}

/// Whether a CPU block ends after a slot of `class` (it can branch).
fn ends_block(class: T) -> bool {
    is_branch(class) || matches!(class, T::Chk | T::Break)
}

/// The planned groups of a block from `at`: each its members and group facts.
type Groups = Vec<(Vec<(usize, u8)>, Option<GroupTiming>)>;

fn block_from(rng: &mut Xorshift64, m: &Itanium2, prog: &Program, at: (usize, u8)) -> Groups {
    let want = 1 + rng.index(4);
    let mut groups = Groups::new();
    let mut p = at;
    while p.0 < prog.bundles.len() {
        let len = usize::from(prog.at(p).timing.plan.len);
        let members: Vec<(usize, u8)> = prog.walk(p).take(len).collect();
        let timings: Vec<SlotTiming> = members.iter().map(|&q| prog.at(q).timing).collect();
        let full = members.len() == len;
        let g = if full { m.prepare_group(&timings) } else { None };
        let ends = members.iter().any(|&q| ends_block(prog.at(q).shape.class));
        let next = members.last().map(|&q| prog.next(q));
        groups.push((members, g));
        match next {
            Some(n) if full && !ends && groups.len() < want => p = n,
            _ => break,
        }
    }
    groups
}

fn run_case(rng: &mut Xorshift64, tally: &mut Tally, class_lists: &[(SlotUnit, Vec<T>)], timeline: bool) {
    let params = Itanium2Params::default();
    let mut blk = Side { m: Itanium2::new(params.clone(), timeline), itc: Vec::new() };
    let mut slot = Side { m: Itanium2::new(params, timeline), itc: Vec::new() };
    let prog = program(rng, &blk.m, class_lists);
    perturb(rng, &mut blk, &mut slot);
    let mut renaming = Renaming { bank: rng.index(2) as u8, bof: rng.below(96) as u16 };
    let mut at = (0usize, 0u8);
    let mut steps = 0;
    while steps < 60 && at.0 < prog.bundles.len() {
        steps += 1;
        if between(rng, &mut blk, &mut slot) {
            same(&blk, &slot, "after an event");
        }
        let groups = block_from(rng, &blk.m, &prog, at);
        let resolved: Vec<Option<ResolvedGroup>> =
            groups.iter().map(|(_, g)| g.as_ref().map(|g| g.resolve(|n| renaming.res(n)))).collect();
        let mut n_ops = 0u8;
        // Each ar.itc read of the block gets its value's index on both sides in advance (the
        // block step's model notes the uses itself, by these ids).
        let mut ids = Vec::new();
        let parts = groups.iter().zip(&resolved).map(|((members, _), r)| {
            let (mut ops, mut clocks) = ([None; 6], [None; 6]);
            for ((o, c), &q) in ops.iter_mut().zip(&mut clocks).zip(members) {
                if !prog.at(q).timing.nop {
                    *o = Some(n_ops);
                    n_ops += 1;
                }
                if prog.at(q).reads_itc {
                    let id = blk.itc.len() + ids.len();
                    *c = Some(ClockUse::Read(id as u8));
                    ids.push(id);
                }
            }
            let bundle = members.first().map_or(0, |&q| prog.at(q).shape.bundle);
            BlockGroup { group: r.as_ref(), bundle, ops, clocks }
        });
        let parts: Vec<BlockGroup> = parts.collect();
        for side in [&mut blk, &mut slot] {
            side.itc.resize(side.itc.len() + ids.len(), 0);
        }
        let mut reads = ids.iter();
        let mut bt = BlockTiming::default();
        bt.rebuild(parts, usize::from(n_ops));
        let opens = !(slot.m.group.open && slot.m.group.closed.is_none());
        if !bt.ok() && opens {
            tally.declined_static += 1;
        }
        let below = blk.m.board.horizon() <= blk.m.now();
        if let Some(start) = blk.m.begin_block(&bt) {
            tally.steps += 1;
            tally.multi += u64::from(groups.len() > 1);
            tally.below_horizon += u64::from(below);
            tally.checked += u64::from(!below);
            let (mut skipped, mut k, mut exit, mut last, mut end) = (0u64, 0usize, None, at, After::Next);
            let mut read_group = None;
            'block: for (i, (members, _)) in groups.iter().enumerate() {
                for &q in members {
                    let s = prog.at(q);
                    let executes = s.timing.nop || !s.predicated || rng.below(4) != 0;
                    let c =
                        slot.m.issue_prepared(&s.timing, s.shape.bundle, s.shape.slot, executes, |n| renaming.res(n));
                    assert_eq!(c, start + i as u64, "group {i} of a block step");
                    let read = if s.reads_itc { reads.next().copied() } else { None };
                    if let (Some(id), true) = (read, executes) {
                        // Noted as the CPU notes it, once the slot ran.
                        slot.m.note_clock_use(ClockUse::Read(id as u8));
                        slot.itc[id] = c;
                        blk.itc[id] = c;
                        read_group = Some(i);
                    }
                    slot.settle();
                    last = q;
                    if s.timing.nop {
                        continue;
                    }
                    skipped |= u64::from(!executes) << k;
                    end = after(rng, s, executes, prog.bundles.len());
                    if executes && changes_renaming_class(s.shape.class) {
                        // The CPU leaves a block after a slot that changed the renaming.
                        renaming = Renaming { bank: rng.index(2) as u8, bof: rng.below(96) as u16 };
                        if end == After::Next {
                            end = After::Exit;
                        }
                    }
                    if end != After::Next {
                        exit = Some(k);
                        break 'block;
                    }
                    k += 1;
                }
            }
            let groups_of = resolved.iter().map(Option::as_ref);
            let whole = groups.last().and_then(|g| g.0.last()) == Some(&last);
            tally.exits += u64::from(!whole);
            tally.skipped_whole += u64::from(whole && skipped != 0);
            tally.clock_steps += u64::from(read_group.is_some());
            let stopped = exit.and_then(|k| bt_group(&bt, k));
            tally.clock_exits += u64::from(!whole && read_group.is_some() && read_group == stopped);
            match exit {
                Some(k) => blk.m.exit_block(&bt, k, skipped, groups_of, !matches!(end, After::Fault(..))),
                None => blk.m.end_block(&bt, skipped),
            }
            at = finish(&mut blk, &mut slot, end, &prog, last);
            same(&blk, &slot, "after a block step");
            continue;
        }
        if bt.ok() && opens {
            tally.declined_dynamic += 1;
        }
        // Slot by slot, on both sides.
        let s = prog.at(at);
        let executes = !s.predicated || rng.below(4) != 0;
        let a = blk.m.issue_prepared(&s.timing, s.shape.bundle, s.shape.slot, executes, |n| renaming.res(n));
        let b = slot.m.issue_prepared(&s.timing, s.shape.bundle, s.shape.slot, executes, |n| renaming.res(n));
        assert_eq!(a, b, "slot by slot");
        blk.settle();
        slot.settle();
        if executes && s.reads_itc {
            blk.note_itc(a);
            slot.note_itc(b);
        }
        if executes && changes_renaming_class(s.shape.class) {
            renaming = Renaming { bank: rng.index(2) as u8, bof: rng.below(96) as u16 };
        }
        let end = after(rng, s, executes, prog.bundles.len());
        at = finish(&mut blk, &mut slot, end, &prog, at);
    }
    same(&blk, &slot, "at the end");
    assert_eq!(blk.m.summary(), slot.m.summary(), "stall table");
    assert_eq!(blk.m.timeline(), slot.m.timeline(), "timeline");
    assert_eq!(blk.itc, slot.itc, "ar.itc values");
}

#[test]
fn block_step_leaves_the_model_as_slot_by_slot_issue() {
    let lists = class_lists();
    let mut rng = Xorshift64::new(0x17_B10C_1A64);
    let mut tally = Tally::default();
    for case in 0..3000 {
        run_case(&mut rng, &mut tally, &lists, case % 50 == 49);
    }
    // And programs rich in M-unit `mov =ar`, a third of which read ar.itc, for block steps
    // that read the clock.
    let clocked: Vec<(SlotUnit, Vec<T>)> = lists
        .iter()
        .map(|(unit, list)| {
            let extra = if *unit == SlotUnit::M { list.len() } else { 0 };
            (*unit, list.iter().copied().chain(std::iter::repeat_n(T::MovFromArM, extra)).collect())
        })
        .collect();
    for case in 0..2400 {
        run_case(&mut rng, &mut tally, &clocked, case % 50 == 49);
    }
    // The generator must reach every path: whole blocks of several groups, below the horizon
    // and checked, left early, replayed for a predicated-off writer, and declined both ways.
    assert!(tally.steps > 10_000 && tally.multi > 2_000, "{tally:?}");
    assert!(tally.below_horizon > 2_000 && tally.checked > 2_000, "{tally:?}");
    assert!(tally.exits > 1_000 && tally.skipped_whole > 500, "{tally:?}");
    assert!(tally.declined_static > 2_000 && tally.declined_dynamic > 1_000, "{tally:?}");
    assert!(tally.clock_steps > 1_500 && tally.clock_exits > 200, "{tally:?}");
}

/// The index of the group operation `k` of `bt` is in.
fn bt_group(bt: &BlockTiming, k: usize) -> Option<usize> {
    usize::try_from(bt.offset(k)).ok()
}
