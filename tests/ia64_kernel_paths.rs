//! The real Linux 6.1 ia64 paths, unmodified: the tree's ivt.S, entry.S, fsys.S and gate.S
//! preprocessed and assembled by acctemu, linked by acctemu's linker with the harness's stubs
//! (`arch_ia64::kernel`), each entry kind run from user mode back to user mode under the
//! configs of `traces/ia64/linux-6.1/` (none: no CONFIG_VIRT_CPU_ACCOUNTING_NATIVE; v2: with
//! it). Checks the return value in r8, the user state after the round trip (register-state
//! snapshots), the accounting fields V.2 writes, the stub hook, and located errors; prints
//! cycles and instructions per call for each entry kind and config.
//!
//! Needs the 6.1 tree (`tests/common` `kernel_source()`): skipped without it, failed under
//! `ACCTEMU_REQUIRE_ORACLES=1`.

mod common;

use arch_ia64::kernel::harness::{Call, HarnessOptions, KernelHarness};
use arch_ia64::kernel::layout::{USER_BSPSTORE, USER_TEXT};
use arch_ia64::kernel::paths::Cause;
use arch_ia64::kernel::setup::PID;
use arch_ia64::kernel::user::USER_LOCALS;
use arch_ia64::kernel::{EntryKind, KernelSources, Offsets, PathRun};
use emu_core::kernel::KernelConfig;
use emu_core::snapshot::Snapshot;
use emu_core::stub::{Stub, StubSpec};

fn config(name: &str) -> KernelConfig {
    let path = common::root().join(format!("traces/ia64/linux-6.1/{name}.config"));
    KernelConfig::parse(name, &std::fs::read_to_string(path).unwrap()).unwrap()
}

