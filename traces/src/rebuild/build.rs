//! One rebuild: sources written to a temporary directory, compiled and linked as the build
//! script does, the object checked for the bound symbols.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::sources::{apply_patch, merged_defines, sources, Change};
use super::toolchain::{run_tool, Toolchain};
use super::RebuildError;
use crate::trace::Trace;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ia64_trace_is_not_rebuilt() {
        let t = crate::find("ia64/syscall/v1").expect("v1");
        let e = rebuild(t, &Change { patch: None, defines: &[] }).unwrap_err().to_string();
        assert_eq!(e, "ia64/syscall/v1 is an ia64 trace: it is assembled, not compiled");
    }
}
