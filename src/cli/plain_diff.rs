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
    /// Name shown in the output and in messages: the file, or what a patch or defines made
    /// of it (`f.S+fix.diff`, `f.S (-DFOO)`; [`emu_core::diff::naming::name_side`]).
    pub label: String,
    /// How it was built, for the legend (empty for a file as it is).
    pub built: String,
    /// The file, its defines, and its text when a patch changed it.
    pub program: Program,
}

impl PlainSide {
    /// The legend's text: the name, and how it was built when that says more.
    pub fn legend(&self) -> String {
        if self.built.is_empty() {
            self.label.clone()
        } else {
            format!("{}: {}", self.label, self.built)
        }
    }
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

/// How a plain diff is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlainFormat {
    /// For a terminal: the report with both timelines.
    Text,
    /// The reports as JSON.
    Json,
    /// Plain ASCII of at most 72 columns for a patch review: the report without the timelines.
    Mail,
}

/// What the runs were, for the model and entry line: the harness file, the `--set`s.
#[derive(Debug, Clone, Default)]
pub struct RunContext {
    /// The `--harness` file, if one was given.
    pub harness: Option<String>,
    /// The `--set REG=VALUE` arguments.
    pub sets: Vec<String>,
}

/// Runs both sides once, on the core of `arch`, with the same settings (the timeline on, for
/// the attribution), and renders the comparison.
///
/// # Errors
/// Load, setup or execution errors of either side.
pub fn run(
    a: &PlainSide,
    b: &PlainSide,
    arch: Arch,
    spec: &RunSpec,
    format: PlainFormat,
    context: &RunContext,
) -> Result<String, CliError> {
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
    let out = match format {
        PlainFormat::Json => {
            let side = |s: &PlainSide, f: &Finished| serde_json::json!({ "name": s.label, "report": f.report, "groups": f.groups });
            let v = serde_json::json!({ "a": side(a, &fa), "b": side(b, &fb) });
            serde_json::to_string_pretty(&v).map(|s| s + "\n").map_err(|e| CliError::Usage(e.to_string()))?
        }
        PlainFormat::Text | PlainFormat::Mail => {
            let run = RunLine { arch, entry: spec.entry.as_deref(), context };
            let text = render(&[(a, &fa), (b, &fb)], &run, format == PlainFormat::Text);
            if format == PlainFormat::Mail {
                emu_core::diff::render::mail(&text)
            } else {
                text
            }
        }
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

/// The core, entry and settings both runs had, for the model line.
pub struct RunLine<'a> {
    /// The core.
    pub arch: Arch,
    /// `--entry`, if given.
    pub entry: Option<&'a str>,
    /// The harness and `--set`s.
    pub context: &'a RunContext,
}

/// The timing model of a core, as the model line names it.
pub fn model_name(arch: Arch) -> &'static str {
    match arch {
        Arch::Ia64 => "Itanium 2 (Madison)",
        Arch::X86_64 => "x86-64 (Zen 4 model)",
        Arch::S390x => "s390x (z13 model)",
    }
}

/// `model: Itanium 2 (Madison) at 1.5 GHz; one run each from ENTRY under HARNESS, --set ...`.
fn model_line(run: &RunLine<'_>) -> String {
    let clock = super::trace_out::clock_mhz(run.arch, None)
        .map_or_else(|_| String::new(), |mhz| format!(" at {}", emu_core::diff::headline::clock_text(mhz * 1_000_000)));
    let entry = run.entry.map_or_else(|| "the default entry".to_string(), |e| format!("`{e}`"));
    let harness = run.context.harness.as_ref().map_or_else(|| "the default harness".to_string(), |h| h.clone());
    let mut line = format!("model: {}{clock}; one run each from {entry} under {harness}", model_name(run.arch));
    if !run.context.sets.is_empty() {
        line.push_str(&format!(", --set {}", run.context.sets.join(" ")));
    }
    line
}

/// `n` cycles as words: `1 cycle`, `7 cycles`.
fn cycles(n: u64) -> String {
    if n == 1 {
        "1 cycle".to_string()
    } else {
        format!("{n} cycles")
    }
}

/// The headline: which side is cheaper and by how much (cycles, %, ns at the model's clock),
/// how each run ended, and whether the final states agree.
fn headline(fa: &Finished, fb: &Finished, run: &RunLine<'_>, changed: usize) -> Vec<String> {
    let (ca, cb) = (fa.report.summary.cycles, fb.report.summary.cycles);
    let mhz = super::trace_out::clock_mhz(run.arch, None).unwrap_or(0);
    let ns = |c: u64| if mhz == 0 { String::new() } else { format!(", {:.1} ns", c as f64 * 1000.0 / mhz as f64) };
    let pct =
        || if ca == 0 { "-".to_string() } else { format!("{:+.1}%", (cb as f64 - ca as f64) * 100.0 / ca as f64) };
    let mut out = vec![match cb.cmp(&ca) {
        std::cmp::Ordering::Equal => format!("B and A cost the same: {} per run.", cycles(ca)),
        std::cmp::Ordering::Less => {
            format!("B saves {} over A ({}{}): {cb} against {ca} per run.", cycles(ca - cb), pct(), ns(ca - cb))
        }
        std::cmp::Ordering::Greater => {
            format!("B costs {} more than A ({}{}): {cb} against {ca} per run.", cycles(cb - ca), pct(), ns(cb - ca))
        }
    }];
    let (sa, sb) = (&fa.report.stop, &fb.report.stop);
    out.push(if sa == sb {
        format!("Both runs stop the same way: {sa}.")
    } else {
        format!("A stops: {sa}; B stops: {sb}.")
    });
    out.push(match changed {
        0 => "Final state: identical.".to_string(),
        1 => "Final state: 1 register differs.".to_string(),
        n => format!("Final state: {n} registers differ."),
    });
    out
}

/// The side-by-side text: the headline, the legend and model line, totals, stalls, where the
/// cycles went (by symbol and instruction group, with the reasons each waited), the final
/// state, and with `timelines` both timelines.
pub fn render(sides: &[(&PlainSide, &Finished); 2], run: &RunLine<'_>, timelines: bool) -> String {
    let [(sa, fa), (sb, fb)] = *sides;
    let (a, b) = (&fa.report, &fb.report);
    let d = diff(&a.snapshot, &b.snapshot);
    let mut out = String::new();
    for line in headline(fa, fb, run, d.changes.len()) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "\nA = {}\nB = {}", sa.legend(), sb.legend());
    let _ = writeln!(out, "{}\n", model_line(run));
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
    if d.is_empty() {
        let _ = writeln!(out, "\nfinal state: identical");
    } else {
        let _ = writeln!(out, "\nfinal state (A -> B):\n{d}");
    }
    match (&a.timeline, &b.timeline) {
        (Some(ta), Some(tb)) if timelines => {
            let _ = writeln!(out, "\ntimeline A:\n{ta}\ntimeline B:\n{tb}");
        }
        (Some(_), Some(_)) => {
            let _ = writeln!(out, "(the timelines: --format text)");
        }
        _ => {}
    }
    out
}
