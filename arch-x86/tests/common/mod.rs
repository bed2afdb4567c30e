//! Helpers shared by the arch-x86 integration tests.
#![allow(dead_code)] // not every test file uses every helper

use std::path::PathBuf;

/// Whether a missing oracle must fail the test (CI sets `ACCTEMU_REQUIRE_ORACLES=1`).
pub fn oracles_required() -> bool {
    std::env::var("ACCTEMU_REQUIRE_ORACLES").is_ok_and(|v| v == "1")
}

/// The full path of `tool` on `PATH`, or `None` (the test skips) when it is missing and
/// oracles are optional.
///
/// # Panics
/// When the tool is missing and `ACCTEMU_REQUIRE_ORACLES=1`.
pub fn oracle(tool: &str) -> Option<PathBuf> {
    let found =
        std::env::var_os("PATH").iter().flat_map(std::env::split_paths).map(|dir| dir.join(tool)).find(|p| p.is_file());
    if found.is_none() && oracles_required() {
        panic!("oracle `{tool}` not found on PATH but ACCTEMU_REQUIRE_ORACLES=1; install it or unset the variable");
    }
    if found.is_none() {
        eprintln!("note: `{tool}` not on PATH; skipping the native comparison");
    }
    found
}

/// `arch-x86/tests/data`.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("acctemu-x86-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
