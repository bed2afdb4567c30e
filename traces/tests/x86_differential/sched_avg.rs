//! The sched_avg_update cases: traces/x86/native/sched_avg_diff.c's inputs, drawn in its order
//! into the harness's rq and sysctl_sched_time_avg, and its dump read back.

use crate::emu::Emu;
use crate::rng::Rng;

/// Case `k`: sets it up, runs sched_avg_update(rq) and returns the driver's line.
pub fn case(emu: &mut Emu, seed: u64, k: u64) -> Result<String, String> {
    let (rq, sysctl) = (emu.region("rq"), emu.region("sysctl_sched_time_avg"));
    emu.zero(rq, 0x100);
    emu.zero(sysctl, 8);
    let mut r = Rng::new(seed, k);
    let ms = 1 + r.below(2000);
    emu.w32(sysctl, ms);
    let period = ms * 1_000_000 / 2;
    let age = r.next();
    let clock = match r.below(8) {
        0 => age.wrapping_add(period * r.below(64)),
        1 => age.wrapping_add(period * r.below(64)).wrapping_add(1),
        2 => age.wrapping_sub(r.below(1 << 40)),
        _ => {
            let ahead = age.wrapping_add(r.below(64 * period));
            ahead.wrapping_sub(r.below(period))
        }
    };
    emu.w64(rq, clock);
    emu.w64(rq + 8, age);
    emu.w64(rq + 16, r.next());
    emu.call("sched_avg_update", &[rq], 0)?;
    let mut out = k.to_string();
    emu.dump_struct(&mut out, "rq", rq, 24, &[], &[]);
    emu.dump_struct(&mut out, "sysctl_sched_time_avg", sysctl, 8, &[], &[]);
    Ok(out)
}
