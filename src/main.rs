//! The `acctemu` command line.

use acctemu::cli::{self, asm::AsmRequest, exit::Status, run::Format, run::RunRequest, CliError};
use clap::{Parser, Subcommand};
use emu_core::echo::escape_message;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Cycle-counting emulator of the kernel paths that account CPU time.
#[derive(Debug, Parser)]
#[command(name = "acctemu", version, about)]
struct Args {
    #[command(subcommand)]
    command: Command,
    /// Largest file read, in bytes (every source, include, harness, object, patch, snapshot).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = emu_core::input::DEFAULT_MAX_INPUT_SIZE)]
    max_input_size: u64,
    /// Largest total the assembler's `.skip`/`.space` and `.align` directives may add, in bytes.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = emu_core::input::DEFAULT_MAX_OUTPUT_SIZE)]
    max_output_size: u64,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Assemble an IA-64 source file (GNU as syntax, explicit stops unless -xauto, C preprocessor for .S; .s as written).
    Asm {
        /// The source file.
        file: PathBuf,
        /// Define a preprocessor macro: NAME or NAME=VALUE.
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Add a directory to the #include search path.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Write the ELF64 relocatable object (as GNU as would) to this file.
        #[arg(short = 'o', value_name = "OUT.o")]
        output: Option<PathBuf>,
        /// With -o, write only the raw bytes of .text instead of an ELF object.
        #[arg(long)]
        raw: bool,
        /// GNU as machine option for the object's ELF header: `-mconstant-gp` (the kernel's)
        /// or `-mauto-pic`.
        #[arg(short = 'm', value_name = "OPTION")]
        machine: Vec<String>,
        /// Print a per-slot listing with bytes, template, disassembly and source line.
        #[arg(long)]
        listing: bool,
        /// GNU as's dependency-violation mode: `-x`/`-xexplicit` (the default here, as the
        /// kernel assembles), `-xauto` (gas's own default: stops inserted), `-xnone`.
        #[arg(short = 'x', value_name = "MODE", num_args = 0..=1, default_missing_value = "", require_equals = true)]
        x: Vec<String>,
        #[command(flatten)]
        pp: PpFlags,
    },
    /// Run code on the core of its architecture: an ELF object (IA-64, x86-64, s390x, by its
    /// machine), IA-64 assembly (.S, .s), or with --arch x86_64|s390x a C or assembly source
    /// compiled with gcc -c.
    Run {
        /// The source or object file.
        file: Option<PathBuf>,
        /// More relocatable objects of the same architecture, linked with the first.
        #[arg(value_name = "MORE.o")]
        more: Vec<PathBuf>,
        /// Harness (TOML): memory regions, registers, counters. Default: a stack, a
        /// backing store and a task area, b0 = the sentinel.
        #[arg(long, value_name = "H.toml")]
        harness: Option<PathBuf>,
        /// Entry symbol (default: the harness's, else the first label).
        #[arg(long, value_name = "SYM")]
        entry: Option<String>,
        /// Set a register before running: r12=stack.top-16, ar.k6=task, p6=1, ...
        #[arg(long = "set", value_name = "REG=VAL")]
        sets: Vec<String>,
        /// Define a preprocessor macro: NAME or NAME=VALUE.
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Add a directory to the #include search path.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Print the per-instruction-group timeline.
        #[arg(long)]
        timeline: bool,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Instruction budget (a run that exhausts it stops and says so).
        #[arg(long, default_value_t = 1_000_000)]
        max_insns: u64,
        /// Run without the timing model (one cycle per instruction group).
        #[arg(long)]
        no_timing: bool,
        /// ar.itc ticks per modelled cycle (Itanium 2: 1).
        #[arg(long, default_value_t = 1, value_name = "N")]
        itc_ratio: u64,
        /// Write the final state as an insta-compatible YAML snapshot.
        #[arg(long, value_name = "FILE.snap")]
        snapshot: Option<PathBuf>,
        /// Compare the final state with a snapshot; exit 1 and show the differences if any.
        #[arg(long, value_name = "FILE.snap")]
        check: Option<PathBuf>,
        /// Print the timing model's parameters with their sources instead of running.
        #[arg(long)]
        explain_model: bool,
        /// Timing model preset: x86-64 zen4 (default) or golden-cove; s390x z13 (default), z14
        /// or z15; with --explain-model, prints that preset's table.
        #[arg(long, value_name = "GEN")]
        model: Option<String>,
        /// The core of a source file: ia64 (the default; acctemu's assembler), x86_64 or s390x
        /// (compiled with gcc -c, or s390x-linux-gnu-gcc). An object's core is its ELF machine.
        #[arg(long, value_enum, value_name = "ARCH")]
        arch: Option<cli::core::Arch>,
        // quiet output (issue 18)
        /// Print every register of the final state (and with --check, the run before the
        /// differences); by default only the registers the run changed.
        #[arg(short = 'v', long)]
        verbose: bool,
        #[command(flatten)]
        pp: PpFlags,
        // --trace-out, --pressure (issue 18, w6-perfetto)
        #[command(flatten)]
        trace: cli::trace_out::TraceFlags,
    },
    /// Run a workload of system calls through a catalogue trace's entry, exit and tick
    /// paths; report cycles per path and true against accounted user/system time.
    Scenario {
        /// Catalogue name of the trace (see `acctemu list`; ia64/linux-6.1/{none,v1,v2} run
        /// the installed 6.1 tree's own files).
        #[arg(required_unless_present = "tree")]
        trace: Option<String>,
        #[command(flatten)]
        workload: WorkloadArgs,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: cli::scenario::ScenarioFormat,
        #[command(flatten)]
        tree: TreeFlags,
        /// The kernel config of --tree (default: the tree's .config, else the v2 config of
        /// traces/ia64/linux-6.1).
        #[arg(long, value_name = "FILE", requires = "tree")]
        kernel_config: Option<PathBuf>,
        /// A real build's include/generated/asm-offsets.h for --tree.
        #[arg(long, value_name = "FILE", requires = "tree")]
        asm_offsets: Option<PathBuf>,
        // --trace-out, --pressure of one system call (issue 18, w7-traceout)
        #[command(flatten)]
        calls: cli::call_trace::CallFlags,
    },
    /// Cycle-diff two versions: catalogue traces per system call over a workload (with no
    /// arguments: ia64/syscall/v1 against v2, baseline none), or two plain programs over one run.
    Diff {
        /// Version A: a catalogue name or a file.
        a: Option<String>,
        /// Version B: a catalogue name or a file (or A changed by --patch / --b-define).
        b: Option<String>,
        /// A unified diff turning A's source into B's.
        #[arg(long, value_name = "P.diff")]
        patch: Option<PathBuf>,
        /// Preprocessor definition for both sides.
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Preprocessor definition for A only.
        #[arg(long = "a-define", value_name = "NAME[=VALUE]")]
        a_define: Vec<String>,
        /// Preprocessor definition for B only.
        #[arg(long = "b-define", value_name = "NAME[=VALUE]")]
        b_define: Vec<String>,
        /// Add a directory to the #include search path.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Entry symbol (plain files).
        #[arg(long, value_name = "SYM")]
        entry: Option<String>,
        /// Harness (plain files).
        #[arg(long, value_name = "H.toml")]
        harness: Option<PathBuf>,
        /// Set a register before each run (plain files): rdi=5, r2=data, r32=1, ...
        #[arg(long = "set", value_name = "REG=VAL")]
        sets: Vec<String>,
        /// The core of plain source files: ia64 (default), x86_64 or s390x (compiled with gcc).
        #[arg(long, value_enum, value_name = "ARCH")]
        arch: Option<cli::core::Arch>,
        #[command(flatten)]
        workload: WorkloadArgs,
        // the diff's headline and mail layout (issue 18, w6-headline)
        /// Output format: text, json, or mail (plain ASCII of at most 72 columns, for a
        /// patch review).
        #[arg(long, value_enum, default_value = "text")]
        format: cli::diff::DiffFormat,
        /// The most instruction-group rows shown; the rest are folded into one `other` row.
        #[arg(long, value_name = "N", default_value_t = cli::diff::DEFAULT_TOP)]
        top: usize,
        #[command(flatten)]
        pp: PpFlags,
        #[command(flatten)]
        tree: TreeFlags,
        // --trace-out, --pressure of one system call per side (issue 18, w7-traceout)
        #[command(flatten)]
        calls: cli::call_trace::CallFlags,
    },
    /// Cycles of catalogue traces as a parameter varies: one call of an x86 helper (cpus for
    /// x86/timer-target/*, missed-periods for x86/sched-avg/*), or a full scenario of a trace
    /// with system-call paths (hz, user-cycles, kernel-cycles, syscalls; the other workload
    /// values from --syscalls, --user-cycles, --kernel-cycles, --hz as `scenario` takes them),
    /// reporting cycles and instructions per system call and true against accounted time.
    /// Points run in parallel on all cores; the output does not depend on the scheduling.
    Sweep {
        /// Catalogue names of the traces to compare.
        #[arg(required = true)]
        traces: Vec<String>,
        /// The parameter.
        #[arg(long, value_enum)]
        param: cli::sweep::Param,
        /// First value.
        #[arg(long)]
        from: u64,
        /// Last value (inclusive).
        #[arg(long)]
        to: u64,
        /// Step between values.
        #[arg(long, default_value_t = 1)]
        step: u64,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: cli::scenario::ScenarioFormat,
        /// Also write an SVG plot of the --y metric (default: cycles per call, or per system
        /// call) against the parameter, one line per trace, titled with the model, its clock
        /// and the workload.
        #[arg(long, value_name = "FILE.svg")]
        svg: Option<PathBuf>,
        // sweep metrics (issue 18)
        /// The metric plotted (and added as the table's last column): a numeric field of the
        /// points' JSON by path. Scenario sweeps: cycles, instructions (per system call),
        /// cycles_per_syscall.{mean,min,max}, instructions_per_syscall,
        /// {utime,stime,guest,hardirq,softirq}.{relative_error,error,truth,accounted},
        /// ticks.{user,kernel,coalesced}, tick_period, tolerance,
        /// workload.{syscalls,user_cycles,kernel_cycles,hz,cpu_hz,irq_every}; relative errors
        /// are plotted in %. Call sweeps (cpus, missed-periods): cycles, instructions.
        #[arg(long = "y", value_name = "METRIC")]
        y: Option<String>,
        /// The workload of each point of hz, user-cycles, kernel-cycles and syscalls (the
        /// swept value replaces its flag); cpus and missed-periods do not use it.
        #[command(flatten)]
        workload: WorkloadArgs,
    },
    /// Measure the emulator's throughput: emulated instructions and simulated cycles per host
    /// second for each core, with the timing model on and off, on a tight ALU loop, a
    /// load/store/call loop and each catalogue scenario.
    ///
    /// Columns: core; workload (loop/alu, loop/load-store-call, or the scenario's trace);
    /// timing (the core's timing model on, or off: one cycle per instruction, per instruction
    /// group on IA-64); instructions and cycles, the modelled CPU's own counters over the run (a
    /// scenario's cycles leave out the user and kernel phases its clock skips without running
    /// instructions); cpu s, the CPU seconds (user + system, not wall time) of the run; M
    /// insns/s and M cycles/s, millions of instructions and cycles per CPU second; host/insn,
    /// host instructions per emulated instruction (with --callgrind); peak MiB, the row's peak
    /// resident memory. Scenario rows are repeated per system call in a second table. Host
    /// figures enter only these columns; instructions and cycles do not depend on them.
    Bench {
        /// Iterations of each loop.
        #[arg(long, default_value_t = cli::bench::DEFAULT_ITERATIONS, value_name = "N",
              value_parser = clap::value_parser!(u64).range(1..))]
        iterations: u64,
        /// System calls of each scenario (1500 user and 300 kernel cycles each, ticks at
        /// 1000 Hz).
        #[arg(long, default_value_t = cli::bench::DEFAULT_SYSCALLS, value_name = "N")]
        syscalls: u64,
        /// Run only the rows whose `core workload timing` (e.g. `x86-64 loop/alu off`)
        /// contains this substring.
        #[arg(long, value_name = "SUBSTRING")]
        only: Option<String>,
        /// Run only the row whose `core workload timing` is exactly this (as the callgrind
        /// re-runs do).
        #[arg(long, value_name = "LABEL")]
        row: Option<String>,
        /// Output format: the table, row by row as each finishes, or JSON at the end.
        #[arg(long, value_enum, default_value = "text")]
        format: cli::scenario::ScenarioFormat,
        /// The most paths the scenario rows together may run (as `scenario --max-paths`).
        #[arg(long, value_name = "N", default_value_t = cli::limits::DEFAULT_MAX_PATHS)]
        max_paths: u64,
        /// Also count host instructions per emulated instruction (and per system call):
        /// each row re-run under valgrind's callgrind at N and 2N, the difference over the
        /// difference (needs valgrind).
        #[arg(long)]
        callgrind: bool,
        /// Loop iterations N of the shorter callgrind re-run.
        #[arg(long, value_name = "N", default_value_t = cli::bench::DEFAULT_CALLGRIND_ITERATIONS,
              value_parser = clap::value_parser!(u64).range(1..), requires = "callgrind")]
        callgrind_iterations: u64,
        /// System calls N of the shorter callgrind re-run of a scenario row.
        #[arg(long, value_name = "N", default_value_t = cli::bench::DEFAULT_CALLGRIND_SYSCALLS,
              value_parser = clap::value_parser!(u64).range(1..), requires = "callgrind")]
        callgrind_syscalls: u64,
    },
    /// Write the asm-offsets.h of an ia64 kernel tree: struct pt_regs, switch_stack,
    /// thread_info and sigcontext offsets computed from the tree's headers for the config,
    /// the rest from acctemu's documented stand-in layout (a real build's file replaces it).
    AsmOffsets {
        /// The kernel source tree.
        #[arg(long, value_name = "DIR")]
        kernel_tree: PathBuf,
        /// The kernel config (default: DIR/.config).
        #[arg(long, value_name = "FILE")]
        kernel_config: Option<PathBuf>,
        /// Write the header here instead of stdout.
        #[arg(short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// List the trace catalogue: name, architecture, seed, description, bound paths.
    List,
    /// Print a catalogue trace's source and harness.
    Show {
        /// Catalogue name of the trace.
        name: String,
    },
    /// Disassemble an IA-64 ELF object (like objdump -d) or a raw .bin of bundles.
    Disasm {
        /// The object or raw file.
        file: PathBuf,
        /// Load address of a raw file's first bundle.
        #[arg(long, default_value_t = 0, value_parser = parse_addr)]
        base: u64,
        /// Show each relocation after the line it patches, as objdump -dr does (ELF objects).
        #[arg(short = 'r', long = "reloc")]
        reloc: bool,
    },
}

