//! Native differential tests of the x86 traces (issue 5's proof): each trace function, compiled
//! natively from the same C with the same -D step flags into a driver (traces/x86/native/
//! *_diff.c, built with gcc at test time), and the committed object run in arch-x86 on the
//! trace's own harness, on the same generated inputs. The return value (timer target) and every
//! word of every struct the function may write (task, cpu_data, cyc2ns, signal, mm, cpuacct
//! groups, jiffies; rq; the masks, domains and runqueues it reads) must match exactly; pointer
//! words are compared as object+offset (native/dump.h). gcc missing: the native comparisons
//! skip, unless ACCTEMU_REQUIRE_ORACLES=1, which fails them.
//!
//! The clock is pinned on both sides: natively, -DACCTEMU_NATIVE_USER makes rdtsc() read the
//! driver's acctemu_native_tsc; in the emulator the TSC ratio is 0/1, so rdtsc returns
//! tsc_offset, set to the same case value before each call. sched_clock() then goes through
//! the same cyc2ns mult/shift on both sides, and no output depends on the modelled cycles.
//!
//! Also runner tests: every x86 catalogue entry point runs to the sentinel on its own harness,
//! and the nohz counters move as the C says for known inputs.

#[path = "../../arch-x86/tests/common/mod.rs"]
mod common;
#[path = "x86_differential/emu.rs"]
mod emu;
#[path = "x86_differential/native.rs"]
mod native;
#[path = "x86_differential/nohz.rs"]
mod nohz;
#[path = "x86_differential/rng.rs"]
mod rng;
#[path = "x86_differential/runner.rs"]
mod runner;
#[path = "x86_differential/sched_avg.rs"]
mod sched_avg;
#[path = "x86_differential/timer_target.rs"]
mod timer_target;

use emu::Emu;
use traces::Trace;

/// Cases per trace version.
const CASES: u64 = 500;
/// The drivers' seed: case k uses seed + k.
const SEED: u64 = 0x5eed_0005;

fn trace(name: &str) -> &'static Trace {
    traces::find(name).unwrap_or_else(|| panic!("no trace {name}"))
}

/// Runs `driver` natively and `case` in the emulator for every case, and fails with the first
/// mismatches (each word that differs, named by its struct).
fn compare(name: &str, driver: &str, mut case: impl FnMut(&mut Emu, u64) -> Result<String, String>) {
    let Some(gcc) = common::oracle("gcc") else { return };
    let t = trace(name);
    let tag = format!("diff-{}", name.replace('/', "-"));
    let want = native::run(&gcc, driver, t.defines, SEED, CASES, &tag);
    assert_eq!(want.len() as u64, CASES, "{name}: the driver printed {} lines", want.len());
    let mut emu = Emu::new(t);
    let mut bad = Vec::new();
    for (k, expect) in (0..CASES).zip(&want) {
        match case(&mut emu, k) {
            Ok(got) if got == *expect => {}
            Ok(got) => bad.push(format!("case {k}: {}", native::differences(expect, &got))),
            Err(e) => bad.push(format!("case {k}: {e}")),
        }
    }
    assert!(bad.is_empty(), "{name}: {} of {CASES} cases differ:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

fn compare_nohz(name: &str) {
    let patches: u32 =
        trace(name).defines.iter().find(|(k, _)| *k == "PATCHES").map_or(0, |(_, v)| v.parse().unwrap_or(0));
    let mut layout = None;
    compare(name, "nohz_diff.c", |emu, k| {
        let l = layout.get_or_insert_with(|| nohz::Layout::new(emu));
        nohz::case(emu, l, patches, SEED, k)
    });
}

#[test]
fn nohz_v4_5_rc1_matches_native() {
    compare_nohz("x86/nohz-syscall/v4.5-rc1");
}

#[test]
fn nohz_patch1_matches_native() {
    compare_nohz("x86/nohz-syscall/patch1");
}

#[test]
fn nohz_patch3_matches_native() {
    compare_nohz("x86/nohz-syscall/patch3");
}

#[test]
fn nohz_patch4_matches_native() {
    compare_nohz("x86/nohz-syscall/patch4");
}

#[test]
fn nohz_housekeeping_matches_native() {
    compare_nohz("x86/nohz-syscall/housekeeping");
}

#[test]
fn sched_avg_loop_matches_native() {
    compare("x86/sched-avg/loop", "sched_avg_diff.c", |emu, k| sched_avg::case(emu, SEED, k));
}

#[test]
fn sched_avg_div_matches_native() {
    compare("x86/sched-avg/div", "sched_avg_diff.c", |emu, k| sched_avg::case(emu, SEED, k));
}

fn compare_timer_target(name: &str) {
    let mut layout = None;
    compare(name, "timer_target_diff.c", |emu, k| {
        let l = layout.get_or_insert_with(|| timer_target::Layout::new(emu));
        timer_target::case(emu, l, SEED, k)
    });
}

#[test]
fn timer_target_old_matches_native() {
    compare_timer_target("x86/timer-target/old");
}

#[test]
fn timer_target_new_matches_native() {
    compare_timer_target("x86/timer-target/new");
}

/// H15's drivers (native/README.md) still build and print one line per case.
#[test]
fn readme_drivers_still_run() {
    let Some(gcc) = common::oracle("gcc") else { return };
    for (driver, defines) in [
        ("nohz_driver.c", [("PATCHES", "0")]),
        ("nohz_driver.c", [("PATCHES", "4")]),
        ("sched_avg_driver.c", [("SCHED_AVG_DIV", "1")]),
        ("timer_target_driver.c", [("TIMER_TARGET_NEW", "0")]),
    ] {
        let lines = native::run(&gcc, driver, &defines, 1, 20, "readme-drivers");
        assert_eq!(lines.len(), 20, "{driver}");
        assert!(lines.iter().all(|l| l.contains(" -> ")), "{driver}: {lines:?}");
    }
}
