//! Compiling C or assembly for the compiled cores (x86-64, s390x) with gcc: the host's `gcc`
//! for x86-64, `s390x-linux-gnu-gcc` for s390x, each replaceable through an environment
//! variable ([`CcArch::compiler`]). The result is the relocatable object's bytes, checked to be
//! an ELF object of the asked architecture; a missing compiler is its own error naming the
//! Debian package that provides it, so a front end can say what to install.
//!
//! The flags are the caller's: [`CcArch::default_flags`] suits a user's own helper (no libc,
//! no PIC, no unwind tables, the integer subset the cores run); the trace rebuilds pass the
//! exact flags their `build.sh` uses.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// The architectures gcc builds objects for here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CcArch {
    /// x86-64: the host's gcc.
    X86_64,
    /// s390x: the cross compiler.
    S390x,
}

impl CcArch {
    /// The environment variable that names another compiler for this architecture.
    pub const fn env_var(self) -> &'static str {
        match self {
            CcArch::X86_64 => "ACCTEMU_CC_X86",
            CcArch::S390x => "ACCTEMU_CC_S390",
        }
    }

    /// The compiler run: [`CcArch::env_var`] when set and not empty, else `gcc` (x86-64) or
    /// `s390x-linux-gnu-gcc`.
    pub fn compiler(self) -> String {
        match std::env::var(self.env_var()) {
            Ok(cc) if !cc.is_empty() => cc,
            _ => self.default_compiler().to_string(),
        }
    }

    /// The compiler's name when no environment variable replaces it.
    pub const fn default_compiler(self) -> &'static str {
        match self {
            CcArch::X86_64 => "gcc",
            CcArch::S390x => "s390x-linux-gnu-gcc",
        }
    }

    /// The Debian package that installs [`CcArch::default_compiler`].
    pub const fn package(self) -> &'static str {
        match self {
            CcArch::X86_64 => "gcc",
            CcArch::S390x => "gcc-s390x-linux-gnu",
        }
    }

    /// The ELF `e_machine` of the objects (EM_X86_64, EM_S390).
    pub const fn elf_machine(self) -> u16 {
        match self {
            CcArch::X86_64 => 62,
            CcArch::S390x => 22,
        }
    }

    /// The architecture's name as the command line spells it.
    pub const fn name(self) -> &'static str {
        match self {
            CcArch::X86_64 => "x86_64",
            CcArch::S390x => "s390x",
        }
    }

    /// Flags for a user's own helper: what the kernel builds with where it matters to the
    /// emulated core. No libc calls (`-ffreestanding -fno-builtin`), absolute or pc-relative
    /// addressing without a GOT (`-fno-pic`), no unwind tables or jump tables to load, no
    /// stack canary; x86-64 keeps to general registers (the integer subset the core runs) and
    /// off the red zone; s390x builds for z196 with soft float, as the kernel does. These are
    /// the traces' flags (`traces/*/build.sh`) without `-nostdinc` (so `<stdint.h>` works)
    /// and without `-Werror`.
    pub const fn default_flags(self) -> &'static [&'static str] {
        match self {
            CcArch::X86_64 => &[
                "-O2",
                "-std=gnu11",
                "-ffreestanding",
                "-fno-builtin",
                "-fno-pic",
                "-mcmodel=small",
                "-mno-red-zone",
                "-mgeneral-regs-only",
                "-fno-stack-protector",
                "-fno-asynchronous-unwind-tables",
                "-fno-unwind-tables",
                "-fcf-protection=none",
                "-fno-strict-aliasing",
                "-fno-common",
                "-fno-jump-tables",
            ],
            CcArch::S390x => &[
                "-O2",
                "-march=z196",
                "-std=gnu11",
                "-ffreestanding",
                "-fno-builtin",
                "-fno-pic",
                "-msoft-float",
                "-fno-stack-protector",
                "-fno-asynchronous-unwind-tables",
                "-fno-unwind-tables",
                "-fno-strict-aliasing",
                "-fno-common",
                "-fno-jump-tables",
                "--param=min-pagesize=0",
            ],
        }
    }
}

impl fmt::Display for CcArch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to compile: a file (gcc picks the language from its suffix: `.c`, `.s`, `.S`), or
/// text written to a scratch file of that name first.
#[derive(Debug, Clone, Copy)]
pub enum CcSource<'a> {
    /// A file on disk; `#include "..."` finds files beside it.
    File(&'a Path),
    /// Source text; `name` (its last component is used) gives gcc the language.
    Text {
        /// The file name, e.g. `helper.c`.
        name: &'a str,
        /// The source.
        text: &'a str,
    },
}

