//! Timing once per issue group (issue 17, w7-itime): the group step must leave the model exactly
//! as the per-slot path does. Two models walk the same random programs of prepared slots (random
//! templates and stops, classes from the table's rows, registers from a small pool so that
//! dependencies, intra-group reads and waits are common, random predicates), with taken branches,
//! faults, events, `advance`, `redirect`, stops mid-group and random scoreboard states between
//! them: one model issues whole groups with `begin_group`/`end_group` (slot by slot with
//! `issue_prepared` when `begin_group` declines), the other slot by slot only. Every slot's cycle,
//! the ar.itc fixes of held groups, the counts, the stall table, `now()` and the scoreboard must
//! agree.

use super::*;
use crate::regs::ar;
use crate::table::{table, Unit};
use emu_core::rng::Xorshift64;
use scoreboard::is_branch;

/// One slot of a generated program: its shape and prepared timing, and whether it has a
/// qualifying predicate (so may be predicated off).
#[derive(Debug, Clone)]
pub(super) struct Slot {
    pub(super) shape: SlotShape,
    pub(super) timing: SlotTiming,
    pub(super) predicated: bool,
    pub(super) reads_itc: bool,
}

/// A generated program: bundles of slots (an MLX bundle holds two).
pub(super) struct Program {
    pub(super) bundles: Vec<Vec<Slot>>,
}

const BASE: u64 = 0x4000;

/// The classes the table's rows put in a slot of `unit` (one entry per row, so common classes
/// come up often), and nops.
fn classes(unit: SlotUnit) -> Vec<T> {
    let mut out: Vec<T> = table()
        .forms
        .iter()
        .filter(|f| match unit {
            SlotUnit::M => matches!(f.unit, Unit::M | Unit::A),
            SlotUnit::I => matches!(f.unit, Unit::I | Unit::A),
            SlotUnit::F => f.unit == Unit::F,
            SlotUnit::B => f.unit == Unit::B,
            SlotUnit::L | SlotUnit::X => f.unit == Unit::X,
        })
        .map(|f| f.timing)
        .collect();
    // About a third of IA-64 code is nops.
    let nops = out.len() / 2;
    out.extend(std::iter::repeat_n(T::Nop, nops));
    out
}

use crate::table::TimingClass as T;

/// A general register from a small pool: static, banked and stacked names.
fn pick_gr(rng: &mut Xorshift64) -> u8 {
    const POOL: [u8; 14] = [1, 2, 3, 8, 9, 16, 17, 18, 19, 32, 33, 34, 35, 36];
    POOL[rng.index(POOL.len())]
}

fn gr_operand(n: u8) -> (Res, RegOperand) {
    if n >= 16 {
        (Res::gr_static(15), RegOperand::Gr(n))
    } else {
        (Res::gr_static(n), RegOperand::Fixed(Res::gr_static(n)))
    }
}

fn fixed(res: Res) -> (Res, RegOperand) {
    (res, RegOperand::Fixed(res))
}

/// A random register of some kind for a source or destination of `class`.
fn any_reg(rng: &mut Xorshift64, class: T) -> (Res, RegOperand) {
    match rng.below(12) {
        0 => fixed(Res::pr(rng.index(8) as u8 + 1)),
        1 => fixed(Res::br(rng.index(3) as u8)),
        2 => fixed(Res::fr(rng.index(5) as u8 + 2)),
        3 => fixed(Res::ar([ar::PFS, ar::LC, ar::UNAT, ar::BSP, ar::RSC, ar::CCV][rng.index(6)])),
        _ if is_branch(class) && rng.bool() => fixed(Res::br(rng.index(3) as u8)),
        _ => gr_operand(pick_gr(rng)),
    }
}

