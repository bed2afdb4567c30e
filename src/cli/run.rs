//! `acctemu run FILE`: assemble or load, run under a harness, print cycles, counts, stalls,
//! counters and the final state; write or check a snapshot.

use super::core::{dispatch, is_relocatable, Arch, ExplainModel, Finished, Ia64Flags, Program, RunPrograms, RunSpec};
use super::{read, CliError};
use emu_core::echo::escape_truncated;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::Harness;
use emu_core::report::RunReport;
use emu_core::snapshot::{diff, Snapshot, Value};
use std::fmt::Write as _;
use std::path::PathBuf;

mod render;

/// Output format of `acctemu run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable tables.
    Text,
    /// The whole report as JSON.
    Json,
    /// The report as YAML (summary and counters, then the snapshot).
    Yaml,
}

/// What `acctemu run` was asked to do.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// Source (`.S`) or ELF object.
    pub file: PathBuf,
    /// More relocatable objects linked with `file` (one architecture).
    pub more_files: Vec<PathBuf>,
    /// Harness file.
    pub harness: Option<PathBuf>,
    /// Entry symbol.
    pub entry: Option<String>,
    /// `REG=VALUE` overrides.
    pub sets: Vec<String>,
    /// Preprocessor defines.
    pub defines: Vec<String>,
    /// Include directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-U`, `-include` and the kernel-tree flags.
    pub pp: super::kernel::PpArgs,
    /// Print the per-group timeline.
    pub timeline: bool,
    /// Output format.
    pub format: Format,
    /// Instruction budget.
    pub max_insns: u64,
    /// Run without the timing model.
    pub no_timing: bool,
    /// ar.itc ticks per modelled cycle.
    pub itc_ratio: u64,
    /// Write the final state here.
    pub snapshot: Option<PathBuf>,
    /// Compare the final state with this snapshot.
    pub check: Option<PathBuf>,
    /// The s390x timing model's generation (`--model`; default z13).
    pub model: Option<String>,
    /// `--trace-out`: write the timeline as Chrome/Perfetto trace-event JSON (issue 18).
    pub trace_out: Option<PathBuf>,
    /// `--pressure`: print resource pressure per port and latencies (issue 18).
    pub pressure: bool,
    /// `--arch`: the core of a source (an object's is its ELF machine).
    pub arch: Option<Arch>,
    /// `-v`: print every register, not only those the run changed (text format).
    pub verbose: bool,
}

/// The outcome: text for stdout, whether a `--check` found differences, and whether the code
/// ran to its expected end.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// What to print.
    pub stdout: String,
    /// `--check` failed.
    pub mismatch: bool,
    /// Why the run stopped when that was not its expected end (return to the sentinel or
    /// `rfi`): the budget, an interruption, a halt.
    pub stopped_early: Option<String>,
}

/// Every input file of a run, the first one first.
fn all_files(req: &RunRequest) -> Vec<&PathBuf> {
    std::iter::once(&req.file).chain(&req.more_files).collect()
}

/// Refuses several files of more than one architecture, or several files that are not all
/// relocatable objects (linking, issue 14; the cores that do not link refuse several).
fn check_inputs(req: &RunRequest, first: &[u8]) -> Result<(), CliError> {
    if req.more_files.is_empty() {
        return Ok(());
    }
    let name = |m: Option<u16>| m.map_or("not an ELF object", emu_core::elf::machine_name);
    let want = emu_core::elf::machine(first);
    for path in all_files(req) {
        let bytes = read(path)?;
        if !is_relocatable(&bytes) {
            return Err(CliError::Usage(format!(
                "{}: several files are linked, and each must be a relocatable ELF object (.o)",
                path.display()
            )));
        }
        let m = emu_core::elf::machine(&bytes);
        if m != want {
            return Err(CliError::Usage(format!(
                "mixed architectures: {} is {}, but {} is {}; link objects of one architecture",
                req.file.display(),
                name(want),
                path.display(),
                name(m)
            )));
        }
    }
    // Whether the core links objects is its own question (`CliCore::load`).
    Ok(())
}