/// The workload of `scenario`, `diff` and `sweep`: N system calls with U user and K kernel cycles each,
/// ticks at HZ on the 1.5 GHz Itanium 2 clock.
#[derive(Debug, clap::Args)]
struct WorkloadArgs {
    /// Number of system calls.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    syscalls: u64,
    /// User-mode cycles before each system call.
    #[arg(long, default_value_t = 1500, value_name = "U")]
    user_cycles: u64,
    /// Kernel cycles inside each system call (the syscall body).
    #[arg(long, default_value_t = 300, value_name = "K")]
    kernel_cycles: u64,
    /// Timer ticks per second (0: no ticks). Default 1024; the x86 traces have HZ 1000
    /// compiled in and take only 1000 or 0.
    #[arg(long, value_name = "H")]
    hz: Option<u64>,
    /// An interrupt (irq enter + exit paths) in every N-th user phase (N >= 1; the trace
    /// must bind irq_enter and irq_exit).
    #[arg(long, value_name = "N")]
    irq_every: Option<u64>,
    /// Guest hypercalls instead of system calls (seed 002's KVM benchmark): the user phase
    /// runs in a guest and the paths are guest_exit and guest_enter.
    #[arg(long)]
    guest: bool,
    /// The most paths (entry, exit, interrupt and tick paths, ticks being the workload's cycles
    /// over the tick period) a run may take, over all points of a sweep; a workload above it is
    /// refused with an estimate.
    #[arg(long, value_name = "N", default_value_t = cli::limits::DEFAULT_MAX_PATHS)]
    max_paths: u64,
}

