//! `acctemu diff [A [B]]`: cycle-diff two versions. Catalogue traces (and a trace's source
//! changed by `--patch` or `--a-define`/`--b-define`) are compared per system call over a
//! workload; plain files over one run from `--entry` (see `plain_diff`). Without arguments:
//! `ia64/syscall/v1` against `ia64/syscall/v2`, with `ia64/syscall/none` as the baseline.
//!
//! Each side's counters follow the code that runs: a trace under other defines that is the
//! build of another catalogued version runs with that version's harness (V.1 under
//! `-D ACCOUNTING_V2` is V.2); any other changed side keeps its trace's harness, whose counters
//! name the fields through symbols the build defines, so a build that lacks one is refused.
//! The report judges each side against the true time, not only A against B.

use super::core::{Arch, Program, RunSpec};
use super::plain_diff::{self, source_text, PlainFormat, PlainSide, RunContext};
use super::scenario::{check_workload, check_workload_paths};
use super::CliError;
use emu_core::diff::naming::{self, SideName};
use emu_core::diff::{CycleDiff, Side};
use emu_core::harness::Harness;
use emu_core::preprocess::{parse_define, FsLoader};
use emu_core::scenario::Workload;
use std::path::{Path, PathBuf};

/// The output of `acctemu diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// The report as text: headline, tables, attribution, accounting.
    Text,
    /// The report as JSON.
    Json,
    /// The text as plain ASCII of at most 72 columns, to paste into a patch review.
    Mail,
}

/// The instruction-group rows `diff` shows unless `--top` says otherwise.
pub const DEFAULT_TOP: usize = 8;

/// What `acctemu diff` was asked to do.
#[derive(Debug, Clone)]
pub struct DiffRequest {
    /// Side A: a catalogue name or a file (default `ia64/syscall/v1`).
    pub a: Option<String>,
    /// Side B: a catalogue name or a file (default `ia64/syscall/v2`, or A changed by
    /// `--patch` / `--b-define`).
    pub b: Option<String>,
    /// A unified diff that turns A's source into B's.
    pub patch: Option<PathBuf>,
    /// `-D` for both sides (before each side's own `--a-define`/`--b-define`).
    pub defines: Vec<String>,
    /// `-U`, `-include` and the kernel-tree flags (plain files only).
    pub pp: super::kernel::PpArgs,
    /// Extra `-D` for A.
    pub a_defines: Vec<String>,
    /// Extra `-D` for B.
    pub b_defines: Vec<String>,
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// Entry symbol for plain files.
    pub entry: Option<String>,
    /// Harness for plain files.
    pub harness: Option<PathBuf>,
    /// `--set REG=VALUE` for plain files.
    pub sets: Vec<String>,
    /// `--arch`: the core of plain source files (an object's is its ELF machine).
    pub arch: Option<Arch>,
    /// The workload for catalogue traces.
    pub workload: Workload,
    /// The most paths each side's workload may run (see [`super::limits`]).
    pub max_paths: u64,
    /// JSON instead of text.
    pub json: bool,
    /// The text laid out for a mail (`--format mail`).
    pub mail: bool,
    /// The most instruction-group rows shown (`--top N`), the rest folded into one row.
    pub top: usize,
    /// `--trace-out`, `--pressure`: each side's chosen call (issue 18, w7-traceout).
    pub calls: super::call_trace::CallFlags,
}

/// The timing model of a trace's core, for the report's model line.
fn model_name(arch: traces::Arch) -> &'static str {
    match arch {
        traces::Arch::Ia64 => "Itanium 2 (Madison)",
        traces::Arch::X86_64 => "x86-64 (Zen 4 model)",
        traces::Arch::S390x => "s390x (z13 model)",
    }
}

/// The diff as JSON, text or mail, as `req` asks.
fn render(req: &DiffRequest, d: &CycleDiff) -> Result<String, CliError> {
    if req.json {
        serde_json::to_string_pretty(d).map(|s| s + "\n").map_err(|e| CliError::Usage(e.to_string()))
    } else if req.mail {
        Ok(d.mail(req.top))
    } else {
        Ok(d.text(req.top))
    }
}

/// A version of a catalogue trace: its own source and defines, or changed ones.
struct TraceVersion {
    trace: &'static traces::Trace,
    /// What it is and how it was built ([`naming::name_side`]).
    name: SideName,
    source: String,
    extra_defines: Vec<String>,
}

