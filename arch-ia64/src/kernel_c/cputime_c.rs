//! `kernel/sched/cputime.c` of 6.1: the sinks every path of accounting ends in, what the tick
//! does (`account_process_tick`, with the config on an inline of
//! `include/linux/kernel_stat.h`), and the generic halves of the task switch and of the
//! irq transitions.
//!
//! The sinks do not return anything the paths use; their effect is what user space later
//! reads (`p->utime`, `p->stime`, `/proc/stat`'s cpustat), so each call is recorded in the
//! log with its value and index, and the log's sums stand for those fields.

use emu_core::stub::StubError;

use super::time_c;
use super::{CpuStat, Cx, Report, Sink};

/// `SOFTIRQ_OFFSET` (`include/linux/preempt.h:51`).
pub const SOFTIRQ_OFFSET: u64 = 1 << 8;
/// `HARDIRQ_OFFSET` (`include/linux/preempt.h:52`).
pub const HARDIRQ_OFFSET: u64 = 1 << 16;
/// `SOFTIRQ_MASK` (`include/linux/preempt.h:46`).
pub const SOFTIRQ_MASK: u64 = 0xff << 8;
/// `HARDIRQ_MASK` (`include/linux/preempt.h:47`).
pub const HARDIRQ_MASK: u64 = 0xf << 16;
/// `NMI_MASK` (`include/linux/preempt.h:48`).
pub const NMI_MASK: u64 = 0xf << 20;
/// `PF_IDLE` (`include/linux/sched.h:1733`), which `is_idle_task` tests (sched.h:1935-1937).
pub const PF_IDLE: u64 = 0x2;

/// `irq_count()` without PREEMPT_RT (`include/linux/preempt.h:115`).
fn irq_count(cx: &mut Cx<'_, '_>) -> Result<u64, StubError> {
    Ok(cx.preempt_count()? & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))
}

/// `is_idle_task(p)` (`include/linux/sched.h:1935-1937`).
///
/// # Errors
/// `p` is not in memory.
pub fn is_idle_task(cx: &mut Cx<'_, '_>, p: u64) -> Result<bool, StubError> {
    Ok(cx.task_flags(p)? & PF_IDLE != 0)
}

/// Logs one call of a sink at the model's ITC: what the kernel hands to user space.
fn report(
    cx: &mut Cx<'_, '_>,
    caller: &'static str,
    sink: Sink,
    task: Option<u64>,
    nsec: u64,
    cycles: Option<u64>,
    index: CpuStat,
) {
    let itc = cx.guest.itc();
    cx.log.report(Report { itc, caller, sink, task, nsec, cycles, index });
}

/// `account_user_time(p, cputime)` (cputime.c:117-132). The index is CPUTIME_USER:
/// `task_nice(p)` is 0 for the scenario's tasks (a nice task would go to CPUTIME_NICE,
/// cputime.c:125).
///
/// # Errors
/// None today; the signature matches the other sinks.
pub fn account_user_time(
    cx: &mut Cx<'_, '_>,
    caller: &'static str,
    p: u64,
    cputime: u64,
    cycles: Option<u64>,
) -> Result<(), StubError> {
    report(cx, caller, Sink::UserTime, Some(p), cputime, cycles, CpuStat::User);
    Ok(())
}

/// `account_guest_time(p, cputime)` (cputime.c:139-156): adds to `p->utime` and `p->gtime`,
/// and to cpustat USER and GUEST (nice 0).
///
/// # Errors
/// None today.
pub fn account_guest_time(
    cx: &mut Cx<'_, '_>,
    caller: &'static str,
    p: u64,
    cputime: u64,
    cycles: Option<u64>,
) -> Result<(), StubError> {
    report(cx, caller, Sink::GuestTime, Some(p), cputime, cycles, CpuStat::User);
    Ok(())
}

/// `account_system_index_time(p, cputime, index)` (cputime.c:164-176).
///
/// # Errors
/// None today.
pub fn account_system_index_time(
    cx: &mut Cx<'_, '_>,
    caller: &'static str,
    p: u64,
    cputime: u64,
    cycles: Option<u64>,
    index: CpuStat,
) -> Result<(), StubError> {
    report(cx, caller, Sink::SystemIndexTime, Some(p), cputime, cycles, index);
    Ok(())
}

/// `account_idle_time(cputime)` (cputime.c:218-227): CPUTIME_IDLE (no task waits for I/O in
/// the scenario, so `rq->nr_iowait` is 0 and CPUTIME_IOWAIT is never chosen).
pub fn account_idle_time(cx: &mut Cx<'_, '_>, caller: &'static str, cputime: u64, cycles: Option<u64>) {
    report(cx, caller, Sink::IdleTime, None, cputime, cycles, CpuStat::Idle);
}

