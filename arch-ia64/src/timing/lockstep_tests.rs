//! Lockstep issue (issue 15): an issue group moves as one, so the order of the slots inside a
//! group never changes the cycles. The property test builds many groups from the table's rows,
//! with producers of every latency behind them or none, and times every permutation of their
//! slots that keeps the same issue groups (M contents among M slots, I among I slots, inside one
//! issue group; a permutation that changes where the group splits is not the same code).

use super::*;
use crate::regs::{ar, cr};
use crate::table::{table, Flags, TimingClass as T, Unit};
use emu_core::rng::Xorshift64;

const B0: u64 = 0x1000;
const B1: u64 = 0x1010;

fn gr(n: u8) -> Res {
    Res::gr_stacked(u16::from(n.saturating_sub(32)))
}

fn src(n: u8, role: Role) -> Src {
    Src { res: gr(n), role, logical: Some(n) }
}

fn at(bundle: u64, template: Template, slot: u8, class: T) -> IssueInfo<'static> {
    let unit = template.units().get(usize::from(slot)).copied().unwrap_or(SlotUnit::M);
    IssueInfo { bundle, template, slot, class, unit, nop: class == T::Nop, srcs: &[], dsts: &[], executes: true }
}

#[test]
fn mov_ar_bsp_starts_its_latency_with_its_group_in_either_slot_order() {
    // Seed 004's V.2 exit in miniature: `mov r19=ar.bsp` (12) and `st8 [r14]=r22` share a group
    // and the st8 waits for r22 (read from ar.itc, 36). In lockstep the ar.bsp read issues with
    // the st8, so its consumer waits 36 + 12 after the ar.itc read in both orders.
    let end = Template::MMI.with_end_stop(true);
    let itc = [Src { res: Res::ar(ar::ITC), role: Role::Data, logical: None }];
    let bsp = [Src { res: Res::ar(ar::BSP), role: Role::Data, logical: None }];
    let st8 = [src(34, Role::Address), src(52, Role::StoreData)];
    for bsp_first in [true, false] {
        let mut m = Itanium2::new(Itanium2Params::default(), true);
        let c0 = m.issue(&IssueInfo { srcs: &itc, dsts: &[gr(52)], ..at(B0, end, 0, T::MovFromArM) });
        m.issue(&at(B0, end, 1, T::Nop));
        m.issue(&at(B0, end, 2, T::Nop));
        let read = IssueInfo { srcs: &bsp, dsts: &[gr(51)], ..at(B1, end, 0, T::MovFromArM) };
        let store = IssueInfo { srcs: &st8, ..at(B1, end, 0, T::Store) };
        let (first, second) = if bsp_first { (read, store) } else { (store, read) };
        m.issue(&first);
        m.issue(&IssueInfo { slot: 1, ..second });
        m.issue(&at(B1, end, 2, T::Nop));
        let use_ = [src(51, Role::Data)];
        let c = m.issue(&IssueInfo { srcs: &use_, ..at(B1 + 16, end, 0, T::Alu) });
        let p = Itanium2Params::default();
        assert_eq!(c, c0 + p.from_ar_itc + p.from_ar_rse, "bsp first: {bsp_first}");
        assert_eq!(m.timeline().map(|t| t.groups[1].first_cycle), Some(c0 + p.from_ar_itc));
    }
}

#[test]
fn a_split_issue_holds_each_part_on_its_own() {
    // A third load splits the group; the rest (the third load) waits for r40 (36). The first
    // part keeps its cycle: its ar.bsp read's consumer waits only the 12 from the first part.
    let mut m = Itanium2::new(Itanium2Params::default(), true);
    let end = Template::MMI.with_end_stop(true);
    let itc = [Src { res: Res::ar(ar::ITC), role: Role::Data, logical: None }];
    let c0 = m.issue(&IssueInfo { srcs: &itc, dsts: &[gr(40)], ..at(B0, end, 0, T::MovFromArM) });
    m.issue(&at(B0, end, 1, T::Nop));
    m.issue(&at(B0, end, 2, T::Nop));
    let bsp = [Src { res: Res::ar(ar::BSP), role: Role::Data, logical: None }];
    let c1 = m.issue(&IssueInfo { srcs: &bsp, dsts: &[gr(41)], ..at(B1, Template::MMI, 0, T::MovFromArM) });
    m.issue(&at(B1, Template::MMI, 1, T::Load));
    m.issue(&at(B1, Template::MMI, 2, T::Nop));
    let b2 = B1 + 16;
    m.issue(&at(b2, end, 0, T::Load));
    let c2 = m.issue(&IssueInfo { srcs: &[src(40, Role::Address)], ..at(b2, end, 1, T::Load) });
    assert_eq!(c1, c0 + 1);
    assert_eq!(c2, c0 + Itanium2Params::default().load_to_address.max(Itanium2Params::default().from_ar_itc));
    m.issue(&at(b2, end, 2, T::Nop));
    assert_eq!(m.board.ready(gr(41), Lane::Data), c1 + Itanium2Params::default().from_ar_rse);
}

