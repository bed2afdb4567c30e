//! Held-group ITC (issue 15): the Itanium 2 issues a group in lockstep, so a `mov r=ar.itc`
//! reads the cycle its whole issue group issues in, even when the slot that makes the group
//! wait comes after it. Run through the CPU (`run_source`), whose ar.itc values come from the
//! model's cycles.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::timing::Itanium2Params;
use helpers::{reg, run};

/// r21 is read from ar.itc one group before; the next group holds an ar.itc read into r8 and an
/// add that consumes r21, which waits out the ar.itc read latency. `first` is the group's two M
/// slots in order.
fn held_group(first: [&str; 2]) -> String {
    format!("\tmov r21=ar.itc ;;\n\t{{ .mmi\n\t{}\n\t{}\n\tnop.i 0 ;;\n\t}}\n\tmov r10=ar.itc ;;\n", first[0], first[1])
}

#[test]
fn mov_from_ar_itc_reads_the_cycle_a_later_slot_of_its_group_holds_it_to() {
    // ar.itc ticks once per cycle (reference section 3), so r8 - r21 is the cycles between the
    // two groups: the add's wait for r21, from_ar_itc ([FSYS] fsys.S: 36), not one cycle.
    let latency = Itanium2Params::default().from_ar_itc;
    let read_first = run(&held_group(["mov r8=ar.itc", "add r9=r21,r0"]));
    let add_first = run(&held_group(["add r9=r21,r0", "mov r8=ar.itc"]));
    for (order, r) in [("read first", &read_first), ("add first", &add_first)] {
        assert_eq!(reg(r, "r8") - reg(r, "r21"), latency, "{order}: the read sees the held cycle");
        assert_eq!(reg(r, "r10") - reg(r, "r8"), 1, "{order}: the next group issues one cycle later");
    }
    assert_eq!(reg(&read_first, "r8") - reg(&read_first, "r21"), reg(&add_first, "r8") - reg(&add_first, "r21"));
    assert_eq!(read_first.summary.cycles, add_first.summary.cycles, "same cycles in either order");
}

#[test]
fn mov_to_ar_itc_counts_from_the_cycle_its_group_is_held_to() {
    // A write in the same held group: the counter starts from the written value at the held
    // cycle, and the next read waits out the write's latency (to_ar_itc, [KAPI] 35) from that
    // cycle, so it reads the value plus that latency in either slot order.
    let latency = Itanium2Params::default().to_ar_itc;
    for first in [["mov ar.itc=r2", "add r9=r21,r0"], ["add r9=r21,r0", "mov ar.itc=r2"]] {
        let body = format!(
            "\tmovl r2=0x100000 ;;\n\tmov r21=ar.itc ;;\n\t{{ .mmi\n\t{}\n\t{}\n\tnop.i 0 ;;\n\t}}\n\tmov r10=ar.itc ;;\n",
            first[0], first[1]
        );
        let r = run(&body);
        assert_eq!(reg(&r, "r10"), 0x100000 + latency, "{first:?}");
    }
}
