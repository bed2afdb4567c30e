//! Each test pins one rule of the model (see the module doc) on a small hand-made sequence.
//! Expected cycles are stated relative to the first issue and derived from the rule and the
//! parameter it uses, never as a bare total.

use super::*;
use crate::regs::{ar, cr};
use crate::table::TimingClass as T;

const B0: u64 = 0x1000;
const B1: u64 = 0x1010;
const B2: u64 = 0x1020;

fn p() -> Itanium2Params {
    Itanium2Params::default()
}

fn model() -> Itanium2 {
    Itanium2::new(p(), true)
}

/// A slot with no registers, executing.
fn at(bundle: u64, template: Template, slot: u8, class: T) -> IssueInfo<'static> {
    let unit = template.units().get(usize::from(slot)).copied().unwrap_or(SlotUnit::M);
    IssueInfo { bundle, template, slot, class, unit, nop: class == T::Nop, srcs: &[], dsts: &[], executes: true }
}

fn gr(n: u8) -> Res {
    if n < 16 {
        Res::gr_static(n)
    } else {
        Res::gr_banked(n, 1)
    }
}

fn src(n: u8, role: Role) -> Src {
    Src { res: gr(n), role, logical: Some(n) }
}

/// Issues all three slots of an MII-shaped nop bundle after `slot`.
fn nops_after(m: &mut Itanium2, bundle: u64, template: Template, slot: u8) {
    for s in slot + 1..3 {
        m.issue(&at(bundle, template, s, T::Nop));
    }
}

fn stall(m: &Itanium2, key: &str) -> u64 {
    m.summary().stalls.get(key).copied().unwrap_or(0)
}

#[test]
fn two_m2_only_ops_in_one_group_take_two_cycles() {
    // Rule: AR/CR moves are M2-only; only one issues per cycle ([KAPI] SYST_M2).
    let mut m = model();
    let k6 = [Src { res: Res::ar(ar::K6), role: Role::Data, logical: None }];
    let ipsr = [Src { res: Res::cr(cr::IPSR), role: Role::Data, logical: None }];
    let c0 = m.issue(&IssueInfo { srcs: &k6, dsts: &[gr(16)], ..at(B0, Template::MMI, 0, T::MovFromArM) });
    let c1 = m.issue(&IssueInfo { srcs: &ipsr, dsts: &[gr(17)], ..at(B0, Template::MMI, 1, T::MovFromCr) });
    assert_eq!(c1, c0 + 1);
    assert_eq!(stall(&m, "port M2 busy"), 1);
}

#[test]
fn m_slots_are_reordered_to_reach_their_ports() {
    // Rule: M-slot ops may be reordered across subtypes: an A-type op first does not take the
    // M0 that a following srlz needs.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MMI, 0, T::Alu));
    let c1 = m.issue(&at(B0, Template::MMI, 1, T::Serialize));
    assert_eq!(c1, c0);
}

#[test]
fn load_to_address_waits_two_load_to_alu_one() {
    // Rule: load -> address of a load is load_to_address (2); load -> ALU operand is load (1).
    let mut m = model();
    let end = Template::MMI.with_end_stop(true);
    let c0 = m.issue(&IssueInfo { srcs: &[src(32, Role::Address)], dsts: &[gr(16)], ..at(B0, end, 0, T::Load) });
    nops_after(&mut m, B0, end, 0);
    let chase = [src(16, Role::Address)];
    let c1 = m.issue(&IssueInfo { srcs: &chase, dsts: &[gr(17)], ..at(B1, end, 0, T::Load) });
    assert_eq!(c1, c0 + p().load_to_address);
    // The stop alone puts the consumer one cycle later, so one of the two cycles is a stall.
    assert_eq!(stall(&m, "dependency on r16"), p().load_to_address - 1);
    nops_after(&mut m, B1, end, 0);
    let use_ = [src(17, Role::Data)];
    let c2 = m.issue(&IssueInfo { srcs: &use_, dsts: &[gr(18)], ..at(B2, end, 0, T::Alu) });
    assert_eq!(c2, c1 + p().load);
    assert_eq!(stall(&m, "dependency on r17"), 0);
}

#[test]
fn mov_from_itc_then_use_waits_36() {
    // Rule: mov r=ar.itc has from_ar_itc (36, [FSYS]) latency.
    let mut m = model();
    let end = Template::MMI.with_end_stop(true);
    let itc = [Src { res: Res::ar(ar::ITC), role: Role::Data, logical: None }];
    let c0 = m.issue(&IssueInfo { srcs: &itc, dsts: &[gr(30)], ..at(B0, end, 0, T::MovFromArM) });
    nops_after(&mut m, B0, end, 0);
    let c1 = m.issue(&IssueInfo { srcs: &[src(30, Role::Data)], dsts: &[gr(31)], ..at(B1, end, 0, T::Alu) });
    assert_eq!(p().from_ar_itc, 36);
    assert_eq!(c1, c0 + 36);
}

