//! The C the tick and a task switch run around the accounting functions: what
//! `ia64_handle_irq` (`arch/ia64/kernel/irq_ia64.c:429-505`) does for the timer vector, and
//! what `__schedule` does on a switch to another task and back.
//!
//! None of this C is emulated instruction by instruction; its cost is stated per step
//! ([`CTiming`], every figure a GUESS: no measurement of these functions on Itanium 2 is at
//! hand), and the ITC the accounting reads at each step is the stub's entry time plus the
//! steps before it.

use emu_core::stub::StubError;

use super::cputime_c::{self, HARDIRQ_OFFSET, SOFTIRQ_OFFSET};
use super::Cx;

/// `TIF_NEED_RESCHED` (`arch/ia64/include/asm/thread_info.h:100`).
pub const TIF_NEED_RESCHED: u32 = 1;
/// The interval timer's vector, `IA64_TIMER_VECTOR` (`arch/ia64/include/asm/hw_irq.h:72`).
pub const IA64_TIMER_VECTOR: u64 = 0xef;

/// Cycles of the C steps around the accounting calls. All GUESS figures (named so a run can
/// state them; none is tuned toward any result).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CTiming {
    /// GUESS: from `ia64_handle_irq`'s entry to the ITC read of `irq_enter`'s
    /// `vtime_account_irq` (set_irq_regs, `ct_irq_enter`, `__irq_enter_raw`).
    pub irq_enter: u64,
    /// GUESS: from there to `account_process_tick` (TPR, `generic_handle_irq`,
    /// `timer_interrupt`, `legacy_timer_tick`'s `do_timer` and `update_wall_time`).
    pub to_tick: u64,
    /// GUESS: from the tick's flush to `account_hardirq_exit` (`run_local_timers`, RCU, the
    /// scheduler tick, EOI, the re-read of cr.ivr, `irq_exit`).
    pub to_irq_exit: u64,
    /// GUESS: from there to `account_softirq_enter` in `handle_softirqs`.
    pub to_softirq: u64,
    /// GUESS: the timer softirq's body, to `account_softirq_exit`.
    pub softirq: u64,
    /// GUESS: from there to the return to `ia64_leave_kernel`.
    pub irq_return: u64,
    /// GUESS: `preempt_schedule_irq` to `finish_task_switch`'s `vtime_task_switch`, each way.
    pub switch: u64,
    /// GUESS: from `vtime_task_switch` to the return, each way.
    pub switch_return: u64,
    /// GUESS: one accounting function called on its own (the per-function stubs).
    pub call: u64,
}

impl Default for CTiming {
    fn default() -> CTiming {
        CTiming {
            irq_enter: 120,
            to_tick: 900,
            to_irq_exit: 700,
            to_softirq: 150,
            softirq: 600,
            irq_return: 100,
            switch: 800,
            switch_return: 300,
            call: 40,
        }
    }
}

/// What the timer interrupt found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickOutcome {
    /// `user_mode(regs)` (`arch/ia64/include/asm/ptrace.h:90`): the interrupted PSR's cpl.
    pub user_tick: bool,
}

/// `ia64_handle_irq(IA64_TIMER_VECTOR, regs)` as far as accounting goes: `irq_enter`
/// (`kernel/softirq.c:650-654`, 636-645: `__irq_enter_raw` raises the count by HARDIRQ_OFFSET,
/// `include/linux/hardirq.h:46-50`, then `account_hardirq_enter`), the timer
/// (`update_process_times(user_mode(get_irq_regs()))`, `kernel/time/tick-legacy.c:35`, which
/// calls `account_process_tick`, `kernel/time/timer.c:2070`, and raises TIMER_SOFTIRQ,
/// timer.c:2058), then `irq_exit` (softirq.c:669-680: `account_hardirq_exit`, the count
/// lowered, the pending softirq run by `handle_softirqs` between `account_softirq_enter` and
/// `account_softirq_exit`, softirq.c:574, 622, with the count raised by SOFTIRQ_OFFSET,
/// softirq_handle_begin/end, softirq.c:432-440, 572, 624).
///
/// `regs` is the pt_regs the assembly passed (out1). The ITC moves by `timing`'s steps.
///
/// # Errors
/// Memory the C reads is not there.
pub fn timer_interrupt(cx: &mut Cx<'_, '_>, regs: u64, timing: &CTiming) -> Result<TickOutcome, StubError> {
    cx.log.entered("ia64_handle_irq", cx.guest.itc());
    let current = cx.current;
    let ipsr = cx.guest.ld8(regs.wrapping_add(cx.layout.pt_cr_ipsr))?;
    // ptrace.h:90: cpl is psr bits 32-33 (kregs.h:59-60).
    let user_tick = (ipsr >> 32) & 3 != 0;
    cx.log.ticks.push((cx.guest.itc(), user_tick));
    let base = cx.preempt_count()?;

    cx.guest.spend(timing.irq_enter);
    cx.set_preempt_count(base.wrapping_add(HARDIRQ_OFFSET))?;
    cputime_c::vtime_account_irq(cx, current, HARDIRQ_OFFSET)?;

    cx.guest.spend(timing.to_tick);
    cputime_c::account_process_tick(cx, current, user_tick)?;

    cx.guest.spend(timing.to_irq_exit);
    // vtime.h:156-160: account_hardirq_exit is vtime_account_hardirq (a no-op without the
    // config, vtime.h:43).
    if cx.config.native {
        super::time_c::vtime_account_hardirq(cx, current)?;
    }
    cx.set_preempt_count(base)?;

    // softirq.c:678-679: not in interrupt and TIMER_SOFTIRQ pending.
    if base & (cputime_c::HARDIRQ_MASK | cputime_c::SOFTIRQ_MASK | cputime_c::NMI_MASK) == 0 {
        cx.guest.spend(timing.to_softirq);
        cx.set_preempt_count(base.wrapping_add(SOFTIRQ_OFFSET))?;
        cputime_c::vtime_account_irq(cx, current, SOFTIRQ_OFFSET)?;
        cx.guest.spend(timing.softirq);
        // vtime.h:144-148
        if cx.config.native {
            super::time_c::vtime_account_softirq(cx, current)?;
        }
        cx.set_preempt_count(base)?;
    }
    cx.guest.spend(timing.irq_return);
    Ok(TickOutcome { user_tick })
}

