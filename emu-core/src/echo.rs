//! Quoting user text in messages: a source line under a diagnostic, a value in an error. The
//! text can be anything the user fed in (a 10 MB line, raw control bytes, escape sequences that
//! would drive the terminal), so every echo goes through here: at most [`ECHO_WIDTH`]
//! characters around the column of interest, an ellipsis where text is left out, and control
//! characters shown as escapes.

use std::fmt::Write as _;

/// The most characters of the user's text an echo shows (escapes count as the characters they
/// stand for).
pub const ECHO_WIDTH: usize = 200;

/// The most characters a line of a message may have; a longer one (quoting a huge token, say)
/// keeps its start and its end around an ellipsis.
pub const MESSAGE_WIDTH: usize = 400;

/// Marks text left out at either end of an echo.
const ELLIPSIS: char = '…';

/// An echo of one line: the text to show and the column under which a caret goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Echo {
    /// The shown text: escaped, and truncated with an ellipsis at the end(s) cut off.
    pub text: String,
    /// What to print before the caret so it stands under the column: tabs where the text has
    /// tabs (so they expand alike), spaces elsewhere; `None` when no column was given.
    pub caret_pad: Option<String>,
}

/// `line` as shown under a diagnostic pointing at 1-based character column `col` (0: no
/// column): the [`ECHO_WIDTH`] characters around it.
pub fn echo_line(line: &str, col: u32) -> Echo {
    let len = line.chars().count();
    let at = (col as usize).saturating_sub(1).min(len);
    let (start, end) = window(len, at);
    let mut text = String::new();
    let mut caret_pad = (col > 0).then(String::new);
    if start > 0 {
        text.push(ELLIPSIS);
        push_pad(&mut caret_pad, ' ', 1);
    }
    for (i, c) in line.chars().enumerate().skip(start).take(end - start) {
        let before = text.len();
        push_escaped(&mut text, c);
        if i < at {
            // The pad mirrors the shown characters: a tab for a tab, one space per shown char.
            let shown = if c == '\t' { 1 } else { text[before..].chars().count() };
            push_pad(&mut caret_pad, if c == '\t' { '\t' } else { ' ' }, shown);
        }
    }
    if end < len {
        text.push(ELLIPSIS);
    }
    Echo { text, caret_pad }
}

/// `text` quoted inside a message: escaped and cut to [`ECHO_WIDTH`] characters around
/// 1-based character column `col` (0: from the start).
pub fn escape_truncated(text: &str, col: u32) -> String {
    echo_line(text, col).text
}

/// A message as printed: each line with its control characters (but tabs) escaped and, when
/// longer than [`MESSAGE_WIDTH`] characters, cut to its first three quarters and last quarter
/// of that width around an ellipsis, so both a quoted token's start and what follows it show.
pub fn escape_message(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * MESSAGE_WIDTH));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let len = line.chars().count();
        if len <= MESSAGE_WIDTH {
            line.chars().for_each(|c| push_escaped(&mut out, c));
            continue;
        }
        let head = MESSAGE_WIDTH * 3 / 4;
        let tail = MESSAGE_WIDTH - head;
        line.chars().take(head).for_each(|c| push_escaped(&mut out, c));
        out.push(ELLIPSIS);
        line.chars().skip(len - tail).for_each(|c| push_escaped(&mut out, c));
    }
    out
}

/// The range `[start, end)` of at most [`ECHO_WIDTH`] characters of a `len`-character line to
/// show around index `at`: all of it when it fits, else centred on `at` and moved inside.
fn window(len: usize, at: usize) -> (usize, usize) {
    if len <= ECHO_WIDTH {
        return (0, len);
    }
    let start = at.saturating_sub(ECHO_WIDTH / 2).min(len - ECHO_WIDTH);
    (start, start + ECHO_WIDTH)
}

fn push_pad(pad: &mut Option<String>, c: char, n: usize) {
    if let Some(p) = pad {
        p.extend(std::iter::repeat_n(c, n));
    }
}

/// Appends `c`, or an escape for a control character (C0, DEL, C1) other than tab, so an echo
/// can neither break a line nor drive the terminal.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\t' => out.push('\t'),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if u32::from(c) < 0x80 && c.is_control() => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        c if c.is_control() => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_shown_whole_with_the_caret_under_the_column() {
        let e = echo_line("\tadd r1=,r2", 9);
        assert_eq!(e.text, "\tadd r1=,r2");
        assert_eq!(e.caret_pad.as_deref(), Some("\t       "));
        assert_eq!(echo_line("x", 0).caret_pad, None);
    }

    #[test]
    fn control_bytes_are_escaped_and_the_caret_follows_the_escapes() {
        let e = echo_line("a\x1b[2Jb\x00c\u{85}d", 8);
        assert_eq!(e.text, "a\\x1b[2Jb\\x00c\\u{85}d");
        // `a`, `\x1b` (4 shown), `[2J`, `b`, `\x00` (4): 13 columns before `c`.
        assert_eq!(e.caret_pad.as_deref().map(str::len), Some(13));
        assert_eq!(e.text.chars().nth(13), Some('c'));
    }

    #[test]
    fn long_lines_show_a_window_around_the_column() {
        let line = "x".repeat(10_000_000) + "HERE" + &"y".repeat(1000);
        let col = 10_000_001;
        let e = echo_line(&line, col);
        assert!(e.text.starts_with(ELLIPSIS) && e.text.ends_with(ELLIPSIS), "{}", e.text);
        assert_eq!(e.text.chars().count(), ECHO_WIDTH + 2);
        let pad = e.caret_pad.unwrap_or_default();
        assert_eq!(e.text.chars().skip(pad.chars().count()).take(4).collect::<String>(), "HERE");
        let start = echo_line(&line, 1);
        assert!(start.text.starts_with('x') && start.text.ends_with(ELLIPSIS));
        let end = echo_line(&line, u32::MAX);
        assert!(end.text.starts_with(ELLIPSIS) && end.text.ends_with('y'));
    }

    #[test]
    fn messages_keep_their_lines_and_both_ends_of_a_long_one() {
        let m = format!("unknown symbol '{}'\nsecond\tline \x07", "y".repeat(10_000_000));
        let out = escape_message(&m);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].chars().count(), MESSAGE_WIDTH + 1);
        assert!(lines[0].starts_with("unknown symbol 'yyy") && lines[0].ends_with("yyy'"), "{}", lines[0]);
        assert_eq!(lines[1], "second\tline \\x07");
    }

    #[test]
    fn quoted_values_are_cut_and_escaped() {
        let v = escape_truncated(&"z".repeat(5000), 0);
        assert_eq!(v.chars().count(), ECHO_WIDTH + 1);
        assert_eq!(escape_truncated("a\nb", 0), "a\\nb");
    }
}
