//! acctemu as a library: the architecture crates, and the command-line front end's
//! rendering so it can be tested without spawning the binary, and the entry points of the fuzz
//! targets ([`fuzzing`]).

pub mod cli;
pub mod fuzzing;

pub use arch_ia64;
pub use emu_core;