#[test]
fn ar_k_read_waits_12() {
    // Rule: mov r=ar.k* has from_ar_k (12, [IVT]) latency; the use is named by its logical GR.
    let mut m = model();
    let end = Template::MMI.with_end_stop(true);
    let k6 = [Src { res: Res::ar(ar::K6), role: Role::Data, logical: None }];
    let c0 = m.issue(&IssueInfo { srcs: &k6, dsts: &[gr(16)], ..at(B0, end, 0, T::MovFromArM) });
    nops_after(&mut m, B0, end, 0);
    let c1 = m.issue(&IssueInfo { srcs: &[src(16, Role::Data)], dsts: &[gr(1)], ..at(B1, end, 0, T::Alu) });
    assert_eq!(c1, c0 + 12);
    assert_eq!(stall(&m, "dependency on r16"), 12 - 1);
}

#[test]
fn cr_iip_read_is_fast_cr_ipsr_slow() {
    // Rule: the CR read latency depends on the register: cr.iip 2, cr.ipsr 12 ([IVT]).
    for (reg, lat) in [(cr::IIP, p().from_cr_fast), (cr::IPSR, p().from_cr_slow)] {
        let mut m = model();
        let end = Template::MMI.with_end_stop(true);
        let from = [Src { res: Res::cr(reg), role: Role::Data, logical: None }];
        let c0 = m.issue(&IssueInfo { srcs: &from, dsts: &[gr(16)], ..at(B0, end, 0, T::MovFromCr) });
        nops_after(&mut m, B0, end, 0);
        let c1 = m.issue(&IssueInfo { srcs: &[src(16, Role::Data)], ..at(B1, end, 0, T::Alu) });
        assert_eq!(c1, c0 + lat);
    }
}

#[test]
fn mbb_as_first_bundle_splits_after_it() {
    // Rule: MBB as the first bundle always splits after it ([GCC] exclusion_set, [KAPI]).
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MBB, 0, T::Alu));
    nops_after(&mut m, B0, Template::MBB, 0);
    let c1 = m.issue(&at(B1, Template::MMI, 0, T::Alu));
    assert_eq!(c1, c0 + 1);
    assert_eq!(stall(&m, "split issue: MBB first"), 1);
}

#[test]
fn compare_then_branch_in_one_group_has_no_stall() {
    // Rule: compare -> branch predicate is cmp_to_branch (0): they share a group.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MIB, 0, T::Nop));
    let c1 = m.issue(&IssueInfo {
        srcs: &[src(8, Role::Data)],
        dsts: &[Res::pr(6), Res::pr(7)],
        ..at(B0, Template::MIB, 1, T::Compare)
    });
    let pred = [Src { res: Res::pr(6), role: Role::BranchPredicate, logical: None }];
    let c2 = m.issue(&IssueInfo { srcs: &pred, ..at(B0, Template::MIB, 2, T::Branch) });
    assert_eq!((c1, c2), (c0, c0));
    assert!(m.summary().stalls.is_empty());
}

#[test]
fn compare_then_non_branch_use_waits_1() {
    // Rule: compare -> qualifying predicate of a non-branch is cmp_to_other (1).
    let mut m = model();
    let c0 = m.issue(&IssueInfo { dsts: &[Res::pr(6), Res::pr(7)], ..at(B0, Template::MII, 0, T::Compare) });
    let pred = [Src { res: Res::pr(6), role: Role::Predicate, logical: None }];
    let c1 = m.issue(&IssueInfo { srcs: &pred, ..at(B0, Template::MII, 1, T::Alu) });
    assert_eq!(c1, c0 + p().cmp_to_other);
    assert_eq!(stall(&m, "dependency on p6"), 1);
}

#[test]
fn dependency_delays_the_rest_of_the_group() {
    // Rule: a waiting instruction holds its whole issue group; later slots issue with it.
    let mut m = model();
    let c0 = m.issue(&IssueInfo { dsts: &[Res::pr(6)], ..at(B0, Template::MII, 0, T::Compare) });
    let pred = [Src { res: Res::pr(6), role: Role::Predicate, logical: None }];
    let c1 = m.issue(&IssueInfo { srcs: &pred, ..at(B0, Template::MII, 1, T::Alu) });
    let c2 = m.issue(&at(B0, Template::MII, 2, T::Alu));
    assert_eq!((c1, c2), (c0 + 1, c0 + 1));
    assert_eq!(m.summary().groups, 1);
}

