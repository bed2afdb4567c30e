//! Each test pins one rule of the model (see the module doc) on a small hand-built sequence.
//! Expected cycles are relative to an earlier issue and derived from the rule's parameter.

use super::*;
use TimingClass as T;

const RAX: XReg = XReg::Gpr(0);
const RCX: XReg = XReg::Gpr(1);
const RDX: XReg = XReg::Gpr(2);
const RBX: XReg = XReg::Gpr(3);
const RSP: XReg = XReg::Gpr(4);

fn p() -> X86Params {
    X86Params::golden_cove()
}

fn model() -> X86Model {
    X86Model::new(p())
}

fn op(class: T) -> IssueInfo<'static> {
    IssueInfo { addr: 0x1000, class, srcs: &[], dsts: &[], load: None, store: None, taken: false }
}

#[test]
fn dependent_add_chain_costs_alu_latency_each() {
    let mut m = model();
    let mut prev = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX, XReg::Flags], ..op(T::Alu) });
    for _ in 0..10 {
        let c = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX, XReg::Flags], ..op(T::Alu) });
        assert_eq!(c, prev + p().alu);
        prev = c;
    }
}

#[test]
fn independent_stream_is_limited_by_issue_width() {
    let mut m = model();
    let w = p().issue_width;
    let first = m.issue(&op(T::Nop));
    for _ in 1..w {
        assert_eq!(m.issue(&op(T::Nop)), first);
    }
    assert_eq!(m.issue(&op(T::Nop)), first + 1);
    assert_eq!(m.counts().groups, 2);
}

#[test]
fn independent_alu_ops_are_limited_by_alu_pipes() {
    let mut m = model();
    let pipes = p().alu_pipes;
    let first = m.issue(&IssueInfo { dsts: &[RBX], ..op(T::MovImm) });
    for _ in 1..pipes {
        assert_eq!(m.issue(&IssueInfo { dsts: &[RBX], ..op(T::MovImm) }), first);
    }
    assert_eq!(m.issue(&IssueInfo { dsts: &[RBX], ..op(T::MovImm) }), first + 1);
}

#[test]
fn div64_result_arrives_after_div64_latency() {
    let mut m = model();
    let d = m.issue(&IssueInfo { srcs: &[RAX, RDX, RCX], dsts: &[RAX, RDX], ..op(T::Div { bytes: 8, signed: false }) });
    let use_ = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX], ..op(T::Alu) });
    assert_eq!(use_, d + p().div64);
}

#[test]
fn div_latency_depends_on_size_and_signedness() {
    for (bytes, signed, lat) in
        [(4, false, p().div32), (4, true, p().idiv32), (8, true, p().idiv64), (1, false, p().div8)]
    {
        let mut m = model();
        let d = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX], ..op(T::Div { bytes, signed }) });
        assert_eq!(m.issue(&IssueInfo { srcs: &[RAX], ..op(T::Alu) }), d + lat);
    }
}

#[test]
fn independent_divisions_wait_for_the_divider() {
    let mut m = model();
    let a = m.issue(&IssueInfo { srcs: &[RCX], dsts: &[RAX], ..op(T::Div { bytes: 8, signed: false }) });
    let b = m.issue(&IssueInfo { srcs: &[RBX], dsts: &[RDX], ..op(T::Div { bytes: 8, signed: false }) });
    assert_eq!(b, a + p().div_busy64);
    assert!(m.summary().stalls.contains_key("port divider busy"));
}

#[test]
fn load_use_costs_load_latency() {
    let mut m = model();
    let l = m.issue(&IssueInfo { srcs: &[RBX], dsts: &[RAX], load: Some((0x8000, 8)), ..op(T::Load) });
    assert_eq!(m.issue(&IssueInfo { srcs: &[RAX], ..op(T::Alu) }), l + p().load);
}

#[test]
fn store_then_load_of_the_same_address_forwards() {
    let mut m = model();
    let s = m.issue(&IssueInfo { srcs: &[RAX, RBX], store: Some((0x8000, 8)), ..op(T::Store) });
    let l = m.issue(&IssueInfo { srcs: &[RBX], dsts: &[RCX], load: Some((0x8000, 8)), ..op(T::Load) });
    let u = m.issue(&IssueInfo { srcs: &[RCX], ..op(T::Alu) });
    assert_eq!(u, l.max(s) + p().store_forward);
}

