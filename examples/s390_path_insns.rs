//! Prints the instructions each path of an s390 vtime trace executes, as offsets into the
//! object's `.text`, with the model's cycles for that run: the input of
//! `traces/s390/mca/mca.sh`, which feeds the same sequences to llvm-mca.
//!
//!     cargo run --release --example s390_path_insns -- s390/vtime/delayed
//!
//! Each path runs once after a warm-up of a few events (the workload's order: guest exit and
//! enter, a syscall, an interrupt, a tick), each after 10,000 cycles of other work
//! (`traces::bind::s390::traced_paths`).

use std::process::ExitCode;
use traces::bind::s390::traced_paths;

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_else(|| "s390/vtime/delayed".into());
    let Some(trace) = traces::find(&name) else {
        eprintln!("no trace {name}");
        return ExitCode::FAILURE;
    };
    match traced_paths(trace) {
        Ok(runs) => {
            for run in runs {
                println!("path {} cycles {} insns {}", run.path.name(), run.cycles, run.instructions);
                for off in run.offsets {
                    println!("{off:#x}");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }
    }
}
