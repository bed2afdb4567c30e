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

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::patch_tree::{self, ApplyOptions, TreePatchError};
use crate::trace::{Arch, Trace};

/// The x86 flag file (sourced by `traces/x86/build.sh`).
const X86_FLAGS: &str = include_str!("../x86/cflags");
/// The s390 flag file (sourced by `traces/s390/build.sh`).
const S390_FLAGS: &str = include_str!("../s390/cflags");
/// The gcc that built the committed x86 objects (`gcc -dumpfullversion`).
const X86_RECORDED: &str = include_str!("../x86/obj/gcc-version");
/// The gcc and ld that built the committed s390 objects.
const S390_RECORDED: &str = include_str!("../s390/obj/toolchain-version");

/// The headers and assembly the traces' C includes or links with, besides [`Trace::source`].
const X86_KERNEL_H: &str = include_str!("../x86/kernel.h");
const S390_ENTRY_S: &str = include_str!("../s390/entry.S");
const S390_LOWCORE_H: &str = include_str!("../s390/lowcore.h");

/// Why a compiled trace could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    /// The trace is assembled by the tool (IA-64), not compiled.
    #[error("{trace} is an {arch} trace: it is assembled, not compiled")]
    NotCompiled {
        /// The trace.
        trace: &'static str,
        /// Its architecture's name.
        arch: &'static str,
    },
    /// A `-D` that is not `NAME[=VALUE]` with a C identifier for NAME.
    #[error("-D{define}: `{name}` is not a macro name (letters, digits and `_`, not starting with a digit)")]
    BadDefine {
        /// The argument as given.
        define: String,
        /// The name part.
        name: String,
    },
    /// The patch does not parse.
    #[error("{0}")]
    Patch(#[from] TreePatchError),
    /// The patch changes a file the trace is not built from.
    #[error("{patch}:{line}: `{file}` is not a source of {trace} (its sources: {sources})")]
    UnknownFile {
        /// The patch's name.
        patch: String,
        /// 1-based line of the file's `--- ` header.
        line: usize,
        /// The path the patch names.
        file: String,
        /// The trace.
        trace: &'static str,
        /// The trace's source files, comma-separated.
        sources: String,
    },
    /// The patch deletes one of the trace's sources.
    #[error("{patch}:{line}: deletes `{file}`, a source {trace} is built from")]
    Deletes {
        /// The patch's name.
        patch: String,
        /// 1-based line of the file's `--- ` header.
        line: usize,
        /// The file.
        file: String,
        /// The trace.
        trace: &'static str,
    },
    /// A hunk's context or removed lines are nowhere in the file.
    #[error("{patch}:{line}: hunk #{hunk} does not apply to {file} of {trace}")]
    DoesNotApply {
        /// The patch's name.
        patch: String,
        /// 1-based line of the hunk's `@@` header.
        line: usize,
        /// 1-based hunk number within its file.
        hunk: usize,
        /// The file.
        file: String,
        /// The trace.
        trace: &'static str,
    },
    /// The compiler or linker is not installed.
    #[error(
        "{trace}: the source changed, so the committed object cannot be used and the trace must be rebuilt, \
         but the {role} `{program}` is not installed (Debian package `{package}`; {env} names another)"
    )]
    Missing {
        /// The trace.
        trace: &'static str,
        /// `compiler` or `linker`.
        role: &'static str,
        /// The program looked for.
        program: String,
        /// The Debian package that installs it.
        package: &'static str,
        /// The environment variable that overrides it.
        env: &'static str,
    },
    /// The compiler or linker ran and failed (its diagnostics follow).
    #[error("{trace}: rebuilding failed: `{command}` in {dir}:\n{stderr}")]
    Tool {
        /// The trace.
        trace: &'static str,
        /// The command line.
        command: String,
        /// The temporary directory it ran in (removed afterwards).
        dir: String,
        /// What it printed on stderr.
        stderr: String,
    },
    /// The rebuilt object lacks a symbol the trace binds a path to.
    #[error(
        "{trace}: the rebuilt object does not define `{symbol}`, which the trace binds to its {path} path \
         (a rebuilt trace keeps its harness and bindings)"
    )]
    Unbound {
        /// The trace.
        trace: &'static str,
        /// The missing symbol.
        symbol: &'static str,
        /// The path kind's name.
        path: &'static str,
    },
    /// The rebuilt object is not an ELF object this module can read.
    #[error("{trace}: the rebuilt object does not parse: {message}")]
    BadObject {
        /// The trace.
        trace: &'static str,
        /// goblin's message.
        message: String,
    },
    /// Writing or reading the temporary build directory failed.
    #[error("{trace}: {what} {}: {source}", path.display())]
    Io {
        /// The trace.
        trace: &'static str,
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The failure.
        #[source]
        source: std::io::Error,
    },
}

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

