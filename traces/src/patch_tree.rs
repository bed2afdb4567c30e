//! Unified diffs of several files applied to a tree as GNU `patch` does: in reverse (`-R`),
//! each hunk found at its line or the nearest place it matches (an offset), and, when the
//! context has changed around it, with up to F lines of leading and trailing context ignored
//! (fuzz `-F`). `acctemu diff --patch` on an assembled trace takes one file's diff through diffy,
//! which does neither; this is for a kernel patch of several files meeting a later tree, and for
//! the patches [`crate::rebuild`] applies to a compiled trace's sources.
//!
//! Each hunk's result says where it went and with what fuzz, so a caller can name every
//! adaptation (GNU patch prints the same as "Hunk #2 succeeded at 725 (offset -24 lines)").

use std::fmt;

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkLine {
    /// Context (` `, or an empty line whose leading space a mailer dropped).
    Context(String),
    /// Removed (`-`).
    Removed(String),
    /// Added (`+`).
    Added(String),
}

/// One `@@ -l,n +l,n @@` hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// 1-based line of its header in the patch text.
    pub header_line: usize,
    /// The header's old start line (1-based).
    pub old_start: usize,
    /// The header's new start line.
    pub new_start: usize,
    /// Its body.
    pub lines: Vec<HunkLine>,
}

impl Hunk {
    /// The hunk as `patch -R` uses it: removed and added swapped.
    pub fn reversed(&self) -> Hunk {
        let lines = self
            .lines
            .iter()
            .map(|l| match l {
                HunkLine::Context(s) => HunkLine::Context(s.clone()),
                HunkLine::Removed(s) => HunkLine::Added(s.clone()),
                HunkLine::Added(s) => HunkLine::Removed(s.clone()),
            })
            .collect();
        Hunk { header_line: self.header_line, old_start: self.new_start, new_start: self.old_start, lines }
    }

    fn old(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                HunkLine::Context(s) | HunkLine::Removed(s) => Some(s.as_str()),
                HunkLine::Added(_) => None,
            })
            .collect()
    }

    fn new_side(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                HunkLine::Context(s) | HunkLine::Added(s) => Some(s.as_str()),
                HunkLine::Removed(_) => None,
            })
            .collect()
    }

    fn leading_context(&self) -> usize {
        self.lines.iter().take_while(|l| matches!(l, HunkLine::Context(_))).count()
    }

    fn trailing_context(&self) -> usize {
        self.lines.iter().rev().take_while(|l| matches!(l, HunkLine::Context(_))).count()
    }
}

/// The diff of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePatch {
    /// The `--- ` name (up to a tab).
    pub old_name: String,
    /// The `+++ ` name.
    pub new_name: String,
    /// 1-based line of the `--- ` header.
    pub header_line: usize,
    /// Its hunks, in order.
    pub hunks: Vec<Hunk>,
}

impl FilePatch {
    /// The path inside the tree: the `+++` name with `strip` leading components removed
    /// (`patch -p`).
    pub fn path(&self, strip: usize) -> String {
        let name = if self.new_name == "/dev/null" { &self.old_name } else { &self.new_name };
        name.split('/').skip(strip).collect::<Vec<_>>().join("/")
    }
}

/// Why a patch cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreePatchError {
    /// The patch's name.
    pub patch: String,
    /// 1-based line in the patch.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TreePatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.patch, self.line, self.message)
    }
}

impl std::error::Error for TreePatchError {}

fn range(text: &str) -> Option<(usize, usize)> {
    match text.split_once(',') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => Some((text.parse().ok()?, 1)),
    }
}

/// `@@ -a,b +c,d @@` → ((a, b), (c, d)).
fn header(line: &str) -> Option<((usize, usize), (usize, usize))> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    Some((range(old)?, range(new)?))
}

