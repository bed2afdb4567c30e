//! `scenario` and `diff` with `--trace-out` and `--pressure` (issue 18): the flags, and what
//! runs after the report: each version's chosen system call ([`traces::bind::timelines`])
//! written by [`super::trace_out`] and measured by [`super::pressure`]; a plain diff's two runs
//! the same way.

use super::core::Arch;
use super::pressure::{self, Pressure};
use super::trace_out::{self, chosen_call, port_names, write_calls, Call, Layout};
use super::CliError;
use emu_core::image::Image;
use emu_core::scenario::Workload;
use emu_core::timing::Timeline;
use emu_core::trace_event::{Arg, Process, Segment};
use std::collections::BTreeMap;
use traces::bind::timelines::Traced;

/// `--trace-out` and `--pressure` of `scenario` and `diff` (issue 18; one block in `main.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
pub struct CallFlags {
    /// Write one system call's timeline as Chrome/Perfetto trace-event JSON (ui.perfetto.dev,
    /// chrome://tracing). The call is the workload's last (N of N, after N-1 of warm-up): its
    /// entry and exit paths, with ticks the last tick the workload took, with --irq-every the
    /// last interrupt; the file's process metadata says which. `scenario`: a process per path
    /// ("ia64/syscall/v2 syscall_enter"); `diff`: a process per side named by its trace, its
    /// paths end to end on a `paths` track, so the two line up on one time scale (plain files:
    /// each side's run). A track per port or unit, args with pc, instruction, symbol, source
    /// line, latency and each wait's cause.
    #[arg(long, value_name = "FILE.json")]
    pub trace_out: Option<std::path::PathBuf>,
    /// Print resource pressure per port (busy cycles, % of the cycles) over that call's paths
    /// and each instruction's latency and ports, like `run --pressure`; a diff gives each
    /// side's and the difference (B - A).
    #[arg(long)]
    pub pressure: bool,
}

impl CallFlags {
    /// Whether either flag was given.
    pub fn any(&self) -> bool {
        self.trace_out.is_some() || self.pressure
    }

    /// Refuses the flags where no timeline is recorded (`what` says where) or where the
    /// output is JSON (`--pressure` prints a text table).
    ///
    /// # Errors
    /// A flag given where it cannot apply.
    pub fn check(&self, json: bool, no_timeline: Option<&str>) -> Result<(), CliError> {
        if let (Some(what), true) = (no_timeline, self.any()) {
            return Err(CliError::Usage(format!(
                "--trace-out and --pressure: {what} record no timeline; use a catalogue trace or plain files"
            )));
        }
        if json && self.pressure {
            return Err(CliError::Usage(
                "--pressure prints text tables; give it with --format text (--trace-out works with json)".into(),
            ));
        }
        Ok(())
    }
}

/// A catalogue trace's workload with its chosen call's timelines.
///
/// # Errors
/// As [`traces::Trace::run_traced`].
pub fn traced(trace: &traces::Trace, image: Option<&Image>, w: &Workload) -> Result<Traced, CliError> {
    Ok(trace.run_traced(image, w)?)
}

/// After a scenario or a diff: writes the file `flags` asks for and returns the pressure text
/// (empty without `--pressure`). One call is a scenario's, two a diff's sides.
///
/// # Errors
/// The file cannot be written.
pub fn after_calls(flags: &CallFlags, calls: &[Call<'_>]) -> Result<String, CliError> {
    let layout = if calls.len() == 1 { Layout::ProcessPerPath } else { Layout::ProcessPerVersion };
    if let Some(path) = &flags.trace_out {
        write_calls(path, calls, layout)?;
    }
    if !flags.pressure {
        return Ok(String::new());
    }
    let pressures: Vec<Pressure> = calls.iter().map(|c| call_pressure(c.arch, c.traced)).collect();
    Ok(match (calls, pressures.as_slice()) {
        ([a, b], [pa, pb]) => format!(
            "\n{}",
            pressure::render_diff(
                &diff_heading(a.traced, b.traced),
                (&a.name, pa),
                (&b.name, pb),
                [a.places, b.places]
            )
        ),
        _ => calls
            .iter()
            .zip(&pressures)
            .map(|(c, p)| format!("\n{}", pressure::render_call(&call_heading(c.traced), p, c.places)))
            .collect(),
    })
}

/// A plain diff's two runs (each side's [`super::core::Finished`] with its timeline): writes
/// the file, a process per side, and returns the pressure text.
///
/// # Errors
/// A side recorded no timeline; the file cannot be written.
pub fn after_plain(
    flags: &CallFlags,
    arch: Arch,
    sides: [(&str, &super::core::Finished); 2],
) -> Result<String, CliError> {
    let mut timelines = Vec::new();
    for (name, f) in sides {
        let t = f.report.timeline.as_ref().ok_or_else(|| {
            CliError::Usage(format!(
                "--trace-out and --pressure: {name} recorded no timeline (run without --no-timing)"
            ))
        })?;
        timelines.push((name, t, f));
    }
    if let Some(path) = &flags.trace_out {
        let mut processes = Vec::new();
        for ((name, t, f), side) in timelines.iter().zip(["A", "B"]) {
            let about: BTreeMap<&'static str, Arg> =
                [("side", Arg::Text(side.to_string())), ("run", Arg::Text("the side's one run".into()))].into();
            processes.push(Process {
                name: name.to_string(),
                about,
                segments: vec![Segment::run(t, f.report.summary.cycles)],
                ports: port_names(arch),
                clock_mhz: trace_out::clock_mhz(arch, None)?,
                places: &f.places,
            });
        }
        trace_out::write_processes(path, &processes)?;
    }
    if !flags.pressure {
        return Ok(String::new());
    }
    let p: Vec<Pressure> =
        timelines.iter().map(|(_, t, f)| Pressure::of(arch, &[t], f.report.summary.cycles)).collect();
    match (timelines.as_slice(), p.as_slice()) {
        ([(na, _, fa), (nb, _, fb)], [pa, pb]) => {
            Ok(format!("\n{}", pressure::render_diff("each side's run", (na, pa), (nb, pb), [&fa.places, &fb.places])))
        }
        _ => Ok(String::new()),
    }
}

/// The pressure of a call's paths on its core's ports, over the paths' cycles.
pub fn call_pressure(arch: Arch, traced: &Traced) -> Pressure {
    let timelines: Vec<&Timeline> = traced.paths.iter().map(|p| &p.timeline).collect();
    let cycles = traced.paths.iter().map(|p| p.run.cycles).sum();
    Pressure::of(arch, &timelines, cycles)
}

/// The paths of a call, for a pressure table's heading: "the workload's last system call
/// (10000 of 10000); the workload's last tick (12 of 12): syscall_enter + syscall_exit + tick".
pub fn call_heading(traced: &Traced) -> String {
    let paths: Vec<&str> = traced.paths.iter().map(|p| p.path.name()).collect();
    format!("{}: {}", chosen_call(traced), paths.join(" + "))
}

/// [`call_heading`] of a diff's sides: once when they agree, else each.
fn diff_heading(a: &Traced, b: &Traced) -> String {
    let (ha, hb) = (call_heading(a), call_heading(b));
    if ha == hb {
        ha
    } else {
        format!("A {ha}; B {hb}")
    }
}

/// The core a catalogue trace runs on.
pub fn trace_arch(arch: traces::Arch) -> Arch {
    match arch {
        traces::Arch::Ia64 => Arch::Ia64,
        traces::Arch::X86_64 => Arch::X86_64,
        traces::Arch::S390x => Arch::S390x,
    }
}
