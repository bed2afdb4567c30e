//! Issue 13's kernel corpus, end to end, one row per build: every `.S` of arch/ia64 in Linux
//! 6.1 (`tests/common/kernel_corpus.rs`), with and without the accounting config.
//!
//! For each build:
//! - **preprocessor**: acctemu's output against `gcc -E -x assembler-with-cpp` with the same
//!   flags (normalised as described at [`normalise`]);
//! - **object**: GNU as 2.40 (`-x -mconstant-gp`, the kernel's flags) and acctemu assemble
//!   acctemu's preprocessed text; the two ELF files must be identical byte for byte;
//! - **disassembly**: `acctemu disasm` against `objdump -d` and `objdump -dr` on GNU as's
//!   object, lines identical / total.
//!
//! Prints the table and the time our assembler took (host time, for the report only: nothing
//! is asserted about it). Needs the tree, gcc, GNU as, ld (for gate.so) and objdump; without
//! them the test skips, or fails under `ACCTEMU_REQUIRE_ORACLES=1`.

mod common;
#[path = "common/kernel_corpus.rs"]
mod kernel_corpus;

use arch_ia64::disasm;
use common::{first_diff, identical_lines};
use emu_core::preprocess::PreprocessOptions;
use kernel_corpus::{acctemu_object, gas_object, object_difference, Corpus, CorpusBuild};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// gcc's `# N "file"` line markers and blank lines go from both outputs (acctemu keeps one
/// output line per input line instead), and each run of blanks counts as one space, leading
/// and trailing ones as none: gcc prints every run of whitespace as one space, while acctemu
/// passes a line without macros through as written (tabs included) so that columns in
/// diagnostics stay right. Whether tokens are separated at all is compared exactly.
fn normalise(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !(l.starts_with("# ") && l[2..].starts_with(|c: char| c.is_ascii_digit())))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// gcc as the kernel build runs it for assembly, plus `-undef`: ia64-linux-gcc's predefined
/// macros come as `-D` in the options (the host gcc's would be x86's).
fn gcc_args(opts: &PreprocessOptions) -> Vec<String> {
    let mut args: Vec<String> =
        ["-E", "-x", "assembler-with-cpp", "-nostdinc", "-undef"].iter().map(|s| s.to_string()).collect();
    args.extend(opts.defines.iter().map(|(n, v)| format!("-D{n}={v}")));
    args.extend(opts.undefines.iter().map(|n| format!("-U{n}")));
    args.extend(opts.include_dirs.iter().map(|d| format!("-I{}", d.display())));
    for f in &opts.forced_includes {
        args.push("-include".into());
        args.push(f.display().to_string());
    }
    args
}

struct Tools {
    gcc: std::path::PathBuf,
    gas: std::path::PathBuf,
    objdump: std::path::PathBuf,
}

/// One row of the table.
#[derive(Default)]
struct Row {
    preprocessor: String,
    object: String,
    disasm_d: (usize, usize),
    disasm_r: (usize, usize),
    failures: Vec<String>,
}

fn preprocessor_column(tools: &Tools, tree: &Path, b: &CorpusBuild, ours: &str, row: &mut Row) {
    let theirs =
        Command::new(&tools.gcc).args(gcc_args(&b.options)).arg(tree.join(&b.file)).output().expect("runs gcc");
    if !theirs.status.success() {
        row.preprocessor = "gcc failed".into();
        row.failures.push(format!("gcc failed: {}", String::from_utf8_lossy(&theirs.stderr)));
        return;
    }
    let (a, g) = (normalise(ours), normalise(&String::from_utf8_lossy(&theirs.stdout)));
    match a.iter().zip(&g).position(|(x, y)| x != y) {
        None if a.len() == g.len() => row.preprocessor = format!("identical ({} lines)", a.len()),
        None => {
            row.preprocessor = "DIFFERS".into();
            row.failures.push(format!("preprocessor: acctemu has {} lines, gcc {}", a.len(), g.len()));
        }
        Some(i) => {
            row.preprocessor = "DIFFERS".into();
            row.failures.push(format!("preprocessor line {}: acctemu `{}`, gcc `{}`", i + 1, a[i], g[i]));
        }
    }
}

