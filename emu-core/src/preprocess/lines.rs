//! Translation phases 2 and 3: splice backslash-newlines, then remove comments.
//!
//! The result is one logical line per directive or text line. A logical line that
//! absorbed later physical lines (a splice or a multi-line `/* */`) sits on its first
//! physical line; the absorbed lines come out empty so line numbers stay put. A comment
//! inside one physical line becomes as many spaces as it had characters, which keeps
//! every later column valid.

use std::collections::HashMap;
use std::sync::Arc;

/// One logical source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LogicalLine {
    /// 1-based number of its first physical line.
    pub first: u32,
    /// Number of physical lines it covers (at least 1).
    pub count: u32,
    /// Spliced text without comments.
    pub text: String,
    /// Number of leading characters of `text` whose columns match the first physical line.
    pub exact_cols: u32,
}

impl LogicalLine {
    /// Whether every column of `text` matches the first physical line.
    pub fn verbatim(&self) -> bool {
        self.exact_cols as usize >= self.text.chars().count()
    }
}

/// A `/*` without its `*/` (1-based line and column of the opener).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct UnterminatedComment {
    pub line: u32,
    pub col: u32,
}

/// The physical lines of `text` (without `\n` or a trailing `\r`).
pub(super) fn physical_lines(text: &str) -> Vec<&str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()
}

/// The texts of the files read, each with the byte offset of every line start, so that a
/// diagnostic or listing entry finds its source line in constant time (splitting the file
/// per lookup made assembling quadratic in the number of statements).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct SourceSet {
    files: Vec<(Arc<str>, Arc<str>, Vec<usize>)>,
    by_name: HashMap<Arc<str>, usize>,
}

impl SourceSet {
    /// Record `text` as the contents of `name`, unless that file was already recorded.
    pub fn insert(&mut self, name: &Arc<str>, text: &str) {
        if self.by_name.contains_key(name) {
            return;
        }
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        self.by_name.insert(name.clone(), self.files.len());
        self.files.push((name.clone(), Arc::from(text), starts));
    }

    /// Line `line` (1-based) of file `name`, as [`physical_lines`] would give it.
    pub fn line(&self, name: &str, line: u32) -> Option<&str> {
        let (_, text, starts) = self.files.get(*self.by_name.get(name)?)?;
        let k = (line as usize).checked_sub(1)?;
        let start = *starts.get(k)?;
        if start >= text.len() {
            // The empty "line" after a final newline does not exist.
            return None;
        }
        let end = starts.get(k + 1).map_or(text.len(), |next| next - 1);
        let l = text.get(start..end)?;
        Some(l.strip_suffix('\r').unwrap_or(l))
    }
}

struct Spliced {
    first: u32,
    count: u32,
    text: String,
    /// Characters that come from the first physical line.
    first_len: u32,
}

fn splice(phys: &[&str]) -> Vec<Spliced> {
    let mut out: Vec<Spliced> = Vec::new();
    let mut open = false;
    for (i, line) in phys.iter().enumerate() {
        // GCC accepts (with a warning) whitespace between the backslash and the newline.
        let trimmed = line.trim_end_matches([' ', '\t']);
        let (piece, cont) = match trimmed.strip_suffix('\\') {
            Some(p) => (p, true),
            None => (*line, false),
        };
        match out.last_mut() {
            Some(cur) if open => {
                cur.count += 1;
                cur.text.push_str(piece);
            }
            _ => out.push(Spliced {
                first: i as u32 + 1,
                count: 1,
                text: piece.to_string(),
                first_len: piece.chars().count() as u32,
            }),
        }
        open = cont;
    }
    out
}

/// Length in bytes of a `"..."` or `'...'` literal starting at `chars[i]`, if it is
/// terminated on this line. Unterminated quotes are ordinary characters, as in
/// `cpp -x assembler-with-cpp`.
fn literal_len(chars: &[char], i: usize) -> Option<usize> {
    let quote = *chars.get(i)?;
    let mut j = i + 1;
    while let Some(&c) = chars.get(j) {
        if c == '\\' {
            j += 2;
        } else if c == quote {
            return Some(j + 1 - i);
        } else {
            j += 1;
        }
    }
    None
}

