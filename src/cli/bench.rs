//! `acctemu bench`: the emulator's throughput. For each core (IA-64 on the Itanium 2 model,
//! x86-64 on Zen 4, s390x on z13), with its timing model on and off, it runs a tight ALU loop,
//! a load/store/call loop (`traces/bench/`, see [`traces::bench`]) and every catalogue scenario
//! of that core, and reports the instructions and cycles the modelled CPU counted, the host
//! seconds the run took, and from them emulated instructions and simulated cycles per host
//! second. The cargo benches (`benches/ia64_loop.rs`, `benches/scenarios.rs`) run subsets of
//! the same [`cases`].
//!
//! Instructions and cycles are the CPU's own counters ([`emu_core::cpu::Cpu::instructions`],
//! [`emu_core::cpu::Cpu::cycles`]) over the measured run. A scenario's clock also advances
//! through the user and kernel phases of its workload without running instructions; those
//! skipped cycles are left out, so its cycles are the ones simulated by executing its paths.
//!
//! Host figures (issue 17; how each is read: [`super::bench_host`]) only feed the columns that
//! say so: `cpu s` is the CPU time (user + system, never wall time) of the measured run, and
//! `M insns/s` and `M cycles/s` are per CPU second; `peak MiB` is the row's peak resident
//! memory. Unless `--row` names the one row to run here, every row runs in a fresh process of
//! its own ([`rerun`]), so that these figures are the row's alone, whatever ran
//! before it. `host/insn` (with `--callgrind`) is the host instructions callgrind counts per
//! emulated instruction, by the run-length difference of two re-runs of the row at N and 2N
//! iterations (`--callgrind-iterations`) or system calls (`--callgrind-syscalls`), counting
//! only inside the measured run ([`bench_measured_region`]). Scenario rows are repeated per
//! system call in a second table: instructions, cycles, CPU microseconds and (with
//! `--callgrind`) host instructions per call, and the peak memory.

pub mod rerun;

use super::bench_host;
use super::scenario::{ScenarioFormat, IA64_CPU_HZ};
use super::CliError;
use emu_core::cpu::{Cpu, Machine, StopReason, StopWhen};
use emu_core::preprocess::FsLoader;
use emu_core::scenario::{Accounted, PathKind, PathRun, ScenarioMachine, Workload};
use rerun::Rerun;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Loop iterations of `acctemu bench` unless `--iterations` says otherwise.
pub const DEFAULT_ITERATIONS: u64 = 1_000_000;

/// System calls per scenario of `acctemu bench` unless `--syscalls` says otherwise.
pub const DEFAULT_SYSCALLS: u64 = 100_000;

/// Loop iterations N of the shorter callgrind run (the longer runs 2N) unless
/// `--callgrind-iterations` says otherwise: callgrind runs the emulator some 50 times slower.
pub const DEFAULT_CALLGRIND_ITERATIONS: u64 = 50_000;

/// System calls N of the shorter callgrind run of a scenario row (the longer runs 2N) unless
/// `--callgrind-syscalls` says otherwise.
pub const DEFAULT_CALLGRIND_SYSCALLS: u64 = 1_000;

/// A modelled core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Core {
    /// IA-64 on the Itanium 2 (Madison) model.
    Ia64,
    /// x86-64 on the Zen 4 model.
    X86_64,
    /// s390x on the z13 model.
    S390x,
}

impl Core {
    /// Every core, in the order the table lists them.
    pub const ALL: [Core; 3] = [Core::Ia64, Core::X86_64, Core::S390x];

    /// The name in the table's `core` column.
    pub fn name(self) -> &'static str {
        match self {
            Core::Ia64 => "ia64",
            Core::X86_64 => "x86-64",
            Core::S390x => "s390x",
        }
    }

    /// The core's pair of loops.
    pub fn loops(self) -> traces::bench::Loops {
        match self {
            Core::Ia64 => traces::bench::IA64,
            Core::X86_64 => traces::bench::X86_64,
            Core::S390x => traces::bench::S390X,
        }
    }

    fn arch(self) -> traces::Arch {
        match self {
            Core::Ia64 => traces::Arch::Ia64,
            Core::X86_64 => traces::Arch::X86_64,
            Core::S390x => traces::Arch::S390x,
        }
    }
}

