//! The truth against what the kernel reported.
//!
//! The emulator knows the mode of every cycle (psr.cpl): [`AccountingTruth`] is fed each
//! user/kernel transition of the scenario's task with the model's clock, and sums the true
//! user and system cycles. [`compare`] sets them against the [`AccountingLog`] of the run:
//! the values the C handed to the sinks for that task, and says where the rest of the time
//! is (still pending in the C's accumulators, held in the assembly's `ac_*` sums no C
//! reads, dropped by a task switch, or nowhere).

use std::fmt;

use super::time_c::NSEC_PER_SEC;
use super::{AccountingLog, CpuStat, KernelCConfig, Sink};

/// The mode a cycle runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// psr.cpl = 3.
    User,
    /// psr.cpl = 0 (the kernel, including the gate page after `epc`).
    Kernel,
}

/// True user and system time of one task, from its transitions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountingTruth {
    mode: Mode,
    start: u64,
    since: u64,
    /// Cycles in user mode so far.
    pub user_cycles: u64,
    /// Cycles in kernel mode so far (including any time off the CPU: see [`compare`]).
    pub kernel_cycles: u64,
    /// Transitions seen.
    pub transitions: u64,
}

impl AccountingTruth {
    /// The task starts in `mode` at ITC `at`.
    pub fn new(at: u64, mode: Mode) -> AccountingTruth {
        AccountingTruth { mode, start: at, since: at, user_cycles: 0, kernel_cycles: 0, transitions: 0 }
    }

    /// The ITC the run started at.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The ITC of the last transition (the end, after [`AccountingTruth::finish`]).
    pub fn end(&self) -> u64 {
        self.since
    }

    /// The mode changes to `mode` at `at` (a repeated mode only closes the span).
    ///
    /// # Errors
    /// `at` is before the previous transition.
    pub fn transition(&mut self, at: u64, mode: Mode) -> Result<(), String> {
        self.close(at)?;
        if mode != self.mode {
            self.transitions += 1;
        }
        self.mode = mode;
        Ok(())
    }

    /// A transition given as the new psr.cpl (0 kernel, anything else user).
    ///
    /// # Errors
    /// As [`AccountingTruth::transition`].
    pub fn cpl(&mut self, at: u64, cpl: u8) -> Result<(), String> {
        self.transition(at, if cpl == 0 { Mode::Kernel } else { Mode::User })
    }

    /// Ends the run at `at`, the current span counted.
    ///
    /// # Errors
    /// As [`AccountingTruth::transition`].
    pub fn finish(&mut self, at: u64) -> Result<(), String> {
        self.close(at)
    }

    fn close(&mut self, at: u64) -> Result<(), String> {
        let d = at.checked_sub(self.since).ok_or_else(|| format!("transition at {at} before {}", self.since))?;
        match self.mode {
            Mode::User => self.user_cycles += d,
            Mode::Kernel => self.kernel_cycles += d,
        }
        self.since = at;
        Ok(())
    }
}

/// `cycles` of the ITC in ns, exactly (rounded to nearest): the truth's conversion, which
/// is not the kernel's fixed-point one.
pub fn cycles_to_ns(cycles: u64, itc_freq: u64) -> u64 {
    let f = u128::from(itc_freq.max(1));
    ((u128::from(cycles) * u128::from(NSEC_PER_SEC) + f / 2) / f) as u64
}

/// One field's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldVerdict {
    /// True time, ns.
    pub true_ns: u64,
    /// What the sinks were given for the task, ns.
    pub reported_ns: u64,
    /// reported - true, ns.
    pub diff_ns: i128,
    /// |diff| <= the tolerance.
    pub within: bool,
}

impl FieldVerdict {
    fn new(true_ns: u64, reported_ns: u64, tolerance: u64) -> FieldVerdict {
        let diff_ns = i128::from(reported_ns) - i128::from(true_ns);
        FieldVerdict { true_ns, reported_ns, diff_ns, within: diff_ns.unsigned_abs() <= u128::from(tolerance) }
    }

