//! `arch/ia64/kernel/time.c` of 6.1 under CONFIG_VIRT_CPU_ACCOUNTING_NATIVE (lines 62-170),
//! and `cycle_to_nsec` (`arch/ia64/kernel/head.S:1030-1046`).
//!
//! The assembly keeps `ac_stamp`/`ac_leave`/`ac_stime`/`ac_utime`; this C keeps `utime`,
//! `stime`, `gtime`, `hardirq_time`, `softirq_time` and `idle_time`, in cycles, and
//! `vtime_flush` converts and reports them.

use emu_core::stub::StubError;

use super::account_c;
use super::{CpuStat, Cx};

/// `NSEC_PER_SEC` (`include/vdso/time64.h:11`).
pub const NSEC_PER_SEC: u64 = 1_000_000_000;
/// `IA64_NSEC_PER_CYC_SHIFT` (`arch/ia64/include/asm/processor.h:64`).
pub const IA64_NSEC_PER_CYC_SHIFT: u32 = 30;
/// `PF_VCPU` (`include/linux/sched.h:1732`), which `account_system_time` tests.
pub use super::account_c::PF_VCPU;

/// `cycle_to_nsec(cyc)` (head.S:1030-1046): the 128-bit product of `cyc` and
/// `local_cpu_data->nsec_per_cyc` (`xmpy.lu`/`xmpy.hu`), shifted right by
/// IA64_NSEC_PER_CYC_SHIFT (`shrp r8=r9,r8,30`: the low 64 bits of the shifted product).
pub fn cycle_to_nsec(nsec_per_cyc: u64, cyc: u64) -> u64 {
    ((u128::from(cyc) * u128::from(nsec_per_cyc)) >> IA64_NSEC_PER_CYC_SHIFT) as u64
}

/// `vtime_flush(tsk)` (time.c:68-103): reports each nonzero accumulator, converted by
/// `cycle_to_nsec`, and zeroes all six.
///
/// # Errors
/// `tsk`'s thread_info is not in memory, or the tree lacks the fields.
pub fn vtime_flush(cx: &mut Cx<'_, '_>, tsk: u64) -> Result<(), StubError> {
    cx.log.entered("vtime_flush", cx.guest.itc());
    let npc = cx.config.nsec_per_cyc();
    // time.c:73-74
    let utime = cx.ti_get(tsk, "utime")?;
    if utime != 0 {
        account_c::account_user_time(cx, "vtime_flush", tsk, cycle_to_nsec(npc, utime), Some(utime))?;
    }
    // time.c:76-77
    let gtime = cx.ti_get(tsk, "gtime")?;
    if gtime != 0 {
        account_c::account_guest_time(cx, "vtime_flush", tsk, cycle_to_nsec(npc, gtime), Some(gtime))?;
    }
    // time.c:79-80
    let idle = cx.ti_get(tsk, "idle_time")?;
    if idle != 0 {
        account_c::account_idle_time(cx, "vtime_flush", cycle_to_nsec(npc, idle), Some(idle));
    }
    // time.c:82-95: stime, hardirq_time, softirq_time to their indices.
    for (field, index) in
        [("stime", CpuStat::System), ("hardirq_time", CpuStat::Irq), ("softirq_time", CpuStat::Softirq)]
    {
        let v = cx.ti_get(tsk, field)?;
        if v != 0 {
            account_c::account_system_index_time(cx, "vtime_flush", tsk, cycle_to_nsec(npc, v), Some(v), index)?;
        }
    }
    // time.c:97-102
    for field in ["utime", "gtime", "idle_time", "stime", "hardirq_time", "softirq_time"] {
        cx.ti_set(tsk, field, 0)?;
    }
    Ok(())
}

/// `arch_vtime_task_switch(prev)` (time.c:110-117), run with `current` already the next task:
/// the next task takes over prev's stamp and starts with empty `ac_stime`/`ac_utime`.
///
/// # Errors
/// A thread_info is not in memory.
pub fn arch_vtime_task_switch(cx: &mut Cx<'_, '_>, prev: u64) -> Result<(), StubError> {
    cx.log.entered("arch_vtime_task_switch", cx.guest.itc());
    let next = cx.current;
    // time.c:115
    let stamp = cx.ti_get(prev, "ac_stamp")?;
    cx.ti_set(next, "ac_stamp", stamp)?;
    // time.c:116: whatever the assembly summed into next's ac_stime/ac_utime is dropped;
    // the log keeps it as evidence.
    let itc = cx.guest.itc();
    for field in ["ac_stime", "ac_utime"] {
        let v = cx.ti_get(next, field)?;
        if v != 0 {
            cx.log.discarded.push((itc, next, field, v));
        }
    }
    cx.ti_set(next, "ac_stime", 0)?;
    cx.ti_set(next, "ac_utime", 0)
}

