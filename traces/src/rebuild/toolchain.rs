//! The compiler and linker of each architecture's traces, their flags (read from the same
//! files the build scripts source) and the one function that runs them.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::RebuildError;
use crate::trace::Arch;

/// The x86 flag file (sourced by `traces/x86/build.sh`).
const X86_FLAGS: &str = include_str!("../../x86/cflags");
/// The s390 flag file (sourced by `traces/s390/build.sh`).
const S390_FLAGS: &str = include_str!("../../s390/cflags");
/// The gcc that built the committed x86 objects (`gcc -dumpfullversion`).
const X86_RECORDED: &str = include_str!("../../x86/obj/gcc-version");
/// The gcc and ld that built the committed s390 objects.
const S390_RECORDED: &str = include_str!("../../s390/obj/toolchain-version");

/// One program of a toolchain: what to run, and what to tell a user who lacks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    /// The program (a name looked up on PATH, or a path).
    pub program: String,
    /// `compiler` or `linker`.
    pub role: &'static str,
    /// The Debian package that installs the default program.
    pub package: &'static str,
    /// The environment variable that overrides the program.
    pub env: &'static str,
}

impl Tool {
    fn from_env(env: &'static str, default: &str, role: &'static str, package: &'static str) -> Tool {
        let program = std::env::var(env).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string());
        Tool { program, role, package, env }
    }
}

/// The programs and flags that build one architecture's trace objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolchain {
    /// The compiler driver (it also preprocesses and assembles the s390 `entry.S`).
    pub cc: Tool,
    /// The linker that joins the s390 units (`ld -r`); `None` for x86, one unit per object.
    pub ld: Option<Tool>,
    /// The compiler flags (`CFLAGS` of the flag file).
    pub cflags: Vec<&'static str>,
    /// The linker flags (`LDFLAGS` of the flag file).
    pub ldflags: Vec<&'static str>,
    /// What `cc -dumpfullversion` (and, for s390, `ld --version`'s first line) printed when the
    /// committed objects were built.
    pub recorded: &'static str,
}

impl Toolchain {
    /// The toolchain of `arch`'s compiled traces, the programs taken from the environment
    /// overrides; `None` for IA-64, whose traces the tool assembles.
    pub fn of(arch: Arch) -> Option<Toolchain> {
        match arch {
            Arch::Ia64 => None,
            Arch::X86_64 => Some(Toolchain {
                cc: Tool::from_env("ACCTEMU_CC_X86", "gcc", "compiler", "gcc"),
                ld: None,
                cflags: flag_words(X86_FLAGS, "CFLAGS"),
                ldflags: Vec::new(),
                recorded: X86_RECORDED,
            }),
            Arch::S390x => Some(Toolchain {
                cc: Tool::from_env("ACCTEMU_CC_S390", "s390x-linux-gnu-gcc", "compiler", "gcc-s390x-linux-gnu"),
                ld: Some(Tool::from_env("ACCTEMU_LD_S390", "s390x-linux-gnu-ld", "linker", "binutils-s390x-linux-gnu")),
                cflags: flag_words(S390_FLAGS, "CFLAGS"),
                ldflags: flag_words(S390_FLAGS, "LDFLAGS"),
                recorded: S390_RECORDED,
            }),
        }
    }

    /// The installed toolchain's version, as the build scripts record it; `None` when a
    /// program runs but does not say (another compiler than gcc).
    ///
    /// # Errors
    /// [`RebuildError::Missing`] when a program is not installed (named after `trace`).
    pub fn version(&self, trace: &'static str) -> Result<Option<String>, RebuildError> {
        let first_line = |tool: &Tool, arg: &str| -> Result<Option<String>, RebuildError> {
            let out = Command::new(&tool.program).arg(arg).output().map_err(|e| spawn_error(trace, tool, e))?;
            let text = String::from_utf8_lossy(&out.stdout);
            Ok(out.status.success().then(|| text.lines().next().unwrap_or("").trim().to_string()))
        };
        let Some(cc) = first_line(&self.cc, "-dumpfullversion")? else { return Ok(None) };
        match &self.ld {
            None => Ok(Some(cc)),
            Some(ld) => Ok(first_line(ld, "--version")?.map(|ld| format!("{cc}\n{ld}"))),
        }
    }

