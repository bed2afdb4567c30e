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

/// The scratch directory `acctemu-NAME-PID` under the system temp dir, created if missing.
///
/// # Panics
/// When the directory cannot be created.
#[allow(dead_code)] // not every test file uses every helper
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("acctemu-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
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

/// The `.o` files of `dir` with their stems, sorted by name.
#[allow(dead_code)] // not every test file uses every helper
pub fn objects_in(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "o"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .collect();
    out.sort();
    out
}

/// The golden IA-64 objects, sorted by name, as (stem, path).
#[allow(dead_code)] // not every test file uses every helper
pub fn golden_objects() -> Vec<(String, PathBuf)> {
    let dir = root().join("tests/corpus/ia64/golden");
    let out = objects_in(&dir);
    assert!(!out.is_empty(), "no golden objects in {}", dir.display());
    out
}

/// The Debian package tarball of the Linux 6.1 sources (`linux-source-6.1`), which holds
/// arch/ia64 (issue 13's kernel corpus).
#[allow(dead_code)] // not every test file uses every helper
pub const KERNEL_TARBALL: &str = "/usr/src/linux-source-6.1.tar.xz";

/// An extracted Linux 6.1 tree with `arch/ia64`, `include` and `scripts` (the kernel corpus):
/// `$ACCTEMU_LINUX_TREE` when set, else `/usr/src/linux-source-6.1` when extracted there,
/// else those directories extracted once from [`KERNEL_TARBALL`] into the target's
/// test scratch directory (nothing of the kernel enters the repository). `None` when none
/// exists and the oracles are optional.
///
/// # Panics
/// When no tree can be had and `ACCTEMU_REQUIRE_ORACLES=1`, or extraction fails.
#[allow(dead_code)] // not every test file uses every helper
pub fn kernel_source() -> Option<PathBuf> {
    let has_ia64 = |p: &Path| {
        p.join("arch/ia64/kernel/entry.S").is_file()
            && p.join("include/linux/kconfig.h").is_file()
            && p.join("scripts/syscalltbl.sh").is_file()
    };
    if let Some(dir) = std::env::var_os("ACCTEMU_LINUX_TREE").map(PathBuf::from) {
        assert!(
            has_ia64(&dir),
            "ACCTEMU_LINUX_TREE={} lacks arch/ia64, include or scripts of a Linux tree",
            dir.display()
        );
        return Some(dir);
    }
    let system = Path::new("/usr/src/linux-source-6.1");
    if has_ia64(system) {
        return Some(system.to_path_buf());
    }
    // One extraction per test binary: tests of one binary run on threads of one process.
    static EXTRACTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = EXTRACTING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let tree = scratch.join("linux-6.1");
    if has_ia64(&tree) && tree.join(".extracted").is_file() {
        return Some(tree);
    }
    if !Path::new(KERNEL_TARBALL).is_file() {
        if oracles_required() {
            panic!(
                "the Linux 6.1 sources ({KERNEL_TARBALL}) are missing but ACCTEMU_REQUIRE_ORACLES=1; \
                 install them (`apt-get install linux-source-6.1`) or set ACCTEMU_LINUX_TREE"
            );
        }
        eprintln!("note: {KERNEL_TARBALL} not found; skipping the kernel corpus");
        return None;
    }
    // Extract beside the final place and rename, so that test binaries running at the
    // same time never see a half-extracted tree.
    let part = scratch.join(format!("linux-extract-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&part);
    std::fs::create_dir_all(&part).unwrap_or_else(|e| panic!("{}: {e}", part.display()));
    let status = std::process::Command::new("tar")
        .arg("-xJf")
        .arg(KERNEL_TARBALL)
        .arg("-C")
        .arg(&part)
        .args(["linux-source-6.1/arch/ia64", "linux-source-6.1/include", "linux-source-6.1/scripts"])
        .status()
        .unwrap_or_else(|e| panic!("running tar: {e}"));
    assert!(status.success(), "tar -xJf {KERNEL_TARBALL} failed");
    let extracted = part.join("linux-source-6.1");
    std::fs::write(extracted.join(".extracted"), "arch/ia64 include scripts\n").unwrap_or_else(|e| panic!("{e}"));
    if std::fs::rename(&extracted, &tree).is_err() && !tree.join(".extracted").is_file() {
        panic!("cannot move the extracted tree to {}", tree.display());
    }
    let _ = std::fs::remove_dir_all(&part);
    Some(tree)
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

/// Lines of `want` that a longest common subsequence with `got` keeps: the "identical
/// lines" figure of a report (equal texts give every line).
#[allow(dead_code)] // not every test file uses every helper
pub fn identical_lines(want: &str, got: &str) -> usize {
    let w: Vec<&str> = want.lines().collect();
    let g: Vec<&str> = got.lines().collect();
    if w == g {
        return w.len();
    }
    let mut prev = vec![0usize; g.len() + 1];
    let mut row = vec![0usize; g.len() + 1];
    for a in &w {
        for (j, b) in g.iter().enumerate() {
            row[j + 1] = if a == b { prev[j] + 1 } else { prev[j + 1].max(row[j]) };
        }
        std::mem::swap(&mut prev, &mut row);
    }
    prev[g.len()]
}

/// First differing line, for a readable failure.
#[allow(dead_code)] // not every test file uses every helper
pub fn first_diff(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  want: {w:?}\n  got:  {g:?}", i + 1);
        }
    }
    format!("line counts differ: want {}, got {}", want.lines().count(), got.lines().count())
}