/// One of the two loops every core runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loop {
    /// The tight ALU loop (`alu`).
    Alu,
    /// The load/store/call loop (`mem`): a call of a leaf that loads, adds and stores through
    /// the stack per iteration.
    LoadStoreCall,
}

impl Loop {
    /// The name in the table's `workload` column.
    pub fn name(self) -> &'static str {
        match self {
            Loop::Alu => "loop/alu",
            Loop::LoadStoreCall => "loop/load-store-call",
        }
    }

    /// The entry symbol in the loop sources.
    pub fn entry(self) -> &'static str {
        match self {
            Loop::Alu => traces::bench::ALU,
            Loop::LoadStoreCall => traces::bench::MEM,
        }
    }
}

/// What a row runs.
#[derive(Debug, Clone, Copy)]
pub enum Work {
    /// One of the loops, `--iterations` times.
    Loop(Loop),
    /// A catalogue scenario: `--syscalls` system calls through the trace's paths.
    Scenario(&'static traces::Trace),
}

impl Work {
    /// The name in the table's `workload` column (a scenario's is its trace's name).
    pub fn name(&self) -> &'static str {
        match self {
            Work::Loop(l) => l.name(),
            Work::Scenario(t) => t.name,
        }
    }
}

/// One row of the table: a workload on a core with its timing model on or off.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// The core.
    pub core: Core,
    /// The workload.
    pub work: Work,
    /// Whether the core's timing model runs (off: the functional mode every core has, one
    /// cycle per instruction, or per instruction group on IA-64).
    pub timing: bool,
}

impl Case {
    /// `core workload on|off`: what `--only` matches against.
    pub fn label(&self) -> String {
        format!("{} {} {}", self.core.name(), self.work.name(), on_off(self.timing))
    }

    /// Runs the case: `iterations` loop iterations or `syscalls` system calls.
    ///
    /// # Errors
    /// A workload that does not load, set up or run to its end.
    pub fn run(&self, iterations: u64, syscalls: u64) -> Result<Row, CliError> {
        bench_host::reset_peak_rss();
        let m = match self.work {
            Work::Loop(l) => run_loop(self.core, l, self.timing, iterations)?,
            Work::Scenario(t) => run_scenario(t, self.timing, syscalls)?,
        };
        let syscalls = matches!(self.work, Work::Scenario(_)).then_some(syscalls);
        Ok(Row::new(self, m, syscalls, bench_host::peak_rss_kib()))
    }
}

fn on_off(timing: bool) -> &'static str {
    if timing {
        "on"
    } else {
        "off"
    }
}

/// The catalogue traces a scenario can drive: those binding a system-call entry path (the
/// others are single helper calls for sweeps).
pub fn scenario_traces(core: Core) -> impl Iterator<Item = &'static traces::Trace> {
    traces::catalogue()
        .iter()
        .filter(move |t| t.arch == core.arch() && t.binding(traces::PathKind::SyscallEnter).is_some())
}

/// Every row of `acctemu bench`, in table order: per core its two loops, then its scenarios,
/// each with the timing model on, then off.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for core in Core::ALL {
        let loops = [Loop::Alu, Loop::LoadStoreCall].map(Work::Loop);
        for work in loops.into_iter().chain(scenario_traces(core).map(Work::Scenario)) {
            for timing in [true, false] {
                out.push(Case { core, work, timing });
            }
        }
    }
    out
}

/// What one run measured.
#[derive(Debug, Clone, Copy)]
struct Measured {
    /// Instructions the CPU retired.
    instructions: u64,
    /// Cycles its clock advanced, less those a scenario skips.
    cycles: u64,
    /// CPU seconds of the measured run.
    seconds: f64,
}