impl TraceVersion {
    fn of(trace: &'static traces::Trace) -> TraceVersion {
        TraceVersion {
            trace,
            name: SideName { name: trace.name.to_string(), built: String::new() },
            source: trace.source.to_string(),
            extra_defines: Vec::new(),
        }
    }

    /// `source` (the trace's own, or patched) under the trace's defines and `extra`. When that
    /// is the build of a catalogued version, the version's harness, bindings and counters
    /// apply: V.1 under `-D ACCOUNTING_V2` is V.2's code and keeps its counters where V.2 does.
    /// Otherwise the trace's harness stays, its counters resolved through the symbols the
    /// build defines, so a layout it does not match is refused (see `counter_address`).
    /// The side is named after what it is: the catalogued version it builds, else the trace
    /// and its change (`v2+stop.diff`, `v1 (-DFOO)`).
    fn changed(trace: &'static traces::Trace, patch: Option<&Path>, source: String, extra: &[String]) -> TraceVersion {
        let mut defines: Vec<(String, String)> =
            trace.defines.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
        defines.extend(extra.iter().map(|d| parse_define(d)));
        let found = traces::find_build(&source, &defines);
        let patch_name = patch.map(|p| p.display().to_string());
        let name = naming::name_side(&naming::Origin {
            base: trace.name,
            patch: patch_name.as_deref(),
            defines: extra,
            is: found.map(|t| t.name),
        });
        match found {
            Some(t) => TraceVersion { trace: t, name, source, extra_defines: Vec::new() },
            None => TraceVersion { trace, name, source, extra_defines: extra.to_vec() },
        }
    }

    /// [`TraceVersion::run`], a harness error noting which side it concerns.
    fn run_side(&self, name: &str, w: &Workload) -> Result<Side, CliError> {
        self.run(w).map_err(|e| match e {
            CliError::Setup(d) => {
                CliError::Setup(plain_diff::side_note(d, name, &self.label(), self.trace.source_name))
            }
            e => e,
        })
    }

    /// The name, and how it was built when that says more.
    fn label(&self) -> String {
        if self.name.built.is_empty() {
            self.name.name.clone()
        } else {
            format!("{}: {}", self.name.name, self.name.built)
        }
    }

    fn run(&self, w: &Workload) -> Result<Side, CliError> {
        let mut opts = self.trace.preprocess_options();
        opts.limits = super::limits();
        for d in &self.extra_defines {
            let (name, value) = parse_define(d);
            opts = opts.defined(name, value);
        }
        let image = self.trace.assemble_source(&self.source, &opts, &FsLoader).map_err(CliError::Assemble)?.image;
        let run = self.trace.run_attributed(Some(&image), w)?;
        let model = model_name(self.trace.arch).to_string();
        let SideName { name, built } = self.name.clone();
        Ok(Side { name, built, model, report: run.report, groups: run.groups })
    }
}

