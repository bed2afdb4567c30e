//! What a trace is built from, and how a change alters it: its files patched, its defines
//! extended.

use super::RebuildError;
use crate::patch_tree::{self, ApplyOptions};
use crate::trace::{Arch, Trace};

/// The headers and assembly the traces' C includes or links with, besides [`Trace::source`].
const X86_KERNEL_H: &str = include_str!("../../x86/kernel.h");
const S390_ENTRY_S: &str = include_str!("../../s390/entry.S");
const S390_LOWCORE_H: &str = include_str!("../../s390/lowcore.h");

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
pub(super) struct Sources {
    pub(super) files: Vec<(String, String)>,
    /// The files compiled, in the order `build.sh` links them.
    pub(super) units: Vec<String>,
}

pub(super) fn sources(trace: &Trace) -> Result<Sources, RebuildError> {
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
pub(super) fn apply_patch(
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
pub(super) fn merged_defines(trace: &Trace, extra: &[String]) -> Result<Vec<(String, String)>, RebuildError> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