/// Parses every file diff of `text` (lines outside them — mail text, `Index:` lines — are
/// ignored, as patch does).
///
/// # Errors
/// A hunk header that does not parse, or a body shorter than its header says.
pub fn parse(patch_name: &str, text: &str) -> Result<Vec<FilePatch>, TreePatchError> {
    let lines: Vec<&str> = text.lines().collect();
    let err = |line: usize, message: String| TreePatchError { patch: patch_name.to_string(), line, message };
    let name = |h: &str| h.split('\t').next().unwrap_or_default().trim().to_string();
    let mut out: Vec<FilePatch> = Vec::new();
    let mut i = 0;
    while let Some(&line) = lines.get(i) {
        if let (Some(old), Some(new)) =
            (line.strip_prefix("--- "), lines.get(i + 1).and_then(|l| l.strip_prefix("+++ ")))
        {
            out.push(FilePatch { old_name: name(old), new_name: name(new), header_line: i + 1, hunks: Vec::new() });
            i += 2;
            continue;
        }
        if line.starts_with("@@ ") {
            let Some(((old_start, mut old_n), (new_start, mut new_n))) = header(line) else {
                return Err(err(i + 1, format!("malformed hunk header `{line}`")));
            };
            let Some(file) = out.last_mut() else {
                return Err(err(i + 1, "hunk before any `--- `/`+++ ` file header".into()));
            };
            let header_line = i + 1;
            let mut body = Vec::new();
            i += 1;
            while old_n > 0 || new_n > 0 {
                let Some(&l) = lines.get(i) else {
                    return Err(err(header_line, format!("hunk `{line}` ends early: the patch ends")));
                };
                let (kind, rest) = l.split_at(l.len().min(1));
                match kind {
                    " " | "" if old_n > 0 && new_n > 0 => {
                        old_n -= 1;
                        new_n -= 1;
                        body.push(HunkLine::Context(rest.to_string()));
                    }
                    "-" if old_n > 0 => {
                        old_n -= 1;
                        body.push(HunkLine::Removed(rest.to_string()));
                    }
                    "+" if new_n > 0 => {
                        new_n -= 1;
                        body.push(HunkLine::Added(rest.to_string()));
                    }
                    "\\" => {}
                    _ => {
                        return Err(err(
                            i + 1,
                            format!(
                            "hunk `{line}` ends early: `{l}` is not a line it still needs ({old_n} old, {new_n} new)"
                        ),
                        ))
                    }
                }
                i += 1;
            }
            file.hunks.push(Hunk { header_line, old_start, new_start, lines: body });
            continue;
        }
        i += 1;
    }
    if out.iter().all(|f| f.hunks.is_empty()) {
        return Err(err(1, "no hunks: not a unified diff".into()));
    }
    Ok(out)
}

/// How to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApplyOptions {
    /// `-R`.
    pub reverse: bool,
    /// `-F`: the most context lines ignored at each end of a hunk.
    pub max_fuzz: usize,
}

/// Where one hunk went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkResult {
    /// 1-based hunk number within its file.
    pub number: usize,
    /// 1-based line of its header in the patch.
    pub header_line: usize,
    /// 1-based line of the result where the hunk's text starts.
    pub at: usize,
    /// Lines from where the header (shifted by the hunks before) put it.
    pub offset: i64,
    /// Context lines ignored at each end.
    pub fuzz: usize,
}

impl fmt::Display for HunkResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hunk #{} at {}", self.number, self.at)?;
        if self.offset != 0 {
            write!(f, " (offset {} lines)", self.offset)?;
        }
        if self.fuzz != 0 {
            write!(f, " with fuzz {}", self.fuzz)?;
        }
        Ok(())
    }
}

/// A hunk that matched nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkFailed {
    /// 1-based hunk number within its file.
    pub number: usize,
    /// 1-based line of its header in the patch.
    pub header_line: usize,
}

/// Applies `file`'s hunks to `source`. Returns the text and each hunk's result.
///
/// # Errors
/// The first hunk that matches nowhere at any fuzz up to the maximum.
pub fn apply_file(source: &str, file: &FilePatch, opts: ApplyOptions) -> Result<(String, Vec<HunkResult>), HunkFailed> {
    let mut text: Vec<String> = source.lines().map(str::to_string).collect();
    let mut results = Vec::new();
    let mut delta: i64 = 0; // lines added minus removed by the hunks applied so far
    let mut offset: i64 = 0; // the last hunk's offset, carried as patch does
    let mut floor = 0usize; // a hunk never goes before the end of the previous one
    for (k, h) in file.hunks.iter().enumerate() {
        let hunk = if opts.reverse { h.reversed() } else { h.clone() };
        let (old, new) = (hunk.old(), hunk.new_side());
        let (lead, trail) = (hunk.leading_context(), hunk.trailing_context());
        let mut placed = None;
        for fuzz in 0..=opts.max_fuzz {
            let (dl, dt) = (fuzz.min(lead), fuzz.min(trail));
            if dl + dt > old.len() || (fuzz > 0 && dl == 0 && dt == 0) {
                break;
            }
            let pattern = &old[dl..old.len() - dt];
            let base = hunk.old_start.saturating_sub(1) as i64 + dl as i64 + delta;
            let expected = base + offset;
            if let Some(at) = find(&text, pattern, expected, floor) {
                placed = Some((at, dl, dt, fuzz, at as i64 - base));
                break;
            }
        }
        let Some((at, dl, dt, fuzz, off)) = placed else {
            return Err(HunkFailed { number: k + 1, header_line: h.header_line });
        };
        let pattern_len = old.len() - dl - dt;
        let replacement: Vec<String> = new[dl..new.len() - dt].iter().map(|s| s.to_string()).collect();
        let added = replacement.len();
        text.splice(at..at + pattern_len, replacement);
        delta += added as i64 - pattern_len as i64;
        offset = off;
        floor = at + added;
        results.push(HunkResult { number: k + 1, header_line: h.header_line, at: at + 1, offset: off, fuzz });
    }
    let mut out = text.join("\n");
    if source.ends_with('\n') || source.is_empty() {
        out.push('\n');
    }
    Ok((out, results))
}