/// A patch as text, with the name errors point at.
#[derive(Debug, Clone, Copy)]
pub struct PatchText<'a> {
    /// The patch's name (its path as the user gave it).
    pub name: &'a str,
    /// The unified diff: one or several of the trace's files.
    pub text: &'a str,
}

/// What changes a compiled trace: a patch to its sources and `-D` arguments added after its
/// own defines (a name given again takes the new value, as a later `-D` does).
#[derive(Debug, Clone, Copy)]
pub struct Change<'a> {
    /// The patch, if any.
    pub patch: Option<PatchText<'a>>,
    /// `NAME[=VALUE]` arguments (`NAME` alone is `NAME=1`).
    pub defines: &'a [String],
}

/// The files a trace's object is built from, under their bare names (the compiled units'
/// names land in the object's symbol table, so they must be the build script's).
#[derive(Debug, Clone)]
struct Sources {
    files: Vec<(String, String)>,
    /// The files compiled, in the order `build.sh` links them.
    units: Vec<String>,
}

fn sources(trace: &Trace) -> Result<Sources, RebuildError> {
    let own = |name: &str, text: &str| (name.to_string(), text.to_string());
    match trace.arch {
        Arch::Ia64 => Err(RebuildError::NotCompiled { trace: trace.name, arch: trace.arch.name() }),
        Arch::X86_64 => Ok(Sources {
            files: vec![own(trace.source_name, trace.source), own("kernel.h", X86_KERNEL_H)],
            units: vec![trace.source_name.to_string()],
        }),
        Arch::S390x => Ok(Sources {
            files: vec![
                own("entry.S", S390_ENTRY_S),
                own(trace.source_name, trace.source),
                own("lowcore.h", S390_LOWCORE_H),
            ],
            units: vec!["entry.S".to_string(), trace.source_name.to_string()],
        }),
    }
}

/// Applies `patch` to `files`; returns where each hunk went (`nohz_syscall.c: hunk #1 at 640`).
/// A patched file is matched by its last path component, so `a/traces/x86/kernel.h`, `kernel.h`
/// and `b/kernel.h` all name the trace's `kernel.h`; a file created by the patch (`--- /dev/null`)
/// is added.
fn apply_patch(
    trace: &Trace,
    files: &mut Vec<(String, String)>,
    patch: PatchText<'_>,
) -> Result<Vec<String>, RebuildError> {
    let parsed = patch_tree::parse(patch.name, patch.text)?;
    let mut placed = Vec::new();
    for fp in parsed.iter().filter(|f| !f.hunks.is_empty()) {
        let path = fp.path(0);
        let base = path.rsplit('/').next().unwrap_or(&path).to_string();
        if fp.new_name == "/dev/null" {
            return Err(RebuildError::Deletes {
                patch: patch.name.into(),
                line: fp.header_line,
                file: base,
                trace: trace.name,
            });
        }
        let index = match files.iter().position(|(name, _)| *name == base) {
            Some(i) => i,
            None if fp.old_name == "/dev/null" => {
                files.push((base.clone(), String::new()));
                files.len() - 1
            }
            None => {
                let list: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
                return Err(RebuildError::UnknownFile {
                    patch: patch.name.into(),
                    line: fp.header_line,
                    file: path,
                    trace: trace.name,
                    sources: list.join(", "),
                });
            }
        };
        let (name, text) = &mut files[index];
        let (new, results) =
            patch_tree::apply_file(text, fp, ApplyOptions { reverse: false, max_fuzz: 0 }).map_err(|f| {
                RebuildError::DoesNotApply {
                    patch: patch.name.into(),
                    line: f.header_line,
                    hunk: f.number,
                    file: name.clone(),
                    trace: trace.name,
                }
            })?;
        *text = new;
        placed.extend(results.iter().map(|r| format!("{name}: {r}")));
    }
    Ok(placed)
}

