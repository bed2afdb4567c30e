//! The IA-64 disassembler against the golden corpus: objdump text, re-encoding, a second
//! decoder (yaxpeax-ia64), the live objdump, and robustness against bit flips.

mod common;

use arch_ia64::{disasm, elf};
use emu_core::image::{Image, SectionKind};

fn load(path: &std::path::Path) -> Image {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    elf::load(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// First differing line, for a readable failure.
fn first_diff(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  want: {w:?}\n  got:  {g:?}", i + 1);
        }
    }
    format!(
        "line counts differ: want {}, got {}",
        want.lines().count(),
        got.lines().count()
    )
}

/// The golden objects the disassembler must reproduce: all but `unsupported_forms`, which
/// records forms outside the issue-2 instruction list.
fn checked_objects() -> Vec<(String, std::path::PathBuf)> {
    common::golden_objects().into_iter().filter(|(stem, _)| stem != "unsupported_forms").collect()
}

#[test]
fn objdump_text_matches_every_golden() {
    let mut failures = Vec::new();
    for (stem, path) in checked_objects() {
        let want = std::fs::read_to_string(path.with_extension("objdump")).unwrap_or_default();
        let got = disasm::objdump(&format!("{stem}.o"), &load(&path));
        if want != got {
            failures.push(format!("{stem}: {}", first_diff(&want, &got)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