fn slot(rng: &mut Xorshift64, model: &Itanium2, shape: SlotShape) -> Slot {
    let class = shape.class;
    let nop = class == T::Nop;
    let mut srcs: Vec<(Src, RegOperand)> = Vec::new();
    let mut dsts: Vec<(Res, RegOperand)> = Vec::new();
    let mut reads_itc = false;
    if !nop {
        if class == T::MovFromArM && rng.below(3) == 0 {
            srcs.push((
                Src { res: Res::ar(ar::ITC), role: Role::Data, logical: None },
                RegOperand::Fixed(Res::ar(ar::ITC)),
            ));
            reads_itc = true;
        }
        for _ in 0..rng.index(3) {
            let role = match class {
                T::Load | T::FpLoad | T::Lfetch => Role::Address,
                T::Store | T::FpStore if rng.bool() => Role::Address,
                T::Store | T::FpStore => Role::StoreData,
                _ => Role::Data,
            };
            let (res, reg) = if role == Role::Data { any_reg(rng, class) } else { gr_operand(pick_gr(rng)) };
            let logical = match reg {
                RegOperand::Gr(n) => Some(n),
                RegOperand::Fixed(r) => (r.is_gr()).then(|| r.index() as u8),
            };
            srcs.push((Src { res, role, logical }, reg));
        }
        let n_dsts = match class {
            T::Store | T::FpStore | T::Fc | T::MovToPsr | T::PsrMask => 0,
            T::Compare | T::Tbit | T::FpCompare => {
                dsts.push(fixed(Res::pr(rng.index(8) as u8 + 1)));
                dsts.push(fixed(Res::pr(rng.index(8) as u8 + 1)));
                0
            }
            T::Load => 1 + rng.index(2),
            _ => rng.index(2) + usize::from(rng.bool()),
        };
        for _ in 0..n_dsts {
            dsts.push(if reads_itc || rng.below(3) != 0 { gr_operand(pick_gr(rng)) } else { any_reg(rng, class) });
        }
    }
    let predicated = !nop && rng.below(3) == 0;
    if predicated {
        let p = fixed(Res::pr(rng.index(8) as u8 + 1));
        let role = if is_branch(class) { Role::BranchPredicate } else { Role::Predicate };
        srcs.push((Src { res: p.0, role, logical: None }, p.1));
    }
    let src_list: Vec<Src> = srcs.iter().map(|s| s.0).collect();
    let src_regs: Vec<RegOperand> = srcs.iter().map(|s| s.1).collect();
    let dst_list: Vec<Res> = dsts.iter().map(|d| d.0).collect();
    let dst_regs: Vec<RegOperand> = dsts.iter().map(|d| d.1).collect();
    let info = IssueInfo {
        bundle: shape.bundle,
        template: shape.template,
        slot: shape.slot,
        class,
        unit: shape.unit,
        nop,
        srcs: &src_list,
        dsts: &dst_list,
        executes: true,
    };
    // The plan is filled in once every shape is known.
    let timing = model.prepare(&info, &src_regs, &dst_regs, Plan::default());
    Slot { shape, timing, predicated, reads_itc }
}

fn template(rng: &mut Xorshift64) -> Template {
    let all: Vec<Template> = Template::all().collect();
    let t = all[rng.index(all.len())];
    t.with_end_stop(rng.below(3) == 0)
}

pub(super) fn program(rng: &mut Xorshift64, model: &Itanium2, class_lists: &[(SlotUnit, Vec<T>)]) -> Program {
    let n = 4 + rng.index(12);
    let mut bundles = Vec::new();
    for i in 0..n {
        let t = template(rng);
        let bundle = BASE + 16 * i as u64;
        let units = t.units();
        let count = if units[1] == SlotUnit::L { 2 } else { 3 };
        let mut slots = Vec::new();
        for (s, &unit) in units.iter().enumerate().take(count) {
            let list = &class_lists.iter().find(|(u, _)| *u == unit).expect("unit").1;
            let class = list[rng.index(list.len())];
            slots.push(slot(rng, model, SlotShape { bundle, template: t, slot: s as u8, unit, class }));
        }
        bundles.push(slots);
    }
    let mut p = Program { bundles };
    for i in 0..p.bundles.len() {
        for s in 0..p.bundles[i].len() {
            let run: Vec<SlotShape> = p.walk((i, s as u8)).take(9).map(|at| p.at(at).shape).collect();
            let plan = model.plan(run.into_iter().take_while(|sh| sh.bundle < BASE + 16 * (i as u64 + 3)));
            p.bundles[i][s].timing.plan = plan;
        }
    }
    p
}

