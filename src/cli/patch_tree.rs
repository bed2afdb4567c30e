//! The several-file patch parser and applier, moved down into the `traces` crate (issue 16) so
//! that [`traces::rebuild`] can patch a compiled trace's sources; re-exported here for the
//! kernel-tree code that used it from the CLI.

pub use traces::patch_tree::*;
