//! `.macro` / `.endm`: GNU as's text macros, expanded before parsing (with the repeated
//! blocks `.rept`/`.irp`/`.irpc`, [`super::repeat`]).
//!
//! What is modelled (checked against `ia64-linux-gnu-as` 2.40): parameters separated by commas
//! or blanks, `name=default` defaults, `:req` and `:vararg` qualifiers; arguments separated by
//! commas at parenthesis depth 0 (blanks when the invocation has no comma), or given as
//! `name=value`; `\name` substituted everywhere in the body, strings included; `\()` as an
//! empty separator; `\@` as the number of macro expansions so far; `.exitm`; macros that
//! invoke other macros. An invocation is a statement whose first word (after labels) is a
//! macro's name. Issue 13: `&name` substitutes too (a `&` right after the name is dropped:
//! `x_&n&_y`), and after `.altmacro` (until `.noaltmacro`, as gas decides at expansion) a
//! parameter's bare name is substituted wherever it appears.

use emu_core::error::Diagnostic;
use emu_core::error::SourceLoc;
use std::collections::HashMap;

/// How deep macros may invoke macros before we stop (gas has no limit; a runaway recursion
/// would otherwise never end).
const MAX_DEPTH: u32 = 100;

/// The most lines expansion may produce: a macro invoking itself twice per level would
/// otherwise grow without bound within the depth limit.
const MAX_LINES: usize = 4_000_000;

/// Text after macro expansion, with the input line each output line came from (1-based).
pub struct Expanded {
    /// The expanded text.
    pub text: String,
    /// For output line `i` (0-based), the input line (1-based) it came from, and whether it
    /// is that line unchanged (so its columns still apply).
    pub origin: Vec<(u32, bool)>,
}

#[derive(Debug, Clone)]
struct Param {
    name: String,
    default: String,
    required: bool,
    vararg: bool,
}

#[derive(Debug, Clone)]
struct Macro {
    params: Vec<Param>,
    body: Vec<String>,
}

struct Expander<'a> {
    macros: HashMap<String, Macro>,
    out: Vec<String>,
    origin: Vec<(u32, bool)>,
    errors: Vec<Diagnostic>,
    count: u64,
    locate: &'a dyn Fn(u32, u32) -> SourceLoc,
    /// `.altmacro` is in effect.
    alt: bool,
}

/// Expands every macro in `text`; `locate(line, col)` gives the source location of an input
/// line for messages.
///
/// # Errors
/// A `.macro` without `.endm`, a malformed parameter list, a missing required argument, or
/// recursion deeper than 100 invocations.
pub fn expand(text: &str, locate: &dyn Fn(u32, u32) -> SourceLoc) -> Result<Expanded, Vec<Diagnostic>> {
    // Quick exit: most files define no macro.
    let any = |w: &str| text.contains(w) || text.contains(&w.to_ascii_uppercase());
    if !any(".macro") && !any(".rept") && !any(".irp") {
        return Ok(Expanded {
            text: text.to_string(),
            origin: (1..=text.split('\n').count() as u32).map(|l| (l, true)).collect(),
        });
    }
    let mut ex = Expander {
        macros: HashMap::new(),
        out: Vec::new(),
        origin: Vec::new(),
        errors: Vec::new(),
        count: 0,
        locate,
        alt: false,
    };
    let lines: Vec<&str> = text.split('\n').collect();
    ex.lines(&lines, &|i| i as u32 + 1, 0);
    if ex.errors.is_empty() {
        Ok(Expanded { text: ex.out.join("\n"), origin: ex.origin })
    } else {
        Err(ex.errors)
    }
}

/// The first word of a line and the rest after it, skipping labels (`name:`).
fn head(line: &str) -> Option<(String, &str)> {
    let mut rest = line.trim_start();
    loop {
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_.$?".contains(c))).unwrap_or(rest.len());
        if end == 0 {
            return None;
        }
        let (word, after) = rest.split_at(end);
        if let Some(after_colon) = after.strip_prefix(':') {
            rest = after_colon.trim_start();
            continue;
        }
        return Some((word.to_string(), after));
    }
}

/// The labels before the first word of `line` (`a: b: macro x` gives `a: b: `).
fn labels_prefix(line: &str) -> &str {
    let Some((word, after)) = head(line) else { return "" };
    let start = line.len() - after.len() - word.len();
    line.get(..start).unwrap_or("")
}