impl Program {
    pub(super) fn at(&self, (i, s): (usize, u8)) -> &Slot {
        &self.bundles[i][usize::from(s)]
    }

    pub(super) fn next(&self, (i, s): (usize, u8)) -> (usize, u8) {
        if usize::from(s) + 1 < self.bundles.get(i).map_or(3, Vec::len) {
            (i, s + 1)
        } else {
            (i + 1, 0)
        }
    }

    /// The slots from `at` on in fall-through order, to the end of the program.
    pub(super) fn walk(&self, at: (usize, u8)) -> impl Iterator<Item = (usize, u8)> + '_ {
        std::iter::successors(Some(at), move |&p| Some(self.next(p))).take_while(move |&(i, _)| i < self.bundles.len())
    }
}

/// A renaming: the bank r16-r31 use and the physical register r32 is at.
#[derive(Debug, Clone, Copy)]
pub(super) struct Renaming {
    pub(super) bank: u8,
    pub(super) bof: u16,
}

impl Renaming {
    pub(super) fn res(self, n: u8) -> Res {
        match n {
            0..=15 => Res::gr_static(n),
            16..=31 => Res::gr_banked(n, self.bank),
            _ => Res::gr_stacked(u16::from(n - 32) + self.bof),
        }
    }
}

/// One side of the comparison: its model and what it handed out.
pub(super) struct Side {
    pub(super) m: Itanium2,
    /// The value each noted ar.itc read ends up with (its cycle plus the fixes reported).
    pub(super) itc: Vec<u64>,
}

impl Side {
    pub(super) fn settle(&mut self) {
        let itc = &mut self.itc;
        self.m.settle_clock_uses(|what, held| {
            if let ClockUse::Read(n) = what {
                if let Some(v) = itc.get_mut(usize::from(n)) {
                    *v += held;
                }
            }
        });
    }

    pub(super) fn note_itc(&mut self, cycle: u64) {
        let id = self.itc.len() as u8;
        self.m.note_clock_use(ClockUse::Read(id));
        self.itc.push(cycle);
    }
}

/// What the walk does after a slot issued and ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum After {
    Next,
    /// A taken branch, to bundle n.
    Taken(usize),
    /// A fault or break: an event, then the handler at bundle n.
    Fault(Event, usize),
    /// The CPU stops the group here without a branch (a block exit): the walk goes on slot by
    /// slot at the next slot.
    Exit,
}

/// Tallies over all cases, to show the generator reaches what matters.
#[derive(Debug, Default)]
struct Tally {
    cases: u64,
    slots: u64,
    group_steps: u64,
    /// Group steps whose first slot waited.
    held_steps: u64,
    group_slots: u64,
    declined_static: u64,
    declined_dynamic: u64,
    partial: u64,
    waits: u64,
}

pub(super) fn after(rng: &mut Xorshift64, s: &Slot, executes: bool, n_bundles: usize) -> After {
    let target = rng.index(n_bundles);
    let real_branch = is_branch(s.shape.class) || s.shape.class == T::Chk;
    match rng.below(40) {
        0..=19 if real_branch && executes => After::Taken(target),
        20 => After::Fault(Event::Interruption, target),
        21 if s.shape.class == T::Break && executes => After::Fault(Event::Break, target),
        22 if s.shape.class == T::Rfi && executes => After::Fault(Event::Rfi, target),
        23 | 24 => After::Exit,
        _ => After::Next,
    }
}