/// `vtime_delta(tsk)` (time.c:123-135): cycles since `ac_stamp`, which becomes now.
fn vtime_delta(cx: &mut Cx<'_, '_>, tsk: u64) -> Result<u64, StubError> {
    // time.c:130-132
    let now = cx.guest.itc();
    let delta = now.wrapping_sub(cx.ti_get(tsk, "ac_stamp")?);
    cx.ti_set(tsk, "ac_stamp", now)?;
    Ok(delta)
}

fn add_to(cx: &mut Cx<'_, '_>, tsk: u64, field: &str, delta: u64) -> Result<(), StubError> {
    let v = cx.ti_get(tsk, field)?;
    cx.ti_set(tsk, field, v.wrapping_add(delta))
}

/// `vtime_account_kernel(tsk)` (time.c:137-146): the delta goes to `gtime` for a PF_VCPU
/// task, else to `stime`.
///
/// # Errors
/// A field is not in memory.
pub fn vtime_account_kernel(cx: &mut Cx<'_, '_>, tsk: u64) -> Result<(), StubError> {
    cx.log.entered("vtime_account_kernel", cx.guest.itc());
    let delta = vtime_delta(cx, tsk)?;
    // time.c:142-145
    let field = if cx.task_flags(tsk)? & PF_VCPU != 0 { "gtime" } else { "stime" };
    add_to(cx, tsk, field, delta)
}

/// `vtime_account_idle(tsk)` (time.c:149-154).
///
/// # Errors
/// A field is not in memory.
pub fn vtime_account_idle(cx: &mut Cx<'_, '_>, tsk: u64) -> Result<(), StubError> {
    cx.log.entered("vtime_account_idle", cx.guest.itc());
    let delta = vtime_delta(cx, tsk)?;
    add_to(cx, tsk, "idle_time", delta)
}

/// `vtime_account_softirq(tsk)` (time.c:156-161).
///
/// # Errors
/// A field is not in memory.
pub fn vtime_account_softirq(cx: &mut Cx<'_, '_>, tsk: u64) -> Result<(), StubError> {
    cx.log.entered("vtime_account_softirq", cx.guest.itc());
    let delta = vtime_delta(cx, tsk)?;
    add_to(cx, tsk, "softirq_time", delta)
}

/// `vtime_account_hardirq(tsk)` (time.c:163-168).
///
/// # Errors
/// A field is not in memory.
pub fn vtime_account_hardirq(cx: &mut Cx<'_, '_>, tsk: u64) -> Result<(), StubError> {
    cx.log.entered("vtime_account_hardirq", cx.guest.itc());
    let delta = vtime_delta(cx, tsk)?;
    add_to(cx, tsk, "hardirq_time", delta)
}

#[cfg(test)]
mod tests {
    use super::super::guest::testing::FlatCtx;
    use super::super::layout::testing;
    use super::super::{AccountingLog, Guest, KernelCConfig, Sink};
    use super::*;
    use emu_core::stub::StubCtx as _;

    pub(crate) const TASK: u64 = 0xe000_0000_0100_0000;

    fn ti(name: &str) -> u64 {
        testing::v2().ti_addr(TASK, name).unwrap()
    }

    fn setup(now: u64) -> FlatCtx {
        let mut ctx = FlatCtx { now, ..FlatCtx::default() };
        ctx.map(TASK, 0x1000 + 112);
        ctx
    }

    #[test]
    fn cycle_to_nsec_at_1_5_ghz_rounds_down_through_the_30_bit_fixed_point() {
        let cfg = KernelCConfig::default();
        // (10^9 << 30 + 750_000_000) / 1_500_000_000 = 715_827_883 (715_827_882.67 rounded).
        assert_eq!(cfg.nsec_per_cyc(), 715_827_883);
        // 1500 cycles: 1500 * 715827883 = 1_073_741_824_500; >> 30 = 1000 (+ 500/2^30).
        assert_eq!(cycle_to_nsec(cfg.nsec_per_cyc(), 1500), 1000);
        // 3 cycles = 2 ns exactly in reals; 3 * 715827883 = 2147483649 >> 30 = 2.
        assert_eq!(cycle_to_nsec(cfg.nsec_per_cyc(), 3), 2);
        // 1 cycle: 0.666... ns, truncated to 0.
        assert_eq!(cycle_to_nsec(cfg.nsec_per_cyc(), 1), 0);
        // The 128-bit product keeps a full 64-bit result: 2^40 cycles = 733_007_752_192 ns.
        assert_eq!(cycle_to_nsec(cfg.nsec_per_cyc(), 1 << 40), 733_007_752_192);
    }

