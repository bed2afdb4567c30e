//! `acctemu diff --patch`: a unified diff applied with diffy, with errors located at the hunk
//! that is malformed or does not apply (`fix.diff:7: hunk #2 ...`).
//!
//! diffy reports neither the line of a parse error nor (publicly) the index of the hunk that
//! failed, so the hunk is found with diffy itself: the patch cut after its first k hunks is
//! parsed (or applied) for k = 1, 2, ... and the first cut that fails ends with the culprit.
//! Patches are small, so the quadratic search costs nothing worth measuring.

use std::fmt;

/// Why a patch could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {kind}")]
pub struct PatchError {
    /// The patch file and, when a hunk is to blame, its header line and text.
    pub place: PatchPlace,
    /// What is wrong.
    pub kind: PatchErrorKind,
}

/// Where in a patch an error is: the file, and the hunk when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchPlace {
    /// The patch's name as the user gave it.
    pub patch: String,
    /// The hunk to blame: 1-based number, 1-based line of its `@@` header, the header text.
    pub hunk: Option<(usize, usize, String)>,
}

impl fmt::Display for PatchPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.hunk {
            Some((n, line, header)) => write!(f, "{}:{line}: hunk #{n} `{header}`", self.patch),
            None => f.write_str(&self.patch),
        }
    }
}

/// What is wrong with a patch.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchErrorKind {
    /// diffy cannot parse it (its message).
    #[error("not a unified diff: {0}")]
    Malformed(String),
    /// It parses but holds no hunk, so it would change nothing.
    #[error("no hunks (`@@ -l,n +l,n @@` lines): not a unified diff")]
    Empty,
    /// It changes more than one file (`--- `/`+++ ` header pairs outside hunks); `--patch`
    /// changes the one source of A.
    #[error("holds diffs of {} files ({}); --patch takes a diff of one file, A's source", files.len(), list_files(files))]
    MultipleFiles {
        /// Each file's name (from its `+++` line, or `---` for a deletion) and the 1-based
        /// line of its `---` header.
        files: Vec<(String, usize)>,
    },
    /// A hunk's context or removed lines are not in the source.
    #[error("does not apply to {source_name}")]
    DoesNotApply {
        /// The name of the source the patch was applied to.
        source_name: String,
    },
}

fn list_files(files: &[(String, usize)]) -> String {
    let names: Vec<String> = files
        .iter()
        .map(|(name, line)| format!("`{}` at line {line}", emu_core::echo::escape_truncated(name, 0)))
        .collect();
    names.join(", ")
}

/// The files a unified diff changes: the name and 1-based line of each `--- `/`+++ ` header
/// pair that stands outside a hunk. Hunk bodies are skipped by their `@@ -l,n +l,n @@` counts,
/// so a removed line reading `-- x` (shown `--- x`) is not taken for a header.
pub fn files(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        if let Some(old) = line.strip_prefix("--- ") {
            if let Some(new) = lines.get(i + 1).and_then(|l| l.strip_prefix("+++ ")) {
                let name = |h: &str| h.split('\t').next().unwrap_or_default().trim().to_string();
                let chosen = if name(new) == "/dev/null" { name(old) } else { name(new) };
                out.push((chosen, i + 1));
                i += 2;
                continue;
            }
        }
        i += 1;
        if let Some((mut old, mut new)) = hunk_counts(line) {
            // Consume the hunk body; a malformed one is diffy's to report.
            while old > 0 || new > 0 {
                let Some(body) = lines.get(i) else { break };
                match body.bytes().next() {
                    // An empty line is a context line whose leading space was lost.
                    Some(b' ') | None => {
                        old = old.saturating_sub(1);
                        new = new.saturating_sub(1);
                    }
                    Some(b'-') => old = old.saturating_sub(1),
                    Some(b'+') => new = new.saturating_sub(1),
                    Some(b'\\') => {}
                    _ => break,
                }
                i += 1;
            }
        }
    }
    out
}

/// The old and new line counts of a hunk header `@@ -l[,n] +l[,n] @@`.
fn hunk_counts(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let count = |range: &str| match range.split_once(',') {
        Some((_, n)) => n.parse().ok(),
        None => range.parse::<u64>().ok().map(|_| 1),
    };
    Some((count(old)?, count(new)?))
}

/// Byte offset and 1-based line of each line of `text` starting with `@` (where diffy starts
/// a hunk, or ends the previous one).
fn hunk_starts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.starts_with('@') {
            out.push((offset, i + 1));
        }
        offset += line.len();
    }
    out
}

