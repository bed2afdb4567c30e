//! The model side of the x86 fidelity table (traces/x86/fidelity/fidelity.sh).
//!
//! `fidelity-model OBJDIR SUFFIX HARNESSDIR [TRACEDIR]`: for every row of [`rows::all`], loads
//! `OBJDIR/<object>SUFFIX` with its externs resolved to the harness regions of the same name (as
//! the CLI's `load_trace_object` does), applies `HARNESSDIR/<harness>`, runs the row's calls in
//! the emulator with the default timing model (`X86Params::default()`, Zen 4) and prints
//!     MODEL key back_to_back drained instructions
//! With TRACEDIR, also writes `TRACEDIR/<key>.s`: the instructions one iteration executed, for
//! llvm-mca.

mod att;
mod call;
mod error;
mod rows;

use std::path::Path;

use arch_x86::run::{load_object_with, prepare, RunConfig, SENTINEL};
use emu_core::harness::Harness;

use call::{Call, Frame};
use error::ModelError;
use rows::Row;

/// Instructions one call may take (the 40-CPU old timer-target walk needs a few thousand).
const BUDGET: u64 = 200_000;

fn read(path: &Path) -> Result<Vec<u8>, ModelError> {
    std::fs::read(path).map_err(|e| ModelError::Io { path: path.display().to_string(), what: e.to_string() })
}

fn run_row(
    row: &Row,
    objdir: &Path,
    suffix: &str,
    harnessdir: &Path,
    tracedir: Option<&Path>,
) -> Result<(), ModelError> {
    let setup = |what: String| ModelError::Setup { row: row.key.clone(), what };
    let bytes = read(&objdir.join(format!("{}{suffix}", row.object)))?;
    let text = read(&harnessdir.join(row.harness))?;
    let text = String::from_utf8(text).map_err(|e| setup(e.to_string()))?;
    let harness = Harness::parse(row.harness, &text).map_err(|e| setup(e.to_string()))?;
    let outer = |name: &str| (name == "sentinel").then_some(SENTINEL);
    let env = harness.env(&outer).map_err(|e| setup(e.to_string()))?;
    let image = load_object_with(&bytes, &|name| env.lookup(name)).map_err(|e| setup(e.to_string()))?;

    let cfg = RunConfig { harness: Some(harness.clone()), max_insns: BUDGET, ..RunConfig::default() };
    let (mut machine, harness) = prepare(&image, &cfg).map_err(|e| setup(e.to_string()))?;
    let symbol = |name: &str| match name {
        "sentinel" => Some(SENTINEL),
        _ => image.symbol(name).map(|s| s.value),
    };
    let env = harness.env(&symbol).map_err(|e| setup(e.to_string()))?;
    let value = |expr: &str| -> Result<u64, ModelError> {
        expr.parse::<u64>()
            .ok()
            .or_else(|| env.lookup(expr))
            .ok_or_else(|| setup(format!("`{expr}` is neither a number nor a harness name")))
    };
    let mut calls = Vec::new();
    for c in &row.calls {
        calls.push(Call { entry: value(c.entry)?, rdi: value(c.rdi)?, rsi: c.rsi });
    }
    let mut resets = Vec::new();
    for r in &row.resets {
        resets.push((value(r.region)?.wrapping_add(r.offset), r.value));
    }
    let frame = Frame { stack_top: machine.cpu.state.reg(4), sentinel: SENTINEL, resets, max_insns: BUDGET };
    let t = call::time_row(&mut machine, &frame, &calls)?;
    println!("MODEL {} {:.2} {:.2} {}", row.key, t.back_to_back, t.drained, t.instructions);
    if let Some(dir) = tracedir {
        let text = att::listing(&machine.mem, &t.trace)?;
        let path = dir.join(format!("{}.s", row.key));
        std::fs::write(&path, text)
            .map_err(|e| ModelError::Io { path: path.display().to_string(), what: e.to_string() })?;
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [objdir, suffix, harnessdir, rest @ ..] if rest.len() <= 1 => {
            let tracedir = rest.first().map(Path::new);
            rows::all()
                .iter()
                .try_for_each(|row| run_row(row, Path::new(objdir), suffix, Path::new(harnessdir), tracedir))
        }
        _ => Err(ModelError::Usage(format!("{} arguments", args.len()))),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fidelity-model: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
