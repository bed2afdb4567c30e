//! The trace corpus. Empty until the accounting traces land (issue 4).
