//! `acctemu run FILE`: assemble or load, run under a harness, print cycles, counts, stalls,
//! counters and the final state; write or check a snapshot.

use super::{read, CliError};
use arch_ia64::run::RunConfig;
use emu_core::echo::escape_truncated;
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::report::RunReport;
use emu_core::snapshot::{diff, Snapshot, Value};
use std::fmt::Write as _;
use std::path::PathBuf;

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

/// A finished run: its report and whether it reached its expected end.
struct Finished {
    report: RunReport,
    ended: bool,
}

/// What `run` executes on IA-64: an image, or a link of objects with its stubs.
enum Loaded {
    Image(Image),
    Linked(emu_core::link::Linked),
}

/// Whether `bytes` are a relocatable ELF object (`e_type` ET_REL, in either byte order).
fn is_relocatable(bytes: &[u8]) -> bool {
    let e_type = match (bytes.get(5), bytes.get(16), bytes.get(17)) {
        (Some(2), Some(hi), Some(lo)) => u16::from_be_bytes([*hi, *lo]),
        (_, Some(lo), Some(hi)) => u16::from_le_bytes([*lo, *hi]),
        _ => return false,
    };
    emu_core::elf::is_elf(bytes) && e_type == 1
}

/// Every input file of a run, the first one first.
fn all_files(req: &RunRequest) -> Vec<&PathBuf> {
    std::iter::once(&req.file).chain(&req.more_files).collect()
}

/// Refuses several files of more than one architecture, or several files that are not all
/// relocatable objects (linking, issue 14).
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
    if want != Some(arch_ia64::reloc::EM_IA_64) {
        return Err(CliError::Usage(format!(
            "linking several objects is supported for IA-64 objects; {} is {}",
            req.file.display(),
            name(want)
        )));
    }
    Ok(())
}

/// Links the run's IA-64 objects with the harness's bindings.
fn link_objects(req: &RunRequest, harness: Option<&Harness>) -> Result<emu_core::link::Linked, CliError> {
    let mut files = Vec::new();
    for path in all_files(req) {
        let bytes = read(path)?;
        arch_ia64::elf::check_relocations_sane(&bytes)
            .map_err(|source| CliError::Elf { path: path.clone(), source })?;
        files.push((path.display().to_string(), bytes));
    }
    let objects: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let bindings = arch_ia64::link::bindings(harness, &[]).map_err(CliError::Setup)?;
    arch_ia64::link::link(&objects, &bindings).map_err(|e| CliError::Link(Box::new(e)))
}

fn load_ia64(req: &RunRequest, harness: Option<&Harness>) -> Result<Loaded, CliError> {
    let bytes = read(&req.file)?;
    if arch_ia64::elf::is_elf(&bytes) && (is_relocatable(&bytes) || !req.more_files.is_empty()) {
        check_inputs(req, &bytes)?;
        // A malformed header is named by the loader's own checks first.
        arch_ia64::elf::load(&bytes).map_err(|source| CliError::Elf { path: req.file.clone(), source })?;
        return link_objects(req, harness).map(Loaded::Linked);
    }
    load_image(req).map(Loaded::Image)
}

fn load_image(req: &RunRequest) -> Result<Image, CliError> {
    let bytes = read(&req.file)?;
    if !req.more_files.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: several files are linked, and each must be a relocatable ELF object (.o)",
            req.file.display()
        )));
    }
    if arch_ia64::elf::is_elf(&bytes) {
        return arch_ia64::elf::load_for_run(&bytes).map_err(|source| CliError::Elf { path: req.file.clone(), source });
    }
    let text = super::binary::source_text(&req.file, &bytes, "run")?;
    let pp = req.pp.prepare(&req.defines, &req.include_dirs)?;
    let name = req.file.display().to_string();
    let asm = arch_ia64::asm::assemble(&name, &text, &pp.options, &pp.loader()).map_err(CliError::Assemble)?;
    Ok(asm.image)
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
    let machine = emu_core::elf::machine(&bytes);
    if let Some(m) = req.model.as_deref().filter(|_| machine != Some(arch_s390::reloc::EM_S390)) {
        return Err(CliError::Usage(format!("--model {m}: generation presets exist for s390x objects only")));
    }
    check_inputs(req, &bytes)?;
    let Finished { report: rep, ended } = if machine == Some(arch_x86::reloc::EM_X86_64) {
        run_x86(req, &bytes, harness, sets)?
    } else if machine == Some(arch_s390::reloc::EM_S390) {
        run_s390(req, &bytes, harness, sets)?
    } else {
        run_ia64(req, harness, sets)?
    };
    let mut out = match req.format {
        Format::Text => text(&rep, req.timeline),
        Format::Json => serde_json::to_string_pretty(&rep).map_err(|e| CliError::Usage(e.to_string()))? + "\n",
        Format::Yaml => yaml(&rep),
    };
    if let Some(path) = &req.snapshot {
        std::fs::write(path, rep.snapshot.to_snap_file())
            .map_err(|source| CliError::Io { path: path.clone(), source })?;
    }
    let mut mismatch = false;
    if let Some(path) = &req.check {
        let want = read_snapshot(path, &rep.snapshot)?;
        let d = diff(&want, &rep.snapshot);
        if d.is_empty() {
            let _ = writeln!(out, "snapshot {}: matches", path.display());
        } else {
            mismatch = true;
            let _ = writeln!(out, "snapshot {}: differs (expected -> actual):\n{d}", path.display());
        }
    }
    let stopped_early = (!ended).then(|| rep.stop.clone());
    Ok(RunOutcome { stdout: out, mismatch, stopped_early })
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