    /// diff as a percentage of the truth (0 when the truth is 0).
    pub fn percent(&self) -> f64 {
        if self.true_ns == 0 {
            0.0
        } else {
            self.diff_ns as f64 * 100.0 / self.true_ns as f64
        }
    }
}

/// The check of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct AccountingVerdict {
    /// User time.
    pub utime: FieldVerdict,
    /// System time (every index: SYSTEM, IRQ, SOFTIRQ).
    pub stime: FieldVerdict,
    /// The tolerance, ns: the time from the kernel's last flush (`vtime_flush` or, without
    /// the config, `account_process_tick`) to the end of the run, which no kernel could have
    /// reported yet, plus 1 ns per report (`cycle_to_nsec` truncates).
    pub tolerance_ns: u64,
    /// Cycles the task was off the CPU (switched out), taken off the true system time.
    pub off_cpu_cycles: u64,
    /// Where the task's time is, ns (`name`, value).
    pub breakdown: Vec<(String, u64)>,
    /// The truth (user + system) minus everything in [`AccountingVerdict::breakdown`], ns: the
    /// time no field holds (since the last stamp at the end of the run, and what the stamps
    /// put on the wrong side of a transition they do not sit on).
    pub unexplained_ns: i128,
    /// Why the reported values differ, one line each, with the evidence.
    pub reasons: Vec<String>,
}

impl AccountingVerdict {
    /// Both fields within tolerance.
    pub fn correct(&self) -> bool {
        self.utime.within && self.stime.within
    }
}

