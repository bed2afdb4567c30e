//! What Linux 6.1 reports for the Unixbench "System Call Overhead" loop, against the truth,
//! for the three versions of ia64's accounting: none (config off), v2 (the files as shipped,
//! CONFIG_VIRT_CPU_ACCOUNTING_NATIVE on) and v1 (seed 004's patch reversed by acctemu's patch
//! code, `tests/ia64_v1_patch.rs`). The real entry.S/ivt.S/fsys.S/gate.S run on the kernel
//! harness; the accounting C (`arch_ia64::kernel_c`) is bound as stubs; the truth is psr.cpl
//! of every instruction. The check is the library's (`kernel_c::check`, what `acctemu
//! scenario ia64/linux-6.1/VERSION` prints); this test prints true vs accounted utime/stime,
//! where the time went, cycles per loop iteration and per entry kind, and (V.2 overhead)/(V.1
//! overhead) next to seed 004's 0.670, and checks what holds whatever the verdict.
//!
//! Needs the Linux 6.1 tree (`tests/common` `kernel_source`).

mod common;

use acctemu::cli::seed004_v1;
use arch_ia64::kernel::KernelSources;
use arch_ia64::kernel_c::check::{self, AccountingCheck, CheckOptions};
use arch_ia64::kernel_c::scenario::AccountingRun;
use arch_ia64::kernel_c::truth::cycles_to_ns;
use emu_core::kernel::KernelConfig;
use std::path::Path;

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

fn run_check(tree: &Path, v: &Version, v1: &seed004_v1::V1Tree, opts: &CheckOptions) -> AccountingCheck {
    let mut src = KernelSources::new(tree, config(v.native));
    if v.v1 {
        src.replaced = v1.files.iter().map(|f| (f.path.clone(), f.text.clone())).collect();
    }
    check::check(&src, opts).unwrap_or_else(|e| panic!("{}: {e}", v.name))
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
    let opts = CheckOptions::default();
    let mut report = String::new();
    let mut checks = Vec::new();
    for v in &VERSIONS {
        let c = run_check(&tree, v, &v1, &opts);
        let run = &c.run;
        report.push_str(&show(v.name, run));
        report.push_str(&format!(
            "{}: {:.1} kernel cycles per loop iteration ({} iterations, {:.0} instructions per iteration)\n",
            v.name, c.cycles_per_iteration, opts.iterations, c.instructions_per_iteration
        ));
        for e in &c.entries {
            report.push_str(&format!(
                "{} {:>11}: {:.1} cycles, {:.1} instructions per round trip (after {} warm-up trips)\n",
                v.name, e.name, e.cycles, e.instructions, opts.warm_up
            ));
        }
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
            let asm_user = assembly_user_ns(run) as i128 + run.verdict.unexplained_ns;
            let edges = cycles_to_ns(run.stamps.total(), opts.itc_freq);
            let expected = (run.verdict.utime.true_ns + edges) as i128;
            report.push_str(&format!(
                "{}: the assembly's user sum {asm_user} ns = true user {} ns + stamp edges {edges} ns ({:+} ns)\n",
                v.name,
                run.verdict.utime.true_ns,
                asm_user - expected
            ));
            assert!((asm_user - expected).abs() <= 2 * run.stamps.trips as i128 + 1000, "{}", v.name);
        } else {
            // Without the config every tick reports one whole TICK_NSEC.
            let reported = run.verdict.utime.reported_ns + run.verdict.stime.reported_ns;
            assert_eq!(reported, run.ticks * c.config.tick_nsec(), "{}", v.name);
        }
        report.push('\n');
        checks.push(c);
    }
    // A = V.1, B = V.2; the last row is the whole iteration.
    let d = check::diff(&checks[0], &checks[2], &checks[1]).unwrap_or_else(|e| panic!("{e}"));
    let iteration = d.calls.last().expect("the iteration row");
    report.push_str(&format!(
        "overhead per iteration: V.2 {:.1} cycles, V.1 {:.1} cycles; (V.2 overhead)/(V.1 overhead) = {:.3} (seed 004: 0.670)\n",
        iteration.b_overhead(),
        iteration.a_overhead(),
        d.ratio.unwrap_or(f64::NAN)
    ));
    eprintln!("{report}");
    assert!(iteration.a_overhead() > 0.0 && iteration.b_overhead() > 0.0, "{report}");
}