#[test]
fn forwarding_waits_for_the_store_data() {
    let mut m = model();
    let i = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX], ..op(T::Imul) });
    m.issue(&IssueInfo { srcs: &[RAX, RBX], store: Some((0x8000, 8)), ..op(T::Store) });
    m.issue(&IssueInfo { srcs: &[RBX], dsts: &[RCX], load: Some((0x8000, 4)), ..op(T::Load) });
    let u = m.issue(&IssueInfo { srcs: &[RCX], ..op(T::Alu) });
    assert_eq!(u, i + p().imul + p().store_forward);
}

#[test]
fn load_partly_covered_by_a_store_pays_the_failed_forwarding() {
    let mut m = model();
    let s = m.issue(&IssueInfo { srcs: &[RAX, RBX], store: Some((0x8004, 4)), ..op(T::Store) });
    m.issue(&IssueInfo { srcs: &[RBX], dsts: &[RCX], load: Some((0x8000, 8)), ..op(T::Load) });
    let u = m.issue(&IssueInfo { srcs: &[RCX], ..op(T::Alu) });
    assert_eq!(u, s + p().store_forward_fail);
}

#[test]
fn rdtsc_holds_the_front_end_only_for_its_uops_and_the_sequencer_for_its_cost() {
    // issue 15: independent work overlaps a microcoded instruction; a second one waits.
    let mut m = model();
    let r = m.issue(&IssueInfo { dsts: &[RAX, RDX], ..op(T::Rdtsc) });
    assert_eq!(m.issue(&op(T::Nop)), r + p().delivery(p().rdtsc_uops));
    assert!(p().delivery(p().rdtsc_uops) < p().rdtsc);
    let u = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RBX], ..op(T::Alu) });
    assert_eq!(u, r + p().rdtsc_latency);
    let r2 = m.issue(&IssueInfo { dsts: &[RAX, RDX], ..op(T::Rdtsc) });
    assert_eq!(r2, r + p().rdtsc);
    assert!(m.summary().stalls.contains_key("port microcode (rdtsc) busy"));
}

#[test]
fn pushf_popf_pairs_share_the_sequencer() {
    // A pushf; popf loop costs both back-to-back costs per pair, as calibration measured.
    let mut m = model();
    let a = m.issue(&IssueInfo { srcs: &[XReg::Flags, RSP], dsts: &[RSP], store: Some((0x7ff0, 8)), ..op(T::Pushf) });
    let b = m.issue(&IssueInfo { srcs: &[RSP], dsts: &[RSP, XReg::Flags], load: Some((0x7ff0, 8)), ..op(T::Popf) });
    assert_eq!(b, a + p().pushf);
    let c = m.issue(&IssueInfo { srcs: &[XReg::Flags, RSP], dsts: &[RSP], store: Some((0x7ff0, 8)), ..op(T::Pushf) });
    assert!(c >= a + p().pushf + p().popf, "{a} {b} {c}");
}

#[test]
fn taken_branch_ends_the_group_and_adds_the_bubble() {
    let mut m = X86Model::new(X86Params::zen4());
    let j = m.issue(&IssueInfo { taken: true, ..op(T::Jmp) });
    assert_eq!(m.issue(&op(T::Nop)), j + 1 + X86Params::zen4().taken_branch_bubble);
    assert!(m.summary().stalls.contains_key("branch"));
}

#[test]
fn not_taken_jcc_does_not_end_the_group() {
    let mut m = model();
    let j = m.issue(&IssueInfo { srcs: &[XReg::Flags], ..op(T::Jcc) });
    assert_eq!(m.issue(&op(T::Nop)), j);
}

#[test]
fn call_and_ret_hold_the_front_end_for_their_costs() {
    let mut m = model();
    let c = m.issue(&IssueInfo { srcs: &[RSP], dsts: &[RSP], store: Some((0x7ff8, 8)), taken: true, ..op(T::Call) });
    let r = m.issue(&IssueInfo { srcs: &[RSP], dsts: &[RSP], load: Some((0x7ff8, 8)), taken: true, ..op(T::Ret) });
    assert_eq!(r, c + p().call);
    assert_eq!(m.issue(&op(T::Nop)), r + p().ret);
}

#[test]
fn stack_engine_keeps_rsp_off_the_critical_path() {
    let mut m = model();
    let a = m.issue(&IssueInfo { srcs: &[RAX, RSP], dsts: &[RSP], store: Some((0x7ff8, 8)), ..op(T::Push) });
    let b = m.issue(&IssueInfo { srcs: &[RBX, RSP], dsts: &[RSP], store: Some((0x7ff0, 8)), ..op(T::Push) });
    assert_eq!(a, b);
}

#[test]
fn lfence_waits_for_earlier_work_and_holds_later_dispatch() {
    let mut m = model();
    let i = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX], ..op(T::Imul) });
    let f = m.issue(&op(T::Lfence));
    assert_eq!(f, i + p().imul);
    assert_eq!(m.issue(&op(T::Nop)), f + p().lfence);
}

