//! `acctemu disasm` on whole ELF objects against `objdump -d` and `objdump -dr` (issue 13):
//! every section at its own address (0 in a relocatable object), and each relocation line
//! after the line it belongs to.
//!
//! Two corpora: the committed goldens (`tests/corpus/ia64/golden/NAME.o` with its
//! `.objdump` / `.objdump-r`, and the disassembler-only `objects/golden/`: relocations of
//! every operator, several code sections, wide addresses, symbol-naming corners, regions
//! cut inside bundles), which need no oracle; and the
//! GNU as objects of every arch/ia64 `.S` of Linux 6.1, built by
//! `scripts/ia64-kernel-objects.sh` and compared with the live objdump, with and without
//! the accounting config. Each test prints lines identical / total per file.

mod common;

use arch_ia64::disasm;
use std::path::Path;
use std::process::Command;

/// Lines of `want` that a longest common subsequence with `got` keeps: the "identical
/// lines" figure of a report (equal texts give every line).
fn identical_lines(want: &str, got: &str) -> usize {
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
fn first_diff(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  want: {w:?}\n  got:  {g:?}", i + 1);
        }
    }
    format!("line counts differ: want {}, got {}", want.lines().count(), got.lines().count())
}

/// Compares one object's `-d` and `-dr` text with `want_d` / `want_r`; returns the report
/// line and, when they differ, the failure.
fn compare(name: &str, file_name: &str, bytes: &[u8], want_d: &str, want_r: &str) -> (String, Option<String>) {
    let mut failure = None;
    let mut figures = Vec::new();
    for (flag, relocs, want) in [("-d", false, want_d), ("-dr", true, want_r)] {
        let got = match disasm::objdump_object(file_name, bytes, relocs) {
            Ok(text) => text,
            Err(e) => {
                failure.get_or_insert(format!("{name} {flag}: {e}"));
                String::new()
            }
        };
        figures.push(format!("{flag} {}/{}", identical_lines(want, &got), want.lines().count()));
        if want != got {
            failure.get_or_insert(format!("{name} {flag}: {}", first_diff(want, &got)));
        }
    }
    (format!("{name}: {} lines identical", figures.join(", ")), failure)
}

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every committed golden object (both corpora) against its recorded objdump text.
fn check_golden_dir(dir: &Path, min: usize) {
    let objects = common::objects_in(dir);
    assert!(objects.len() >= min, "only {} objects in {}", objects.len(), dir.display());
    let mut failures = Vec::new();
    for (stem, path) in &objects {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let want_d = read_text(&path.with_extension("objdump"));
        let want_r = read_text(&path.with_extension("objdump-r"));
        let (report, failure) = compare(stem, &format!("{stem}.o"), &bytes, &want_d, &want_r);
        eprintln!("{report}");
        failures.extend(failure);
    }
    assert!(failures.is_empty(), "{} objects differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_golden_object_disassembles_as_objdump_d_and_dr() {
    check_golden_dir(&common::root().join("tests/corpus/ia64/golden"), 40);
}

#[test]
fn disassembly_objects_with_relocations_and_sections_match_objdump() {
    let dir = common::root().join("tests/corpus/ia64/objects/golden");
    check_golden_dir(&dir, 4);
    // The corpus must keep exercising what it is for: relocation lines, and a second code
    // section that starts again at 0.
    let relocs = read_text(&dir.join("relocs.objdump-r"));
    assert!(relocs.lines().filter(|l| l.starts_with("\t\t\t")).count() >= 40, "relocs.S lost its relocations");
    let wide = read_text(&dir.join("wide.objdump"));
    assert!(wide.contains("Disassembly of section .text.other:\n\n0000000000000000 <other>:"));
    let regions = read_text(&dir.join("regions.objdump"));
    assert!(regions.matches("is out of bounds.\n\n").count() >= 5, "regions.S lost its cut bundles");
}

#[test]
fn the_cli_prints_objdump_dr_text() {
    let out = common::acctemu(&["disasm", "-r", "tests/corpus/ia64/objects/golden/relocs.o"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want = read_text(&common::root().join("tests/corpus/ia64/objects/golden/relocs.objdump-r"));
    // objdump names the file as it was given on its command line.
    let want = want.replacen("relocs.o:", "tests/corpus/ia64/objects/golden/relocs.o:", 1);
    let got = String::from_utf8_lossy(&out.stdout);
    assert!(want == got, "{}", first_diff(&want, &got));
}

/// The arch/ia64 `.S` files of Linux 6.1 that are not linker scripts.
const KERNEL_FILES: usize = 33;

/// Builds the kernel corpus for `flavour` and compares every object with the live objdump.
fn check_kernel_corpus(flavour: &str) {
    let Some(src) = common::kernel_source() else { return };
    // ld links the gate DSO that gate-data.S embeds.
    let (Some(_), Some(_), Some(_), Some(objdump)) = (
        common::oracle("ia64-linux-gnu-as"),
        common::oracle("ia64-linux-gnu-ld"),
        common::oracle("cpp"),
        common::oracle("ia64-linux-gnu-objdump"),
    ) else {
        return;
    };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ia64-kernel-objects-{flavour}"));
    let script = common::root().join("scripts/ia64-kernel-objects.sh");
    let status = Command::new("bash")
        .arg(&script)
        .arg(&src)
        .arg(&out)
        .arg(flavour)
        .status()
        .unwrap_or_else(|e| panic!("running {}: {e}", script.display()));
    assert!(status.success(), "{} failed", script.display());
    let list = read_text(&out.join("list"));
    let failed = read_text(&out.join("failed"));
    assert!(failed.is_empty(), "the kernel build steps failed:\n{failed}");
    let names: Vec<&str> = list.lines().collect();
    assert_eq!(names.len(), KERNEL_FILES, "kernel objects built: {names:?}");
    let run = |flag: &str, name: &str| {
        let o = Command::new(&objdump)
            .arg(flag)
            .arg(format!("{name}.o"))
            .current_dir(&out)
            .env("LC_ALL", "C")
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", objdump.display()));
        assert!(o.status.success(), "objdump {flag} {name}.o failed");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let mut failures = Vec::new();
    // (identical, total) lines of -d and of -dr over the corpus.
    let mut sums = [(0, 0), (0, 0)];
    for name in &names {
        let bytes = std::fs::read(out.join(format!("{name}.o"))).unwrap_or_else(|e| panic!("{name}.o: {e}"));
        let (want_d, want_r) = (run("-d", name), run("-dr", name));
        let (report, failure) = compare(name, &format!("{name}.o"), &bytes, &want_d, &want_r);
        eprintln!("{flavour} {report}");
        for ((same, total), (relocs, want)) in sums.iter_mut().zip([(false, &want_d), (true, &want_r)]) {
            let got = disasm::objdump_object(&format!("{name}.o"), &bytes, relocs).unwrap_or_default();
            *same += identical_lines(want, &got);
            *total += want.lines().count();
        }
        failures.extend(failure);
    }
    let [(d_same, d_total), (r_same, r_total)] = sums;
    eprintln!("{flavour}: {} objects, lines identical: -d {d_same}/{d_total}, -dr {r_same}/{r_total}", names.len());
    assert!(failures.is_empty(), "{} kernel objects differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn kernel_objects_with_accounting_match_live_objdump() {
    check_kernel_corpus("accounting");
}

#[test]
fn kernel_objects_without_accounting_match_live_objdump() {
    check_kernel_corpus("plain");
}