/// Preprocessor flags beyond -D and -I, and the kernel-tree options.
#[derive(Debug, clap::Args)]
struct PpFlags {
    /// Undefine a macro (after every -D, as cpp does).
    #[arg(short = 'U', value_name = "NAME")]
    undefine: Vec<String>,
    /// Process FILE as if `#include "FILE"` came first (cpp's -include; `-include` works too).
    #[arg(long = "include", value_name = "FILE")]
    forced_include: Vec<PathBuf>,
    /// Preprocess as the Linux build of arch/ia64 does: its include paths, -include files and
    /// -D flags, with autoconf.h from the config and the other generated headers made in memory.
    #[arg(long, value_name = "DIR")]
    kernel_tree: Option<PathBuf>,
    /// The build directory (O=) whose generated headers, where present, are used.
    #[arg(long, value_name = "DIR", requires = "kernel_tree")]
    kernel_build: Option<PathBuf>,
    /// The kernel config (default: the build directory's .config); with --kernel-tree, or
    /// diff's --tree.
    #[arg(long, value_name = "FILE")]
    kernel_config: Option<PathBuf>,
    /// A real build's include/generated/asm-offsets.h, instead of the generated one; with
    /// --kernel-tree, or diff's --tree.
    #[arg(long, value_name = "FILE")]
    asm_offsets: Option<PathBuf>,
}