/// One slot's contents in a generated group.
#[derive(Debug, Clone)]
struct Content {
    class: T,
    srcs: Vec<Src>,
    dsts: Vec<Res>,
    executes: bool,
}

/// The classes the table's rows put in a slot of `unit`, one entry per row, without those that
/// end or must start a group by themselves (their place in the group is fixed by rule).
fn row_classes(unit: SlotUnit) -> Vec<T> {
    let fixed = |c: T| {
        matches!(c, T::Atomic | T::Fence | T::Invala | T::Serialize | T::Epc | T::Alloc | T::Rse | T::Break | T::Chk)
            || scoreboard::is_branch(c)
    };
    table()
        .forms
        .iter()
        .filter(|f| !f.flags.has(Flags::FIRST) && !f.flags.has(Flags::LAST) && !fixed(f.timing))
        .filter(|f| match unit {
            SlotUnit::M => matches!(f.unit, Unit::M | Unit::A),
            SlotUnit::I => matches!(f.unit, Unit::I | Unit::A),
            _ => false,
        })
        .map(|f| f.timing)
        .collect()
}

/// A source register for an AR or CR move, so those rows get their register-dependent latency.
fn system_source(rng: &mut Xorshift64, class: T) -> Option<Src> {
    let res = match class {
        T::MovFromArM => Res::ar([ar::BSP, ar::ITC, ar::UNAT, ar::K6, ar::RSC][rng.index(5)]),
        T::MovFromCr => Res::cr([cr::IPSR, cr::IIP, cr::IVR][rng.index(3)]),
        _ => return None,
    };
    Some(Src { res, role: Role::Data, logical: None })
}

/// Whether a class produces a register value a later instruction could wait for.
fn has_result(class: T) -> bool {
    !matches!(class, T::Store | T::FpStore | T::Nop | T::Fc | T::Lfetch | T::MovToPsr | T::PsrMask)
}

/// A slot of `class` reading some of `pool` (producers' registers) and writing `fresh`.
fn content(rng: &mut Xorshift64, class: T, pool: &[u8], fresh: u8) -> Content {
    let mut srcs: Vec<Src> = system_source(rng, class).into_iter().collect();
    for _ in 0..rng.index(3) {
        if let Some(&n) = pool.get(rng.index(pool.len().max(1))) {
            let role = match class {
                T::Load | T::FpLoad | T::Lfetch => Role::Address,
                T::Store | T::FpStore if rng.bool() => Role::Address,
                T::Store | T::FpStore => Role::StoreData,
                _ => Role::Data,
            };
            srcs.push(src(n, role));
        }
    }
    let executes = rng.below(4) != 0;
    if !executes {
        srcs.push(Src { res: Res::pr(6), role: Role::Predicate, logical: None });
    }
    let dsts = if has_result(class) { vec![gr(fresh)] } else { Vec::new() };
    Content { class, srcs, dsts, executes }
}

/// A generated case: producers (one per group, in order), then the two-bundle group under test.
#[derive(Debug, Clone)]
struct Case {
    producers: Vec<Content>,
    templates: [Template; 2],
    slots: Vec<Content>,
}

impl Case {
    /// (bundle, template, slot, unit) of the tested slots in program order.
    fn places(&self) -> Vec<(u64, Template, u8, SlotUnit)> {
        let mut out = Vec::new();
        for (b, &t) in [B1, B1 + 16].iter().zip(&self.templates) {
            for (s, &u) in (0u8..).zip(t.units().iter()) {
                out.push((*b, t, s, u));
            }
        }
        out
    }