#[test]
fn predicated_off_instruction_waits_only_for_its_predicate() {
    // Rule: a predicated-off instruction reads only its qualifying predicate.
    let mut m = model();
    let end = Template::MMI.with_end_stop(true);
    let itc = [Src { res: Res::ar(ar::ITC), role: Role::Data, logical: None }];
    let c0 = m.issue(&IssueInfo { srcs: &itc, dsts: &[gr(30)], ..at(B0, end, 0, T::MovFromArM) });
    nops_after(&mut m, B0, end, 0);
    let srcs = [Src { res: Res::pr(9), role: Role::Predicate, logical: None }, src(30, Role::Data)];
    let c1 = m.issue(&IssueInfo { srcs: &srcs, executes: false, ..at(B1, end, 0, T::Alu) });
    assert_eq!(c1, c0 + 1);
}

#[test]
fn third_load_in_one_cycle_waits() {
    // Rule: loads issue only on M0/M1, so a third load in the window goes to the next cycle.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MMI, 0, T::Load));
    assert_eq!(m.issue(&at(B0, Template::MMI, 1, T::Load)), c0);
    m.issue(&at(B0, Template::MMI, 2, T::Nop));
    let c3 = m.issue(&at(B1, Template::MMI, 0, T::Load));
    assert_eq!(c3, c0 + 1);
    assert_eq!(stall(&m, "port M0/M1 busy"), 1);
}

#[test]
fn lfetch_shares_the_load_ports_and_its_base_update_is_ready_next_cycle() {
    // Rule: lfetch issues on M0/M1 like a load (reference section 1, [KAPI]), so a load after
    // two lfetches waits; its only result, the post-increment base, has the base-update latency.
    let mut m = model();
    let c0 =
        m.issue(&IssueInfo { srcs: &[src(32, Role::Address)], dsts: &[gr(32)], ..at(B0, Template::MMI, 0, T::Lfetch) });
    assert_eq!(m.issue(&at(B0, Template::MMI, 1, T::Lfetch)), c0);
    m.issue(&at(B0, Template::MMI, 2, T::Nop));
    let c3 = m.issue(&at(B1, Template::MMI, 0, T::Load));
    assert_eq!(c3, c0 + 1);
    assert_eq!(stall(&m, "port M0/M1 busy"), 1);
    let mut m = model();
    let end = Template::MMI.with_end_stop(true);
    let c0 = m.issue(&IssueInfo { srcs: &[src(32, Role::Address)], dsts: &[gr(32)], ..at(B0, end, 0, T::Lfetch) });
    nops_after(&mut m, B0, end, 0);
    let c1 = m.issue(&IssueInfo { srcs: &[src(32, Role::Data)], dsts: &[gr(33)], ..at(B1, end, 0, T::Alu) });
    assert_eq!(c1, c0 + p().base_update);
}

#[test]
fn both_targets_of_an_fp_load_pair_have_the_fp_load_latency() {
    // Rule: ldfp's two FR results are loaded data (reference section 2, "flda/fldp 6"); only the
    // GR destination, the post-increment base, has the base-update latency.
    let mut m = model();
    let end = Template::MMI.with_end_stop(true);
    let dsts = [Res::fr(6), Res::fr(7), gr(32)];
    let c0 = m.issue(&IssueInfo { srcs: &[src(32, Role::Address)], dsts: &dsts, ..at(B0, end, 0, T::FpLoad) });
    nops_after(&mut m, B0, end, 0);
    let f7 = Src { res: Res::fr(7), role: Role::Data, logical: Some(7) };
    let c1 = m.issue(&IssueInfo { srcs: &[f7], dsts: &[Res::fr(8)], ..at(B1, end, 0, T::Fma) });
    assert_eq!(c1, c0 + p().fp_load, "f2 of the pair");
    let mut m = model();
    let c0 = m.issue(&IssueInfo { srcs: &[src(32, Role::Address)], dsts: &dsts, ..at(B0, end, 0, T::FpLoad) });
    nops_after(&mut m, B0, end, 0);
    let c1 = m.issue(&IssueInfo { srcs: &[src(32, Role::Data)], dsts: &[gr(33)], ..at(B1, end, 0, T::Alu) });
    assert_eq!(c1, c0 + p().base_update, "the base");
}

