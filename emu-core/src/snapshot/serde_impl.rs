//! serde for snapshots: registers and windows as maps in their stored order.
//!
//! A derived impl would turn the `(name, value)` list into a list of pairs; a map keeps
//! the YAML readable (`r16: "0x..."`) while the order stays the architecture's.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{hex64, parse_addr, parse_hex_line, MemoryWindow, Snapshot, Value};

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Hex(v) => s.serialize_str(&hex64(*v)),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Text(t) => s.serialize_str(t),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a register value (a string or a boolean)")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
                Ok(Value::Bool(b))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
                Ok(Value::from_text(s))
            }
        }
        d.deserialize_any(V)
    }
}

/// The registers as a map in list order.
struct Registers<'a>(&'a [(String, Value)]);

impl Serialize for Registers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// The body of one window: `addr` and its hex lines.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WindowBody {
    addr: String,
    bytes: Vec<String>,
}

/// The windows as a map from name to body, in list order.
struct Windows<'a>(&'a [MemoryWindow]);

impl Serialize for Windows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for w in self.0 {
            map.serialize_entry(&w.name, &WindowBody { addr: hex64(w.addr), bytes: w.hex_lines() })?;
        }
        map.end()
    }
}

impl Serialize for Snapshot {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Snapshot", 2)?;
        st.serialize_field("registers", &Registers(&self.registers))?;
        st.serialize_field("memory", &Windows(&self.memory))?;
        st.end()
    }
}

/// Reads a map into a list of pairs, keeping the input's order.
struct OrderedMap<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OrderedMap<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OrderedMap<T>, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = OrderedMap<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedMap<T>, A::Error> {
                let mut out: Vec<(String, T)> = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, T>()? {
                    if out.iter().any(|(n, _)| *n == k) {
                        return Err(de::Error::custom(format!("'{k}' is listed twice")));
                    }
                    out.push((k, v));
                }
                Ok(OrderedMap(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The serialized shape of a snapshot.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSnapshot {
    registers: OrderedMap<Value>,
    memory: OrderedMap<WindowBody>,
}

impl<'de> Deserialize<'de> for Snapshot {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Snapshot, D::Error> {
        let raw = RawSnapshot::deserialize(d)?;
        let mut memory = Vec::with_capacity(raw.memory.0.len());
        for (name, body) in raw.memory.0 {
            let addr = parse_addr(&body.addr).map_err(|e| de::Error::custom(format!("memory {name}: {e}")))?;
            let mut bytes = Vec::new();
            for line in &body.bytes {
                parse_hex_line(line, &mut bytes).map_err(|e| de::Error::custom(format!("memory {name}: {e}")))?;
            }
            memory.push(MemoryWindow { name, addr, bytes });
        }
        Ok(Snapshot { registers: raw.registers.0, memory })
    }
}
