//! Emulated instructions per host CPU second of the IA-64 core on its two bench loops, with the
//! Itanium 2 timing model on and off: the ia64 loop rows of `acctemu bench`
//! (`acctemu::cli::bench`). Run with `cargo bench --bench ia64_loop`;
//! `ACCTEMU_BENCH_ITERATIONS=N` changes the iterations (default 3,000,000). Throughput is
//! measured here, never asserted by a test.

use acctemu::cli::bench::rerun::Rerun;
use acctemu::cli::bench::{cases, run_cases, Core, Runs, Work};
use acctemu::cli::limits::DEFAULT_MAX_PATHS;
use acctemu::cli::scenario::ScenarioFormat;

fn main() {
    let n = std::env::var("ACCTEMU_BENCH_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(3_000_000);
    let loops: Vec<_> =
        cases().into_iter().filter(|c| c.core == Core::Ia64 && matches!(c.work, Work::Loop(_))).collect();
    // Each row in an acctemu process of its own, as `acctemu bench` runs them.
    let rerun = Rerun { exe: env!("CARGO_BIN_EXE_acctemu").into(), max_paths: DEFAULT_MAX_PATHS };
    let runs = Runs { isolated: Some(rerun), callgrind: None };
    if let Err(e) = run_cases(&loops, n, 0, ScenarioFormat::Text, &runs, &mut std::io::stdout().lock()) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