/// The IA-64 path: assemble or load, run, report.
fn run_ia64(req: &RunRequest, harness: Option<Harness>, sets: Vec<(String, String)>) -> Result<Finished, CliError> {
    let loaded = load_ia64(req, harness.as_ref())?;
    let cfg = RunConfig {
        entry: req.entry.clone(),
        harness,
        sets,
        max_insns: req.max_insns,
        timing: !req.no_timing,
        options: arch_ia64::run::Ia64Options { itc_per_cycle: req.itc_ratio },
        timeline: req.timeline,
        ..RunConfig::default()
    };
    let file = req.file.display().to_string();
    let result = match &loaded {
        Loaded::Image(image) => arch_ia64::run::run_image_until(image, &cfg),
        Loaded::Linked(linked) => arch_ia64::link::run_linked(linked, &cfg, Vec::new()),
    };
    let (report, reason) = result.map_err(|e| match e {
        arch_ia64::run::RunError::Setup(d) => CliError::Run(arch_ia64::run::RunError::Setup(d.in_file(&file))),
        e => CliError::Run(e),
    })?;
    Ok(Finished { report, ended: reason.is_expected_end() })
}

/// The x86-64 path: an ELF object of machine EM_X86_64 runs on `arch_x86`'s core.
fn run_x86(
    req: &RunRequest,
    bytes: &[u8],
    harness: Option<Harness>,
    sets: Vec<(String, String)>,
) -> Result<Finished, CliError> {
    let file = req.file.display().to_string();
    let image = arch_x86::run::load_object(bytes)
        .map_err(|e| CliError::Object { path: req.file.clone(), source: Box::new(e) })?;
    let cfg = arch_x86::run::RunConfig {
        entry: req.entry.clone(),
        harness,
        sets,
        max_insns: req.max_insns,
        timing: !req.no_timing,
        timeline: req.timeline,
        ..arch_x86::run::RunConfig::default()
    };
    let fail = |e| match e {
        arch_x86::run::RunError::Setup(d) => CliError::Setup(d.in_file(&file)),
        e => CliError::RunX86(Box::new(e)),
    };
    let (report, reason) = arch_x86::run::run_image_until(&image, &cfg).map_err(fail)?;
    Ok(Finished { report, ended: reason.is_expected_end() })
}

fn run_s390(
    req: &RunRequest,
    bytes: &[u8],
    harness: Option<Harness>,
    sets: Vec<(String, String)>,
) -> Result<Finished, CliError> {
    let file = req.file.display().to_string();
    let image = arch_s390::run::load_object(bytes)
        .map_err(|e| CliError::Object { path: req.file.clone(), source: Box::new(e) })?;
    let cfg = arch_s390::run::RunConfig {
        entry: req.entry.clone(),
        harness,
        sets,
        max_insns: req.max_insns,
        timing: !req.no_timing,
        options: arch_s390::run::S390Options {
            model: req.model.as_deref().map_or_else(|| Ok(arch_s390::timing::S390Params::default()), s390_model)?,
        },
        timeline: req.timeline,
        ..arch_s390::run::RunConfig::default()
    };
    let fail = |e| match e {
        arch_s390::run::RunError::Setup(d) => CliError::Setup(d.in_file(&file)),
        e => CliError::RunS390(Box::new(e)),
    };
    let (report, reason) = arch_s390::run::run_image_until(&image, &cfg).map_err(fail)?;
    Ok(Finished { report, ended: reason.is_expected_end() })
}

/// `--explain-model`: the timing model of the core that runs `file` (an x86-64 or s390x
/// object by its ELF machine), else of IA-64, the core of sources and of no file (issue 16).
///
/// # Errors
/// A file that cannot be read.
pub fn explain_model(file: Option<&std::path::Path>) -> Result<String, CliError> {
    let machine = match file {
        Some(path) => emu_core::elf::machine(&read(path)?),
        None => None,
    };
    Ok(if machine == Some(arch_x86::reloc::EM_X86_64) {
        arch_x86::timing::X86Params::default().explain_model()
    } else if machine == Some(arch_s390::reloc::EM_S390) {
        arch_s390::timing::S390Params::default().explain_model()
    } else {
        arch_ia64::timing::Itanium2Params::default().explain_model()
    })
}

/// The s390x timing preset `--model NAME` names (issue 15).
///
/// # Errors
/// A name that is not one of [`arch_s390::timing::PRESETS`].
pub fn s390_model(name: &str) -> Result<arch_s390::timing::S390Params, CliError> {
    arch_s390::timing::S390Params::preset(name).ok_or_else(|| {
        CliError::Usage(format!(
            "--model {name}: no such s390x timing model (known: {})",
            arch_s390::timing::PRESETS.join(", ")
        ))
    })
}

fn text(rep: &RunReport, timeline: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "stop: {}", rep.stop);
    let _ = writeln!(out, "{}", rep.summary);
    if !rep.counters.is_empty() {
        let _ = writeln!(out, "counters:");
        for c in &rep.counters {
            let _ = writeln!(out, "  {:<20} {:>20} {}", c.name, c.value, c.unit);
        }
    }
    if timeline {
        if let Some(t) = &rep.timeline {
            let _ = writeln!(out, "timeline:\n{t}");
        }
    }
    let _ = writeln!(out, "final state:");
    out.push_str(&rep.snapshot.to_yaml());
    out
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
