//! Prints the instructions each path of an s390 vtime trace executes, as offsets into the
//! object's `.text`, with the model's cycles for that run: the input of
//! `traces/s390/mca/mca.sh`, which feeds the same sequences to llvm-mca.
//!
//!     cargo run --release --example s390_path_insns -- s390/vtime/delayed
//!
//! Each path runs once after a warm-up of a few events (the workload's order: guest exit and
//! enter, a syscall, an interrupt, a tick), each after 10,000 cycles of other work.

use acctemu::cli::scenario_s390::prepare_with_image;
use emu_core::image::SectionKind;
use emu_core::scenario::{PathKind, ScenarioMachine};
use std::process::ExitCode;

const ORDER: [PathKind; 7] = [
    PathKind::GuestExit,
    PathKind::GuestEnter,
    PathKind::SyscallEnter,
    PathKind::SyscallExit,
    PathKind::IrqEnter,
    PathKind::IrqExit,
    PathKind::Tick,
];

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_else(|| "s390/vtime/delayed".into());
    let Some(trace) = traces::find(&name) else {
        eprintln!("no trace {name}");
        return ExitCode::FAILURE;
    };
    let (mut s, image) = match prepare_with_image(trace) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{name}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(text) = image.sections.iter().find(|sec| sec.kind == SectionKind::Code) else {
        eprintln!("{name}: no code section");
        return ExitCode::FAILURE;
    };
    let base = text.addr;
    for round in 0..3 {
        for path in ORDER {
            s.advance(10_000);
            let mut offsets = Vec::new();
            let run = match s.run_path_traced(path, |pc| offsets.push(pc.wrapping_sub(base))) {
                Ok(run) => run,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if round == 2 {
                println!("path {} cycles {} insns {}", path.name(), run.cycles, run.instructions);
                for off in offsets {
                    println!("{off:#x}");
                }
            }
        }
    }
    ExitCode::SUCCESS
}
