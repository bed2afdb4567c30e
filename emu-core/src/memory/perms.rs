//! Region permissions and the access kinds that need them.

use std::fmt;

/// Access permissions of a region, combinable with `|`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Perms(u8);

impl Perms {
    /// No access at all (a guard region).
    pub const NONE: Perms = Perms(0);
    /// Data reads allowed.
    pub const READ: Perms = Perms(1);
    /// Data writes allowed.
    pub const WRITE: Perms = Perms(2);
    /// Instruction fetches allowed.
    pub const EXEC: Perms = Perms(4);
    /// Read and write.
    pub const RW: Perms = Perms(1 | 2);
    /// Read and execute.
    pub const RX: Perms = Perms(1 | 4);
    /// Read, write and execute.
    pub const RWX: Perms = Perms(1 | 2 | 4);

    /// Whether every permission in `other` is granted by `self`.
    pub fn contains(self, other: Perms) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether data reads are allowed.
    pub fn read(self) -> bool {
        self.contains(Perms::READ)
    }

    /// Whether data writes are allowed.
    pub fn write(self) -> bool {
        self.contains(Perms::WRITE)
    }

    /// Whether instruction fetches are allowed.
    pub fn exec(self) -> bool {
        self.contains(Perms::EXEC)
    }
}

impl std::ops::BitOr for Perms {
    type Output = Perms;
    fn bitor(self, rhs: Perms) -> Perms {
        Perms(self.0 | rhs.0)
    }
}

impl fmt::Display for Perms {
    /// `rwx` with `-` for a missing permission, as in `/proc/self/maps`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = if self.read() { 'r' } else { '-' };
        let w = if self.write() { 'w' } else { '-' };
        let x = if self.exec() { 'x' } else { '-' };
        write!(f, "{r}{w}{x}")
    }
}

/// The kind of access that needed a permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// A data read.
    Read,
    /// A data write.
    Write,
    /// An instruction fetch.
    Exec,
}

impl Access {
    pub(super) fn perm(self) -> Perms {
        match self {
            Access::Read => Perms::READ,
            Access::Write => Perms::WRITE,
            Access::Exec => Perms::EXEC,
        }
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Exec => "execute",
        })
    }
}