impl PpFlags {
    fn args(self) -> cli::kernel::PpArgs {
        cli::kernel::PpArgs {
            undefines: self.undefine,
            forced_includes: self.forced_include,
            kernel_tree: self.kernel_tree,
            kernel_build: self.kernel_build,
            kernel_config: self.kernel_config,
            asm_offsets: self.asm_offsets,
        }
    }
}

/// A Linux ia64 kernel tree run by `scenario --tree` and `diff --tree` (issue 14).
#[derive(Debug, clap::Args)]
struct TreeFlags {
    /// Run this ia64 kernel tree's own entry files (ivt.S, entry.S, fsys.S, gate.S):
    /// preprocessed, assembled and linked by acctemu with stubs for the C they call, each
    /// entry kind from user mode back to user mode.
    #[arg(long, value_name = "DIR")]
    tree: Option<PathBuf>,
    /// diff: side B, another tree, or a directory of files replacing --tree's at the same
    /// relative paths (with --patch: B is --tree with the patch applied).
    #[arg(long, value_name = "DIR", requires = "tree")]
    tree_b: Option<PathBuf>,
    /// Entry kinds to run: break, epc, fsys-getpid, tick (default: all).
    #[arg(long = "entry-kind", value_name = "KIND")]
    entry_kind: Vec<String>,
    /// Round trips of each entry kind (with --tree or an ia64/linux-6.1 trace).
    #[arg(long, value_name = "N", default_value_t = 20)]
    calls: usize,
    /// With --tree or an ia64/linux-6.1 trace: the entry kinds' table only, without the
    /// accounting check (seed 004's loop with ticks, true against accounted time).
    #[arg(long)]
    paths_only: bool,
}