/// Events between slots, done to both models alike.
pub(super) fn between(rng: &mut Xorshift64, a: &mut Side, b: &mut Side) -> bool {
    match rng.below(60) {
        0 => {
            let c = rng.below(4);
            a.m.advance(c);
            b.m.advance(c);
        }
        1 => {
            a.m.redirect();
            b.m.redirect();
        }
        2 => {
            let e = [Event::Epc, Event::Interruption, Event::Break, Event::Rfi][rng.index(4)];
            a.m.event(e);
            b.m.event(e);
        }
        3 => perturb(rng, a, b),
        _ => return false,
    }
    true
}

/// A random scoreboard state: some resources of the pool get a producer in the recent past or
/// near future.
pub(super) fn perturb(rng: &mut Xorshift64, a: &mut Side, b: &mut Side) {
    let now = a.m.now();
    for _ in 0..1 + rng.index(4) {
        let res = match rng.below(4) {
            0 => Res::pr(rng.index(8) as u8 + 1),
            1 => Res::br(rng.index(3) as u8),
            _ => Renaming { bank: rng.index(2) as u8, bof: 0 }.res(pick_gr(rng)),
        };
        let cycle = now.saturating_sub(rng.below(3));
        let lat = Latency::all(rng.below(6));
        a.m.board.write(res, cycle, lat);
        b.m.board.write(res, cycle, lat);
    }
}

fn compare(a: &Side, b: &Side, what: &str) {
    assert_eq!(a.m.counts(), b.m.counts(), "{what}: counts");
    assert_eq!(a.m.now(), b.m.now(), "{what}: now");
    assert!(a.m.board == b.m.board, "{what}: scoreboard");
    assert_eq!(a.m.remaining, b.m.remaining, "{what}: remaining");
    assert_eq!(a.m.group.closed, b.m.group.closed, "{what}: closed");
    assert_eq!(a.m.group.open, b.m.group.open, "{what}: open");
}

