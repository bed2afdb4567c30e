//! `acctemu disasm` on whole ELF objects against `objdump -d` and `objdump -dr` (issue 13):
//! every section at its own address (0 in a relocatable object), and each relocation line
//! after the line it belongs to.
//!
//! The committed goldens (`tests/corpus/ia64/golden/NAME.o` with its `.objdump` /
//! `.objdump-r`, and the disassembler-only `objects/golden/`: relocations of every operator,
//! several code sections, wide addresses, symbol-naming corners, regions cut inside
//! bundles), which need no oracle. Each test prints lines identical / total per file. The
//! GNU as objects of the real arch/ia64 files against the live objdump are
//! `tests/ia64_kernel_corpus.rs`.

mod common;

use arch_ia64::disasm;
use common::{first_diff, identical_lines};
use std::path::Path;

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