impl TreeFlags {
    /// The entry kinds asked for (all by default).
    fn entries(&self) -> Result<Vec<arch_ia64::kernel::EntryKind>, cli::CliError> {
        let mut entries = Vec::new();
        for k in &self.entry_kind {
            let kind = arch_ia64::kernel::EntryKind::parse(k).ok_or_else(|| {
                cli::CliError::Usage(format!("--entry-kind {k}: one of break, epc, fsys-getpid, tick"))
            })?;
            entries.push(kind);
        }
        if entries.is_empty() {
            entries = arch_ia64::kernel::EntryKind::ALL.to_vec();
        }
        if self.calls < 2 {
            return Err(cli::CliError::Usage(
                "--calls: at least 2 (the first round trip is left out of the means)".into(),
            ));
        }
        Ok(entries)
    }

    fn request(
        &self,
        config: Option<PathBuf>,
        asm_offsets: Option<PathBuf>,
        patch: Option<PathBuf>,
        defines: Vec<String>,
        json: bool,
    ) -> Result<Option<cli::kernel_tree::TreeRequest>, cli::CliError> {
        let Some(tree) = &self.tree else { return Ok(None) };
        let entries = self.entries()?;
        let a = cli::kernel_tree::TreeSide {
            tree: tree.clone(),
            config: config.clone(),
            asm_offsets: asm_offsets.clone(),
            defines: defines.clone(),
            label: tree.display().to_string(),
            ..Default::default()
        };
        let b = match (&self.tree_b, &patch) {
            (Some(_), Some(_)) => {
                return Err(cli::CliError::Usage("--tree-b and --patch both name side B: give one".into()))
            }
            (Some(dir), None) => {
                let full = dir.join("include/linux/kconfig.h").is_file();
                Some(cli::kernel_tree::TreeSide {
                    tree: if full { dir.clone() } else { tree.clone() },
                    overlay: (!full).then(|| dir.clone()),
                    label: dir.display().to_string(),
                    ..a.clone()
                })
            }
            (None, Some(p)) => Some(cli::kernel_tree::TreeSide {
                patch: Some(p.clone()),
                // Named after what it is (issue 18): `linux-source-6.1+fix.diff`.
                label: {
                    let (base, patch) = (tree.display().to_string(), p.display().to_string());
                    let origin =
                        emu_core::diff::naming::Origin { base: &base, patch: Some(&patch), ..Default::default() };
                    emu_core::diff::naming::name_side(&origin).name
                },
                ..a.clone()
            }),
            (None, None) => None,
        };
        Ok(Some(cli::kernel_tree::TreeRequest {
            a,
            b,
            entries,
            calls: self.calls,
            json,
            mail: false,
            accounting: !self.paths_only,
        }))
    }
}

