//! Architectural state as an ordered, insta-friendly snapshot.
//!
//! A [`Snapshot`] lists registers in the architecture's order (ia64: ip, psr, cfm,
//! r0..r127, p, b, ar.*, cr.*) and named memory windows. It serializes with serde as
//!
//! ```yaml
//! registers:
//!   ip: "0x0000000000001000"
//!   r16: "0x0000000000000000"
//!   r16.nat: true
//! memory:
//!   task:
//!     addr: "0xa000000000010000"
//!     bytes:
//!       - 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f
//! ```
//!
//! so `insta::assert_yaml_snapshot!(snap)` works in a user's tests, and
//! [`Snapshot::to_yaml`] writes the very same text without insta for `--snapshot`.
//! Register values are [`Value`]s: 64-bit words as `0x%016x` strings, flags (a NaT bit, a
//! predicate) as YAML booleans, anything else (ia64 floating-point registers) as text.

use std::fmt;

use thiserror::Error;

use crate::memory::{MemFault, Memory};

mod diff;
mod serde_impl;
mod yaml;

pub use diff::{diff, Change, SnapshotDiff};

/// Bytes per line of a memory window in YAML and in diffs.
pub const BYTES_PER_LINE: usize = 16;

/// `value` as `0x` and 16 lowercase hex digits, the form every 64-bit word takes.
pub fn hex64(value: u64) -> String {
    format!("{value:#018x}")
}

/// One register's value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// A 64-bit word, written `0x%016x`.
    Hex(u64),
    /// A flag (a NaT bit, a predicate), written `true`/`false`.
    Bool(bool),
    /// Any other rendering the architecture chooses (e.g. an 82-bit float register).
    Text(String),
}

impl Value {
    /// `text` as a value: exactly `0x` plus 16 lowercase hex digits is a [`Value::Hex`],
    /// anything else [`Value::Text`]. Reading a snapshot back uses this, so prefer
    /// [`Value::Hex`] over equivalent text when building one.
    pub fn from_text(text: &str) -> Value {
        let digits = text.strip_prefix("0x").unwrap_or("");
        let canonical = digits.len() == 16 && digits.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        match u64::from_str_radix(digits, 16) {
            Ok(v) if canonical => Value::Hex(v),
            _ => Value::Text(text.to_string()),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Hex(v) => write!(f, "{v:#018x}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Text(t) => f.write_str(t),
        }
    }
}

/// A named range of guest memory captured in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MemoryWindow {
    /// Name used as the YAML key and in diffs ("task", "stack").
    pub name: String,
    /// First address.
    pub addr: u64,
    /// The bytes, in address order.
    pub bytes: Vec<u8>,
}

impl MemoryWindow {
    /// The bytes as lines of up to [`BYTES_PER_LINE`] two-digit hex numbers separated by spaces.
    pub fn hex_lines(&self) -> Vec<String> {
        self.bytes.chunks(BYTES_PER_LINE).map(hex_line).collect()
    }
}

/// One line of a memory window: `00 11 22 ...`.
fn hex_line(chunk: &[u8]) -> String {
    let mut line = String::with_capacity(chunk.len() * 3);
    for (i, b) in chunk.iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        line.push_str(&format!("{b:02x}"));
    }
    line
}

/// Appends the bytes of a `00 11 ...` line to `out`.
fn parse_hex_line(line: &str, out: &mut Vec<u8>) -> Result<(), String> {
    for tok in line.split_whitespace() {
        let byte = (tok.len() == 2).then(|| u8::from_str_radix(tok, 16).ok()).flatten();
        out.push(byte.ok_or_else(|| format!("'{tok}' is not a two-digit hex byte"))?);
    }
    Ok(())
}

/// A window address: `0x` and up to 16 hex digits.
fn parse_addr(text: &str) -> Result<u64, String> {
    let digits = text.strip_prefix("0x").ok_or_else(|| format!("addr '{text}' is not 0x-prefixed hex"))?;
    u64::from_str_radix(digits, 16).map_err(|_| format!("addr '{text}' is not a 64-bit hex value"))
}

