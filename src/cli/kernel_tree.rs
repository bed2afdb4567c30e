//! `acctemu scenario --tree DIR` and `acctemu diff --tree DIR [--patch P | --tree-b DIR2]`:
//! a Linux ia64 kernel tree's own entry files (ivt.S, entry.S, fsys.S, gate.S) preprocessed,
//! assembled and linked by acctemu with stubs for the C they call, each entry kind run from
//! user mode back to user mode (`arch_ia64::kernel`), cycles and instructions per call.
//!
//! `--format json` gives, per entry kind, the means and the register state at the last
//! return to user mode.
//!
//! Unless `--paths-only`, the accounting check follows
//! (`arch_ia64::kernel_c::check`): seed 004's Unixbench loop with ticks and task switches,
//! cycles and instructions per call with the entry path each takes, true against accounted
//! utime/stime with the verdict, where the time goes and why. A diff also checks side A's
//! tree with the accounting config off, and gives each side's overhead over it. This file
//! only formats what the library measures.
//!
//! Also the catalogue names `ia64/linux-6.1/{none,v1,v2}`: the configs of
//! `traces/ia64/linux-6.1/` on the installed 6.1 tree (`ACCTEMU_LINUX_TREE`, else
//! `/usr/src/linux-source-6.1`); v1's files are made in memory by [`super::seed004_v1`].

mod mail;

use super::CliError;
use arch_ia64::kernel::harness::{HarnessOptions, KernelHarness};
use arch_ia64::kernel::paths::PathRun;
use arch_ia64::kernel::{EntryKind, KernelSources};
use arch_ia64::kernel_c::check::{self, AccountingCheck, CheckDiff, CheckOptions};
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
    /// A config's text, named by its label, instead of `config` (the catalogue's).
    pub config_text: Option<(String, String)>,
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
    /// A diff laid out for a mail: plain ASCII of at most 72 columns (`mail.rs`).
    pub mail: bool,
    /// Run the accounting check after the paths.
    pub accounting: bool,
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

/// The side a catalogue name `ia64/linux-6.1/VERSION` names, if it is one. v1's files are
/// seed 004's patch reversed on the installed tree, made in memory.
///
/// # Errors
/// No tree installed; the patch does not reverse on it.
pub fn catalogue_side(name: &str) -> Result<Option<TreeSide>, CliError> {
    let Some(version) = name.strip_prefix("ia64/linux-6.1/") else { return Ok(None) };
    let config = match version {
        "none" => CONFIG_NONE,
        "v2" | "v1" => CONFIG_V2,
        other => return Err(CliError::Usage(format!("no trace ia64/linux-6.1/{other}: none, v1 and v2 exist"))),
    };
    let tree = installed_tree()?;
    let replaced = if version == "v1" {
        let v1 = super::seed004_v1::v1_files(&tree).map_err(|e| CliError::Kernel(format!("{name}: {e}")))?;
        v1.files.into_iter().map(|f| (f.path, f.text)).collect()
    } else {
        Vec::new()
    };
    Ok(Some(TreeSide {
        tree,
        config_text: Some((
            format!("traces/ia64/linux-6.1/{}.config", if version == "none" { "none" } else { "v2" }),
            config.to_string(),
        )),
        replaced,
        label: name.to_string(),
        ..TreeSide::default()
    }))
}

