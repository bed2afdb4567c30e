//! The snapshot's YAML, written and read without a YAML library.
//!
//! The writer reproduces what insta's YAML emitter makes of a serialized [`Snapshot`]
//! (two-space indentation, `- ` list items, `{}`/`[]` for empty collections, and its rule
//! for which strings get double quotes), so `--snapshot` files and
//! `insta::assert_yaml_snapshot!` agree byte for byte. The reader accepts that output,
//! with or without insta's `---`-fenced header, plus single-quoted and plain scalars for
//! hand-edited files.

use super::{hex64, parse_addr, parse_hex_line, MemoryWindow, Snapshot, SnapshotError, Value};

/// Writes the YAML body of `snap`, ending in one newline.
pub(super) fn write(snap: &Snapshot) -> String {
    let mut out = String::new();
    out.push_str("registers:");
    if snap.registers.is_empty() {
        out.push_str(" {}");
    }
    out.push('\n');
    for (name, value) in &snap.registers {
        out.push_str("  ");
        push_scalar(&mut out, name);
        out.push_str(": ");
        match value {
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Hex(v) => push_scalar(&mut out, &hex64(*v)),
            Value::Text(t) => push_scalar(&mut out, t),
        }
        out.push('\n');
    }
    out.push_str("memory:");
    if snap.memory.is_empty() {
        out.push_str(" {}");
    }
    out.push('\n');
    for window in &snap.memory {
        out.push_str("  ");
        push_scalar(&mut out, &window.name);
        out.push_str(":\n    addr: ");
        push_scalar(&mut out, &hex64(window.addr));
        out.push_str("\n    bytes:");
        if window.bytes.is_empty() {
            out.push_str(" []");
        }
        out.push('\n');
        for line in window.hex_lines() {
            out.push_str("      - ");
            push_scalar(&mut out, &line);
            out.push('\n');
        }
    }
    out
}

/// Whether insta's emitter double-quotes `s`: anything a YAML reader could take for
/// another type, or that holds an indicator or control character.
fn needs_quotes(s: &str) -> bool {
    const KEYWORDS: [&str; 22] = [
        "yes", "Yes", "YES", "no", "No", "NO", "True", "TRUE", "true", "False", "FALSE", "false", "on", "On", "ON",
        "off", "Off", "OFF", "null", "Null", "NULL", "~",
    ];
    let special_start = s.starts_with(['&', '*', '?', '|', '-', '<', '>', '=', '!', '%', '@', '.', ' ']);
    let special_char = s.chars().any(|c| {
        matches!(c, ':' | '{' | '}' | '[' | ']' | ',' | '#' | '`' | '"' | '\'' | '\\' | '\t' | '\n' | '\r')
            || matches!(c, '\0'..='\x06' | '\x0e'..='\x1a' | '\x1c'..='\x1f')
    });
    s.is_empty()
        || special_start
        || s.ends_with(' ')
        || special_char
        || KEYWORDS.contains(&s)
        || s.starts_with("0x")
        || s.parse::<i64>().is_ok()
        || s.parse::<f64>().is_ok()
}

/// Appends `s` plain, or double-quoted with insta's escapes when it needs quotes.
fn push_scalar(out: &mut String, s: &str) {
    if !needs_quotes(s) {
        out.push_str(s);
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\0'..='\x1f' | '\x7f' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            _ => out.push(c),
        }
    }
    out.push('"');
}

/// A scalar as read: a string (quoted or plain) or a plain boolean.
#[derive(Debug, PartialEq, Eq)]
enum Scalar {
    Str(String),
    Bool(bool),
}

/// Where the reader is in the fixed snapshot structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Start,
    Registers,
    Memory,
    Window,
    Bytes,
}

/// Reads a snapshot file; see the module doc for what is accepted. Also gives the 1-based
/// line of each register, in the order of [`Snapshot::registers`].
pub(super) fn read(text: &str) -> Result<(Snapshot, Vec<usize>), SnapshotError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let body = skip_header(&lines);
    let mut snap = Snapshot::new();
    let mut register_lines = Vec::new();
    let mut section = Section::Start;
    for &(line, raw) in body {
        let err = |message: String| SnapshotError { line, message };
        let content = raw.trim_end();
        let trimmed = content.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = content.len() - trimmed.len();
        section = match (indent, section) {
            (0, _) => top_level(trimmed).map_err(err)?,
            (2, Section::Registers) => {
                let (name, value) = key_value(trimmed).map_err(err)?;
                let value = match value {
                    Some(Scalar::Bool(b)) => Value::Bool(b),
                    Some(Scalar::Str(s)) => Value::from_text(&s),
                    None => return Err(err(format!("register '{name}' has no value"))),
                };
                if snap.register(&name).is_some() {
                    return Err(err(format!("register '{name}' is listed twice")));
                }
                snap.registers.push((name, value));
                register_lines.push(line);
                Section::Registers
            }
            (2, Section::Memory | Section::Window | Section::Bytes) => {
                let (name, value) = key_value(trimmed).map_err(err)?;
                if value.is_some() {
                    return Err(err(format!("memory window '{name}' must be a map of addr and bytes")));
                }
                if snap.window(&name).is_some() {
                    return Err(err(format!("memory window '{name}' is listed twice")));
                }
                snap.memory.push(MemoryWindow { name, addr: 0, bytes: Vec::new() });
                Section::Window
            }
            (4, Section::Window | Section::Bytes) => window_field(trimmed, &mut snap.memory).map_err(err)?,
            (6, Section::Bytes) => {
                let item = trimmed.strip_prefix('-').ok_or_else(|| err("expected a '- ' list item".into()))?;
                let Scalar::Str(hex) = scalar(item.trim_start()).map_err(err)? else {
                    return Err(err("expected a line of hex bytes".into()));
                };
                let window = snap.memory.last_mut().ok_or_else(|| err("bytes outside a memory window".into()))?;
                parse_hex_line(&hex, &mut window.bytes).map_err(err)?;
                Section::Bytes
            }
            _ => return Err(err(format!("unexpected indentation of {indent} spaces here"))),
        };
    }
    Ok((snap, register_lines))
}

