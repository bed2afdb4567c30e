//! The one place the command line picks a core (issue 16). [`Arch::of_input`] decides it from
//! the input (an ELF object's machine, or a source file and `--arch`); [`dispatch`] hands a
//! [`Job`] the core's type; everything after is generic over [`CliCore`]: loading (assemble,
//! link, compile with gcc, or load an object), the run, the model's explanation.

use super::kernel::PpArgs;
use super::{read, CliError};
use arch_ia64::cpu::Ia64Cpu;
use arch_s390::cpu::S390Cpu;
use arch_x86::cpu::X86Cpu;
use emu_core::cc::{CcArch, CcSource};
use emu_core::cpu::{Cpu, StopReason};
use emu_core::diff::GroupCost;
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::report::RunReport;
use emu_core::run::{Core, ObjectCore, RunConfig, RunError};
use std::path::{Path, PathBuf};

/// The cores, as `--arch` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Arch {
    /// IA-64 (Itanium 2): assembly source (acctemu's assembler) or objects.
    #[value(name = "ia64")]
    Ia64,
    /// x86-64: objects, or C and assembly compiled with the host's gcc.
    #[value(name = "x86_64", alias = "x86-64")]
    X86_64,
    /// s390x: objects, or C and assembly compiled with s390x-linux-gnu-gcc.
    #[value(name = "s390x")]
    S390x,
}

impl Arch {
    /// The core of ELF machine `machine`, if acctemu has one.
    pub fn of_machine(machine: u16) -> Option<Arch> {
        match machine {
            arch_ia64::reloc::EM_IA_64 => Some(Arch::Ia64),
            arch_x86::reloc::EM_X86_64 => Some(Arch::X86_64),
            arch_s390::reloc::EM_S390 => Some(Arch::S390x),
            _ => None,
        }
    }

    /// The name messages use (as [`emu_core::elf::machine_name`] writes it).
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Ia64 => "IA-64",
            Arch::X86_64 => "x86-64",
            Arch::S390x => "s390x",
        }
    }

    /// The core that runs `path` (read as `bytes`): an object's machine, which `asked`
    /// (`--arch`) must agree with; for a source, `asked`, else IA-64 (the core whose assembly
    /// acctemu assembles itself). A C file without `--arch` is refused: it has no default core.
    ///
    /// # Errors
    /// `--arch` against an object of another machine; C source without `--arch`.
    pub fn of_input(path: &Path, bytes: &[u8], asked: Option<Arch>) -> Result<Arch, CliError> {
        if emu_core::elf::is_elf(bytes) {
            return match (emu_core::elf::machine(bytes).and_then(Arch::of_machine), asked) {
                (Some(found), Some(a)) if found != a => Err(CliError::Usage(format!(
                    "{}: --arch {} but the object is {}",
                    path.display(),
                    a.flag(),
                    found.name()
                ))),
                (Some(found), _) => Ok(found),
                (None, Some(a)) => Ok(a),
                // Another machine: the IA-64 loader names it and the machines acctemu runs.
                (None, None) => Ok(Arch::Ia64),
            };
        }
        match asked {
            Some(a) => Ok(a),
            None if is_c(path) => Err(CliError::Usage(format!(
                "{}: C source runs on a compiled core: give --arch x86_64 or --arch s390x",
                path.display()
            ))),
            None => Ok(Arch::Ia64),
        }
    }

    /// The core of a command with no input file (`run --explain-model`): `asked`, else the
    /// core whose presets include `--model`, else IA-64.
    pub fn without_input(asked: Option<Arch>, spec: &RunSpec) -> Arch {
        let named = |presets: &[&str]| spec.model.as_deref().is_some_and(|m| presets.contains(&m));
        asked.unwrap_or(if named(&arch_x86::timing::PRESETS) {
            Arch::X86_64
        } else if spec.model.is_some() {
            Arch::S390x
        } else {
            Arch::Ia64
        })
    }

    /// The `--arch` value.
    pub const fn flag(self) -> &'static str {
        match self {
            Arch::Ia64 => "ia64",
            Arch::X86_64 => "x86_64",
            Arch::S390x => "s390x",
        }
    }
}

/// Whether `path` names a C file (gcc's `.c`).
fn is_c(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "c")
}

