//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

/// The workspace root (where the corpus lives).
#[allow(dead_code)] // not every test file uses every helper
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the `acctemu` binary in the workspace root with `args`.
#[allow(dead_code)] // not every test file uses every helper
pub fn acctemu(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("runs acctemu")
}

/// Whether the oracles must be present (`ACCTEMU_REQUIRE_ORACLES=1`, set by `.ci/run`).
pub fn oracles_required() -> bool {
    std::env::var("ACCTEMU_REQUIRE_ORACLES").is_ok_and(|v| v == "1")
}

/// The full path of `tool` on `PATH`, or `None` when it is missing and the oracles are
/// optional, so a live test can skip.
///
/// # Panics
/// When the tool is missing and `ACCTEMU_REQUIRE_ORACLES=1`: a CI run must not pass
/// silently without its oracle.
#[allow(dead_code)] // not every test file uses every helper
pub fn oracle(tool: &str) -> Option<PathBuf> {
    let found =
        std::env::var_os("PATH").iter().flat_map(std::env::split_paths).map(|dir| dir.join(tool)).find(|p| p.is_file());
    if found.is_none() && oracles_required() {
        panic!(
            "oracle `{tool}` not found on PATH but ACCTEMU_REQUIRE_ORACLES=1; \
             install it (e.g. `apt-get install binutils-ia64-linux-gnu`) or unset the variable"
        );
    }
    if found.is_none() {
        eprintln!("note: `{tool}` not on PATH; skipping the live oracle comparison");
    }
    found
}

/// The golden IA-64 objects, sorted by name, as (stem, path).
#[allow(dead_code)] // not every test file uses every helper
pub fn golden_objects() -> Vec<(String, PathBuf)> {
    let dir = root().join("tests/corpus/ia64/golden");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "o"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no golden objects in {}", dir.display());
    out
}

/// The row keys an exemption list names: `tests/corpus/ia64/{name}` holds one row a line,
/// `key -- reason`, with `#` comment lines and blank lines ignored.
///
/// # Panics
/// When the list cannot be read.
#[allow(dead_code)] // not every test file uses every helper
pub fn exemption_keys(name: &str) -> std::collections::BTreeSet<String> {
    let path = root().join("tests/corpus/ia64").join(name);
    let listed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    listed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split(" -- ").next())
        .map(|k| k.trim().to_string())
        .collect()
}
