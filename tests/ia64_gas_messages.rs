//! gas's own words (issue 13): for the error inputs whose messages we reproduce, every
//! warning and error line gas prints (`FILE:LINE: Error: text`) equals ours, in order.
//! The other inputs only have to fail on the same lines (`ia64_asm.rs`).

use arch_ia64::asm::assemble;
use emu_core::error::{Diagnostics, Severity};
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use std::path::{Path, PathBuf};

/// Error inputs whose messages match gas's text exactly.
const EXACT: &[&str] = &[
    "err_alias_dup",
    "err_alloc_sizes",
    "err_hint_b",
    "err_manual_placement",
    "err_operand_words",
    "err_proc_names",
    "err_radix_rot",
    "err_rot_counts",
    "err_template_slot",
    "err_unwind_place",
];

fn errors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ia64/errors")
}

/// gas's message lines, `LINE: Kind: text`.
fn gas_lines(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (_, rest) = l.split_once(':')?;
            let (line, text) = rest.split_once(": ")?;
            (text.starts_with("Error: ") || text.starts_with("Warning: ")).then(|| format!("{line}: {text}"))
        })
        .collect()
}

#[test]
fn error_inputs_give_gas_messages_word_for_word() {
    let mut failures = Vec::new();
    for name in EXACT {
        let src = errors_dir().join(format!("{name}.S"));
        let text = std::fs::read_to_string(&src).expect("source");
        let gas = std::fs::read_to_string(src.with_extension("gas-stderr")).expect("gas stderr");
        let want = gas_lines(&gas);
        assert!(!want.is_empty(), "{name}: gas printed no message");
        let got: Vec<String> = match assemble(&format!("{name}.S"), &text, &PreprocessOptions::new(), &FsLoader) {
            Ok(_) => vec!["(assembled)".to_string()],
            Err(Diagnostics(ds)) => ds
                .iter()
                .flat_map(|d| {
                    let kind = if d.severity == Severity::Error { "Error" } else { "Warning" };
                    std::iter::once(format!("{}: {kind}: {}", d.loc.line, d.message))
                        .chain(d.notes.iter().map(|(l, m)| format!("{}: Warning: {m}", l.line)))
                })
                .collect(),
        };
        if got != want {
            failures.push(format!("{name}:\n  ours {got:#?}\n  gas  {want:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
