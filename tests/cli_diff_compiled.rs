//! `acctemu diff --patch` and `-D` on the compiled traces (issue 16): the x86 C and the s390
//! vtime.c are rebuilt with the build scripts' flags (traces::rebuild) and run with their
//! trace's harness. The rebuilds need gcc / s390x-linux-gnu-gcc: without them these tests skip,
//! unless ACCTEMU_REQUIRE_ORACLES=1, when they fail. The compiler-missing error is simulated by
//! pointing ACCTEMU_CC_X86 at a program that does not exist.

mod common;

use common::{oracle, root};
use serde_json::Value;
use std::process::{Command, Output};

const X86_PATCH: &str = "tests/data/patches/x86-exit-clock.diff";
const S390_PATCH: &str = "tests/data/patches/s390-guest-enter-stckf.diff";
const STALE_PATCH: &str = "tests/data/patches/x86-stale.diff";

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_acctemu"));
    cmd.args(args).current_dir(root());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("runs acctemu")
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let o = run(&all, &[]);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("json")
}

/// (path name -> mean cycles, calls) of one side of a diff's JSON.
fn paths(side: &Value) -> Vec<(String, f64, u64)> {
    side["report"]["paths"]
        .as_array()
        .expect("paths")
        .iter()
        .map(|p| {
            let name = p["path"].as_str().unwrap_or_default().to_string();
            (name, p["cycles"]["mean"].as_f64().unwrap_or(-1.0), p["calls"].as_u64().unwrap_or(0))
        })
        .collect()
}

fn mean(side: &Value, path: &str) -> f64 {
    let all = paths(side);
    all.iter().find(|(n, _, _)| n == path).map(|p| p.1).unwrap_or_else(|| panic!("no path {path} in {all:?}"))
}

#[test]
fn an_x86_patch_adds_work_to_the_exit_path_only() {
    if oracle("gcc").is_none() {
        return;
    }
    // Long user phases so that ticks happen too: their path must not change either.
    let args =
        ["diff", "x86/nohz-syscall/patch3", "--patch", X86_PATCH, "--syscalls", "100", "--user-cycles", "100000"];
    let d = json(&args);
    // Named after what it is (issue 18): the trace and the patch, the legend saying how.
    assert_eq!(d["b"]["name"], "patch3+x86-exit-clock.diff");
    assert_eq!(d["b"]["built"], format!("x86/nohz-syscall/patch3 patched by {X86_PATCH}"));
    let (a, b) = (&d["a"], &d["b"]);
    assert!(mean(b, "syscall_exit") > mean(a, "syscall_exit"), "the exit reads the clock once more");
    assert_eq!(mean(b, "syscall_enter"), mean(a, "syscall_enter"));
    assert!(paths(a).iter().any(|(n, _, calls)| n == "tick" && *calls > 0), "{:?}", paths(a));
    assert_eq!(mean(b, "tick"), mean(a, "tick"));
    let text = String::from_utf8_lossy(&run(&args, &[]).stdout).to_string();
    assert!(
        text.contains(&format!(
            "\np3+clock = patch3+x86-exit-clock.diff: x86/nohz-syscall/patch3 patched by {X86_PATCH}\n"
        )),
        "{text}"
    );
}

#[test]
fn a_define_the_c_tests_changes_the_build() {
    if oracle("gcc").is_none() {
        return;
    }
    // kernel.h: `#ifndef ACCTEMU_NATIVE_USER` keeps the cli of local_irq_save; nohz_syscall.c:
    // `#ifdef ACCTEMU_NATIVE_USER` reads a pinned clock instead of rdtsc.
    let d = json(&["diff", "x86/nohz-syscall/patch3", "--b-define", "ACCTEMU_NATIVE_USER", "--syscalls", "50"]);
    assert_eq!(d["b"]["name"], "patch3 (-DACCTEMU_NATIVE_USER)");
    assert_eq!(d["b"]["built"], "x86/nohz-syscall/patch3 built with -DACCTEMU_NATIVE_USER");
    let (a, b) = (&d["a"], &d["b"]);
    assert!(mean(b, "syscall_exit") < mean(a, "syscall_exit"), "no cli, no rdtsc");
    assert!(mean(b, "syscall_enter") < mean(a, "syscall_enter"), "no cli, no rdtsc");
    // -D on both sides rebuilds both: the same define, the same code.
    let d = json(&["diff", "x86/nohz-syscall/patch3", "x86/nohz-syscall/patch1", "-D", "ACCTEMU_NATIVE_USER"]);
    assert_eq!(d["a"]["name"], "patch3 (-DACCTEMU_NATIVE_USER)");
    assert_eq!(d["b"]["name"], "patch1 (-DACCTEMU_NATIVE_USER)");
}

