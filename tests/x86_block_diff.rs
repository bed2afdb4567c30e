//! The x86-64 block engine against the per-step reference interpreter on every x86-64
//! catalogue scenario (issue 17): the same workload on both must give the same report,
//! registers, memory, cycles, stall tables and (when recorded) timelines, with the timing model
//! on and off. `arch-x86/tests/block_diff.rs` covers random programs and the objects' functions.

use arch_x86::block::Engine;
use emu_core::cpu::Cpu;
use traces::Prepared;

#[path = "common/engine_diff.rs"]
mod engine_diff;
#[path = "common/scenario_diff.rs"]
mod scenario_diff;
use engine_diff::memory_image;
use scenario_diff::{diff_workload, scenario_traces};

#[test]
fn every_x86_catalogue_scenario_runs_alike_on_both_engines() {
    let base = diff_workload(60);
    let mut n = 0;
    for trace in scenario_traces(traces::Arch::X86_64) {
        let w = trace.workload(&base);
        for (timing, timeline) in [(true, false), (true, true), (false, false)] {
            let what = format!("{} (timing {timing}, timeline {timeline})", trace.name);
            let run = |engine: Engine| {
                let Prepared::X86(mut s) = trace.prepare(None, &w, timing).unwrap_or_else(|e| panic!("{what}: {e}"))
                else {
                    panic!("{what}: not an x86-64 scenario")
                };
                s.machine.cpu.set_engine(engine);
                s.machine.cpu.record_timeline(timeline);
                let report = emu_core::scenario::run(&mut *s, &w, &mut |_| {}).map_err(|e| e.to_string());
                (s, format!("{report:?}"))
            };
            let (a, ra) = run(Engine::Block);
            let (b, rb) = run(Engine::Step);
            assert_eq!(ra, rb, "{what}: report");
            let (ca, cb) = (&a.machine.cpu, &b.machine.cpu);
            assert_eq!(ca.instructions(), cb.instructions(), "{what}: instructions");
            assert_eq!(ca.cycles(), cb.cycles(), "{what}: cycles");
            assert_eq!(ca.summary(), cb.summary(), "{what}: summary and stall table");
            let timeline = |c: &arch_x86::cpu::X86Cpu| c.model().and_then(|m| m.timeline()).cloned();
            assert_eq!(timeline(ca), timeline(cb), "{what}: timeline");
            assert_eq!(ca.state, cb.state, "{what}: registers");
            assert!(memory_image(&a.machine.mem) == memory_image(&b.machine.mem), "{what}: memory differs");
            assert!(ca.instructions() > 1000, "{what}: ran only {} instructions", ca.instructions());
            n += 1;
        }
    }
    assert!(n >= 12, "expected the x86-64 traces, found {n} runs");
}
