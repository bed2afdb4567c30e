//! The Itanium 2 model's rules seen through assembled code: each test builds a tiny group
//! sequence, runs it, and checks where the timeline puts the instruction the rule is about,
//! relative to the instruction that causes it (never a magic total).

use arch_ia64::run::{run_source, RunConfig};
use emu_core::timing::Timeline;

fn timeline(body: &str) -> Timeline {
    let src = format!("\t.text\nf:\n{body}\n\tbr.ret.sptk.many b0\n\t;;\n");
    let cfg = RunConfig { timeline: true, ..RunConfig::default() };
    let report = run_source("t.S", &src, &cfg).unwrap_or_else(|e| panic!("{e}\n{src}"));
    report.timeline.expect("timeline recorded")
}

/// The cycle at which the slot whose disassembly starts with `text` issued.
fn cycle_of(t: &Timeline, text: &str) -> u64 {
    t.groups
        .iter()
        .find(|g| g.slots.iter().any(|s| s.text.starts_with(text)))
        .map(|g| g.first_cycle)
        .unwrap_or_else(|| panic!("no `{text}` in the timeline:\n{t}"))
}

#[test]
fn two_m2_only_moves_in_one_group_take_two_cycles() {
    // Reference section 1: AR moves on the M side go to port M2 only, one per cycle, even in
    // one instruction group.
    let t = timeline("\tmov r8=ar.k6\n\tmov r9=ar.k7\n\t;;");
    assert_eq!(cycle_of(&t, "mov.m r9=ar.k7"), cycle_of(&t, "mov.m r8=ar.k6") + 1, "{t}");
}

#[test]
fn a_load_feeding_an_address_waits_two_cycles_and_an_alu_use_one() {
    // Reference section 2: integer load to ALU use 1, to the address of another load 2.
    let t = timeline("\tld8 r8=[r12]\n\t;;\n\tld8 r9=[r8]\n\t;;");
    assert_eq!(cycle_of(&t, "ld8 r9=[r8]"), cycle_of(&t, "ld8 r8=[r12]") + 2, "{t}");
    let t = timeline("\tld8 r8=[r12]\n\t;;\n\tadd r9=r8,r0\n\t;;");
    assert_eq!(cycle_of(&t, "add r9=r8,r0"), cycle_of(&t, "ld8 r8=[r12]") + 1, "{t}");
}

#[test]
fn reading_ar_itc_makes_its_user_wait_36_cycles() {
    // Reference sections 2 and 3: fsys.S says mov from ar.itc has "36 clocks latency".
    let t = timeline("\tmov r8=ar.itc\n\t;;\n\tadd r9=r8,r0\n\t;;");
    assert_eq!(cycle_of(&t, "add r9=r8,r0"), cycle_of(&t, "mov.m r8=ar.itc") + 36, "{t}");
}

#[test]
fn ar_itc_returns_the_cycle_the_read_issues() {
    // Reference section 3: one ITC tick per core cycle on Itanium 2; the harness starts the
    // ITC at 0, so the value read is the read's issue cycle.
    let src = "\t.text\nf:\n\tmov r8=ar.k6\n\t;;\n\tadd r9=r8,r0\n\t;;\n\tmov r10=ar.itc\n\t;;\n\tbr.ret.sptk.many b0\n\t;;\n";
    let cfg = RunConfig { timeline: true, ..RunConfig::default() };
    let report = run_source("t.S", src, &cfg).expect("runs");
    let t = report.timeline.expect("timeline");
    let read_cycle = cycle_of(&t, "mov.m r10=ar.itc");
    let r10 = report.snapshot.register("r10").map(|v| v.to_string());
    assert_eq!(r10, Some(format!("{read_cycle:#018x}")), "{t}");
}

#[test]
fn an_mbb_bundle_ends_its_issue_group() {
    // Reference section 1: MBB or BBB as the first bundle of a dispersal window always splits
    // after it, so the next bundle issues a cycle later even without a stop.
    let t =
        timeline("\t.mbb\n\tadd r8=r9,r10\n\tnop.b 0\n\tnop.b 0\n\t.mii\n\tadd r11=r9,r10\n\tnop.i 0\n\tnop.i 0\n\t;;");
    assert_eq!(cycle_of(&t, "add r11=r9,r10"), cycle_of(&t, "add r8=r9,r10") + 1, "{t}");
}

#[test]
fn a_compare_feeds_its_branch_in_the_same_group_but_other_users_a_cycle_later() {
    // Reference section 2: cmp -> branch predicate bypass 0, cmp -> other use 1.
    let t = timeline("\tcmp.eq p6,p7=r0,r0\n\t(p7) br.cond.dpnt.few 1f\n\t;;\n1:\tcmp.eq p8,p9=r0,r0\n\t;;\n\t(p8) add r8=r9,r10\n\t;;");
    assert_eq!(cycle_of(&t, "(p7) br.cond"), cycle_of(&t, "cmp.eq p6,p7"), "{t}");
    assert_eq!(cycle_of(&t, "(p8) add r8"), cycle_of(&t, "cmp.eq p8,p9") + 1, "{t}");
}
