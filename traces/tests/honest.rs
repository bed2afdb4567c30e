//! The three versions of `ia64/syscall` differ exactly by seed 004's lines: every line that
//! V.1 has and V.2 lacks is one of the seed's `-` lines, and every line V.2 adds is one of its
//! `+` lines (both sides preprocessed with the trace's own definitions, comments and spacing
//! normalised), apart from scaffold fenced as versioned (listed in the source). The seed
//! document lives in the project's shared folder beside the checkout.

use emu_core::preprocess::{preprocess, MemLoader, PreprocessOptions};
use std::collections::BTreeSet;
use std::path::Path;

/// The seed document from the project's shared folder beside the checkout (`../shared`), or
/// `ACCTEMU_SHARED` when set. It is project material, not a tool: without it the test says so
/// and checks nothing.
fn seed_text() -> Option<String> {
    let shared = std::env::var_os("ACCTEMU_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let path = shared.join("seeds/004_45a46edebad92d63.txt");
    let text = std::fs::read_to_string(&path).ok();
    if text.is_none() {
        eprintln!("seed 004 not found at {}: honesty check skipped", path.display());
    }
    text
}

/// A line without `//` comments, with runs of blanks folded to one space.
fn normal(line: &str) -> String {
    let code = line.split("//").next().unwrap_or("");
    code.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` preprocessed with `defines`: its non-empty normalised lines, in order.
fn lines(text: &str, defines: &[(&str, &str)]) -> Vec<String> {
    let opts = defines.iter().fold(PreprocessOptions::new(), |o, (n, v)| o.defined(*n, *v));
    let pp = preprocess("syscall.S", text, &opts, &MemLoader::new()).expect("preprocesses");
    pp.text.lines().map(normal).filter(|l| !l.is_empty()).collect()
}

/// The seed's lines of one side of the patch — `-` side: removed and context lines (the old
/// file); `+` side: added and context lines (the new file) — preprocessed with the trace's own
/// preprocessor skeleton (its `#` lines) and `defines`, so symbolic offsets and predicate names
/// read as they do in that version of the trace.
fn seed_side(seed: &str, sign: char, skeleton: &str, defines: &[(&str, &str)]) -> BTreeSet<String> {
    let body: String = seed
        .lines()
        .filter(|l| (l.starts_with(sign) || l.starts_with(' ')) && !l.starts_with("+++") && !l.starts_with("---"))
        .map(|l| &l[1..])
        // Preprocessor lines come from the trace's skeleton; block comments are cut by hunks.
        .filter(|l| {
            !l.trim_start().starts_with('#') && !l.trim_start().starts_with("/*") && !l.trim_start().starts_with('*')
        })
        .map(|l| format!("{l}\n"))
        .collect();
    lines(&format!("{skeleton}\n{body}"), defines).into_iter().collect()
}

#[test]
fn versions_differ_by_the_seeds_lines_only() {
    let Some(seed) = seed_text() else { return };
    let trace = traces::find("ia64/syscall/v1").expect("v1");
    // Scaffold that must differ by version without being the seed's (the fsys shortcut's
    // leave-side accounting) is fenced `scaffold: versioned begin` ... `end` and left out.
    let mut fenced = false;
    let src: String = trace
        .source
        .lines()
        .map(|l| {
            if l.contains("scaffold: versioned begin") {
                fenced = true;
            }
            let keep = !fenced || l.trim_start().starts_with('#');
            if l.contains("scaffold: versioned end") {
                fenced = false;
            }
            if keep {
                format!("{l}\n")
            } else {
                "\n".to_string()
            }
        })
        .collect();
    let src = src.as_str();
    // The trace's preprocessor lines only: its #define/#ifdef structure without any code.
    let skeleton: String = src.lines().filter(|l| l.trim_start().starts_with('#')).map(|l| format!("{l}\n")).collect();
    let v1_defines = [("CONFIG_VIRT_CPU_ACCOUNTING", "1")];
    let v2_defines = [("CONFIG_VIRT_CPU_ACCOUNTING", "1"), ("ACCOUNTING_V2", "1")];
    let v1 = lines(src, &v1_defines);
    let v2 = lines(src, &v2_defines);
    let minus = seed_side(&seed, '-', &skeleton, &v1_defines);
    let plus = seed_side(&seed, '+', &skeleton, &v2_defines);
    let (t1, t2) = (v1.join("\n") + "\n", v2.join("\n") + "\n");
    let patch = diffy::create_patch(&t1, &t2);
    let mut strays = Vec::new();
    for hunk in patch.hunks() {
        for line in hunk.lines() {
            match line {
                diffy::Line::Delete(l) if !minus.contains(l.trim_end()) => strays.push(format!("- {}", l.trim_end())),
                diffy::Line::Insert(l) if !plus.contains(l.trim_end()) => strays.push(format!("+ {}", l.trim_end())),
                _ => {}
            }
        }
    }
    assert!(strays.is_empty(), "lines that differ between V.1 and V.2 but are not the seed's:\n{}", strays.join("\n"));
}