/// Runs the diff and renders it.
///
/// # Errors
/// Unknown traces or unreadable files, assembly/setup/execution errors, a patch that does not apply.
pub fn run(req: &DiffRequest) -> Result<String, CliError> {
    let both = |side: &[String]| -> Vec<String> { req.defines.iter().chain(side).cloned().collect() };
    let (a_defines, b_defines) = (both(&req.a_defines), both(&req.b_defines));
    let a_name = req.a.clone().unwrap_or_else(|| "ia64/syscall/v1".to_string());
    let default_pair = req.a.is_none() && req.b.is_none() && req.patch.is_none() && req.b_defines.is_empty();
    let plain_only = !req.pp.undefines.is_empty() || !req.pp.forced_includes.is_empty() || req.pp.kernel_tree.is_some();
    let changes_a = req.patch.is_some() || !req.b_defines.is_empty();
    check_workload(&req.workload)?;
    if req.b.is_some() && req.patch.is_some() {
        return Err(CliError::Usage("diff: --patch makes B from A; give either B or --patch, not both".into()));
    }
    match traces::find(&a_name) {
        Some(trace) if plain_only => Err(CliError::Usage(format!(
            "diff: -U, --include and --kernel-tree apply to source files; {} is a catalogue trace (give -D)",
            trace.name
        ))),
        Some(trace) if trace.arch != traces::Arch::Ia64 => compiled(req, trace),
        Some(trace) => {
            let a = TraceVersion::changed(trace, None, trace.source.to_string(), &a_defines);
            let b = match (&req.b, default_pair) {
                (_, true) if !req.defines.is_empty() => {
                    let v2 = find("ia64/syscall/v2")?;
                    TraceVersion::changed(v2, None, v2.source.to_string(), &b_defines)
                }
                (_, true) => TraceVersion::of(find("ia64/syscall/v2")?),
                (Some(b), false) => {
                    let b = find(b)?;
                    if b.arch != trace.arch {
                        return Err(CliError::Usage(format!(
                            "diff: {} is {} but {} is {}",
                            trace.name,
                            trace.arch.name(),
                            b.name,
                            b.arch.name()
                        )));
                    }
                    TraceVersion::changed(b, None, b.source.to_string(), &b_defines)
                }
                (None, false) if changes_a => {
                    let source = match &req.patch {
                        Some(p) => apply(trace.source, trace.source_name, p)?,
                        None => trace.source.to_string(),
                    };
                    TraceVersion::changed(trace, req.patch.as_deref(), source, &b_defines)
                }
                (None, false) => {
                    return Err(CliError::Usage("diff: give B, --patch or --b-define to compare against".into()))
                }
            };
            check_workload_paths(a.trace, &req.workload)?;
            check_workload_paths(b.trace, &req.workload)?;
            super::limits::check(a.trace, &req.workload, req.max_paths)?;
            super::limits::check(b.trace, &req.workload, req.max_paths)?;
            let baseline = if default_pair {
                let none = find("ia64/syscall/none")?;
                Some(TraceVersion::changed(none, None, none.source.to_string(), &req.defines).run(&req.workload)?)
            } else {
                None
            };
            let d = CycleDiff::new(a.run_side("A", &req.workload)?, b.run_side("B", &req.workload)?, baseline);
            let extra = match req.calls.any() {
                true => calls(
                    req,
                    [(&a, Some(a.image()?)), (&b, Some(b.image()?))].map(|(v, image)| TracedSide {
                        trace: v.trace,
                        image,
                        label: &v.name.name,
                        source: Some(&v.source),
                    }),
                )?,
                false => String::new(),
            };
            Ok(render(req, &d)? + &extra)
        }
        None => plain(req, &a_name, changes_a, &a_defines, &b_defines),
    }
}

/// Two compiled (x86 or s390x) traces over the same workload: catalogue pairs of one
/// architecture, or a trace and its version changed by `--patch` / `--b-define` (or both under
/// other `-D`), which `traces::rebuild` compiles with the build script's flags when the change
/// needs it (see there: which side keeps the committed object, which harness runs). No
/// per-group attribution: these cores keep no group profile.
fn compiled(req: &DiffRequest, a: &'static traces::Trace) -> Result<String, CliError> {
    let arch = a.arch.name();
    let changes_a = req.patch.is_some() || !req.b_defines.is_empty();
    let b = match &req.b {
        Some(b_name) => find(b_name)?,
        None if changes_a => a,
        None => {
            return Err(CliError::Usage(format!(
                "diff: {} is a compiled {arch} trace; compare it with another catalogue trace (e.g. the next patch \
                 step), or give --patch or --b-define to rebuild it changed",
                a.name
            )))
        }
    };
    if b.arch != a.arch {
        return Err(CliError::Usage(format!("diff: {} is {arch} but {} is {}", a.name, b.name, b.arch.name())));
    }
    check_workload_paths(a, &req.workload)?;
    check_workload_paths(b, &req.workload)?;
    super::limits::check(a, &req.workload, req.max_paths)?;
    super::limits::check(b, &req.workload, req.max_paths)?;
    let [a, b] = rebuilt_sides(req, a, b)?;
    let side = |(t, n): &(traces::Trace, SideName)| -> Result<Side, CliError> {
        let run = t.run_attributed(None, &req.workload)?;
        let model = model_name(t.arch).to_string();
        Ok(Side { name: n.name.clone(), built: n.built.clone(), model, report: run.report, groups: run.groups })
    };
    let d = CycleDiff::new(side(&a)?, side(&b)?, None);
    let extra = calls(req, [&a, &b].map(|(trace, n)| TracedSide { trace, image: None, label: &n.name, source: None }))?;
    Ok(render(req, &d)? + &extra)
}