    /// Whether the installed toolchain is the one that built the committed objects (then an
    /// unchanged rebuild is byte-identical to them).
    ///
    /// # Errors
    /// As [`Toolchain::version`].
    pub fn matches_committed(&self, trace: &'static str) -> Result<bool, RebuildError> {
        Ok(self.version(trace)?.is_some_and(|v| v.trim() == self.recorded.trim()))
    }
}

/// The words of the assignment `name="..."` in a flag file (comment lines skipped; the file's
/// syntax is the subset the build scripts' `.` and this reader agree on, see `traces/x86/cflags`).
fn flag_words(file: &'static str, name: &str) -> Vec<&'static str> {
    let body: Vec<&'static str> = file.lines().filter(|l| !l.trim_start().starts_with('#')).collect();
    let prefix = format!("{name}=\"");
    let mut words = Vec::new();
    let mut inside = false;
    for line in body {
        let rest = if inside {
            line
        } else if let Some(rest) = line.strip_prefix(prefix.as_str()) {
            inside = true;
            rest
        } else {
            continue;
        };
        let (part, closed) = match rest.split_once('"') {
            Some((part, _)) => (part, true),
            None => (rest, false),
        };
        words.extend(part.split_whitespace());
        if closed {
            break;
        }
    }
    words
}

/// Runs `tool` with `args` in `dir`. The one place a compiler or linker is run: the integrator
/// may route it through `emu_core::cc` once that exists.
///
/// # Errors
/// [`RebuildError::Missing`] when the program is not installed; [`RebuildError::Tool`] when it
/// fails, with its stderr.
pub fn run_tool(trace: &'static str, tool: &Tool, args: &[String], dir: &Path) -> Result<(), RebuildError> {
    let out =
        Command::new(&tool.program).args(args).current_dir(dir).output().map_err(|e| spawn_error(trace, tool, e))?;
    if out.status.success() {
        return Ok(());
    }
    Err(RebuildError::Tool {
        trace,
        command: std::iter::once(tool.program.as_str())
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        dir: dir.display().to_string(),
        stderr: String::from_utf8_lossy(&out.stderr).trim_end().to_string(),
    })
}

fn spawn_error(trace: &'static str, tool: &Tool, e: std::io::Error) -> RebuildError {
    if e.kind() == std::io::ErrorKind::NotFound {
        RebuildError::Missing {
            trace,
            role: tool.role,
            program: tool.program.clone(),
            package: tool.package,
            env: tool.env,
        }
    } else {
        RebuildError::Io { trace, what: "running", path: PathBuf::from(&tool.program), source: e }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_files_hold_the_flags_the_build_scripts_pass() {
        let x86 = Toolchain::of(Arch::X86_64).expect("x86 toolchain");
        assert_eq!(x86.cflags.first(), Some(&"-O2"));
        assert_eq!(x86.cflags.last(), Some(&"-Werror"));
        assert!(x86.cflags.contains(&"-mgeneral-regs-only") && x86.cflags.contains(&"-Wno-unused-parameter"));
        assert_eq!(x86.cflags.len(), 21);
        let s390 = Toolchain::of(Arch::S390x).expect("s390 toolchain");
        assert_eq!(&s390.cflags[..2], ["-O2", "-march=z196"]);
        assert!(s390.cflags.contains(&"--param=min-pagesize=0"));
        assert_eq!(s390.cflags.len(), 19);
        assert_eq!(s390.ldflags, ["-r"]);
        assert!(Toolchain::of(Arch::Ia64).is_none());
        // What the shell would do differently from this reader: nothing may be in the words.
        for w in x86.cflags.iter().chain(&s390.cflags).chain(&s390.ldflags) {
            assert!(!w.contains(['"', '\'', '$', '\\', '`', '#']), "{w}");
        }
    }
}