/// Runs one case; `group` is the side that issues whole groups, `slot` the per-slot one.
fn run_case(rng: &mut Xorshift64, tally: &mut Tally, class_lists: &[(SlotUnit, Vec<T>)], timeline: bool) {
    let params = Itanium2Params::default();
    let mut group = Side { m: Itanium2::new(params.clone(), timeline), itc: Vec::new() };
    let mut slot = Side { m: Itanium2::new(params, timeline), itc: Vec::new() };
    let prog = program(rng, &group.m, class_lists);
    perturb(rng, &mut group, &mut slot);
    let mut renaming = Renaming { bank: rng.index(2) as u8, bof: rng.below(96) as u16 };
    let mut at = (0usize, 0u8);
    let mut steps = 0;
    while steps < 60 && at.0 < prog.bundles.len() {
        steps += 1;
        if between(rng, &mut group, &mut slot) {
            compare(&group, &slot, "after an event");
        }
        let members: Vec<(usize, u8)> = prog.walk(at).take(usize::from(prog.at(at).timing.plan.len)).collect();
        let timings: Vec<SlotTiming> = members.iter().map(|&p| prog.at(p).timing).collect();
        let prepared = if members.len() == usize::from(prog.at(at).timing.plan.len) {
            group.m.prepare_group(&timings)
        } else {
            None
        };
        let opens = !(slot.m.group.open && slot.m.group.closed.is_none());
        if prepared.is_none() && opens {
            tally.declined_static += 1;
        }
        let resolved = prepared.map(|g| g.resolve(|n| renaming.res(n)));
        let began = resolved.as_ref().and_then(|r| {
            let bundle = prog.at(at).shape.bundle;
            group.m.begin_group(r, bundle)
        });
        if let (Some(r), Some(cycle)) = (&resolved, began) {
            tally.group_steps += 1;
            tally.held_steps += u64::from(cycle > slot.m.now());
            let (mut issued, mut executed, mut end) = (0usize, 0u8, After::Next);
            for (k, &p) in members.iter().enumerate() {
                let s = prog.at(p);
                let executes = !s.predicated || rng.below(4) != 0;
                let c = slot.m.issue_prepared(&s.timing, s.shape.bundle, s.shape.slot, executes, |n| renaming.res(n));
                assert_eq!(c, cycle, "slot {k} of a group step");
                slot.settle();
                if executes && s.reads_itc {
                    slot.note_itc(c);
                    group.note_itc(cycle);
                }
                issued = k + 1;
                executed |= u8::from(executes) << k;
                if executes && changes_renaming_class(s.shape.class) {
                    renaming = Renaming { bank: rng.index(2) as u8, bof: rng.below(96) as u16 };
                }
                end = after(rng, s, executes, prog.bundles.len());
                if end != After::Next {
                    break;
                }
            }
            group.m.end_group(r, issued, executed);
            group.settle();
            tally.group_slots += issued as u64;
            tally.slots += issued as u64;
            if issued < members.len() {
                tally.partial += 1;
            }
            at = finish(&mut group, &mut slot, end, &prog, members[issued - 1]);
            compare(&group, &slot, "after a group step");
            continue;
        }
        if resolved.is_some() && opens {
            tally.declined_dynamic += 1;
        }
        // Slot by slot, on both sides.
        let s = prog.at(at);
        let executes = !s.predicated || rng.below(4) != 0;
        let before = slot.m.summary().stalls.values().sum::<u64>();
        let a = group.m.issue_prepared(&s.timing, s.shape.bundle, s.shape.slot, executes, |n| renaming.res(n));
        let b = slot.m.issue_prepared(&s.timing, s.shape.bundle, s.shape.slot, executes, |n| renaming.res(n));
        assert_eq!(a, b, "slot by slot");
        group.settle();
        slot.settle();
        if executes && s.reads_itc {
            group.note_itc(a);
            slot.note_itc(b);
        }
        tally.waits += u64::from(slot.m.summary().stalls.values().sum::<u64>() > before);
        tally.slots += 1;
        if executes && changes_renaming_class(s.shape.class) {
            renaming = Renaming { bank: rng.index(2) as u8, bof: rng.below(96) as u16 };
        }
        let end = after(rng, s, executes, prog.bundles.len());
        at = finish(&mut group, &mut slot, end, &prog, at);
    }
    compare(&group, &slot, "at the end");
    assert_eq!(group.m.summary(), slot.m.summary(), "stall table");
    assert_eq!(group.m.timeline(), slot.m.timeline(), "timeline");
    assert_eq!(group.itc, slot.itc, "ar.itc values");
    tally.cases += 1;
}

pub(super) fn changes_renaming_class(class: T) -> bool {
    super::prepared::changes_renaming(class)
}

/// Applies what followed the slot at `last` to both models and gives the next slot.
pub(super) fn finish(a: &mut Side, b: &mut Side, end: After, prog: &Program, last: (usize, u8)) -> (usize, u8) {
    match end {
        After::Next | After::Exit => prog.next(last),
        After::Taken(to) => {
            a.m.taken_branch();
            b.m.taken_branch();
            (to, 0)
        }
        After::Fault(e, to) => {
            a.m.event(e);
            b.m.event(e);
            (to, 0)
        }
    }
}

pub(super) fn class_lists() -> Vec<(SlotUnit, Vec<T>)> {
    [SlotUnit::M, SlotUnit::I, SlotUnit::F, SlotUnit::B, SlotUnit::L].into_iter().map(|u| (u, classes(u))).collect()
}

#[test]
fn group_step_leaves_the_model_exactly_as_slot_by_slot_issue() {
    let lists = class_lists();
    let mut rng = Xorshift64::new(0x17_6A0F_1A64);
    let mut tally = Tally::default();
    for case in 0..3000 {
        run_case(&mut rng, &mut tally, &lists, case % 50 == 49);
    }
    // The generator must reach what matters: groups that take the step (whole and stopped
    // mid-way), groups declined for static and for dynamic reasons, and slot-by-slot waits.
    assert!(tally.group_steps > 20_000 && tally.partial > 1_000 && tally.held_steps > 300, "{tally:?}");
    assert!(tally.declined_static > 5_000 && tally.declined_dynamic > 1_500, "{tally:?}");
    assert!(tally.waits > 2_000, "{tally:?}");
}

