//! Byte offsets of the harness text turned into lines and columns in time independent of
//! where in the file they are: the parser asks once per value, so counting from the start
//! each time made a harness of N values cost N² (20,000 regions took over 30 s).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// Bytes between two character-count checkpoints: a column costs at most this many byte
/// tests, however long its line.
const CHUNK: usize = 64;

/// A line-start index and character-count checkpoints, built once per text.
pub(super) struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of the start of each line; the first is 0.
    starts: Vec<usize>,
    /// Characters before byte `k * CHUNK`, for each `k`.
    chars_before_chunk: Vec<usize>,
    /// Each line's text, made once and shared by every origin on it: a long line holding
    /// thousands of values (a big `fill`) is otherwise copied once per value.
    shared: RefCell<HashMap<usize, Arc<str>>>,
}

/// Where a byte offset is: 1-based line and column (in characters), and the line's text.
pub(super) struct Place {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// The line without its terminator.
    pub text: Option<Arc<str>>,
}

/// Whether `b` starts a UTF-8 character (is not a continuation byte).
fn starts_char(b: u8) -> bool {
    b & 0xc0 != 0x80
}

impl<'a> LineIndex<'a> {
    /// Indexes `text` in one pass.
    pub(super) fn new(text: &'a str) -> LineIndex<'a> {
        let bytes = text.as_bytes();
        let starts = std::iter::once(0)
            .chain(bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1))
            .collect();
        let mut chars_before_chunk = Vec::with_capacity(bytes.len() / CHUNK + 1);
        let mut count = 0;
        for chunk in bytes.chunks(CHUNK) {
            chars_before_chunk.push(count);
            count += chunk.iter().filter(|b| starts_char(**b)).count();
        }
        chars_before_chunk.push(count);
        LineIndex { text, starts, chars_before_chunk, shared: RefCell::new(HashMap::new()) }
    }

    /// Characters in `text[..pos]` (`pos` clamped to the text).
    fn chars_before(&self, pos: usize) -> usize {
        let pos = pos.min(self.text.len());
        let chunk = pos / CHUNK;
        let base = self.chars_before_chunk.get(chunk).copied().unwrap_or(0);
        let tail = self.text.as_bytes().get(chunk * CHUNK..pos).unwrap_or_default();
        base + tail.iter().filter(|b| starts_char(**b)).count()
    }

    /// The place of byte offset `pos` (clamped to the text).
    pub(super) fn place(&self, pos: usize) -> Place {
        let pos = pos.min(self.text.len());
        let line = self.starts.partition_point(|s| *s <= pos).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let col = self.chars_before(pos) - self.chars_before(start) + 1;
        Place { line, col, text: self.line_text(line - 1, start) }
    }

    /// Line `index` (0-based, starting at byte `start`), shared.
    fn line_text(&self, index: usize, start: usize) -> Option<Arc<str>> {
        let mut shared = self.shared.borrow_mut();
        if let Some(line) = shared.get(&index) {
            return Some(line.clone());
        }
        let end = self.starts.get(index + 1).map_or(self.text.len(), |next| next - 1);
        let line = self.text.get(start..end)?;
        let line: Arc<str> = Arc::from(line.strip_suffix('\r').unwrap_or(line));
        shared.insert(index, line.clone());
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, pos: usize) -> (usize, usize, String) {
        let p = LineIndex::new(text).place(pos);
        (p.line, p.col, p.text.as_deref().unwrap_or("<none>").to_string())
    }

    #[test]
    fn places_match_counting_from_the_start() {
        let text = "a = 1\r\nbé = \"ü\"\n\nlast";
        for pos in (0..=text.len()).filter(|p| text.is_char_boundary(*p)) {
            let before = &text[..pos];
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let line = before.matches('\n').count() + 1;
            let col = before[line_start..].chars().count() + 1;
            let expected = text[line_start..].lines().next().unwrap_or("").to_string();
            assert_eq!(at(text, pos), (line, col, expected), "at byte {pos}");
        }
    }

    #[test]
    fn columns_on_a_long_non_ascii_line_count_characters() {
        let text = format!("{}x", "é".repeat(1000));
        assert_eq!(at(&text, 2000).1, 1001);
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        assert_eq!(at("ab\ncd", 99), (2, 3, "cd".to_string()));
        assert_eq!(at("", 5), (1, 1, String::new()));
    }

    #[test]
    fn origins_on_one_line_share_its_text() {
        let index = LineIndex::new("x = [1, 2, 3]\n");
        let (a, b) = (index.place(5).text, index.place(11).text);
        assert!(a.zip(b).is_some_and(|(a, b)| Arc::ptr_eq(&a, &b)));
    }
}