/// A job that runs on whichever core [`dispatch`] picks.
pub trait Job {
    /// What the job gives back.
    type Output;
    /// Does the job on core `C`.
    fn on<C: CliCore>(self) -> Self::Output;
}

/// Does `job` on the core of `arch`: the command line's only match on the architecture.
pub fn dispatch<J: Job>(arch: Arch, job: J) -> J::Output {
    match arch {
        Arch::Ia64 => job.on::<Ia64Cpu>(),
        Arch::X86_64 => job.on::<X86Cpu>(),
        Arch::S390x => job.on::<S390Cpu>(),
    }
}

/// One program to run: a file (source or object), more objects linked with it (IA-64), and
/// for a source its defines; the content, when it is not the file's own (a diff side made by
/// `--patch`, a library caller's text or object bytes).
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// The source or object.
    pub file: PathBuf,
    /// Relocatable objects linked with `file`.
    pub more_files: Vec<PathBuf>,
    /// The bytes to run instead of the file's: source text (after a patch) or an object.
    pub content: Option<Vec<u8>>,
    /// `-D` definitions of a source.
    pub defines: Vec<String>,
}

impl Program {
    /// The program of `file` alone.
    pub fn file(file: impl Into<PathBuf>) -> Program {
        Program { file: file.into(), ..Program::default() }
    }

    /// The bytes that run: the content given, else the file's.
    ///
    /// # Errors
    /// An unreadable file.
    pub fn bytes(&self) -> Result<Vec<u8>, CliError> {
        match &self.content {
            Some(bytes) => Ok(bytes.clone()),
            None => read(&self.file),
        }
    }
}

/// How a command's programs load and run, whichever the core: the shared settings, then each
/// core's own.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// `-I` directories of sources.
    pub include_dirs: Vec<PathBuf>,
    /// `-U`, `-include` and the kernel-tree flags.
    pub pp: PpArgs,
    /// Entry symbol.
    pub entry: Option<String>,
    /// Harness.
    pub harness: Option<Harness>,
    /// Register overrides `(name, value expression)`.
    pub sets: Vec<(String, String)>,
    /// Instruction budget.
    pub max_insns: u64,
    /// Use the timing model.
    pub timing: bool,
    /// Record the timeline.
    pub timeline: bool,
    /// Charge the cycles to symbols and instruction groups ([`Finished::groups`]; records the
    /// timeline).
    pub attribute: bool,
    /// IA-64's options.
    pub ia64: Ia64Flags,
    /// `--model`: the timing model's preset, for the cores that have several (x86-64: zen4,
    /// golden-cove; s390x: z13, z14, z15).
    pub model: Option<String>,
}

impl Default for RunSpec {
    fn default() -> RunSpec {
        RunSpec {
            include_dirs: Vec::new(),
            pp: PpArgs::default(),
            entry: None,
            harness: None,
            sets: Vec::new(),
            max_insns: 1_000_000,
            timing: true,
            timeline: false,
            attribute: false,
            ia64: Ia64Flags::default(),
            model: None,
        }
    }
}

/// The IA-64 core's command-line options.
#[derive(Debug, Clone)]
pub struct Ia64Flags {
    /// `--itc-ratio`: ar.itc ticks per modelled cycle.
    pub itc_ratio: u64,
}

impl Default for Ia64Flags {
    fn default() -> Ia64Flags {
        Ia64Flags { itc_ratio: 1 }
    }
}

/// A finished run: its report, whether it reached its expected end, and, when asked, where
/// its cycles went.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The report.
    pub report: RunReport,
    /// Whether it returned to the sentinel (or stopped on an `rfi`).
    pub ended: bool,
    /// Cycles by instruction group, with their symbol and waits ([`RunSpec::attribute`]).
    pub groups: Vec<GroupCost>,
    /// Where each instruction of the timeline comes from (symbol, source line), when a
    /// timeline was recorded (`--trace-out`, `--pressure`, `--timeline`; issue 18).
    pub places: std::collections::BTreeMap<u64, emu_core::trace_event::Place>,
}

/// A core as the command line drives it.
pub trait CliCore: Core + Cpu<Error: Send + Sync> {
    /// Which one it is.
    const ARCH: Arch;
    /// What a loaded program is on this core.
    type Program;

