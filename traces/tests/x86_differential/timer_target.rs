//! The get_nohz_timer_target cases: traces/x86/native/timer_target_diff.c's machines, drawn
//! in its order into the harness's regions, the runqueues of up to 256 CPUs in a region of
//! their own (the harness's `runqueues` holds 64), and its dump read back.

use crate::emu::{Emu, Object};
use crate::rng::Rng;

/// Runqueue `cpu` lives at `RQS + RQ_SIZE * cpu`; `__per_cpu_offset[cpu]` points there.
const RQS: u64 = 0x0107_0000;
/// sizeof(struct rq) in timer_target.c, the native array's stride too.
const RQ_SIZE: u64 = 40;
const NR_CPUS: u64 = 256;
/// Pointer words of struct rq: curr, idle, wake_list, sd; of struct sched_domain: parent.
const RQ_PTRS: &[u64] = &[0, 8, 24, 32];
const SD_PTRS: &[u64] = &[0];

/// The harness regions, and the extra runqueue region mapped.
pub struct Layout {
    hk: u64,
    online: u64,
    possible: u64,
    smt: u64,
    mc: u64,
    tasks: u64,
}

impl Layout {
    /// Reads the regions from `emu`'s harness and maps the runqueues.
    pub fn new(emu: &mut Emu) -> Layout {
        emu.map(RQS, 0x4000, "rqs");
        let sd = emu.region("sched_domains");
        Layout {
            hk: emu.region("housekeeping_mask") + 0x100,
            online: emu.region("__cpu_online_mask"),
            possible: emu.region("__cpu_possible_mask"),
            smt: sd,
            mc: sd + 0x40,
            tasks: emu.region("tasks"),
        }
    }
}

fn set(mask: &mut [u64; 4], cpu: u64) {
    if let Some(w) = mask.get_mut((cpu / 64) as usize) {
        *w |= 1 << (cpu % 64);
    }
}

fn store_mask(emu: &mut Emu, addr: u64, mask: &[u64; 4]) {
    for (i, w) in mask.iter().enumerate() {
        emu.w64(addr + 8 * i as u64, *w);
    }
}

/// Case `k`: sets it up, runs get_nohz_timer_target() and returns the driver's line.
pub fn case(emu: &mut Emu, l: &Layout, seed: u64, k: u64) -> Result<String, String> {
    let mut r = Rng::new(seed, k);
    emu.zero(RQS, (RQ_SIZE * NR_CPUS) as usize);
    emu.zero(l.smt, 0x80);
    let n = 2 + r.below(255);
    let this = r.below(n);
    emu.w32(emu.region("cpu_number"), this);
    emu.w32(emu.region("nr_cpu_ids"), n);
    emu.w32(emu.region("housekeeping_flags"), if r.one_in(8) { 0xd6 } else { 0xd7 });
    let (mut hk, mut online, mut possible, mut mc) = ([0u64; 4], [0u64; 4], [0u64; 4], [0u64; 4]);
    for cpu in 0..n {
        if r.one_in(8) {
            set(&mut hk, cpu);
        }
    }
    if !r.one_in(4) {
        set(&mut hk, r.below(n));
    }
    for cpu in 0..n {
        if !r.one_in(16) {
            set(&mut online, cpu);
        }
        set(&mut possible, cpu);
    }
    let per_cpu = emu.region("__per_cpu_offset");
    let runqueues = emu.region("runqueues");
    for cpu in 0..n {
        let rq = RQS + RQ_SIZE * cpu;
        let idle = l.tasks + cpu;
        let (mut curr, mut nr, mut wake) = (idle, 0, 0);
        match r.below(8) {
            4 | 5 => (curr, nr) = (l.tasks + NR_CPUS + cpu, 1),
            6 => nr = 1 + r.below(3),
            7 => wake = l.tasks + 2 * NR_CPUS - 1,
            _ => {}
        }
        emu.w64(rq, curr);
        emu.w64(rq + 8, idle);
        emu.w32(rq + 16, nr);
        emu.w64(rq + 24, wake);
        emu.w64(per_cpu + 8 * cpu, rq.wrapping_sub(runqueues));
    }
    if r.one_in(4) {
        for cpu in 0..n {
            if r.below(2) == 1 {
                set(&mut mc, cpu);
            }
        }
    } else {
        for cpu in 0..n {
            set(&mut mc, cpu);
        }
    }
    let mut smt = [0u64; 4];
    set(&mut smt, this);
    if this ^ 1 < n {
        set(&mut smt, this ^ 1);
    }
    let depth = r.below(4);
    emu.w64(l.smt, if depth >= 2 { l.mc } else { 0 });
    store_mask(emu, l.smt + 8, &smt);
    store_mask(emu, l.mc + 8, &mc);
    emu.w64(RQS + RQ_SIZE * this + 32, if depth != 0 { l.smt } else { 0 });
    store_mask(emu, l.hk, &hk);
    store_mask(emu, l.online, &online);
    store_mask(emu, l.possible, &possible);
    emu.w64(emu.region("housekeeping_mask"), l.hk);

    let ret = emu.call("get_nohz_timer_target", &[], 0)?;

    let objs: [Object; 3] = [("tasks", l.tasks, 2 * NR_CPUS), ("smt", l.smt, 40), ("mc", l.mc, 40)];
    let mut out = format!("{k} {:x}", ret as u32);
    emu.dump_struct(&mut out, "hk", l.hk, 32, &[], &objs);
    emu.dump_struct(&mut out, "online", l.online, 32, &[], &objs);
    emu.dump_struct(&mut out, "possible", l.possible, 32, &[], &objs);
    emu.dump_struct(&mut out, "smt", l.smt, 40, SD_PTRS, &objs);
    emu.dump_struct(&mut out, "mc", l.mc, 40, SD_PTRS, &objs);
    out.push_str(" rqs:");
    for cpu in 0..n {
        emu.dump_words(&mut out, RQS + RQ_SIZE * cpu, RQ_SIZE, RQ_PTRS, &objs);
    }
    Ok(out)
}