#[test]
fn an_s390_patch_to_vtime_c_adds_work_to_guest_enter_only() {
    if oracle("s390x-linux-gnu-gcc").is_none() || oracle("s390x-linux-gnu-ld").is_none() {
        return;
    }
    let d = json(&["diff", "s390/vtime/delayed", "--patch", S390_PATCH, "--guest", "--syscalls", "100"]);
    assert_eq!(d["b"]["name"], "delayed+s390-guest-enter-stckf.diff");
    assert_eq!(d["b"]["built"], format!("s390/vtime/delayed patched by {S390_PATCH}"));
    let (a, b) = (&d["a"], &d["b"]);
    assert!(mean(b, "guest_enter") > mean(a, "guest_enter"), "one more STCKF");
    assert_eq!(mean(b, "guest_exit"), mean(a, "guest_exit"));
    // The syscall paths are entry.S's: the same patch leaves them alone.
    let d = json(&["diff", "s390/vtime/delayed", "--patch", S390_PATCH, "--syscalls", "100"]);
    for path in ["syscall_enter", "syscall_exit"] {
        assert_eq!(mean(&d["b"], path), mean(&d["a"], path), "{path}");
    }
}

#[test]
fn defines_that_select_a_catalogued_version_need_no_compiler() {
    let missing = [("ACCTEMU_CC_X86", "acctemu-no-such-gcc")];
    let o = run(&["diff", "x86/nohz-syscall/patch3", "--b-define", "PATCHES=4", "--syscalls", "50"], &missing);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains(
            "patch4 = x86/nohz-syscall/patch4: x86/nohz-syscall/patch3 built with -DPATCHES=4, the same build (its \
             harness and counters)"
        ),
        "{out}"
    );
    // The same as naming patch4: its committed object, its harness.
    let named = run(&["diff", "x86/nohz-syscall/patch3", "x86/nohz-syscall/patch4", "--syscalls", "50"], &[]);
    let named = String::from_utf8_lossy(&named.stdout);
    // The per-path rows (the column heads name the versions differently).
    let body = |s: &str| {
        s.lines()
            .skip_while(|l| !l.starts_with("cycles per"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&out), body(&named));
}

#[test]
fn a_missing_compiler_is_named_with_its_package() {
    let missing = [("ACCTEMU_CC_X86", "acctemu-no-such-gcc")];
    let o = run(&["diff", "x86/nohz-syscall/patch3", "--patch", X86_PATCH], &missing);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.trim_end(),
        "acctemu: error: x86/nohz-syscall/patch3: the source changed, so the committed object cannot be used and the \
         trace must be rebuilt, but the compiler `acctemu-no-such-gcc` is not installed (Debian package `gcc`; \
         ACCTEMU_CC_X86 names another)"
    );
    assert!(o.stdout.is_empty());
    let missing = [("ACCTEMU_LD_S390", "acctemu-no-such-ld")];
    if oracle("s390x-linux-gnu-gcc").is_some() {
        let o = run(&["diff", "s390/vtime/delayed", "--patch", S390_PATCH], &missing);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("the linker `acctemu-no-such-ld` is not installed (Debian package `binutils-s390x-linux-gnu`"),
            "{err}"
        );
    }
}