#[test]
fn two_i0_only_ops_split() {
    // Rule: mov r=pr and mov r=b are I0-only; I slots take I0 then I1 in order.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MII, 0, T::Nop));
    assert_eq!(m.issue(&at(B0, Template::MII, 1, T::MovFromPr)), c0);
    let c2 = m.issue(&at(B0, Template::MII, 2, T::MovFromBr));
    assert_eq!(c2, c0 + 1);
    assert_eq!(stall(&m, "port I0 busy"), 1);
}

#[test]
fn nops_take_ports_so_mii_mii_splits_at_the_third_i_slot() {
    // Rule: nops occupy a port of their slot type; two MII need four I ports, there are two.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MII, 0, T::Nop));
    nops_after(&mut m, B0, Template::MII, 0);
    assert_eq!(m.issue(&at(B1, Template::MII, 0, T::Nop)), c0);
    assert_eq!(m.issue(&at(B1, Template::MII, 1, T::Nop)), c0 + 1);
    assert_eq!(stall(&m, "port I0/I1 busy"), 1);
}

#[test]
fn mlx_as_second_bundle_after_mii_splits() {
    // Rule: [GCC] allows MLX as the second bundle only after MMI, MFI, MMF, MIB, MMB, MFB or MLX.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MII, 0, T::Nop));
    nops_after(&mut m, B0, Template::MII, 0);
    // The pair rule refuses the whole MLX bundle, from its M slot on.
    assert_eq!(m.issue(&at(B1, Template::MLX, 0, T::Nop)), c0 + 1);
    assert_eq!(stall(&m, "split issue: MLX second"), 1);

    // After MMI it pairs: the L+X takes I1.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MMI, 0, T::Nop));
    nops_after(&mut m, B0, Template::MMI, 0);
    m.issue(&at(B1, Template::MLX, 0, T::Nop));
    let c1 = m.issue(&IssueInfo { dsts: &[gr(8)], ..at(B1, Template::MLX, 1, T::Movl) });
    assert_eq!(c1, c0);
}

#[test]
fn mlx_second_half_is_not_another_instruction() {
    // Rule: a second call for the same MLX bundle's L/X half costs nothing and counts nothing.
    let mut m = model();
    m.issue(&at(B0, Template::MLX, 0, T::Nop));
    let c1 = m.issue(&at(B0, Template::MLX, 1, T::Movl));
    let c2 = m.issue(&at(B0, Template::MLX, 2, T::Movl));
    assert_eq!(c1, c2);
    assert_eq!(m.summary().instructions, 2);
}

#[test]
fn stop_bits_end_groups() {
    // Rule: a stop (mid-bundle in MI;;I, or at the end) ends the group; no stall is charged.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MI_I, 0, T::Alu));
    assert_eq!(m.issue(&at(B0, Template::MI_I, 1, T::Alu)), c0);
    assert_eq!(m.issue(&at(B0, Template::MI_I, 2, T::Alu)), c0 + 1);
    let end = Template::MMI.with_end_stop(true);
    let c3 = m.issue(&at(B1, end, 0, T::Alu));
    assert_eq!(c3, c0 + 1);
    nops_after(&mut m, B1, end, 0);
    assert_eq!(m.issue(&at(B2, Template::MMI, 0, T::Alu)), c0 + 2);
    assert!(m.summary().stalls.is_empty());
    assert_eq!(m.summary().groups, 3);
}

#[test]
fn window_holds_two_bundles() {
    // Rule: at most two bundles disperse per cycle; a third bundle starts a new cycle, no stall.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MMI, 0, T::Alu));
    nops_after(&mut m, B0, Template::MMI, 0);
    m.issue(&at(B1, Template::MFI, 0, T::Alu));
    nops_after(&mut m, B1, Template::MFI, 0);
    assert_eq!(m.issue(&at(B2, Template::MMI, 0, T::Alu)), c0 + 1);
    assert!(m.summary().stalls.is_empty());
}

#[test]
fn real_branch_in_b2_splits_after_its_bundle() {
    // Rule: a real branch in the B slot of MIB goes to B2 and ends the bundle pair.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MIB, 0, T::Nop));
    m.issue(&at(B0, Template::MIB, 1, T::Nop));
    m.issue(&at(B0, Template::MIB, 2, T::Branch));
    assert_eq!(m.issue(&at(B1, Template::MMI, 0, T::Alu)), c0 + 1);
    assert_eq!(stall(&m, "split issue: branch in B2"), 1);
}

#[test]
fn semaphore_has_an_implicit_stop_after() {
    // Rule: [KAPI] IMPLICIT_STOP_AFTER for xchg/cmpxchg/fetchadd.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MMI, 0, T::Atomic));
    assert_eq!(m.issue(&at(B0, Template::MMI, 1, T::Alu)), c0 + 1);
    assert_eq!(stall(&m, "split issue: after semaphore"), 1);
}