impl Expander<'_> {
    fn error(&mut self, line: u32, msg: String) {
        self.errors.push(Diagnostic::error((self.locate)(line, 1), msg));
    }

    /// Processes `lines`; `origin(i)` maps an index to the input line for messages and the map.
    fn lines(&mut self, lines: &[&str], origin: &dyn Fn(usize) -> u32, depth: u32) {
        let mut i = 0;
        while i < lines.len() {
            // One error ends expansion: a runaway recursion must not be explored branch by branch.
            if !self.errors.is_empty() {
                return;
            }
            let line = lines.get(i).copied().unwrap_or("");
            let word = head(line).map(|(w, a)| (w.to_ascii_lowercase(), a));
            match word {
                Some((w, after)) if w == ".macro" => {
                    let start = i;
                    let mut nest = 0;
                    let mut body = Vec::new();
                    i += 1;
                    let mut closed = false;
                    while let Some(l) = lines.get(i) {
                        match head(l).map(|(w, _)| w.to_ascii_lowercase()).as_deref() {
                            Some(".macro") => nest += 1,
                            Some(".endm") if nest == 0 => {
                                closed = true;
                                break;
                            }
                            Some(".endm") => nest -= 1,
                            _ => {}
                        }
                        body.push(l.to_string());
                        i += 1;
                    }
                    if !closed {
                        self.error(origin(start), "`.macro` without `.endm`".into());
                        return;
                    }
                    match parse_header(after) {
                        Ok((name, params)) => {
                            self.macros.insert(name.to_ascii_lowercase(), Macro { params, body });
                        }
                        Err(m) => self.error(origin(start), m),
                    }
                    // Keep line numbers aligned: the definition becomes blank lines.
                    for k in start..=i {
                        self.out.push(String::new());
                        self.origin.push((origin(k), false));
                    }
                    i += 1;
                    continue;
                }
                Some((w, after)) if matches!(w.as_str(), ".rept" | ".irp" | ".irpc") => {
                    let word = |l: &str| head(l).map(|(w, _)| w.to_ascii_lowercase());
                    let Some((body, end)) = super::repeat::block(lines, i, &word) else {
                        // gas reports it where the input ends: the line after the last one.
                        let last = if lines.last().is_some_and(|l| l.is_empty()) {
                            lines.len().saturating_sub(1)
                        } else {
                            lines.len()
                        };
                        self.error(origin(last), format!("{} without ENDR", w[1..].to_ascii_uppercase()));
                        return;
                    };
                    let start = i;
                    // The directive and its `.endr` become blank lines; the bodies keep their
                    // own lines' origins.
                    self.out.push(String::new());
                    self.origin.push((origin(start), false));
                    let body_origin = |k: usize| origin(start + 1 + k);
                    match super::repeat::bodies(&w, after, &split_args) {
                        Ok(super::repeat::Repeats::Times(n)) => {
                            for _ in 0..n {
                                if self.out.len() > MAX_LINES || !self.errors.is_empty() {
                                    self.error(origin(start), format!("`{w}` expansion exceeds {MAX_LINES} lines"));
                                    return;
                                }
                                self.lines(&body, &body_origin, depth + 1);
                            }
                        }
                        Ok(super::repeat::Repeats::Values(name, values)) => {
                            for v in values {
                                let bound = [(name.clone(), v)];
                                let text: Vec<String> =
                                    body.iter().map(|l| substitute(l, &bound, self.count, self.alt)).collect();
                                let refs: Vec<&str> = text.iter().map(String::as_str).collect();
                                self.lines(&refs, &body_origin, depth + 1);
                            }
                        }
                        Err(m) => self.error(origin(start), m),
                    }
                    self.out.push(String::new());
                    self.origin.push((origin(end), false));
                    i = end + 1;
                    continue;
                }
                Some((w, after)) if self.macros.contains_key(&w) => {
                    if self.out.len() > MAX_LINES {
                        self.error(origin(i), format!("macro expansion exceeds {MAX_LINES} lines (runaway `{w}`?)"));
                        return;
                    }
                    if depth >= MAX_DEPTH {
                        self.error(origin(i), format!("macros nested more than {MAX_DEPTH} deep (recursive `{w}`?)"));
                        return;
                    }
                    let labels = labels_prefix(line).to_string();
                    if !labels.trim().is_empty() {
                        self.out.push(labels);
                        self.origin.push((origin(i), depth == 0));
                    }
                    let Some(m) = self.macros.get(&w).cloned() else { return };
                    match bind(&m.params, after) {
                        Ok(values) => {
                            self.count += 1;
                            let n = self.count - 1;
                            let mut body: Vec<String> = Vec::new();
                            for l in &m.body {
                                if head(l).is_some_and(|(w, _)| w.eq_ignore_ascii_case(".exitm")) {
                                    break;
                                }
                                body.push(substitute(l, &values, n, self.alt));
                            }
                            let refs: Vec<&str> = body.iter().map(String::as_str).collect();
                            let at = origin(i);
                            self.lines(&refs, &|_| at, depth + 1);
                        }
                        Err(msg) => self.error(origin(i), format!("macro `{w}`: {msg}")),
                    }
                    i += 1;
                    continue;
                }
                Some((w, _)) if w == ".altmacro" || w == ".noaltmacro" => {
                    self.alt = w == ".altmacro";
                    self.out.push(String::new());
                    self.origin.push((origin(i), false));
                    i += 1;
                    continue;
                }
                _ => {}
            }
            self.out.push(line.to_string());
            self.origin.push((origin(i), depth == 0));
            i += 1;
        }
    }
}

