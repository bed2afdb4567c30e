//! Building and running a byte-exact native driver (traces/x86/native/*_diff.c) with the
//! trace's own -D flags; one output line per case.

use std::path::Path;
use std::process::Command;

use crate::common;

/// Compiles `driver` with `defines` (plus `-DACCTEMU_NATIVE_USER`, see native/README.md) and
/// runs it for `cases` cases from `seed`.
pub fn run(gcc: &Path, driver: &str, defines: &[(&str, &str)], seed: u64, cases: u64, tag: &str) -> Vec<String> {
    let native = Path::new(env!("CARGO_MANIFEST_DIR")).join("x86/native");
    let dir = common::scratch(tag);
    let exe = dir.join("driver");
    let mut cc = Command::new(gcc);
    cc.current_dir(&native).args(["-O2", "-std=gnu11"]);
    cc.arg("-DACCTEMU_NATIVE_USER");
    for (k, v) in defines {
        cc.arg(format!("-D{k}={v}"));
    }
    let out = cc.arg(driver).arg("-o").arg(&exe).output().expect("run gcc");
    assert!(out.status.success(), "{driver} {defines:?} does not build:\n{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).arg(seed.to_string()).arg(cases.to_string()).output().expect("run the driver");
    assert!(run.status.success(), "{driver} failed: {}", String::from_utf8_lossy(&run.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&run.stdout).lines().map(str::to_string).collect()
}

/// Where `got` differs from `want`, word by word, each word named by its struct label.
pub fn differences(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split(' ').collect(), got.split(' ').collect());
    let mut label = "";
    let mut index = 0;
    let mut out = Vec::new();
    for i in 0..w.len().max(g.len()) {
        let (a, b) = (w.get(i).copied().unwrap_or("<none>"), g.get(i).copied().unwrap_or("<none>"));
        if let Some(l) = a.strip_suffix(':') {
            label = l;
            index = 0;
            continue;
        }
        if a != b {
            out.push(format!("{label}[{index}] (+{:#x}): native {a}, emulated {b}", index * 8));
        }
        index += 1;
    }
    out.join("; ")
}
