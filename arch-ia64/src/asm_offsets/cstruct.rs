//! C structure layout under the IA-64 LP64 ABI (Intel's "Itanium Software Conventions and
//! Runtime Architecture Guide", data types: char 1, short 2, int 4, long/pointer 8, long
//! double 16 bytes aligned 16; a member sits at the next multiple of its alignment, a
//! structure's alignment is its largest member's and its size a multiple of it).
//!
//! The parser takes the struct, union and typedef-struct definitions of preprocessed C
//! header text (comments and directives already gone) and ignores everything else.
//! Bit-fields and arrays sized by anything but a number are refused.

use std::collections::HashMap;

/// Size and alignment of a type, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// `sizeof`.
    pub size: u64,
    /// `_Alignof`.
    pub align: u64,
}

/// A laid-out structure or union.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Its size and alignment.
    pub shape: Shape,
    /// Each named member in declaration order: name, offset, the shape of one element and
    /// the number of elements (1 unless an array). Members of anonymous nested structs and
    /// unions appear with their offsets in the outer one; members of a member structure
    /// also appear as `member.inner`.
    pub fields: Vec<(String, u64, Shape, u64)>,
}

impl Layout {
    /// The offset of member `name`.
    pub fn offset(&self, name: &str) -> Option<u64> {
        self.fields.iter().find(|f| f.0 == name).map(|f| f.1)
    }

    /// The offset of element `index` of array member `name` (`sc_gr[12]`).
    pub fn element(&self, name: &str, index: u64) -> Option<u64> {
        let f = self.fields.iter().find(|f| f.0 == name).filter(|f| index < f.3)?;
        f.1.checked_add(index.checked_mul(f.2.size)?)
    }
}

/// The structures known so far, by tag (`pt_regs`) and by typedef name.
#[derive(Debug, Clone, Default)]
pub struct Types {
    structs: HashMap<String, Layout>,
    typedefs: HashMap<String, Shape>,
}

fn base_shape(words: &[&str]) -> Option<Shape> {
    let has = |w: &str| words.contains(&w);
    let longs = words.iter().filter(|w| **w == "long").count();
    let s = |size| Some(Shape { size, align: size });
    if has("char") {
        s(1)
    } else if has("short") {
        s(2)
    } else if has("double") && longs > 0 {
        Some(Shape { size: 16, align: 16 })
    } else if has("double") {
        s(8)
    } else if has("float") {
        s(4)
    } else if longs > 0 {
        s(8)
    } else if has("int") || has("unsigned") || has("signed") {
        s(4)
    } else {
        None
    }
}

/// Fixed-width typedefs of the kernel (`include/uapi/asm-generic/int-ll64.h`, `types.h`).
fn typedef_shape(name: &str) -> Option<Shape> {
    let s = |size| Some(Shape { size, align: size });
    match name {
        "__u8" | "__s8" | "u8" | "s8" | "bool" | "_Bool" => s(1),
        "__u16" | "__s16" | "u16" | "s16" => s(2),
        "__u32" | "__s32" | "u32" | "s32" | "pid_t" => s(4),
        "__u64" | "__s64" | "u64" | "s64" | "size_t" | "ssize_t" | "atomic_t_8" | "uintptr_t" | "loff_t" => s(8),
        _ => None,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Num(u64),
    Punct(char),
}

fn tokenize(text: &str) -> Result<Vec<Tok>, String> {
    let mut toks = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while chars.get(i).is_some_and(|c| *c != '\n') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while chars.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_') {
                i += 1;
            }
            toks.push(Tok::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            let start = i;
            while chars.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
                i += 1;
            }
            let t: String = chars[start..i].iter().collect();
            let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
            let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16),
                None => t.parse(),
            };
            toks.push(Tok::Num(v.map_err(|_| format!("bad number `{t}`"))?));
        } else if c == '"' || c == '\'' {
            // Strings only occur outside structures (asm statements, attributes); skip them.
            i += 1;
            while chars.get(i).is_some_and(|d| *d != c) {
                i += 1 + usize::from(chars[i] == '\\');
            }
            i += 1;
        } else {
            toks.push(Tok::Punct(c));
            i += 1;
        }
    }
    Ok(toks)
}

