//! `acctemu diff` of two plain programs of one architecture (sources or objects, on any core):
//! one run each from the same entry under the same harness and `--set`s, compared side by
//! side (cycles, instructions, groups, stalls, where the cycles went, final state).

use super::core::{dispatch, Arch, Finished, Program, RunPrograms, RunSpec};
use super::{read, CliError};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::report::RunReport;
use emu_core::run::RunError;
use emu_core::snapshot::diff;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// One side of a plain diff: its name and the program that runs.
#[derive(Debug, Clone)]
pub struct PlainSide {
    /// Name shown in the output and in messages.
    pub label: String,
    /// The file, its defines, and its text when a patch changed it.
    pub program: Program,
}

/// Reads `path`, applies `patch` (a unified diff) when given; a patch that does not apply is
/// an error naming both files.
///
/// # Errors
/// Unreadable files; a malformed patch or one that does not apply.
pub fn source_text(path: &Path, patch: Option<&Path>) -> Result<String, CliError> {
    let text = super::binary::source_text(path, &read(path)?, "diff")?;
    let Some(patch_path) = patch else { return Ok(text) };
    let patch_text = String::from_utf8_lossy(&read(patch_path)?).into_owned();
    apply_patch(&text, &path.display().to_string(), &patch_path.display().to_string(), &patch_text)
}

/// Applies the unified diff `patch_text` (named `patch_name`) to `source` (named `source_name`)
/// with diffy, as `acctemu diff --patch` does for files and catalogue traces alike.
///
/// # Errors
/// A malformed or empty patch, or one that does not apply; the message names the patch, the
/// hunk and its line, and the source (see [`super::patch::apply`]).
pub fn apply_patch(source: &str, source_name: &str, patch_name: &str, patch_text: &str) -> Result<String, CliError> {
    Ok(super::patch::apply(source, source_name, patch_name, patch_text)?)
}

/// Runs both sides once, on the core of `arch`, with the same settings (the timeline on, for
/// the attribution), and renders the comparison.
///
/// # Errors
/// Load, setup or execution errors of either side.
pub fn run(a: &PlainSide, b: &PlainSide, arch: Arch, spec: &RunSpec, json: bool) -> Result<String, CliError> {
    let spec = RunSpec { timeline: true, attribute: true, ..spec.clone() };
    let programs = [a.program.clone(), b.program.clone()];
    let sides = [("A", a), ("B", b)];
    let done = dispatch(arch, RunPrograms { programs: &programs, spec: &spec }).map_err(|e| {
        let (name, side) = sides[e.side.min(1)];
        match e.error {
            CliError::Run(r) => match *r {
                RunError::Setup(d) => {
                    CliError::Setup(side_note(d, name, &side.label, &side.program.file.display().to_string()))
                }
                r => CliError::Run(Box::new(r)),
            },
            e => e,
        }
    })?;
    let [fa, fb] = <[Finished; 2]>::try_from(done).map_err(|_| CliError::Usage("diff: two runs expected".into()))?;
    let out = if json {
        let side = |s: &PlainSide, f: &Finished| serde_json::json!({ "name": s.label, "report": f.report, "groups": f.groups });
        let v = serde_json::json!({ "a": side(a, &fa), "b": side(b, &fb) });
        serde_json::to_string_pretty(&v).map(|s| s + "\n").map_err(|e| CliError::Usage(e.to_string()))?
    } else {
        render(&a.label, &fa, &b.label, &fb)
    };
    // A side that did not reach its end compares a partial run: still shown, but not a result.
    let early: Vec<String> = [(&a.label, &fa), (&b.label, &fb)]
        .iter()
        .filter(|(_, f)| !f.ended)
        .map(|(label, f)| format!("{label}: {}", f.report.stop))
        .collect();
    if early.is_empty() {
        Ok(out)
    } else {
        Err(CliError::Stopped { report: out, stop: early.join("; ") })
    }
}

/// `d` with a note saying it concerns diff side `name` (`label`, from `file`).
pub fn side_note(d: Diagnostic, name: &str, label: &str, file: &str) -> Diagnostic {
    d.with_note(SourceLoc::new(file.into(), 0, 0), format!("in diff side {name} = {label}"))
}

fn row(out: &mut String, name: &str, a: u64, b: u64) {
    let delta = b as i128 - a as i128;
    let _ = writeln!(out, "  {name:<28} {a:>10} {b:>10} {delta:>+10}");
}

/// The side-by-side text: totals, stalls, where the cycles went (by symbol and instruction
/// group, with the reasons each waited), the final state, the timelines.
pub fn render(a_name: &str, fa: &Finished, b_name: &str, fb: &Finished) -> String {
    let (a, b) = (&fa.report, &fb.report);
    let mut out = String::new();
    let _ = writeln!(out, "A = {a_name}\nB = {b_name}\n");
    let _ = writeln!(out, "  {:<28} {:>10} {:>10} {:>10}", "", "A", "B", "B-A");
    row(&mut out, "cycles", a.summary.cycles, b.summary.cycles);
    row(&mut out, "instructions", a.summary.instructions, b.summary.instructions);
    row(&mut out, "nops", a.summary.nops, b.summary.nops);
    row(&mut out, "instruction groups", a.summary.groups, b.summary.groups);
    let causes: BTreeSet<&String> = a.summary.stalls.keys().chain(b.summary.stalls.keys()).collect();
    for cause in causes {
        let get = |r: &RunReport| r.summary.stalls.get(cause).copied().unwrap_or(0);
        row(&mut out, &format!("stall: {cause}"), get(a), get(b));
    }
    if a.stop != b.stop {
        let _ = writeln!(out, "\nstop: A {} / B {}", a.stop, b.stop);
    }
    if !fa.groups.is_empty() || !fb.groups.is_empty() {
        let _ = write!(out, "\n{}", super::attribution::render_diff(&fa.groups, &fb.groups, 12));
    }
    let d = diff(&a.snapshot, &b.snapshot);
    if d.is_empty() {
        let _ = writeln!(out, "\nfinal state: identical");
    } else {
        let _ = writeln!(out, "\nfinal state (A -> B):\n{d}");
    }
    if let (Some(ta), Some(tb)) = (&a.timeline, &b.timeline) {
        let _ = writeln!(out, "\ntimeline A:\n{ta}\ntimeline B:\n{tb}");
    }
    out
}