/// Sets TIF_NEED_RESCHED in `task`'s thread_info flags (`resched_curr`, which the scheduler
/// tick calls when the task's slice is over), so the return path calls
/// `preempt_schedule_irq` (`arch/ia64/kernel/entry.S:1131-1134`).
///
/// # Errors
/// The memory is not there.
pub fn set_need_resched(cx: &mut Cx<'_, '_>, task: u64) -> Result<(), StubError> {
    let a = task.wrapping_add(cx.layout.task_size).wrapping_add(cx.layout.ti_flags);
    let f = cx.guest.read(a, 4)?;
    cx.guest.write(a, 4, f | 1 << TIF_NEED_RESCHED)
}

/// A switch from `current` to `peer`, which runs `peer_cycles`, and back: each way
/// `finish_task_switch` calls `vtime_task_switch(prev)` with `current` already the next task
/// (`kernel/sched/core.c:5130`). TIF_NEED_RESCHED is cleared first (`__schedule`'s
/// `clear_tsk_need_resched(prev)`). Returns the interval `current` was off the CPU, as ITC
/// values (out, in).
///
/// # Errors
/// Memory the C reads is not there.
pub fn switch_round_trip(
    cx: &mut Cx<'_, '_>,
    peer: u64,
    peer_cycles: u64,
    timing: &CTiming,
) -> Result<(u64, u64), StubError> {
    cx.log.entered("preempt_schedule_irq", cx.guest.itc());
    let me = cx.current;
    let a = me.wrapping_add(cx.layout.task_size).wrapping_add(cx.layout.ti_flags);
    let f = cx.guest.read(a, 4)?;
    cx.guest.write(a, 4, f & !(1 << TIF_NEED_RESCHED))?;

    cx.guest.spend(timing.switch);
    let out = cx.guest.itc();
    cx.current = peer;
    cputime_c::vtime_task_switch(cx, me)?;
    cx.guest.spend(timing.switch_return.wrapping_add(peer_cycles).wrapping_add(timing.switch));
    let back = cx.guest.itc();
    cx.current = me;
    cputime_c::vtime_task_switch(cx, peer)?;
    cx.guest.spend(timing.switch_return);
    cx.log.switches.push((out, back));
    Ok((out, back))
}

#[cfg(test)]
mod tests {
    use super::super::guest::testing::FlatCtx;
    use super::super::guest::PrivateMemory;
    use super::super::layout::testing;
    use super::super::{AccountingLog, CpuStat, Guest, KernelCConfig, Sink};
    use super::*;
    use emu_core::stub::StubCtx as _;

    const TASK: u64 = 0xe000_0000_0100_0000;
    const REGS: u64 = TASK + 0x8000 - 448;
    const PEER: u64 = 0xe000_0000_0900_0000;

    fn timing() -> CTiming {
        CTiming {
            irq_enter: 10,
            to_tick: 20,
            to_irq_exit: 30,
            to_softirq: 40,
            softirq: 50,
            irq_return: 60,
            switch: 70,
            switch_return: 80,
            call: 5,
        }
    }

    fn ctx(now: u64, cpl: u64) -> FlatCtx {
        let mut c = FlatCtx { now, ..FlatCtx::default() };
        c.map(TASK, 0x8000);
        c.write(REGS + 64, 8, cpl << 32).unwrap();
        c
    }