struct Parser<'t> {
    toks: &'t [Tok],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn is(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn ident(&self) -> Option<&str> {
        match self.peek() {
            Some(Tok::Ident(s)) => Some(s),
            _ => None,
        }
    }
    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.is(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("expected `{c}`, found {:?}", self.peek()))
        }
    }
    /// Skips a balanced `( ... )` starting at the current `(`.
    fn skip_parens(&mut self) -> Result<Vec<Tok>, String> {
        let start = self.pos;
        let mut depth = 0;
        loop {
            match self.peek() {
                Some(Tok::Punct('(')) => depth += 1,
                Some(Tok::Punct(')')) => depth -= 1,
                None => return Err("unbalanced parentheses".into()),
                _ => {}
            }
            self.pos += 1;
            if depth == 0 {
                return Ok(self.toks[start..self.pos].to_vec());
            }
        }
    }
    /// `__attribute__((...))` or `__aligned(N)`: returns an alignment it asks for.
    fn attribute(&mut self) -> Result<Option<u64>, String> {
        let Some(name) = self.ident().map(str::to_string) else { return Ok(None) };
        if !matches!(name.as_str(), "__attribute__" | "__attribute" | "__aligned" | "__packed") {
            return Ok(None);
        }
        self.pos += 1;
        if name == "__packed" {
            return Err("packed structures are not modelled".into());
        }
        let inner = if self.is('(') { self.skip_parens()? } else { Vec::new() };
        if name == "__aligned" {
            return Ok(inner.iter().find_map(|t| if let Tok::Num(n) = t { Some(*n) } else { None }).or(Some(16)));
        }
        let mut align = Some(0);
        for (k, t) in inner.iter().enumerate() {
            match t {
                Tok::Ident(s) if s == "aligned" || s == "__aligned__" => {
                    let n = inner.get(k + 2).and_then(|t| if let Tok::Num(n) = t { Some(*n) } else { None });
                    align = Some(n.unwrap_or(16));
                }
                Tok::Ident(s) if s == "packed" || s == "__packed__" => {
                    return Err("packed structures are not modelled".into())
                }
                _ => {}
            }
        }
        Ok(align)
    }
}

const TOO_BIG: &str = "structure larger than 2^64 bytes";

fn round_up(v: u64, align: u64) -> u64 {
    v.div_ceil(align.max(1)).saturating_mul(align.max(1))
}

impl Types {
    /// No structures yet.
    pub fn new() -> Types {
        Types::default()
    }

    /// The layout of `struct tag` (or of the typedef'd struct `tag`).
    pub fn get(&self, tag: &str) -> Option<&Layout> {
        self.structs.get(tag)
    }

    /// Parse the definitions in `text` and add them; `what` names the text in errors.
    ///
    /// # Errors
    /// A definition this parser cannot lay out (unknown member type, bit-field, ...).
    pub fn add_definitions(&mut self, what: &str, text: &str) -> Result<(), String> {
        let toks = tokenize(text).map_err(|e| format!("{what}: {e}"))?;
        let mut p = Parser { toks: &toks, pos: 0 };
        while let Some(t) = p.peek().cloned() {
            let typedef = t == Tok::Ident("typedef".into());
            let at = p.pos + usize::from(typedef);
            let kw = match toks.get(at) {
                Some(Tok::Ident(k)) if k == "struct" || k == "union" => k.clone(),
                _ => {
                    p.pos += 1;
                    continue;
                }
            };
            let tag = match toks.get(at + 1) {
                Some(Tok::Ident(t)) => Some(t.clone()),
                _ => None,
            };
            let brace = at + 1 + usize::from(tag.is_some());
            if toks.get(brace) != Some(&Tok::Punct('{')) {
                p.pos += 1;
                continue;
            }
            p.pos = brace + 1;
            let name = tag.clone().unwrap_or_default();
            let layout = self.body(&mut p, kw == "union").map_err(|e| format!("{what}: struct {name}: {e}"))?;
            let mut layout = layout;
            if let Some(a) = p.attribute().map_err(|e| format!("{what}: {e}"))? {
                layout.shape.align = layout.shape.align.max(a);
                layout.shape.size = round_up(layout.shape.size, layout.shape.align);
            }
            if typedef {
                if let Some(Tok::Ident(alias)) = p.peek().cloned() {
                    self.typedefs.insert(alias.clone(), layout.shape);
                    self.structs.insert(alias, layout.clone());
                }
            }
            if let Some(tag) = tag {
                self.structs.insert(tag, layout);
            }
        }
        Ok(())
    }

    /// Members up to the closing `}` (consumed).
    fn body(&self, p: &mut Parser<'_>, union: bool) -> Result<Layout, String> {
        let mut fields = Vec::new();
        let (mut size, mut align) = (0u64, 1u64);
        while !p.is('}') {
            if p.peek().is_none() {
                return Err("unterminated definition".into());
            }
            let (base, nested) = self.member_type(p)?;
            loop {
                let mut pointer = false;
                while p.is('*') {
                    p.pos += 1;
                    pointer = true;
                }
                let name = p.ident().map(str::to_string);
                if name.is_some() {
                    p.pos += 1;
                }
                let mut count = 1u64;
                while p.is('[') {
                    p.pos += 1;
                    match p.peek() {
                        Some(Tok::Num(n)) => count = count.checked_mul(*n).ok_or(TOO_BIG)?,
                        other => return Err(format!("array size {other:?} is not a number")),
                    }
                    p.pos += 1;
                    p.expect(']')?;
                }
                if p.is(':') {
                    return Err("bit-fields are not modelled".into());
                }
                let mut shape = if pointer { Shape { size: 8, align: 8 } } else { base };
                if let Some(a) = p.attribute()? {
                    shape.align = shape.align.max(a);
                }
                let whole = Shape { size: shape.size.checked_mul(count).ok_or(TOO_BIG)?, align: shape.align };
                let at = if union { 0 } else { round_up(size, whole.align) };
                match &name {
                    Some(n) => {
                        fields.push((n.clone(), at, shape, count));
                        // `thread.ksp`: members of a member that is a structure (not through a pointer).
                        if let Some(inner) = nested.as_ref().filter(|_| !pointer) {
                            fields.extend(inner.fields.iter().map(|(m, o, s, c)| (format!("{n}.{m}"), at + o, *s, *c)));
                        }
                    }
                    None => {
                        let inner = nested.as_ref().ok_or("a member has no name")?;
                        fields.extend(inner.fields.iter().map(|(n, o, s, c)| (n.clone(), at + o, *s, *c)));
                    }
                }
                size = if union { size.max(whole.size) } else { at.checked_add(whole.size).ok_or(TOO_BIG)? };
                align = align.max(whole.align);
                if p.is(',') {
                    p.pos += 1;
                    continue;
                }
                p.expect(';')?;
                break;
            }
        }
        p.pos += 1;
        Ok(Layout { shape: Shape { size: round_up(size, align), align }, fields })
    }

