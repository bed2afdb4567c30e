//! The TOML harness: an initial machine state and where the accounting results live.
//!
//! ```toml
//! entry = "account_sys_enter"      # symbol to start at (the CLI's --entry overrides)
//! itc = 1000                      # starting cycle / time-stamp counter
//! cpl = 0
//! psr = "0x0000101008026038"      # optional full PSR (or the arch's status word)
//! translation = false             # translate through the core's TLB model (ia64), default off
//!
//! [[region]]
//! name = "stack"
//! base = "0x9000000000"
//! size = "0x10000"
//! perms = "rw"
//! fill = [ { at = "0x100", u64 = ["0x1", "task+8"] }, { at = "0x200", bytes = "de ad be ef" } ]
//!
//! [registers]                     # arch register names, in order of application
//! r12 = "stack.top-16"
//! b0 = "sentinel"
//!
//! [symbols]                       # extra names usable in expressions
//! task = "0xa0000000_00010000"
//!
//! [[counter]]
//! name = "ac_stime"
//! address = "task+0x1078"
//! width = 8
//! unit = "cycles"
//!
//! [data]                          # undefined symbols of linked objects -> data addresses
//! jiffies = "task+0x2000"
//!
//! [[stub]]                        # undefined symbols -> stubs (see `crate::stub`)
//! name = "schedule"
//! returns = "0"                   # optional, default 0
//! cycles = 120                    # optional, default 0
//! writes = [ { address = "task+0x40", width = 8, value = "1" } ]
//! ```
//!
//! Names resolve in this order: `[symbols]` (each may use the ones before it and outer
//! names), then regions (`name` is the base, `name.top` the end; bases and sizes may use
//! symbols and earlier regions), then the caller's outer lookup (image symbols and
//! `sentinel`). Register names stay strings: the architecture maps them.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::error::{Diagnostic, SourceLoc};
use crate::memory::{Endian, Memory, Perms};
use crate::snapshot::hex64;

mod expr;
mod lines;
mod raw;

pub use expr::{Origin, ValueExpr};

use lines::LineIndex;
use raw::{span, RawCounter, RawFill, RawHarness, RawRegion, RawStub, RawTable, RawValue, SValue};

/// Contents of a region's `fill` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FillData {
    /// 8-byte values in the memory's byte order.
    U64(Vec<ValueExpr>),
    /// 4-byte values.
    U32(Vec<ValueExpr>),
    /// Single bytes.
    U8(Vec<ValueExpr>),
    /// Raw bytes given as hex (`"de ad be ef"` or `"deadbeef"`).
    Bytes(Vec<u8>),
}

/// Initial contents for part of a region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fill {
    /// Offset from the region's base.
    pub at: ValueExpr,
    /// What to store there.
    pub data: FillData,
    /// Where the entry was written.
    pub origin: Origin,
}

/// A memory region to map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// Name in reports and in expressions.
    pub name: String,
    /// First address.
    pub base: ValueExpr,
    /// Length in bytes.
    pub size: ValueExpr,
    /// Access permissions.
    pub perms: Perms,
    /// Initial contents, applied in order.
    pub fill: Vec<Fill>,
    /// Where the region's name was written.
    pub origin: Origin,
}

/// A memory location holding an accounting result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// Name in reports ("ac_stime").
    pub name: String,
    /// Where it lives.
    pub address: ValueExpr,
    /// Size in bytes: 1, 2, 4 or 8.
    pub width: u8,
    /// What it counts ("cycles", "ns", "ticks").
    pub unit: String,
}

/// A counter read after a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CounterValue {
    /// Counter name.
    pub name: String,
    /// Address it was read from.
    #[serde(serialize_with = "ser_hex")]
    pub address: u64,
    /// Size in bytes.
    pub width: u8,
    /// What it counts.
    pub unit: String,
    /// The value read, in the memory's byte order.
    pub value: u64,
}