/// The settings of the request, for whichever core runs it.
fn spec(req: &RunRequest, harness: Option<Harness>, sets: Vec<(String, String)>) -> RunSpec {
    RunSpec {
        include_dirs: req.include_dirs.clone(),
        pp: req.pp.clone(),
        entry: req.entry.clone(),
        harness,
        sets,
        max_insns: req.max_insns,
        timing: !req.no_timing,
        timeline: req.timeline || req.trace_out.is_some() || req.pressure,
        attribute: false,
        ia64: Ia64Flags { itc_ratio: req.itc_ratio },
        model: req.model.clone(),
    }
}

/// Runs the request.
///
/// # Errors
/// Unreadable or invalid input, setup errors, execution errors.
pub fn run(req: &RunRequest) -> Result<RunOutcome, CliError> {
    let harness = match &req.harness {
        Some(path) => {
            let text = String::from_utf8_lossy(&read(path)?).into_owned();
            Some(Harness::parse(&path.display().to_string(), &text).map_err(CliError::Setup)?)
        }
        None => None,
    };
    let mut sets = Vec::new();
    for s in &req.sets {
        let (name, value) =
            s.split_once('=').ok_or_else(|| CliError::Usage(format!("--set {s}: expected REG=VALUE")))?;
        sets.push((name.trim().to_string(), value.trim().to_string()));
    }
    let bytes = read(&req.file)?;
    let arch = Arch::of_input(&req.file, &bytes, req.arch)?;
    check_inputs(req, &bytes)?;
    let program = Program {
        file: req.file.clone(),
        more_files: req.more_files.clone(),
        content: None,
        defines: req.defines.clone(),
    };
    let spec = spec(req, harness, sets);
    let file = req.file.display().to_string();
    let mut done =
        dispatch(arch, RunPrograms { programs: std::slice::from_ref(&program), spec: &spec }).map_err(|e| {
            match e.error {
                CliError::Run(r) => match *r {
                    emu_core::run::RunError::Setup(d) => CliError::Setup(d.in_file(&file)),
                    r => CliError::Run(Box::new(r)),
                },
                e => e,
            }
        })?;
    let Some(Finished { report: rep, ended, places, .. }) = done.pop() else {
        return Err(CliError::Usage("run: nothing ran".into()));
    };
    let mut out = match req.format {
        Format::Text if req.verbose => render::full(&rep, req.timeline.then_some(&places)),
        // A check shows its differences instead of the run's changes (and only those).
        Format::Text if req.check.is_some() => String::new(),
        Format::Text => render::quiet(&rep, req.timeline.then_some(&places)),
        Format::Json => serde_json::to_string_pretty(&rep).map_err(|e| CliError::Usage(e.to_string()))? + "\n",
        Format::Yaml => yaml(&rep),
    };
    after_run(req, arch, &rep, &places, &mut out)?;
    if let Some(path) = &req.snapshot {
        std::fs::write(path, rep.snapshot.to_snap_file())
            .map_err(|source| CliError::Io { path: path.clone(), source })?;
        if req.format == Format::Text {
            let n = rep.snapshot.registers.len();
            let _ = writeln!(out, "snapshot {}: written ({n} registers)", path.display());
        }
    }
    let mut mismatch = false;
    if let Some(path) = &req.check {
        let want = read_snapshot(path, &rep.snapshot)?;
        let d = diff(&want, &rep.snapshot);
        mismatch = !d.is_empty();
        out.push_str(&render::check(&path.display().to_string(), &want, &d));
    }
    let stopped_early = (!ended).then(|| rep.stop.clone());
    Ok(RunOutcome { stdout: out, mismatch, stopped_early })
}