/// The position nearest `expected` (ties: the earlier) at or after `floor` where `pattern`
/// matches `text`.
fn find(text: &[String], pattern: &[&str], expected: i64, floor: usize) -> Option<usize> {
    let last = text.len().checked_sub(pattern.len())?;
    let matches =
        |p: usize| p >= floor && p <= last && text[p..p + pattern.len()].iter().zip(pattern).all(|(a, b)| a == b);
    let start = expected.clamp(0, last as i64) as usize;
    (0..=last.max(start)).find_map(|d| {
        let below = start.checked_sub(d).filter(|&p| matches(p));
        below.or_else(|| Some(start + d).filter(|&p| matches(p)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";

    fn one(patch: &str) -> FilePatch {
        parse("p.diff", patch).unwrap().remove(0)
    }

    #[test]
    fn a_hunk_applies_in_place_then_in_reverse() {
        let p = one("--- a/x\n+++ b/x\n@@ -3,3 +3,4 @@\n c\n d\n+D\n e\n");
        let opts = ApplyOptions { reverse: false, max_fuzz: 0 };
        let (t, r) = apply_file(OLD, &p, opts).unwrap();
        assert_eq!(t, "a\nb\nc\nd\nD\ne\nf\ng\nh\ni\nj\n");
        assert_eq!(r[0].to_string(), "hunk #1 at 3");
        let (back, r) = apply_file(&t, &p, ApplyOptions { reverse: true, ..opts }).unwrap();
        assert_eq!(back, OLD);
        assert_eq!((r[0].offset, r[0].fuzz), (0, 0));
        assert!(apply_file(OLD, &p, ApplyOptions { reverse: true, ..opts }).is_err(), "D is not there to remove");
    }

    #[test]
    fn a_moved_hunk_is_found_with_an_offset_and_changed_context_with_fuzz() {
        let moved = format!("0\n1\n{OLD}");
        let p = one("--- a/x\n+++ b/x\n@@ -3,3 +3,4 @@\n c\n d\n+D\n e\n");
        let (_, r) = apply_file(&moved, &p, ApplyOptions { reverse: false, max_fuzz: 0 }).unwrap();
        assert_eq!((r[0].at, r[0].offset), (5, 2));
        let changed = OLD.replace("c\n", "C\n");
        assert!(apply_file(&changed, &p, ApplyOptions { reverse: false, max_fuzz: 0 }).is_err());
        let (t, r) = apply_file(&changed, &p, ApplyOptions { reverse: false, max_fuzz: 1 }).unwrap();
        assert_eq!(r[0].fuzz, 1);
        assert!(t.starts_with("a\nb\nC\nd\nD\ne\n"), "the ignored context stays as the file has it: {t}");
    }

    #[test]
    fn several_files_and_mail_text_and_blank_context_lines_parse() {
        let text = "Hello\nIndex: x\n===\n--- a/x\t2007\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-c\n+C\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-y\n+Y\n-\nbye\n";
        let files = parse("p", text).unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!((files[0].path(1), files[1].path(1)), ("x".to_string(), "y".to_string()));
        assert_eq!(files[0].hunks[0].lines[1], HunkLine::Context(String::new()));
        let (t, _) = apply_file("a\n\nc\n", &files[0], ApplyOptions { reverse: false, max_fuzz: 0 }).unwrap();
        assert_eq!(t, "a\n\nC\n");
    }

    #[test]
    fn malformed_patches_are_errors_with_their_line() {
        let e = parse("p", "--- a/x\n+++ b/x\n@@ -1,x +1 @@\n").unwrap_err();
        assert_eq!(e.to_string(), "p:3: malformed hunk header `@@ -1,x +1 @@`");
        let e = parse("p", "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n").unwrap_err();
        assert_eq!(e.to_string(), "p:3: hunk `@@ -1,2 +1,2 @@` ends early: the patch ends");
        let e = parse("p", "hello\n").unwrap_err();
        assert_eq!(e.to_string(), "p:1: no hunks: not a unified diff");
    }
}