/// A parsed harness file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Harness {
    /// Symbol to start at, if the file names one.
    pub entry: Option<String>,
    /// Where the file names it (for an undefined entry symbol's error).
    pub entry_origin: Option<Origin>,
    /// Starting value of the cycle / time-stamp counter.
    pub itc: Option<u64>,
    /// Where the file gives it (for a core without such a counter).
    pub itc_origin: Option<Origin>,
    /// Starting privilege level, 0 to 3.
    pub cpl: Option<u8>,
    /// Where the file gives it (for a core that cannot start there).
    pub cpl_origin: Option<Origin>,
    /// Starting processor status word.
    pub psr: Option<ValueExpr>,
    /// Translate addresses through the core's TLB model (ia64: PSR.dt/PSR.it accesses go
    /// through the TLB and its faults). Off by default: paths written for a flat address space
    /// run with translation bits set and no TLB entries.
    pub translation: bool,
    /// Where the file gives it (for a core without a TLB model).
    pub translation_origin: Option<Origin>,
    /// Regions to map, in file order.
    pub regions: Vec<Region>,
    /// Register names and initial values, in file order.
    pub registers: Vec<(String, ValueExpr)>,
    /// Extra names for expressions, in file order.
    pub symbols: Vec<(String, ValueExpr)>,
    /// Counters to read after the run.
    pub counters: Vec<Counter>,
    /// `[data]`: undefined symbols bound to data addresses, in file order (linking).
    pub data: Vec<(String, ValueExpr)>,
    /// `[[stub]]`: undefined symbols bound to stubs, in file order (linking).
    pub stubs: Vec<HarnessStub>,
}

/// A `[[stub]]` of the harness: a fixed return value, a cost, writes (see
/// [`crate::stub::StubSpec`], which [`Harness::stub_specs`] makes of it).
///
/// ```toml
/// [[stub]]
/// name = "schedule"
/// returns = "0"
/// cycles = 120
/// writes = [ { address = "task+0x40", width = 8, value = "1" } ]
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HarnessStub {
    /// The symbol it binds.
    pub name: String,
    /// Returned value (0 when not given).
    pub returns: Option<ValueExpr>,
    /// Cycles per call (0 when not given).
    pub cycles: u64,
    /// Writes made on every call: address, width, value.
    pub writes: Vec<(ValueExpr, u8, ValueExpr)>,
    /// Where the name was written.
    pub origin: Origin,
}

/// The names a harness defines, in front of the caller's lookup.
pub struct Env<'a> {
    /// Hashed, as every value of a harness of thousands of regions looks names up.
    names: HashMap<String, u64>,
    /// `NAME.top` of each region that ends exactly at 2^64, one past the last address: the
    /// region is fine, only its end does not fit in 64 bits.
    tops_at_2_64: HashSet<String>,
    outer: &'a dyn Fn(&str) -> Option<u64>,
}

impl Env<'_> {
    /// The value of `name`: harness symbols and regions first, then the outer lookup.
    pub fn lookup(&self, name: &str) -> Option<u64> {
        self.names.get(name).copied().or_else(|| (self.outer)(name))
    }

    /// Defines `name` unless it already is: the first definition wins (a symbol `x.top`
    /// over region `x`'s end), as when names were searched in file order.
    fn define(&mut self, name: String, value: u64) {
        self.names.entry(name).or_insert(value);
    }

    /// Evaluates `expr` against [`Env::lookup`].
    ///
    /// # Errors
    /// A located diagnostic for an unknown name or an out-of-range result.
    pub fn eval(&self, expr: &ValueExpr) -> Result<u64, Diagnostic> {
        if let Some(top) = expr.name().filter(|n| self.tops_at_2_64.contains(*n) && !self.names.contains_key(*n)) {
            return Err(expr
                .origin
                .error(format!("'{top}' is 2^64, past the 64-bit range (the region ends at the top)")));
        }
        expr.eval(&|name| self.lookup(name))
    }
}

/// Turns byte spans of the TOML text into source locations.
struct Source<'a> {
    file: Arc<str>,
    lines: LineIndex<'a>,
}

