//! Each version's paths driven by hand, as a scenario runner drives them: the syscall entry
//! from the user stub to `syscall_dispatch`, K cycles of kernel work, the exit to its rfi;
//! ticks in user and kernel mode; the fsys path. The accounted times are checked against the
//! seed's arithmetic applied to the ITC values the paths themselves read (taken back from
//! memory), never against hard-coded cycle counts.

mod common;

use common::{Rig, UserState, TI};

/// Kernel work inside each system call.
const K: u64 = 5000;
/// User work between system calls.
const U: u64 = 3000;

const AC_STAMP: u64 = TI + 96;

fn trace(name: &str) -> &'static traces::Trace {
    traces::find(name).unwrap_or_else(|| panic!("{name} is not catalogued"))
}

/// Accounting fields of V.1 (stime, utime) and V.2 (leave, stime, utime).
fn v1(rig: &Rig) -> (u64, u64, u64) {
    (rig.u64_at(AC_STAMP), rig.u64_at(TI + 104), rig.u64_at(TI + 112))
}
fn v2(rig: &Rig) -> (u64, u64, u64, u64) {
    (rig.u64_at(AC_STAMP), rig.u64_at(TI + 104), rig.u64_at(TI + 112), rig.u64_at(TI + 120))
}

/// Runs user_main up to the break and returns the user state just before it.
fn to_first_break(rig: &mut Rig) -> UserState {
    rig.run_to("user_syscall");
    UserState::of(rig)
}

/// One system call from the current user IP: entry to syscall_dispatch, K cycles, exit to rfi.
/// Returns the instruction counts (entry, exit).
fn syscall(rig: &mut Rig) -> (u64, u64) {
    let entry = rig.run_to("syscall_dispatch");
    assert_eq!(rig.cpl(), 0, "the kernel runs at cpl 0");
    rig.m.cpu.advance(K);
    rig.jump("ia64_leave_syscall");
    let exit = rig.run_to_rfi();
    (entry, exit)
}

fn assert_back_in_user(rig: &Rig, before: &UserState) {
    assert_eq!(rig.m.cpu.state.ip, rig.sym("user_resume"), "rfi returns past the break");
    assert_eq!(rig.m.cpu.state.psr.ri(), 0);
    assert_eq!(rig.cpl(), 3);
    assert_eq!(rig.m.cpu.state.psr.bank(), 1);
    assert_eq!(&UserState::of(rig), before, "user registers and frame survive the round trip");
}

#[test]
fn none_syscall_round_trip_keeps_the_user_state() {
    let mut rig = Rig::new(trace("ia64/syscall/none"));
    let before = to_first_break(&mut rig);
    syscall(&mut rig);
    assert_back_in_user(&rig, &before);
    rig.m.cpu.advance(U);
    syscall(&mut rig);
    assert_back_in_user(&rig, &before);
}

#[test]
fn v1_accounts_user_time_at_entry_and_system_time_at_exit() {
    let mut rig = Rig::new(trace("ia64/syscall/v1"));
    let before = to_first_break(&mut rig);
    rig.run_to("syscall_dispatch");
    let (t_enter, stime, utime) = v1(&rig);
    // The task was in user mode since ITC 0 (ac_stamp 0): all of it is user time.
    assert!(t_enter > 0);
    assert_eq!((stime, utime), (0, t_enter));
    rig.m.cpu.advance(K);
    rig.jump("ia64_leave_syscall");
    rig.run_to_rfi();
    assert_back_in_user(&rig, &before);
    let (t_leave, stime, utime) = v1(&rig);
    assert!(t_leave >= t_enter + K);
    assert_eq!((stime, utime), (t_leave - t_enter, t_enter), "account_sys_leave: stime += leave - stamp");
    // A second call carries the stamp over.
    rig.m.cpu.advance(U);
    rig.run_to("syscall_dispatch");
    let (t_enter2, stime2, utime2) = v1(&rig);
    assert!(t_enter2 >= t_leave + U);
    assert_eq!((stime2, utime2), (stime, utime + (t_enter2 - t_leave)));
    rig.m.cpu.advance(K);
    rig.jump("ia64_leave_syscall");
    rig.run_to_rfi();
    assert_back_in_user(&rig, &before);
    let (t_leave2, stime3, _) = v1(&rig);
    assert_eq!(stime3, stime2 + (t_leave2 - t_enter2));
}

