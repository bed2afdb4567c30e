//! Regression tests of the fuzz targets (issue 7, hardening): every input a fuzzer found to
//! crash or hang, committed under `tests/fuzz-regressions/<target>/`, goes through the same
//! function its target calls ([`acctemu::fuzzing`]). Each must return, `Ok` or a typed error;
//! an error must name where it is (file:line:col in the source text or harness, the pc in
//! code). The seed corpora under `fuzz/seeds/<target>/` run through the same functions, so a
//! target that stops accepting its seeds is noticed here too.

use acctemu::fuzzing::{self, TARGETS};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The files of `dir`, sorted; none when it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    out.sort();
    out
}

/// Whether the error message of `target` says where the problem is.
fn names_location(target: &str, msg: &str) -> bool {
    let at = |file: &str| {
        msg.match_indices(file).any(|(i, _)| {
            // `file:LINE:COL` (or `file:LINE`) with a line number.
            let rest = &msg[i + file.len()..];
            rest.strip_prefix(':').is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
    };
    match target {
        "preprocess" | "assemble_ia64" => at(fuzzing::SOURCE_NAME),
        "harness" => at(fuzzing::HARNESS_NAME) || msg.contains("0x"),
        // A patch error names the patch and the file; assembling the patched source, the line.
        "patch" => msg.contains("fuzz.diff") || at("syscall.S"),
        "run_ia64" | "run_x86" | "run_s390" => msg.contains("0x"),
        // The loaders' errors name a section or symbol (in backquotes) or an offset, except
        // for whole-file problems (magic, class, byte order, machine, header).
        _ => msg.contains('`') || msg.contains("0x") || msg.contains("ELF"),
    }
}

/// Feeds every file under `base/<target>/` through the target's function.
fn check_dir(base: &Path, must_locate: bool) -> usize {
    let mut n = 0;
    for (name, f) in TARGETS {
        for path in files(&base.join(name)) {
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let start = Instant::now();
            let result = f(&data);
            let took = start.elapsed();
            // libFuzzer's -timeout is 10 s on an optimised build; a debug build gets more room.
            assert!(took < Duration::from_secs(60), "{}: {name} took {took:?}", path.display());
            if let Err(msg) = &result {
                if must_locate {
                    assert!(
                        names_location(name, msg),
                        "{}: {name}: the error names no location: {msg}",
                        path.display()
                    );
                }
            }
            n += 1;
        }
    }
    n
}

#[test]
fn every_committed_crash_returns() {
    let n = check_dir(&root().join("tests/fuzz-regressions"), true);
    assert!(n > 0, "no regression inputs under tests/fuzz-regressions");
}

#[test]
fn every_seed_returns() {
    let n = check_dir(&root().join("fuzz/seeds"), false);
    assert!(n > 0, "no seeds under fuzz/seeds");
}

/// The seeds are meant to be valid input: the sources and patches must get all the way
/// through, the objects must load (their runs from the first byte of `.text` may stop early).
#[test]
fn the_seeds_are_accepted() {
    let seeds = |name: &str| files(&root().join("fuzz/seeds").join(name));
    for path in seeds("elf_ia64") {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        arch_ia64::elf::load(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    for path in seeds("elf_x86") {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        arch_x86::run::load_object(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    for path in seeds("elf_s390") {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        arch_s390::run::load_object(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    for name in ["assemble_ia64", "patch", "preprocess"] {
        for path in files(&root().join("fuzz/seeds").join(name)) {
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let f =
                TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f).unwrap_or_else(|| panic!("no target {name}"));
            if let Err(e) = f(&data) {
                panic!("{}: {name}: {e}", path.display());
            }
        }
    }
}