#[test]
fn a_group_that_would_wait_declines_and_changes_nothing() {
    let mut m = Itanium2::new(Itanium2Params::default(), false);
    let planner = m.clone();
    let end = Template::MMI.with_end_stop(true);
    let alu = |slot: u8, srcs: &[Src], dsts: &[Res]| {
        let info = IssueInfo {
            bundle: BASE,
            template: end,
            slot,
            class: T::Alu,
            unit: end.units()[usize::from(slot)],
            nop: false,
            srcs,
            dsts,
            executes: true,
        };
        let regs: Vec<RegOperand> = srcs.iter().map(|s| RegOperand::Fixed(s.res)).collect();
        let dregs: Vec<RegOperand> = dsts.iter().map(|&d| RegOperand::Fixed(d)).collect();
        let mut t = planner.prepare(&info, &regs, &dregs, Plan::default());
        t.plan = Plan { len: 3, two_bundles: false, end: group::Close::Stop };
        t
    };
    let (r8, r9, r10) = (Res::gr_static(8), Res::gr_static(9), Res::gr_static(10));
    let src = |res| Src { res, role: Role::Data, logical: Some(res.index() as u8) };
    // The second slot reads r8, which is late: slot by slot the first slot would get the
    // opening cycle and the rest the held one, so the group declines.
    let slots = [alu(0, &[], &[r10]), alu(1, &[src(r8)], &[r9]), alu(2, &[], &[])];
    let g = planner.prepare_group(&slots).expect("no intra-group read").resolve(|n| Res::gr_static(n & 15));
    m.board.write(r8, 0, Latency::all(3));
    let before = m.clone();
    assert_eq!(m.begin_group(&g, BASE), None);
    assert_eq!((m.counts(), m.board == before.board), (before.counts(), true));
    // Ready by the opening cycle: the group takes the step and ends where slot by slot would.
    m.advance(3);
    let c = m.begin_group(&g, BASE).expect("every live-in ready");
    m.end_group(&g, 3, 0b111);
    assert_eq!(c, 3);
    assert_eq!(m.board.ready(r9, Lane::Data), 3 + Itanium2Params::default().alu);
    assert_eq!(m.counts(), Counts { cycles: 4, instructions: 3, nops: 0, groups: 1 });
    // The same wait in the (unpredicated) first slot holds the whole group before any slot
    // issued: the group takes the step at the held cycle and charges the wait to r8.
    let slots = [alu(0, &[src(r8)], &[r9]), alu(1, &[], &[r10]), alu(2, &[], &[])];
    let g = planner.prepare_group(&slots).expect("no intra-group read").resolve(|n| Res::gr_static(n & 15));
    m.board.write(r8, 4, Latency::all(3));
    let c = m.begin_group(&g, BASE).expect("only the first slot waits");
    m.end_group(&g, 3, 0b111);
    assert_eq!(c, 7);
    assert_eq!(m.board.ready(r10, Lane::Data), 7 + Itanium2Params::default().alu);
    let s = m.summary();
    assert_eq!((s.cycles, s.stalls.values().sum::<u64>()), (8, 3));
}

