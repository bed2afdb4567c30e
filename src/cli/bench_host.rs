//! What `acctemu bench` measures of the host (issue 17): the CPU time a row took, its peak
//! resident memory, and the host instructions callgrind counts in a re-run of the row.
//!
//! - **CPU time** is the process's CPU time, user and system together
//!   (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`, through rustix): nanoseconds, up to date when
//!   read (`/proc/self/stat` counts in 1/100 s ticks, `/proc/self/schedstat` only as of the last
//!   scheduler tick). Wall time is never used, so a loaded host slows no figure.
//! - **Peak memory** is `/proc/self/status`'s `VmHWM`. Before a row the high-water mark is reset
//!   by writing `5` to `/proc/self/clear_refs` (Linux 4.0 on); where that fails the figure is
//!   the process's peak so far, which the first row of a run still gives exactly.
//! - **Host instructions** come from valgrind's callgrind, run-length difference: the bench runs
//!   itself under `valgrind --tool=callgrind --collect-atstart=no
//!   --toggle-collect=*bench_measured_region*`, so only the measured run of the row is counted
//!   (not start-up, assembly or set-up), at N and at 2N iterations (or system calls); the
//!   difference of the two counts over the difference of the emulated instructions (or system
//!   calls) is the cost of one more, with every fixed cost of the measured run (its first
//!   decode, its last exit) cancelled out. Callgrind counts instructions executed, so the
//!   figure is deterministic up to hash seeds, and does not depend on the host's load.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The name callgrind's `--toggle-collect` matches: the function that wraps a row's measured
/// run (`bench::bench_measured_region`).
pub const MEASURED_FUNCTION: &str = "*bench_measured_region*";

/// The process's CPU time (user + system) in seconds.
pub fn cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// Resets the process's peak resident set size, so that the next [`peak_rss_kib`] is the
/// peak since now. Returns false where the kernel refuses (the peak is then the process's).
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The process's peak resident set size (`VmHWM`) in KiB, if `/proc/self/status` has it.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status_field_kib(&status, "VmHWM:")
}

fn status_field_kib(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// The `valgrind` on `PATH` (or `$VALGRIND`), if any.
pub fn find_valgrind() -> Option<PathBuf> {
    if let Some(v) = std::env::var_os("VALGRIND") {
        return Some(PathBuf::from(v));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("valgrind")).find(|p| p.is_file())
}

/// Runs `exe args` under callgrind, collecting only inside [`MEASURED_FUNCTION`], and returns
/// the instructions it counted and the program's standard output.
///
/// # Errors
/// valgrind does not start, the program fails, or callgrind's output has no total or a zero
/// one (the measured function was not found: inlined away or renamed).
pub fn callgrind(valgrind: &Path, exe: &Path, args: &[String]) -> Result<(u64, String), String> {
    let out_file = std::env::temp_dir().join(format!("acctemu-bench-callgrind.{}.{}", std::process::id(), unique()));
    let output = Command::new(valgrind)
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg("--collect-atstart=no")
        .arg(format!("--toggle-collect={MEASURED_FUNCTION}"))
        .arg(exe)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", valgrind.display()))?;
    let counted = std::fs::read_to_string(&out_file);
    let _ = std::fs::remove_file(&out_file);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        return Err(format!(
            "callgrind run of `{} {}` failed ({}): {}",
            exe.display(),
            args.join(" "),
            output.status,
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        ));
    }
    let counted = counted.map_err(|e| format!("no callgrind output {}: {e}", out_file.display()))?;
    let total = callgrind_total(&counted).ok_or_else(|| "callgrind's output has no `totals:` line".to_string())?;
    if total == 0 {
        return Err(format!("callgrind counted nothing inside {MEASURED_FUNCTION} (inlined or renamed?)"));
    }
    Ok((total, String::from_utf8_lossy(&output.stdout).into_owned()))
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The instruction total of a callgrind output file: its `totals:` line (or, from older
/// versions, `summary:`), first event (Ir, the only one without cache simulation).
fn callgrind_total(text: &str) -> Option<u64> {
    let line =
        text.lines().find(|l| l.starts_with("totals:")).or_else(|| text.lines().find(|l| l.starts_with("summary:")))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The cost of one more unit by the run-length difference: (`long` − `short`) host
/// instructions over (`long_units` − `short_units`) emulated instructions or system calls.
///
/// # Errors
/// The two runs did not differ in units, or the longer one counted fewer host instructions.
pub fn per_unit(short: (u64, u64), long: (u64, u64)) -> Result<f64, String> {
    let ((short_ir, short_units), (long_ir, long_units)) = (short, long);
    if long_units <= short_units {
        return Err(format!("the runs of callgrind did not differ in length ({short_units} and {long_units})"));
    }
    if long_ir < short_ir {
        return Err(format!("the longer callgrind run counted fewer instructions ({long_ir} < {short_ir})"));
    }
    Ok((long_ir - short_ir) as f64 / (long_units - short_units) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_fields_read_in_kib() {
        let status = "Name:\tacctemu\nVmPeak:\t  9000 kB\nVmHWM:\t    2076 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(status_field_kib(status, "VmHWM:"), Some(2076));
        assert_eq!(status_field_kib(status, "VmSwap:"), None);
    }

    #[test]
    fn the_process_cpu_time_advances_while_it_works() {
        let before = cpu_seconds();
        let mut x = 0u64;
        let mut rounds = 0u64;
        // Nanoseconds, so a few million multiplications show; bounded all the same.
        while cpu_seconds() <= before && rounds < 1_000 {
            for i in 0..100_000u64 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
            }
            rounds += 1;
        }
        assert_ne!(x, 1);
        assert!(cpu_seconds() > before, "{before}");
        assert!(peak_rss_kib().is_some_and(|k| k > 0));
    }

    #[test]
    fn callgrind_totals_and_the_run_length_difference() {
        let out = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 99\ntotals: 60085447\n";
        assert_eq!(callgrind_total(out), Some(60085447));
        assert_eq!(callgrind_total("events: Ir\nsummary: 12\n"), Some(12));
        assert_eq!(callgrind_total("events: Ir\n"), None);
        assert_eq!(per_unit((60_085_447, 900_014), (113_286_076, 1_800_014)), Ok(53_200_629.0 / 900_000.0));
        assert!(per_unit((10, 5), (20, 5)).is_err());
        assert!(per_unit((30, 5), (20, 10)).is_err());
    }
}
