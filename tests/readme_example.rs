//! The README's Rust examples are the ones `src/lib.rs` runs as doc-tests (issue 16): the
//! README cannot be a doc-test itself, as rustdoc would run its indented shell lines too.

/// The fenced Rust blocks of `text`, each as its lines.
fn rust_blocks(text: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().map(str::trim_end);
    while lines.by_ref().any(|l| l == "```rust") {
        blocks.push(lines.by_ref().take_while(|l| *l != "```").map(str::to_string).collect());
    }
    blocks
}

#[test]
fn the_readme_examples_are_the_doc_tests() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let lib = std::fs::read_to_string(format!("{root}/src/lib.rs")).expect("src/lib.rs");
    let doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    let from_readme = rust_blocks(&readme);
    // One example per core.
    assert_eq!(from_readme.len(), 3, "the README's examples are {from_readme:?}");
    assert!(from_readme.iter().all(|b| b.len() >= 3), "{from_readme:?}");
    assert_eq!(from_readme, rust_blocks(&doc));
}
