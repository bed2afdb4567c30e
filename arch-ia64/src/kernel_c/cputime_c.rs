//! `kernel/sched/cputime.c` of 6.1: what the tick does (`account_process_tick`, with the
//! config on an inline of `include/linux/kernel_stat.h`), and the generic halves of the task
//! switch and of the irq transitions. The sinks every path ends in are `account_c`'s
//! (re-exported here, their kernel file's name); they sit below both this and `time_c`.

use emu_core::stub::StubError;

use super::account_c::irq_count;
pub use super::account_c::{
    account_guest_time, account_idle_time, account_system_index_time, account_system_time, account_user_time,
    is_idle_task, HARDIRQ_MASK, HARDIRQ_OFFSET, NMI_MASK, PF_IDLE, SOFTIRQ_MASK, SOFTIRQ_OFFSET,
};
use super::time_c;
use super::Cx;

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
    use super::super::{AccountingLog, CpuStat, Guest, KernelCConfig, Sink};
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
