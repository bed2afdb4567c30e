//! Every row of the IA-64 table is exercised by the golden corpus (decoded from GNU as's
//! bytes, which the assembler reproduces), or is listed with a reason in
//! `tests/corpus/ia64/not-covered.txt` (STYLE.md section 6).

mod common;

use arch_ia64::decode::{decode_all, Slot};
use arch_ia64::table::{table, Flags};
use std::collections::BTreeSet;
use std::path::Path;

fn corpus() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ia64")
}

fn hex_bytes(text: &str) -> Vec<u8> {
    text.lines()
        .flat_map(|l| (0..l.len() / 2).filter_map(move |i| u8::from_str_radix(l.get(2 * i..2 * i + 2)?, 16).ok()))
        .collect()
}

/// Row names as the coverage list spells them: mnemonic template and format.
fn row_key(idx: usize) -> String {
    let f = &table().forms[idx];
    format!("{} {}", f.name.replace("{}", "*"), f.format)
}

#[test]
fn every_row_has_a_corpus_vector_or_a_reason() {
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(corpus().join("golden")).expect("golden dir").flatten() {
        let path = entry.path();
        if !path.to_string_lossy().ends_with(".text.hex") {
            continue;
        }
        let bytes = hex_bytes(&std::fs::read_to_string(&path).expect("hex"));
        // Data in .text (directives.S) is not code; decode bundle by bundle and skip it.
        for chunk in bytes.chunks(16) {
            let Ok(bundles) = decode_all(chunk) else {
                continue;
            };
            for b in bundles {
                for s in b.slots {
                    if let Slot::Insn(i) = s {
                        seen.insert(usize::from(i.form));
                    }
                }
            }
        }
    }
    let exempt = common::exemption_keys("not-covered.txt");
    let mut missing = Vec::new();
    let mut stale = Vec::new();
    for (idx, form) in table().forms.iter().enumerate() {
        if form.flags.has(Flags::ASM_ONLY) {
            continue; // assembler-only aliases encode as other rows
        }
        let key = row_key(idx);
        match (seen.contains(&idx), exempt.contains(key.as_str())) {
            (false, false) => missing.push(key),
            (true, true) => stale.push(key),
            _ => {}
        }
    }
    assert!(missing.is_empty(), "rows with no corpus vector and no reason in not-covered.txt:\n{}", missing.join("\n"));
    assert!(stale.is_empty(), "rows listed in not-covered.txt that the corpus now covers:\n{}", stale.join("\n"));
}