/// Assembles with both, compares the files, then the disassembly of GNU as's object.
fn object_columns(tools: &Tools, corpus: &Corpus, b: &CorpusBuild, row: &mut Row, ours_time: &mut Duration) {
    let dir = &corpus.objtree;
    let obj = match gas_object(b, dir, &tools.gas) {
        Ok(obj) => obj,
        Err(e) => {
            row.object = "GNU as failed".into();
            row.failures.push(e);
            return;
        }
    };
    let gas_bytes = std::fs::read(&obj).expect("GNU as object");
    let t0 = Instant::now();
    let ours = acctemu_object(b, dir);
    *ours_time += t0.elapsed();
    row.object = match ours {
        Ok(bytes) => match object_difference(&bytes, &gas_bytes) {
            None => "identical".into(),
            Some(d) => {
                std::fs::write(dir.join(format!("{}.ours.o", b.stem)), &bytes).expect("our object");
                row.failures.push(format!("object: {d} (ours in {}.ours.o)", b.stem));
                "DIFFERS".into()
            }
        },
        Err(e) => {
            row.failures.push(e);
            "errors".into()
        }
    };
    let file_name = format!("{}.o", b.stem);
    for (flag, relocs) in [("-d", false), ("-dr", true)] {
        let o = Command::new(&tools.objdump)
            .arg(flag)
            .arg(&file_name)
            .current_dir(dir)
            .env("LC_ALL", "C")
            .output()
            .expect("runs objdump");
        assert!(o.status.success(), "objdump {flag} {file_name} failed");
        let want = String::from_utf8_lossy(&o.stdout);
        let got = disasm::objdump_object(&file_name, &gas_bytes, relocs).unwrap_or_else(|e| {
            row.failures.push(format!("disasm {flag}: {e}"));
            String::new()
        });
        let figures = (identical_lines(&want, &got), want.lines().count());
        if want != got {
            row.failures.push(format!("disasm {flag}: {}", first_diff(&want, &got)));
        }
        *if relocs { &mut row.disasm_r } else { &mut row.disasm_d } = figures;
    }
}

#[test]
fn every_kernel_build_preprocesses_assembles_and_disassembles_as_the_gnu_tools_do() {
    let Some(tree) = common::kernel_source() else { return };
    let (Some(gcc), Some(gas), Some(ld), Some(objdump)) = (
        common::oracle("gcc"),
        common::oracle("ia64-linux-gnu-as"),
        common::oracle("ia64-linux-gnu-ld"),
        common::oracle("ia64-linux-gnu-objdump"),
    ) else {
        return;
    };
    let tools = Tools { gcc, gas, objdump };
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ia64-kernel-corpus");
    let mut table = String::new();
    let mut failures = Vec::new();
    let (mut builds, mut pp_same, mut obj_same) = (0, 0, 0);
    let (mut d, mut r) = ((0, 0), (0, 0));
    let mut ours_time = Duration::ZERO;
    for accounting in [false, true] {
        let objtree = scratch.join(if accounting { "accounting" } else { "base" });
        let _ = std::fs::remove_dir_all(&objtree);
        let corpus = kernel_corpus::prepare(&tree, &objtree, accounting, Some(&ld));
        for b in &corpus.builds {
            let mut row = Row::default();
            match &b.text {
                Ok(text) => {
                    preprocessor_column(&tools, &tree, b, text, &mut row);
                    object_columns(&tools, &corpus, b, &mut row, &mut ours_time);
                }
                Err(e) => {
                    row.preprocessor = "acctemu failed".into();
                    row.failures.push(format!("acctemu's preprocessor: {e}"));
                }
            }
            builds += 1;
            pp_same += usize::from(row.preprocessor.starts_with("identical"));
            obj_same += usize::from(row.object == "identical");
            d = (d.0 + row.disasm_d.0, d.1 + row.disasm_d.1);
            r = (r.0 + row.disasm_r.0, r.1 + row.disasm_r.1);
            table.push_str(&format!(
                "{:<58} pp {:<22} object {:<10} -d {:>5}/{:<5} -dr {:>5}/{:<5}\n",
                b.label, row.preprocessor, row.object, row.disasm_d.0, row.disasm_d.1, row.disasm_r.0, row.disasm_r.1
            ));
            failures.extend(row.failures.iter().map(|f| format!("{}: {f}", b.label)));
        }
    }
    eprintln!("{table}");
    eprintln!(
        "{builds} builds: preprocessor output identical {pp_same}, objects identical {obj_same}; \
         disassembly lines identical -d {}/{}, -dr {}/{}; our assembler took {:.2} s (this build's profile)",
        d.0,
        d.1,
        r.0,
        r.1,
        ours_time.as_secs_f64()
    );
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n"));
}