#[test]
fn v2_stores_the_leave_time_and_charges_both_at_entry() {
    let mut rig = Rig::new(trace("ia64/syscall/v2"));
    let before = to_first_break(&mut rig);
    rig.run_to("syscall_dispatch");
    let (t_enter, leave, stime, utime) = v2(&rig);
    assert_eq!((leave, stime, utime), (0, 0, t_enter), "stime += leave - stamp = 0; utime += now - leave");
    rig.m.cpu.advance(K);
    rig.jump("ia64_leave_syscall");
    rig.run_to_rfi();
    assert_back_in_user(&rig, &before);
    let (stamp, t_leave, stime, utime) = v2(&rig);
    assert_eq!((stamp, stime, utime), (t_enter, 0, t_enter), "the exit only stores ac_leave");
    assert!(t_leave >= t_enter + K);
    rig.m.cpu.advance(U);
    rig.run_to("syscall_dispatch");
    let (t_enter2, leave2, stime2, utime2) = v2(&rig);
    assert_eq!(leave2, t_leave);
    assert_eq!(stime2, t_leave - t_enter, "stime before the leave");
    assert_eq!(utime2, t_enter + (t_enter2 - t_leave), "user time since the leave");
    rig.m.cpu.advance(K);
    rig.jump("ia64_leave_syscall");
    rig.run_to_rfi();
    assert_back_in_user(&rig, &before);
}

/// V.1 and V.2 split the same history identically when the paths read the same ITC values;
/// the model's paths differ in length, so compare the splits each version derived.
#[test]
fn v1_and_v2_charge_user_and_system_time_the_same_way() {
    for name in ["ia64/syscall/v1", "ia64/syscall/v2"] {
        let mut rig = Rig::new(trace(name));
        to_first_break(&mut rig);
        let mut enters = Vec::new();
        let mut leaves = Vec::new();
        for _ in 0..3 {
            rig.run_to("syscall_dispatch");
            enters.push(rig.u64_at(AC_STAMP));
            rig.m.cpu.advance(K);
            rig.jump("ia64_leave_syscall");
            rig.run_to_rfi();
            leaves.push(if name.ends_with("v1") { rig.u64_at(AC_STAMP) } else { rig.u64_at(TI + 104) });
            rig.m.cpu.advance(U);
        }
        rig.run_to("syscall_dispatch");
        let last = rig.u64_at(AC_STAMP);
        let (stime, utime) = if name.ends_with("v1") {
            (rig.u64_at(TI + 104), rig.u64_at(TI + 112))
        } else {
            let v = v2(&rig);
            (v.2, v.3)
        };
        let true_stime: u64 = enters.iter().zip(&leaves).map(|(e, l)| l - e).sum();
        let mut true_utime = enters.first().copied().unwrap_or(0);
        true_utime += leaves.iter().zip(enters.iter().skip(1).chain([&last])).map(|(l, e)| e - l).sum::<u64>();
        assert_eq!((stime, utime), (true_stime, true_utime), "{name}");
        assert_eq!(stime + utime, last, "{name}: every cycle since ITC 0 is accounted once");
    }
}

#[test]
fn tick_sampling_charges_a_jiffy_to_the_interrupted_mode() {
    let mut rig = Rig::new(trace("ia64/syscall/none"));
    let before = to_first_break(&mut rig);
    syscall(&mut rig);
    // A tick in user mode, at user_resume.
    rig.m.cpu.external_interrupt().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rig.m.cpu.state.ip, rig.sym("ext_interrupt"));
    rig.run_to_rfi();
    assert_back_in_user(&rig, &before);
    assert_eq!((rig.u64_at(TI + 256), rig.u64_at(TI + 264)), (1, 0));
    // A tick in kernel mode, at syscall_dispatch; the system call then returns normally.
    rig.run_to("syscall_dispatch");
    rig.m.cpu.external_interrupt().unwrap_or_else(|e| panic!("{e}"));
    rig.run_to_rfi();
    assert_eq!(rig.m.cpu.state.ip, rig.sym("syscall_dispatch"));
    assert_eq!(rig.cpl(), 0);
    assert_eq!((rig.u64_at(TI + 256), rig.u64_at(TI + 264)), (1, 1));
    rig.jump("ia64_leave_syscall");
    rig.run_to_rfi();
    assert_back_in_user(&rig, &before);
}

