//! What can go wrong while producing the model's side of the table.

/// A failure, with enough context to find the row.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Bad command line.
    #[error("usage: fidelity-model OBJDIR SUFFIX HARNESSDIR [TRACEDIR]: {0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{path}: {what}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        what: String,
    },
    /// The object, harness or a name in them did not resolve.
    #[error("{row}: {what}")]
    Setup {
        /// The row key.
        row: String,
        /// The error.
        what: String,
    },
    /// Memory the driver writes is not mapped.
    #[error("memory: {0}")]
    Memory(String),
    /// A call did not return in time.
    #[error("call at {entry:#x} did not return within {max_insns} instructions")]
    Budget {
        /// Its entry.
        entry: u64,
        /// The budget.
        max_insns: u64,
    },
    /// A call stopped on something other than its return.
    #[error("call at {entry:#x} stopped on {what}")]
    Stopped {
        /// Its entry.
        entry: u64,
        /// The event.
        what: String,
    },
    /// Execution failed.
    #[error("call at {entry:#x}: {what}")]
    Exec {
        /// Its entry.
        entry: u64,
        /// The error.
        what: String,
    },
    /// An executed instruction could not be read back for the listing.
    #[error("listing: {0}")]
    Listing(String),
}