/// `trace`'s defines with `extra` after them: a name given again takes its last value, keeping
/// its first place (gcc rejects a command-line macro defined twice under `-Werror`).
fn merged_defines(trace: &Trace, extra: &[String]) -> Result<Vec<(String, String)>, RebuildError> {
    let mut out: Vec<(String, String)> = trace.defines.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    for d in extra {
        let (name, value) = emu_core::preprocess::parse_define(d);
        let ident = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ident {
            return Err(RebuildError::BadDefine { define: d.clone(), name });
        }
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => out.push((name, value)),
        }
    }
    Ok(out)
}

/// A rebuilt object and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rebuilt {
    /// The relocatable object's bytes.
    pub object: Vec<u8>,
    /// Where each hunk of the patch went (`nohz_syscall.c: hunk #1 at 640 (offset 2 lines)`).
    pub hunks: Vec<String>,
    /// The defines it was compiled with, in order.
    pub defines: Vec<(String, String)>,
}

/// Rebuilds `trace` with `change`: its sources patched, compiled with the build script's flags
/// and the trace's defines followed by the change's, the s390 units linked with `ld -r`.
///
/// # Errors
/// An IA-64 trace; a bad define; a patch that does not parse or apply, or changes a file the
/// trace is not built from; a missing compiler or linker; a compile or link failure (with the
/// tool's diagnostics); an object that no longer defines a bound symbol.
pub fn rebuild(trace: &'static Trace, change: &Change<'_>) -> Result<Rebuilt, RebuildError> {
    let tc =
        Toolchain::of(trace.arch).ok_or(RebuildError::NotCompiled { trace: trace.name, arch: trace.arch.name() })?;
    let mut src = sources(trace)?;
    let hunks = match change.patch {
        Some(p) => apply_patch(trace, &mut src.files, p)?,
        None => Vec::new(),
    };
    let defines = merged_defines(trace, change.defines)?;
    let dir = TempDir::new(trace.name)?;
    for (name, text) in &src.files {
        let path = dir.path.join(name);
        std::fs::write(&path, text).map_err(|e| dir.io("writing", &path, e))?;
    }
    let mut flags: Vec<String> = tc.cflags.iter().map(|f| f.to_string()).collect();
    flags.extend(defines.iter().map(|(n, v)| format!("-D{n}={v}")));
    let mut objects = Vec::new();
    for (i, unit) in src.units.iter().enumerate() {
        let obj = format!("unit{i}.o");
        let mut args = flags.clone();
        args.extend(["-c".to_string(), unit.clone(), "-o".to_string(), obj.clone()]);
        run_tool(trace.name, &tc.cc, &args, &dir.path)?;
        objects.push(obj);
    }
    let output = match (&tc.ld, objects.as_slice()) {
        (None, [one]) => one.clone(),
        (ld, _) => {
            // Several units and no linker named: the compiler driver links (`gcc -r`).
            let mut args: Vec<String> = tc.ldflags.iter().map(|f| f.to_string()).collect();
            if ld.is_none() {
                args.extend(["-nostdlib".to_string(), "-r".to_string()]);
            }
            let ld = ld.as_ref().unwrap_or(&tc.cc);
            args.extend(objects.iter().cloned());
            args.extend(["-o".to_string(), "trace.o".to_string()]);
            run_tool(trace.name, ld, &args, &dir.path)?;
            "trace.o".to_string()
        }
    };
    let path = dir.path.join(&output);
    let object = std::fs::read(&path).map_err(|e| dir.io("reading", &path, e))?;
    check_bindings(trace, &object)?;
    Ok(Rebuilt { object, hunks, defines })
}