/// Split `text` into logical lines without comments.
pub(super) fn logical_lines(text: &str) -> Result<Vec<LogicalLine>, UnterminatedComment> {
    let phys = physical_lines(text);
    let mut out: Vec<LogicalLine> = Vec::new();
    let mut comment_start: Option<UnterminatedComment> = None;
    for sp in splice(&phys) {
        let chars: Vec<char> = sp.text.chars().collect();
        let continuing = comment_start.is_some();
        let mut cur = match out.pop() {
            Some(prev) if continuing => LogicalLine { count: prev.count + sp.count, ..prev },
            prev => {
                out.extend(prev);
                LogicalLine { first: sp.first, count: sp.count, text: String::new(), exact_cols: sp.first_len }
            }
        };
        let mut i = 0usize;
        while let Some(&c) = chars.get(i) {
            let next = chars.get(i + 1).copied();
            if comment_start.is_some() {
                if c == '*' && next == Some('/') {
                    comment_start = None;
                    cur.text.push(' ');
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            match (c, next) {
                ('"' | '\'', _) => {
                    let len = literal_len(&chars, i).unwrap_or(1);
                    cur.text.extend(chars.iter().skip(i).take(len));
                    i += len;
                }
                ('/', Some('/')) => break,
                ('/', Some('*')) => {
                    let close =
                        (i + 2..chars.len()).find(|&j| chars.get(j) == Some(&'*') && chars.get(j + 1) == Some(&'/'));
                    match close {
                        Some(j) => {
                            cur.text.extend(std::iter::repeat_n(' ', j + 2 - i));
                            i = j + 2;
                        }
                        None => {
                            // A comment spanning lines collapses to one space: later columns move.
                            cur.exact_cols = cur.exact_cols.min(cur.text.chars().count() as u32);
                            comment_start = Some(UnterminatedComment { line: sp.first, col: i as u32 + 1 });
                            i += 2;
                        }
                    }
                }
                _ => {
                    cur.text.push(c);
                    i += 1;
                }
            }
        }
        out.push(cur);
    }
    match comment_start {
        Some(start) => Err(start),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_and_comments_keep_line_count() {
        let text = "a /* x */ b // c\n#define X \\\n  1\nmov r1 = /* one\n two */ r2\nend\n";
        let ll = logical_lines(text).unwrap();
        let got: Vec<_> = ll.iter().map(|l| (l.first, l.count, l.text.as_str())).collect();
        assert_eq!(got, vec![(1, 1, "a         b "), (2, 2, "#define X   1"), (4, 2, "mov r1 =   r2"), (6, 1, "end")]);
        assert!(ll.first().unwrap().verbatim());
        assert!(!ll.get(1).unwrap().verbatim());
    }

    #[test]
    fn comment_markers_inside_literals_are_kept() {
        let ll = logical_lines("data1 \"a//b\", '/*'\nx 'it s // c\n").unwrap();
        assert_eq!(ll.first().unwrap().text, "data1 \"a//b\", '/*'");
        assert_eq!(ll.get(1).unwrap().text, "x 'it s ");
    }

    #[test]
    fn unterminated_comment_is_reported_at_its_start() {
        assert_eq!(logical_lines("a\n  /* never\nb\n"), Err(UnterminatedComment { line: 2, col: 3 }));
    }

    #[test]
    fn source_set_lines_match_physical_lines() {
        for text in ["", "\n", "a", "a\n", "a\r\nb\n\nc", "a\n\n", "\r\n\r\n", "x\ny\r"] {
            let mut set = SourceSet::default();
            let name: Arc<str> = Arc::from("f.S");
            set.insert(&name, text);
            let phys = physical_lines(text);
            for n in 0..phys.len() as u32 + 3 {
                let want = (n as usize).checked_sub(1).and_then(|k| phys.get(k)).copied();
                assert_eq!(set.line("f.S", n), want, "line {n} of {text:?}");
            }
            assert_eq!(set.line("other.S", 1), None);
        }
    }

    #[test]
    fn ia64_stops_are_not_comments() {
        let ll = logical_lines("\tmov r2=r3 ;;\n").unwrap();
        assert_eq!(ll.first().unwrap().text, "\tmov r2=r3 ;;");
    }
}