#[test]
fn an_intra_group_read_through_a_latency_never_takes_the_step() {
    let m = Itanium2::new(Itanium2Params::default(), false);
    let t = Template::MMI.with_end_stop(true);
    let prep = |slot: u8, class: T, srcs: &[Src], dsts: &[Res]| {
        let info = IssueInfo {
            bundle: BASE,
            template: t,
            slot,
            class,
            unit: t.units()[usize::from(slot)],
            nop: false,
            srcs,
            dsts,
            executes: true,
        };
        let regs: Vec<RegOperand> = srcs.iter().map(|s| RegOperand::Fixed(s.res)).collect();
        let dregs: Vec<RegOperand> = dsts.iter().map(|&d| RegOperand::Fixed(d)).collect();
        let mut s = m.prepare(&info, &regs, &dregs, Plan::default());
        s.plan = Plan { len: 3, two_bundles: false, end: group::Close::Stop };
        s
    };
    let p6 = Res::pr(6);
    let pred = |role| Src { res: p6, role, logical: None };
    let cmp = prep(0, T::Compare, &[], &[p6]);
    let nop = prep(1, T::Nop, &[], &[]);
    // compare -> branch: latency 0, allowed; compare -> a predicated ALU op: latency 1, refused.
    let br = {
        let info = IssueInfo {
            bundle: BASE,
            template: Template::MIB,
            slot: 2,
            class: T::Branch,
            unit: SlotUnit::B,
            nop: false,
            srcs: &[pred(Role::BranchPredicate)],
            dsts: &[],
            executes: true,
        };
        m.prepare(&info, &[RegOperand::Fixed(p6)], &[], Plan::default())
    };
    let add = prep(2, T::Alu, &[pred(Role::Predicate)], &[]);
    assert!(m.prepare_group(&[cmp, nop, br]).is_some());
    assert!(m.prepare_group(&[cmp, nop, add]).is_none());
    // A branch (it may rename) is allowed last only.
    assert!(m.prepare_group(&[br, nop, nop]).is_none());
}

#[test]
fn alloc_keeps_every_renaming() {
    // `alloc` is not a renaming-changing instruction for the group step (module doc): every
    // logical register renames to the same resource after it, whatever the frame it resizes.
    use crate::state::rse::RegFile;
    use emu_core::memory::{Endian, Memory, Perms};
    let mut mem = Memory::new(Endian::Little);
    mem.map(0, 0x10_0000, Perms::RW, "rbs").expect("map the backing store");
    let mut rf = RegFile::new();
    let mut rng = Xorshift64::new(0xA11C);
    let mut checked = 0;
    for _ in 0..400 {
        let sof = 1 + rng.below(96) as u8;
        let sol = rng.below(u64::from(sof) + 1) as u8;
        let sor = rng.below(u64::from(sof) / 8 + 1) as u8;
        let before: Vec<Res> = (0..128).map(|n| rf.res(n)).collect();
        if rf.alloc(sof, sol, sor, &mut mem).is_ok() {
            let after: Vec<Res> = (0..128).map(|n| rf.res(n)).collect();
            assert_eq!(before, after, "alloc {sof},{sol},{sor}");
            checked += 1;
        }
        match rng.below(4) {
            0 => {
                rf.call();
            }
            1 => rf.set_rrb(rng.below(8) as u8, 0, 0),
            _ => {}
        }
    }
    assert!(checked > 100, "{checked} allocs done");
}

/// A slot of the bench body: class, sources and destinations with their operands.
type BenchSlot = (T, Vec<(Src, RegOperand)>, Vec<(Res, RegOperand)>);