/// Side A's tree as shipped with the accounting config off: what a diff's overheads are
/// measured against.
fn none_side(a: &TreeSide) -> TreeSide {
    TreeSide {
        tree: a.tree.clone(),
        config_text: Some(("traces/ia64/linux-6.1/none.config".into(), CONFIG_NONE.to_string())),
        defines: a.defines.clone(),
        label: if a.label.starts_with("ia64/linux-6.1/") {
            "ia64/linux-6.1/none".to_string()
        } else {
            format!("{} (accounting off)", a.tree.display())
        },
        ..TreeSide::default()
    }
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

fn sources(side: &TreeSide) -> Result<KernelSources, CliError> {
    let (config_name, config_text) = match &side.config_text {
        Some((n, t)) => (n.clone(), t.clone()),
        None => {
            let config_path = side.config.clone().unwrap_or_else(|| side.tree.join(".config"));
            let text = if config_path.is_file() { read(&config_path)? } else { CONFIG_V2.to_string() };
            (config_path.display().to_string(), text)
        }
    };
    let config =
        KernelConfig::parse(&config_name, &config_text).map_err(|e| CliError::Kernel(format!("kernel config: {e}")))?;
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
    Ok(src)
}

/// One side measured: its paths, and its accounting check when asked for.
struct Measured {
    paths: Vec<(EntryKind, PathRun)>,
    check: Option<AccountingCheck>,
}

fn check_options() -> CheckOptions {
    // The CLI's own table has the entry kinds.
    CheckOptions { path_calls: 0, ..CheckOptions::default() }
}

fn run_side(side: &TreeSide, req: &TreeRequest) -> Result<Measured, CliError> {
    let src = sources(side)?;
    let objects = src.build().map_err(|e| CliError::Kernel(e.to_string()))?;
    let h = KernelHarness::new(objects, HarnessOptions::default()).map_err(|e| CliError::Kernel(e.to_string()))?;
    let mut paths = Vec::new();
    for &kind in &req.entries {
        let run = h
            .run_kind(kind, req.calls, Vec::new())
            .map_err(|e| CliError::Kernel(format!("{} ({} path): {e}", side.label, kind.name())))?;
        paths.push((kind, run));
    }
    let check = if req.accounting {
        Some(
            check::check_built(&src, &h, &check_options())
                .map_err(|e| CliError::Kernel(format!("{} (accounting check): {e}", side.label)))?,
        )
    } else {
        None
    };
    Ok(Measured { paths, check })
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
        Some(side) => Some((side, run_side(side, req)?)),
        None => None,
    };
    // A diff's overheads are against side A's tree with the accounting config off.
    let none = match (&b, req.accounting) {
        (Some(_), true) => {
            let side = none_side(&req.a);
            let check = run_side(&side, &TreeRequest { entries: Vec::new(), ..req.clone() })?.check;
            check.map(|c| (side.label, c))
        }
        _ => None,
    };
    let delta = match (&none, &a.check, &b) {
        (Some((_, n)), Some(ca), Some((_, Measured { check: Some(cb), .. }))) => {
            Some(check::diff(n, ca, cb).map_err(CliError::Kernel)?)
        }
        _ => None,
    };
    if req.json {
        let side = |label: &str, m: &Measured| {
            let mut v = serde_json::json!({
                "tree": label,
                "paths": m.paths.iter().map(|(k, r)| row(*k, r)).collect::<Vec<_>>(),
            });
            if let Some(c) = &m.check {
                v["accounting"] = check_json(c);
            }
            v
        };
        let mut v = serde_json::json!({ "a": side(&req.a.label, &a) });
        if let Some((bs, mb)) = &b {
            v["b"] = side(&bs.label, mb);
        }
        if let Some((label, n)) = &none {
            v["none"] = serde_json::json!({ "tree": label, "accounting": check_json(n) });
        }
        if let Some(d) = &delta {
            v["diff"] = diff_json(d);
        }
        return serde_json::to_string_pretty(&v).map_err(|e| CliError::Kernel(e.to_string()));
    }
    if let (true, Some((bs, mb))) = (req.mail, &b) {
        let text = mail::render(req, bs, &a, mb, none.as_ref().map(|(l, _)| l.as_str()), delta.as_ref());
        return Ok(emu_core::diff::render::mail(&text));
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
            for (k, r) in &a.paths {
                let (c, i) = means(r);
                let r8 = r.trips.last().map_or(0, |t| t.r8);
                s.push_str(&format!("{:<12} {c:>12.1} {i:>12.1} {r8:>#20x}\n", k.name()));
            }
            if let Some(c) = &a.check {
                s.push('\n');
                s.push_str(&check_text(&req.a.label, c));
            }
        }
        Some((bs, mb)) => {
            s.push_str(&format!("A = {}\nB = {}\n", req.a.label, bs.label));
            if !req.entries.is_empty() {
                s.push_str(&format!(
                    "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
                    "entry", "A cycles", "B cycles", "delta", "A insns", "B insns", "delta"
                ));
            }
            for ((k, ra), (_, rb)) in a.paths.iter().zip(&mb.paths) {
                let ((ca, ia), (cb, ib)) = (means(ra), means(rb));
                s.push_str(&format!(
                    "{:<12} {ca:>10.1} {cb:>10.1} {:>+10.1} {ia:>10.1} {ib:>10.1} {:>+10.1}\n",
                    k.name(),
                    cb - ca,
                    ib - ia
                ));
            }
            if let (Some(d), Some((nl, _))) = (&delta, &none) {
                s.push_str(&format!(
                    "\nseed 004's loop, tick-less, kernel cycles per call; none = {nl}\n{:<10} {:<24} {:>9} {:>9} {:>9} {:>9} {:>11} {:>11}\n",
                    "call", "entry", "none", "A", "B", "B - A", "A overhead", "B overhead"
                ));
                for c in &d.calls {
                    s.push_str(&format!(
                        "{:<10} {:<24} {:>9.1} {:>9.1} {:>9.1} {:>+9.1} {:>+11.1} {:>+11.1}\n",
                        c.name,
                        c.entry,
                        c.none,
                        c.a,
                        c.b,
                        c.delta(),
                        c.a_overhead(),
                        c.b_overhead()
                    ));
                }
                match d.ratio {
                    Some(r) => s.push_str(&format!(
                        "(B overhead)/(A overhead) per iteration = {r:.3} (for A = V.1, B = V.2, seed 004 gives 0.670)\n"
                    )),
                    None => s.push_str("(B overhead)/(A overhead): A adds no cycles over none\n"),
                }
            }
            if let Some(c) = &a.check {
                s.push_str(&format!("\n== A: {} ==\n", req.a.label));
                s.push_str(&check_text(&req.a.label, c));
            }
            if let Some(c) = &mb.check {
                s.push_str(&format!("\n== B: {} ==\n", bs.label));
                s.push_str(&check_text(&bs.label, c));
            }
        }
    }
    Ok(s)
}