impl Source<'_> {
    fn origin(&self, path: impl Into<String>, span: Range<usize>) -> Origin {
        let place = self.lines.place(span.start);
        let (line, col) = (saturate(place.line), saturate(place.col));
        Origin { path: path.into(), loc: SourceLoc::new(self.file.clone(), line, col), source_line: place.text }
    }

    /// A privilege level: stored in two bits, so anything past 3 would be cut silently.
    fn cpl(&self, raw: &toml::Spanned<i64>) -> Result<u8, Diagnostic> {
        let cpl = *raw.get_ref();
        u8::try_from(cpl)
            .ok()
            .filter(|c| *c <= 3)
            .ok_or_else(|| self.origin("cpl", span(raw)).error(format!("{cpl} is not a privilege level (0 to 3)")))
    }

    fn expr(&self, path: impl Into<String>, value: &SValue) -> Result<ValueExpr, Diagnostic> {
        let origin = self.origin(path, span(value));
        match value.get_ref() {
            RawValue::Int(v) => Ok(ValueExpr::number(*v, origin)),
            RawValue::Str(s) => ValueExpr::parse(s, origin),
        }
    }

    fn table(&self, section: &str, table: &RawTable) -> Result<Vec<(String, ValueExpr)>, Diagnostic> {
        let mut out: Vec<(String, ValueExpr)> = Vec::new();
        for (name, value) in &table.0 {
            let expr = self.expr(format!("{section}.{name}"), value)?;
            out.push((name.clone(), expr));
        }
        Ok(out)
    }

    fn region(&self, raw: &RawRegion) -> Result<Region, Diagnostic> {
        let name = raw.name.get_ref().clone();
        let path = format!("region.{name}");
        let perms = parse_perms(raw.perms.get_ref()).ok_or_else(|| {
            self.origin(format!("{path}.perms"), span(&raw.perms))
                .error(format!("bad permissions '{}' (expected letters of \"rwx\", e.g. \"rw\")", raw.perms.get_ref()))
        })?;
        let mut fill = Vec::new();
        for (i, f) in raw.fill.iter().enumerate() {
            fill.push(self.fill(
                &format!("{path}.fill[{i}]"),
                f.get_ref(),
                self.origin(format!("{path}.fill[{i}]"), span(f)),
            )?);
        }
        Ok(Region {
            base: self.expr(format!("{path}.base"), &raw.base)?,
            size: self.expr(format!("{path}.size"), &raw.size)?,
            perms,
            fill,
            origin: self.origin(path, span(&raw.name)),
            name,
        })
    }

    fn fill(&self, path: &str, raw: &RawFill, origin: Origin) -> Result<Fill, Diagnostic> {
        let at = match &raw.at {
            Some(v) => self.expr(format!("{path}.at"), v)?,
            None => ValueExpr::number(0, origin.clone()),
        };
        let list = |kind: &str, values: &[SValue]| -> Result<Vec<ValueExpr>, Diagnostic> {
            values.iter().enumerate().map(|(i, v)| self.expr(format!("{path}.{kind}[{i}]"), v)).collect()
        };
        let mut data = Vec::new();
        if let Some(v) = &raw.u64 {
            data.push(FillData::U64(list("u64", v)?));
        }
        if let Some(v) = &raw.u32 {
            data.push(FillData::U32(list("u32", v)?));
        }
        if let Some(v) = &raw.u8 {
            data.push(FillData::U8(list("u8", v)?));
        }
        if let Some(b) = &raw.bytes {
            let bytes = parse_hex_bytes(b.get_ref()).ok_or_else(|| {
                self.origin(format!("{path}.bytes"), span(b)).error(format!("'{}' is not hex bytes", b.get_ref()))
            })?;
            data.push(FillData::Bytes(bytes));
        }
        match data.len() {
            1 => Ok(Fill { at, data: data.remove(0), origin }),
            _ => Err(origin.error("give exactly one of u64, u32, u8 or bytes")),
        }
    }

    fn stub(&self, raw: &RawStub) -> Result<HarnessStub, Diagnostic> {
        let name = raw.name.get_ref().clone();
        let path = format!("stub.{name}");
        let mut writes = Vec::new();
        for (i, w) in raw.writes.iter().enumerate() {
            let w = w.get_ref();
            let wpath = format!("{path}.writes[{i}]");
            let width = match *w.width.get_ref() {
                n @ (1 | 2 | 4 | 8) => n as u8,
                n => {
                    let origin = self.origin(format!("{wpath}.width"), span(&w.width));
                    return Err(origin.error(format!("width {n} is not 1, 2, 4 or 8")));
                }
            };
            writes.push((
                self.expr(format!("{wpath}.address"), &w.address)?,
                width,
                self.expr(format!("{wpath}.value"), &w.value)?,
            ));
        }
        Ok(HarnessStub {
            returns: raw.returns.as_ref().map(|v| self.expr(format!("{path}.returns"), v)).transpose()?,
            cycles: raw.cycles.as_ref().map_or(0, |c| *c.get_ref()),
            writes,
            origin: self.origin(path, span(&raw.name)),
            name,
        })
    }

    fn counter(&self, raw: &RawCounter) -> Result<Counter, Diagnostic> {
        let name = raw.name.get_ref().clone();
        let width = match *raw.width.get_ref() {
            w @ (1 | 2 | 4 | 8) => w as u8,
            w => {
                let origin = self.origin(format!("counter.{name}.width"), span(&raw.width));
                return Err(origin.error(format!("width {w} is not 1, 2, 4 or 8")));
            }
        };
        Ok(Counter {
            address: self.expr(format!("counter.{name}.address"), &raw.address)?,
            width,
            unit: raw.unit.clone(),
            name,
        })
    }
}