/// The measured part of every row: `f` runs inside this function, which is never inlined so
/// that callgrind's `--toggle-collect` ([`bench_host::MEASURED_FUNCTION`]) counts exactly it.
#[inline(never)]
fn bench_measured_region<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// Runs `f` as the measured part of a row, returning its result and its CPU seconds.
fn cpu_timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = bench_host::cpu_seconds();
    let out = bench_measured_region(f);
    (out, (bench_host::cpu_seconds() - start).max(0.0))
}

/// A row of the table (and of `--format json`).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// `ia64`, `x86-64` or `s390x`.
    pub core: &'static str,
    /// `loop/alu`, `loop/load-store-call` or a catalogue trace name.
    pub workload: &'static str,
    /// `on` or `off`.
    pub timing: &'static str,
    /// Instructions the CPU retired (nops included).
    pub instructions: u64,
    /// Cycles the CPU's clock advanced while running them.
    pub cycles: u64,
    /// System calls of a scenario row (`None` for a loop).
    pub syscalls: Option<u64>,
    /// CPU seconds (user + system) of the run.
    pub cpu_seconds: f64,
    /// Millions of emulated instructions per CPU second.
    pub m_insns_per_s: f64,
    /// Millions of simulated cycles per CPU second.
    pub m_cycles_per_s: f64,
    /// Peak resident memory of the row in KiB (`VmHWM`), if the host reports it.
    pub peak_rss_kib: Option<u64>,
    /// Host instructions per emulated instruction (callgrind, run-length difference), with
    /// `--callgrind`.
    pub host_insns_per_insn: Option<f64>,
    /// Host instructions per system call of a scenario row, the same way.
    pub host_insns_per_syscall: Option<f64>,
}

impl Row {
    /// The row of `case` from what its run measured (the rates are worked out here).
    fn new(case: &Case, m: Measured, syscalls: Option<u64>, peak_rss_kib: Option<u64>) -> Row {
        let per_s = |n: u64| if m.seconds > 0.0 { n as f64 / m.seconds / 1e6 } else { 0.0 };
        Row {
            core: case.core.name(),
            workload: case.work.name(),
            timing: on_off(case.timing),
            instructions: m.instructions,
            cycles: m.cycles,
            syscalls,
            cpu_seconds: m.seconds,
            m_insns_per_s: per_s(m.instructions),
            m_cycles_per_s: per_s(m.cycles),
            peak_rss_kib,
            host_insns_per_insn: None,
            host_insns_per_syscall: None,
        }
    }
}

fn bench_error(case: impl std::fmt::Display, e: impl std::fmt::Display) -> CliError {
    CliError::Bench(format!("{case}: {e}"))
}

/// A loop that did not run to its return: exit status 3, as any run that stops early.
fn stopped(what: &str, why: String) -> CliError {
    CliError::Stopped { report: String::new(), stop: format!("bench: {what}: {why}") }
}

/// Runs `m` from its entry to the sentinel within `budget` instructions, timing it.
fn measure_machine<C: Cpu>(mut m: Machine<C>, budget: u64) -> Result<Measured, String> {
    let stop = StopWhen { on_sentinel: true, on_rfi: true, on_interruption: true, max_insns: budget };
    let (insns, cycles) = (m.cpu.instructions(), m.cpu.cycles());
    let (reason, seconds) = cpu_timed(|| m.run(&stop));
    let reason = reason.map_err(|e| e.to_string())?;
    if reason != StopReason::Sentinel {
        return Err(format!("the loop did not return: {reason}"));
    }
    Ok(Measured { instructions: m.cpu.instructions() - insns, cycles: m.cpu.cycles() - cycles, seconds })
}

