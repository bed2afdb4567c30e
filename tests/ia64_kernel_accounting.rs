//! What Linux 6.1 reports for the Unixbench "System Call Overhead" loop, against the truth,
//! for the three versions of ia64's accounting: none (config off), v2 (the files as shipped,
//! CONFIG_VIRT_CPU_ACCOUNTING_NATIVE on) and v1 (seed 004's patch reversed by acctemu's patch
//! code, `tests/ia64_v1_patch.rs`). The real entry.S/ivt.S/fsys.S/gate.S run on the kernel
//! harness; the accounting C (`arch_ia64::kernel_c`) is bound as stubs; the truth is psr.cpl
//! of every instruction. Prints true vs accounted utime/stime, where the time went, cycles
//! per loop iteration and (V.2 overhead)/(V.1 overhead) next to seed 004's 0.670.
//!
//! Needs the Linux 6.1 tree (`tests/common` `kernel_source`).

mod common;

use acctemu::cli::seed004_v1;
use arch_ia64::kernel::harness::{HarnessOptions, KernelHarness};
use arch_ia64::kernel::paths::EntryKind;
use arch_ia64::kernel::KernelSources;
use arch_ia64::kernel_c::irq_c::CTiming;
use arch_ia64::kernel_c::scenario::{self, AccountingRun, ScenarioOptions};
use arch_ia64::kernel_c::stubs::Peer;
use arch_ia64::kernel_c::truth::cycles_to_ns;
use arch_ia64::kernel_c::workload::{Switches, Workload};
use arch_ia64::kernel_c::{KernelCConfig, TaskLayout};
use emu_core::kernel::KernelConfig;
use emu_core::preprocess::{FsLoader, MemLoader, OverlayLoader};
use std::path::Path;

/// The ITC frequency of seed 004's machine (Madison 1.5 GHz).
const ITC_FREQ: u64 = 1_500_000_000;
/// The interval timer's period, scaled down from Linux's itc_freq / HZ (6,000,000 at HZ 250)
/// so a test run covers many ticks: the C's HZ is set to match (ITC_FREQ / TICK_CYCLES).
const TICK_CYCLES: u64 = 150_000;

struct Version {
    name: &'static str,
    native: bool,
    v1: bool,
}

const VERSIONS: [Version; 3] = [
    Version { name: "none", native: false, v1: false },
    Version { name: "v2", native: true, v1: false },
    Version { name: "v1", native: true, v1: true },
];

fn config(native: bool) -> KernelConfig {
    let name = if native { "v2.config" } else { "none.config" };
    let path = common::root().join("traces/ia64/linux-6.1").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    KernelConfig::parse(name, &text).unwrap_or_else(|e| panic!("{e}"))
}

fn build(tree: &Path, v: &Version, v1: &seed004_v1::V1Tree) -> (KernelHarness, TaskLayout) {
    let config = config(v.native);
    let mut src = KernelSources::new(tree, config.clone());
    let mut overlay = MemLoader::new();
    if v.v1 {
        src.replaced = v1.files.iter().map(|f| (f.path.clone(), f.text.clone())).collect();
        overlay = seed004_v1::overlay(tree, v1);
    }
    let objects = src.build().unwrap_or_else(|e| panic!("{}: {e}", v.name));
    let opts = HarnessOptions { timing: true, tick_interval: TICK_CYCLES, budget_per_trip: 1_000_000 };
    let h = KernelHarness::new(objects, opts).unwrap_or_else(|e| panic!("{}: {e}", v.name));
    let fs = FsLoader;
    let loader = OverlayLoader::new(overlay, &fs);
    let types = arch_ia64::asm_offsets::layouts(tree, &config, &loader).unwrap_or_else(|e| panic!("{e}"));
    let layout = TaskLayout::from_types(&types).unwrap_or_else(|e| panic!("{e}"));
    // The C's layout and the assembly's must agree.
    assert_eq!(Some(layout.task_size), h.offsets.opt("IA64_TASK_SIZE"), "{}", v.name);
    for (ti, macro_name) in [
        ("ac_stamp", "TI_AC_STAMP"),
        ("ac_leave", "TI_AC_LEAVE"),
        ("ac_stime", "TI_AC_STIME"),
        ("ac_utime", "TI_AC_UTIME"),
    ] {
        assert_eq!(layout.ti(ti), h.offsets.opt(macro_name), "{}: {ti}", v.name);
    }
    (h, layout)
}

fn options() -> ScenarioOptions {
    let mut workload = Workload::syscall_overhead(20, ITC_FREQ, ITC_FREQ / TICK_CYCLES);
    workload.tick_cycles = TICK_CYCLES;
    workload.switches = Switches::EveryTicks(4);
    ScenarioOptions {
        workload,
        timing: CTiming::default(),
        peer: Peer { task: 0xe000_0000_7000_0000, cycles: 20_000, idle: true },
        ticks: 12,
        budget: 40_000_000,
    }
}