#[test]
fn taken_branch_adds_the_bubble() {
    // Rule: after a taken branch the next group waits taken_branch_bubble extra cycles.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MIB, 0, T::Nop));
    m.issue(&at(B0, Template::MIB, 1, T::Nop));
    m.issue(&at(B0, Template::MIB, 2, T::Branch));
    m.taken_branch();
    let c1 = m.issue(&at(B2, Template::MMI, 0, T::Alu));
    assert_eq!(c1, c0 + 1 + p().taken_branch_bubble);
    assert_eq!(stall(&m, "branch"), p().taken_branch_bubble);
}

#[test]
fn events_charge_their_named_costs() {
    // Rule: break costs break_cost before the next group ("interruption").
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MII, 0, T::Break));
    m.event(Event::Break);
    assert_eq!(m.now(), c0 + 1 + p().break_cost);
    assert_eq!(stall(&m, "interruption"), p().break_cost);
    m.advance(100);
    assert_eq!(m.issue(&at(B1, Template::MII, 0, T::Alu)), c0 + 1 + p().break_cost + 100);
}

#[test]
fn summary_counts_instructions_nops_and_groups() {
    // Rule: every slot counts as an instruction; nops are also counted apart; cycles = now().
    let mut m = model();
    m.issue(&at(B0, Template::MII, 0, T::Alu));
    nops_after(&mut m, B0, Template::MII, 0);
    let s = m.summary();
    assert_eq!((s.instructions, s.nops, s.groups, s.cycles), (3, 2, 1, 1));
    let t = m.timeline().map(|t| t.groups.len());
    assert_eq!(t, Some(1));
}

#[test]
fn timeline_records_why_a_group_waited() {
    // Rule: the timeline keeps each group's first cycle, slots and waits.
    let mut m = model();
    m.issue(&at(B0, Template::MMI, 0, T::Atomic));
    m.issue(&at(B0, Template::MMI, 1, T::Alu));
    let groups = m.timeline().map(|t| t.groups.clone()).unwrap_or_default();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[1].first_cycle, 1);
    assert_eq!(groups[1].waited, vec![(StallCause::Split("after semaphore"), 1)]);
}

#[test]
fn explain_model_marks_guesses() {
    // Rule: every figure is listed with its source; unsourced ones say GUESS.
    let text = p().explain_model();
    let line = |name: &str| text.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or("").to_string();
    assert!(line("taken_branch_bubble").contains("GUESS"));
    assert!(line("break_cost").contains("GUESS"));
    assert!(line("from_ar_itc").contains("[FSYS]"));
    assert!(!line("from_ar_itc").contains("GUESS"));
}

#[test]
fn epc_splits_issue_and_its_event_keeps_the_split() {
    // Rule: epc "causes split-issue" ([GATE]); Event::Epc adds epc_cost on top.
    let mut m = model();
    let c0 = m.issue(&at(B0, Template::MIB, 0, T::Alu));
    m.issue(&at(B0, Template::MIB, 1, T::Alu));
    m.issue(&at(B0, Template::MIB, 2, T::Epc));
    m.event(Event::Epc);
    assert_eq!(m.issue(&at(B1, Template::MMI, 0, T::Alu)), c0 + 1 + p().epc_cost);
    assert_eq!(stall(&m, "split issue: epc"), 1 + p().epc_cost);
}

#[test]
fn mov_to_br_feeds_a_branch_later_than_a_move() {
    // Rule: mov b=r -> indirect branch is mov_to_br_to_branch ([FSYS] 7, GUESS); -> mov r=b is mov_to_br.
    let end = Template::MII.with_end_stop(true);
    let b6 = [Src { res: Res::br(6), role: Role::Data, logical: None }];
    let mut m = model();
    let c0 = m.issue(&IssueInfo { dsts: &[Res::br(6)], ..at(B0, end, 1, T::MovToBr) });
    m.issue(&at(B0, end, 2, T::Nop));
    let c1 = m.issue(&IssueInfo { srcs: &b6, ..at(B1, Template::MIB, 2, T::BranchIndirect) });
    assert_eq!(c1, c0 + p().mov_to_br_to_branch);
    let mut m = model();
    let c0 = m.issue(&IssueInfo { dsts: &[Res::br(6)], ..at(B0, end, 1, T::MovToBr) });
    m.issue(&at(B0, end, 2, T::Nop));
    let c1 = m.issue(&IssueInfo { srcs: &b6, dsts: &[gr(9)], ..at(B1, Template::MII, 1, T::MovFromBr) });
    assert_eq!(c1, c0 + p().mov_to_br);
}