/// Runs loop `l` of `core` for `iterations` (at least 1) iterations.
fn run_loop(core: Core, l: Loop, timing: bool, iterations: u64) -> Result<Measured, CliError> {
    let what = format!("{} {}", core.name(), l.name());
    let err = |e: String| bench_error(&what, e);
    if iterations == 0 {
        return Err(err("the loops need at least one iteration".into()));
    }
    let loops = core.loops();
    let entry = Some(l.entry().to_string());
    let sets = vec![(loops.count_register.to_string(), iterations.to_string())];
    // No loop runs more than a few dozen instructions per iteration.
    let budget = iterations.saturating_mul(64).saturating_add(1000);
    let object = || loops.object.ok_or_else(|| err(format!("{} has no object", loops.source_name)));
    match core {
        Core::Ia64 => {
            let asm =
                arch_ia64::asm::assemble(loops.source_name, loops.source, &super::preprocess_options(), &FsLoader)
                    .map_err(CliError::Assemble)?;
            let cfg = arch_ia64::run::RunConfig { entry, sets, timing, ..arch_ia64::run::RunConfig::default() };
            let (m, _) = arch_ia64::run::prepare(&asm.image, &cfg).map_err(CliError::run)?;
            measure_machine(m, budget).map_err(|e| stopped(&what, e))
        }
        Core::X86_64 => {
            let image = arch_x86::run::load_object(object()?).map_err(|e| err(e.to_string()))?;
            let cfg = arch_x86::run::RunConfig { entry, sets, timing, ..arch_x86::run::RunConfig::default() };
            let (m, _) = arch_x86::run::prepare(&image, &cfg).map_err(|e| err(e.to_string()))?;
            measure_machine(m, budget).map_err(|e| stopped(&what, e))
        }
        Core::S390x => {
            let image = arch_s390::run::load_object(object()?).map_err(|e| err(e.to_string()))?;
            let cfg = arch_s390::run::RunConfig { entry, sets, timing, ..arch_s390::run::RunConfig::default() };
            let (m, _) = arch_s390::run::prepare(&image, &cfg).map_err(|e| err(e.to_string()))?;
            measure_machine(m, budget).map_err(|e| stopped(&what, e))
        }
    }
}

/// A scenario machine that tallies the cycles its clock skips through the workload's user and
/// kernel phases, so they can be told apart from the cycles its paths ran.
struct Skips<'m, M> {
    inner: &'m mut M,
    skipped: u64,
}

impl<M: ScenarioMachine> ScenarioMachine for Skips<'_, M> {
    type Error = M::Error;

    fn run_path(&mut self, path: PathKind) -> Result<PathRun, M::Error> {
        self.inner.run_path(path)
    }

    fn advance(&mut self, cycles: u64) {
        self.skipped += cycles;
        self.inner.advance(cycles);
    }

    fn now(&self) -> u64 {
        self.inner.now()
    }

    fn accounted(&self) -> Result<Accounted, M::Error> {
        self.inner.accounted()
    }

    fn has_path(&self, path: PathKind) -> bool {
        self.inner.has_path(path)
    }
}

/// Runs workload `w` on `s`; `counters` reads the CPU's instruction and cycle counters.
fn measure_scenario<M>(s: &mut M, w: &Workload, counters: fn(&M) -> (u64, u64)) -> Result<Measured, CliError>
where
    M: ScenarioMachine,
    CliError: From<M::Error>,
{
    let (insns, cycles) = counters(s);
    let mut skips = Skips { inner: s, skipped: 0 };
    let (ran, seconds) = cpu_timed(|| emu_core::scenario::run(&mut skips, w, &mut |_| {}));
    ran?;
    let skipped = skips.skipped;
    let (insns_after, cycles_after) = counters(s);
    Ok(Measured { instructions: insns_after - insns, cycles: (cycles_after - cycles).saturating_sub(skipped), seconds })
}

/// The scenario workload: `syscalls` system calls of 1500 user and 300 kernel cycles, ticks
/// at 1000 Hz, on the trace's core's clock.
fn workload(syscalls: u64) -> Workload {
    Workload {
        syscalls,
        user_cycles: 1500,
        kernel_cycles: 300,
        hz: 1000,
        cpu_hz: IA64_CPU_HZ,
        irq_every: None,
        guest: false,
    }
}

