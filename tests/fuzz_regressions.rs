//! Regression tests of the fuzz targets (issue 7, hardening): every input a fuzzer found to
//! crash or hang, committed under `tests/fuzz-regressions/<target>/`, goes through the same
//! function its target calls ([`acctemu::fuzzing`]). Each must return, `Ok` or a typed error;
//! an error must name where it is (file:line:col in the source text or harness, the pc in
//! code). The seeds ([`acctemu::fuzzing::seeds`]: corpus files named where they live, and
//! `fuzz/seeds/<target>/`) run through the same functions, so a target that stops accepting its
//! seeds is noticed here too.

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

/// Feeds each (target, label, bytes) input through its target's function; returns how many.
fn check(inputs: impl IntoIterator<Item = (String, String, Vec<u8>)>, must_locate: bool) -> usize {
    let mut n = 0;
    for (name, label, data) in inputs {
        let f = target(&name);
        let start = Instant::now();
        let result = f(&data);
        let took = start.elapsed();
        // libFuzzer's -timeout is 10 s on an optimised build; a debug build gets more room.
        assert!(took < Duration::from_secs(60), "{label}: {name} took {took:?}");
        if let Err(msg) = &result {
            if must_locate {
                assert!(names_location(&name, msg), "{label}: {name}: the error names no location: {msg}");
            }
        }
        n += 1;
    }
    n
}

/// The function of target `name`.
fn target(name: &str) -> fuzzing::Target {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f).unwrap_or_else(|| panic!("no target {name}"))
}

/// Every file under `base/<target>/`, as (target, path, bytes).
fn inputs_under(base: &Path) -> Vec<(String, String, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, _) in TARGETS {
        for path in files(&base.join(name)) {
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            out.push(((*name).to_string(), path.display().to_string(), data));
        }
    }
    out
}

/// Every seed, as (target, name, bytes).
fn seeds() -> Vec<(String, String, Vec<u8>)> {
    let all = fuzzing::seeds(&root()).unwrap_or_else(|e| panic!("seeds: {e}"));
    all.into_iter().map(|s| (s.target.to_string(), s.name, s.data)).collect()
}

#[test]
fn every_committed_crash_returns() {
    let n = check(inputs_under(&root().join("tests/fuzz-regressions")), true);
    assert!(n > 0, "no regression inputs under tests/fuzz-regressions");
}

#[test]
fn every_seed_returns() {
    let n = check(seeds(), false);
    assert!(n > 0, "no seeds");
}

/// The seeds are meant to be valid input: the sources and patches must get all the way
/// through, the objects must load (their runs from the first byte of `.text` may stop early).
#[test]
fn the_seeds_are_accepted() {
    for (name, label, data) in seeds() {
        match name.as_str() {
            "elf_ia64" => drop(arch_ia64::elf::load(&data).unwrap_or_else(|e| panic!("{label}: {e}"))),
            "elf_x86" => drop(arch_x86::run::load_object(&data).unwrap_or_else(|e| panic!("{label}: {e}"))),
            "elf_s390" => drop(arch_s390::run::load_object(&data).unwrap_or_else(|e| panic!("{label}: {e}"))),
            "assemble_ia64" | "patch" | "preprocess" => {
                if let Err(e) = target(&name)(&data) {
                    panic!("{label}: {name}: {e}");
                }
            }
            _ => {}
        }
    }
}