    /// A member's type: its shape and, for a nested definition, its layout.
    fn member_type(&self, p: &mut Parser<'_>) -> Result<(Shape, Option<Layout>), String> {
        let mut words: Vec<String> = Vec::new();
        while let Some(w) = p.ident().map(str::to_string) {
            match w.as_str() {
                "const" | "volatile" | "__user" | "__iomem" | "__rcu" | "__percpu" | "extern" => p.pos += 1,
                "__attribute__" | "__aligned" => {
                    p.attribute()?;
                }
                "struct" | "union" => {
                    p.pos += 1;
                    let tag = p.ident().map(str::to_string);
                    if tag.is_some() {
                        p.pos += 1;
                    }
                    if p.is('{') {
                        p.pos += 1;
                        let l = self.body(p, w == "union")?;
                        return Ok((l.shape, Some(l)));
                    }
                    let tag = tag.ok_or("struct without a tag or body")?;
                    // A pointer needs no layout; the declarator decides.
                    return match self.structs.get(&tag) {
                        Some(l) => Ok((l.shape, Some(l.clone()))),
                        None if p.is('*') => Ok((Shape { size: 8, align: 8 }, None)),
                        None => Err(format!("struct {tag} is not known")),
                    };
                }
                "unsigned" | "signed" | "long" | "int" | "short" | "char" | "float" | "double" | "void" => {
                    words.push(w);
                    p.pos += 1;
                }
                _ if words.is_empty() => {
                    p.pos += 1;
                    let shape = typedef_shape(&w).or_else(|| self.typedefs.get(&w).copied());
                    return match shape {
                        Some(s) => Ok((s, None)),
                        None if p.is('*') => Ok((Shape { size: 8, align: 8 }, None)),
                        None => Err(format!("type `{w}` is not known")),
                    };
                }
                _ => break,
            }
        }
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        if refs == ["void"] && p.is('*') {
            return Ok((Shape { size: 8, align: 8 }, None));
        }
        base_shape(&refs).map(|s| (s, None)).ok_or_else(|| format!("cannot read a type at {:?}", p.peek()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lp64_layout_with_nested_union_and_alignment() {
        let mut t = Types::new();
        t.add_definitions(
            "t",
            "struct fp { union { unsigned long bits[2]; long double d; } u; };\n\
             struct s { char c; unsigned long l; int i; struct fp f; int *p, q[3]; } __attribute__((aligned(32)));\n\
             typedef struct { __u32 a; __u64 b; } pair_t;\nstruct w { pair_t p; struct s *next; };",
        )
        .unwrap();
        assert_eq!(t.get("fp").unwrap().shape, Shape { size: 16, align: 16 });
        let s = t.get("s").unwrap();
        assert_eq!(s.offset("l"), Some(8));
        assert_eq!(s.offset("i"), Some(16));
        assert_eq!(s.offset("f"), Some(32));
        assert_eq!(s.offset("p"), Some(48));
        assert_eq!(s.offset("q"), Some(56));
        assert_eq!(s.element("q", 2), Some(64));
        assert_eq!(s.element("q", 3), None);
        assert_eq!(s.shape, Shape { size: 96, align: 32 });
        assert_eq!(t.get("w").unwrap().shape.size, 24);
    }

    #[test]
    fn unknown_type_bitfield_and_overflow_are_errors() {
        let huge = "struct a { char x[4294967296][4294967296]; };";
        assert!(Types::new().add_definitions("t", huge).unwrap_err().contains("2^64"));
        assert!(Types::new().add_definitions("t", "struct a { int x; ").is_err());
        assert!(Types::new().add_definitions("t", "struct a { foo_t x; };").unwrap_err().contains("foo_t"));
        assert!(Types::new().add_definitions("t", "struct a { int x:3; };").unwrap_err().contains("bit-field"));
    }
}