/// Runs `syscalls` system calls of the scenario of `trace`.
fn run_scenario(trace: &'static traces::Trace, timing: bool, syscalls: u64) -> Result<Measured, CliError> {
    let w = trace.workload(&workload(syscalls));
    let mut s = trace.prepare(None, &w, timing)?;
    measure_scenario(&mut s, &w, traces::Prepared::counters)
}

/// What `acctemu bench` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchRequest {
    /// Loop iterations.
    pub iterations: u64,
    /// System calls per scenario.
    pub syscalls: u64,
    /// Run only the rows whose `core workload on|off` label contains this.
    pub only: Option<String>,
    /// Run only the row whose label is exactly this (what the callgrind re-runs use).
    pub row: Option<String>,
    /// Text table or JSON.
    pub format: ScenarioFormat,
    /// The most paths the scenario rows together may run (see [`super::limits`]).
    pub max_paths: u64,
    /// Count host instructions per emulated instruction under callgrind.
    pub callgrind: Option<CallgrindRuns>,
}

/// The lengths of the two callgrind re-runs of each row: N and 2N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallgrindRuns {
    /// Loop iterations N of the shorter run.
    pub iterations: u64,
    /// System calls N of the shorter run of a scenario row.
    pub syscalls: u64,
}

/// How to re-run a row under callgrind: the valgrind executable, the acctemu re-run and the
/// run lengths.
#[derive(Debug, Clone)]
pub struct Callgrind {
    /// The valgrind executable.
    pub valgrind: PathBuf,
    /// The re-run of the row (`acctemu bench --row LABEL`) that valgrind runs.
    pub rerun: Rerun,
    /// The run lengths.
    pub runs: CallgrindRuns,
}

impl Callgrind {
    /// The valgrind on `PATH` and this executable.
    ///
    /// # Errors
    /// No valgrind installed; the running executable unknown.
    pub fn find(runs: CallgrindRuns, max_paths: u64) -> Result<Callgrind, CliError> {
        let valgrind = bench_host::find_valgrind().ok_or_else(|| {
            CliError::Usage("bench --callgrind: valgrind is not installed (not on PATH; VALGRIND names another)".into())
        })?;
        if runs.iterations == 0 || runs.syscalls == 0 {
            return Err(CliError::Usage(
                "bench: --callgrind-iterations and --callgrind-syscalls must be at least 1".into(),
            ));
        }
        Ok(Callgrind { valgrind, rerun: Rerun::this_exe(max_paths)?, runs })
    }

    /// Fills `row`'s host-instruction columns: the case re-run at N and 2N under callgrind.
    ///
    /// # Errors
    /// A re-run that fails or whose output does not parse.
    pub fn measure(&self, case: &Case, row: &mut Row) -> Result<(), CliError> {
        let err = |e: String| bench_error(case.label(), format!("--callgrind: {e}"));
        let (n, s) = (self.runs.iterations, self.runs.syscalls);
        let short = self.count(case, n, s).map_err(err)?;
        let long = self.count(case, n.saturating_mul(2), s.saturating_mul(2)).map_err(err)?;
        row.host_insns_per_insn = Some(bench_host::per_unit((short.0, short.1), (long.0, long.1)).map_err(err)?);
        if matches!(case.work, Work::Scenario(_)) {
            row.host_insns_per_syscall =
                Some(bench_host::per_unit((short.0, s), (long.0, s.saturating_mul(2))).map_err(err)?);
        }
        Ok(())
    }

    /// Host instructions of the measured run and the instructions it emulated, for one re-run.
    fn count(&self, case: &Case, iterations: u64, syscalls: u64) -> Result<(u64, u64), String> {
        let args = self.rerun.args(case, iterations, syscalls);
        let (ir, stdout) = bench_host::callgrind(&self.valgrind, &self.rerun.exe, &args)?;
        let doc: serde_json::Value =
            serde_json::from_str(&stdout).map_err(|e| format!("the re-run's JSON does not parse: {e}"))?;
        let insns = doc["rows"][0]["instructions"]
            .as_u64()
            .ok_or_else(|| format!("the re-run's JSON has no instruction count: {stdout}"))?;
        Ok((ir, insns))
    }
}

