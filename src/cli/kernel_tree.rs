//! `acctemu scenario --tree DIR` and `acctemu diff --tree DIR [--patch P | --tree-b DIR2]`:
//! a Linux ia64 kernel tree's own entry files (ivt.S, entry.S, fsys.S, gate.S) preprocessed,
//! assembled and linked by acctemu with stubs for the C they call, each entry kind run from
//! user mode back to user mode (`arch_ia64::kernel`), cycles and instructions per call.
//!
//! `--format json` gives, per entry kind, the means and the register state at the last
//! return to user mode.
//!
//! Also the catalogue names `ia64/linux-6.1/{none,v2}` (and `v1` given its overlay): the
//! configs of `traces/ia64/linux-6.1/` on the installed 6.1 tree (`ACCTEMU_LINUX_TREE`, else
//! `/usr/src/linux-source-6.1`).

use super::CliError;
use arch_ia64::kernel::harness::{HarnessOptions, KernelHarness};
use arch_ia64::kernel::paths::PathRun;
use arch_ia64::kernel::{EntryKind, KernelSources};
use emu_core::kernel::KernelConfig;
use emu_core::preprocess::parse_define;
use std::path::{Path, PathBuf};

/// The configs of the catalogue's 6.1 traces.
pub const CONFIG_NONE: &str = include_str!("../../traces/ia64/linux-6.1/none.config");
/// The accounting config (CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y).
pub const CONFIG_V2: &str = include_str!("../../traces/ia64/linux-6.1/v2.config");

/// One side: a tree and how it is configured.
#[derive(Debug, Clone, Default)]
pub struct TreeSide {
    /// The source tree.
    pub tree: PathBuf,
    /// A directory of files replacing the tree's at the same relative paths.
    pub overlay: Option<PathBuf>,
    /// `.config` (default: the tree's `.config`, else the catalogue's v2 config).
    pub config: Option<PathBuf>,
    /// A real build's asm-offsets.h.
    pub asm_offsets: Option<PathBuf>,
    /// A unified diff applied to the tree's files (`-p1` paths) before building.
    pub patch: Option<PathBuf>,
    /// `-D` definitions.
    pub defines: Vec<String>,
    /// Files replaced in memory (tree-relative path, text), after the overlay and before
    /// the patch: a version made by code (seed 004's V.1) rather than a directory.
    pub replaced: Vec<(String, String)>,
    /// Label in reports.
    pub label: String,
}

/// What to run.
#[derive(Debug, Clone)]
pub struct TreeRequest {
    /// Side A (and the only one of `scenario`).
    pub a: TreeSide,
    /// Side B of `diff`.
    pub b: Option<TreeSide>,
    /// Entry kinds (default: all four).
    pub entries: Vec<EntryKind>,
    /// Round trips of each kind (the first is left out of the means: it warms nothing the
    /// model caches, but its RSE state differs).
    pub calls: usize,
    /// JSON instead of text.
    pub json: bool,
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Io { path: path.to_path_buf(), source })
}

/// The installed 6.1 tree for the catalogue names.
///
/// # Errors
/// No tree is installed (the message says how to get one).
pub fn installed_tree() -> Result<PathBuf, CliError> {
    let ok = |p: &Path| p.join("arch/ia64/kernel/entry.S").is_file() && p.join("include/linux/kconfig.h").is_file();
    if let Some(dir) = std::env::var_os("ACCTEMU_LINUX_TREE").map(PathBuf::from) {
        return if ok(&dir) {
            Ok(dir)
        } else {
            Err(CliError::Kernel(format!("ACCTEMU_LINUX_TREE={} is not a Linux tree with arch/ia64", dir.display())))
        };
    }
    let system = PathBuf::from("/usr/src/linux-source-6.1");
    if ok(&system) {
        return Ok(system);
    }
    Err(CliError::Kernel(
        "the ia64/linux-6.1 traces need the Linux 6.1 tree: install linux-source-6.1 and extract \
         /usr/src/linux-source-6.1.tar.xz there, or set ACCTEMU_LINUX_TREE=DIR"
            .into(),
    ))
}