    /// A tick from user mode on 6.1 (V.2): the assembly's entry set ac_stamp to the entry
    /// time (ac_utime/ac_stime got the user and earlier system time). The C then charges
    /// only what it sees since the stamp.
    #[test]
    fn a_tick_from_user_reports_only_the_time_since_the_entry_stamp() {
        let layout = testing::v2();
        let config = KernelCConfig::default();
        let mut c = ctx(1_000_000, 3);
        let ti = |f| layout.ti_addr(TASK, f).unwrap();
        c.write(ti("ac_stamp"), 8, 1_000_000 - 300).unwrap();
        c.write(ti("ac_utime"), 8, 999_000).unwrap();
        let mut log = AccountingLog::default();
        let mut g = Guest::new(&mut c);
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: TASK };
        let out = timer_interrupt(&mut cx, REGS, &timing()).unwrap();
        assert!(out.user_tick);
        assert_eq!(cx.guest.elapsed(), 210);
        // irq_enter at +10: stime += 310 (300 of the assembly's entry + 10).
        // flush at +30: reports stime 310 cycles = 206 ns; nothing else is nonzero.
        // irq_exit at +60: hardirq_time = 50; softirq enter at +100: stime = 40;
        // softirq exit at +150: softirq_time = 50 (reported at the next flush).
        assert_eq!(cx.log.reports.len(), 1);
        assert_eq!(
            (cx.log.reports[0].sink, cx.log.reports[0].index, cx.log.reports[0].cycles),
            (Sink::SystemIndexTime, CpuStat::System, Some(310))
        );
        assert_eq!(cx.ti_get(TASK, "hardirq_time"), Ok(50));
        assert_eq!(cx.ti_get(TASK, "stime"), Ok(40));
        assert_eq!(cx.ti_get(TASK, "softirq_time"), Ok(50));
        assert_eq!(cx.ti_get(TASK, "utime"), Ok(0));
        assert_eq!(cx.ti_get(TASK, "ac_utime"), Ok(999_000), "no C reads the assembly's user sum");
        assert_eq!(cx.preempt_count(), Ok(0));
        assert_eq!(cx.log.utime(TASK), 0);
    }

    #[test]
    fn without_the_config_the_tick_charges_a_whole_tick_to_the_mode_it_found() {
        let layout = testing::v2();
        let config = KernelCConfig { native: false, ..KernelCConfig::default() };
        let mut c = ctx(0, 0);
        let mut log = AccountingLog::default();
        let mut g = Guest::new(&mut c);
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: TASK };
        let out = timer_interrupt(&mut cx, REGS, &timing()).unwrap();
        assert!(!out.user_tick);
        assert_eq!(cx.log.reports.len(), 1);
        assert_eq!((cx.log.reports[0].index, cx.log.reports[0].nsec), (CpuStat::System, 4_000_000));
    }

    #[test]
    fn a_round_trip_to_the_idle_task_flushes_both_and_hands_the_stamp_back() {
        let layout = testing::v2();
        let config = KernelCConfig::default();
        let mut c = ctx(5000, 0);
        let ti = |f| layout.ti_addr(TASK, f).unwrap();
        c.write(ti("ac_stamp"), 8, 4000).unwrap();
        c.write(ti("utime"), 8, 1500).unwrap();
        c.write(TASK + 0x1000 + 8, 4, 1 << TIF_NEED_RESCHED).unwrap();
        let mut private = PrivateMemory::default();
        private.add_block(PEER, 0x1000 + 112);
        let mut g = Guest::with_private(&mut c, &mut private);
        g.write(PEER + 12, 4, cputime_c::PF_IDLE).unwrap();
        let mut log = AccountingLog::default();
        let mut cx = Cx { guest: &mut g, layout: &layout, config: &config, log: &mut log, current: TASK };
        let (out, back) = switch_round_trip(&mut cx, PEER, 1000, &timing()).unwrap();
        assert_eq!((out, back), (5070, 5070 + 80 + 1000 + 70));
        assert_eq!(cx.current, TASK);
        assert_eq!(cx.guest.read(TASK + 0x1000 + 8, 4), Ok(0));
        // Out: stime 1070 cycles (since 4000) and utime 1500, reported for TASK.
        // Back: the idle task's 1150 cycles to idle; TASK's stamp = the switch back.
        let got: Vec<_> = cx.log.reports.iter().map(|r| (r.sink, r.task, r.cycles)).collect();
        assert_eq!(
            got,
            [
                (Sink::UserTime, Some(TASK), Some(1500)),
                (Sink::SystemIndexTime, Some(TASK), Some(1070)),
                (Sink::IdleTime, None, Some(1150)),
            ]
        );
        assert_eq!(cx.ti_get(TASK, "ac_stamp"), Ok(back));
        assert_eq!(cx.log.switches, [(out, back)]);
    }
}