/// The `acctemu bench` ALU loop body (`traces/bench/ia64_loops.S`) as the model sees it: three
/// groups of three slots, the last ending in a taken `br.cloop`.
fn alu_loop(m: &Itanium2) -> Vec<(u64, Vec<SlotTiming>)> {
    let t = [Template::MII.with_end_stop(true), Template::MII.with_end_stop(true), Template::MIB.with_end_stop(true)];
    let g = |n: u8| (Res::gr_static(n), RegOperand::Fixed(Res::gr_static(n)));
    let data = |n: u8| {
        (Src { res: Res::gr_static(n), role: Role::Data, logical: Some(n) }, RegOperand::Fixed(Res::gr_static(n)))
    };
    let lc = (Src { res: Res::ar(ar::LC), role: Role::Data, logical: None }, RegOperand::Fixed(Res::ar(ar::LC)));
    #[rustfmt::skip]
    let body: [[BenchSlot; 3]; 3] = [
        [(T::Alu, vec![data(8), data(9)], vec![g(8)]), (T::Alu, vec![data(9), data(10)], vec![g(9)]),
         (T::Alu, vec![data(10), data(11)], vec![g(10)])],
        [(T::Alu, vec![data(11), data(8)], vec![g(11)]), (T::Alu, vec![data(8), data(9)], vec![g(15)]),
         (T::Alu, vec![data(9), data(10)], vec![g(16)])],
        [(T::Alu, vec![data(17)], vec![g(17)]), (T::Nop, vec![], vec![]),
         (T::Branch, vec![lc], vec![fixed(Res::ar(ar::LC))])],
    ];
    let mut out = Vec::new();
    for (b, (template, slots)) in t.iter().zip(&body).enumerate() {
        let bundle = BASE + 16 * b as u64;
        let shapes: Vec<SlotShape> = (0u8..3)
            .map(|s| SlotShape {
                bundle,
                template: *template,
                slot: s,
                unit: template.units()[usize::from(s)],
                class: slots[usize::from(s)].0,
            })
            .collect();
        let mut group = Vec::new();
        for (s, (class, srcs, dsts)) in slots.iter().enumerate() {
            let src_list: Vec<Src> = srcs.iter().map(|x| x.0).collect();
            let dst_list: Vec<Res> = dsts.iter().map(|x| x.0).collect();
            let info = IssueInfo {
                srcs: &src_list,
                dsts: &dst_list,
                nop: *class == T::Nop,
                ..IssueInfo::from_shape(&shapes[s])
            };
            let regs: Vec<RegOperand> = srcs.iter().map(|x| x.1).collect();
            let dregs: Vec<RegOperand> = dsts.iter().map(|x| x.1).collect();
            group.push(m.prepare(&info, &regs, &dregs, m.plan(shapes[s..].iter().copied())));
        }
        out.push((bundle, group));
    }
    out
}

impl IssueInfo<'static> {
    fn from_shape(s: &SlotShape) -> IssueInfo<'static> {
        IssueInfo {
            bundle: s.bundle,
            template: s.template,
            slot: s.slot,
            class: s.class,
            unit: s.unit,
            nop: false,
            srcs: &[],
            dsts: &[],
            executes: true,
        }
    }
}

/// Host-instruction driver (run under callgrind, twice with different counts, and take the
/// difference): `ACCTEMU_GROUP_BENCH=slot|group:N` runs N iterations of the ALU loop body
/// through `issue_prepared` slot by slot or through `begin_group`/`end_group`.
#[test]
#[ignore = "a callgrind driver, not a test"]
fn group_issue_callgrind_driver() {
    let spec = std::env::var("ACCTEMU_GROUP_BENCH").unwrap_or_else(|_| "group:1000".to_string());
    let (mode, n) = spec.split_once(':').expect("mode:N");
    let n: u64 = n.parse().expect("N");
    let mut m = Itanium2::new(Itanium2Params::default(), false);
    let body = alu_loop(&m);
    let groups: Vec<(u64, ResolvedGroup)> = body
        .iter()
        .map(|(b, slots)| (*b, m.prepare_group(slots).expect("plannable").resolve(|r| Res::gr_static(r & 15))))
        .collect();
    let groups = std::hint::black_box(groups);
    let body = std::hint::black_box(body);
    let rename = |r: u8| Res::gr_static(r & 15);
    for _ in 0..n {
        if mode == "slot" {
            for (b, slots) in &body {
                for (s, t) in (0u8..).zip(slots) {
                    std::hint::black_box(m.issue_prepared(t, *b, s, true, rename));
                }
            }
        } else {
            for (b, g) in &groups {
                let c = m.begin_group(g, *b).expect("no wait");
                std::hint::black_box(c);
                m.end_group(g, 3, 0b111);
            }
        }
        m.taken_branch();
    }
    let c = m.counts();
    assert_eq!(c.instructions, 9 * n);
    assert_eq!(c.cycles, n * (3 + Itanium2Params::default().taken_branch_bubble));
    std::hint::black_box(c);
}
