//! The start every runner shares: the harness (or the architecture's default) applied to an
//! image — its memory, the register values it and the command line ask for, the entry point —
//! before the architecture builds its CPU and applies the registers by its own names.

use std::collections::HashSet;

use crate::error::{Diagnostic, SourceLoc};
use crate::harness::{Harness, Origin, ValueExpr};
use crate::image::Image;
use crate::memory::{Endian, Memory, Perms};
use crate::report::RunReport;
use crate::snapshot::{Snapshot, Value};
use crate::timing::TimingSummary;

/// The return address that ends a run of an object's function. Never mapped; even and below
/// 2^47, so it is a valid instruction address on every core.
pub const SENTINEL: u64 = 0x0000_5e47_1ee1_0000;

/// Where symbols an object leaves undefined get their zeroed slots.
pub const EXTERN_BASE: u64 = 0x0000_0000_6000_0000;

/// Bytes reserved per undefined symbol: a page, so fields of kernel structures fit.
pub const EXTERN_SLOT: u64 = 0x1000;

/// Where the default stack lives (also given to harnesses without a `stack` region).
pub const STACK_BASE: u64 = 0x7000_0000;

/// The default stack's size.
pub const STACK_SIZE: u64 = 0x1_0000;

/// The default harness of a core that calls C through a stack: a 64 KiB stack at
/// [`STACK_BASE`], a zeroed 64 KiB data region after it for pointer arguments
/// (`--set rdi=data`), and the `[registers]` lines given (the stack pointer, the return
/// address), as one literal.
#[macro_export]
macro_rules! standard_harness {
    ($registers:literal) => {
        concat!(
            "\n[[region]]\nname = \"stack\"\nbase = \"0x0000000070000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n",
            "\n[[region]]\nname = \"data\"\nbase = \"0x0000000071000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n",
            "\n[registers]\n",
            $registers
        )
    };
}

/// What a runner asks for.
#[derive(Debug, Clone, Copy)]
pub struct SetupRequest<'a> {
    /// The loaded program.
    pub image: &'a Image,
    /// The user's harness, else `default_harness` is parsed.
    pub harness: Option<&'a Harness>,
    /// The architecture's default harness text.
    pub default_harness: &'a str,
    /// Byte order of the memory.
    pub endian: Endian,
    /// The address harness expressions call `sentinel`.
    pub sentinel: u64,
    /// `--set NAME=EXPR` overrides, applied after the harness's registers.
    pub sets: &'a [(String, String)],
    /// Entry symbol from the command line (else the harness's, else the start of the code).
    pub entry: Option<&'a str>,
    /// A stack `(base, size)` mapped when the harness brings no region named `stack`.
    pub default_stack: Option<(u64, u64)>,
    /// The entry when neither `entry` nor the harness names one (the start of the code).
    pub default_entry: Option<u64>,
    /// The register a harness's `psr` key sets (the core's status word: `rflags`,
    /// `psw_mask`), applied before the `[registers]` table; `None` when the core applies the
    /// `psr` key itself.
    pub status_register: Option<&'a str>,
    /// Why the core refuses a harness `cpl` other than 0 (it models no privilege levels):
    /// the end of the error message; `None` when the core applies `cpl` itself.
    pub cpl_refusal: Option<&'a str>,
    /// Whether the core models address translation (else `translation = true` is refused).
    pub translation: bool,
}

/// Where a register value came from, for its error message.
#[derive(Debug, Clone)]
pub enum RegisterSource {
    /// The harness's `[registers]` table.
    Harness(Origin),
    /// `--set NAME=TEXT` on the command line.
    CommandLine(String),
}

/// One register value to apply.
#[derive(Debug, Clone)]
pub struct RegisterValue {
    /// Register name as the user wrote it.
    pub name: String,
    /// Its value.
    pub value: u64,
    /// Where it came from.
    pub source: RegisterSource,
}

impl RegisterValue {
    /// A diagnostic for `msg` (an unknown register, say) at the place the value came from.
    pub fn error(&self, msg: impl Into<String>) -> Diagnostic {
        match &self.source {
            RegisterSource::Harness(origin) => origin.error(msg.into()),
            RegisterSource::CommandLine(text) => {
                Diagnostic::error(SourceLoc::argument(format!("--set {}={text}", self.name)), msg)
            }
        }
    }
}

/// The prepared start.
#[derive(Debug)]
pub struct Setup {
    /// The harness used (the user's or the default).
    pub harness: Harness,
    /// Memory with the image and the harness regions.
    pub mem: Memory,
    /// Register values in application order: the harness's, then the command line's.
    pub registers: Vec<RegisterValue>,
    /// The entry address.
    pub entry: u64,
    /// Whether the default stack was mapped (the harness brought none).
    pub default_stack: bool,
}

impl Setup {
    /// Whether the harness or the command line sets register `name`.
    pub fn sets(&self, name: &str) -> bool {
        self.registers.iter().any(|r| r.name == name)
    }
}

/// A setup error about the input as a whole; the caller names the input with
/// [`Diagnostic::in_file`].
pub fn setup_error(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(SourceLoc::unknown(), msg)
}

/// An error at a harness value's place when the harness gave one (`cpl_origin`,
/// `itc_origin`), else a setup error with no place.
pub fn error_at(origin: Option<&Origin>, msg: String) -> Diagnostic {
    match origin {
        Some(o) => o.error(msg),
        None => setup_error(msg),
    }
}

/// The origin of a `--set NAME=TEXT` value: the argument itself, for its errors.
pub fn set_origin(name: &str, text: &str) -> Origin {
    Origin { path: String::new(), loc: SourceLoc::argument(format!("--set {name}={text}")), source_line: None }
}