/// The truth of `task` against `log`. `ti` is the task's thread_info accounting fields at
/// the end of the run (`KernelState::thread_info`): pending C sums and the assembly's.
pub fn compare(
    truth: &AccountingTruth,
    log: &AccountingLog,
    task: u64,
    ti: &[(&'static str, Option<u64>)],
    config: &KernelCConfig,
) -> AccountingVerdict {
    let f = config.itc_freq;
    let off_cpu: u64 = log.switches.iter().map(|(o, b)| b.saturating_sub(*o)).sum();
    let true_user = cycles_to_ns(truth.user_cycles, f);
    let true_sys = cycles_to_ns(truth.kernel_cycles.saturating_sub(off_cpu), f);
    let reports = log.reports.iter().filter(|r| r.task == Some(task)).count() as u64;
    let last_flush = log
        .calls
        .iter()
        .filter(|c| c.0 == "vtime_flush" || c.0 == "account_process_tick")
        .map(|c| c.1)
        .max()
        .unwrap_or(truth.start())
        .max(truth.start());
    let tolerance_ns = cycles_to_ns(truth.end().saturating_sub(last_flush), f).saturating_add(reports);
    let utime = FieldVerdict::new(true_user, log.utime(task), tolerance_ns);
    let stime = FieldVerdict::new(true_sys, log.stime(task), tolerance_ns);

    let field = |n: &str| ti.iter().find(|t| t.0 == n).and_then(|t| t.1).unwrap_or(0);
    let mut breakdown = vec![
        ("reported user (account_user_time + account_guest_time)".to_string(), log.utime(task)),
        ("reported system, CPUTIME_SYSTEM".to_string(), log.task_index(task, CpuStat::System)),
        ("reported system, CPUTIME_IRQ".to_string(), log.task_index(task, CpuStat::Irq)),
        ("reported system, CPUTIME_SOFTIRQ".to_string(), log.task_index(task, CpuStat::Softirq)),
    ];
    let pending: u64 = ["utime", "stime", "gtime", "hardirq_time", "softirq_time"].iter().map(|n| field(n)).sum();
    breakdown.push((
        "pending in thread_info utime/stime/gtime/hardirq_time/softirq_time (next flush)".into(),
        cycles_to_ns(pending, f),
    ));
    let asm_u = field("ac_utime");
    let asm_s = field("ac_stime");
    breakdown.push(("held in thread_info.ac_utime (entry assembly)".into(), cycles_to_ns(asm_u, f)));
    breakdown.push(("held in thread_info.ac_stime (entry/exit assembly)".into(), cycles_to_ns(asm_s, f)));
    let dropped_u: u64 = log.discarded.iter().filter(|d| d.1 == task && d.2 == "ac_utime").map(|d| d.3).sum();
    let dropped_s: u64 = log.discarded.iter().filter(|d| d.1 == task && d.2 == "ac_stime").map(|d| d.3).sum();
    breakdown.push(("zeroed in ac_utime by arch_vtime_task_switch".into(), cycles_to_ns(dropped_u, f)));
    breakdown.push(("zeroed in ac_stime by arch_vtime_task_switch".into(), cycles_to_ns(dropped_s, f)));
    let known: u64 = breakdown.iter().map(|b| b.1).sum();
    let total = true_user.saturating_add(true_sys);
    let unexplained_ns = i128::from(total) - i128::from(known);

    let mut reasons = Vec::new();
    for (name, v) in [("utime", &utime), ("stime", &stime)] {
        if !v.within {
            reasons.push(format!(
                "{name}: true {} ns, reported {} ns ({:+} ns, {:+.1}%), beyond the tolerance of {tolerance_ns} ns",
                v.true_ns,
                v.reported_ns,
                v.diff_ns,
                v.percent()
            ));
        }
    }
    if !(utime.within && stime.within) {
        if asm_u + asm_s + dropped_u + dropped_s > 0 && config.native {
            reasons.push(format!(
                "{} ns sit in (or were zeroed from) thread_info.ac_utime and {} ns in ac_stime: the entry assembly \
                 sums user and system cycles there, but no C function of this tree reads them: vtime_flush reports \
                 utime/stime/gtime/idle_time/hardirq_time/softirq_time (time.c:68-103), which only the vtime_account_* \
                 functions fill with the time since ac_stamp (time.c:123-168), and arch_vtime_task_switch zeroes ac_stime \
                 and ac_utime (time.c:116)",
                cycles_to_ns(asm_u + dropped_u, f),
                cycles_to_ns(asm_s + dropped_s, f)
            ));
        }
        let flush_reports = log.reports.iter().filter(|r| r.task == Some(task) && r.caller == "vtime_flush").count();
        let users = log.reports.iter().filter(|r| r.task == Some(task) && r.sink == Sink::UserTime).count();
        if config.native {
            reasons.push(format!(
                "{} flushes ({} calls to vtime_flush) made {flush_reports} reports for the task, {users} of them to \
                 account_user_time",
                log.count("vtime_flush"),
                log.count("vtime_flush"),
            ));
        } else {
            let user_ticks = log.ticks.iter().filter(|t| t.1).count();
            reasons.push(format!(
                "without the config the tick samples: {} ticks charged whole TICK_NSEC ({} ns) to the mode each found \
                 (cputime.c:483-509); {user_ticks} of {} found user mode, where the truth has {:.1}% of the time",
                log.count("account_process_tick"),
                config.tick_nsec(),
                log.ticks.len(),
                utime.true_ns as f64 * 100.0 / (utime.true_ns + stime.true_ns).max(1) as f64
            ));
        }
    }
    AccountingVerdict { utime, stime, tolerance_ns, off_cpu_cycles: off_cpu, breakdown, unexplained_ns, reasons }
}

impl fmt::Display for AccountingVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, v) in [("utime", &self.utime), ("stime", &self.stime)] {
            writeln!(
                f,
                "{name}: true {} ns, accounted {} ns ({:+} ns, {:+.1}%){}",
                v.true_ns,
                v.reported_ns,
                v.diff_ns,
                v.percent(),
                if v.within { "" } else { "  (beyond tolerance)" }
            )?;
        }
        writeln!(f, "tolerance: {} ns; off the CPU: {} cycles", self.tolerance_ns, self.off_cpu_cycles)?;
        writeln!(f, "where the time is:")?;
        for (what, ns) in &self.breakdown {
            writeln!(f, "  {ns:>14} ns  {what}")?;
        }
        writeln!(f, "  {:>14} ns  in no field (truth - the above)", self.unexplained_ns)?;
        for r in &self.reasons {
            writeln!(f, "why: {r}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Report, Sink};
    use super::*;

    const TASK: u64 = 0x1000;

    fn report(nsec: u64, sink: Sink, index: CpuStat) -> Report {
        Report { itc: 0, caller: "vtime_flush", sink, task: Some(TASK), nsec, cycles: None, index }
    }

    #[test]
    fn the_truth_sums_spans_by_mode_and_refuses_time_going_back() {
        let mut t = AccountingTruth::new(100, Mode::User);
        t.cpl(400, 0).unwrap();
        t.cpl(450, 3).unwrap();
        t.transition(1000, Mode::User).unwrap();
        t.finish(1300).unwrap();
        assert_eq!((t.user_cycles, t.kernel_cycles, t.transitions), (300 + 550 + 300, 50, 2));
        assert!(t.finish(1200).is_err());
        assert_eq!(cycles_to_ns(1500, 1_500_000_000), 1000);
        assert_eq!(cycles_to_ns(1, 1_500_000_000), 1, "0.67 ns rounds to 1");
    }

    #[test]
    fn a_report_that_matches_is_within_and_a_lost_user_time_is_explained() {
        let config = KernelCConfig::default();
        let mut t = AccountingTruth::new(0, Mode::User);
        t.cpl(15_000_000, 0).unwrap();
        t.finish(16_500_000).unwrap();
        let mut log = AccountingLog::default();
        log.reports.push(report(10_000_000, Sink::UserTime, CpuStat::User));
        log.reports.push(report(1_000_000, Sink::SystemIndexTime, CpuStat::System));
        let v = compare(&t, &log, TASK, &[], &config);
        assert!(v.correct(), "{v}");
        assert!(v.reasons.is_empty());
        // No flush at all: the whole run could still be pending.
        assert_eq!(v.tolerance_ns, 11_000_000 + 2);
        log.calls.push(("vtime_flush", 16_500_000 - 1500));
        assert_eq!(compare(&t, &log, TASK, &[], &config).tolerance_ns, 1000 + 2);

        let mut log = AccountingLog::default();
        log.reports.push(report(1_000_000, Sink::SystemIndexTime, CpuStat::System));
        log.calls.push(("vtime_flush", 16_500_000));
        let ti = [("ac_utime", Some(15_000_000)), ("ac_stime", None)];
        let v = compare(&t, &log, TASK, &ti, &config);
        assert!(!v.correct());
        assert_eq!((v.utime.true_ns, v.utime.reported_ns, v.utime.diff_ns), (10_000_000, 0, -10_000_000));
        assert!(v.stime.within);
        assert_eq!(v.breakdown.iter().find(|b| b.0.contains("ac_utime (entry")).map(|b| b.1), Some(10_000_000));
        assert_eq!(v.unexplained_ns, 0, "everything is found");
        let text = v.to_string();
        assert!(
            text.contains("utime: true 10000000 ns, accounted 0 ns (-10000000 ns, -100.0%)  (beyond tolerance)"),
            "{text}"
        );
        assert!(text.contains("no C function of this tree reads them"), "{text}");
    }

    #[test]
    fn time_off_the_cpu_is_not_the_tasks_system_time() {
        let config = KernelCConfig::default();
        let mut t = AccountingTruth::new(0, Mode::Kernel);
        t.finish(3_000_000).unwrap();
        let mut log = AccountingLog::default();
        log.switches.push((1_000_000, 2_500_000));
        log.reports.push(report(1_000_000, Sink::SystemIndexTime, CpuStat::System));
        let v = compare(&t, &log, TASK, &[], &config);
        assert_eq!((v.off_cpu_cycles, v.stime.true_ns), (1_500_000, 1_000_000));
        assert!(v.correct());
    }
}