/// Why [`compile`] produced no object.
#[derive(Debug, thiserror::Error)]
pub enum CcError {
    /// The compiler is not installed (not found on `PATH`).
    #[error(
        "`{compiler}` is not installed, and building {arch} code needs it: install the Debian package \
         `{package}` (or name another compiler in {env_var})"
    )]
    Missing {
        /// The compiler looked for.
        compiler: String,
        /// The package that provides it.
        package: &'static str,
        /// The architecture.
        arch: CcArch,
        /// The variable that names another compiler.
        env_var: &'static str,
    },
    /// The compiler could not be started for another reason.
    #[error("`{compiler}` could not be started: {source}")]
    Spawn {
        /// The compiler.
        compiler: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The compiler rejected the source; its messages follow.
    #[error("`{compiler}` failed ({status}):\n{stderr}")]
    Failed {
        /// The compiler.
        compiler: String,
        /// Its exit status, in words.
        status: String,
        /// What it printed on stderr.
        stderr: String,
    },
    /// The compiler's object is not one of the asked architecture (a host gcc that is not an
    /// x86-64 compiler, say).
    #[error("`{compiler}` did not build an {arch} object (its ELF machine is {machine}); name an {arch} compiler in {env_var}")]
    WrongMachine {
        /// The compiler.
        compiler: String,
        /// The architecture asked for.
        arch: CcArch,
        /// What the object says, in words.
        machine: String,
        /// The variable that names another compiler.
        env_var: &'static str,
    },
    /// A scratch file could not be written or the object read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        #[source]
        source: std::io::Error,
    },
    /// A text source's name has no file name to give gcc.
    #[error("`{0}` is not a file name gcc can take the language from (give e.g. `helper.c`)")]
    BadName(String),
}

/// A scratch directory removed when dropped; unique per process and call, without host time.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, CcError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("acctemu-cc-{}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Scratch(dir)),
                // Left over by an earlier process of the same pid: take the next number.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(source) => return Err(CcError::Io { path: dir, source }),
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Compiles `source` for `arch` with `gcc -c`, each of `defines` (`NAME` or `NAME=VALUE`) as a
/// `-D`, then `flags` as given (e.g. [`CcArch::default_flags`], `-I DIR`), and returns the
/// object's bytes.
///
/// # Errors
/// [`CcError::Missing`] when the compiler is not installed; the compiler's own messages when it
/// rejects the source; an object of another architecture; scratch-file failures.
pub fn compile(arch: CcArch, source: CcSource<'_>, defines: &[String], flags: &[String]) -> Result<Vec<u8>, CcError> {
    let compiler = arch.compiler();
    let scratch = Scratch::new()?;
    let input = match source {
        CcSource::File(path) => path.to_path_buf(),
        CcSource::Text { name, text } => {
            let file = Path::new(name).file_name().ok_or_else(|| CcError::BadName(name.to_string()))?;
            let path = scratch.0.join(file);
            std::fs::write(&path, text).map_err(|source| CcError::Io { path: path.clone(), source })?;
            path
        }
    };
    let output = scratch.0.join("out.o");
    let mut cmd = Command::new(&compiler);
    cmd.args(flags).args(defines.iter().map(|d| format!("-D{d}"))).arg("-c").arg(&input).arg("-o").arg(&output);
    let done = match cmd.output() {
        Ok(done) => done,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CcError::Missing { compiler, package: arch.package(), arch, env_var: arch.env_var() })
        }
        Err(source) => return Err(CcError::Spawn { compiler, source }),
    };
    if !done.status.success() {
        let status =
            done.status.code().map_or_else(|| "killed by a signal".to_string(), |c| format!("exit status {c}"));
        let stderr = String::from_utf8_lossy(&done.stderr).trim_end().to_string();
        return Err(CcError::Failed { compiler, status, stderr });
    }
    let bytes = std::fs::read(&output).map_err(|source| CcError::Io { path: output.clone(), source })?;
    match crate::elf::machine(&bytes) {
        Some(m) if m == arch.elf_machine() => Ok(bytes),
        m => Err(CcError::WrongMachine {
            compiler,
            arch,
            machine: m.map_or_else(|| "not an ELF object".to_string(), |m| crate::elf::machine_name(m).to_string()),
            env_var: arch.env_var(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_architecture_names_its_compiler_and_package() {
        assert_eq!(CcArch::X86_64.default_compiler(), "gcc");
        assert_eq!(CcArch::S390x.default_compiler(), "s390x-linux-gnu-gcc");
        assert_eq!(CcArch::S390x.package(), "gcc-s390x-linux-gnu");
        assert_eq!(CcArch::X86_64.elf_machine(), 62);
        assert_eq!(CcArch::S390x.elf_machine(), 22);
    }

    #[test]
    fn a_missing_compiler_names_the_package() {
        let e = CcError::Missing {
            compiler: "s390x-linux-gnu-gcc".into(),
            package: CcArch::S390x.package(),
            arch: CcArch::S390x,
            env_var: CcArch::S390x.env_var(),
        };
        let text = e.to_string();
        assert!(text.contains("`s390x-linux-gnu-gcc` is not installed"), "{text}");
        assert!(text.contains("`gcc-s390x-linux-gnu`"), "{text}");
    }

    #[test]
    fn a_text_source_needs_a_file_name() {
        let e = compile(CcArch::X86_64, CcSource::Text { name: "/", text: "" }, &[], &[]);
        assert!(matches!(e, Err(CcError::BadName(_))), "{e:?}");
    }
}