#[test]
fn virtual_accounting_ticks_keep_the_books_consistent() {
    for name in ["ia64/syscall/v1", "ia64/syscall/v2"] {
        let mut rig = Rig::new(trace(name));
        let before = to_first_break(&mut rig);
        syscall(&mut rig);
        rig.m.cpu.advance(U);
        // User-mode tick: account_sys_enter on the way in, the leave accounting on the way out.
        rig.m.cpu.external_interrupt().unwrap_or_else(|e| panic!("{e}"));
        rig.run_to_rfi();
        assert_back_in_user(&rig, &before);
        // Kernel-mode tick: skips the accounting.
        rig.run_to("syscall_dispatch");
        let stamp = rig.u64_at(AC_STAMP);
        rig.m.cpu.external_interrupt().unwrap_or_else(|e| panic!("{e}"));
        rig.run_to_rfi();
        assert_eq!(rig.m.cpu.state.ip, rig.sym("syscall_dispatch"));
        assert_eq!(rig.u64_at(AC_STAMP), stamp, "{name}: a kernel tick does not move the stamp");
        rig.jump("ia64_leave_syscall");
        rig.run_to_rfi();
        assert_back_in_user(&rig, &before);
        rig.run_to("syscall_dispatch");
        let (stime, utime) = if name.ends_with("v1") {
            (rig.u64_at(TI + 104), rig.u64_at(TI + 112))
        } else {
            (rig.u64_at(TI + 112), rig.u64_at(TI + 120))
        };
        assert_eq!(stime + utime, rig.u64_at(AC_STAMP), "{name}: each cycle since ITC 0 is charged once");
    }
}

#[test]
fn v2_fsys_path_charges_at_entry_and_returns_to_user() {
    let mut rig = Rig::new(trace("ia64/syscall/v2"));
    let before = to_first_break(&mut rig);
    syscall(&mut rig);
    let (stamp, t_leave, stime, utime) = v2(&rig);
    rig.m.cpu.advance(U);
    rig.jump("user_fsys");
    rig.run_to("user_fsys_resume");
    assert_eq!(rig.cpl(), 3, "br.ret demotes to the caller's ppl");
    let (t_enter, leave2, stime2, utime2) = v2(&rig);
    assert_eq!(stime2, stime + (t_leave - stamp), "stime before the last leave");
    assert_eq!(utime2, utime + (t_enter - t_leave));
    assert!(leave2 > t_enter, "the scaffold's return stored a new leave time");
    assert_eq!(UserState::of(&rig).cfm_bits(), before.cfm_bits());
}

/// Instruction counts per path as the model runs them, printed for the report
/// (`cargo test -p traces -- --nocapture counts`).
#[test]
fn counts() {
    for name in ["ia64/syscall/none", "ia64/syscall/v1", "ia64/syscall/v2"] {
        let mut rig = Rig::new(trace(name));
        to_first_break(&mut rig);
        syscall(&mut rig);
        rig.m.cpu.advance(U);
        let c0 = rig.m.cpu.summary().cycles;
        let entry = rig.run_to("syscall_dispatch");
        let c1 = rig.m.cpu.summary().cycles;
        rig.jump("ia64_leave_syscall");
        let exit = rig.run_to_rfi();
        let c2 = rig.m.cpu.summary().cycles;
        rig.m.cpu.external_interrupt().unwrap_or_else(|e| panic!("{e}"));
        let tick_user = rig.run_to_rfi();
        let c3 = rig.m.cpu.summary().cycles;
        rig.run_to("syscall_dispatch");
        rig.m.cpu.external_interrupt().unwrap_or_else(|e| panic!("{e}"));
        let c4 = rig.m.cpu.summary().cycles;
        let tick_kernel = rig.run_to_rfi();
        let c5 = rig.m.cpu.summary().cycles;
        rig.jump("ia64_leave_syscall");
        rig.run_to_rfi();
        rig.jump("user_fsys");
        let c6 = rig.m.cpu.summary().cycles;
        let fsys = rig.run_to("user_fsys_resume");
        let c7 = rig.m.cpu.summary().cycles;
        println!(
            "{name}: insns entry {entry} exit {exit} tick(user) {tick_user} tick(kernel) {tick_kernel} fsys {fsys}; \
             cycles entry {} exit {} tick(user) {} tick(kernel) {} fsys {}",
            c1 - c0,
            c2 - c1,
            c3 - c2,
            c5 - c4,
            c7 - c6
        );
        assert!(entry > 0 && exit > 0 && tick_user > 0 && tick_kernel > 0 && fsys > 0);
    }
}