    /// The issue-group lengths the tested slots form.
    fn groups(&self, slots: &[Content]) -> Vec<u8> {
        let shapes: Vec<SlotShape> = self
            .places()
            .iter()
            .zip(slots)
            .map(|(&(bundle, template, slot, unit), c)| SlotShape { bundle, template, slot, unit, class: c.class })
            .collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < shapes.len() {
            let len = usize::from(plan(shapes[i..].iter().copied(), 2).len).max(1);
            out.push(len as u8);
            i += len;
        }
        out
    }

    /// Runs the case with the tested slots in `slots` order; returns what must not depend on it.
    fn run(&self, slots: &[Content]) -> Outcome {
        let mut m = Itanium2::new(Itanium2Params::default(), true);
        let end = Template::MMI.with_end_stop(true);
        for (k, p) in self.producers.iter().enumerate() {
            let b = 0x100 + 16 * k as u64;
            m.issue(&IssueInfo { srcs: &p.srcs, dsts: &p.dsts, executes: p.executes, ..at(b, end, 0, p.class) });
            m.issue(&at(b, end, 1, T::Nop));
            m.issue(&at(b, end, 2, T::Nop));
        }
        let mut last = 0;
        // held-group ITC (issue 15): the value each executed ar.itc read ends up with, by the
        // reader's destination, and the cycle each tested slot was given.
        let mut itc: Vec<(Res, u64, usize)> = Vec::new();
        let mut cycles = Vec::new();
        for (k, (&(bundle, template, slot, unit), c)) in self.places().iter().zip(slots).enumerate() {
            let info = IssueInfo {
                bundle,
                template,
                slot,
                class: c.class,
                unit,
                nop: c.class == T::Nop,
                srcs: &c.srcs,
                dsts: &c.dsts,
                executes: c.executes,
            };
            let cycle = m.issue(&info);
            last = last.max(cycle);
            cycles.push(cycle);
            m.settle_clock_uses(|what, held| {
                if let Some(read) = match what {
                    ClockUse::Read(n) => itc.get_mut(usize::from(n)),
                    ClockUse::Write => None,
                } {
                    read.1 += held;
                }
            });
            if c.executes && reads_itc(c) {
                m.note_clock_use(ClockUse::Read(itc.len() as u8));
                itc.push((c.dsts[0], cycle, k));
            }
        }
        // Every read sees its whole issue group's cycle: that of the group's last slot.
        let ends: Vec<usize> = self
            .groups(slots)
            .iter()
            .scan(0, |end, &len| {
                *end += usize::from(len);
                Some(*end - 1)
            })
            .collect();
        let held = itc.iter().filter(|&&(_, v, k)| v > cycles[k]).count();
        for &(_, v, k) in &itc {
            let end = ends.iter().copied().find(|&e| e >= k).unwrap_or(k);
            assert_eq!(v, cycles[end], "ar.itc read in slot {k} against its group's last slot {end}");
        }
        let mut itc: Vec<(usize, u64)> = itc.iter().map(|&(r, v, _)| (r.index(), v)).collect();
        itc.sort_unstable();
        let mut ready: Vec<(Res, [u64; 3])> = slots
            .iter()
            .flat_map(|c| c.dsts.iter().copied())
            .map(|r| (r, [Lane::Data, Lane::Address, Lane::Branch].map(|l| m.board.ready(r, l))))
            .collect();
        ready.sort_by_key(|(r, _)| r.index());
        let s = m.summary();
        let starts = m.timeline().map(|t| t.groups.iter().map(|g| g.first_cycle).collect()).unwrap_or_default();
        Outcome { now: m.now(), last, ready, stalled: s.stalls.values().sum(), groups: s.groups, starts, itc, held }
    }
}

/// Whether a slot reads ar.itc (held-group ITC, issue 15).
fn reads_itc(c: &Content) -> bool {
    c.class == T::MovFromArM && c.srcs.iter().any(|s| s.res == Res::ar(ar::ITC)) && !c.dsts.is_empty()
}

/// What a permutation inside issue groups must leave unchanged.
#[derive(Debug)]
struct Outcome {
    now: u64,
    last: u64,
    ready: Vec<(Res, [u64; 3])>,
    stalled: u64,
    groups: u64,
    starts: Vec<u64>,
    /// Held-group ITC (issue 15): the value each ar.itc read got, by destination.
    itc: Vec<(usize, u64)>,
    /// How many of those reads a later slot of their group held (not compared).
    held: usize,
}

impl PartialEq for Outcome {
    fn eq(&self, o: &Outcome) -> bool {
        (self.now, self.last, &self.ready, self.stalled, self.groups, &self.starts, &self.itc)
            == (o.now, o.last, &o.ready, o.stalled, o.groups, &o.starts, &o.itc)
    }
}