fn verdict_word(c: &AccountingCheck) -> &'static str {
    if c.run.verdict.correct() {
        "correct (utime and stime within tolerance)"
    } else {
        "WRONG (beyond tolerance)"
    }
}

/// The accounting check as text.
fn check_text(label: &str, c: &AccountingCheck) -> String {
    let r = &c.run;
    let mut s = format!(
        "accounting check of {label}: CONFIG_VIRT_CPU_ACCOUNTING_NATIVE {}, HZ {} on a {} Hz ITC; \
         seed 004's loop (close(dup(0)); getpid(); getuid(); umask(022))\n",
        if c.native { "on" } else { "off" },
        c.config.hz,
        c.config.itc_freq
    );
    let trips = c.calls.first().map_or(0, |x| x.trips);
    s.push_str(&format!("per call, tick-less ({trips} iterations):\n"));
    s.push_str(&format!("{:<10} {:<24} {:>12} {:>12}\n", "call", "entry", "cycles/call", "insns/call"));
    for x in &c.calls {
        s.push_str(&format!("{:<10} {:<24} {:>12.1} {:>12.1}\n", x.name, x.entry, x.cycles, x.instructions));
    }
    s.push_str(&format!(
        "{:<10} {:<24} {:>12.1} {:>12.1}\n",
        "iteration", "all five", c.cycles_per_iteration, c.instructions_per_iteration
    ));
    for x in &c.entries {
        s.push_str(&format!("{:<10} {:<24} {:>12.1} {:>12.1}\n", x.name, x.entry, x.cycles, x.instructions));
    }
    let user_ticks = r.log.ticks.iter().filter(|t| t.1).count();
    s.push_str(&format!(
        "with ticks and task switches: {} cycles, {} instructions, {} kernel entries, {} ticks ({user_ticks} in user \
         mode), {} switches, {} reports to the sinks\n",
        r.cycles,
        r.instructions,
        r.entries,
        r.ticks,
        r.log.switches.len(),
        r.log.reports.len()
    ));
    s.push_str(&format!("verdict: {}\n", verdict_word(c)));
    s.push_str(&r.verdict.to_string());
    let e = &r.stamps;
    if e.unstamped_trips == e.trips {
        s.push_str("stamps: none (thread_info has no accounting fields)\n");
    } else {
        s.push_str(&format!(
            "stamps: {} round trips; kernel cycles on the user side of the ledger: {} before the entry's first \
             stamp, {} after the exit's last, {} in {} trips with no stamp (light-weight fsys)\n",
            e.trips, e.head_cycles, e.tail_cycles, e.unstamped_cycles, e.unstamped_trips
        ));
    }
    s
}