    /// The core's options from the command line's.
    ///
    /// # Errors
    /// A value the core has no meaning for.
    fn options(spec: &RunSpec) -> Result<Self::Options, CliError>;

    /// The timing model's parameters with their sources (`--explain-model`).
    ///
    /// # Errors
    /// An option naming no model.
    fn explain_model(spec: &RunSpec) -> Result<String, CliError>;

    /// Assembles, compiles, links or loads `program`.
    ///
    /// # Errors
    /// Unreadable, malformed or unsupported input; assembler or compiler errors.
    fn load(program: &Program, spec: &RunSpec) -> Result<Self::Program, CliError>;

    /// The program's image (its symbols name the cycles).
    fn image(program: &Self::Program) -> &Image;

    /// Runs a loaded program.
    ///
    /// # Errors
    /// Setup and execution errors.
    fn run(program: &Self::Program, cfg: &RunConfig<Self>) -> Result<(RunReport, StopReason), RunError<Self::Error>>;
}

/// Which of a command's programs failed, and why.
#[derive(Debug)]
pub struct SideError {
    /// Its index in the programs given.
    pub side: usize,
    /// The error.
    pub error: CliError,
}

/// Loads and runs each of `programs` in turn (the second is loaded only once the first ran)
/// with the same settings.
pub struct RunPrograms<'a> {
    /// The programs.
    pub programs: &'a [Program],
    /// The settings.
    pub spec: &'a RunSpec,
}

impl Job for RunPrograms<'_> {
    type Output = Result<Vec<Finished>, SideError>;

    fn on<C: CliCore>(self) -> Self::Output {
        let spec = self.spec;
        let options = C::options(spec).map_err(|error| SideError { side: 0, error })?;
        let cfg = RunConfig::<C> {
            entry: spec.entry.clone(),
            harness: spec.harness.clone(),
            sets: spec.sets.clone(),
            max_insns: spec.max_insns,
            timing: spec.timing,
            timeline: spec.timeline || spec.attribute,
            options,
            ..RunConfig::default()
        };
        let mut done = Vec::with_capacity(self.programs.len());
        for (side, program) in self.programs.iter().enumerate() {
            let loaded = C::load(program, spec).map_err(|error| SideError { side, error })?;
            let (report, reason) = C::run(&loaded, &cfg).map_err(|e| SideError { side, error: CliError::run(e) })?;
            let groups =
                if spec.attribute { super::attribution::groups(C::image(&loaded), &report) } else { Vec::new() };
            let places = match (&report.timeline, spec.timeline) {
                (Some(t), true) => super::places::places(C::image(&loaded), t),
                _ => Default::default(),
            };
            done.push(Finished { report, ended: reason.is_expected_end(), groups, places });
        }
        Ok(done)
    }
}

/// The timing model's explanation on the core it is dispatched to.
pub struct ExplainModel<'a>(pub &'a RunSpec);

impl Job for ExplainModel<'_> {
    type Output = Result<String, CliError>;

    fn on<C: CliCore>(self) -> Self::Output {
        C::explain_model(self.0)
    }
}

/// What `run` executes on IA-64: an image, or a link of objects with its stubs.
pub enum Ia64Program {
    /// An assembled source or a loaded executable.
    Image(Image),
    /// Relocatable objects linked.
    Linked(emu_core::link::Linked),
}

/// Whether `bytes` are a relocatable ELF object (`e_type` ET_REL, in either byte order).
pub fn is_relocatable(bytes: &[u8]) -> bool {
    let e_type = match (bytes.get(5), bytes.get(16), bytes.get(17)) {
        (Some(2), Some(hi), Some(lo)) => u16::from_be_bytes([*hi, *lo]),
        (_, Some(lo), Some(hi)) => u16::from_le_bytes([*lo, *hi]),
        _ => return false,
    };
    emu_core::elf::is_elf(bytes) && e_type == 1
}

impl CliCore for Ia64Cpu {
    const ARCH: Arch = Arch::Ia64;
    type Program = Ia64Program;

    fn options(spec: &RunSpec) -> Result<arch_ia64::run::Ia64Options, CliError> {
        no_model(spec)?;
        Ok(arch_ia64::run::Ia64Options { itc_per_cycle: spec.ia64.itc_ratio })
    }