/// Each side's trace with the object to run (committed, or rebuilt by `traces::rebuild` when
/// `--patch` or a define changes its source) and its name ([`naming::name_side`]; a side
/// rebuilt only to match the other's compiler says so).
fn rebuilt_sides(
    req: &DiffRequest,
    a: &'static traces::Trace,
    b: &'static traces::Trace,
) -> Result<[(traces::Trace, SideName); 2], CliError> {
    use traces::rebuild::{versions, Change, PatchText, RebuildError, Request};
    let both = |side: &[String]| -> Vec<String> { req.defines.iter().chain(side).cloned().collect() };
    let (a_defines, b_defines) = (both(&req.a_defines), both(&req.b_defines));
    let patch = match &req.patch {
        Some(p) => Some((p.display().to_string(), String::from_utf8_lossy(&super::read(p)?).into_owned())),
        None => None,
    };
    let patch = patch.as_ref().map(|(name, text)| PatchText { name, text });
    let sides = [
        Request { trace: a, change: Change { patch: None, defines: &a_defines } },
        Request { trace: b, change: Change { patch, defines: &b_defines } },
    ];
    let built = versions(&sides).map_err(|e| match e {
        RebuildError::BadDefine { .. } => CliError::Usage(format!("diff: {e}")),
        e => CliError::Rebuild(Box::new(e)),
    })?;
    let patch_name = req.patch.as_ref().map(|p| p.display().to_string());
    let origins = [(a, None, &a_defines), (b, patch_name.as_deref(), &b_defines)];
    let mut built = built.into_iter().zip(origins).map(|(v, (asked, patch, defines))| {
        let is = (v.trace.name != asked.name).then_some(v.trace.name);
        let mut name = naming::name_side(&naming::Origin { base: asked.name, patch, defines, is });
        if let Some(i) = v.label.find(" (rebuilt: ") {
            if name.built.is_empty() {
                name.built = asked.name.to_string();
            }
            name.built.push_str(&v.label[i..]);
        }
        (v.into_trace(), name)
    });
    match (built.next(), built.next()) {
        (Some(a), Some(b)) => Ok([a, b]),
        _ => Err(CliError::Usage("diff: the rebuild returned fewer than two sides".into())),
    }
}

fn find(name: &str) -> Result<&'static traces::Trace, CliError> {
    traces::find(name).ok_or_else(|| CliError::Usage(format!("diff: no trace named `{name}` (see `acctemu list`)")))
}

fn apply(source: &str, name: &str, patch: &std::path::Path) -> Result<String, CliError> {
    let text = String::from_utf8_lossy(&super::read(patch)?).into_owned();
    plain_diff::apply_patch(source, name, &patch.display().to_string(), &text)
}