fn cost_json(x: &check::Cost) -> serde_json::Value {
    serde_json::json!({
        "name": x.name,
        "entry": x.entry,
        "trips": x.trips,
        "cycles_per_call": x.cycles,
        "instructions_per_call": x.instructions,
    })
}

/// The accounting check as JSON.
fn check_json(c: &AccountingCheck) -> serde_json::Value {
    let r = &c.run;
    let v = &r.verdict;
    let field = |f: &arch_ia64::kernel_c::truth::FieldVerdict| {
        serde_json::json!({
            "true_ns": f.true_ns,
            "accounted_ns": f.reported_ns,
            "diff_ns": f.diff_ns.to_string(),
            "percent": f.percent(),
            "within_tolerance": f.within,
        })
    };
    serde_json::json!({
        "native": c.native,
        "hz": c.config.hz,
        "itc_freq": c.config.itc_freq,
        "calls": c.calls.iter().map(cost_json).collect::<Vec<_>>(),
        "cycles_per_iteration": c.cycles_per_iteration,
        "instructions_per_iteration": c.instructions_per_iteration,
        "run": {
            "cycles": r.cycles,
            "instructions": r.instructions,
            "kernel_entries": r.entries,
            "ticks": r.ticks,
            "switches": r.log.switches.len(),
            "reports": r.log.reports.len(),
        },
        "verdict": {
            "correct": v.correct(),
            "utime": field(&v.utime),
            "stime": field(&v.stime),
            "tolerance_ns": v.tolerance_ns,
            "off_cpu_cycles": v.off_cpu_cycles,
            "where": v.breakdown.iter().map(|(what, ns)| serde_json::json!({ "what": what, "ns": ns })).collect::<Vec<_>>(),
            "unexplained_ns": v.unexplained_ns.to_string(),
            "reasons": v.reasons,
        },
        "stamps": {
            "trips": r.stamps.trips,
            "head_cycles": r.stamps.head_cycles,
            "tail_cycles": r.stamps.tail_cycles,
            "unstamped_trips": r.stamps.unstamped_trips,
            "unstamped_cycles": r.stamps.unstamped_cycles,
        },
    })
}

fn diff_json(d: &CheckDiff) -> serde_json::Value {
    serde_json::json!({
        "calls": d.calls.iter().map(|c| serde_json::json!({
            "name": c.name,
            "entry": c.entry,
            "none_cycles": c.none,
            "a_cycles": c.a,
            "b_cycles": c.b,
            "delta": c.delta(),
            "a_overhead": c.a_overhead(),
            "b_overhead": c.b_overhead(),
        })).collect::<Vec<_>>(),
        "overhead_ratio_b_over_a": d.ratio,
    })
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