/// `name p1, p2=def, p3:req, rest:vararg` after `.macro`.
fn parse_header(text: &str) -> Result<(String, Vec<Param>), String> {
    let text = text.trim();
    let end = text.find(|c: char| c == ',' || c.is_whitespace()).unwrap_or(text.len());
    let (name, rest) = text.split_at(end);
    if name.is_empty() {
        return Err("`.macro` needs a name".into());
    }
    let mut params = Vec::new();
    for piece in rest.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()) {
        let (decl, default) = match piece.split_once('=') {
            Some((d, v)) => (d, v.to_string()),
            None => (piece, String::new()),
        };
        let (pname, qual) = match decl.split_once(':') {
            Some((n, q)) => (n, Some(q)),
            None => (decl, None),
        };
        if pname.is_empty() || !pname.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.') {
            return Err(format!("bad macro parameter `{piece}`"));
        }
        let (required, vararg) = match qual {
            None => (false, false),
            Some("req") => (true, false),
            Some("vararg") => (false, true),
            Some(q) => return Err(format!("unknown qualifier `:{q}` of macro parameter `{pname}`")),
        };
        params.push(Param { name: pname.to_string(), default, required, vararg });
    }
    Ok((name.to_string(), params))
}

/// Splits an argument list at commas outside parentheses and strings.
fn split_args(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut prev = '\0';
    for c in text.chars() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' if !in_str => depth += 1,
            ')' if !in_str => depth -= 1,
            ',' if !in_str && depth <= 0 => {
                out.push(std::mem::take(&mut cur));
                prev = c;
                continue;
            }
            _ => {}
        }
        cur.push(c);
        prev = c;
    }
    out.push(cur);
    out
}

/// The value of each parameter for an invocation with arguments `text`.
fn bind(params: &[Param], text: &str) -> Result<Vec<(String, String)>, String> {
    let text = text.split("//").next().unwrap_or("").trim();
    let mut args: Vec<String> = if text.is_empty() { Vec::new() } else { split_args(text) };
    if args.len() == 1 && params.len() > 1 {
        args = text.split_whitespace().map(str::to_string).collect();
    }
    let mut values: Vec<Option<String>> = vec![None; params.len()];
    let mut pos = 0usize;
    for (k, a) in args.iter().enumerate() {
        let a = a.trim();
        if let Some((n, v)) = a.split_once('=') {
            if let Some(idx) = params.iter().position(|p| p.name == n.trim()) {
                if let Some(slot) = values.get_mut(idx) {
                    *slot = Some(v.trim().to_string());
                }
                continue;
            }
        }
        let Some(p) = params.get(pos) else {
            return Err(format!("too many arguments ({} given, {} expected)", args.len(), params.len()));
        };
        if p.vararg {
            let rest: Vec<&str> = args.get(k..).unwrap_or_default().iter().map(|s| s.trim()).collect();
            if let Some(slot) = values.get_mut(pos) {
                *slot = Some(rest.join(","));
            }
            break;
        }
        if let Some(slot) = values.get_mut(pos) {
            *slot = Some(a.to_string());
        }
        pos += 1;
    }
    let mut out = Vec::with_capacity(params.len());
    for (p, v) in params.iter().zip(values) {
        let v = match v {
            Some(v) if !v.is_empty() => v,
            _ if p.required => return Err(format!("missing value for required parameter `{}`", p.name)),
            _ => p.default.clone(),
        };
        out.push((p.name.clone(), v));
    }
    Ok(out)
}

