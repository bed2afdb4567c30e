//! Arch-neutral machinery of acctemu.
//!
//! - [`error`]: source locations and diagnostics shared by every front end.
//! - [`memory`]: sparse, endian-aware guest memory with named regions and typed faults.
//! - [`image`]: sections, symbols and source map produced by an assembler or ELF loader.
//! - [`input`]: bounded reading of input files and the size limits on input and output.
//! - [`elf`]: ELF64 objects to an image, relocations applied by per-arch rules.
//! - [`preprocess`]: the C-preprocessor subset kernel `.S` files need, with a line map
//!   back to the original files.
//! - [`cc`]: gcc -c for the compiled cores (x86-64, s390x), a missing compiler named with its package.
//! - [`code_cache`]: decoded instructions by address for variable-length ISAs.
//! - [`cpu`]: the `Cpu` trait and the machine loop with its stop conditions.
//! - [`timing`]: issue groups, stall causes and totals every timing model reports.
//! - [`snapshot`]: ordered architectural state, insta-compatible YAML, and diffs.
//! - [`harness`]: the TOML description of an initial state and of the counters to read.
//! - [`report`]: the serializable result of one run.
//! - [`rng`]: the fixed-seed xorshift generator every randomised test draws from.
//! - [`stub`]: the functions the emulated code calls but does not contain, stood in for by
//!   the harness (fixed-cost specs, or Rust that does what the kernel's C does).
//! - [`scenario`]: the accounting experiment: a workload through the real paths, true
//!   against accounted time.

pub mod cc;
pub mod code_cache;
pub mod cpu;
pub mod diff;
pub mod echo;
pub mod elf;
pub mod error;
pub mod harness;
pub mod image;
pub mod input;
pub mod kernel;
pub mod link;
pub mod linkage;
pub mod memory;
pub mod plot;
pub mod preprocess;
pub mod profile;
pub mod report;
pub mod rng;
pub mod run;
pub mod scenario;
pub mod setup;
pub mod snapshot;
pub mod stub;
pub mod timing;
pub mod trace_event;
