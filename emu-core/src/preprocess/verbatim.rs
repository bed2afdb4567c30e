//! The no-preprocessing path for `.s` files: GNU as never runs the C preprocessor, so `#`
//! lines are not directives (the assembler takes `#` at the start of a line as a comment)
//! and macros are not expanded. What gas's own input scrubber still does is drop C
//! comments (`/* ... */`, possibly over several lines); so does this, keeping one output
//! line per input line so that every location stays exact.

use super::{lines::SourceSet, LineMap, LineOrigin, Preprocessed};
use std::sync::Arc;

/// `text`, the contents of `file`, as the assembler reads a `.s` file: unchanged except
/// that C comments become a blank (their newlines are kept).
pub fn verbatim(file: &str, text: &str) -> Preprocessed {
    let main: Arc<str> = Arc::from(file);
    let mut sources = SourceSet::default();
    sources.insert(&main, text);
    let mut out = String::with_capacity(text.len() + 1);
    let mut origins = Vec::new();
    let mut in_comment = false;
    for (n, line) in text.lines().enumerate() {
        let (stripped, touched, still_open) = strip_comments(line, in_comment);
        in_comment = still_open;
        out.push_str(&stripped);
        out.push('\n');
        origins.push(LineOrigin { file: main.clone(), line: n as u32 + 1, verbatim: !touched });
    }
    Preprocessed { text: out, lines: LineMap { main, origins, sources }, warnings: Vec::new() }
}

/// One line with its C comments removed, whether anything was removed, and whether a
/// comment is still open at its end. `//` comments and strings are kept as they are (the
/// assembler's parser handles both), and a `/*` inside either starts nothing.
fn strip_comments(line: &str, mut in_comment: bool) -> (String, bool, bool) {
    let mut out = String::with_capacity(line.len());
    let mut touched = in_comment;
    let mut in_string = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                in_comment = false;
                out.push(' ');
            }
            continue;
        }
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                out.push(c);
                out.extend(chars.by_ref());
            }
            ('/', Some('*')) => {
                chars.next();
                in_comment = true;
                touched = true;
            }
            _ => out.push(c),
        }
    }
    (out, touched, in_comment)
}

#[cfg(test)]
mod tests {
    use super::verbatim;

    #[test]
    fn hash_lines_and_macros_pass_through_untouched() {
        let src = "#define X 1\n#ifdef X\n\tmov r8=X\n#endif\n";
        let pp = verbatim("a.s", src);
        assert_eq!(pp.text, src);
        assert_eq!(pp.lines.len(), 4);
        assert_eq!(pp.lines.origin(3).line, 3);
    }

    #[test]
    fn c_comments_become_blanks_and_keep_the_line_count() {
        let pp = verbatim("a.s", "\tnop.m 0 /* one */;;\n/* two\nlines */\tnop.i 0\n\"/*\" // /* kept\n");
        assert_eq!(pp.text, "\tnop.m 0  ;;\n\n \tnop.i 0\n\"/*\" // /* kept\n");
        assert_eq!(pp.lines.len(), 4);
        assert_eq!(pp.lines.source_line(3), Some("lines */\tnop.i 0"));
    }
}