/// Applies the unified diff `patch_text` (named `patch_name`) to `source` (named
/// `source_name`).
///
/// # Errors
/// A malformed or empty patch, or a hunk that does not apply; located at the hunk's header
/// line when a hunk is to blame.
pub fn apply(source: &str, source_name: &str, patch_name: &str, patch_text: &str) -> Result<String, PatchError> {
    let changed = files(patch_text);
    if changed.len() > 1 {
        let place = PatchPlace { patch: patch_name.to_string(), hunk: None };
        return Err(PatchError { place, kind: PatchErrorKind::MultipleFiles { files: changed } });
    }
    let starts = hunk_starts(patch_text);
    // The patch up to the end of its k-th hunk (the whole text for the last one).
    let cut = |k: usize| patch_text.get(..starts.get(k).map_or(patch_text.len(), |s| s.0)).unwrap_or(patch_text);
    let place = |k: Option<usize>| PatchPlace {
        patch: patch_name.to_string(),
        hunk: k.and_then(|k| {
            let (offset, line) = *starts.get(k)?;
            let header = patch_text.get(offset..)?.lines().next()?.trim_end().to_string();
            Some((k + 1, line, header))
        }),
    };
    let parsed = match diffy::Patch::from_str(patch_text) {
        Ok(p) => p,
        Err(e) => {
            let culprit = (0..starts.len()).find(|&k| diffy::Patch::from_str(cut(k + 1)).is_err());
            return Err(PatchError { place: place(culprit), kind: PatchErrorKind::Malformed(e.to_string()) });
        }
    };
    if parsed.hunks().is_empty() {
        return Err(PatchError { place: place(None), kind: PatchErrorKind::Empty });
    }
    diffy::apply(source, &parsed).map_err(|_| {
        let fails = |k: usize| diffy::Patch::from_str(cut(k + 1)).map_or(true, |p| diffy::apply(source, &p).is_err());
        let culprit = (0..starts.len()).find(|&k| fails(k));
        PatchError {
            place: place(culprit),
            kind: PatchErrorKind::DoesNotApply { source_name: source_name.to_string() },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

    #[test]
    fn a_good_patch_applies() {
        let p = "--- a/x\n+++ b/x\n@@ -2,1 +2,1 @@\n-two\n+TWO\n";
        assert_eq!(apply(SOURCE, "x", "p.diff", p).map(|s| s.contains("TWO\n")), Ok(true));
    }

    #[test]
    fn the_hunk_that_does_not_apply_is_named_with_its_line() {
        let p = "--- a/x\n+++ b/x\n@@ -2,1 +2,1 @@\n-two\n+TWO\n@@ -8,1 +8,1 @@\n-EIGHT?\n+8\n";
        let e = apply(SOURCE, "x.S", "p.diff", p).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("p.diff:6: hunk #2 `@@ -8,1 +8,1 @@`: does not apply to x.S"));
    }

    #[test]
    fn a_malformed_hunk_is_named_with_its_line() {
        let p = "--- a/x\n+++ b/x\n@@ -2,1 +2,1 @@\n-two\n+TWO\n@@ -8,x +8,1 @@\n-eight\n+8\n";
        let e = apply(SOURCE, "x", "p.diff", p).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.starts_with("p.diff:6: hunk #2 `@@ -8,x +8,1 @@`: not a unified diff: "), "{e}");
        let p = "--- a/x\n+++ b/x\n@@ -2,3 +2,1 @@\n-two\n+TWO\n";
        let e = apply(SOURCE, "x", "p.diff", p).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.starts_with("p.diff:3: hunk #1 `@@ -2,3 +2,1 @@`: not a unified diff: "), "{e}");
    }

    #[test]
    fn a_patch_of_two_files_is_refused_naming_both() {
        let p = "--- a/x.S\n+++ b/x.S\n@@ -2,1 +2,1 @@\n-two\n+TWO\n--- a/y.h\t2024-01-01\n+++ b/y.h\n@@ -1 +1 @@\n-a\n+b\n";
        let e = apply(SOURCE, "x.S", "p.diff", p).err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "p.diff: holds diffs of 2 files (`b/x.S` at line 1, `b/y.h` at line 6); --patch takes a diff of \
                 one file, A's source"
            )
        );
    }

    #[test]
    fn removed_lines_that_look_like_headers_are_not_files() {
        // The hunk removes `-- two` and adds `++ TWO`: shown as `--- two` and `+++ TWO`.
        let p = "--- a/x\n+++ b/x\n@@ -2,1 +2,1 @@\n--- two\n+++ TWO\n";
        assert_eq!(files(p), [("b/x".to_string(), 1)]);
        assert_eq!(files("--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-one\n"), [("a/x".to_string(), 1)]);
        // Counts near 2^64 must not overflow while the body is skipped.
        let huge = "--- a/x\n+++ b/x\n@@ -1,18446744073709551615 +1,18446744073709551615 @@\n-one\n";
        assert_eq!(files(huge).len(), 1);
    }

    #[test]
    fn text_without_hunks_is_not_a_patch() {
        let e = apply(SOURCE, "x", "p.diff", "hello\n").err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("p.diff: no hunks (`@@ -l,n +l,n @@` lines): not a unified diff"));
    }
}