/// Replaces `\name`, `\()`, `\@` and `&name` in one body line; with `alt` (`.altmacro`),
/// bare parameter names too.
fn substitute(line: &str, values: &[(String, String)], count: u64, alt: bool) -> String {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.';
    let value = |word: &str| values.iter().find(|(n, _)| n.as_str() == word).map(|(_, v)| v.as_str());
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(k) =
        rest.find(|c: char| c == '\\' || c == '&' || alt && (c.is_ascii_alphabetic() || c == '_' || c == '.'))
    {
        out.push_str(rest.get(..k).unwrap_or(""));
        let c = rest[k..].chars().next().unwrap_or(' ');
        let after = rest.get(k + c.len_utf8()..).unwrap_or("");
        if c != '\\' {
            // `&name` (either mode) or a bare name (`.altmacro`); a following `&` is dropped.
            let start = if c == '&' { after } else { &rest[k..] };
            let end = start.find(|ch: char| !is_name(ch)).unwrap_or(start.len());
            let word = start.get(..end).unwrap_or("");
            let tail = start.get(end..).unwrap_or("");
            match value(word) {
                Some(v) if !word.is_empty() => {
                    out.push_str(v);
                    rest = tail.strip_prefix('&').unwrap_or(tail);
                }
                _ => {
                    if c == '&' {
                        out.push('&');
                    }
                    out.push_str(word);
                    rest = tail;
                }
            }
            continue;
        }
        if let Some(a) = after.strip_prefix("()") {
            rest = a;
            continue;
        }
        if let Some(a) = after.strip_prefix('@') {
            out.push_str(&count.to_string());
            rest = a;
            continue;
        }
        let end = after.find(|c: char| !is_name(c)).unwrap_or(after.len());
        let word = after.get(..end).unwrap_or("");
        // The longest parameter name that the word starts with (gas reads `\name` greedily).
        let hit = values.iter().filter(|(n, _)| word.starts_with(n.as_str())).max_by_key(|(n, _)| n.len());
        match hit {
            Some((n, v)) if n.as_str() == word => {
                out.push_str(v);
                rest = after.get(end..).unwrap_or("");
            }
            _ => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(line: u32, col: u32) -> SourceLoc {
        SourceLoc::new("t.s".into(), line, col)
    }

    #[test]
    fn expands_with_defaults_strings_and_nesting() {
        let src = ".macro put v, n\n .quad \\v, \\n, 0\n.endm\n.macro exp name,val,sec\n.section tab\\sec+\\name,\"a\"\nx_\\name:\n put \\val, s_\\name\n .asciz \"\\name\"\n.endm\n exp foo, @fptr(foo),\n";
        let e = expand(src, &loc).map_err(|d| d.len()).unwrap_or_else(|n| panic!("{n} errors"));
        let text: Vec<&str> = e.text.split('\n').filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(text, vec![".section tab+foo,\"a\"", "x_foo:", " .quad @fptr(foo), s_foo, 0", " .asciz \"foo\""]);
        assert_eq!(e.origin.len(), e.text.split('\n').count());
        assert!(e.origin.iter().all(|&(l, _)| l >= 1));
    }

    #[test]
    fn errors_are_reported() {
        assert!(expand(".macro m\n nop 0\n", &loc).is_err());
        assert!(expand(".macro m a:req\n.endm\n m\n", &loc).is_err());
        assert!(expand(".macro m\n m\n.endm\n m\n", &loc).is_err());
        // Doubling at every level stops at the line limit instead of running for ever.
        assert!(expand(".macro m\n m\n m\n nop 0\n.endm\n m\n", &loc).is_err());
    }

    #[test]
    fn counter_and_separator() {
        let e = expand(".macro m a\nl\\@_\\a\\()x:\n.endm\n m q\n m r\n", &loc).map(|e| e.text).unwrap_or_default();
        assert!(e.contains("l0_qx:") && e.contains("l1_rx:"), "{e}");
    }
}