/// The entry address of `image`: the symbol `cli_entry` (`--entry`) names, else the one the
/// harness names, else what `default` finds (the start of the code).
///
/// # Errors
/// An undefined symbol, located at `--entry NAME` or at the harness's `entry` key; no
/// default entry ([`SourceLoc::unknown`]: the image has no code).
pub fn entry_point(
    cli_entry: Option<&str>,
    harness: &Harness,
    symbol: &dyn Fn(&str) -> Option<u64>,
    default: Option<u64>,
) -> Result<u64, Diagnostic> {
    let undefined = |name: &str| format!("entry symbol `{name}` is not defined");
    match (cli_entry, &harness.entry) {
        (Some(name), _) => symbol(name)
            .ok_or_else(|| Diagnostic::error(SourceLoc::argument(format!("--entry {name}")), undefined(name))),
        (None, Some(name)) => symbol(name).ok_or_else(|| match &harness.entry_origin {
            Some(origin) => origin.error(undefined(name)),
            None => setup_error(undefined(name)),
        }),
        (None, None) => default.ok_or_else(|| setup_error("no code to run: the image has no code section")),
    }
}

/// Applies the harness to the image: memory, register values, entry.
///
/// # Errors
/// A harness that does not parse or evaluate, a region that does not map, an undefined entry
/// symbol, an image without code.
pub fn prepare(req: &SetupRequest<'_>) -> Result<Setup, Diagnostic> {
    let harness = match req.harness {
        Some(h) => h.clone(),
        None => Harness::parse("<default harness>", req.default_harness)?,
    };
    let image = req.image;
    let symbol = image_symbols(image, req.sentinel);
    let env = harness.env(&symbol)?;
    let mut mem = harness.initial_memory(image, req.endian, &env)?;
    let default_stack = match req.default_stack {
        Some((base, size)) if !harness.regions.iter().any(|r| r.name == "stack") => {
            mem.map(base, size, Perms::RW, "stack")
                .map_err(|e| setup_error(format!("cannot map the default stack: {e}")))?;
            true
        }
        _ => false,
    };
    if let Some(why) = req.cpl_refusal {
        refuse_cpl(&harness, why)?;
    }
    // Only the ia64 core has a TLB model (TLB, issue 12).
    if harness.translation && !req.translation {
        return Err(error_at(
            harness.translation_origin.as_ref(),
            "translation = true: this core models no address translation (only the ia64 core has a TLB model)"
                .to_string(),
        ));
    }
    let mut registers = Vec::with_capacity(harness.registers.len() + req.sets.len() + 1);
    if let (Some(expr), Some(status)) = (&harness.psr, req.status_register) {
        let value = env.eval(expr)?;
        let source = RegisterSource::Harness(expr.origin.clone());
        registers.push(RegisterValue { name: status.to_string(), value, source });
    }
    for (name, expr) in &harness.registers {
        let value = env.eval(expr)?;
        registers.push(RegisterValue {
            name: name.clone(),
            value,
            source: RegisterSource::Harness(expr.origin.clone()),
        });
    }
    for (name, text) in req.sets {
        let value = env.eval(&ValueExpr::parse(text, set_origin(name, text))?)?;
        registers.push(RegisterValue { name: name.clone(), value, source: RegisterSource::CommandLine(text.clone()) });
    }
    let entry = entry_point(req.entry, &harness, &symbol, req.default_entry)?;
    drop(env);
    Ok(Setup { harness, mem, registers, entry, default_stack })
}

/// Refuses a harness `cpl` other than 0 for a core that runs at the most privileged level
/// only: starting it there anyway would measure the kernel's path for a user's. `why` ends
/// the message.
///
/// # Errors
/// At the harness's `cpl` key.
pub fn refuse_cpl(harness: &Harness, why: &str) -> Result<(), Diagnostic> {
    match harness.cpl {
        Some(cpl) if cpl != 0 => Err(error_at(harness.cpl_origin.as_ref(), format!("cpl {cpl} cannot be run: {why}"))),
        _ => Ok(()),
    }
}

/// The names harness expressions see besides the harness's own: `sentinel` and the image's
/// symbols.
pub fn image_symbols(image: &Image, sentinel: u64) -> impl Fn(&str) -> Option<u64> + '_ {
    move |name: &str| match name {
        "sentinel" => Some(sentinel),
        _ => image.symbol(name).map(|s| s.value),
    }
}

/// The report of a finished run: the harness's counters read from `mem`, also appended to the
/// architecture's `snapshot` as `counter.NAME`.
///
/// # Errors
/// A counter that cannot be evaluated or read.
pub fn run_report(
    image: &Image,
    harness: &Harness,
    sentinel: u64,
    mem: &Memory,
    mut snapshot: Snapshot,
    summary: TimingSummary,
    stop: String,
) -> Result<RunReport, Diagnostic> {
    let symbol = image_symbols(image, sentinel);
    let env = harness.env(&symbol)?;
    let counters = harness.read_counters(mem, &|n| env.lookup(n))?;
    // Counter names are unique (the harness checks), so only a name the architecture's
    // snapshot already lists needs [`Snapshot::push`]'s search: searching for every counter
    // made a harness of N counters cost N².
    let listed: HashSet<&str> = snapshot.registers.iter().map(|(n, _)| n.as_str()).collect();
    let (replace, append): (Vec<_>, Vec<_>) = counters
        .iter()
        .map(|c| (format!("counter.{}", c.name), c.value))
        .partition(|(n, _)| listed.contains(n.as_str()));
    snapshot.registers.extend(append.into_iter().map(|(n, v)| (n, Value::Hex(v))));
    for (name, value) in replace {
        snapshot.push_hex(name, value);
    }
    Ok(RunReport { stop, summary, counters, timeline: None, snapshot, initial: None })
}