/// `account_system_time(p, hardirq_offset, cputime)` (cputime.c:184-201).
///
/// # Errors
/// `p` or current's thread_info is not in memory.
pub fn account_system_time(
    cx: &mut Cx<'_, '_>,
    caller: &'static str,
    p: u64,
    hardirq_offset: u64,
    cputime: u64,
) -> Result<(), StubError> {
    let count = cx.preempt_count()?;
    let irqs = count & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK);
    // cputime.c:188-191
    if cx.task_flags(p)? & time_c::PF_VCPU != 0 && irqs.wrapping_sub(hardirq_offset) == 0 {
        return account_guest_time(cx, caller, p, cputime, None);
    }
    // cputime.c:193-198
    let index = if (count & HARDIRQ_MASK).wrapping_sub(hardirq_offset) != 0 {
        CpuStat::Irq
    } else if count & SOFTIRQ_MASK & SOFTIRQ_OFFSET != 0 {
        CpuStat::Softirq
    } else {
        CpuStat::System
    };
    account_system_index_time(cx, caller, p, cputime, None, index)
}

/// `account_process_tick(p, user_tick)`: with the config on, the inline of
/// `include/linux/kernel_stat.h:111-114` (just `vtime_flush(p)`); off, cputime.c:483-509,
/// one whole `TICK_NSEC` to user, system or idle as the tick found the CPU. Steal time is 0
/// (no CONFIG_PARAVIRT, cputime.c:249-263) and `sched_clock_irqtime` is 0 (no
/// CONFIG_IRQ_TIME_ACCOUNTING on ia64).
///
/// # Errors
/// A thread_info is not in memory.
pub fn account_process_tick(cx: &mut Cx<'_, '_>, p: u64, user_tick: bool) -> Result<(), StubError> {
    cx.log.entered("account_process_tick", cx.guest.itc());
    if cx.config.native {
        return time_c::vtime_flush(cx, p);
    }
    let cputime = cx.config.tick_nsec();
    // cputime.c:503-508; `p != this_rq()->idle` is `!is_idle_task(p)` for the scenario's
    // tasks (the idle task is the only one with PF_IDLE).
    if user_tick {
        account_user_time(cx, "account_process_tick", p, cputime, None)
    } else if !is_idle_task(cx, p)? || irq_count(cx)? != HARDIRQ_OFFSET {
        account_system_time(cx, "account_process_tick", p, HARDIRQ_OFFSET, cputime)
    } else {
        account_idle_time(cx, "account_process_tick", cputime, None);
        Ok(())
    }
}

/// `vtime_task_switch(prev)` (cputime.c:424-433), called from `finish_task_switch`
/// (`kernel/sched/core.c:5130`) with `current` the next task; a no-op without the config
/// (`include/linux/vtime.h:117`).
///
/// # Errors
/// A thread_info is not in memory.
pub fn vtime_task_switch(cx: &mut Cx<'_, '_>, prev: u64) -> Result<(), StubError> {
    if !cx.config.native {
        return Ok(());
    }
    cx.log.entered("vtime_task_switch", cx.guest.itc());
    if is_idle_task(cx, prev)? {
        time_c::vtime_account_idle(cx, prev)?;
    } else {
        time_c::vtime_account_kernel(cx, prev)?;
    }
    time_c::vtime_flush(cx, prev)?;
    time_c::arch_vtime_task_switch(cx, prev)
}

/// `vtime_account_irq(tsk, offset)` (cputime.c:436-450), reached from
/// `account_hardirq_enter`/`account_softirq_enter` (`include/linux/vtime.h:138-160`) after
/// the count was raised by `offset`; a no-op without the config (vtime.h:41).
/// CONFIG_HAVE_VIRT_CPU_ACCOUNTING_IDLE is not set on ia64, so an idle task's time is idle.
///
/// # Errors
/// A thread_info is not in memory.
pub fn vtime_account_irq(cx: &mut Cx<'_, '_>, tsk: u64, offset: u64) -> Result<(), StubError> {
    if !cx.config.native {
        return Ok(());
    }
    cx.log.entered("vtime_account_irq", cx.guest.itc());
    let pc = irq_count(cx)?.wrapping_sub(offset);
    if pc & HARDIRQ_OFFSET != 0 {
        time_c::vtime_account_hardirq(cx, tsk)
    } else if pc & SOFTIRQ_OFFSET != 0 {
        time_c::vtime_account_softirq(cx, tsk)
    } else if is_idle_task(cx, tsk)? {
        time_c::vtime_account_idle(cx, tsk)
    } else {
        time_c::vtime_account_kernel(cx, tsk)
    }
}

#[cfg(test)]
mod tests {
    use super::super::guest::testing::FlatCtx;
    use super::super::layout::testing;
    use super::super::{AccountingLog, Guest, KernelCConfig};
    use super::*;
    use emu_core::stub::StubCtx as _;

    const TASK: u64 = 0xe000_0000_0100_0000;
    const IDLE: u64 = 0xe000_0000_0200_0000;

