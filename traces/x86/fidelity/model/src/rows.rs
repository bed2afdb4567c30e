//! The rows of the fidelity table, model side: which object, which harness, which calls, and
//! which memory is rewritten before each iteration. The keys and inputs are those of the native
//! programs (../nohz_fid.c, ../sched_avg_fid.c, ../timer_target_fid.c); a row missing on either
//! side shows up as a hole in the table.

/// One call of an iteration: entry symbol and the two argument registers.
#[derive(Debug, Clone)]
pub struct CallSpec {
    /// The function.
    pub entry: &'static str,
    /// rdi, as a harness expression (a region name) or a number.
    pub rdi: &'static str,
    /// rsi.
    pub rsi: u64,
}

/// A 64-bit store made before each iteration (state the function consumes).
#[derive(Debug, Clone)]
pub struct Reset {
    /// Harness region name.
    pub region: &'static str,
    /// Byte offset in it.
    pub offset: u64,
    /// The value.
    pub value: u64,
}

/// One row.
#[derive(Debug, Clone)]
pub struct Row {
    /// `object:function:input`, as the native program prints it.
    pub key: String,
    /// Object name (without `.o` or the `-user.o` suffix).
    pub object: &'static str,
    /// Harness file name under traces/x86/harness.
    pub harness: &'static str,
    /// The calls of one iteration, in order.
    pub calls: Vec<CallSpec>,
    /// Stores before each iteration.
    pub resets: Vec<Reset>,
}

/// sched_avg_update's period in ns: sysctl_sched_time_avg (1000 ms) / 2.
const PERIOD: u64 = 500_000_000;
/// The harness's rq->age_stamp.
const AGE: u64 = 1_000_000_000;
/// The harness's rq->rt_avg.
const RT_AVG: u64 = 0x1000_0000;

fn pair(object: &'static str, harness: &'static str) -> Row {
    Row {
        key: format!("{object}:user_exit+user_enter:harness-task"),
        object,
        harness,
        calls: vec![
            CallSpec { entry: "user_exit_accounting", rdi: "task", rsi: 0 },
            CallSpec { entry: "user_enter_accounting", rdi: "task", rsi: 0 },
        ],
        resets: Vec::new(),
    }
}

fn sched_avg(object: &'static str, missed: u64) -> Row {
    let clock = AGE + missed * PERIOD + 2 * PERIOD / 5;
    let reset = |offset, value| Reset { region: "rq", offset, value };
    Row {
        key: format!("{object}:sched_avg_update:missed-{missed}"),
        object,
        harness: "sched-avg.toml",
        calls: vec![CallSpec { entry: "sched_avg_update", rdi: "rq", rsi: 0 }],
        resets: vec![reset(0, clock), reset(8, AGE), reset(16, RT_AVG)],
    }
}

fn timer_target(object: &'static str) -> Row {
    Row {
        key: format!("{object}:get_nohz_timer_target:1+39-cpus"),
        object,
        harness: "timer-target.toml",
        calls: vec![CallSpec { entry: "get_nohz_timer_target", rdi: "0", rsi: 0 }],
        resets: Vec::new(),
    }
}

/// Every row, in table order.
pub fn all() -> Vec<Row> {
    let mut rows = vec![
        pair("nohz-syscall-v4.5-rc1", "nohz-sched-clock.toml"),
        pair("nohz-syscall-patch1", "nohz-sched-clock.toml"),
        pair("nohz-syscall-patch3", "nohz-sched-clock.toml"),
        pair("nohz-syscall-patch4", "nohz-jiffies.toml"),
        pair("nohz-syscall-housekeeping", "nohz-housekeeping.toml"),
        Row {
            key: "nohz-syscall-housekeeping:tick_accounting:user-tick".into(),
            object: "nohz-syscall-housekeeping",
            harness: "nohz-housekeeping.toml",
            calls: vec![CallSpec { entry: "tick_accounting", rdi: "task", rsi: 1 }],
            resets: Vec::new(),
        },
    ];
    for object in ["sched-avg-loop", "sched-avg-div"] {
        for missed in [1, 7, 50] {
            rows.push(sched_avg(object, missed));
        }
    }
    rows.push(timer_target("timer-target-old"));
    rows.push(timer_target("timer-target-new"));
    rows
}
