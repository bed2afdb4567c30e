//! `--trace-out FILE.json` (issue 18): a run's timeline, or the chosen system call of one or two
//! versions, as a Chrome / Perfetto trace-event file, written by [`emu_core::trace_event`]; and
//! what it needs from the command line: each core's clock and port naming, and where each
//! instruction comes from in the image.

use super::core::Arch;
use super::CliError;
use emu_core::scenario::Workload;
use emu_core::timing::Timeline;
use emu_core::trace_event::{self, Arg, Place, PortNames, Process, Segment, IA64_PORTS};
use std::collections::BTreeMap;
use std::path::Path;
use traces::bind::timelines::{Traced, TracedPath};

pub use super::places::{places, Places};

/// TSC frequency of the x86 calibration machines, MHz ([REF] shared/reference/x86-host.md:
/// "constant, non-stop TSC at 2600 MHz"); the core clock follows from the model's
/// `tsc_per_kcycle`.
const X86_TSC_MHZ: u64 = 2600;

/// The clock the core's model runs at, in MHz: Itanium 2 (Madison) 1500 (DESIGN.md, the
/// model's documented part), x86-64 the TSC frequency over the model's TSC ticks per cycle,
/// s390x the `--model` generation's `freq_mhz`.
///
/// # Errors
/// A `--model` that names no s390x generation.
pub fn clock_mhz(arch: Arch, model: Option<&str>) -> Result<u64, CliError> {
    Ok(match arch {
        Arch::Ia64 => 1500,
        Arch::X86_64 => {
            let per_k = arch_x86::timing::X86Params::default().tsc_per_kcycle.max(1);
            X86_TSC_MHZ * 1000 / per_k
        }
        Arch::S390x => match model {
            None => arch_s390::timing::S390Params::default().freq_mhz,
            Some(name) => {
                arch_s390::timing::S390Params::preset(name)
                    .ok_or_else(|| {
                        CliError::Usage(format!(
                            "--model {name}: no such s390x generation (known: {})",
                            arch_s390::timing::PRESETS.join(", ")
                        ))
                    })?
                    .freq_mhz
            }
        },
    })
}

/// How the core's timeline names its units.
pub fn port_names(arch: Arch) -> PortNames {
    match arch {
        Arch::Ia64 => PortNames::Exclusive { order: &IA64_PORTS },
        Arch::X86_64 | Arch::S390x => PortNames::Pooled,
    }
}

/// One side to export: its name, core, model and what the run recorded.
pub struct Side<'a> {
    /// Shown as the process name.
    pub name: String,
    /// The core.
    pub arch: Arch,
    /// The s390x generation, if one was asked for.
    pub model: Option<&'a str>,
    /// The recorded timeline.
    pub timeline: &'a Timeline,
    /// Where its instructions come from.
    pub places: &'a BTreeMap<u64, Place>,
}

/// Writes the sides' timelines to `path` as one trace, a process each.
///
/// # Errors
/// An unknown `--model`, or the file cannot be written.
pub fn write(path: &Path, sides: &[Side<'_>]) -> Result<(), CliError> {
    let mut processes = Vec::with_capacity(sides.len());
    for s in sides {
        let cycles = s.timeline.groups.last().map_or(0, |g| g.first_cycle + 1);
        processes.push(Process {
            name: s.name.clone(),
            about: BTreeMap::new(),
            segments: vec![Segment::run(s.timeline, cycles)],
            ports: port_names(s.arch),
            clock_mhz: clock_mhz(s.arch, s.model)?,
            places: s.places,
        });
    }
    write_processes(path, &processes)
}

/// Writes `processes` to `path` as one trace file.
///
/// # Errors
/// The file cannot be written.
pub(super) fn write_processes(path: &Path, processes: &[Process<'_>]) -> Result<(), CliError> {
    let json = trace_event::trace(processes).to_json().map_err(|e| CliError::Usage(e.to_string()))?;
    std::fs::write(path, json + "\n").map_err(|source| CliError::Io { path: path.to_path_buf(), source })
}

// scenario and diff --trace-out (issue 18, w7-traceout)

/// One version's chosen system call (see [`traces::bind::timelines`]) to export.
pub struct Call<'a> {
    /// The version's name (the trace's, or its label in a diff).
    pub name: String,
    /// Its core.
    pub arch: Arch,
    /// The workload, as its core ran it.
    pub workload: &'a Workload,
    /// The run with the call's timelines.
    pub traced: &'a Traced,
    /// Where the call's instructions come from ([`call_places`]).
    pub places: &'a Places,
}

/// How a trace file lays out the calls it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A process per path (`scenario`: "ia64/syscall/v2 syscall_enter"), each from time 0.
    ProcessPerPath,
    /// A process per version (`diff`), its paths end to end with a `paths` track naming them,
    /// so two versions line up one above the other.
    ProcessPerVersion,
}