/// The tick rate of a workload whose `--hz` is not given.
const DEFAULT_HZ: u64 = 1024;

impl WorkloadArgs {
    /// The workload for a run through the catalogue traces `names` (names that are no
    /// catalogue trace, such as files, are skipped).
    ///
    /// # Errors
    /// A `--hz` a trace with HZ compiled into its C cannot run at (`Trace::compiled_hz`): a
    /// silently replaced value would be a wrong answer.
    fn workload_for<'a>(
        &self,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<emu_core::scenario::Workload, cli::CliError> {
        if let Some(hz) = self.hz.filter(|&hz| hz != 0) {
            // Only traces that run workloads have ticks (a helper called on its own has none).
            let ticking = |t: &&traces::Trace| t.binding(traces::PathKind::SyscallEnter).is_some();
            let fixed = names
                .into_iter()
                .filter_map(traces::find)
                .filter(ticking)
                .find_map(|t| t.compiled_hz().filter(|&k| k != hz).map(|k| (t, k)));
            if let Some((t, kernel_hz)) = fixed {
                return Err(cli::CliError::Usage(format!(
                    "--hz {hz}: {} is compiled with HZ {kernel_hz} ({}), so its ticks run at \
                     that rate; give --hz {kernel_hz}, or --hz 0 for no ticks",
                    t.name, t.source_name
                )));
            }
        }
        Ok(self.workload())
    }

    fn workload(&self) -> emu_core::scenario::Workload {
        emu_core::scenario::Workload {
            syscalls: self.syscalls,
            user_cycles: self.user_cycles,
            kernel_cycles: self.kernel_cycles,
            hz: self.hz.unwrap_or(DEFAULT_HZ),
            cpu_hz: cli::scenario::IA64_CPU_HZ,
            irq_every: self.irq_every,
            guest: self.guest,
        }
    }
}

fn parse_addr(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("`{s}` is not an address: {e}"))
}

