//! The nohz-syscall cases: traces/x86/native/nohz_diff.c's inputs, drawn in its order and laid
//! out at nohz_syscall.c's offsets in the harness regions, and its dump read back.

use crate::emu::{Emu, Object};
use crate::rng::Rng;

/// Where the two cpuacct groups of a chain live (the harness has only the root).
const CGROUPS: u64 = 0x0101_0000;
const CA0: u64 = CGROUPS;
const CA1: u64 = CGROUPS + 0x100;

/// preempt_count() values: mostly task context, some softirq, hardirq, softirq-disabled.
const PREEMPT: [u64; 8] = [0, 0, 0, 0, 0, 0x100, 0x1_0000, 0x200];
/// context_tracking.recursion on entry: mostly 0, sometimes nested, sometimes corrupt (-1).
const RECURSION: [u64; 8] = [0, 0, 0, 0, 0, 0, 1, u32::MAX as u64];

/// struct task_struct (nohz_syscall.c): pointer words mm, signal, sighand, cpuacct.
const TASK_SIZE: u64 = 120;
const TASK_PTRS: &[u64] = &[80, 88, 96, 104];
/// struct cpu_data: cpustat[10], preempt_count, ct_active, ct_state, ct_recursion, warnings, pad, idle,
/// then the RCU dynticks state (issue 15): dynticks_nesting, dynticks, pad, nocb_defer_wakeup[2].
const CPU_DATA_SIZE: u64 = 136;
const CPU_DATA_PTRS: &[u64] = &[104];
/// struct cyc2ns: data[2] (24 bytes each), head, tail.
const CYC2NS_SIZE: u64 = 64;
const CYC2NS_PTRS: &[u64] = &[48, 56];
/// struct cpuacct: parent, cpustat[10].
const CPUACCT_SIZE: u64 = 88;
const CPUACCT_PTRS: &[u64] = &[0];

/// The harness regions of one nohz trace.
pub struct Layout {
    task: u64,
    idle: u64,
    mm: u64,
    signal: u64,
    cpu_data: u64,
    cpu_tsc: u64,
    jiffies: u64,
    root: u64,
}

impl Layout {
    /// Reads the regions from `emu`'s harness and maps the cgroup region.
    pub fn new(emu: &mut Emu) -> Layout {
        emu.map(CGROUPS, 0x1000, "cgroups");
        Layout {
            task: emu.region("task"),
            idle: emu.region("idle_task"),
            mm: emu.region("mm"),
            signal: emu.region("signal"),
            cpu_data: emu.region("cpu_data"),
            cpu_tsc: emu.region("cpu_tsc"),
            jiffies: emu.region("jiffies"),
            root: emu.region("root_cpuacct"),
        }
    }

    fn objects(&self) -> [Object; 9] {
        [
            ("task", self.task, TASK_SIZE),
            ("idle_task", self.idle, TASK_SIZE),
            ("mm", self.mm, 40),
            ("signal", self.signal, 32),
            ("cpu_data", self.cpu_data, CPU_DATA_SIZE),
            ("cpu_tsc", self.cpu_tsc, CYC2NS_SIZE),
            ("root_cpuacct", self.root, CPUACCT_SIZE),
            ("ca0", CA0, CPUACCT_SIZE),
            ("ca1", CA1, CPUACCT_SIZE),
        ]
    }
}

fn fill_cpustat(emu: &mut Emu, r: &mut Rng, stat: u64) {
    for i in 0..10 {
        emu.w64(stat + 8 * i, r.below(1 << 40));
    }
}

