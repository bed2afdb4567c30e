//! Throughput of every catalogue scenario: emulated instructions and simulated cycles per
//! second of host time, per trace, with each core's timing model on (the scenarios always
//! use it). Run with `cargo bench --bench scenarios`; `SCENARIO_BENCH_SYSCALLS=N` changes the
//! number of system calls (default 200,000). Throughput is measured here, never asserted.

use acctemu::cli::{scenario, scenario_s390, scenario_x86, CliError};
use emu_core::scenario::{run, ScenarioMachine, ScenarioReport, Workload};
use std::time::Instant;

fn workload(syscalls: u64, cpu_hz: u64) -> Workload {
    Workload { syscalls, user_cycles: 1500, kernel_cycles: 300, hz: 1000, cpu_hz, irq_every: None, guest: false }
}

/// Runs `w` on `m`, returning the report and the host seconds it took.
fn timed<M: ScenarioMachine>(m: &mut M, w: &Workload) -> Result<(ScenarioReport, f64), String> {
    let start = Instant::now();
    let report = run(m, w, &mut |_| {}).map_err(|e| e.to_string())?;
    Ok((report, start.elapsed().as_secs_f64()))
}

fn bench(trace: &traces::Trace, syscalls: u64) -> Result<(ScenarioReport, f64), String> {
    let err = |e: CliError| e.to_string();
    match trace.arch {
        traces::Arch::Ia64 => {
            let w = workload(syscalls, scenario::IA64_CPU_HZ);
            timed(&mut scenario::prepare_trace(trace, &w).map_err(err)?, &w)
        }
        traces::Arch::X86_64 => {
            let w = scenario_x86::workload(&workload(syscalls, 0));
            timed(&mut scenario_x86::prepare(trace, &w).map_err(err)?, &w)
        }
        traces::Arch::S390x => {
            let w = scenario_s390::workload(&workload(syscalls, 0));
            timed(&mut scenario_s390::prepare(trace).map_err(err)?, &w)
        }
    }
}

fn main() {
    let syscalls = std::env::var("SCENARIO_BENCH_SYSCALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(200_000);
    println!(
        "{:<34} {:>9} {:>13} {:>14} {:>8} {:>12} {:>12}",
        "scenario", "syscalls", "insns", "cycles", "s", "M insns/s", "M cycles/s"
    );
    for trace in traces::catalogue() {
        // Traces of single helper calls (sweeps) have no system-call paths to drive.
        if !trace.bindings.iter().any(|b| b.kind.name() == "syscall_enter") {
            continue;
        }
        match bench(trace, syscalls) {
            Ok((r, secs)) => {
                let insns: f64 = r.paths.iter().map(|p| p.stats.instructions * p.stats.calls as f64).sum();
                println!(
                    "{:<34} {syscalls:>9} {insns:>13.0} {:>14} {secs:>8.3} {:>12.1} {:>12.1}",
                    trace.name,
                    r.cycles,
                    insns / secs / 1e6,
                    r.cycles as f64 / secs / 1e6
                );
            }
            Err(e) => println!("{:<34} failed: {e}", trace.name),
        }
    }
}