/// Where the instructions of every path of `traced` come from; `source` is the text of the
/// file the image was assembled from, when it is not on disk under its name (name, text).
pub fn call_places(traced: &Traced, source: Option<(&str, &str)>) -> Places {
    let mut out = Places::new();
    for p in &traced.paths {
        out.extend(places(&traced.image, &p.timeline));
    }
    // A catalogue trace's source (or its patched text) lives in memory, not at its name.
    if let Some((name, text)) = source {
        let lines: Vec<&str> = text.lines().collect();
        for place in out.values_mut().filter(|p| p.source_text.is_none()) {
            let Some((file, line)) = place.source.as_deref().and_then(|s| s.rsplit_once(':')) else { continue };
            let index = line.parse::<usize>().ok().and_then(|l| l.checked_sub(1));
            if let (true, Some(l)) = (file == name, index.and_then(|i| lines.get(i))) {
                place.source_text = Some(l.trim().to_string());
            }
        }
    }
    out
}

/// Which call the paths are, in words, for `--help`-like notes and the file's metadata.
pub fn chosen_call(traced: &Traced) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for p in &traced.paths {
        if !seen.contains(&p.which.as_str()) {
            seen.push(&p.which);
        }
    }
    if seen.is_empty() {
        "no path recorded a timeline".to_string()
    } else {
        seen.join("; ")
    }
}

/// The workload in one line, for the file's metadata.
fn workload_text(w: &Workload) -> String {
    let mut s = format!(
        "{} {} of {} {} + {} kernel cycles, {} cycles/s",
        w.syscalls,
        if w.guest { "hypercalls" } else { "system calls" },
        w.user_cycles,
        if w.guest { "guest" } else { "user" },
        w.kernel_cycles,
        w.cpu_hz
    );
    if w.hz > 0 {
        s.push_str(&format!(", HZ {}", w.hz));
    }
    if let Some(n) = w.irq_every {
        s.push_str(&format!(", an interrupt every {n} calls"));
    }
    s
}

/// Writes the chosen call of each of `calls` to `path` as one trace, laid out as `layout` says.
///
/// # Errors
/// The file cannot be written.
pub fn write_calls(path: &Path, calls: &[Call<'_>], layout: Layout) -> Result<(), CliError> {
    let mut processes = Vec::new();
    for (index, c) in calls.iter().enumerate() {
        let mut about: BTreeMap<&'static str, Arg> = BTreeMap::new();
        about.insert("trace", Arg::Text(c.name.clone()));
        about.insert("call", Arg::Text(chosen_call(c.traced)));
        about.insert("workload", Arg::Text(workload_text(c.workload)));
        if calls.len() == 2 {
            about.insert("side", Arg::Text(if index == 0 { "A" } else { "B" }.to_string()));
        }
        let (ports, clock_mhz) = (port_names(c.arch), clock_mhz(c.arch, None)?);
        match layout {
            Layout::ProcessPerPath => {
                for p in &c.traced.paths {
                    let mut about = about.clone();
                    about.insert("path", Arg::Text(p.path.name().to_string()));
                    about.insert("which", Arg::Text(p.which.clone()));
                    about.insert("cycles", Arg::Int(p.run.cycles));
                    processes.push(Process {
                        name: format!("{} {}", c.name, p.path.name()),
                        about,
                        segments: vec![segment(p)],
                        ports,
                        clock_mhz,
                        places: c.places,
                    });
                }
            }
            Layout::ProcessPerVersion => {
                let paths: Vec<&str> = c.traced.paths.iter().map(|p| p.path.name()).collect();
                about.insert("paths", Arg::Text(paths.join(", ")));
                processes.push(Process {
                    name: c.name.clone(),
                    about,
                    segments: c.traced.paths.iter().map(segment).collect(),
                    ports,
                    clock_mhz,
                    places: c.places,
                });
            }
        }
    }
    write_processes(path, &processes)
}

/// A path as a segment of its version's process.
fn segment(p: &TracedPath) -> Segment<'_> {
    let mut args = BTreeMap::new();
    args.insert("which", Arg::Text(p.which.clone()));
    args.insert("instructions", Arg::Int(p.run.instructions));
    args.insert("start_cycle", Arg::Int(p.start));
    Segment { name: Some(p.path.name().to_string()), timeline: &p.timeline, start: p.start, cycles: p.run.cycles, args }
}

/// The issue-18 export flags of `run` (one block in `main.rs`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TraceFlags {
    /// Write the timeline as Chrome/Perfetto trace-event JSON (open it in ui.perfetto.dev or
    /// chrome://tracing): a track per port or unit, args with pc, instruction, symbol, source
    /// line and each wait's cause.
    #[arg(long, value_name = "FILE.json")]
    pub trace_out: Option<std::path::PathBuf>,
    /// Print resource pressure per port (busy cycles, % of the run) and each instruction's
    /// latency and ports, like llvm-mca's resource-pressure and instruction-info views.
    #[arg(long)]
    pub pressure: bool,
}
