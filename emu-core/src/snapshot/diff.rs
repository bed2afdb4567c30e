//! Differences between two snapshots, register by register and memory line by line.

use std::fmt;

use super::{hex64, Snapshot, Value, BYTES_PER_LINE};

/// One difference between two snapshots; `None` means "absent on that side".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A register's value differs, or the register exists on one side only.
    Register {
        /// Register name.
        name: String,
        /// Value in the first snapshot.
        old: Option<Value>,
        /// Value in the second snapshot.
        new: Option<Value>,
    },
    /// A memory window starts elsewhere, or exists on one side only.
    Window {
        /// Window name.
        name: String,
        /// Start address in the first snapshot.
        old: Option<u64>,
        /// Start address in the second snapshot.
        new: Option<u64>,
    },
    /// One line of [`BYTES_PER_LINE`] bytes of a window differs.
    Memory {
        /// Window name.
        window: String,
        /// Offset of the line from the window's start.
        offset: u64,
        /// The line's hex bytes in the first snapshot.
        old: Option<String>,
        /// The line's hex bytes in the second snapshot.
        new: Option<String>,
    },
}

/// Shows an optional side as its text or `(absent)`.
struct Side<'a, T>(&'a Option<T>);

impl<T: fmt::Display> fmt::Display for Side<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{v}"),
            None => f.write_str("(absent)"),
        }
    }
}

impl fmt::Display for Change {
    /// `r16: 0x... -> 0x...`, `memory task: 0x... -> 0x...`, `memory task+0x40: ... -> ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Register { name, old, new } => write!(f, "{name}: {} -> {}", Side(old), Side(new)),
            Change::Window { name, old, new } => {
                let old = old.map(hex64);
                let new = new.map(hex64);
                write!(f, "memory {name}: {} -> {}", Side(&old), Side(&new))
            }
            Change::Memory { window, offset, old, new } => {
                write!(f, "memory {window}+{offset:#x}: {} -> {}", Side(old), Side(new))
            }
        }
    }
}

/// All differences between two snapshots, in the first snapshot's order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SnapshotDiff {
    /// The differences; empty when the snapshots are equal.
    pub changes: Vec<Change>,
}

impl SnapshotDiff {
    /// Whether the snapshots were equal.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

impl fmt::Display for SnapshotDiff {
    /// One change per line; nothing at all when equal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for change in &self.changes {
            writeln!(f, "{change}")?;
        }
        Ok(())
    }
}

/// Compares `a` (old) with `b` (new): registers in `a`'s order then those only in `b`,
/// then windows the same way, each compared line by line.
pub fn diff(a: &Snapshot, b: &Snapshot) -> SnapshotDiff {
    let mut changes = Vec::new();
    for (name, old) in &a.registers {
        let new = b.register(name);
        if new != Some(old) {
            changes.push(Change::Register { name: name.clone(), old: Some(old.clone()), new: new.cloned() });
        }
    }
    for (name, new) in &b.registers {
        if a.register(name).is_none() {
            changes.push(Change::Register { name: name.clone(), old: None, new: Some(new.clone()) });
        }
    }
    for old in &a.memory {
        let new = b.window(&old.name);
        if new.map(|w| w.addr) != Some(old.addr) {
            changes.push(Change::Window { name: old.name.clone(), old: Some(old.addr), new: new.map(|w| w.addr) });
        }
        let old_lines = old.hex_lines();
        let new_lines = new.map(|w| w.hex_lines()).unwrap_or_default();
        for i in 0..old_lines.len().max(new_lines.len()) {
            let (o, n) = (old_lines.get(i), new_lines.get(i));
            if o != n {
                changes.push(Change::Memory {
                    window: old.name.clone(),
                    offset: (i * BYTES_PER_LINE) as u64,
                    old: o.cloned(),
                    new: n.cloned(),
                });
            }
        }
    }
    for new in &b.memory {
        if a.window(&new.name).is_none() {
            changes.push(Change::Window { name: new.name.clone(), old: None, new: Some(new.addr) });
            for (i, line) in new.hex_lines().into_iter().enumerate() {
                changes.push(Change::Memory {
                    window: new.name.clone(),
                    offset: (i * BYTES_PER_LINE) as u64,
                    old: None,
                    new: Some(line),
                });
            }
        }
    }
    SnapshotDiff { changes }
}
