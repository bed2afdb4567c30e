//! The README's Rust example is the one `src/lib.rs` runs as a doc-test (issue 16): the
//! README cannot be a doc-test itself, as rustdoc would run its indented shell lines too.

/// The lines of the first fenced Rust block in `text`, with `prefix` stripped from each line.
fn rust_block(text: &str, prefix: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(|l| l.strip_prefix(prefix).unwrap_or(l.trim_end())).collect();
    let start = lines.iter().position(|l| *l == "```rust" || *l == "```").expect("an opening fence");
    let len = lines[start + 1..].iter().position(|l| *l == "```").expect("a closing fence");
    lines[start + 1..start + 1 + len].iter().map(|l| l.to_string()).collect()
}

#[test]
fn the_readme_example_is_the_doc_test() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let lib = std::fs::read_to_string(format!("{root}/src/lib.rs")).expect("src/lib.rs");
    let doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    let from_readme = rust_block(&readme, "");
    assert!(from_readme.len() >= 3, "the README's example is {from_readme:?}");
    assert_eq!(from_readme, rust_block(&doc, ""));
}
