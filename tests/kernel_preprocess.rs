//! acctemu's preprocessor against gcc's on the Linux 6.1 arch/ia64 `.S` files.
//!
//! Every `.S` under arch/ia64 kernel/, lib/ and scripts/ (not the linker scripts), with the
//! per-object `AFLAGS_*` of arch/ia64/lib/Makefile (idiv32.S and idiv64.S are built four
//! times each), under `tests/data/kernel/ia64-6.1.config` with and without
//! CONFIG_VIRT_CPU_ACCOUNTING_NATIVE. Both preprocessors get the flags
//! `emu_core::kernel::KernelTree` derives from the kernel's Makefiles (an out-of-tree build
//! whose objtree, a temporary directory, holds the generated headers acctemu makes, so gcc
//! reads the same files); gcc runs as the build runs it for assembly, `gcc -E -x
//! assembler-with-cpp -nostdinc`, plus `-undef` and ia64-linux-gcc's predefined macros as
//! `-D` (no ia64 gcc exists here: the host's predefines would be x86's).
//!
//! Normalisation: gcc's `# N "file"` line markers and blank lines are dropped from both
//! outputs (acctemu keeps one output line per input line instead), and each run of blanks
//! counts as one space, leading and trailing ones as none: gcc prints every run of
//! whitespace as one space and indentation as spaces, while acctemu passes a line without
//! macros through as written (tabs included) so that columns in diagnostics stay right.
//! Whether tokens are separated at all is compared exactly (cpp's spaces at macro
//! boundaries, `8 +128`, are reproduced).
//!
//! The tree is `tests/common`'s `kernel_source()`; when it or
//! gcc is missing the test fails under `ACCTEMU_REQUIRE_ORACLES=1`, else it says so and skips.

mod common;

use emu_core::kernel::{KernelConfig, KernelTree};
use emu_core::preprocess::{preprocess, FsLoader, OverlayLoader, PreprocessOptions};
use std::path::Path;
use std::process::Command;

/// The `.S` files of the corpus, relative to the tree, sorted.
fn corpus(tree: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["arch/ia64/kernel", "arch/ia64/lib", "arch/ia64/scripts"] {
        for e in std::fs::read_dir(tree.join(dir)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".S") && !name.ends_with(".lds.S") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

/// The builds of `file`: its name and extra `-D`s (arch/ia64/lib/Makefile's `AFLAGS___*`).
fn variants(file: &str) -> Vec<(String, Vec<&'static str>)> {
    let base = file.rsplit('/').next().unwrap_or(file);
    let stem = match base {
        "idiv32.S" => "si3",
        "idiv64.S" => "di3",
        _ => return vec![(file.to_string(), Vec::new())],
    };
    [("div", vec![]), ("udiv", vec!["UNSIGNED"]), ("mod", vec!["MODULO"]), ("umod", vec!["UNSIGNED", "MODULO"])]
        .into_iter()
        .map(|(op, d)| (format!("{file} (__{op}{stem}.o)"), d))
        .collect()
}

fn normalise(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !(l.starts_with("# ") && l[2..].starts_with(|c: char| c.is_ascii_digit())))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn gcc_args(opts: &PreprocessOptions) -> Vec<String> {
    let mut args: Vec<String> =
        ["-E", "-x", "assembler-with-cpp", "-nostdinc", "-undef"].iter().map(|s| s.to_string()).collect();
    for (n, v) in &opts.defines {
        args.push(format!("-D{n}={v}"));
    }
    for n in &opts.undefines {
        args.push(format!("-U{n}"));
    }
    for d in &opts.include_dirs {
        args.push(format!("-I{}", d.display()));
    }
    for f in &opts.forced_includes {
        args.push("-include".into());
        args.push(f.display().to_string());
    }
    args
}

struct Outcome {
    name: String,
    lines: usize,
    first_difference: Option<String>,
}

fn compare(gcc: &Path, tree: &Path, objtree: &Path, config: &KernelConfig) -> Vec<Outcome> {
    let kt = KernelTree { srctree: tree.to_path_buf(), objtree: Some(objtree.to_path_buf()) };
    let offsets = arch_ia64::asm_offsets::generate(tree, config, &FsLoader).expect("asm-offsets");
    let build = kt.build(&PreprocessOptions::new(), config, Some(&offsets), &FsLoader).expect("kernel build");
    // gcc reads the generated headers from the objtree; acctemu serves the same from memory.
    for (path, text) in build.generated.files() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let loader = OverlayLoader::new(build.generated.clone(), &FsLoader);
    let mut out = Vec::new();
    for file in corpus(tree) {
        let path = tree.join(&file);
        let text = std::fs::read_to_string(&path).unwrap();
        for (name, extra) in variants(&file) {
            let mut opts = build.options.clone();
            opts.defines.extend(extra.iter().map(|d| (d.to_string(), "1".to_string())));
            let ours = preprocess(&path.display().to_string(), &text, &opts, &loader);
            let theirs = Command::new(gcc).args(gcc_args(&opts)).arg(&path).output().expect("run gcc");
            let first_difference = match (&ours, theirs.status.success()) {
                (Ok(o), true) => {
                    let (a, b) = (normalise(&o.text), normalise(&String::from_utf8_lossy(&theirs.stdout)));
                    let at = a.iter().zip(&b).position(|(x, y)| x != y);
                    match at {
                        None if a.len() == b.len() => None,
                        None => Some(format!("acctemu has {} lines, gcc {}", a.len(), b.len())),
                        Some(i) => Some(format!("line {}: acctemu `{}`, gcc `{}`", i + 1, a[i], b[i])),
                    }
                }
                (Err(e), true) => Some(format!("acctemu failed: {e}")),
                (Ok(_), false) => Some(format!("gcc failed: {}", String::from_utf8_lossy(&theirs.stderr))),
                (Err(e), false) => Some(format!(
                    "both failed: acctemu {e}; gcc {}",
                    String::from_utf8_lossy(&theirs.stderr).lines().next().unwrap_or("")
                )),
            };
            let lines = ours.as_ref().map_or(0, |o| normalise(&o.text).len());
            out.push(Outcome { name, lines, first_difference });
        }
    }
    out
}

#[test]
fn arch_ia64_sources_preprocess_as_gcc_does() {
    let Some(tree) = common::kernel_source() else { return };
    let Some(gcc) = common::oracle("gcc") else { return };
    let config_text = std::fs::read_to_string(common::root().join("tests/data/kernel/ia64-6.1.config")).unwrap();
    let scratch = std::env::temp_dir().join(format!("acctemu-kernel-pp-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut report = String::new();
    for (variant, accounting) in [("base", false), ("accounting", true)] {
        let mut config = KernelConfig::parse("ia64-6.1.config", &config_text).unwrap();
        if accounting {
            config.set("VIRT_CPU_ACCOUNTING_NATIVE", "y");
        }
        let results = compare(&gcc, &tree, &scratch.join(variant), &config);
        let same = results.iter().filter(|r| r.first_difference.is_none()).count();
        report.push_str(&format!("config {variant}: {same}/{} builds identical\n", results.len()));
        for r in &results {
            let verdict = r.first_difference.as_deref().unwrap_or("identical");
            report.push_str(&format!("  {:<50} {:>5} lines  {verdict}\n", r.name, r.lines));
            if r.first_difference.is_some() {
                failures.push(format!("{variant}: {}", r.name));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    eprintln!("{report}");
    assert!(failures.is_empty(), "preprocessor output differs from gcc's:\n{report}");
}