/// `--explain-model`: the timing model of the core that would run the request: the file's
/// (an object's machine, or a source and `--arch`), else `--arch`'s, else s390x for a
/// `--model`, else IA-64 (issue 16).
///
/// # Errors
/// A file that cannot be read, a `--model` of no s390x generation or for another core.
pub fn explain_model(req: &RunRequest) -> Result<String, CliError> {
    let spec = spec(req, None, Vec::new());
    let arch = if req.file.as_os_str().is_empty() {
        Arch::without_input(req.arch, &spec)
    } else {
        Arch::of_input(&req.file, &read(&req.file)?, req.arch)?
    };
    dispatch(arch, ExplainModel(&spec))
}

/// Reads the `--check` snapshot at `path`. A file that is not snapshot YAML, or a register whose
/// value is of another kind than a run writes for it (text or a flag where `actual` holds a
/// word, say), is an error at its `file:line`, not a difference: no run could match it.
fn read_snapshot(path: &std::path::Path, actual: &Snapshot) -> Result<Snapshot, CliError> {
    let golden = String::from_utf8_lossy(&read(path)?).into_owned();
    let at = |line: usize, message: String| {
        let loc = SourceLoc::new(path.display().to_string().into(), u32::try_from(line).unwrap_or(u32::MAX), 0);
        CliError::Setup(Diagnostic::error(loc, format!("in the snapshot: {message}")))
    };
    let (want, lines) = Snapshot::from_yaml_located(&golden).map_err(|e| at(e.line, e.message))?;
    for ((name, value), line) in want.registers.iter().zip(lines) {
        let Some(have) = actual.register(name) else { continue };
        let kind = |v: &Value| match v {
            Value::Hex(_) => "a 64-bit word (0x and 16 lowercase hex digits)",
            Value::Bool(_) => "a flag (true or false)",
            Value::Text(_) => "the architecture's text form",
        };
        if std::mem::discriminant(value) != std::mem::discriminant(have) {
            return Err(at(
                line,
                format!(
                    "register '{name}' has the malformed value '{}' (it must be {})",
                    escape_truncated(&value.to_string(), 0),
                    kind(have)
                ),
            ));
        }
    }
    Ok(want)
}

fn yaml(rep: &RunReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "stop: {:?}", rep.stop);
    let s = &rep.summary;
    let _ = writeln!(
        out,
        "summary:\n  cycles: {}\n  instructions: {}\n  nops: {}\n  groups: {}",
        s.cycles, s.instructions, s.nops, s.groups
    );
    if !s.stalls.is_empty() {
        let _ = writeln!(out, "  stalls:");
        for (cause, cycles) in &s.stalls {
            let _ = writeln!(out, "    {cause:?}: {cycles}");
        }
    }
    if !rep.counters.is_empty() {
        let _ = writeln!(out, "counters:");
        for c in &rep.counters {
            let _ = writeln!(out, "  {}: {{ value: {}, unit: {:?} }}", c.name, c.value, c.unit);
        }
    }
    out.push_str(&rep.snapshot.to_yaml());
    out
}

/// `run`'s `--trace-out` and `--pressure`, after the run: writes the file, appends the
/// pressure tables to `out`.
///
/// # Errors
/// No timeline was recorded (`--no-timing`), an unknown `--model`, an unwritable file.
pub fn after_run(
    req: &RunRequest,
    arch: super::core::Arch,
    rep: &RunReport,
    places: &super::places::Places,
    out: &mut String,
) -> Result<(), CliError> {
    if req.trace_out.is_none() && !req.pressure {
        return Ok(());
    }
    let Some(timeline) = rep.timeline.as_ref().filter(|_| !req.no_timing) else {
        return Err(CliError::Usage(
            "--trace-out and --pressure need the timing model's timeline; drop --no-timing".into(),
        ));
    };
    if let Some(path) = &req.trace_out {
        let side = super::trace_out::Side {
            name: req.file.display().to_string(),
            arch,
            model: req.model.as_deref(),
            timeline,
            places,
        };
        super::trace_out::write(path, &[side])?;
    }
    if req.pressure {
        out.push_str(&super::pressure::render(arch, timeline, rep.summary.cycles, places));
    }
    Ok(())
}
