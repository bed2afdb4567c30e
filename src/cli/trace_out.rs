//! `--trace-out FILE.json` (issue 18): a run's timeline as a Chrome / Perfetto trace-event
//! file, written by [`emu_core::trace_event`]; and what it needs from the command line: each
//! core's clock and port naming, and where each instruction comes from in the image.

use super::core::Arch;
use super::CliError;
use emu_core::timing::Timeline;
use emu_core::trace_event::{self, Place, PortNames, Process, IA64_PORTS};
use std::collections::BTreeMap;
use std::path::Path;

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
        processes.push(Process {
            name: s.name.clone(),
            timeline: s.timeline,
            ports: port_names(s.arch),
            clock_mhz: clock_mhz(s.arch, s.model)?,
            places: s.places,
        });
    }
    let json = trace_event::trace(&processes).to_json().map_err(|e| CliError::Usage(e.to_string()))?;
    std::fs::write(path, json + "\n").map_err(|source| CliError::Io { path: path.to_path_buf(), source })
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