/// A line or column number as [`SourceLoc`] holds it (the last one for a text past 2^32 lines).
fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `rwx` letters in any order, `-` ignored (`"r-x"`); an empty string or `"none"` maps
/// a guard region.
fn parse_perms(text: &str) -> Option<Perms> {
    if text == "none" {
        return Some(Perms::NONE);
    }
    text.chars().try_fold(Perms::NONE, |p, c| match c {
        'r' => Some(p | Perms::READ),
        'w' => Some(p | Perms::WRITE),
        'x' => Some(p | Perms::EXEC),
        '-' => Some(p),
        _ => None,
    })
}

/// Hex digit pairs, optionally separated by whitespace.
fn parse_hex_bytes(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let pairs = digits.chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return None;
    }
    pairs.map(|pair| std::str::from_utf8(pair).ok().and_then(|s| u8::from_str_radix(s, 16).ok())).collect()
}

/// `value`'s low `width` bytes in `endian` order.
fn encode(value: u64, width: usize, endian: Endian) -> Vec<u8> {
    let (bytes, start) = match endian {
        Endian::Little => (value.to_le_bytes(), 0),
        Endian::Big => (value.to_be_bytes(), 8 - width.min(8)),
    };
    bytes.get(start..start + width.min(8)).map(<[u8]>::to_vec).unwrap_or_default()
}

impl Harness {
    /// Parses harness `text`, naming `file` in errors.
    ///
    /// # Errors
    /// A diagnostic at the offending place: TOML syntax, an unknown key, a wrong type, a
    /// malformed expression, bad permissions, a bad fill or counter width, or a name
    /// defined twice.
    pub fn parse(file: &str, text: &str) -> Result<Harness, Diagnostic> {
        let src = Source { file: Arc::from(file), lines: LineIndex::new(text) };
        let raw: RawHarness = toml::from_str(text).map_err(|e| {
            let origin = src.origin("", e.span().unwrap_or(0..0));
            let d = Diagnostic::error(origin.loc, e.message().trim_end().to_string());
            match origin.source_line {
                Some(line) => d.with_source_line(line.to_string()),
                None => d,
            }
        })?;
        let h = Harness {
            entry: raw.entry.as_ref().map(|e| e.get_ref().clone()),
            entry_origin: raw.entry.as_ref().map(|e| src.origin("entry", span(e))),
            itc: raw.itc.as_ref().map(|i| *i.get_ref()),
            itc_origin: raw.itc.as_ref().map(|i| src.origin("itc", span(i))),
            cpl: raw.cpl.as_ref().map(|c| src.cpl(c)).transpose()?,
            cpl_origin: raw.cpl.as_ref().map(|c| src.origin("cpl", span(c))),
            psr: raw.psr.as_ref().map(|v| src.expr("psr", v)).transpose()?,
            translation: raw.translation.as_ref().is_some_and(|t| *t.get_ref()),
            translation_origin: raw.translation.as_ref().map(|t| src.origin("translation", span(t))),
            regions: raw.region.iter().map(|r| src.region(r)).collect::<Result<_, _>>()?,
            registers: src.table("registers", &raw.registers)?,
            symbols: src.table("symbols", &raw.symbols)?,
            counters: raw.counter.iter().map(|c| src.counter(c)).collect::<Result<_, _>>()?,
            data: src.table("data", &raw.data)?,
            stubs: raw.stub.iter().map(|s| src.stub(s)).collect::<Result<_, _>>()?,
        };
        h.check_names()?;
        Ok(h)
    }

