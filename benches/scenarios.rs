//! Throughput of every catalogue scenario: emulated instructions and simulated cycles per
//! host CPU second, per trace, with each core's timing model on and off: the scenario rows
//! of `acctemu bench` (`acctemu::cli::bench`). Run with `cargo bench --bench scenarios`;
//! `SCENARIO_BENCH_SYSCALLS=N` changes the number of system calls (default 200,000).
//! Throughput is measured here, never asserted.

use acctemu::cli::bench::rerun::Rerun;
use acctemu::cli::bench::{cases, run_cases, Runs, Work};
use acctemu::cli::limits::DEFAULT_MAX_PATHS;
use acctemu::cli::scenario::ScenarioFormat;

fn main() {
    let syscalls = std::env::var("SCENARIO_BENCH_SYSCALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(200_000);
    let scenarios: Vec<_> = cases().into_iter().filter(|c| matches!(c.work, Work::Scenario(_))).collect();
    // Each row in an acctemu process of its own, as `acctemu bench` runs them.
    let rerun = Rerun { exe: env!("CARGO_BIN_EXE_acctemu").into(), max_paths: DEFAULT_MAX_PATHS };
    let runs = Runs { isolated: Some(rerun), callgrind: None };
    if let Err(e) = run_cases(&scenarios, 0, syscalls, ScenarioFormat::Text, &runs, &mut std::io::stdout().lock()) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
