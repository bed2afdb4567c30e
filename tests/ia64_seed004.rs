//! Seed 004's `account_sys_enter`, V.1 and V.2, run on the same user/kernel history: the
//! times they accumulate are checked against the patch's arithmetic by hand, and the final
//! register state of each is pinned with an insta snapshot.

use arch_ia64::asm::assemble;
use arch_ia64::run::{run_image, RunConfig};
use emu_core::harness::Harness;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::report::RunReport;
use std::path::Path;

/// The history both versions see: the task last entered the kernel at ITC 1000 (ac_stamp),
/// left it at 1500 (ac_leave, V.2 only), and enters again at 2300 (r20 = ar.itc read early
/// in break_fault); 10000 cycles of system and 20000 of user time were accounted before.
const STAMP: u64 = 1000;
const LEAVE: u64 = 1500;
const NOW: u64 = 2300;
const STIME: u64 = 10_000;
const UTIME: u64 = 20_000;

/// thread_info lives behind the task_struct (IA64_TASK_SIZE = 3456); the fields start at
/// TI_AC_STAMP = 96, as in the test source.
fn harness(v2: bool, entry: &str, leave: u64) -> String {
    let fields = if v2 { format!("{STAMP}, {leave}, {STIME}, {UTIME}") } else { format!("{STAMP}, {STIME}, {UTIME}") };
    let (stime_at, utime_at) = if v2 { (3456 + 112, 3456 + 120) } else { (3456 + 104, 3456 + 112) };
    format!(
        r#"entry = "{entry}"
itc = 1400
[[region]]
name = "stack"
base = "0x0000000070000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "rbs"
base = "0x0000000071000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "task"
base = "0x0000000072000000"
size = "0x8000"
perms = "rw"
fill = [ {{ at = "{at}", u64 = [{fields}] }} ]

[registers]
r13 = "task"
"ar.k6" = "task"
r12 = "stack.top-16"
r20 = "{NOW}"
b0 = "sentinel"
"ar.bspstore" = "rbs"

[[counter]]
name = "ac_stamp"
address = "task+{stamp_at}"
width = 8
unit = "itc"

[[counter]]
name = "ac_stime"
address = "task+{stime_at}"
width = 8
unit = "itc"

[[counter]]
name = "ac_utime"
address = "task+{utime_at}"
width = 8
unit = "itc"
"#,
        at = 3456 + 96,
        stamp_at = 3456 + 96,
    )
}

fn run(v2: bool) -> RunReport {
    run_with(v2, None, LEAVE)
}

fn run_with(v2: bool, entry: Option<&str>, leave: u64) -> RunReport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ia64/account_sys_enter.S");
    let text = std::fs::read_to_string(&path).expect("test source");
    let mut opts = PreprocessOptions::new();
    if v2 {
        opts = opts.defined("ACCOUNTING_V2", "1");
    }
    let asm = assemble("account_sys_enter.S", &text, &opts, &FsLoader).expect("assembles");
    let harness =
        Harness::parse("seed004.toml", &harness(v2, entry.unwrap_or("account_sys_enter"), leave)).expect("harness");
    let cfg = RunConfig { harness: Some(harness), ..RunConfig::default() };
    run_image(&asm.image, &cfg).expect("runs")
}

fn counter(r: &RunReport, name: &str) -> u64 {
    r.counters.iter().find(|c| c.name == name).map(|c| c.value).unwrap_or_else(|| panic!("no counter {name}"))
}

#[test]
fn v1_charges_the_whole_interval_since_the_stamp_to_user_time() {
    let r = run(false);
    assert_eq!(r.stop, "returned to the sentinel");
    // V.1: utime += now - stamp; stamp = now. System time up to the leave was charged by
    // account_sys_leave on the way out, so stime is untouched here.
    assert_eq!(counter(&r, "ac_utime"), UTIME + (NOW - STAMP));
    assert_eq!(counter(&r, "ac_stime"), STIME);
    assert_eq!(counter(&r, "ac_stamp"), NOW);
    insta::assert_yaml_snapshot!("account_sys_enter_v1", r.snapshot);
}

#[test]
fn v2_splits_the_interval_at_the_leave_time() {
    let r = run(true);
    assert_eq!(r.stop, "returned to the sentinel");
    // V.2: stime += leave - stamp; utime += now - leave; stamp = now.
    assert_eq!(counter(&r, "ac_stime"), STIME + (LEAVE - STAMP));
    assert_eq!(counter(&r, "ac_utime"), UTIME + (NOW - LEAVE));
    assert_eq!(counter(&r, "ac_stamp"), NOW);
    insta::assert_yaml_snapshot!("account_sys_enter_v2", r.snapshot);
}

#[test]
fn v1_exit_and_entry_account_what_v2_accounts() {
    // V.1 charges stime in account_sys_leave (at an ITC L the path reads itself) and utime at
    // the next entry; V.2 records L as ac_leave and charges both at entry. Fed the same L,
    // both must end with the same stime and utime.
    let v1 = run_with(false, Some("exit_then_entry"), LEAVE);
    let l = counter(&v1, "ac_stime") - STIME + STAMP;
    assert!(l >= 1400, "the leave path read ar.itc ({l}) after the harness started it at 1400");
    assert_eq!(counter(&v1, "ac_utime"), UTIME + (NOW - l));
    let v2 = run_with(true, None, l);
    assert_eq!(counter(&v2, "ac_stime"), counter(&v1, "ac_stime"));
    assert_eq!(counter(&v2, "ac_utime"), counter(&v1, "ac_utime"));
}
