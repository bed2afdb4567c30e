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
    /// A hunk's context or removed lines are not in the source.
    #[error("does not apply to {source_name}")]
    DoesNotApply {
        /// The name of the source the patch was applied to.
        source_name: String,
    },
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
    fn text_without_hunks_is_not_a_patch() {
        let e = apply(SOURCE, "x", "p.diff", "hello\n").err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("p.diff: no hunks (`@@ -l,n +l,n @@` lines): not a unified diff"));
    }
}
