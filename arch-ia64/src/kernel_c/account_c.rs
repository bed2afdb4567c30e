//! The sinks of `kernel/sched/cputime.c` of 6.1 that every path of accounting ends in
//! (`account_*_time`), with the preempt-count and task-flag tests they make. They sit below
//! both the tick and task-switch halves of cputime.c (`cputime_c`) and the arch's native
//! accounting (`time_c`), which both report through them.
//!
//! The sinks do not return anything the paths use; their effect is what user space later
//! reads (`p->utime`, `p->stime`, `/proc/stat`'s cpustat), so each call is recorded in the
//! log with its value and index, and the log's sums stand for those fields.

use emu_core::stub::StubError;

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
/// `PF_VCPU` (`include/linux/sched.h:1732`).
pub const PF_VCPU: u64 = 0x1;
/// `PF_IDLE` (`include/linux/sched.h:1733`), which `is_idle_task` tests (sched.h:1935-1937).
pub const PF_IDLE: u64 = 0x2;

/// `irq_count()` without PREEMPT_RT (`include/linux/preempt.h:115`).
pub(super) fn irq_count(cx: &mut Cx<'_, '_>) -> Result<u64, StubError> {
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
    if cx.task_flags(p)? & PF_VCPU != 0 && irqs.wrapping_sub(hardirq_offset) == 0 {
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