    fn ctx(now: u64) -> FlatCtx {
        let mut c = FlatCtx { now, ..FlatCtx::default() };
        c.map(TASK, 0x1000 + 112);
        c.map(IDLE, 0x1000 + 112);
        c.write(IDLE + 12, 4, PF_IDLE).unwrap();
        c
    }

    fn with<R>(c: &mut FlatCtx, config: &KernelCConfig, f: impl FnOnce(&mut Cx<'_, '_>) -> R) -> (R, AccountingLog) {
        let layout = testing::v2();
        let mut log = AccountingLog::default();
        let mut g = Guest::new(c);
        let mut cx = Cx { guest: &mut g, layout: &layout, config, log: &mut log, current: TASK };
        let r = f(&mut cx);
        (r, log)
    }

    #[test]
    fn without_the_config_a_tick_charges_one_whole_tick_where_it_lands() {
        let config = KernelCConfig { native: false, hz: 250, ..KernelCConfig::default() };
        let mut c = ctx(0);
        let ti_pc = TASK + 0x1000 + 24;
        c.write(ti_pc, 4, HARDIRQ_OFFSET).unwrap();
        let ((), log) = with(&mut c, &config, |cx| {
            account_process_tick(cx, TASK, true).unwrap();
            account_process_tick(cx, TASK, false).unwrap();
        });
        // TICK_NSEC at HZ 250 = (10^9 + 125) / 250 = 4_000_000.
        assert_eq!(log.utime(TASK), 4_000_000);
        assert_eq!(log.stime(TASK), 4_000_000);
        assert_eq!(log.reports[1].index, CpuStat::System, "the tick's own HARDIRQ_OFFSET is not irq time");
        // The idle task ticked in task context is idle; in a softirq it is system.
        let mut c = ctx(0);
        let idle_pc = IDLE + 0x1000 + 24;
        c.write(idle_pc, 4, HARDIRQ_OFFSET).unwrap();
        let layout = testing::v2();
        let mut log = AccountingLog::default();
        let mut g = Guest::new(&mut c);
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: IDLE };
        account_process_tick(&mut cx, IDLE, false).unwrap();
        cx.set_preempt_count(HARDIRQ_OFFSET + SOFTIRQ_OFFSET).unwrap();
        account_process_tick(&mut cx, IDLE, false).unwrap();
        let got: Vec<_> = log.reports.iter().map(|r| (r.sink, r.index)).collect();
        assert_eq!(got, [(Sink::IdleTime, CpuStat::Idle), (Sink::SystemIndexTime, CpuStat::Softirq)]);
    }

    #[test]
    fn with_the_config_the_tick_only_flushes() {
        let config = KernelCConfig::default();
        let mut c = ctx(0);
        c.write(TASK + 0x1000 + 32, 8, 3000).unwrap(); // utime
        let ((), log) = with(&mut c, &config, |cx| account_process_tick(cx, TASK, false).unwrap());
        assert_eq!(log.utime(TASK), 2000);
        assert_eq!(log.stime(TASK), 0);
    }

    #[test]
    fn irq_entry_charges_the_interrupted_context() {
        let config = KernelCConfig::default();
        let stamp = TASK + 0x1000 + 80;
        let pc = TASK + 0x1000 + 24;
        let mut c = ctx(1000);
        c.write(stamp, 8, 400).unwrap();
        // Hard irq entered from task context: count = HARDIRQ_OFFSET, pc = 0: kernel time.
        c.write(pc, 4, HARDIRQ_OFFSET).unwrap();
        let (r, _) = with(&mut c, &config, |cx| {
            vtime_account_irq(cx, TASK, HARDIRQ_OFFSET)?;
            let s = cx.ti_get(TASK, "stime")?;
            // A softirq entered inside the hard irq: pc = HARDIRQ_OFFSET: hard irq time.
            cx.guest.spend(50);
            cx.set_preempt_count(HARDIRQ_OFFSET + SOFTIRQ_OFFSET)?;
            vtime_account_irq(cx, TASK, SOFTIRQ_OFFSET)?;
            Ok::<_, StubError>((s, cx.ti_get(TASK, "hardirq_time")?, cx.ti_get(TASK, "ac_stamp")?))
        });
        assert_eq!(r, Ok((600, 50, 1050)));
    }

    #[test]
    fn a_switch_away_from_the_idle_task_charges_idle_and_reports_it_to_the_cpu() {
        let config = KernelCConfig::default();
        let mut c = ctx(2500);
        c.write(IDLE + 0x1000 + 80, 8, 1000).unwrap();
        let ((), log) = with(&mut c, &config, |cx| vtime_task_switch(cx, IDLE).unwrap());
        assert_eq!(log.reports.len(), 1);
        assert_eq!((log.reports[0].sink, log.reports[0].nsec, log.reports[0].task), (Sink::IdleTime, 1000, None));
        assert_eq!(c.read(TASK + 0x1000 + 80, 8), Ok(2500), "the next task's stamp is the switch");
    }
}