/// The table's header line.
pub fn header() -> String {
    format!(
        "{:<7} {:<34} {:<6} {:>13} {:>13} {:>8} {:>10} {:>11} {:>9} {:>8}",
        "core",
        "workload",
        "timing",
        "instructions",
        "cycles",
        "cpu s",
        "M insns/s",
        "M cycles/s",
        "host/insn",
        "peak MiB"
    )
}

fn opt_f1(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.1}"))
}

fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(|| "-".to_string(), |k| format!("{:.1}", k as f64 / 1024.0))
}

/// A row as a line of the table.
pub fn line(r: &Row) -> String {
    format!(
        "{:<7} {:<34} {:<6} {:>13} {:>13} {:>8.3} {:>10.1} {:>11.1} {:>9} {:>8}",
        r.core,
        r.workload,
        r.timing,
        r.instructions,
        r.cycles,
        r.cpu_seconds,
        r.m_insns_per_s,
        r.m_cycles_per_s,
        opt_f1(r.host_insns_per_insn),
        mib(r.peak_rss_kib)
    )
}

/// The header of the per-system-call table of the scenario rows.
pub fn per_call_header() -> String {
    format!(
        "{:<7} {:<34} {:<6} {:>10} {:>11} {:>11} {:>11} {:>11} {:>8}",
        "core", "workload", "timing", "syscalls", "insns/call", "cycles/call", "cpu us/call", "host/call", "peak MiB"
    )
}

/// A scenario row per system call (`None` for a loop row).
pub fn per_call_line(r: &Row) -> Option<String> {
    let calls = r.syscalls.filter(|&n| n > 0)?;
    let per = |x: f64| x / calls as f64;
    Some(format!(
        "{:<7} {:<34} {:<6} {:>10} {:>11.1} {:>11.1} {:>11.3} {:>11} {:>8}",
        r.core,
        r.workload,
        r.timing,
        calls,
        per(r.instructions as f64),
        per(r.cycles as f64),
        per(r.cpu_seconds * 1e6),
        r.host_insns_per_syscall.map_or_else(|| "-".to_string(), |v| format!("{v:.0}")),
        mib(r.peak_rss_kib)
    ))
}

/// Where the rows of [`run_cases`] run, and whether callgrind counts them.
#[derive(Debug, Clone, Default)]
pub struct Runs {
    /// Each row in a fresh process of its own ([`Rerun`]: its peak memory and CPU time are
    /// then its own, whatever ran before it); `None`: here, one after the other.
    pub isolated: Option<Rerun>,
    /// Each row also re-run under callgrind.
    pub callgrind: Option<Callgrind>,
}