    /// Rejects a name defined twice among symbols and regions, and a counter listed twice.
    fn check_names(&self) -> Result<(), Diagnostic> {
        let mut seen: HashSet<&str> = HashSet::new();
        let defs = self.symbols.iter().map(|(n, e)| (n.as_str(), &e.origin));
        for (name, origin) in defs.chain(self.regions.iter().map(|r| (r.name.as_str(), &r.origin))) {
            if !seen.insert(name) {
                return Err(origin.error(format!("'{name}' is defined twice")));
            }
        }
        let mut bound: HashSet<&str> = HashSet::new();
        let data = self.data.iter().map(|(n, e)| (n.as_str(), &e.origin));
        for (name, origin) in data.chain(self.stubs.iter().map(|s| (s.name.as_str(), &s.origin))) {
            if !bound.insert(name) {
                return Err(
                    origin.error(format!("'{name}' is bound twice ([data] and [[stub]] bind each symbol once)"))
                );
            }
        }
        let mut counters: HashSet<&str> = HashSet::new();
        for c in &self.counters {
            if !counters.insert(c.name.as_str()) {
                return Err(c.address.origin.error(format!("counter '{}' is listed twice", c.name)));
            }
        }
        Ok(())
    }

    /// The `[data]` bindings evaluated in `env` (harness symbols and regions; linking).
    ///
    /// # Errors
    /// A value that does not evaluate (located).
    pub fn data_bindings(&self, env: &Env<'_>) -> Result<std::collections::BTreeMap<String, u64>, Diagnostic> {
        let mut out = std::collections::BTreeMap::new();
        for (name, expr) in &self.data {
            out.insert(name.clone(), env.eval(expr)?);
        }
        Ok(out)
    }

    /// The `[[stub]]` entries as [`crate::stub::StubSpec`]s, evaluated in `env`.
    ///
    /// # Errors
    /// A value that does not evaluate, or does not fit its width (located).
    pub fn stub_specs(&self, env: &Env<'_>) -> Result<Vec<crate::stub::StubSpec>, Diagnostic> {
        let mut out = Vec::new();
        for s in &self.stubs {
            let mut writes = Vec::new();
            for (address, width, value) in &s.writes {
                let v = env.eval(value)?;
                if *width < 8 && v >> (u32::from(*width) * 8) != 0 {
                    return Err(value.origin.error(format!("{v:#x} does not fit in {width} byte(s)")));
                }
                writes.push(crate::stub::StubWrite { address: env.eval(address)?, width: *width, value: v });
            }
            let returns = s.returns.as_ref().map(|e| env.eval(e)).transpose()?.unwrap_or(0);
            out.push(crate::stub::StubSpec { name: s.name.clone(), returns, cycles: s.cycles, writes });
        }
        Ok(out)
    }

