//! The oracle look-up shared by the trace tests that compare against installed tools.

use std::path::PathBuf;

/// Whether the oracles must be present (`ACCTEMU_REQUIRE_ORACLES=1`, set by `.ci/run`).
#[allow(dead_code)] // not every test file uses every helper
pub fn required() -> bool {
    std::env::var("ACCTEMU_REQUIRE_ORACLES").is_ok_and(|v| v == "1")
}

/// The full path of `tool` on PATH; a missing tool skips the live check unless the oracles
/// are required, in which case the test fails.
#[allow(dead_code)] // not every test file uses every helper
pub fn oracle(tool: &str) -> Option<PathBuf> {
    let found =
        std::env::var_os("PATH").iter().flat_map(std::env::split_paths).map(|d| d.join(tool)).find(|p| p.is_file());
    assert!(found.is_some() || !required(), "oracle `{tool}` not on PATH but ACCTEMU_REQUIRE_ORACLES=1");
    found
}
