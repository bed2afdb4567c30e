//! Lockstep issue (issue 15) on seed 004's own code: the Itanium 2 issues a group as one, so
//! the order of independent slots inside a group never changes the cycles a path takes.

use acctemu::cli::scenario::IA64_CPU_HZ;
use emu_core::scenario::{run, PathKind, ScenarioReport, Workload};
use traces::bind::ia64::prepare as prepare_trace;

/// The V.2 exit bundle of `.work_processed_syscall` (entry.S, seed 004's hunk): `mov r19=ar.bsp`
/// (M2, 12 cycles) and `st8 [r14]=r22` (M2/M3; r22 is the `ar.itc` value read a few groups
/// earlier, 36 cycles) share one issue group.
const V2_EXIT_PAIR: &str =
    "\tmov r19=ar.bsp\t\t\t// M2   get new backing store pointer\n\tst8 [r14]=r22\t\t\t// M\tsave time at leave\n";
const V2_EXIT_SWAPPED: &str =
    "\tst8 [r14]=r22\t\t\t// M\tsave time at leave\n\tmov r19=ar.bsp\t\t\t// M2   get new backing store pointer\n";

fn scenario(trace: &traces::Trace) -> ScenarioReport {
    let w = Workload {
        syscalls: 20,
        user_cycles: 1500,
        kernel_cycles: 300,
        hz: 0,
        cpu_hz: IA64_CPU_HZ,
        irq_every: None,
        guest: false,
    };
    let mut s = prepare_trace(trace, &w).unwrap_or_else(|e| panic!("{}: {e}", trace.name));
    run(&mut s, &w, &mut |_| {}).unwrap_or_else(|e| panic!("{}: {e}", trace.name))
}

fn exit_cycles(r: &ScenarioReport) -> (u64, u64) {
    r.path(PathKind::SyscallExit).map(|p| (p.cycles.min, p.cycles.max)).unwrap_or_else(|| panic!("no exit path:\n{r}"))
}

#[test]
fn seed004_v2_exit_takes_the_same_cycles_with_mov_ar_bsp_and_st8_swapped() {
    // The defect issue 15 names: with slots keeping their own cycle, `mov r19=ar.bsp` started
    // its 12-cycle latency before the st8's wait for r22 and the exit took 66 cycles; swapped
    // (same instructions, same groups) it took 72. In lockstep both orders wait together.
    let v2 = traces::find("ia64/syscall/v2").expect("the V.2 trace");
    assert_eq!(v2.source.matches(V2_EXIT_PAIR).count(), 1, "the V.2 exit pair is in the trace as the seed has it");
    let mut swapped = *v2;
    swapped.source = Box::leak(v2.source.replace(V2_EXIT_PAIR, V2_EXIT_SWAPPED).into_boxed_str());
    let (a, b) = (scenario(v2), scenario(&swapped));
    assert_eq!(exit_cycles(&a), exit_cycles(&b), "seed order:\n{a}\nswapped:\n{b}");
    assert_eq!(a.cycles, b.cycles);
}
