//! The harness file as TOML gives it: serde structures with spans, before any checking.

use std::fmt;
use std::ops::Range;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use toml::Spanned;

/// A value position: a TOML integer or a string expression.
#[derive(Debug, Clone)]
pub(super) enum RawValue {
    Int(i64),
    Str(String),
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawValue, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RawValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer or a string such as \"task+0x40\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawValue, E> {
                Ok(RawValue::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawValue, E> {
                i64::try_from(v).map(RawValue::Int).map_err(|_| E::custom("integer too large; write it as a string"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawValue, E> {
                Ok(RawValue::Str(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A spanned value.
pub(super) type SValue = Spanned<RawValue>;

/// A table whose keys are names, kept in file order.
#[derive(Debug, Default)]
pub(super) struct RawTable(pub Vec<(String, SValue)>);

impl<'de> Deserialize<'de> for RawTable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawTable, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawTable;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of name = value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawTable, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, SValue>()? {
                    out.push((k, v));
                }
                Ok(RawTable(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHarness {
    pub entry: Option<Spanned<String>>,
    pub itc: Option<Spanned<u64>>,
    pub cpl: Option<Spanned<i64>>,
    pub psr: Option<SValue>,
    /// Address translation through the core's TLB model (ia64; TLB, issue 12).
    pub translation: Option<Spanned<bool>>,
    #[serde(default)]
    pub region: Vec<RawRegion>,
    #[serde(default)]
    pub registers: RawTable,
    #[serde(default)]
    pub symbols: RawTable,
    #[serde(default)]
    pub counter: Vec<RawCounter>,
    /// Undefined symbols bound to data addresses (linking, issue 14).
    #[serde(default)]
    pub data: RawTable,
    /// Undefined symbols bound to stubs (linking, issue 14).
    #[serde(default)]
    pub stub: Vec<RawStub>,
}

/// One `[[stub]]` (linking, issue 14).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStub {
    pub name: Spanned<String>,
    pub returns: Option<SValue>,
    pub cycles: Option<Spanned<u64>>,
    #[serde(default)]
    pub writes: Vec<Spanned<RawStubWrite>>,
}

/// One entry of a stub's `writes`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStubWrite {
    pub address: SValue,
    pub width: Spanned<u64>,
    pub value: SValue,
}

/// One `[[region]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRegion {
    pub name: Spanned<String>,
    pub base: SValue,
    pub size: SValue,
    pub perms: Spanned<String>,
    #[serde(default)]
    pub fill: Vec<Spanned<RawFill>>,
}

/// One entry of a region's `fill`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFill {
    pub at: Option<SValue>,
    pub u64: Option<Vec<SValue>>,
    pub u32: Option<Vec<SValue>>,
    pub u8: Option<Vec<SValue>>,
    pub bytes: Option<Spanned<String>>,
}

/// One `[[counter]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCounter {
    pub name: Spanned<String>,
    pub address: SValue,
    pub width: Spanned<u64>,
    pub unit: String,
}

/// The byte range of a spanned item.
pub(super) fn span<T>(s: &Spanned<T>) -> Range<usize> {
    s.span()
}
