//! The trace corpus: kernel entry/exit paths transcribed from the seed documents, each with a
//! harness that lays out the machine around it and the symbols a scenario runs between.
//!
//! A [`Trace`] is one version of one path: its assembly source (the same file may serve several
//! versions under different preprocessor defines), the harness, which paths it binds
//! ([`Binding`]) and where its accounting results live ([`Accounting`]). [`catalogue`] lists
//! them; [`find`] looks one up by name (`ia64/syscall/v2`). [`bind`] prepares a trace on its
//! core for a scenario ([`Trace::prepare`], [`Trace::run`]): the one entry point the command
//! line uses for every architecture.

pub mod bench;
pub mod bind;
mod catalogue;
pub mod timer_target;
mod trace;
// Compiled traces rebuilt from patched sources (issue 16, w5-patch).
pub mod patch_tree;
pub mod rebuild;

pub use bind::{Attributed, BindError, Prepared, IA64_CPU_HZ};
pub use catalogue::{catalogue, find, find_build};
pub use trace::{Accounting, Arch, Binding, Knob, PathEnd, PathKind, Trace};
