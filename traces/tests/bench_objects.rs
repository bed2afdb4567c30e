//! The committed objects of `acctemu bench`'s loops are what `traces/bench/build.sh` makes from
//! the sources today (live where both cross compilers are installed; required when
//! `ACCTEMU_REQUIRE_ORACLES=1`), and the crate's constants are those files.

use std::path::{Path, PathBuf};
use std::process::Command;

use traces::bench::{Loops, S390X, X86_64};

mod oracles;
use oracles::required;

/// Whether `tool` is on PATH; a missing tool skips the live check unless the oracles are
/// required, in which case the test fails.
fn on_path(tool: &str) -> bool {
    oracles::oracle(tool).is_some()
}

fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bench")
}

/// The committed objects, by file name.
fn committed() -> [(&'static str, Loops); 2] {
    [("x86-loops.o", X86_64), ("s390-loops.o", S390X)]
}

#[test]
fn committed_objects_are_the_files_beside_the_script() {
    for (name, loops) in committed() {
        let file = std::fs::read(bench_dir().join("obj").join(name)).expect("committed object");
        assert_eq!(loops.object, Some(file.as_slice()), "{name}");
        let source = std::fs::read_to_string(bench_dir().join(loops.source_name)).expect("source");
        assert_eq!(loops.source, source, "{}", loops.source_name);
    }
}

#[test]
fn committed_objects_match_a_rebuild() {
    if !(on_path("x86_64-linux-gnu-gcc") && on_path("s390x-linux-gnu-gcc") && on_path("sh")) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("traces-bench-rebuild-{}", std::process::id()));
    let st = Command::new("sh").arg(bench_dir().join("build.sh")).arg(&dir).status().expect("run build.sh");
    assert!(st.success(), "build.sh failed");
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    let (ours, recorded) = (read(dir.join("toolchain-version")), read(bench_dir().join("obj/toolchain-version")));
    if ours != recorded {
        // Another toolchain makes other bytes: staleness cannot be judged here.
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!required(), "toolchains {ours:?} here, objects built with {recorded:?}");
        return;
    }
    let stale: Vec<&str> = committed()
        .into_iter()
        .filter(|(name, loops)| std::fs::read(dir.join(name)).ok().as_deref() != loops.object)
        .map(|(name, _)| name)
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(stale.is_empty(), "stale objects (run `sh traces/bench/build.sh` and commit): {stale:?}");
}