    fn explain_model(spec: &RunSpec) -> Result<String, CliError> {
        no_model(spec)?;
        Ok(arch_ia64::timing::Itanium2Params::default().explain_model())
    }

    fn load(program: &Program, spec: &RunSpec) -> Result<Ia64Program, CliError> {
        let name = program.file.display().to_string();
        let bytes = program.bytes()?;
        if arch_ia64::elf::is_elf(&bytes) {
            return load_ia64_object(program, &bytes, spec.harness.as_ref());
        }
        if !program.more_files.is_empty() {
            return Err(CliError::Usage(format!(
                "{name}: several files are linked, and each must be a relocatable ELF object (.o)"
            )));
        }
        let text = super::binary::source_text(&program.file, &bytes, "run")?;
        let pp = spec.pp.prepare(&program.defines, &spec.include_dirs)?;
        let asm = arch_ia64::asm::assemble(&name, &text, &pp.options, &pp.loader()).map_err(CliError::Assemble)?;
        Ok(Ia64Program::Image(asm.image))
    }

    fn image(program: &Ia64Program) -> &Image {
        match program {
            Ia64Program::Image(image) => image,
            Ia64Program::Linked(linked) => &linked.image,
        }
    }

    fn run(program: &Ia64Program, cfg: &arch_ia64::run::RunConfig) -> RunResult<Ia64Cpu> {
        match program {
            Ia64Program::Image(image) => arch_ia64::run::run_image_until(image, cfg),
            Ia64Program::Linked(linked) => arch_ia64::link::run_linked(linked, cfg, Vec::new()),
        }
    }
}

/// What [`CliCore::run`] gives back on core `C`.
type RunResult<C> = Result<(RunReport, StopReason), RunError<<C as Cpu>::Error>>;

/// An IA-64 object: linked (a relocatable one, or several files) or loaded as it is.
fn load_ia64_object(program: &Program, bytes: &[u8], harness: Option<&Harness>) -> Result<Ia64Program, CliError> {
    fn object(path: &Path) -> impl Fn(arch_ia64::elf::ElfError) -> CliError + '_ {
        move |source| CliError::object(path, source)
    }
    if !is_relocatable(bytes) && program.more_files.is_empty() {
        return arch_ia64::elf::load_for_run(bytes).map(Ia64Program::Image).map_err(object(&program.file));
    }
    // A malformed header is named by the loader's own checks first.
    arch_ia64::elf::load(bytes).map_err(object(&program.file))?;
    let mut files = vec![(program.file.display().to_string(), bytes.to_vec())];
    for path in &program.more_files {
        files.push((path.display().to_string(), read(path)?));
    }
    for ((_, bytes), path) in files.iter().zip(std::iter::once(&program.file).chain(&program.more_files)) {
        arch_ia64::elf::check_relocations_sane(bytes).map_err(object(path))?;
    }
    let objects: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let bindings = arch_ia64::link::bindings(harness, &[]).map_err(CliError::Setup)?;
    arch_ia64::link::link(&objects, &bindings).map(Ia64Program::Linked).map_err(|e| CliError::Link(Box::new(e)))
}

/// The object of a compiled core's program: the file itself, or its source compiled with gcc.
fn load_compiled<C: CliCore + ObjectCore>(program: &Program, spec: &RunSpec, cc: CcArch) -> Result<Image, CliError> {
    let path = &program.file;
    if !program.more_files.is_empty() {
        return Err(CliError::Usage(format!(
            "linking several objects is supported for IA-64 objects; {} is {}",
            path.display(),
            C::ARCH.name()
        )));
    }
    let bytes = program.bytes()?;
    let bytes = if emu_core::elf::is_elf(&bytes) {
        bytes
    } else {
        let text = super::binary::source_text(path, &bytes, "run")?;
        match program.content {
            Some(_) => compile(program, CcSource::Text { name: &path.display().to_string(), text: &text }, spec, cc)?,
            None => compile(program, CcSource::File(path), spec, cc)?,
        }
    };
    C::load_object_with(&bytes, &|_| None).map_err(|e| CliError::object(path, e))
}