fn run(args: Args) -> Result<String, CliError> {
    cli::set_limits(emu_core::input::Limits {
        max_input_size: args.max_input_size,
        max_output_size: args.max_output_size,
    });
    match args.command {
        Command::Asm { file, define, include, output, raw, machine, listing, x, pp } => {
            let req = AsmRequest {
                file,
                defines: define,
                include_dirs: include,
                output,
                raw,
                machine,
                listing,
                pp: pp.args(),
                dv_modes: x,
            };
            let done = cli::asm::run(&req)?;
            for w in &done.warnings {
                eprintln!("{w}");
            }
            Ok(done.stdout)
        }
        Command::Run {
            file,
            more,
            harness,
            entry,
            sets,
            define,
            include,
            timeline,
            format,
            max_insns,
            no_timing,
            itc_ratio,
            snapshot,
            check,
            explain_model,
            model,
            arch,
            verbose,
            pp,
            trace,
        } => {
            if file.is_none() && !explain_model {
                return Err(CliError::Usage("run: a source or object file is required".into()));
            }
            let req = RunRequest {
                file: file.unwrap_or_default(),
                more_files: more,
                harness,
                entry,
                sets,
                defines: define,
                include_dirs: include,
                pp: pp.args(),
                timeline,
                format,
                max_insns,
                no_timing,
                itc_ratio,
                snapshot,
                check,
                model,
                arch,
                verbose,
                trace_out: trace.trace_out,
                pressure: trace.pressure,
            };
            if explain_model {
                return cli::run::explain_model(&req);
            }
            let out = cli::run::run(&req)?;
            if let Some(stop) = out.stopped_early {
                return Err(CliError::Stopped { report: out.stdout, stop });
            }
            if out.mismatch {
                return Err(CliError::SnapshotMismatch(out.stdout));
            }
            Ok(out.stdout)
        }
        Command::Disasm { file, base, reloc } => cli::disasm::run(&file, base, reloc),
        Command::Diff {
            a,
            b,
            patch,
            define,
            a_define,
            b_define,
            include,
            entry,
            harness,
            sets,
            arch,
            workload,
            format,
            top,
            pp,
            tree,
            calls,
        } => {
            let json = format == cli::diff::DiffFormat::Json;
            // Kernel-tree runs record no timeline (issue 18, w7-traceout).
            let tree_calls = || calls.check(json, Some("kernel-tree diffs (--tree, ia64/linux-6.1/*)"));
            let mail = format == cli::diff::DiffFormat::Mail;
            if let Some(req) =
                tree.request(pp.kernel_config.clone(), pp.asm_offsets.clone(), patch.clone(), define.clone(), json)?
            {
                tree_calls()?;
                return cli::kernel_tree::run(&cli::kernel_tree::TreeRequest { mail, ..req });
            }
            // Two ia64/linux-6.1 traces: the installed tree's files (issue 14).
            if let (Some(an), Some(bn), None) = (&a, &b, &patch) {
                if let (Some(sa), Some(sb)) =
                    (cli::kernel_tree::catalogue_side(an)?, cli::kernel_tree::catalogue_side(bn)?)
                {
                    tree_calls()?;
                    return cli::kernel_tree::run(&cli::kernel_tree::TreeRequest {
                        a: sa,
                        b: Some(sb),
                        entries: tree.entries()?,
                        calls: tree.calls,
                        json,
                        mail,
                        accounting: !tree.paths_only,
                    });
                }
            }
            let run_workload = workload.workload_for(a.iter().chain(&b).map(String::as_str))?;
            cli::diff::run(&cli::diff::DiffRequest {
                a,
                b,
                patch,
                defines: define,
                pp: pp.args(),
                a_defines: a_define,
                b_defines: b_define,
                include_dirs: include,
                entry,
                harness,
                sets,
                arch,
                workload: run_workload,
                max_paths: workload.max_paths,
                json,
                mail,
                top,
                calls,
            })
        }
        Command::Scenario { trace, workload, format, tree, kernel_config, asm_offsets, calls } => {
            let json = format == cli::scenario::ScenarioFormat::Json;
            // Kernel-tree runs record no timeline (issue 18, w7-traceout).
            let tree_calls = || calls.check(json, Some("kernel-tree scenarios (--tree, ia64/linux-6.1/*)"));
            if let Some(req) = tree.request(kernel_config, asm_offsets, None, Vec::new(), json)? {
                tree_calls()?;
                return cli::kernel_tree::run(&req);
            }
            let trace = trace.unwrap_or_default();
            if let Some(side) = cli::kernel_tree::catalogue_side(&trace)? {
                tree_calls()?;
                return cli::kernel_tree::run(&cli::kernel_tree::TreeRequest {
                    a: side,
                    b: None,
                    entries: tree.entries()?,
                    calls: tree.calls,
                    json,
                    mail: false,
                    accounting: !tree.paths_only,
                });
            }
            cli::scenario::run(&cli::scenario::ScenarioRequest {
                workload: workload.workload_for([trace.as_str()])?,
                trace,
                max_paths: workload.max_paths,
                format,
                calls,
            })
        }
        Command::Sweep { traces, param, from, to, step, format, svg, y, workload } => {
            let base = workload.workload_for(traces.iter().map(String::as_str))?;
            cli::sweep::run(&cli::sweep::SweepRequest {
                traces,
                param,
                from,
                to,
                step,
                workload: base,
                max_paths: workload.max_paths,
                json: format == cli::scenario::ScenarioFormat::Json,
                svg,
                y,
            })
        }
        Command::Bench {
            iterations,
            syscalls,
            only,
            row,
            format,
            max_paths,
            callgrind,
            callgrind_iterations,
            callgrind_syscalls,
        } => {
            let callgrind = callgrind.then_some(cli::bench::CallgrindRuns {
                iterations: callgrind_iterations,
                syscalls: callgrind_syscalls,
            });
            let req = cli::bench::BenchRequest { iterations, syscalls, only, row, format, max_paths, callgrind };
            cli::bench::run(&req, &mut std::io::stdout().lock())?;
            Ok(String::new())
        }
        Command::AsmOffsets { kernel_tree, kernel_config, output } => {
            cli::kernel::asm_offsets(&kernel_tree, kernel_config.as_deref(), output.as_deref())
        }
        Command::List => Ok(cli::catalogue::list()),
        Command::Show { name } => cli::catalogue::show(&name),
    }
}