    /// The harness's names (symbols, then region bases and tops) in front of `outer`.
    ///
    /// # Errors
    /// The first symbol, region base or size that does not evaluate.
    pub fn env<'a>(&self, outer: &'a dyn Fn(&str) -> Option<u64>) -> Result<Env<'a>, Diagnostic> {
        let mut env = Env { names: HashMap::new(), tops_at_2_64: HashSet::new(), outer };
        for (name, expr) in &self.symbols {
            let value = env.eval(expr)?;
            env.define(name.clone(), value);
        }
        for r in &self.regions {
            let base = env.eval(&r.base)?;
            let size = env.eval(&r.size)?;
            let top = format!("{}.top", r.name);
            env.define(r.name.clone(), base);
            match base.checked_add(size) {
                Some(end) => env.define(top, end),
                None if size > 0 && base.checked_add(size - 1).is_some() => {
                    env.tops_at_2_64.insert(top);
                }
                None => return Err(r.size.origin.error("region ends past 2^64")),
            }
        }
        Ok(env)
    }

    /// The memory a run starts from: `image` loaded, then this harness's regions mapped and
    /// filled, their expressions evaluated in `env`.
    ///
    /// # Errors
    /// The image does not load, or a region or fill fails (located).
    pub fn initial_memory(
        &self,
        image: &crate::image::Image,
        endian: Endian,
        env: &Env<'_>,
    ) -> Result<Memory, Diagnostic> {
        let mut mem = Memory::new(endian);
        image.load_into(&mut mem).map_err(|e| {
            Diagnostic::error(SourceLoc::new(Arc::from("<image>"), 0, 0), format!("loading the image: {e}"))
        })?;
        self.apply_memory(&mut mem, &|n| env.lookup(n))?;
        Ok(mem)
    }

    /// Maps and fills this harness's regions in `mem`; expression names other than regions
    /// come from `resolve`.
    ///
    /// # Errors
    /// A located diagnostic: an expression that does not evaluate, a region that cannot
    /// be mapped (overlap, zero size, ...), or a fill that leaves its region or whose
    /// value does not fit its width.
    pub fn apply_memory(&self, mem: &mut Memory, resolve: &dyn Fn(&str) -> Option<u64>) -> Result<(), Diagnostic> {
        let env = self.env(resolve)?;
        let mut placed = Vec::with_capacity(self.regions.len());
        for r in &self.regions {
            placed.push((env.eval(&r.base)?, env.eval(&r.size)?, r));
        }
        // Mapped in address order: memory keeps its regions sorted, so mapping them in file
        // order cost a shift of every region above for each one (quadratic for a harness
        // listing them downwards). An overlap is reported at the higher of the two regions.
        let mut by_address: Vec<&(u64, u64, &Region)> = placed.iter().collect();
        by_address.sort_by_key(|(base, _, _)| *base);
        for (base, size, r) in by_address {
            mem.map(*base, *size, r.perms, &r.name).map_err(|e| r.origin.error(format!("cannot map: {e}")))?;
        }
        for (base, size, r) in placed {
            for f in &r.fill {
                let bytes = fill_bytes(&env, f, mem.endian())?;
                let at = env.eval(&f.at)?;
                let fits = at.checked_add(bytes.len() as u64).is_some_and(|end| end <= size);
                if !fits {
                    let len = bytes.len();
                    return Err(f
                        .origin
                        .error(format!("{len} bytes at offset {at:#x} leave the region ({size:#x} bytes)")));
                }
                mem.load(base + at, &bytes).map_err(|e| f.origin.error(e))?;
            }
        }
        Ok(())
    }

    /// Reads every counter from `mem` (regardless of permissions).
    ///
    /// # Errors
    /// A located diagnostic: an address that does not evaluate or is not mapped.
    pub fn read_counters(
        &self,
        mem: &Memory,
        resolve: &dyn Fn(&str) -> Option<u64>,
    ) -> Result<Vec<CounterValue>, Diagnostic> {
        let env = self.env(resolve)?;
        let mut out = Vec::with_capacity(self.counters.len());
        for c in &self.counters {
            let address = env.eval(&c.address)?;
            let mut buf = [0u8; 8];
            let slot = buf.get_mut(..usize::from(c.width)).unwrap_or_default();
            mem.peek_bytes(address, slot).map_err(|e| c.address.origin.error(e))?;
            let bytes = slot.iter();
            let value = match mem.endian() {
                Endian::Little => bytes.rev().fold(0u64, |v, b| v << 8 | u64::from(*b)),
                Endian::Big => bytes.fold(0u64, |v, b| v << 8 | u64::from(*b)),
            };
            out.push(CounterValue { name: c.name.clone(), address, width: c.width, unit: c.unit.clone(), value });
        }
        Ok(out)
    }
}

/// The bytes a fill stores.
fn fill_bytes(env: &Env<'_>, fill: &Fill, endian: Endian) -> Result<Vec<u8>, Diagnostic> {
    let (values, width) = match &fill.data {
        FillData::Bytes(b) => return Ok(b.clone()),
        FillData::U64(v) => (v, 8),
        FillData::U32(v) => (v, 4),
        FillData::U8(v) => (v, 1),
    };
    let mut out = Vec::with_capacity(values.len() * width);
    for expr in values {
        let v = env.eval(expr)?;
        if width < 8 && v >> (width * 8) != 0 {
            return Err(expr.origin.error(format!("{v:#x} does not fit in {width} byte(s)")));
        }
        out.extend(encode(v, width, endian));
    }
    Ok(out)
}

/// Serializes an address as `0x%016x`.
fn ser_hex<S: Serializer>(value: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&hex64(*value))
}

#[cfg(test)]
mod tests;
