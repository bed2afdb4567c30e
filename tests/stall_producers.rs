//! A register wait names the instruction that produced the value and its latency (issue 16),
//! in the cycle-diff's per-group attribution of the IA-64 catalogue traces.

mod common;

use common::acctemu;

#[test]
fn the_default_diff_names_each_waits_producer() {
    let out = acctemu(&["diff"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}{text}", String::from_utf8_lossy(&out.stderr));
    // v1's account_sys_leave reads ar.itc into r34 and subtracts at once: 36 cycles
    // (from_ar_itc), of which 21 per system call are charged to the subtraction.
    assert!(text.contains("waits: v1 dependency on r34 (mov.m r34=ar.itc at 0xb480.0: latency 36) (21)"), "{text}");
}
