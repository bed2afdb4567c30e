//! `acctemu diff` of two plain programs: one run each from the same entry under the same
//! harness, compared side by side (cycles, instructions, groups, stalls, final state).

use super::{read, CliError};
use arch_ia64::run::{run_image_until, RunConfig, RunError};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::report::RunReport;
use emu_core::snapshot::diff;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One side of a diff given as source text.
#[derive(Debug, Clone)]
pub struct SourceSide {
    /// Name shown in the output and in messages.
    pub label: String,
    /// Source file name (for diagnostics).
    pub file: String,
    /// The text (after any patch).
    pub text: String,
    /// `-D` definitions for this side.
    pub defines: Vec<String>,
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

/// Assembles one side.
///
/// # Errors
/// Assembly errors.
pub fn assemble_side(
    side: &SourceSide,
    include_dirs: &[PathBuf],
    pp: &super::kernel::PpArgs,
) -> Result<Image, CliError> {
    let pp = pp.prepare(&side.defines, include_dirs)?;
    let asm =
        arch_ia64::asm::assemble(&side.file, &side.text, &pp.options, &pp.loader()).map_err(CliError::Assemble)?;
    Ok(asm.image)
}

/// Runs both sides once and renders the comparison.
///
/// # Errors
/// Assembly, setup or execution errors of either side.
pub fn run(
    a: &SourceSide,
    b: &SourceSide,
    include_dirs: &[PathBuf],
    pp: &super::kernel::PpArgs,
    entry: Option<String>,
    harness: Option<Harness>,
    json: bool,
) -> Result<String, CliError> {
    let cfg = RunConfig { entry, harness, timeline: true, ..RunConfig::default() };
    let (ra, a_ended) = run_side(&assemble_side(a, include_dirs, pp)?, &cfg).map_err(|e| in_side("A", a, e))?;
    let (rb, b_ended) = run_side(&assemble_side(b, include_dirs, pp)?, &cfg).map_err(|e| in_side("B", b, e))?;
    let out = if json {
        let v = serde_json::json!({ "a": { "name": a.label, "report": ra }, "b": { "name": b.label, "report": rb } });
        serde_json::to_string_pretty(&v).map(|s| s + "\n").map_err(|e| CliError::Usage(e.to_string()))?
    } else {
        render(&a.label, &ra, &b.label, &rb)
    };
    // A side that did not reach its end compares a partial run: still shown, but not a result.
    let early: Vec<String> = [(&a.label, &ra, a_ended), (&b.label, &rb, b_ended)]
        .iter()
        .filter(|(_, _, ended)| !ended)
        .map(|(label, r, _)| format!("{label}: {}", r.stop))
        .collect();
    if early.is_empty() {
        Ok(out)
    } else {
        Err(CliError::Stopped { report: out, stop: early.join("; ") })
    }
}

/// Runs one side's image, and says whether it reached its expected end (the sentinel, or an
/// `rfi` the configuration stops on).
fn run_side(image: &Image, cfg: &RunConfig) -> Result<(RunReport, bool), RunError> {
    let (rep, reason) = run_image_until(image, cfg)?;
    Ok((rep, reason.is_expected_end()))
}

/// A harness error of one side, with a note naming the side: one harness serves both, and
/// a field that one build does not define (its layout differs) is refused for that side only.
fn in_side(name: &str, side: &SourceSide, e: RunError) -> CliError {
    match e {
        RunError::Setup(d) => CliError::Setup(side_note(d, name, &side.label, &side.file)),
        e => CliError::Run(e),
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

/// The side-by-side text.
pub fn render(a_name: &str, a: &RunReport, b_name: &str, b: &RunReport) -> String {
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