/// Architectural state: registers in architecture order and named memory windows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Snapshot {
    /// Register names and values, in the architecture's order; names are unique.
    pub registers: Vec<(String, Value)>,
    /// Memory windows in the order they were added; names are unique.
    pub memory: Vec<MemoryWindow>,
}

/// A snapshot file that could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct SnapshotError {
    /// 1-based line of the file (the insta header included).
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl Snapshot {
    /// An empty snapshot.
    pub fn new() -> Snapshot {
        Snapshot::default()
    }

    /// Appends register `name`, or replaces its value if it is already listed.
    pub fn push(&mut self, name: impl Into<String>, value: Value) {
        let name = name.into();
        match self.registers.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.registers.push((name, value)),
        }
    }

    /// Appends a 64-bit register value.
    pub fn push_hex(&mut self, name: impl Into<String>, value: u64) {
        self.push(name, Value::Hex(value));
    }

    /// Appends `{name}.nat: true` when `nat` is set; a clear NaT bit is left out so
    /// snapshots stay short.
    pub fn push_nat(&mut self, name: &str, nat: bool) {
        if nat {
            self.push(format!("{name}.nat"), Value::Bool(true));
        }
    }

    /// The value of register `name`, if listed.
    pub fn register(&self, name: &str) -> Option<&Value> {
        self.registers.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Appends memory window `name`, or replaces the window of that name.
    pub fn add_window(&mut self, name: impl Into<String>, addr: u64, bytes: Vec<u8>) {
        let window = MemoryWindow { name: name.into(), addr, bytes };
        match self.memory.iter_mut().find(|w| w.name == window.name) {
            Some(slot) => *slot = window,
            None => self.memory.push(window),
        }
    }

    /// Captures `len` bytes of `mem` at `addr` as window `name`, ignoring permissions.
    ///
    /// # Errors
    /// A [`MemFault`] if any byte is unmapped; the snapshot is then unchanged.
    pub fn capture_window(&mut self, mem: &Memory, name: &str, addr: u64, len: usize) -> Result<(), MemFault> {
        let mut bytes = vec![0u8; len];
        mem.peek_bytes(addr, &mut bytes)?;
        self.add_window(name, addr, bytes);
        Ok(())
    }

    /// The window named `name`, if any.
    pub fn window(&self, name: &str) -> Option<&MemoryWindow> {
        self.memory.iter().find(|w| w.name == name)
    }

    /// The YAML body exactly as `insta::assert_yaml_snapshot!` stores it (after the header).
    pub fn to_yaml(&self) -> String {
        yaml::write(self)
    }

    /// A complete insta snapshot file: a header naming `acctemu` as its source, then
    /// [`Snapshot::to_yaml`].
    pub fn to_snap_file(&self) -> String {
        format!("---\nsource: acctemu\nexpression: snapshot\n---\n{}", self.to_yaml())
    }

    /// Reads what [`Snapshot::to_yaml`] or [`Snapshot::to_snap_file`] wrote (or insta
    /// stored); the insta header is optional.
    ///
    /// # Errors
    /// A [`SnapshotError`] with the line of the first thing that is not snapshot YAML.
    pub fn from_yaml(text: &str) -> Result<Snapshot, SnapshotError> {
        yaml::read(text).map(|(snap, _)| snap)
    }

    /// [`Snapshot::from_yaml`], also giving the 1-based line of each register of
    /// [`Snapshot::registers`] (same order), so a caller can name where a value it cannot
    /// use is written.
    ///
    /// # Errors
    /// As [`Snapshot::from_yaml`].
    pub fn from_yaml_located(text: &str) -> Result<(Snapshot, Vec<usize>), SnapshotError> {
        yaml::read(text)
    }
}

#[cfg(test)]
mod tests;