fn generate(rng: &mut Xorshift64, m_rows: &[T], i_rows: &[T]) -> Case {
    let producer_rows: Vec<T> = m_rows.iter().chain(i_rows).copied().filter(|&c| has_result(c)).collect();
    let producers: Vec<Content> = (0..rng.index(5))
        .map(|k| {
            let class = producer_rows[rng.index(producer_rows.len())];
            let mut p = content(rng, class, &[], 40 + k as u8);
            p.executes = true;
            p.srcs.retain(|s| s.role != Role::Predicate);
            p.dsts = vec![gr(40 + k as u8)];
            p
        })
        .collect();
    let pool: Vec<u8> = (0..producers.len() as u8).map(|k| 40 + k).collect();
    let shapes = [Template::MMI, Template::MII, Template::MFI, Template::MMF];
    let templates = [shapes[rng.index(4)], shapes[rng.index(4)].with_end_stop(true)];
    let mut slots = Vec::new();
    for (k, &t) in templates.iter().enumerate() {
        for (s, &u) in t.units().iter().enumerate() {
            let fresh = 64 + (3 * k + s) as u8;
            slots.push(match u {
                SlotUnit::M => {
                    let class = m_rows[rng.index(m_rows.len())];
                    content(rng, class, &pool, fresh)
                }
                SlotUnit::I => {
                    let class = i_rows[rng.index(i_rows.len())];
                    content(rng, class, &pool, fresh)
                }
                _ => Content { class: T::Nop, srcs: Vec::new(), dsts: Vec::new(), executes: true },
            });
        }
    }
    // Held-group ITC (issue 15): one case in three gets an ar.itc read in an M slot (the table
    // has one such row among a hundred), so that reads held by a later slot are common.
    let m_places: Vec<usize> = templates
        .iter()
        .flat_map(|t| t.units())
        .enumerate()
        .filter(|(_, u)| *u == SlotUnit::M)
        .map(|(i, _)| i)
        .collect();
    if rng.below(3) == 0 && !m_places.is_empty() {
        let at = m_places[rng.index(m_places.len())];
        let itc = Src { res: Res::ar(ar::ITC), role: Role::Data, logical: None };
        slots[at] = Content { class: T::MovFromArM, srcs: vec![itc], dsts: vec![gr(64 + at as u8)], executes: true };
    }
    Case { producers, templates, slots }
}

/// Every ordering of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let rest: Vec<usize> = items.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x).collect();
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

#[test]
fn permuting_slots_inside_an_issue_group_never_changes_cycles_or_itc_values() {
    let (m_rows, i_rows) = (row_classes(SlotUnit::M), row_classes(SlotUnit::I));
    assert!(m_rows.len() > 50 && i_rows.len() > 50, "the table's M and I rows");
    let mut rng = Xorshift64::new(0x15_1A64_0C4B);
    let (mut cases, mut checked, mut waited, mut held) = (0, 0, 0, 0);
    while cases < 600 {
        let case = generate(&mut rng, &m_rows, &i_rows);
        cases += 1;
        let base = case.run(&case.slots);
        waited += u64::from(base.stalled > 0);
        held += base.held;
        let groups = case.groups(&case.slots);
        let units: Vec<SlotUnit> = case.places().iter().map(|p| p.3).collect();
        let mut start = 0;
        for &len in &groups {
            let range = start..start + usize::from(len);
            start += usize::from(len);
            for unit in [SlotUnit::M, SlotUnit::I] {
                let members: Vec<usize> = range.clone().filter(|&i| units[i] == unit).collect();
                for order in permutations(&members) {
                    let mut slots = case.slots.clone();
                    for (&to, &from) in members.iter().zip(&order) {
                        slots[to] = case.slots[from].clone();
                    }
                    if case.groups(&slots) != groups {
                        continue; // e.g. an I0-only op moved to the second I slot: another split
                    }
                    checked += 1;
                    assert_eq!(case.run(&slots), base, "{case:#?}\nslots {order:?} of {members:?}");
                }
            }
        }
    }
    // The generator must reach the cases that matter: groups that wait, and real reorderings.
    assert!(waited > 150 && checked > 5000, "{waited} waiting cases, {checked} permutations");
    // ... and ar.itc reads that a later slot of their group holds (held-group ITC, issue 15).
    assert!(held > 20, "{held} held ar.itc reads");
}
