use super::*;
use crate::timing::GroupRecord;

fn slot(addr: u64, n: u8, unit: &'static str, done: Option<u64>) -> SlotRef {
    SlotRef { addr, slot: n, text: format!("op{addr:x}.{n}"), nop: false, done, unit: Some(unit) }
}

#[test]
fn ranges_and_sets_expand() {
    assert_eq!(alternatives("M0-M3"), ["M0", "M1", "M2", "M3"]);
    assert_eq!(alternatives("M0/M1"), ["M0", "M1"]);
    assert_eq!(alternatives("B2"), ["B2"]);
    assert_eq!(alternatives("slow-int"), ["slow-int"]);
}

#[test]
fn m_ports_are_matched_not_taken_greedily() {
    // An A-type op first would take M0 greedily and leave the two loads one M0/M1 port.
    let slots = [
        slot(0, 0, "M0-M3", Some(1)),
        slot(0, 1, "M0/M1", Some(2)),
        slot(16, 0, "M0/M1", None),
        slot(16, 1, "M2/M3", None),
    ];
    assert_eq!(exclusive(&slots), ["M2", "M0", "M1", "M3"]);
    let slots = [slot(0, 0, "I0/I1", None), slot(0, 1, "I0/I1", None), slot(0, 2, "B2", None)];
    assert_eq!(exclusive(&slots), ["I0", "I1", "B2"]);
}

#[test]
fn pooled_units_get_lanes_per_group() {
    let slots = [slot(0, 0, "ALU", Some(1)), slot(4, 0, "load", Some(5)), slot(8, 0, "ALU", Some(1))];
    assert_eq!(pooled(&slots, &mut BTreeMap::new()), ["ALU.0", "load.0", "ALU.1"]);
    // A second group issuing in the same cycle takes the next lanes.
    let timeline = Timeline {
        groups: vec![
            GroupRecord { first_cycle: 7, slots: slots.to_vec(), waited: vec![] },
            GroupRecord { first_cycle: 7, slots: vec![slot(12, 0, "ALU", None)], waited: vec![] },
            GroupRecord { first_cycle: 8, slots: vec![slot(16, 0, "ALU", None)], waited: vec![] },
        ],
    };
    let ports: Vec<String> = assign_ports(&timeline, PortNames::Pooled).into_iter().map(|i| i.port).collect();
    assert_eq!(ports, ["ALU.0", "load.0", "ALU.1", "ALU.2", "ALU.0"]);
}

#[test]
fn a_trace_names_its_tracks_and_times_events_at_the_clock() {
    let timeline = Timeline {
        groups: vec![
            GroupRecord { first_cycle: 0, slots: vec![slot(0, 0, "M0/M1", Some(2))], waited: vec![] },
            GroupRecord {
                first_cycle: 3,
                slots: vec![slot(16, 0, "M0-M3", Some(4)), slot(16, 1, "I0/I1", None)],
                waited: vec![(StallCause::Unit("M0/M1"), 2)],
            },
        ],
    };
    let mut places = BTreeMap::new();
    places.insert(
        16,
        Place { symbol: Some("f+0x10".into()), source: Some("a.S:7".into()), source_text: Some("add r1=r2,r3".into()) },
    );
    let p = Process {
        name: "t".into(),
        about: BTreeMap::new(),
        segments: vec![Segment::run(&timeline, 4)],
        ports: PortNames::Exclusive { order: &IA64_PORTS },
        clock_mhz: 1000,
        places: &places,
    };
    let file = trace(&[p]);
    let threads: Vec<&Event> = file.trace_events.iter().filter(|e| e.name == "thread_name").collect();
    assert_eq!(threads.len(), 2 + IA64_PORTS.len());
    let add = file.trace_events.iter().find(|e| e.cat == "insn" && e.name == "op10.0").expect("the add's event");
    assert_eq!((add.ph, add.ts, add.dur), ("X", Some(0.003), Some(0.001)));
    assert_eq!(add.args.get("port"), Some(&Arg::Text("M0".into())));
    assert_eq!(add.args.get("latency"), Some(&Arg::Int(1)));
    assert_eq!(add.args.get("source"), Some(&Arg::Text("a.S:7".into())));
    let wait = file.trace_events.iter().find(|e| e.cat == "wait").expect("the wait");
    assert_eq!((wait.ts, wait.dur), (Some(0.001), Some(0.002)));
    assert_eq!(wait.args.get("resource"), Some(&Arg::Text("port M0/M1".into())));
    let json = file.to_json().expect("json");
    assert!(json.contains("\"displayTimeUnit\": \"ns\""), "{json}");
}

#[test]
fn segments_are_laid_end_to_end_from_their_start() {
    // Two paths of one call, on the machine's clock: the entry at 1000, the exit at 5000.
    let entry = Timeline {
        groups: vec![
            GroupRecord { first_cycle: 1000, slots: vec![slot(0, 0, "ALU", Some(1001))], waited: vec![] },
            GroupRecord {
                first_cycle: 1003,
                slots: vec![slot(4, 0, "ALU", Some(1004))],
                waited: vec![(StallCause::Register(crate::timing::Reg::Named("rax")), 2)],
            },
        ],
    };
    // Its first group waited longer than the path has run: clipped at the path's start.
    let exit = Timeline {
        groups: vec![GroupRecord {
            first_cycle: 5001,
            slots: vec![slot(8, 0, "ALU", None)],
            waited: vec![(StallCause::Register(crate::timing::Reg::Named("rcx")), 5)],
        }],
    };
    let places = BTreeMap::new();
    let named = |name: &str, timeline, start, cycles| Segment {
        name: Some(name.to_string()),
        timeline,
        start,
        cycles,
        args: [("which", Arg::Text("call 2 of 2".into()))].into(),
    };
    let p = Process {
        name: "v2".into(),
        about: [("call", Arg::Text("the last".into()))].into(),
        segments: vec![named("syscall_enter", &entry, 1000, 4), named("syscall_exit", &exit, 5000, 2)],
        ports: PortNames::Pooled,
        clock_mhz: 1,
        places: &places,
    };
    let file = trace(&[p]);
    let ev = &file.trace_events;
    let process = ev.iter().find(|e| e.name == "process_name").expect("process_name");
    assert_eq!(process.args.get("call"), Some(&Arg::Text("the last".into())));
    let paths: Vec<(&str, Option<f64>, Option<f64>)> =
        ev.iter().filter(|e| e.cat == "path").map(|e| (e.name.as_str(), e.ts, e.dur)).collect();
    assert_eq!(paths, [("syscall_enter", Some(0.0), Some(4.0)), ("syscall_exit", Some(4.0), Some(2.0))]);
    let insns: Vec<(Option<f64>, &Arg)> =
        ev.iter().filter(|e| e.cat == "insn").map(|e| (e.ts, &e.args["issue_cycle"])).collect();
    assert_eq!(insns, [(Some(0.0), &Arg::Int(1000)), (Some(3.0), &Arg::Int(1003)), (Some(5.0), &Arg::Int(5001))]);
    let waits: Vec<(Option<f64>, Option<f64>)> = ev.iter().filter(|e| e.cat == "wait").map(|e| (e.ts, e.dur)).collect();
    assert_eq!(waits, [(Some(1.0), Some(2.0)), (Some(4.0), Some(1.0))]);
    assert!(ev.iter().any(|e| e.name == "thread_name" && e.args.get("name") == Some(&Arg::Text("paths".into()))));
}
