//! acctemu as a library: the architecture crates, and the command-line front end's
//! rendering so it can be tested without spawning the binary, and the entry points of the fuzz
//! targets ([`fuzzing`]).
//!
//! A run from a user's own test, the README's example (run here as a doc-test; `tests/readme_example.rs`
//! checks the two texts stay the same):
//!
//! ```
//! use acctemu::arch_ia64::run::{run_source, RunConfig};
//!
//! // In a test of your own: `insta::assert_yaml_snapshot!(report.snapshot)` pins the whole state.
//! let src = "\t.text\nf:\n\tadds r8=40,r0\n\tadds r9=2,r0 ;;\n\tadd r8=r8,r9\n\tbr.ret.sptk.many b0 ;;\n";
//! let report = run_source("f.S", src, &RunConfig::default()).unwrap();
//! assert_eq!(report.snapshot.register("r8").map(|v| v.to_string()).as_deref(), Some("0x000000000000002a"));
//! ```

pub mod cli;
pub mod fuzzing;

pub use arch_ia64;
pub use arch_s390;
pub use arch_x86;
pub use emu_core;

/// The one runner every core shares (issue 16): `run_image`/`run_object` on a
/// [`RunConfig`] of the core's type (`arch_x86::run::RunConfig`, ...), and IA-64 sources
/// through [`arch_ia64::run::run_source`].
pub use emu_core::run::{prepare, report, run_image, run_image_until, run_object, RunConfig, RunError};