#[test]
fn locked_rmw_waits_for_earlier_work_and_orders_later_loads() {
    let mut m = model();
    let i = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX], ..op(T::Imul) });
    let l = m.issue(&IssueInfo {
        srcs: &[RBX, RCX],
        dsts: &[XReg::Flags],
        load: Some((0x9000, 8)),
        store: Some((0x9000, 8)),
        ..op(T::LockedRmw)
    });
    assert_eq!(l, i + p().imul);
    let ld = m.issue(&IssueInfo { srcs: &[RBX], dsts: &[RDX], load: Some((0xa000, 8)), ..op(T::Load) });
    assert_eq!(ld, l + p().locked_rmw);
}

#[test]
fn popf_and_sti_hold_the_front_end() {
    let popf = p().delivery(p().popf_uops);
    for (class, cost) in [(T::Popf, popf), (T::Sti, p().sti), (T::Cli, p().cli), (T::Pause, p().pause)] {
        let mut m = model();
        let c = m.issue(&op(class));
        assert_eq!(m.issue(&op(T::Nop)), c + cost);
    }
}

#[test]
fn mov_is_eliminated_at_rename() {
    let mut m = model();
    let i = m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX], ..op(T::Imul) });
    m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RCX], ..op(T::Mov) });
    let u = m.issue(&IssueInfo { srcs: &[RCX], ..op(T::Alu) });
    assert_eq!(u, i + p().imul + p().mov);
}

#[test]
fn stalls_never_exceed_cycles_and_advance_moves_the_clock() {
    let mut m = model();
    for _ in 0..5 {
        m.issue(&IssueInfo { srcs: &[RAX], dsts: &[RAX], ..op(T::Div { bytes: 8, signed: true }) });
        m.issue(&IssueInfo { taken: true, ..op(T::Jmp) });
    }
    let s = m.summary();
    assert!(s.stalls.values().sum::<u64>() <= s.cycles);
    let before = m.now();
    m.advance(100);
    assert_eq!(m.issue(&op(T::Nop)), before + 100);
}

#[test]
fn timeline_records_one_group_per_dispatch_cycle() {
    let mut m = model();
    m.set_timeline(true);
    m.issue(&op(T::Nop));
    m.issue(&IssueInfo { dsts: &[RAX], ..op(T::Rdtsc) });
    m.issue(&op(T::Nop));
    let groups = m.timeline().map(|t| t.groups.len()).unwrap_or(0);
    assert_eq!(groups, 2);
}

#[test]
fn tsc_scales_cycles_by_the_ratio() {
    let m = model();
    assert_eq!(m.tsc_of(3000), 3 * p().tsc_per_kcycle);
}

#[test]
fn explain_model_lists_every_figure_with_guess_marks() {
    for params in [X86Params::golden_cove(), X86Params::zen4()] {
        let text = params.explain_model();
        for name in ["issue_width", "div64", "idiv8", "store_forward", "rdtsc", "lfence", "locked_rmw", "popf", "sti"] {
            assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing");
        }
        assert!(text.contains("GUESS"));
    }
}

// producers and units (issue 16, w5-core)

#[test]
fn a_register_wait_names_its_producer_and_slots_their_unit_and_completion() {
    let mut m = model();
    m.set_timeline(true);
    m.issue(&IssueInfo { addr: 0x10, srcs: &[], dsts: &[RAX], ..op(T::Imul) });
    m.issue(&IssueInfo { addr: 0x14, srcs: &[RAX], dsts: &[RCX], ..op(T::Alu) });
    let t = m.timeline().cloned().unwrap_or_default();
    let waits: Vec<&(StallCause, u64)> = t.groups.iter().flat_map(|g| g.waited.iter()).collect();
    let producer = Producer { addr: 0x10, slot: 0, latency: p().imul, text: String::new() };
    // Charged as far as it delays completion: the imul's own latency covers the rest.
    assert_eq!(waits, [&(StallCause::Produced(Reg::Named("rax"), producer), p().alu)]);
    let slots: Vec<(Option<&str>, Option<u64>)> =
        t.groups.iter().flat_map(|g| g.slots.iter()).map(|s| (s.unit, s.done)).collect();
    assert_eq!(slots, [(Some("slow-int"), Some(p().imul)), (Some("ALU"), Some(p().imul + p().alu))]);
    // The summary keeps one row per register, whoever produced it.
    assert_eq!(m.summary().stalls.get("dependency on rax"), Some(&p().alu));
}