/// `gcc -c` of a compiled core's source: the default flags, then `-I` (the source's own
/// directory first, for a patched text compiled elsewhere), `-U` and `-include`.
fn compile(program: &Program, source: CcSource<'_>, spec: &RunSpec, cc: CcArch) -> Result<Vec<u8>, CliError> {
    if spec.pp.kernel_tree.is_some() {
        return Err(CliError::Usage(format!(
            "--kernel-tree preprocesses IA-64 assembly; {} is compiled by gcc for {}",
            program.file.display(),
            cc.name()
        )));
    }
    let mut flags: Vec<String> = cc.default_flags().iter().map(|f| f.to_string()).collect();
    if let Some(dir) = program.file.parent().filter(|d| !d.as_os_str().is_empty()) {
        flags.push(format!("-I{}", dir.display()));
    }
    flags.extend(spec.include_dirs.iter().map(|d| format!("-I{}", d.display())));
    flags.extend(spec.pp.undefines.iter().map(|u| format!("-U{u}")));
    for f in &spec.pp.forced_includes {
        flags.extend(["-include".to_string(), f.display().to_string()]);
    }
    emu_core::cc::compile(cc, source, &program.defines, &flags)
        .map_err(|source| CliError::Compile { path: program.file.clone(), source })
}

impl CliCore for X86Cpu {
    const ARCH: Arch = Arch::X86_64;
    type Program = Image;

    fn options(spec: &RunSpec) -> Result<arch_x86::run::X86Options, CliError> {
        Ok(arch_x86::run::X86Options { model: x86_params(spec)?, ..Default::default() })
    }

    fn explain_model(spec: &RunSpec) -> Result<String, CliError> {
        Ok(x86_params(spec)?.explain_model())
    }

    fn load(program: &Program, spec: &RunSpec) -> Result<Image, CliError> {
        load_compiled::<X86Cpu>(program, spec, CcArch::X86_64)
    }

    fn image(image: &Image) -> &Image {
        image
    }

    fn run(image: &Image, cfg: &arch_x86::run::RunConfig) -> RunResult<X86Cpu> {
        arch_x86::run::run_image_until(image, cfg)
    }
}

impl CliCore for S390Cpu {
    const ARCH: Arch = Arch::S390x;
    type Program = Image;

    fn options(spec: &RunSpec) -> Result<arch_s390::run::S390Options, CliError> {
        Ok(arch_s390::run::S390Options { model: s390_params(spec)? })
    }

    fn explain_model(spec: &RunSpec) -> Result<String, CliError> {
        Ok(s390_params(spec)?.explain_model())
    }

    fn load(program: &Program, spec: &RunSpec) -> Result<Image, CliError> {
        load_compiled::<S390Cpu>(program, spec, CcArch::S390x)
    }

    fn image(image: &Image) -> &Image {
        image
    }

    fn run(image: &Image, cfg: &arch_s390::run::RunConfig) -> RunResult<S390Cpu> {
        arch_s390::run::run_image_until(image, cfg)
    }
}

/// Refuses `--model` on a core without presets.
fn no_model(spec: &RunSpec) -> Result<(), CliError> {
    match spec.model.as_deref() {
        Some(m) => Err(CliError::Usage(format!("--model {m}: timing presets exist for x86-64 and s390x objects only"))),
        None => Ok(()),
    }
}

/// The x86-64 timing preset `--model` names (issue 15), Zen 4 by default.
fn x86_params(spec: &RunSpec) -> Result<arch_x86::timing::X86Params, CliError> {
    let Some(name) = spec.model.as_deref() else { return Ok(arch_x86::timing::X86Params::default()) };
    arch_x86::timing::X86Params::preset(name).ok_or_else(|| {
        CliError::Usage(format!(
            "--model {name}: no such x86-64 timing model (known: {})",
            arch_x86::timing::PRESETS.join(", ")
        ))
    })
}

/// The s390x timing preset `--model` names (issue 15), z13 by default.
fn s390_params(spec: &RunSpec) -> Result<arch_s390::timing::S390Params, CliError> {
    let Some(name) = spec.model.as_deref() else { return Ok(arch_s390::timing::S390Params::default()) };
    arch_s390::timing::S390Params::preset(name).ok_or_else(|| {
        CliError::Usage(format!(
            "--model {name}: no such s390x timing model (known: {})",
            arch_s390::timing::PRESETS.join(", ")
        ))
    })
}
