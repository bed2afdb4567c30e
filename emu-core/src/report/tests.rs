use super::*;
use crate::cpu::StopReason;
use crate::timing::{Reg, StallCause};

#[test]
fn report_serializes_as_nested_json_in_field_order() {
    let mut summary = TimingSummary { cycles: 30, instructions: 12, nops: 4, groups: 6, ..TimingSummary::default() };
    summary.add_stall(&StallCause::Register(Reg::Numbered { prefix: "r", number: 16, suffix: "" }), 2);
    let mut snapshot = Snapshot::new();
    snapshot.push_hex("ip", 0x1000);
    let report = RunReport {
        stop: StopReason::Sentinel.to_string(),
        summary,
        counters: vec![CounterValue {
            name: "ac_stime".into(),
            address: 0xa000_0000_0001_1078,
            width: 8,
            unit: "cycles".into(),
            value: 25,
        }],
        timeline: None,
        // The state at entry is the text report's; the JSON leaves it out.
        initial: Some(snapshot.clone()),
        snapshot,
    };
    let json = serde_json::to_string(&report).unwrap_or_default();
    assert_eq!(
        json,
        r#"{"stop":"returned to the sentinel","summary":{"cycles":30,"instructions":12,"nops":4,"groups":6,"stalls":{"dependency on r16":2}},"counters":[{"name":"ac_stime","address":"0xa000000000011078","width":8,"unit":"cycles","value":25}],"snapshot":{"registers":{"ip":"0x0000000000001000"},"memory":{}}}"#
    );
}