/// Runs `cases` one after the other, each where `runs` says and counted under callgrind if it
/// says so. In text format the header and each row are written to `out` as soon as they are
/// known, then the per-system-call table of the scenario rows; in JSON the whole document is
/// written at the end. Write errors (a closed pipe) are ignored.
///
/// # Errors
/// The first case that fails, or its re-runs.
pub fn run_cases(
    cases: &[Case],
    iterations: u64,
    syscalls: u64,
    format: ScenarioFormat,
    runs: &Runs,
    out: &mut dyn std::io::Write,
) -> Result<Vec<Row>, CliError> {
    let text = format == ScenarioFormat::Text;
    if text {
        let _ = writeln!(out, "{}", header());
    }
    let mut rows = Vec::with_capacity(cases.len());
    for case in cases {
        let mut row = match &runs.isolated {
            Some(rerun) => rerun.run(case, iterations, syscalls)?,
            None => case.run(iterations, syscalls)?,
        };
        if let Some(cg) = &runs.callgrind {
            cg.measure(case, &mut row)?;
        }
        if text {
            let _ = writeln!(out, "{}", line(&row));
            let _ = out.flush();
        }
        rows.push(row);
    }
    if text {
        let per_call: Vec<String> = rows.iter().filter_map(per_call_line).collect();
        if !per_call.is_empty() {
            let _ = writeln!(out, "\nper system call:\n{}", per_call_header());
            for l in per_call {
                let _ = writeln!(out, "{l}");
            }
        }
    } else {
        let mut doc = serde_json::json!({ "iterations": iterations, "syscalls": syscalls, "rows": rows });
        if let Some(cg) = &runs.callgrind {
            doc["callgrind"] = serde_json::json!({
                "iterations": [cg.runs.iterations, cg.runs.iterations.saturating_mul(2)],
                "syscalls": [cg.runs.syscalls, cg.runs.syscalls.saturating_mul(2)],
            });
        }
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&doc).map_err(|e| CliError::Usage(e.to_string()))?);
    }
    Ok(rows)
}

/// Runs the request, writing the table (or JSON) to `out`.
///
/// # Errors
/// `--only` or `--row` matching no row; no valgrind for `--callgrind`; a case that fails.
pub fn run(req: &BenchRequest, out: &mut dyn std::io::Write) -> Result<Vec<Row>, CliError> {
    let all = cases();
    let wanted = |c: &Case| {
        let label = c.label();
        req.only.as_ref().is_none_or(|only| label.contains(only.as_str()))
            && req.row.as_ref().is_none_or(|row| &label == row)
    };
    let selected: Vec<Case> = all.iter().filter(|c| wanted(c)).copied().collect();
    if selected.is_empty() {
        let mut known = String::new();
        for c in &all {
            let _ = write!(known, "\n  {}", c.label());
        }
        let (flag, value) = match (&req.row, &req.only) {
            (Some(row), _) => ("--row", row.as_str()),
            (None, only) => ("--only", only.as_deref().unwrap_or_default()),
        };
        return Err(CliError::Usage(format!("{flag} {value:?} matches no row; the rows are:{known}")));
    }
    check_scenarios(&selected, req.syscalls, req.max_paths)?;
    let callgrind = match req.callgrind {
        Some(runs) => {
            check_scenarios(&selected, runs.syscalls.saturating_mul(2), req.max_paths)?;
            Some(Callgrind::find(runs, req.max_paths)?)
        }
        None => None,
    };
    // `--row` is how a row runs in its own process (the re-runs themselves); every other
    // selection gives each row a process of its own.
    let isolated = if req.row.is_some() { None } else { Some(Rerun::this_exe(req.max_paths)?) };
    run_cases(&selected, req.iterations, req.syscalls, req.format, &Runs { isolated, callgrind }, out)
}

/// Refuses `--syscalls` values whose scenario rows, together, would run more paths than
/// `max_paths` (or none at all), before any row runs.
fn check_scenarios(cases: &[Case], syscalls: u64, max_paths: u64) -> Result<(), CliError> {
    let w = workload(syscalls);
    let traces: Vec<&'static traces::Trace> = cases
        .iter()
        .filter_map(|c| match c.work {
            Work::Scenario(t) => Some(t),
            Work::Loop(_) => None,
        })
        .collect();
    let Some(first) = traces.first() else { return Ok(()) };
    if syscalls == 0 {
        return Err(CliError::Usage("bench: --syscalls 0: the scenario rows would run no system call".into()));
    }
    let total = traces.iter().fold(0u64, |sum, t| sum.saturating_add(super::limits::path_counts(t, &w).total()));
    let what = format!(
        "{} scenario rows; the first, {}",
        traces.len(),
        super::limits::describe(first, &w, &super::limits::path_counts(first, &w))
    );
    super::limits::check_total(total, max_paths, &what, None)
        .map_err(|e| CliError::Usage(format!("bench: --syscalls {syscalls}: {e}")))
}
