//! The kernel harness (issue 14): a Linux ia64 kernel tree's own system-call, fsys and
//! interrupt paths (ivt.S, entry.S, fsys.S, gate.S, unmodified), preprocessed and assembled
//! by acctemu, linked with stubs for the C functions they call, and run on the Itanium 2
//! model from user mode back to user mode.
//!
//! - [`sources`]: the tree (plus an overlay of replaced files) to objects.
//! - [`offsets`]: `asm-offsets.h` and the tree's constants the layout follows.
//! - [`layout`]: where the task, the stacks, the gate and user memory live.
//! - [`setup`]: the machine state the kernel's boot code would leave (kernel registers,
//!   task_struct/thread_info, the IVT at cr.iva, the gate's promote range, the patch lists
//!   boot code applies, the fsyscall table fill of `mem_init`).
//! - [`user`]: the user program that enters the kernel N times through one entry kind.
//! - [`paths`]: running a path, with cycles and instructions per system call.

pub mod harness;
pub mod irq;
pub mod layout;
pub mod offsets;
pub mod patch;
pub mod paths;
pub mod placement;
pub mod setup;
pub mod sources;
pub mod sources_error;
pub mod user;

pub use offsets::{Offsets, TreeConstants};
pub use paths::{EntryKind, PathRun};
pub use sources::{KernelObjects, KernelSources, SourcesError};