/// The side a catalogue name `ia64/linux-6.1/VERSION` names, if it is one.
///
/// # Errors
/// No tree installed; `v1` without its overlay (`ACCTEMU_LINUX_V1`, the directory slice
/// i14-acct's reverse patch writes).
pub fn catalogue_side(name: &str) -> Result<Option<TreeSide>, CliError> {
    let Some(version) = name.strip_prefix("ia64/linux-6.1/") else { return Ok(None) };
    let (config, overlay) = match version {
        "none" => (CONFIG_NONE, None),
        "v2" => (CONFIG_V2, None),
        "v1" => match std::env::var_os("ACCTEMU_LINUX_V1") {
            Some(dir) => (CONFIG_V2, Some(PathBuf::from(dir))),
            None => {
                return Err(CliError::Kernel(
                    "ia64/linux-6.1/v1 is the 6.1 files with seed 004's patch reversed: set \
                     ACCTEMU_LINUX_V1 to the directory holding them (tree-relative paths)"
                        .into(),
                ))
            }
        },
        other => return Err(CliError::Usage(format!("no trace ia64/linux-6.1/{other}: none, v1 and v2 exist"))),
    };
    let tree = installed_tree()?;
    let dir = std::env::temp_dir().join(format!("acctemu-linux-6.1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|source| CliError::Io { path: dir.clone(), source })?;
    let cfg = dir.join(format!("{version}.config"));
    std::fs::write(&cfg, config).map_err(|source| CliError::Io { path: cfg.clone(), source })?;
    Ok(Some(TreeSide { tree, overlay, config: Some(cfg), label: name.to_string(), ..TreeSide::default() }))
}

/// Splits a multi-file unified diff into (tree-relative path, one-file diff), `-p1`.
fn split_patch(text: &str) -> Vec<(String, String)> {
    let files = super::patch::files(text);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = Vec::new();
    for (k, (name, line)) in files.iter().enumerate() {
        let start = line - 1;
        let end = files.get(k + 1).map_or(lines.len(), |(_, l)| l - 1);
        let body: String = lines.get(start..end).unwrap_or_default().concat();
        let rel = name.split_once('/').map_or(name.as_str(), |(_, r)| r).to_string();
        out.push((rel, body));
    }
    out
}

fn build(side: &TreeSide) -> Result<KernelHarness, CliError> {
    let config_path = side.config.clone().unwrap_or_else(|| side.tree.join(".config"));
    let config_text = if config_path.is_file() { read(&config_path)? } else { CONFIG_V2.to_string() };
    let config = KernelConfig::parse(&config_path.display().to_string(), &config_text)
        .map_err(|e| CliError::Kernel(format!("kernel config: {e}")))?;
    let mut src = KernelSources::new(&side.tree, config);
    src.overlay = side.overlay.clone();
    src.asm_offsets = side.asm_offsets.as_deref().map(read).transpose()?;
    src.defines = side.defines.iter().map(|d| parse_define(d)).collect();
    src.replaced = side.replaced.clone();
    if let Some(p) = &side.patch {
        let text = read(p)?;
        let pname = p.display().to_string();
        for (rel, body) in split_patch(&text) {
            let path = side.tree.join(&rel);
            let original = match src.replaced.iter().find(|(r, _)| *r == rel) {
                Some((_, text)) => text.clone(),
                None => read(&path)?,
            };
            let patched = super::patch::apply(&original, &path.display().to_string(), &pname, &body)?;
            src.replaced.push((rel, patched));
        }
    }
    let objects = src.build().map_err(|e| CliError::Kernel(e.to_string()))?;
    KernelHarness::new(objects, HarnessOptions::default()).map_err(|e| CliError::Kernel(e.to_string()))
}

fn run_side(side: &TreeSide, req: &TreeRequest) -> Result<Vec<(EntryKind, PathRun)>, CliError> {
    let h = build(side)?;
    let mut out = Vec::new();
    for &kind in &req.entries {
        let run = h
            .run_kind(kind, req.calls, Vec::new())
            .map_err(|e| CliError::Kernel(format!("{} ({} path): {e}", side.label, kind.name())))?;
        out.push((kind, run));
    }
    Ok(out)
}

fn row(kind: EntryKind, run: &PathRun) -> serde_json::Value {
    let last = run.trips.last();
    serde_json::json!({
        "entry": kind.name(),
        "calls": run.trips.len(),
        "cycles_per_call": run.mean_cycles(1),
        "instructions_per_call": run.mean_instructions(1),
        "first_call_cycles": run.trips.first().map(|t| t.cycles),
        "r8": last.map(|t| format!("{:#x}", t.r8)),
        "r10": last.map(|t| format!("{:#x}", t.r10)),
        "state": serde_json::to_value(&run.snapshot).unwrap_or_default(),
    })
}

/// Runs the request: one side (`scenario`) or two (`diff`).
///
/// # Errors
/// A tree that does not build, link or run, each error naming file, line or symbol.
pub fn run(req: &TreeRequest) -> Result<String, CliError> {
    let a = run_side(&req.a, req)?;
    let b = match &req.b {
        Some(side) => Some(run_side(side, req)?),
        None => None,
    };
    if req.json {
        let side = |label: &str, runs: &[(EntryKind, PathRun)]| serde_json::json!({ "tree": label, "paths": runs.iter().map(|(k, r)| row(*k, r)).collect::<Vec<_>>() });
        let mut v = serde_json::json!({ "a": side(&req.a.label, &a) });
        if let (Some(b), Some(bs)) = (&b, &req.b) {
            v["b"] = side(&bs.label, b);
        }
        return serde_json::to_string_pretty(&v).map_err(|e| CliError::Kernel(e.to_string()));
    }
    let mut s = String::new();
    let means = |r: &PathRun| (r.mean_cycles(1), r.mean_instructions(1));
    match &b {
        None => {
            s.push_str(&format!(
                "{}: the tree's ivt.S, entry.S, fsys.S and gate.S, assembled and linked by acctemu; \
                 {} round trips per entry kind (means leave out the first)\n",
                req.a.label, req.calls
            ));
            s.push_str(&format!(
                "{:<12} {:>12} {:>12} {:>20}\n",
                "entry", "cycles/call", "insns/call", "r8 (last call)"
            ));
            for (k, r) in &a {
                let (c, i) = means(r);
                let r8 = r.trips.last().map_or(0, |t| t.r8);
                s.push_str(&format!("{:<12} {c:>12.1} {i:>12.1} {r8:>#20x}\n", k.name()));
            }
        }
        Some(b) => {
            let lb = req.b.as_ref().map_or("", |x| x.label.as_str());
            s.push_str(&format!("A = {}\nB = {}\n", req.a.label, lb));
            s.push_str(&format!(
                "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
                "entry", "A cycles", "B cycles", "delta", "A insns", "B insns", "delta"
            ));
            for ((k, ra), (_, rb)) in a.iter().zip(b) {
                let ((ca, ia), (cb, ib)) = (means(ra), means(rb));
                s.push_str(&format!(
                    "{:<12} {ca:>10.1} {cb:>10.1} {:>+10.1} {ia:>10.1} {ib:>10.1} {:>+10.1}\n",
                    k.name(),
                    cb - ca,
                    ib - ia
                ));
            }
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multi_file_patch_splits_per_file() {
        let p =
            "--- a/x/one.S\n+++ b/x/one.S\n@@ -1,1 +1,1 @@\n-a\n+b\n--- a/two.h\n+++ b/two.h\n@@ -1 +1 @@\n-c\n+d\n";
        let parts = split_patch(p);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].0, "x/one.S");
        assert!(parts[0].1.starts_with("--- a/x/one.S") && parts[0].1.ends_with("+b\n"));
        assert_eq!(parts[1].0, "two.h");
    }

    #[test]
    fn catalogue_names_outside_6_1_are_not_trees() {
        assert!(catalogue_side("ia64/syscall/v2").unwrap().is_none());
        assert!(matches!(catalogue_side("ia64/linux-6.1/v9"), Err(CliError::Usage(_))));
    }
}
