//! Writes every fuzz seed ([`acctemu::fuzzing::seeds`]) into `DIR/<target>/<name>`, the corpus
//! directories `fuzz/run-all.sh` hands to libFuzzer:
//!
//!     cargo run --example fuzz_seeds -- fuzz/corpus

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: fuzz_seeds DIR");
        return ExitCode::from(2);
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let seeds = match acctemu::fuzzing::seeds(&root) {
        Ok(seeds) => seeds,
        Err(e) => {
            eprintln!("fuzz_seeds: {e}");
            return ExitCode::FAILURE;
        }
    };
    for seed in &seeds {
        let target_dir = dir.join(seed.target);
        let path = target_dir.join(&seed.name);
        if let Err(e) = std::fs::create_dir_all(&target_dir).and_then(|()| std::fs::write(&path, &seed.data)) {
            eprintln!("fuzz_seeds: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    println!("{} seeds written under {}", seeds.len(), dir.display());
    ExitCode::SUCCESS
}
