//! The per-file driver: walks logical lines, runs directives, tracks conditional
//! groups and emits output lines with their origins.

use std::collections::HashMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::expand::{parse_define, Expander, Macro};
use super::lines::{logical_lines, physical_lines, LogicalLine, SourceSet};
use super::token::{spell, tokenize, Kind, Token};
use super::{expr, LineOrigin, PpError, PreprocessOptions, SourceLoader};
use crate::error::{Diagnostic, SourceLoc};

/// Deepest `#include` nesting accepted (the main file is depth 0).
pub(super) const MAX_INCLUDE_DEPTH: usize = 64;

/// One open `#if` group.
struct Cond {
    /// Where its `#if`/`#ifdef`/`#ifndef` is, for "unterminated" errors.
    line: u32,
    col: u32,
    directive: String,
    /// Lines of the current branch are output.
    active: bool,
    /// Some branch was (or, when the parent is skipped, counts as) taken.
    taken: bool,
    seen_else: bool,
    parent_active: bool,
}

/// The file being processed.
struct FileCtx<'t> {
    name: Arc<str>,
    phys: Vec<&'t str>,
    depth: usize,
}

impl FileCtx<'_> {
    fn diag(&self, ll: &LogicalLine, e: PpError) -> Diagnostic {
        // Columns past the part that matches the physical line would point at the wrong place.
        let col = if e.col <= ll.exact_cols { e.col } else { 0 };
        let loc = SourceLoc::new(self.name.clone(), ll.first, col);
        let d = Diagnostic::error(loc, e.message);
        match self.phys.get(ll.first as usize - 1) {
            Some(src) => d.with_source_line(*src),
            None => d,
        }
    }
}

/// Preprocessor state shared across included files.
pub(super) struct Pp<'a> {
    pub macros: HashMap<String, Macro>,
    pub opts: &'a PreprocessOptions,
    pub loader: &'a dyn SourceLoader,
    pub out: String,
    pub map: Vec<LineOrigin>,
    pub sources: SourceSet,
    pub warnings: Vec<Diagnostic>,
}

fn perr(col: u32, message: impl Into<String>) -> PpError {
    PpError { col, message: message.into() }
}

impl<'a> Pp<'a> {
    fn emit(&mut self, text: &str, file: &Arc<str>, line: u32, verbatim: bool) {
        self.out.push_str(text);
        self.out.push('\n');
        self.map.push(LineOrigin { file: file.clone(), line, verbatim });
    }

    fn emit_empty(&mut self, file: &Arc<str>, first: u32, count: u32) {
        for k in 0..count {
            self.emit("", file, first + k, true);
        }
    }

    /// Define a macro from `NAME`/`NAME(args)` and its replacement text.
    pub fn define(&mut self, name: &str, value: &str) -> Result<(), PpError> {
        let m = parse_define(&tokenize(&format!("{name} {value}")), 1)?;
        self.macros.insert(m.name.to_string(), m);
        Ok(())
    }

    /// Preprocess one file (the main one at depth 0, or an included one).
    pub fn run_file(&mut self, name: Arc<str>, text: &str, depth: usize) -> Result<(), Diagnostic> {
        self.sources.insert(&name, text);
        let ctx = FileCtx { name: name.clone(), phys: physical_lines(text), depth };
        let logical = logical_lines(text).map_err(|u| {
            let d = Diagnostic::error(SourceLoc::new(name.clone(), u.line, u.col), "unterminated comment");
            match ctx.phys.get(u.line as usize - 1) {
                Some(src) => d.with_source_line(*src),
                None => d,
            }
        })?;
        let mut conds: Vec<Cond> = Vec::new();
        for ll in &logical {
            let active = conds.last().is_none_or(|c| c.active);
            let toks = tokenize(&ll.text);
            if toks.first().is_some_and(|t| t.is("#")) {
                let included = self.directive(&ctx, ll, toks, &mut conds, active)?;
                let skip = u32::from(included);
                self.emit_empty(&name, ll.first + skip, ll.count - skip);
            } else if !active || toks.is_empty() {
                self.emit_empty(&name, ll.first, ll.count);
            } else {
                let mut ex = Expander::new(&self.macros, &name, ll.first);
                let expanded = ex.expand(toks).map_err(|e| ctx.diag(ll, e))?;
                if ex.changed {
                    let indent: String = ll.text.chars().take_while(|c| c.is_whitespace()).collect();
                    let line = format!("{indent}{}", spell(&expanded));
                    self.emit(&line, &name, ll.first, false);
                } else {
                    self.emit(&ll.text, &name, ll.first, ll.verbatim());
                }
                self.emit_empty(&name, ll.first + 1, ll.count - 1);
            }
        }
        if let Some(c) = conds.last() {
            let ll = LogicalLine { first: c.line, count: 1, text: String::new(), exact_cols: u32::MAX };
            return Err(ctx.diag(&ll, perr(c.col, format!("unterminated #{}", c.directive))));
        }
        Ok(())
    }

