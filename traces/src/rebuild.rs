//! Rebuilding a compiled trace (x86-64, s390x) whose source a patch or `-D` changed.
//!
//! The x86 and s390 traces run committed objects that `traces/x86/build.sh` and
//! `traces/s390/build.sh` compile from C (and s390 assembly). A changed version cannot use them:
//! this module writes the trace's sources, patched, to a temporary directory, compiles them with
//! the flags the build scripts use (read from the same `traces/{x86,s390}/cflags` files), links
//! the s390 objects with `ld -r` as `build.sh` does, and returns the object. Unchanged, the
//! rebuild is the committed object byte for byte (a test checks it where the toolchain that
//! built them is installed).
//!
//! [`versions`] decides, per side of a diff, whether a rebuild is needed at all: a side whose
//! defines select another catalogued version of the same source (x86 `patch1` under
//! `-D PATCHES=3`) is that version, committed object, harness and counters included, as the
//! IA-64 diff does with `traces::find_build`. When any side is rebuilt with a toolchain other
//! than the one that built the committed objects, the unchanged sides are rebuilt too, so the
//! two sides differ by the change and not by the compiler.
//!
//! The harness and bindings of a rebuilt side stay its trace's: the rebuilt object must still
//! define every bound symbol, or the rebuild is refused naming it.
//!
//! The compiler is found through `ACCTEMU_CC_X86` (default `gcc`), `ACCTEMU_CC_S390` (default
//! `s390x-linux-gnu-gcc`) and `ACCTEMU_LD_S390` (default `s390x-linux-gnu-ld`); one missing is a
//! [`RebuildError::Missing`] naming the program and its Debian package. All compiler and linker
//! runs go through [`run_tool`].

mod build;
mod error;
mod sources;
mod toolchain;
mod versions;

pub use build::{rebuild, Rebuilt};
pub use error::RebuildError;
pub use sources::{Change, PatchText};
pub use toolchain::{run_tool, Tool, Toolchain};
pub use versions::{versions, Request, Version};