fn harness(name: &str) -> Option<KernelHarness> {
    let tree = common::kernel_source()?;
    let objects = match KernelSources::new(&tree, config(name)).build() {
        Ok(o) => o,
        Err(e) => panic!("{name}: {e}"),
    };
    Some(KernelHarness::new(objects, HarnessOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn reg(s: &Snapshot, name: &str) -> u64 {
    let v = s.register(name).unwrap_or_else(|| panic!("no {name}")).to_string();
    u64::from_str_radix(v.trim_start_matches("0x"), 16).unwrap()
}

/// What every return to user mode must leave: cpl 3 with the user's PSR, back in the user
/// program, its stacked registers and RSE state as they were.
fn user_state_intact(s: &Snapshot, what: &str) {
    assert_eq!((reg(s, "psr") >> 32) & 3, 3, "{what}: cpl 3");
    assert!(reg(s, "ip") >= USER_TEXT && reg(s, "ip") < USER_TEXT + 0x1000, "{what}: in the user program");
    for (i, v) in USER_LOCALS.iter().enumerate() {
        assert_eq!(reg(s, &format!("r{}", 32 + i)), *v, "{what}: r{} preserved", 32 + i);
    }
    assert_eq!(reg(s, "ar.bspstore"), USER_BSPSTORE, "{what}: the user RBS is the user's again");
    assert_eq!(reg(s, "cfm") & 0x7f, 17, "{what}: the user's frame (sof 17) is current");
}

fn run(h: &KernelHarness, kind: EntryKind, n: usize) -> PathRun {
    h.run_kind(kind, n, Vec::new()).unwrap_or_else(|e| panic!("{}: {e}", kind.name()))
}

#[test]
fn break_syscall_returns_its_value_in_r8() {
    let Some(h) = harness("v2") else { return };
    let r = run(&h, EntryKind::Break, 4);
    let getuid = h.objects.constants.nr.getuid;
    for t in &r.trips {
        assert_eq!(t.cause, Cause::Syscall { nr: getuid, by_break: true });
        assert_eq!((t.r8, t.r10), (1000, 0), "sys_getuid's value, success");
    }
    user_state_intact(&r.snapshot, "break");
    insta::assert_yaml_snapshot!("break_v2", r.snapshot);
}

#[test]
fn epc_heavy_syscall_goes_through_fsys_bubble_down() {
    let Some(h) = harness("v2") else { return };
    let r = run(&h, EntryKind::EpcHeavy, 4);
    for t in &r.trips {
        assert_eq!(t.cause, Cause::Syscall { nr: h.objects.constants.nr.getuid, by_break: false });
        assert_eq!((t.r8, t.r10), (1000, 0));
    }
    user_state_intact(&r.snapshot, "epc");
    insta::assert_yaml_snapshot!("epc_v2", r.snapshot);
}

#[test]
fn fsys_getpid_reads_the_tgid_without_leaving_the_user_stacks() {
    let Some(h) = harness("v2") else { return };
    let r = run(&h, EntryKind::FsysGetpid, 4);
    for t in &r.trips {
        assert_eq!((t.r8, t.r10), (PID, 0), "pid->numbers[pid->level].nr");
    }
    // The light-weight path is a few dozen instructions; the heavy one hundreds.
    let heavy = run(&h, EntryKind::EpcHeavy, 3);
    assert!(r.mean_instructions(1) * 4.0 < heavy.mean_instructions(1), "fsys is light-weight");
    user_state_intact(&r.snapshot, "fsys");
    insta::assert_yaml_snapshot!("fsys_getpid_v2", r.snapshot);
}

#[test]
fn the_tick_interrupts_user_mode_and_returns_to_it() {
    let Some(h) = harness("v2") else { return };
    let r = run(&h, EntryKind::Tick, 4);
    for t in &r.trips {
        assert_eq!(t.cause, Cause::Interrupt);
    }
    let s = &r.snapshot;
    assert_eq!((reg(s, "psr") >> 32) & 3, 3);
    // The spin loop's counter (r39) moved on between ticks; the other locals are intact.
    assert!(reg(s, "r39") > USER_LOCALS[7]);
    for (i, v) in USER_LOCALS.iter().take(7).enumerate() {
        assert_eq!(reg(s, &format!("r{}", 32 + i)), *v);
    }
    insta::assert_yaml_snapshot!("tick_v2", r.snapshot);
}

#[test]
fn v2_keeps_the_accounting_stamps_and_none_does_not() {
    let (Some(v2), Some(none)) = (harness("v2"), harness("none")) else { return };
    assert!(v2.offsets.opt("TI_AC_STIME").is_some() && none.offsets.opt("TI_AC_STIME").is_none());
    let (calls, _) = v2.program(EntryKind::Break);
    let mut km = v2.boot(&calls, None, Vec::new()).unwrap();
    let r = arch_ia64::kernel::paths::run(&mut km, 5, 1_000_000).unwrap();
    let ti = km.layout.thread_info;
    let field = |n: &str| km.machine.mem.read_u64(ti + v2.offsets.get(n).unwrap()).unwrap();
    let (stamp, leave, stime, utime) =
        (field("TI_AC_STAMP"), field("TI_AC_LEAVE"), field("TI_AC_STIME"), field("TI_AC_UTIME"));
    // ac_stamp is the last entry's ITC, ac_leave the last exit's: leave after stamp, both
    // within the run; system and user time both grew.
    assert!(stamp > 0 && leave > stamp && leave <= r.total_cycles, "stamp {stamp} leave {leave}");
    assert!(stime > 0 && utime > 0, "stime {stime} utime {utime}");
    // V.2's arithmetic costs instructions on every entry and exit.
    let (a, b) = (run(&none, EntryKind::Break, 3), run(&v2, EntryKind::Break, 3));
    assert!(b.mean_instructions(1) > a.mean_instructions(1));
}

#[test]
fn a_callers_stub_replaces_the_default_and_its_cycles_count() {
    let Some(h) = harness("none") else { return };
    let base = run(&h, EntryKind::Break, 3);
    let mine: Vec<Box<dyn Stub>> =
        vec![Box::new(StubSpec { name: "sys_getuid".into(), returns: 77, cycles: 50, writes: Vec::new() })];
    let r = h.run_kind(EntryKind::Break, 3, mine).unwrap();
    assert_eq!(r.trips.last().map(|t| t.r8), Some(77));
    assert_eq!(r.mean_cycles(1) - base.mean_cycles(1), 50.0);
}

#[test]
fn an_unmodelled_function_stops_the_run_by_name() {
    let Some(h) = harness("none") else { return };
    // read(2) = 1026: its handler sys_read is bound to the Unmodelled stub.
    let e = h.run(&[Call::brk(1026, &[0, 0, 0])], None, 1, Vec::new()).unwrap_err().to_string();
    assert!(e.contains("sys_read"), "{e}");
}

#[test]
fn build_errors_name_the_file_and_line() {
    let Some(tree) = common::kernel_source() else { return };
    let mut src = KernelSources::new(&tree, config("none"));
    let entry = std::fs::read_to_string(tree.join("arch/ia64/kernel/entry.S")).unwrap();
    src.replaced.push((
        "arch/ia64/kernel/entry.S".into(),
        entry.replacen(
            "GLOBAL_ENTRY(ia64_ret_from_syscall)",
            "GLOBAL_ENTRY(ia64_ret_from_syscall)\n\tnot_an_insn r1=r2",
            1,
        ),
    ));
    let e = src.build().unwrap_err().to_string();
    assert!(e.contains("entry.S:") && e.contains("not_an_insn"), "{e}");
}

/// The figures of the report: cycles and instructions per call for each entry kind, with
/// the accounting config off and on.
#[test]
fn cycles_and_instructions_per_call() {
    let (Some(none), Some(v2)) = (harness("none"), harness("v2")) else { return };
    let mut table = String::from("entry        none cycles  none insns    v2 cycles    v2 insns\n");
    for kind in EntryKind::ALL {
        let (a, b) = (run(&none, kind, 6), run(&v2, kind, 6));
        table.push_str(&format!(
            "{:<12} {:>11.1} {:>11.1} {:>12.1} {:>11.1}\n",
            kind.name(),
            a.mean_cycles(1),
            a.mean_instructions(1),
            b.mean_cycles(1),
            b.mean_instructions(1)
        ));
        assert!(a.mean_cycles(1) > 0.0 && b.mean_cycles(1) > 0.0);
    }
    eprintln!("{table}");
}

#[test]
fn a_fault_in_the_kernel_code_names_its_symbol_file_and_line() {
    let Some(tree) = common::kernel_source() else { return };
    let mut src = KernelSources::new(&tree, config("none"));
    let entry = std::fs::read_to_string(tree.join("arch/ia64/kernel/entry.S")).unwrap();
    // A load from address 0 (unmapped) just before ia64_leave_syscall sets pLvSys.
    let marker = "\tcmp.eq pLvSys,p0=r0,r0\t\t// pLvSys=1: leave from syscall\n(pUStk)";
    let at = entry.find(marker).expect("the 6.1 text");
    let line = entry[..at].lines().count() + 1;
    let changed = format!("{}\tld8 r8=[r0]\n\t;;\n{}", &entry[..at], &entry[at..]);
    src.replaced.push(("arch/ia64/kernel/entry.S".into(), changed));
    let h = KernelHarness::new(src.build().unwrap(), HarnessOptions::default()).unwrap();
    let e = h.run_kind(EntryKind::Break, 1, Vec::new()).unwrap_err().to_string();
    assert!(e.contains("<ia64_leave_syscall+0x"), "{e}");
    assert!(e.contains(&format!("entry.S:{line}")), "line {line}: {e}");
}

/// `KernelSources::asm_offsets`: a build's own header is used as given (here the generated
/// text with TI_FLAGS moved, which fsys_getpid then reads: a set "flag" sends it to the heavy
/// path through fsys_fallback_syscall, as a pending signal would).
#[test]
fn a_users_asm_offsets_header_is_used() {
    let Some(tree) = common::kernel_source() else { return };
    let plain = KernelSources::new(&tree, config("none")).build().unwrap();
    let flags = Offsets::parse(&plain.asm_offsets).get("TI_FLAGS").unwrap();
    let mut src = KernelSources::new(&tree, config("none"));
    // thread_info.cpu (TI_CPU) is 4 bytes past flags; the harness writes 0 there and to flags,
    // so point TI_FLAGS at the task's on_ustack byte (1): the flag test sees work pending.
    let ti = Offsets::parse(&plain.asm_offsets).get("IA64_TASK_SIZE").unwrap();
    let on_ustack = Offsets::parse(&plain.asm_offsets).get("IA64_TASK_THREAD_ON_USTACK_OFFSET").unwrap();
    let moved = on_ustack.wrapping_sub(ti) as i64;
    src.asm_offsets =
        Some(plain.asm_offsets.replace(&format!("#define TI_FLAGS {flags} "), &format!("#define TI_FLAGS {moved} ")));
    let objects = src.build().unwrap();
    assert_eq!(Offsets::parse(&objects.asm_offsets).get("TI_FLAGS").unwrap() as i64, moved);
    let h = KernelHarness::new(objects, HarnessOptions::default()).unwrap();
    let base = KernelHarness::new(plain, HarnessOptions::default()).unwrap();
    let light = run(&base, EntryKind::FsysGetpid, 3);
    let fell_back = run(&h, EntryKind::FsysGetpid, 3);
    assert!(fell_back.mean_instructions(1) > light.mean_instructions(1) * 3.0, "took the heavy path");
}

/// The machinery a workload uses: a program of several calls (the Unixbench loop through
/// glibc's gate entry) looped N times with the timer interrupting it; each round trip says
/// what started it, and each call's value arrives in r8.
#[test]
fn the_unixbench_mix_runs_with_ticks() {
    let Some(h) = harness("v2") else { return };
    let nr = h.objects.constants.nr;
    let calls = [
        Call::epc(nr.dup, &[0]),
        Call::epc(nr.close, &[3]),
        Call::epc(nr.getpid, &[]),
        Call::epc(nr.getuid, &[]),
        Call::epc(nr.umask, &[0o22]),
    ];
    let mut km = h.boot(&calls, Some(1_000), Vec::new()).unwrap();
    let r = arch_ia64::kernel::paths::run(&mut km, 200, 10_000_000).unwrap();
    let mut ticks = 0;
    for t in &r.trips {
        match t.cause {
            Cause::Interrupt => ticks += 1,
            Cause::Syscall { nr: n, by_break } => {
                assert!(!by_break);
                let want = [(nr.dup, 3), (nr.close, 0), (nr.getpid, PID), (nr.getuid, 1000), (nr.umask, 0o22)];
                let (_, v) = want.iter().find(|(k, _)| *k == n).unwrap_or_else(|| panic!("unexpected call {n}"));
                assert_eq!(t.r8, *v, "call {n}");
            }
        }
    }
    // Most ticks land in the kernel (it runs most of the cycles here) and are taken there
    // (pKStk) when the path sets psr.i; the others interrupt the user program.
    let fired = km.machine.cpu.state.interrupts.timer_fired();
    assert!(fired >= r.total_cycles / 1_000 - 1, "{fired} ticks in {} cycles", r.total_cycles);
    eprintln!("{fired} ticks, {ticks} of them in user mode, in {} cycles", r.total_cycles);
    user_state_intact(&r.snapshot, "mix");
}