    /// Run a directive line; returns whether it was an `#include` that emitted lines.
    fn directive(
        &mut self,
        ctx: &FileCtx<'_>,
        ll: &LogicalLine,
        toks: Vec<Token>,
        conds: &mut Vec<Cond>,
        active: bool,
    ) -> Result<bool, Diagnostic> {
        let hash_col = toks.first().map_or(1, |t| t.col);
        let Some(name_tok) = toks.get(1) else {
            return Ok(false);
        };
        let rest = toks.get(2..).unwrap_or_default();
        let at = |e: PpError| ctx.diag(ll, e);
        let name = match name_tok.kind {
            Kind::Ident => name_tok.text.as_str(),
            // `# 12 "file"` line markers are dropped: the line map already knows.
            Kind::Number => return Ok(false),
            _ if active => {
                return Err(at(perr(name_tok.col, format!("invalid preprocessing directive \"{}\"", name_tok.text))))
            }
            _ => return Ok(false),
        };
        let col = name_tok.col;
        let line_rest = || -> String {
            let skip = (col as usize - 1) + name.chars().count();
            ll.text.chars().skip(skip).collect::<String>().trim().to_string()
        };
        let new_cond = |active, taken, parent_active| Cond {
            line: ll.first,
            col: hash_col,
            directive: name.to_string(),
            active,
            taken,
            seen_else: false,
            parent_active,
        };
        match name {
            "if" | "ifdef" | "ifndef" if !active => conds.push(new_cond(false, true, false)),
            "if" => {
                let v = self.eval_if(&ctx.name, ll.first, rest, col).map_err(at)?;
                conds.push(new_cond(v, v, true));
            }
            "ifdef" | "ifndef" => {
                let id =
                    rest.first().ok_or_else(|| at(perr(col, format!("no macro name given in #{name} directive"))))?;
                if id.kind != Kind::Ident {
                    return Err(at(perr(id.col, "macro names must be identifiers")));
                }
                let v = self.is_defined(&id.text) == (name == "ifdef");
                conds.push(new_cond(v, v, true));
            }
            "elif" => {
                let c = conds.last_mut().ok_or_else(|| at(perr(hash_col, "#elif without #if")))?;
                if c.seen_else {
                    return Err(at(perr(hash_col, "#elif after #else")));
                }
                if c.taken || !c.parent_active {
                    c.active = false;
                } else {
                    let v = self.eval_if(&ctx.name, ll.first, rest, col).map_err(at)?;
                    c.active = v;
                    c.taken = v;
                }
            }
            "else" => {
                let c = conds.last_mut().ok_or_else(|| at(perr(hash_col, "#else without #if")))?;
                if c.seen_else {
                    return Err(at(perr(hash_col, "#else after #else")));
                }
                c.seen_else = true;
                c.active = c.parent_active && !c.taken;
                c.taken = true;
            }
            "endif" => {
                conds.pop().ok_or_else(|| at(perr(hash_col, "#endif without #if")))?;
            }
            _ if !active => {}
            "define" => {
                let m = parse_define(rest, col).map_err(at)?;
                if let Some(old) = self.macros.get(&*m.name).filter(|old| !old.same_as(&m)) {
                    let d = at(perr(col, format!("\"{}\" redefined", old.name)));
                    self.warnings.push(Diagnostic { severity: crate::error::Severity::Warning, ..d });
                }
                self.macros.insert(m.name.to_string(), m);
            }
            "undef" => {
                let id = rest.first().ok_or_else(|| at(perr(col, "no macro name given in #undef directive")))?;
                if id.kind != Kind::Ident {
                    return Err(at(perr(id.col, "macro names must be identifiers")));
                }
                self.macros.remove(&id.text);
            }
            "include" => {
                self.include(ctx, ll, rest, &line_rest(), col)?;
                return Ok(true);
            }
            "error" => return Err(at(perr(hash_col, format!("#error {}", line_rest())))),
            "warning" => {
                let d = at(perr(hash_col, format!("#warning {}", line_rest())));
                self.warnings.push(Diagnostic { severity: crate::error::Severity::Warning, ..d });
            }
            "line" | "pragma" | "ident" | "sccs" => {}
            _ => return Err(at(perr(col, format!("invalid preprocessing directive #{name}")))),
        }
        Ok(false)
    }

    fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || matches!(name, "__LINE__" | "__FILE__")
    }

    /// Evaluate an `#if`/`#elif` condition: `defined` first, then expansion, then arithmetic.
    fn eval_if(&self, file: &str, line: u32, rest: &[Token], col: u32) -> Result<bool, PpError> {
        let mut replaced = Vec::with_capacity(rest.len());
        let mut i = 0;
        while let Some(t) = rest.get(i) {
            if t.kind != Kind::Ident || t.text != "defined" {
                replaced.push(t.clone());
                i += 1;
                continue;
            }
            let paren = rest.get(i + 1).is_some_and(|n| n.is("("));
            let id = rest.get(i + 1 + usize::from(paren)).filter(|n| n.kind == Kind::Ident);
            let Some(id) = id else {
                return Err(perr(t.col, "operator \"defined\" requires an identifier"));
            };
            i += 2 + usize::from(paren);
            if paren {
                if !rest.get(i).is_some_and(|n| n.is(")")) {
                    return Err(perr(t.col, "missing ')' after \"defined\""));
                }
                i += 1;
            }
            let value = if self.is_defined(&id.text) { "1" } else { "0" };
            replaced.push(Token::new(Kind::Number, value, t.ws, t.col));
        }
        let expanded = Expander::new(&self.macros, file, line).expand(replaced)?;
        expr::evaluate(&expanded, col)
    }

    /// Run one `-include` file before the main file (depth 1, as an `#include` of it).
    pub fn forced_include(&mut self, path: &Path) -> Result<(), Diagnostic> {
        let cmdline = || SourceLoc::new(Arc::from("<command-line>"), 1, 0);
        let mut candidates = vec![path.to_path_buf()];
        if !path.is_absolute() {
            candidates.extend(self.opts.include_dirs.iter().map(|d| d.join(path)));
        }
        let mut failure = None;
        for cand in candidates {
            match self.loader.load_limited(&cand, self.opts.limits.max_input_size) {
                Ok(text) => {
                    let name: Arc<str> = Arc::from(cand.to_string_lossy().as_ref());
                    return self.run_file(name, &text, 1).map_err(|d| d.with_note(cmdline(), "in -include file"));
                }
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => failure = Some(e),
            }
        }
        let why = failure.map_or_else(|| "No such file or directory".to_string(), |e| e.to_string());
        Err(Diagnostic::error(cmdline(), format!("-include {}: {why}", path.display())))
    }

    fn include(
        &mut self,
        ctx: &FileCtx<'_>,
        ll: &LogicalLine,
        rest: &[Token],
        raw: &str,
        col: u32,
    ) -> Result<(), Diagnostic> {
        let at = |e: PpError| ctx.diag(ll, e);
        let (path, quoted) = match include_name(raw) {
            Some(found) => found,
            None => {
                let expanded = Expander::new(&self.macros, &ctx.name, ll.first).expand(rest.to_vec()).map_err(at)?;
                include_name(&spell(&expanded))
                    .ok_or_else(|| at(perr(col, "#include expects \"FILENAME\" or <FILENAME>")))?
            }
        };
        if ctx.depth + 1 > MAX_INCLUDE_DEPTH {
            return Err(at(perr(
                col,
                format!("#include nested depth {} exceeds maximum of {MAX_INCLUDE_DEPTH}", ctx.depth + 1),
            )));
        }
        let mut candidates: Vec<PathBuf> = Vec::new();
        if Path::new(&path).is_absolute() {
            candidates.push(PathBuf::from(&path));
        } else {
            if quoted {
                let dir = Path::new(&*ctx.name).parent().unwrap_or(Path::new(""));
                candidates.push(dir.join(&path));
            }
            candidates.extend(self.opts.include_dirs.iter().map(|d| d.join(&path)));
        }
        let mut failure = None;
        for cand in candidates {
            match self.loader.load_limited(&cand, self.opts.limits.max_input_size) {
                Ok(text) => {
                    let name: Arc<str> = Arc::from(cand.to_string_lossy().as_ref());
                    return self.run_file(name, &text, ctx.depth + 1).map_err(|d| {
                        let here = SourceLoc::new(ctx.name.clone(), ll.first, 0);
                        d.with_note(here, "in file included from here")
                    });
                }
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => failure = Some(e),
            }
        }
        let why = failure.map_or_else(|| "No such file or directory".to_string(), |e| e.to_string());
        Err(at(perr(col, format!("{path}: {why}"))))
    }
}

/// `"name"` or `<name>` at the start of `raw`; the flag says it was quoted.
fn include_name(raw: &str) -> Option<(String, bool)> {
    let raw = raw.trim();
    let (close, quoted) = match raw.chars().next()? {
        '"' => ('"', true),
        '<' => ('>', false),
        _ => return None,
    };
    let inner = raw.get(1..)?;
    let end = inner.find(close)?;
    let name = inner.get(..end)?;
    (!name.is_empty()).then(|| (name.to_string(), quoted))
}
