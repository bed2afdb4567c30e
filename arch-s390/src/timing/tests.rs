//! Timing rules of the z13 model: issue width, dependencies, units, grouping, serialisation.

use super::*;

fn op(class: Class, data: Regs, writes: Regs) -> IssueInfo {
    IssueInfo { addr: 0, class, taken: false, ss_len: 0, deps: Deps { data, writes, ..Deps::default() } }
}

fn load(addr: Regs, writes: Regs) -> IssueInfo {
    IssueInfo {
        addr: 0,
        class: Class::Load,
        taken: false,
        ss_len: 0,
        deps: Deps { addr, writes, storage: true, ..Deps::default() },
    }
}

fn run(ops: &[IssueInfo]) -> u64 {
    let mut m = S390Model::new(S390Params::default());
    for i in ops {
        m.issue(i);
    }
    m.now()
}

#[test]
fn independent_simple_ops_dispatch_six_a_cycle_and_four_execute() {
    // Twelve independent register ops: 2 groups of 3 a cycle, 4 FXUs: 3 cycles of issue.
    let ops: Vec<IssueInfo> = (0..12u32).map(|r| op(Class::Simple, 0, 1 << r)).collect();
    assert_eq!(run(&ops), 3);
    // Six: one cycle of dispatch, two of execution (4 FXUs), done at cycle 2.
    assert_eq!(run(&ops[..6]), 2);
    assert_eq!(run(&ops[..4]), 1);
}

#[test]
fn a_dependent_chain_costs_its_latencies() {
    let chain: Vec<IssueInfo> = (0..10).map(|_| op(Class::Simple, 1 << 1, 1 << 1)).collect();
    assert_eq!(run(&chain), 10);
    // Load then use: 4 + 1.
    assert_eq!(run(&[load(1 << 2, 1 << 1), op(Class::Simple, 1 << 1, 1 << 3)]), 5);
    // A load whose address comes from the previous load: 4 + 4.
    assert_eq!(run(&[load(1 << 2, 1 << 1), load(1 << 1, 1 << 3)]), 8);
}

#[test]
fn two_lsus_bound_independent_loads() {
    let loads: Vec<IssueInfo> = (0..6u32).map(|r| load(1 << 15, 1 << r)).collect();
    // Three cycles of LSU issue (2 a cycle), the last finishes 4 later.
    assert_eq!(run(&loads), 2 + 4);
}

#[test]
fn storage_operand_reads_its_register_late() {
    // AG r1,0(r2) right after a 4-cycle load of r1: the register operand is read 4 cycles
    // after the address, so the add finishes as if r1 had been ready at once.
    let ag = IssueInfo {
        addr: 0,
        class: Class::LoadOp,
        taken: false,
        ss_len: 0,
        deps: Deps { addr: 1 << 2, data: 1 << 1, writes: 1 << 1, storage: true, ..Deps::default() },
    };
    assert_eq!(run(&[load(1 << 3, 1 << 1), ag]), 5);
}

#[test]
fn grouping_rules_hold_dispatch() {
    let mut m = S390Model::new(S390Params::default());
    let simple = op(Class::Simple, 0, 0);
    m.issue(&simple);
    m.issue(&IssueInfo { class: Class::Timer(TimerKind::Stckf), ..simple });
    // STCKF fills two groups: three groups this cycle (one over) and it opens a new cycle.
    assert_eq!(m.summary().groups, 3);
    let ssop = IssueInfo { class: Class::SsOp, ..simple };
    let before = m.summary().groups;
    m.issue(&ssop);
    m.issue(&simple);
    m.issue(&simple);
    // Cracked: a new group with two slots used, one simple op joins, the next opens another.
    assert_eq!(m.summary().groups, before + 2);
}

#[test]
fn serialising_instructions_drain_and_refill() {
    let p = S390Params::default();
    let chain: Vec<IssueInfo> = (0..5).map(|_| op(Class::Simple, 1 << 1, 1 << 1)).collect();
    let stck = op(Class::Timer(TimerKind::Stck), 0, 0);
    let mut ops = chain.clone();
    ops.push(stck);
    ops.push(op(Class::Simple, 0, 1 << 4));
    // Five cycles of chain, then STCK's 15, the refill, and the independent op's one cycle.
    assert_eq!(run(&ops), 5 + p.stck + p.serial_refill + 1);
    // STCKF does not serialise: it overlaps the chain.
    let mut fast = chain;
    fast.push(op(Class::Timer(TimerKind::Stckf), 0, 0));
    assert!(run(&fast) < 5 + p.stck);
}

#[test]
fn advance_drains_the_pipeline() {
    let mut m = S390Model::new(S390Params::default());
    m.issue(&load(0, 1 << 1));
    m.advance(100);
    assert_eq!(m.now(), 104);
    m.issue(&op(Class::Simple, 1 << 1, 1 << 1));
    assert_eq!(m.now(), 105);
}

#[test]
fn presets_and_the_table() {
    assert_eq!(S390Params::preset("z13"), Some(S390Params::default()));
    for name in PRESETS {
        let p = S390Params::preset(name).unwrap_or_default();
        assert_eq!(p.name, name);
        assert!(p.explain_model().contains(name));
    }
    assert!(S390Params::preset("z12").is_none());
    let z14 = S390Params::z14();
    assert_eq!((z14.freq_mhz, z14.mul), (5200, 7));
    let t = S390Params::default().explain_model();
    for key in ["group_size", "serial_refill", "GUESS", "stpt", "[Z13TD]"] {
        assert!(t.contains(key), "{key} in\n{t}");
    }
    assert_eq!(units_of(5000, 5000), 4096);
}

// producers and units (issue 16, w5-core)

#[test]
fn a_register_wait_names_its_producer_and_counts_in_the_summary() {
    let mut m = S390Model::new(S390Params::default());
    m.set_timeline(true);
    m.issue(&IssueInfo { addr: 0x100, ..load(1 << 2, 1 << 1) });
    m.issue(&IssueInfo { addr: 0x106, ..op(Class::Simple, 1 << 1, 1 << 3) });
    let t = m.timeline().cloned().unwrap_or_default();
    let waits: Vec<&(StallCause, u64)> = t.groups.iter().flat_map(|g| g.waited.iter()).collect();
    let lat = S390Params::default().load;
    let producer = Producer { addr: 0x100, slot: 0, latency: lat, text: String::new() };
    let r1 = Reg::Numbered { prefix: "r", number: 1, suffix: "" };
    // Charged as far as it delays completion: the load's own latency covers the rest.
    assert_eq!(waits, [&(StallCause::Produced(r1, producer), 1)]);
    assert_eq!(m.summary().stalls.get("dependency on r1"), Some(&1));
    let units: Vec<Option<&str>> = t.groups.iter().flat_map(|g| g.slots.iter()).map(|s| s.unit).collect();
    assert_eq!(units, [Some("LSU"), Some("FXU")]);
}