#[test]
fn a_patch_that_does_not_apply_names_its_hunk() {
    // Reported before any compiler is looked for.
    let missing = [("ACCTEMU_CC_X86", "acctemu-no-such-gcc")];
    let o = run(&["diff", "x86/nohz-syscall/patch3", "--patch", STALE_PATCH], &missing);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim_end(),
        format!("acctemu: error: {STALE_PATCH}:3: hunk #1 does not apply to nohz_syscall.c of x86/nohz-syscall/patch3")
    );
    // A patch of a file the trace is not built from.
    let o = run(&["diff", "s390/vtime/delayed", "--patch", X86_PATCH], &[]);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim_end(),
        format!(
            "acctemu: error: {X86_PATCH}:1: `b/traces/x86/nohz_syscall.c` is not a source of s390/vtime/delayed \
             (its sources: entry.S, vtime.c, lowcore.h)"
        )
    );
}

#[test]
fn a_patch_that_removes_a_bound_symbol_is_refused_naming_it() {
    if oracle("gcc").is_none() {
        return;
    }
    let o = run(&["diff", "x86/nohz-syscall/patch3", "--patch", "tests/data/patches/x86-rename-tick.diff"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim_end(),
        "acctemu: error: x86/nohz-syscall/patch3: the rebuilt object does not define `tick_accounting`, which the \
         trace binds to its tick path (a rebuilt trace keeps its harness and bindings)"
    );
}

#[test]
fn a_compiler_error_is_shown_with_gccs_diagnostics() {
    if oracle("gcc").is_none() {
        return;
    }
    let o = run(&["diff", "x86/nohz-syscall/patch3", "--b-define", "PATCHES=1+"], &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("acctemu: error: x86/nohz-syscall/patch3: rebuilding failed: `gcc -O2 "), "{err}");
    assert!(err.contains("nohz_syscall.c:") && err.contains("error"), "{err}");
}

#[test]
fn another_gcc_rebuilds_the_unchanged_side_too() {
    let (Some(gcc), Some(sh)) = (oracle("gcc"), oracle("sh")) else { return };
    // A gcc that calls itself 99.0.0: the committed objects (another gcc's) are not comparable
    // with its output, so A is rebuilt from its unchanged source as well.
    let dir = common::scratch_dir("fake-gcc");
    let fake = dir.join("fake-gcc");
    let script = format!(
        "#!{}\nif [ \"$1\" = -dumpfullversion ]; then echo 99.0.0; exit 0; fi\nexec {} \"$@\"\n",
        sh.display(),
        gcc.display()
    );
    std::fs::write(&fake, script).expect("write fake gcc");
    let chmod = Command::new("chmod").arg("+x").arg(&fake).status().expect("chmod");
    assert!(chmod.success());
    let fake_cc = fake.display().to_string();
    let args = ["diff", "x86/nohz-syscall/patch3", "--patch", X86_PATCH, "--syscalls", "50", "--format", "json"];
    let o = run(&args, &[("ACCTEMU_CC_X86", &fake_cc)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let d: Value = serde_json::from_slice(&o.stdout).expect("json");
    let recorded = std::fs::read_to_string(root().join("traces/x86/obj/gcc-version")).expect("gcc-version");
    let note =
        format!("rebuilt: `{fake_cc}` here is 99.0.0, the committed objects were built with {}", recorded.trim());
    assert_eq!(d["a"]["name"], "x86/nohz-syscall/patch3");
    assert_eq!(d["a"]["built"], format!("x86/nohz-syscall/patch3 ({note})"));
    assert_eq!(d["b"]["name"], "patch3+x86-exit-clock.diff");
    // The fake is the installed gcc underneath (the committed objects' where the oracles are
    // required): its A is the committed object's A.
    let committed = json(&["diff", "x86/nohz-syscall/patch3", "--patch", X86_PATCH, "--syscalls", "50"]);
    assert_eq!(d["a"]["report"], committed["a"]["report"]);
    let _ = std::fs::remove_dir_all(&dir);
}