/// Two plain files (or one source patched / under two define sets), one run each, on the core
/// of their architecture (both must have the same).
fn plain(
    req: &DiffRequest,
    a_name: &str,
    changes_a: bool,
    a_defines: &[String],
    b_defines: &[String],
) -> Result<String, CliError> {
    let a_path = PathBuf::from(a_name);
    let a_bytes = super::read(&a_path)?;
    let arch = Arch::of_input(&a_path, &a_bytes, req.arch)?;
    // An object runs as it is; a source is checked to be text here, so the message names `diff`.
    let check_source = |path: &Path, bytes: &[u8]| -> Result<(), CliError> {
        if !emu_core::elf::is_elf(bytes) {
            super::binary::source_text(path, bytes, "diff")?;
        }
        Ok(())
    };
    check_source(&a_path, &a_bytes)?;
    let program = |file: &Path, text: Option<String>, defines: &[String]| Program {
        file: file.to_path_buf(),
        more_files: Vec::new(),
        content: text.map(String::into_bytes),
        defines: defines.to_vec(),
    };
    let side = |base: &str, patch: Option<&Path>, defines: &[String], program: Program| {
        let patch = patch.map(|p| p.display().to_string());
        let n = naming::name_side(&naming::Origin { base, patch: patch.as_deref(), defines, is: None });
        PlainSide { label: n.name, built: n.built, program }
    };
    let a = side(a_name, None, a_defines, program(&a_path, None, a_defines));
    let b = match (&req.b, changes_a) {
        (Some(b), _) => {
            let b_path = PathBuf::from(b);
            let b_bytes = super::read(&b_path)?;
            let b_arch = Arch::of_input(&b_path, &b_bytes, req.arch)?;
            if b_arch != arch {
                return Err(CliError::Usage(format!(
                    "diff: {a_name} is {} but {b} is {}; compare two programs of one architecture",
                    arch.name(),
                    b_arch.name()
                )));
            }
            check_source(&b_path, &b_bytes)?;
            side(b, None, b_defines, program(&b_path, None, b_defines))
        }
        (None, true) => {
            let text = match &req.patch {
                Some(_) => Some(source_text(&a_path, req.patch.as_deref())?),
                None => None,
            };
            side(a_name, req.patch.as_deref(), b_defines, program(&a_path, text, b_defines))
        }
        (None, false) => return Err(CliError::Usage("diff: give B, --patch or --b-define to compare against".into())),
    };
    let harness = match &req.harness {
        Some(path) => {
            let text = String::from_utf8_lossy(&super::read(path)?).into_owned();
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
    let spec = RunSpec {
        include_dirs: req.include_dirs.clone(),
        pp: req.pp.clone(),
        entry: req.entry.clone(),
        harness,
        sets,
        ..RunSpec::default()
    };
    let format = match (req.json, req.mail) {
        (true, _) => PlainFormat::Json,
        (false, true) => PlainFormat::Mail,
        (false, false) => PlainFormat::Text,
    };
    let context = RunContext { harness: req.harness.as_ref().map(|p| p.display().to_string()), sets: req.sets.clone() };
    let out = plain_diff::run(&a, &b, arch, &spec, format, &context)?;
    Ok(out + &plain_calls(req, &a, &b, arch, &spec)?)
}

// --trace-out / --pressure of a diff: each side's chosen call, or each plain side's run (issue 18,
// w7-traceout). The workload runs again with the timelines kept: the figures are the same.

impl TraceVersion {
    /// The image this version runs: its source under its defines.
    fn image(&self) -> Result<emu_core::image::Image, CliError> {
        let mut opts = self.trace.preprocess_options();
        opts.limits = super::limits();
        for d in &self.extra_defines {
            let (name, value) = parse_define(d);
            opts = opts.defined(name, value);
        }
        Ok(self.trace.assemble_source(&self.source, &opts, &FsLoader).map_err(CliError::Assemble)?.image)
    }
}

/// A side whose chosen call is traced: its trace, the image it runs (`None`: the trace's own
/// code), its label and, for an assembled side, the source text its image comes from.
struct TracedSide<'a> {
    trace: &'a traces::Trace,
    image: Option<emu_core::image::Image>,
    label: &'a str,
    source: Option<&'a str>,
}

/// The calls' file and pressure text, when `req` asks for them (else nothing runs).
fn calls(req: &DiffRequest, sides: [TracedSide<'_>; 2]) -> Result<String, CliError> {
    use super::call_trace::{after_calls, trace_arch, traced};
    use super::trace_out::{call_places, Call};
    if !req.calls.any() {
        return Ok(String::new());
    }
    req.calls.check(req.json || req.mail, None)?;
    let mut runs = Vec::new();
    for TracedSide { trace, image, label, source } in sides {
        let t = traced(trace, image.as_ref(), &req.workload)?;
        let places = call_places(&t, source.map(|s| (trace.source_name, s)));
        runs.push((trace, label, trace.workload(&req.workload), t, places));
    }
    let calls: Vec<Call<'_>> = runs
        .iter()
        .map(|(trace, label, workload, t, places)| Call {
            name: label.to_string(),
            arch: trace_arch(trace.arch),
            workload,
            traced: t,
            places,
        })
        .collect();
    after_calls(&req.calls, &calls)
}

/// A plain diff's file and pressure text, when `req` asks for them: both sides run again.
fn plain_calls(
    req: &DiffRequest,
    a: &PlainSide,
    b: &PlainSide,
    arch: Arch,
    spec: &RunSpec,
) -> Result<String, CliError> {
    use super::core::{dispatch, Finished, RunPrograms};
    if !req.calls.any() {
        return Ok(String::new());
    }
    req.calls.check(req.json, None)?;
    let spec = RunSpec { timeline: true, ..spec.clone() };
    let programs = [a.program.clone(), b.program.clone()];
    let done = dispatch(arch, RunPrograms { programs: &programs, spec: &spec }).map_err(|e| e.error)?;
    let [fa, fb] = <[Finished; 2]>::try_from(done).map_err(|_| CliError::Usage("diff: two runs expected".into()))?;
    super::call_trace::after_plain(&req.calls, arch, [(&a.label, &fa), (&b.label, &fb)])
}
