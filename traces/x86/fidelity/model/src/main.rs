//! The model side of the x86 fidelity table (traces/x86/fidelity/fidelity.sh).
//!
//! `fidelity-model [--preset zen4|golden-cove] OBJDIR SUFFIX HARNESSDIR [TRACEDIR]`: for every row
//! of [`rows::all`], loads `OBJDIR/<object>SUFFIX` with its externs resolved to the harness regions
//! of the same name (as the CLI's `load_trace_object` does), applies `HARNESSDIR/<harness>`, runs
//! the row's calls in the emulator with the preset's timing model (default `X86Params::default()`,
//! Zen 4; fidelity.sh passes the preset of the host's core, from CPUID) and prints
//!     MODEL key back_to_back drained instructions
//! With TRACEDIR, also writes `TRACEDIR/<key>.s`: the instructions one iteration executed, for
//! llvm-mca.

mod att;
mod call;
mod error;
mod rows;

use std::path::Path;

use arch_x86::run::{load_object_with, prepare, RunConfig, SENTINEL};
use arch_x86::timing::X86Params;
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
    params: &X86Params,
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
    machine.cpu.set_timing(params.clone());
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
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut params = Ok(X86Params::default());
    if args.first().map(String::as_str) == Some("--preset") {
        params = match args.get(1).map(String::as_str) {
            Some("zen4") => Ok(X86Params::zen4()),
            Some("golden-cove") => Ok(X86Params::golden_cove()),
            other => Err(ModelError::Usage(format!("unknown preset {other:?} (zen4, golden-cove)"))),
        };
        args.drain(..args.len().min(2));
    }
    let result = params.and_then(|params| match args.as_slice() {
        [objdir, suffix, harnessdir, rest @ ..] if rest.len() <= 1 => {
            let tracedir = rest.first().map(Path::new);
            rows::all()
                .iter()
                .try_for_each(|row| run_row(row, Path::new(objdir), suffix, Path::new(harnessdir), tracedir, &params))
        }
        _ => Err(ModelError::Usage(format!("{} arguments", args.len()))),
    });
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fidelity-model: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
