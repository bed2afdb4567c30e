//! acctemu as a library: a [`Run`] of a source or an object on any core (IA-64, x86-64,
//! s390x) in a few lines, the architecture crates, the command-line front end's rendering so it
//! can be tested without spawning the binary, and the entry points of the fuzz targets
//! ([`fuzzing`]).
//!
//! Runs from a user's own test, the README's examples (run here as doc-tests;
//! `tests/readme_example.rs` checks the two texts stay the same):
//!
//! ```rust
//! use acctemu::Run;
//!
//! // IA-64 assembly, assembled by acctemu, with a define. In a test of your own,
//! // `insta::assert_yaml_snapshot!(snapshot)` pins the whole state.
//! let src = "\t.text\nf:\n\tadds r8=40,r0\n#ifdef TWO\n\tadds r9=2,r0 ;;\n#else\n\tadds r9=1,r0 ;;\n#endif\n\
//!            \tadd r8=r8,r9\n\tbr.ret.sptk.many b0 ;;\n";
//! let snapshot = Run::source("f.S", src).define("TWO").snapshot().unwrap();
//! assert_eq!(snapshot.register("r8").map(|v| v.to_string()).as_deref(), Some("0x000000000000002a"));
//! ```
//!
//! ```rust
//! use acctemu::Run;
//!
//! // An x86-64 object: SysV arguments set as `--set` would, the result in rax, the cycles of the
//! // Zen 4 model. (`Run::source("mix.c", text).arch(acctemu::Arch::X86_64)` compiles C with gcc.)
//! let ops = std::fs::read("arch-x86/tests/data/ops.o").unwrap();
//! let report = Run::object("ops.o", &ops).entry("div64").set("rdi", "1000").set("rsi", "7").set("rdx", "3");
//! let report = report.report().unwrap();
//! assert_eq!(report.snapshot.register("rax").map(|v| v.to_string()).as_deref(), Some("0x0000000000001801"));
//! assert!(report.summary.cycles > report.summary.instructions);
//! ```
//!
//! ```rust
//! use acctemu::Run;
//!
//! // An s390x object under a harness of your own: a stack, the arguments in r2 and r3, the
//! // result in r2 (r14, the return address, is the sentinel unless the harness sets it).
//! let harness = "[[region]]\nname = \"stack\"\nbase = \"0x70000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\n\
//!                [registers]\nr15 = \"stack.top-160\"\nr2 = \"40\"\nr3 = \"2\"\n";
//! let run = Run::file("arch-s390/tests/data/ops.o").harness("h.toml", harness).entry("f_add");
//! let snapshot = run.snapshot().unwrap();
//! assert_eq!(snapshot.register("r2").map(|v| v.to_string()).as_deref(), Some("0x000000000000002a"));
//! ```

mod api;
pub mod cli;
pub mod fuzzing;

pub use api::{Error, Run};
pub use arch_ia64;
pub use arch_s390;
pub use arch_x86;
pub use cli::core::{Arch, Finished};
pub use emu_core;
pub use emu_core::report::RunReport;
pub use emu_core::snapshot::Snapshot;

/// The one runner every core shares (issue 16): `run_image`/`run_object` on a
/// [`RunConfig`] of the core's type (`arch_x86::run::RunConfig`, ...), and IA-64 sources
/// through [`arch_ia64::run::run_source`]; [`Run`] does the same for any core from a source
/// or an object.
pub use emu_core::run::{prepare, report, run_image, run_image_until, run_object, RunConfig, RunError};
