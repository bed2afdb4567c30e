use super::*;

fn slot(addr: u64, slot: u8, text: &str) -> SlotRef {
    SlotRef { text: text.to_string(), ..SlotRef::new(addr, slot, text.starts_with("nop")) }
}

#[test]
fn stall_causes_read_well() {
    let causes = [
        StallCause::Register(Reg::Numbered { prefix: "r", number: 16, suffix: "" }),
        StallCause::Unit("M2"),
        StallCause::Split("MBB first"),
        StallCause::Branch,
        StallCause::Interruption,
        StallCause::Register(Reg::Named("rflags")),
        StallCause::Register(Reg::Numbered { prefix: "r", number: 16, suffix: "(bank0)" }),
        StallCause::StoreForward,
        StallCause::Serialisation("cpuid"),
        StallCause::Microcode("rdtsc"),
        StallCause::Stub("memcpy".to_string()),
    ];
    let texts: Vec<String> = causes.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        [
            "dependency on r16",
            "port M2 busy",
            "split issue: MBB first",
            "branch",
            "interruption",
            "dependency on rflags",
            "dependency on r16(bank0)",
            "dependency on store-forwarded memory",
            "dependency on cpuid serialisation",
            "port microcode (rdtsc) busy",
            "stub memcpy",
        ]
    );
}

#[test]
fn timeline_has_one_line_per_group() {
    let timeline = Timeline {
        groups: vec![
            GroupRecord {
                first_cycle: 0,
                slots: vec![slot(0x1000, 0, "adds r16=8,r12"), slot(0x1000, 1, "nop.i 0x0")],
                waited: vec![],
            },
            GroupRecord {
                first_cycle: 3,
                slots: vec![slot(0x1010, 0, "ld8 r17=[r16]")],
                waited: vec![
                    (StallCause::Register(Reg::Numbered { prefix: "r", number: 16, suffix: "" }), 1),
                    (StallCause::Unit("M0"), 2),
                ],
            },
        ],
    };
    assert_eq!(
        timeline.to_string(),
        "       0 0x1000.0 adds r16=8,r12 ; 0x1000.1 nop.i 0x0\n       3 0x1010.0 ld8 r17=[r16]  \
         <- waited 1 cycle: dependency on r16, 2 cycles: port M0 busy\n"
    );
}

#[test]
fn summary_adds_stalls_by_cause_text_and_renders_a_table() {
    let mut s = TimingSummary { cycles: 12, instructions: 9, nops: 3, groups: 4, ..TimingSummary::default() };
    s.add_stall(&StallCause::Register(Reg::Numbered { prefix: "r", number: 16, suffix: "" }), 2);
    s.add_stall(&StallCause::Branch, 1);
    s.add_stall(&StallCause::Register(Reg::Numbered { prefix: "r", number: 16, suffix: "" }), 3);
    assert_eq!(s.stalls.get("dependency on r16"), Some(&5));
    assert_eq!(
        s.to_string(),
        "cycles                12\ninstructions           9\nnops                   3\ngroups                 4\n\
         stalls:\n  dependency on r16         5\n  branch                    1\n"
    );
}

#[test]
fn records_serialize_with_hex_addresses_and_cause_texts() {
    let group = GroupRecord {
        first_cycle: 7,
        slots: vec![slot(0xa000_0000_0001_0000, 2, "br.ret.sptk.many b0")],
        waited: vec![(StallCause::Branch, 1)],
    };
    let json = serde_json::to_string(&group).unwrap_or_default();
    assert_eq!(
        json,
        r#"{"first_cycle":7,"slots":[{"addr":"0xa000000000010000","slot":2,"text":"br.ret.sptk.many b0","nop":false}],"waited":[["branch",1]]}"#
    );
}

// producers (issue 16, w5-core)

#[test]
fn a_produced_wait_names_its_producer_once_the_slots_are_labelled() {
    let r22 = Reg::Numbered { prefix: "r", number: 22, suffix: "" };
    let producer = Producer { addr: 0x1000, slot: 0, latency: 20, text: String::new() };
    let mut timeline = Timeline {
        groups: vec![
            GroupRecord { first_cycle: 0, slots: vec![slot(0x1000, 0, "mov.m r22=ar.itc")], waited: vec![] },
            GroupRecord {
                first_cycle: 20,
                slots: vec![slot(0x1000, 1, "add r8=r22,r0")],
                waited: vec![(StallCause::Produced(r22, producer.clone()), 19)],
            },
        ],
    };
    assert_eq!(StallCause::Produced(r22, producer).to_string(), "dependency on r22 (at 0x1000.0: latency 20)");
    timeline.name_producers();
    let cause = &timeline.groups[1].waited[0].0;
    assert_eq!(cause.to_string(), "dependency on r22 (mov.m r22=ar.itc at 0x1000.0: latency 20)");
    assert_eq!(cause.summary_cause(), StallCause::Register(r22));
    let mut summary = TimingSummary::default();
    summary.add_stall(cause, 19);
    assert_eq!(summary.stalls.get("dependency on r22"), Some(&19));
}

#[test]
fn slots_show_their_unit_and_completion_when_recorded() {
    let done = SlotRef { unit: Some("ALU"), done: Some(4), ..slot(0x10, 0, "add %rcx,%rax") };
    let timeline = Timeline { groups: vec![GroupRecord { first_cycle: 3, slots: vec![done], waited: vec![] }] };
    assert_eq!(timeline.to_string(), "       3 0x10.0 add %rcx,%rax [ALU, done 4]\n");
}
