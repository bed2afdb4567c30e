//! The real Linux 6.1 paths as V.1 (seed 004's patch reversed on the files by acctemu's
//! patch code, `acctemu::cli::seed004_v1`, CONFIG_VIRT_CPU_ACCOUNTING_NATIVE on): each entry
//! kind from user mode back to user mode, its return value, the user state after the round
//! trip (register-state snapshots `*_v1`, beside `ia64_kernel_paths.rs`'s `*_v2`), and the
//! V.1 stamp V.2 replaced.
//!
//! Needs the 6.1 tree (`tests/common` `kernel_source()`): skipped without it, failed under
//! `ACCTEMU_REQUIRE_ORACLES=1`.

mod common;

use acctemu::cli::seed004_v1;
use arch_ia64::kernel::harness::{HarnessOptions, KernelHarness};
use arch_ia64::kernel::layout::{USER_BSPSTORE, USER_TEXT};
use arch_ia64::kernel::paths::Cause;
use arch_ia64::kernel::setup::PID;
use arch_ia64::kernel::user::USER_LOCALS;
use arch_ia64::kernel::{EntryKind, KernelSources, PathRun};
use emu_core::kernel::KernelConfig;
use emu_core::snapshot::Snapshot;

fn reg(s: &Snapshot, name: &str) -> u64 {
    let v = s.register(name).unwrap_or_else(|| panic!("no {name}")).to_string();
    u64::from_str_radix(v.trim_start_matches("0x"), 16).unwrap()
}

fn user_state_intact(s: &Snapshot, what: &str, locals: usize) {
    assert_eq!((reg(s, "psr") >> 32) & 3, 3, "{what}: cpl 3");
    assert!(reg(s, "ip") >= USER_TEXT && reg(s, "ip") < USER_TEXT + 0x1000, "{what}: in the user program");
    for (i, v) in USER_LOCALS.iter().take(locals).enumerate() {
        assert_eq!(reg(s, &format!("r{}", 32 + i)), *v, "{what}: r{} preserved", 32 + i);
    }
    assert_eq!(reg(s, "ar.bspstore"), USER_BSPSTORE, "{what}: the user RBS is the user's again");
}

fn run(h: &KernelHarness, kind: EntryKind, n: usize) -> PathRun {
    h.run_kind(kind, n, Vec::new()).unwrap_or_else(|e| panic!("v1 {}: {e}", kind.name()))
}

/// One build of V.1 for all four paths (the build is the slow part).
#[test]
fn v1_paths_return_to_user_mode_with_the_users_state() {
    let Some(tree) = common::kernel_source() else { return };
    let text = std::fs::read_to_string(common::root().join("traces/ia64/linux-6.1/v2.config")).unwrap();
    let config = KernelConfig::parse("v2.config", &text).unwrap();
    let v1 = seed004_v1::v1_files(&tree).unwrap_or_else(|e| panic!("{e}"));
    let mut src = KernelSources::new(&tree, config);
    src.replaced = v1.files.iter().map(|f| (f.path.clone(), f.text.clone())).collect();
    let objects = src.build().unwrap_or_else(|e| panic!("v1: {e}"));
    let h = KernelHarness::new(objects, HarnessOptions::default()).unwrap_or_else(|e| panic!("v1: {e}"));
    // V.1 has ac_stamp and no ac_leave (V.2 split the stamp in two).
    assert!(h.offsets.opt("TI_AC_STAMP").is_some() && h.offsets.opt("TI_AC_LEAVE").is_none());
    let getuid = h.objects.constants.nr.getuid;

    let r = run(&h, EntryKind::Break, 4);
    for t in &r.trips {
        assert_eq!(t.cause, Cause::Syscall { nr: getuid, by_break: true });
        assert_eq!((t.r8, t.r10), (1000, 0), "sys_getuid's value, success");
    }
    user_state_intact(&r.snapshot, "break", USER_LOCALS.len());
    insta::assert_yaml_snapshot!("break_v1", r.snapshot);

    let r = run(&h, EntryKind::EpcHeavy, 4);
    for t in &r.trips {
        assert_eq!(t.cause, Cause::Syscall { nr: getuid, by_break: false });
        assert_eq!((t.r8, t.r10), (1000, 0));
    }
    user_state_intact(&r.snapshot, "epc", USER_LOCALS.len());
    insta::assert_yaml_snapshot!("epc_v1", r.snapshot);

    let r = run(&h, EntryKind::FsysGetpid, 4);
    for t in &r.trips {
        assert_eq!((t.r8, t.r10), (PID, 0), "pid->numbers[pid->level].nr");
    }
    user_state_intact(&r.snapshot, "fsys", USER_LOCALS.len());
    insta::assert_yaml_snapshot!("fsys_getpid_v1", r.snapshot);

    let r = run(&h, EntryKind::Tick, 4);
    for t in &r.trips {
        assert_eq!(t.cause, Cause::Interrupt);
    }
    // The spin loop's counter (r39) moved on between ticks; the other locals are intact.
    assert!(reg(&r.snapshot, "r39") > USER_LOCALS[7]);
    user_state_intact(&r.snapshot, "tick", 7);
    insta::assert_yaml_snapshot!("tick_v1", r.snapshot);
}