fn main() -> ExitCode {
    // cpp spells it `-include FILE`; clap takes only one-letter short options.
    // GNU as spells its mode `-xauto` (the value attached, `-x` alone meaning explicit); clap
    // needs `-x=auto` to tell that from `-x FILE`. Only `asm` has the option.
    let is_asm = std::env::args_os().any(|a| a == "asm");
    let argv = std::env::args_os().map(|a| match a.to_str() {
        Some("-include") => "--include".into(),
        Some(x) if is_asm && x.starts_with("-x") && x.len() > 2 && !x.starts_with("-x=") => {
            format!("-x={}", &x[2..]).into()
        }
        _ => a,
    });
    let args = match Args::try_parse_from(argv) {
        Ok(args) => args,
        Err(e) => return clap_exit(&e),
    };
    match run(args) {
        Ok(text) => {
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            Status::Ok.into()
        }
        // The report goes to stdout as usual; the exit status says the snapshot differs or the
        // run stopped early, and stderr says why.
        Err(e @ CliError::SnapshotMismatch(_)) => {
            if let CliError::SnapshotMismatch(text) = &e {
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
            }
            e.status().into()
        }
        Err(e @ CliError::Stopped { .. }) => {
            if let CliError::Stopped { report, .. } = &e {
                let _ = std::io::stdout().lock().write_all(report.as_bytes());
            }
            eprintln!("acctemu: {}", escape_message(&e.to_string()));
            e.status().into()
        }
        // Assembler and harness diagnostics already read `file:line:col: error: ...`, and show
        // user text through the shared echo (`emu_core::echo`); the other messages go through
        // it here, as they may quote huge or raw user text too.
        Err(e) if e.is_diagnostic() => {
            eprintln!("{e}");
            e.status().into()
        }
        Err(e) => {
            eprintln!("acctemu: error: {}", escape_message(&e.to_string()));
            e.status().into()
        }
    }
}

/// Prints clap's message: help and version to stdout with status 0, every parse error to
/// stderr with the usage status of the table in [`acctemu::cli::exit`].
fn clap_exit(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let _ = e.print();
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Status::Ok.into(),
        _ => Status::Usage.into(),
    }
}