fn show(name: &str, r: &AccountingRun) -> String {
    let user_ticks = r.log.ticks.iter().filter(|t| t.1).count();
    let e = &r.stamps;
    let head = format!(
        "{name}: {} cycles, {} instructions, {} kernel entries, {} ticks ({user_ticks} of them in user mode), {} \
         switches, {} reports\n{}",
        r.cycles,
        r.instructions,
        r.entries,
        r.ticks,
        r.log.switches.len(),
        r.log.reports.len(),
        r.verdict
    );
    if e.unstamped_trips == e.trips {
        return format!("{head}no stamps (thread_info has no accounting fields)\n");
    }
    format!(
        "{head}stamps: {} round trips; kernel cycles on the user side of the ledger: {} before the entry's first \
         stamp, {} after the exit's last, {} in {} trips with no stamp (light-weight fsys)\n",
        e.trips, e.head_cycles, e.tail_cycles, e.unstamped_cycles, e.unstamped_trips,
    )
}

/// ns of the assembly's user sum: what `ac_utime` holds and what switches zeroed in it.
fn assembly_user_ns(r: &AccountingRun) -> u64 {
    let find = |what: &str| r.verdict.breakdown.iter().filter(|b| b.0.contains(what)).map(|b| b.1).sum::<u64>();
    find("ac_utime")
}

#[test]
fn what_the_kernel_reports_against_the_truth_for_none_v2_v1() {
    let Some(tree) = common::kernel_source() else { return };
    let v1 = seed004_v1::v1_files(&tree).unwrap_or_else(|e| panic!("{e}"));
    let opts = options();
    let mut report = String::new();
    let mut per_iteration = Vec::new();
    for v in &VERSIONS {
        let (h, layout) = build(&tree, v, &v1);
        let config = KernelCConfig { native: v.native, hz: ITC_FREQ / TICK_CYCLES, itc_freq: ITC_FREQ };
        let run = scenario::run(&h, config.clone(), layout, &opts).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        report.push_str(&show(v.name, &run));
        report.push('\n');

        // Cycles per loop iteration without ticks (the benchmark's figure), the workload's
        // iterations.
        let iterations = opts.workload.iterations as usize;
        let calls = scenario::calls(&h, &opts.workload).unwrap_or_else(|e| panic!("{e}"));
        let trips = calls.len() * iterations;
        let p = h.run(&calls, None, trips, Vec::new()).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        let kernel: u64 = p.trips.iter().map(|t| t.cycles).sum();
        let per = kernel as f64 / iterations as f64;
        report.push_str(&format!(
            "{}: {per:.1} kernel cycles per loop iteration ({trips} calls, {} instructions per iteration)\n\n",
            v.name,
            p.trips.iter().map(|t| t.instructions).sum::<u64>() / iterations as u64
        ));
        per_iteration.push(per);

        // Each entry kind on its own (the harness's default stubs: the paths' own cost).
        for kind in EntryKind::ALL {
            let p = h.run_kind(kind, 12, Vec::new()).unwrap_or_else(|e| panic!("{} {}: {e}", v.name, kind.name()));
            report.push_str(&format!(
                "{} {:>11}: {:.1} cycles, {:.1} instructions per round trip (after 2 warm-up trips)\n",
                v.name,
                kind.name(),
                p.mean_cycles(2),
                p.mean_instructions(2)
            ));
        }
        report.push('\n');

        // Checks that hold whatever the verdict.
        assert!(run.truth.user_cycles > 0 && run.truth.kernel_cycles > 0, "{}", v.name);
        assert_eq!(run.ticks, opts.ticks, "{}", v.name);
        if v.native {
            // Nothing in this tree's C adds to thread_info.utime (time.c: only vtime_flush reads
            // it), so account_user_time is never called with the config on.
            assert_eq!(run.verdict.utime.reported_ns, 0, "{}", v.name);
            // Every cycle is somewhere: reported, pending, or in the assembly's sums.
            let unexplained = run.verdict.unexplained_ns.unsigned_abs();
            assert!(unexplained <= u128::from(run.verdict.tolerance_ns), "{}: {unexplained} ns in no field", v.name);
            // The assembly's own user sum is the true user time plus the kernel cycles its
            // stamps leave on the user side (less what is after the last stamp at the end).
            let asm_user = assembly_user_ns(&run) as i128 + run.verdict.unexplained_ns;
            let expected = (run.verdict.utime.true_ns + cycles_to_ns(run.stamps.total(), ITC_FREQ)) as i128;
            report.push_str(&format!(
                "{}: the assembly's user sum {asm_user} ns = true user {} ns + stamp edges {} ns ({:+} ns)\n",
                v.name,
                run.verdict.utime.true_ns,
                cycles_to_ns(run.stamps.total(), ITC_FREQ),
                asm_user - expected
            ));
            assert!((asm_user - expected).abs() <= 2 * run.stamps.trips as i128 + 1000, "{}", v.name);
        } else {
            // Without the config every tick reports one whole TICK_NSEC.
            let reported = run.verdict.utime.reported_ns + run.verdict.stime.reported_ns;
            assert_eq!(reported, run.ticks * config.tick_nsec(), "{}", v.name);
        }
    }
    let (none, v2, v1c) = (per_iteration[0], per_iteration[1], per_iteration[2]);
    let ratio = (v2 - none) / (v1c - none);
    report.push_str(&format!(
        "overhead per iteration: V.2 {:.1} cycles, V.1 {:.1} cycles; (V.2 overhead)/(V.1 overhead) = {ratio:.3} (seed 004: 0.670)\n",
        v2 - none,
        v1c - none
    ));
    eprintln!("{report}");
    assert!(v1c > none && v2 > none, "{report}");
}
