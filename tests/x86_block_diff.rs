//! The x86-64 block engine against the per-step reference interpreter on every x86-64
//! catalogue scenario (issue 17): the same workload on both must give the same report,
//! registers, memory, cycles, stall tables and (when recorded) timelines, with the timing model
//! on and off. `arch-x86/tests/block_diff.rs` covers random programs and the objects' functions.

use arch_x86::block::Engine;
use emu_core::cpu::Cpu;
use emu_core::memory::Memory;
use emu_core::scenario::Workload;
use traces::{Prepared, IA64_CPU_HZ};

/// Every mapped byte, region by region.
fn memory_image(mem: &Memory) -> Vec<(u64, Vec<u8>)> {
    mem.regions()
        .map(|r| {
            let len = r.size.min(1 << 22) as usize;
            let mut bytes = vec![0u8; len];
            let ok = mem.peek_bytes(r.base, &mut bytes).is_ok();
            (r.base, if ok { bytes } else { Vec::new() })
        })
        .collect()
}

#[test]
fn every_x86_catalogue_scenario_runs_alike_on_both_engines() {
    let base = Workload {
        syscalls: 60,
        user_cycles: 1500,
        kernel_cycles: 300,
        // Ticks often enough that the tick path runs too.
        hz: 250_000,
        cpu_hz: IA64_CPU_HZ,
        irq_every: None,
        guest: false,
    };
    let mut n = 0;
    for trace in traces::catalogue()
        .iter()
        .filter(|t| t.arch == traces::Arch::X86_64 && t.binding(traces::PathKind::SyscallEnter).is_some())
    {
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
