//! The sides of a diff: which needs a rebuild, which is a catalogued version's committed object.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::build::rebuild;
use super::sources::{apply_patch, merged_defines, sources, Change};
use super::toolchain::Toolchain;
use super::RebuildError;
use crate::trace::Trace;

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
        let here = tc.version(side.trace.name)?;
        let recorded = tc.recorded.trim();
        if here.as_deref().map(str::trim) != Some(recorded) {
            let list = |v: &str| v.lines().map(str::trim).collect::<Vec<_>>().join(", ");
            let here = here.as_deref().map_or_else(|| "of an unknown version".to_string(), list);
            foreign = Some(format!(
                "rebuilt: `{}` here is {here}, the committed objects were built with {}",
                tc.cc.program,
                list(recorded)
            ));
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
}
