//! Arch-neutral machinery of acctemu.
//!
//! - [`error`]: source locations and diagnostics shared by every front end.
//! - [`memory`]: sparse, endian-aware guest memory with named regions and typed faults.
//! - [`image`]: sections, symbols and source map produced by an assembler or ELF loader.
//! - [`preprocess`]: the C-preprocessor subset kernel `.S` files need, with a line map
//!   back to the original files.

pub mod error;
pub mod image;
pub mod memory;
pub mod preprocess;