    #[test]
    fn account_kernel_charges_since_the_stamp_and_moves_it_and_flush_reports_then_zeroes() {
        let layout = testing::v2();
        let config = KernelCConfig::default();
        let mut ctx = setup(10_000);
        ctx.write(ti("ac_stamp"), 8, 7_000).unwrap();
        ctx.write(ti("stime"), 8, 500).unwrap();
        ctx.write(ti("hardirq_time"), 8, 1500).unwrap();
        ctx.write(ti("ac_utime"), 8, 123_456).unwrap();
        let mut log = AccountingLog::default();
        let mut g = Guest::new(&mut ctx);
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: TASK };
        vtime_account_kernel(&mut cx, TASK).unwrap();
        // stime = 500 + (10_000 - 7_000); the stamp is now.
        assert_eq!(cx.ti_get(TASK, "stime"), Ok(3500));
        assert_eq!(cx.ti_get(TASK, "ac_stamp"), Ok(10_000));
        vtime_flush(&mut cx, TASK).unwrap();
        for f in ["utime", "stime", "gtime", "hardirq_time", "softirq_time", "idle_time"] {
            assert_eq!(cx.ti_get(TASK, f), Ok(0), "{f}");
        }
        // ac_utime is the assembly's: vtime_flush neither reads nor clears it.
        assert_eq!(cx.ti_get(TASK, "ac_utime"), Ok(123_456));
        let got: Vec<_> = log.reports.iter().map(|r| (r.sink, r.index, r.nsec, r.cycles)).collect();
        assert_eq!(
            got,
            [
                (Sink::SystemIndexTime, CpuStat::System, cycle_to_nsec(config.nsec_per_cyc(), 3500), Some(3500)),
                (Sink::SystemIndexTime, CpuStat::Irq, 1000, Some(1500)),
            ]
        );
        assert_eq!(log.stime(TASK), 2333 + 1000);
        assert_eq!(log.utime(TASK), 0);
    }

    #[test]
    fn a_vcpu_task_accounts_kernel_time_as_guest_time_which_counts_as_user() {
        let layout = testing::v2();
        let config = KernelCConfig::default();
        let mut ctx = setup(3000);
        ctx.write(TASK + 12, 4, PF_VCPU).unwrap();
        let mut log = AccountingLog::default();
        let mut g = Guest::new(&mut ctx);
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: TASK };
        vtime_account_kernel(&mut cx, TASK).unwrap();
        vtime_flush(&mut cx, TASK).unwrap();
        assert_eq!(log.utime(TASK), 2000);
        assert_eq!(log.cpustat()[CpuStat::Guest as usize], 2000);
        assert_eq!(log.cpustat()[CpuStat::User as usize], 2000);
    }

    #[test]
    fn the_next_task_takes_the_stamp_and_starts_with_empty_assembly_sums() {
        let layout = testing::v2();
        let config = KernelCConfig::default();
        let next = TASK + 0x10_0000;
        let mut ctx = setup(0);
        ctx.map(next, 0x1000 + 112);
        ctx.write(ti("ac_stamp"), 8, 4242).unwrap();
        let nti = |f| layout.ti_addr(next, f).unwrap();
        ctx.write(nti("ac_stime"), 8, 9).unwrap();
        ctx.write(nti("ac_utime"), 8, 9).unwrap();
        ctx.write(nti("stime"), 8, 9).unwrap();
        let mut log = AccountingLog::default();
        let mut g = Guest::new(&mut ctx);
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: next };
        arch_vtime_task_switch(&mut cx, TASK).unwrap();
        assert_eq!(cx.ti_get(next, "ac_stamp"), Ok(4242));
        assert_eq!((cx.ti_get(next, "ac_stime"), cx.ti_get(next, "ac_utime")), (Ok(0), Ok(0)));
        assert_eq!(cx.ti_get(next, "stime"), Ok(9), "the C fields are left alone");
    }

    #[test]
    fn a_tree_without_the_field_is_an_error_naming_it() {
        let layout = testing::v1();
        let config = KernelCConfig::default();
        let mut ctx = setup(0);
        let mut log = AccountingLog::default();
        let mut g = Guest::new(&mut ctx);
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: TASK };
        let e = cx.ti_get(TASK, "ac_leave").unwrap_err();
        assert_eq!(e.0, "this tree's struct thread_info has no member ac_leave");
    }
}
