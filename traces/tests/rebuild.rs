//! `traces::rebuild` against the build scripts: an unchanged rebuild of every compiled trace is
//! its committed object byte for byte (live where the toolchain that built them is installed;
//! required when `ACCTEMU_REQUIRE_ORACLES=1`), the shell reads the flag files as Rust does, and
//! a patch or define really changes what is compiled.

use std::process::Command;

use traces::rebuild::{rebuild, run_tool, Change, PatchText, RebuildError, Tool, Toolchain};
use traces::{Arch, Trace};

mod oracles;
use oracles::{oracle, required};

fn compiled(arch: Arch) -> impl Iterator<Item = &'static Trace> {
    traces::catalogue().iter().filter(move |t| t.arch == arch)
}

/// Whether `arch`'s installed toolchain built the committed objects; a missing tool or
/// another version skips (fails when the oracles are required).
fn toolchain_here(arch: Arch) -> bool {
    let tc = Toolchain::of(arch).expect("a compiled arch");
    let tools = std::iter::once(&tc.cc).chain(tc.ld.as_ref());
    if tools.map(|t| oracle(&t.program)).any(|found| found.is_none()) {
        return false;
    }
    let same = tc.matches_committed("toolchain").expect("the toolchain runs");
    assert!(same || !required(), "{arch:?}: the installed toolchain is not {:?}", tc.recorded);
    same
}

fn unchanged() -> Change<'static> {
    Change { patch: None, defines: &[] }
}

#[test]
fn an_unchanged_rebuild_is_the_committed_object() {
    for arch in [Arch::X86_64, Arch::S390x] {
        if !toolchain_here(arch) {
            continue;
        }
        for t in compiled(arch) {
            let built = rebuild(t, &unchanged()).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                t.object == Some(built.object.as_slice()),
                "{}: the rebuild differs from the committed object",
                t.name
            );
            assert!(built.hunks.is_empty());
        }
    }
}

#[test]
fn the_shell_reads_the_flag_files_as_rust_does() {
    let Some(sh) = oracle("sh") else { return };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (arch, sub) in [(Arch::X86_64, "x86"), (Arch::S390x, "s390")] {
        let tc = Toolchain::of(arch).expect("a compiled arch");
        let file = dir.join(sub).join("cflags");
        let script = "set -eu; . \"$1\"; printf '%s\\n' $CFLAGS; echo --; printf '%s\\n' ${LDFLAGS:-}";
        let out = Command::new(&sh).args(["-c", script, "sh"]).arg(&file).output().expect("run sh");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let (cflags, ldflags) = text.split_once("--\n").expect("separator");
        assert_eq!(cflags.lines().collect::<Vec<_>>(), tc.cflags, "{sub}/cflags");
        assert_eq!(ldflags.lines().filter(|l| !l.is_empty()).collect::<Vec<_>>(), tc.ldflags, "{sub}/cflags");
    }
}

#[test]
fn a_define_and_a_patch_change_the_object() {
    if !toolchain_here(Arch::X86_64) {
        return;
    }
    let p3 = traces::find("x86/nohz-syscall/patch3").expect("patch3");
    // kernel.h's `#ifndef ACCTEMU_NATIVE_USER` drops the cli of local_irq_save.
    let native = rebuild(p3, &Change { patch: None, defines: &["ACCTEMU_NATIVE_USER".into()] }).expect("builds");
    assert!(p3.object != Some(native.object.as_slice()));
    assert_eq!(native.defines, [("PATCHES".to_string(), "3".to_string()), ("ACCTEMU_NATIVE_USER".into(), "1".into())]);
    let patch = "--- a/traces/x86/kernel.h\n+++ b/traces/x86/kernel.h\n@@ -10,2 +10,3 @@\n #ifndef ACCTEMU_X86_KERNEL_H\n #define ACCTEMU_X86_KERNEL_H\n+#define ACCTEMU_NATIVE_USER 1\n";
    let patched = rebuild(p3, &Change { patch: Some(PatchText { name: "native.diff", text: patch }), defines: &[] })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(patched.hunks, ["kernel.h: hunk #1 at 10"]);
    assert_eq!(patched.object, native.object, "the same macro from a patch or from -D");
}

#[test]
fn compiler_errors_and_unbound_symbols_are_reported() {
    if !toolchain_here(Arch::X86_64) {
        return;
    }
    let p3 = traces::find("x86/nohz-syscall/patch3").expect("patch3");
    let broken = rebuild(p3, &Change { patch: None, defines: &["PATCHES=1+".into()] });
    let broken = broken.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(broken.starts_with("x86/nohz-syscall/patch3: rebuilding failed: `gcc -O2 "), "{broken}");
    assert!(broken.contains("nohz_syscall.c:"), "gcc's diagnostics follow: {broken}");
    let rename = "--- a/nohz_syscall.c\n+++ b/nohz_syscall.c\n@@ -860,4 +860,4 @@\n-void tick_accounting(struct task_struct *t, int user_tick)\n+void tick_accounting2(struct task_struct *t, int user_tick)\n";
    let text = p3.source.lines().collect::<Vec<_>>();
    let at = text.iter().position(|l| l.starts_with("void tick_accounting(")).expect("tick_accounting") + 1;
    let rename = rename.replace("@@ -860,4 +860,4 @@", &format!("@@ -{at},1 +{at},1 @@"));
    let e = rebuild(p3, &Change { patch: Some(PatchText { name: "rename.diff", text: &rename }), defines: &[] }).err();
    assert!(matches!(e, Some(RebuildError::Unbound { symbol: "tick_accounting", path: "tick", .. })), "{e:?}");
    assert_eq!(
        e.map(|e| e.to_string()).unwrap_or_default(),
        "x86/nohz-syscall/patch3: the rebuilt object does not define `tick_accounting`, which the trace binds to \
         its tick path (a rebuilt trace keeps its harness and bindings)"
    );
}

#[test]
fn a_missing_program_names_its_package() {
    let tool = Tool {
        program: "acctemu-no-such-cc".into(),
        role: "compiler",
        package: "gcc-s390x-linux-gnu",
        env: "ACCTEMU_CC_S390",
    };
    let e = run_tool("s390/vtime/delayed", &tool, &[], std::path::Path::new(".")).unwrap_err().to_string();
    assert_eq!(
        e,
        "s390/vtime/delayed: the source changed, so the committed object cannot be used and the trace must be \
         rebuilt, but the compiler `acctemu-no-such-cc` is not installed (Debian package `gcc-s390x-linux-gnu`; \
         ACCTEMU_CC_S390 names another)"
    );
}