/// Every symbol `trace` binds a path to is defined in `object`.
fn check_bindings(trace: &'static Trace, object: &[u8]) -> Result<(), RebuildError> {
    let elf = goblin::elf::Elf::parse(object)
        .map_err(|e| RebuildError::BadObject { trace: trace.name, message: e.to_string() })?;
    let defined = |name: &str| {
        elf.syms.iter().any(|s| {
            s.st_shndx != goblin::elf::section_header::SHN_UNDEF as usize && elf.strtab.get_at(s.st_name) == Some(name)
        })
    };
    match trace.bindings.iter().find(|b| !defined(b.start)) {
        Some(b) => Err(RebuildError::Unbound { trace: trace.name, symbol: b.start, path: b.kind.name() }),
        None => Ok(()),
    }
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

/// A build directory under the system's temporary directory, removed when dropped.
struct TempDir {
    trace: &'static str,
    path: PathBuf,
}

impl TempDir {
    fn new(trace: &'static str) -> Result<TempDir, RebuildError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        let mut last = None;
        // Another process may hold a leftover of the same name: try the next numbers.
        for _ in 0..16 {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("acctemu-rebuild-{}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { trace, path }),
                Err(e) => last = Some((path, e)),
            }
        }
        let (path, source) = last.unwrap_or_else(|| (base.clone(), std::io::Error::other("no attempt made")));
        Err(RebuildError::Io { trace, what: "creating", path, source })
    }

    fn io(&self, what: &'static str, path: &Path, source: std::io::Error) -> RebuildError {
        RebuildError::Io { trace: self.trace, what, path: path.to_path_buf(), source }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// One side to build: a catalogue trace and what changes it.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The trace (its harness and bindings are kept).
    pub trace: &'static Trace,
    /// The change (none: the trace as catalogued).
    pub change: Change<'a>,
}

/// One built side: the trace whose harness, bindings and counters apply, its object, and a
/// label saying how it was made.
#[derive(Debug, Clone)]
pub struct Version {
    /// The trace that runs (the requested one, or the catalogued version its defines select).
    pub trace: &'static Trace,
    /// The object: the committed one, or a rebuild.
    pub object: Cow<'static, [u8]>,
    /// `x86/nohz-syscall/patch3 + fix.diff -DX`, with ` (= V: its harness and counters)` when
    /// the defines select another version and ` (rebuilt: ...)` when an unchanged side was
    /// rebuilt to match the other side's compiler.
    pub label: String,
    /// Where each hunk of the patch went.
    pub hunks: Vec<String>,
}

impl Version {
    /// The trace with this version's object, for code that takes a [`Trace`]. A rebuilt
    /// object is leaked to get the `'static` lifetime [`Trace::object`] has: a few kilobytes
    /// per rebuild, meant for a command that builds once per process.
    pub fn into_trace(self) -> Trace {
        let object: &'static [u8] = match self.object {
            Cow::Borrowed(b) => b,
            Cow::Owned(v) => Box::leak(v.into_boxed_slice()),
        };
        Trace { object: Some(object), ..*self.trace }
    }
}

/// The catalogued compiled version with `trace`'s source under exactly `defines` (`trace`
/// itself first: x86 `patch4` and `housekeeping` share source and defines).
fn catalogued(trace: &'static Trace, defines: &[(String, String)]) -> Option<&'static Trace> {
    let wanted: BTreeMap<&str, &str> = defines.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let same = |t: &Trace| {
        t.arch == trace.arch
            && t.object.is_some()
            && t.source_name == trace.source_name
            && t.source == trace.source
            && t.defines.iter().copied().collect::<BTreeMap<&str, &str>>() == wanted
    };
    if same(trace) {
        return Some(trace);
    }
    crate::catalogue().iter().find(|t| same(t))
}

/// Builds each side: a side with no patch whose defines select a catalogued version is that
/// version's committed object; any other side is rebuilt. When something is rebuilt with a
/// toolchain other than the committed objects', the committed sides are rebuilt as well (from
/// their unchanged sources), so that sides differ by their change, not by their compiler.
///
/// # Errors
/// As [`rebuild`]; a side of an IA-64 trace.
pub fn versions(sides: &[Request<'_>]) -> Result<Vec<Version>, RebuildError> {
    struct Plan {
        label: String,
        committed: Option<&'static Trace>,
    }
    let mut plans = Vec::new();
    for side in sides {
        let t = side.trace;
        let tc = Toolchain::of(t.arch).ok_or(RebuildError::NotCompiled { trace: t.name, arch: t.arch.name() })?;
        let defines = merged_defines(t, side.change.defines)?;
        let mut label = t.name.to_string();
        if let Some(p) = side.change.patch {
            // A patch that does not apply is reported before any compiler is looked for.
            apply_patch(t, &mut sources(t)?.files, p)?;
            label.push_str(&format!(" + {}", p.name));
        }
        for d in side.change.defines {
            label.push_str(&format!(" -D{d}"));
        }
        let committed = if side.change.patch.is_none() { catalogued(t, &defines) } else { None };
        if let Some(c) = committed.filter(|c| c.name != t.name) {
            label.push_str(&format!(" (= {}: its harness and counters)", c.name));
        }
        plans.push((Plan { label, committed }, tc));
    }
    // A rebuild with another toolchain than the committed objects' rebuilds every side.
    let mut foreign: Option<String> = None;
    if let Some((side, (_, tc))) = sides.iter().zip(&plans).find(|(_, (p, _))| p.committed.is_none()) {
        let name = side.trace.name;
        if !tc.matches_committed(name)? {
            let here = tc.version(name)?.unwrap_or_else(|| "of an unknown version".into());
            let recorded = tc.recorded.lines().next().unwrap_or("").trim();
            let here = here.lines().next().unwrap_or("");
            foreign = Some(format!("rebuilt: `{}` is {here}, the committed objects' gcc {recorded}", tc.cc.program));
        }
    }
    plans
        .into_iter()
        .zip(sides)
        .map(|((plan, _), side)| match (plan.committed, &foreign) {
            (Some(t), None) => Ok(Version {
                trace: t,
                object: Cow::Borrowed(t.object.unwrap_or_default()),
                label: plan.label,
                hunks: Vec::new(),
            }),
            (Some(t), Some(note)) => {
                let built = rebuild(t, &Change { patch: None, defines: &[] })?;
                Ok(Version {
                    trace: t,
                    object: Cow::Owned(built.object),
                    label: format!("{} ({note})", plan.label),
                    hunks: Vec::new(),
                })
            }
            (None, _) => {
                let built = rebuild(side.trace, &side.change)?;
                Ok(Version {
                    trace: side.trace,
                    object: Cow::Owned(built.object),
                    label: plan.label,
                    hunks: built.hunks,
                })
            }
        })
        .collect()
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

    #[test]
    fn defines_override_in_place_and_bad_names_are_refused() {
        let t = crate::find("x86/nohz-syscall/patch1").expect("patch1");
        let d = merged_defines(t, &["PATCHES=3".into(), "EXTRA".into()]).expect("defines");
        assert_eq!(d, [("PATCHES".into(), "3".into()), ("EXTRA".into(), "1".into())]);
        let e = merged_defines(t, &["1X=2".into()]).unwrap_err().to_string();
        assert_eq!(e, "-D1X=2: `1X` is not a macro name (letters, digits and `_`, not starting with a digit)");
        assert!(merged_defines(t, &["A B".into()]).is_err());
    }

    #[test]
    fn defines_that_select_a_catalogued_version_are_that_version() {
        let p1 = crate::find("x86/nohz-syscall/patch1").expect("patch1");
        let p4 = crate::find("x86/nohz-syscall/patch4").expect("patch4");
        let hk = crate::find("x86/nohz-syscall/housekeeping").expect("housekeeping");
        let d = |s: &str| merged_defines(p1, &[s.to_string()]).expect("defines");
        assert_eq!(catalogued(p1, &d("PATCHES=3")).map(|t| t.name), Some("x86/nohz-syscall/patch3"));
        assert_eq!(catalogued(p1, &d("PATCHES=4")).map(|t| t.name), Some(p4.name));
        assert_eq!(catalogued(hk, &merged_defines(hk, &[]).expect("defines")).map(|t| t.name), Some(hk.name));
        assert!(catalogued(p1, &d("PATCHES=2")).is_none());
        let v = versions(&[Request { trace: p1, change: Change { patch: None, defines: &["PATCHES=3".into()] } }])
            .expect("no compiler needed");
        assert_eq!(
            v[0].label,
            "x86/nohz-syscall/patch1 -DPATCHES=3 (= x86/nohz-syscall/patch3: its harness and counters)"
        );
        assert!(matches!(v[0].object, Cow::Borrowed(_)));
    }

    #[test]
    fn patches_name_their_files_and_hunks() {
        let t = crate::find("s390/vtime/delayed").expect("delayed");
        let mut files = sources(t).expect("sources").files;
        let p = "--- a/traces/s390/lowcore.h\n+++ b/traces/s390/lowcore.h\n@@ -1,1 +1,2 @@\n+/* x */\n";
        let e = apply_patch(t, &mut files, PatchText { name: "p.diff", text: p });
        assert!(matches!(e, Err(RebuildError::Patch(_))), "{e:?}");
        let first = S390_LOWCORE_H.lines().next().unwrap_or_default();
        let p =
            format!("--- a/traces/s390/lowcore.h\n+++ b/traces/s390/lowcore.h\n@@ -1,1 +1,2 @@\n {first}\n+/* x */\n");
        let placed = apply_patch(t, &mut files, PatchText { name: "p.diff", text: &p }).expect("applies");
        assert_eq!(placed, ["lowcore.h: hunk #1 at 1"]);
        assert!(files[2].1.contains("/* x */"));
        let p = "--- a/x.c\n+++ b/x.c\n@@ -1,1 +1,1 @@\n-a\n+b\n";
        let e = apply_patch(t, &mut files, PatchText { name: "p.diff", text: p }).unwrap_err().to_string();
        assert_eq!(
            e,
            "p.diff:1: `b/x.c` is not a source of s390/vtime/delayed (its sources: entry.S, vtime.c, lowcore.h)"
        );
        let p = "--- a/vtime.c\n+++ b/vtime.c\n@@ -3,1 +3,1 @@\n-no such line\n+b\n";
        let e = apply_patch(t, &mut files, PatchText { name: "p.diff", text: p }).unwrap_err().to_string();
        assert_eq!(e, "p.diff:3: hunk #1 does not apply to vtime.c of s390/vtime/delayed");
        let p = "--- a/vtime.c\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n";
        let e = apply_patch(t, &mut files, PatchText { name: "p.diff", text: p }).unwrap_err().to_string();
        assert_eq!(e, "p.diff:1: deletes `vtime.c`, a source s390/vtime/delayed is built from");
        let p = "--- /dev/null\n+++ b/extra.h\n@@ -0,0 +1,1 @@\n+#define EXTRA 1\n";
        apply_patch(t, &mut files, PatchText { name: "p.diff", text: p }).expect("a new file");
        assert_eq!(files.last().map(|(n, t)| (n.as_str(), t.as_str())), Some(("extra.h", "#define EXTRA 1\n")));
    }

    #[test]
    fn an_ia64_trace_is_not_rebuilt() {
        let t = crate::find("ia64/syscall/v1").expect("v1");
        let e = rebuild(t, &Change { patch: None, defines: &[] }).unwrap_err().to_string();
        assert_eq!(e, "ia64/syscall/v1 is an ia64 trace: it is assembled, not compiled");
    }
}