/// Case `k`: sets it up, runs the entry point it draws, and returns the driver's line.
pub fn case(emu: &mut Emu, l: &Layout, patches: u32, seed: u64, k: u64) -> Result<String, String> {
    let mut r = Rng::new(seed, k);
    for base in [l.task, l.cpu_data, l.cpu_tsc, l.mm, l.signal, CA0, CA1, l.root, l.jiffies] {
        emu.zero(base, 0x100);
    }
    let (task, cd, tsc_data) = (l.task, l.cpu_data, l.cpu_tsc);

    let path = r.below(3);
    let user_tick = if path == 2 { r.below(2) } else { 0 };
    emu.w32(cd + 84, u64::from(r.below(4) != 0));
    let ct_state = if r.one_in(8) {
        r.below(3)
    } else {
        match path {
            0 => 1,
            1 => 0,
            _ => r.below(2),
        }
    };
    emu.w32(cd + 88, ct_state);
    emu.w32(cd + 80, PREEMPT[r.below(8) as usize]);
    emu.w32(cd + 92, RECURSION[r.below(8) as usize]);
    fill_cpustat(emu, &mut r, cd);
    let idle = if r.one_in(4) { task } else { l.idle };
    emu.w64(cd + 104, idle);

    let utime = r.below(1 << 40);
    let stime = r.below(1 << 40);
    emu.w64(task, utime);
    emu.w64(task + 8, stime);
    for off in [16, 24, 32] {
        emu.w64(task + off, r.below(1 << 40));
    }
    emu.w32(task + 40, r.next());
    let whence = if r.one_in(8) {
        0
    } else if path == 1 {
        2
    } else {
        1
    };
    emu.w32(task + 44, whence);
    emu.w64(task + 56, r.next());
    emu.w64(task + 64, r.next());
    emu.w64(task + 72, utime.wrapping_add(stime).wrapping_add(1_000_000).wrapping_sub(r.below(3_000_000)));

    let tsc = r.below(1 << 40);
    let mul = 1 + r.below(0xffff_ffff);
    let shift = r.below(32);
    let offset = r.below(1 << 40);
    emu.w32(tsc_data, mul);
    emu.w32(tsc_data + 4, shift);
    emu.w64(tsc_data + 8, offset);
    let slow = r.one_in(4);
    emu.w64(tsc_data + 48, tsc_data);
    emu.w64(tsc_data + 56, if slow { tsc_data + 24 } else { tsc_data });
    emu.w32(tsc_data + 16, if slow { r.below(3) } else { 0 });
    emu.w32(tsc_data + 24, r.next());
    emu.w32(tsc_data + 28, r.next());
    emu.w64(tsc_data + 32, r.next());
    emu.w32(tsc_data + 40, r.next());
    let jiffies = r.next();
    emu.w64(l.jiffies, jiffies);
    // cycles_2_ns(): offset + (tsc * mul >> shift), the product in 128 bits.
    let clock = offset.wrapping_add(((u128::from(tsc) * u128::from(mul)) >> shift) as u64);
    let snap = if patches < 4 {
        if r.one_in(8) {
            clock.wrapping_add(r.below(1000))
        } else {
            clock.wrapping_sub(r.below(3_000_000))
        }
    } else if r.one_in(8) {
        jiffies.wrapping_add(1 + r.below(2))
    } else {
        jiffies.wrapping_sub(r.below(3))
    };
    emu.w64(task + 48, snap);

    for i in 0..4 {
        emu.w64(l.mm + 8 * i, (r.below(1 << 20) as i64 - (1 << 18)) as u64);
    }
    emu.w64(l.mm + 32, r.below(1 << 24));
    emu.w32(task + 112, 100 + r.below(40));
    emu.w32(task + 116, if r.one_in(4) { 0x10 } else { 0 });
    emu.w32(l.signal, r.below(2));
    for off in [8, 16, 24] {
        emu.w64(l.signal + off, r.below(1 << 40));
    }
    emu.w64(task + 96, if r.one_in(4) { 0 } else { l.signal });
    emu.w64(task + 80, if r.one_in(16) { 0 } else { l.mm });
    emu.w64(task + 88, l.signal);
    let chain = r.below(3);
    emu.w64(task + 104, if chain != 0 { CA0 } else { l.root });
    emu.w64(CA0, if chain == 2 { CA1 } else { l.root });
    emu.w64(CA1, l.root);
    for ca in [CA0, CA1, l.root] {
        fill_cpustat(emu, &mut r, ca + 8);
    }

    match path {
        0 => emu.call("user_exit_accounting", &[task], tsc),
        1 => emu.call("user_enter_accounting", &[task], tsc),
        _ => emu.call("tick_accounting", &[task, user_tick], tsc),
    }?;

    let objs = l.objects();
    let mut out = k.to_string();
    emu.dump_struct(&mut out, "task", task, TASK_SIZE, TASK_PTRS, &objs);
    emu.dump_struct(&mut out, "cpu_data", cd, CPU_DATA_SIZE, CPU_DATA_PTRS, &objs);
    emu.dump_struct(&mut out, "cpu_tsc", tsc_data, CYC2NS_SIZE, CYC2NS_PTRS, &objs);
    emu.dump_struct(&mut out, "signal", l.signal, 32, &[], &objs);
    emu.dump_struct(&mut out, "mm", l.mm, 40, &[], &objs);
    emu.dump_struct(&mut out, "ca0", CA0, CPUACCT_SIZE, CPUACCT_PTRS, &objs);
    emu.dump_struct(&mut out, "ca1", CA1, CPUACCT_SIZE, CPUACCT_PTRS, &objs);
    emu.dump_struct(&mut out, "root_cpuacct", l.root, CPUACCT_SIZE, CPUACCT_PTRS, &objs);
    emu.dump_struct(&mut out, "jiffies", l.jiffies, 8, &[], &objs);
    Ok(out)
}