/// The lines after insta's header (`---`, metadata, `---`), or after a lone `---`
/// document start, or all lines when there is neither.
fn skip_header<'a>(lines: &'a [(usize, &'a str)]) -> &'a [(usize, &'a str)] {
    let is_fence = |l: &(usize, &str)| l.1.trim_end() == "---";
    let first = lines.iter().position(|l| !l.1.trim().is_empty());
    match first {
        Some(i) if lines.get(i).is_some_and(is_fence) => {
            let after = lines.get(i + 1..).unwrap_or_default();
            match after.iter().position(is_fence) {
                Some(j) => after.get(j + 1..).unwrap_or_default(),
                None => after,
            }
        }
        _ => lines,
    }
}

/// `registers:` or `memory:`, each optionally with an empty `{}`.
fn top_level(line: &str) -> Result<Section, String> {
    let (key, value) = key_value(line)?;
    let empty_ok = |v: &Option<Scalar>| v.is_none() || *v == Some(Scalar::Str("{}".into()));
    match key.as_str() {
        "registers" if empty_ok(&value) => Ok(Section::Registers),
        "memory" if empty_ok(&value) => Ok(Section::Memory),
        "registers" | "memory" => Err(format!("'{key}' must be a map")),
        _ => Err(format!("unknown key '{key}' (expected 'registers' or 'memory')")),
    }
}

/// `addr: "0x..."` or `bytes:` (optionally `[]`) inside the last window.
fn window_field(line: &str, memory: &mut [MemoryWindow]) -> Result<Section, String> {
    let window = memory.last_mut().ok_or("field outside a memory window")?;
    let (key, value) = key_value(line)?;
    match (key.as_str(), value) {
        ("addr", Some(Scalar::Str(s))) => {
            window.addr = parse_addr(&s)?;
            Ok(Section::Window)
        }
        ("bytes", None) => Ok(Section::Bytes),
        ("bytes", Some(Scalar::Str(s))) if s == "[]" => Ok(Section::Window),
        ("addr" | "bytes", _) => Err(format!("bad value for '{key}'")),
        _ => Err(format!("unknown key '{key}' in memory window (expected 'addr' or 'bytes')")),
    }
}

/// Splits `key: value` (or `key:`) with a plain or quoted key.
fn key_value(line: &str) -> Result<(String, Option<Scalar>), String> {
    let (key, rest) = if line.starts_with(['"', '\'']) {
        let (key, used) = quoted(line)?;
        (key, line.get(used..).unwrap_or(""))
    } else {
        let colon = line.find(": ").or_else(|| line.strip_suffix(':').map(str::len));
        let colon = colon.ok_or_else(|| format!("expected 'key: value', found '{line}'"))?;
        (line.get(..colon).unwrap_or("").to_string(), line.get(colon..).unwrap_or(""))
    };
    let rest = rest.strip_prefix(':').ok_or_else(|| format!("expected ':' after '{key}'"))?.trim();
    if rest.is_empty() {
        Ok((key, None))
    } else {
        Ok((key, Some(scalar(rest)?)))
    }
}

/// A whole-line scalar value.
fn scalar(text: &str) -> Result<Scalar, String> {
    if text.starts_with(['"', '\'']) {
        let (s, used) = quoted(text)?;
        let rest = text.get(used..).unwrap_or("").trim();
        if !rest.is_empty() && !rest.starts_with('#') {
            return Err(format!("unexpected '{rest}' after a quoted string"));
        }
        return Ok(Scalar::Str(s));
    }
    Ok(match text {
        "true" => Scalar::Bool(true),
        "false" => Scalar::Bool(false),
        _ => Scalar::Str(text.to_string()),
    })
}

/// Parses a quoted string at the start of `text`; returns it and the bytes consumed.
fn quoted(text: &str) -> Result<(String, usize), String> {
    let mut chars = text.char_indices();
    let quote = chars.next().map(|(_, c)| c).unwrap_or('"');
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' if quote == '\'' => {
                // `''` is an escaped quote inside a single-quoted string.
                if text.get(i + 1..).is_some_and(|r| r.starts_with('\'')) {
                    chars.next();
                    out.push('\'');
                } else {
                    return Ok((out, i + 1));
                }
            }
            '"' if quote == '"' => return Ok((out, i + 1)),
            '\\' if quote == '"' => {
                let (_, e) = chars.next().ok_or("unterminated escape")?;
                let simple = match e {
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '/' => Some('/'),
                    'b' => Some('\x08'),
                    't' => Some('\t'),
                    'n' => Some('\n'),
                    'f' => Some('\x0c'),
                    'r' => Some('\r'),
                    '0' => Some('\0'),
                    _ => None,
                };
                match (simple, e) {
                    (Some(ch), _) => out.push(ch),
                    (None, 'u' | 'x') => {
                        let len = if e == 'u' { 4 } else { 2 };
                        let digits: String = chars.by_ref().take(len).map(|(_, d)| d).collect();
                        let code = u32::from_str_radix(&digits, 16).ok().filter(|_| digits.len() == len);
                        let ch = code.and_then(char::from_u32).ok_or_else(|| format!("bad escape '\\{e}{digits}'"))?;
                        out.push(ch);
                    }
                    _ => return Err(format!("unknown escape '\\{e}'")),
                }
            }
            _ => out.push(c),
        }
    }
    Err(format!("unterminated {quote}-quoted string"))
}
