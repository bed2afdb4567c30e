//! `acctemu diff --format mail` on every kind of diff (issue 18): plain objects and sources on
//! each core, a catalogue trace or a file changed by `--patch`, and kernel trees. Each is
//! plain ASCII of at most 72 columns and starts with a headline saying which side is cheaper,
//! by how much and in ns at the model's clock, then the legend naming each side after what it
//! is, the model line and the table; with accounting, the verdicts.

mod common;

use common::acctemu;
use std::path::PathBuf;

fn ok(args: &[&str]) -> String {
    let o = acctemu(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every line fits a mail: ASCII, at most 72 columns.
fn fits_a_mail(out: &str) {
    assert!(!out.is_empty());
    for line in out.lines() {
        assert!(line.chars().count() <= 72, "{} columns: {line}\n{out}", line.chars().count());
        assert!(line.is_ascii(), "not ASCII: {line}\n{out}");
    }
}

/// The text with the mail's line breaks undone (a continued line is indented four more).
fn unwrapped(out: &str) -> String {
    let mut s = String::new();
    for line in out.lines() {
        let indent = line.len() - line.trim_start().len();
        let previous = s.lines().last().map_or(0, |l: &str| l.len() - l.trim_start().len());
        if !s.is_empty() && indent >= previous + 4 && !line.trim().is_empty() && !s.ends_with("\n\n") {
            s.pop();
            s.push(' ');
            s.push_str(line.trim_start());
        } else {
            s.push_str(line);
        }
        s.push('\n');
    }
    s
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("cli-diff-mail-{name}"))
}

#[test]
fn a_plain_ia64_source_under_two_defines() {
    let src = "tests/data/ia64/account_sys_enter.S";
    let out = ok(&[
        "diff",
        src,
        "--b-define",
        "ACCOUNTING_V2",
        "--harness",
        "tests/data/ia64/account_sys_enter.toml",
        "--format",
        "mail",
    ]);
    fits_a_mail(&out);
    assert!(out.starts_with("B costs 1 cycle more than A (+14.3%, 0.7 ns): 8 against 7 per run.\n"), "{out}");
    let flat = unwrapped(&out);
    assert!(flat.contains(&format!("\nA = {src}\n")), "{flat}");
    assert!(
        flat.contains(&format!("\nB = account_sys_enter.S (-DACCOUNTING_V2): {src} built with -DACCOUNTING_V2\n")),
        "{flat}"
    );
    assert!(
        flat.contains("\nmodel: Itanium 2 (Madison) at 1.5 GHz; one run each from the default entry under "),
        "{flat}"
    );
    assert!(out.contains("\n  cycles                                7          8         +1\n"), "{out}");
    assert!(out.contains("Final state: 10 registers differ.\n"), "{out}");
    assert!(out.contains("\nr23: 0x0000000000000000 -> 0x0000000000002904\n"), "{out}");
    // The timelines (over 100 columns) stay in the text form.
    assert!(!out.contains("timeline A:") && out.contains("(the timelines: --format text)"), "{out}");
}

#[test]
fn plain_x86_objects() {
    let out = ok(&[
        "diff",
        "arch-x86/tests/data/ops.o",
        "arch-x86/tests/data/ops_pic.o",
        "--entry",
        "calls",
        "--set",
        "rdi=3",
        "--set",
        "rsi=5",
        "--set",
        "rdx=7",
        "--format",
        "mail",
    ]);
    fits_a_mail(&out);
    assert!(out.starts_with("B costs 3 cycles more than A (+11.1%, 0.8 ns): 30 against 27 per run.\n"), "{out}");
    let flat = unwrapped(&out);
    assert!(
        flat.contains("\nmodel: x86-64 (Zen 4 model) at 3.651 GHz; one run each from `calls` under the default harness, --set rdi=3 rsi=5 rdx=7\n"),
        "{flat}"
    );
    assert!(out.contains("\nby instruction group (largest changes first):\n  calls#"), "{out}");
}

#[test]
fn a_plain_s390x_source_under_two_defines() {
    if common::oracle("s390x-linux-gnu-gcc").is_none() {
        return;
    }
    let src = "tests/data/run_source/add3_s390.S";
    let out = ok(&[
        "diff",
        src,
        "--b-define",
        "PLUS_ONE",
        "--arch",
        "s390x",
        "--set",
        "r2=1",
        "--set",
        "r3=2",
        "--format",
        "mail",
    ]);
    fits_a_mail(&out);
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("B costs ") || first.starts_with("B saves ") || first.starts_with("B and A cost"),
        "{out}"
    );
    assert!(first.contains(" ns") || first.contains("cost the same"), "{out}");
    let flat = unwrapped(&out);
    assert!(flat.contains("\nmodel: s390x (z13 model) at 5 GHz; one run each from the default entry"), "{flat}");
    assert!(flat.contains("\nB = add3_s390.S (-DPLUS_ONE): "), "{flat}");
    assert!(out.contains("\nr2: 0x0000000000000003 -> 0x0000000000000004\n"), "{out}");
}

/// A plain source changed by `--patch`: B is named after the patch.
#[test]
fn a_plain_source_patched() {
    let dir = scratch("plain-patch");
    let src = "tests/data/ia64/account_sys_enter.S";
    let original = std::fs::read_to_string(common::root().join(src)).expect("source");
    let marker = "\tld8 r18=[r16]";
    let at = original.find(marker).expect("a load");
    let changed = format!("{};;\n{}", &original[..at], &original[at..]);
    let patch = diffy::create_patch(&original, &changed).to_string();
    let p = dir.join("one-more-stop.diff");
    std::fs::write(&p, patch).expect("patch");
    let p = p.display().to_string();
    let out =
        ok(&["diff", src, "--patch", &p, "--harness", "tests/data/ia64/account_sys_enter.toml", "--format", "mail"]);
    fits_a_mail(&out);
    let flat = unwrapped(&out);
    assert!(flat.contains(&format!("\nB = account_sys_enter.S+one-more-stop.diff: {src} patched by {p}\n")), "{flat}");
    assert!(out.lines().next().is_some_and(|l| l.contains(" A ") && l.ends_with("per run.")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A catalogue trace changed by `--patch`: the side is `v2+ia64-v2-stop.diff`, its column
/// `v2+stop`, and the verdicts of both sides follow the table.
#[test]
fn a_catalogue_trace_patched() {
    let out = ok(&[
        "diff",
        "ia64/syscall/v2",
        "--patch",
        "tests/data/patches/ia64-v2-stop.diff",
        "--syscalls",
        "200",
        "--format",
        "mail",
    ]);
    fits_a_mail(&out);
    assert!(out.starts_with("v2+stop and v2 cost the same: 141.0 cycles per system call.\n"), "{out}");
    let flat = unwrapped(&out);
    assert!(
        flat.contains(
            "\nv2+stop = v2+ia64-v2-stop.diff: ia64/syscall/v2 patched by tests/data/patches/ia64-v2-stop.diff\n"
        ),
        "{flat}"
    );
    assert!(out.contains("\ncycles per system call         v2   v2+stop    change    ratio\n"), "{out}");
    assert!(out.contains("\n  v2 correct: utime ") && out.contains("\n  v2+stop correct: utime "), "{out}");
}

/// A side whose defines make another catalogued version is named after it.
#[test]
fn a_redefined_side_that_is_a_catalogued_version_is_named_after_it() {
    let out = ok(&["diff", "ia64/syscall/v1", "--b-define", "ACCOUNTING_V2", "--syscalls", "200", "--format", "mail"]);
    fits_a_mail(&out);
    assert!(out.starts_with("v2 saves 18.0 cycles per system call (-11.3%, 12.0 ns) over v1"), "{out}");
    let flat = unwrapped(&out);
    assert!(
        flat.contains(
            "\nv2 = ia64/syscall/v2: ia64/syscall/v1 built with -DACCOUNTING_V2, the same build (its harness and counters)\n"
        ),
        "{flat}"
    );
}

/// A kernel tree changed by `--patch`, entry paths only: the headline compares the first
/// entry kind's round trip.
#[test]
fn a_kernel_tree_patched() {
    let Some(tree) = common::kernel_source() else { return };
    let dir = scratch("tree-patch");
    let rel = "arch/ia64/kernel/entry.S";
    let original = std::fs::read_to_string(tree.join(rel)).expect("entry.S");
    let marker = "\tcmp.eq pLvSys,p0=r0,r0\t\t// pLvSys=1: leave from syscall\n(pUStk)";
    let at = original.find(marker).expect("the 6.1 text");
    let changed = format!("{}\tnop.m 0\n\t;;\n{}", &original[..at], &original[at..]);
    let patch = diffy::create_patch(&original, &changed).to_string();
    let patch =
        patch.replacen("--- original", &format!("--- a/{rel}"), 1).replacen("+++ modified", &format!("+++ b/{rel}"), 1);
    let p = dir.join("leave-stop.diff");
    std::fs::write(&p, &patch).expect("patch");
    let (t, p) = (tree.display().to_string(), p.display().to_string());
    let out = ok(&[
        "diff",
        "--tree",
        &t,
        "--kernel-config",
        "traces/ia64/linux-6.1/v2.config",
        "--patch",
        &p,
        "--calls",
        "3",
        "--entry-kind",
        "break",
        "--entry-kind",
        "fsys-getpid",
        "--paths-only",
        "--format",
        "mail",
    ]);
    fits_a_mail(&out);
    let first = out.lines().next().unwrap_or_default();
    assert!(first.contains("cycles per break round trip"), "{out}");
    let flat0 = unwrapped(&out);
    assert!(flat0.contains("\nInstructions per break round trip: B "), "{flat0}");
    assert!(flat0.contains(&format!("\nA = {} with traces/ia64/linux-6.1/v2.config\n", tree.display())), "{flat0}");
    let flat = unwrapped(&out);
    let name = format!("{}+leave-stop.diff", tree.file_name().and_then(|n| n.to_str()).unwrap_or_default());
    assert!(
        flat.contains(&format!("\nB = {name}: {t} with traces/ia64/linux-6.1/v2.config, patched by {p}\n")),
        "{flat}"
    );
    assert!(
        flat.contains("\nmodel: Itanium 2 (Madison) at 1.5 GHz; the trees' ivt.S, entry.S, fsys.S and gate.S"),
        "{flat}"
    );
    let row = out.lines().find(|l| l.starts_with("  break ")).unwrap_or_else(|| panic!("{out}"));
    assert_eq!(row.split_whitespace().last(), Some("+3.0"), "three more instructions: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The catalogue's 6.1 versions with the accounting check: overhead ratio and both verdicts.
#[test]
fn the_kernel_trees_v1_and_v2() {
    if common::kernel_source().is_none() {
        return;
    }
    // The catalogue names read the tree from ACCTEMU_LINUX_TREE or /usr/src.
    let tree = common::kernel_source().expect("tree");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .current_dir(common::root())
        .env("ACCTEMU_LINUX_TREE", &tree)
        .args(["diff", "ia64/linux-6.1/v1", "ia64/linux-6.1/v2", "--calls", "2", "--format", "mail"])
        .output()
        .expect("runs acctemu");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    fits_a_mail(&out);
    let flat = unwrapped(&out);
    assert!(flat.starts_with("v2 saves ") && flat.contains(" cycles per iteration of seed 004's loop ("), "{flat}");
    assert!(flat.contains(" ns) over v1 ("), "{flat}");
    assert!(flat.contains("\nOverhead over none: v2 +"), "{flat}");
    assert!(flat.contains("\nAgainst the true time: v1 "), "{flat}");
    assert!(flat.contains("\nnone = ia64/linux-6.1/none (the accounting config off)\n"), "{flat}");
    assert!(out.contains("\n  iteration "), "{out}");
    assert!(out.contains("\n  utime ") && out.contains("\n  stime "), "{out}");
    assert_eq!(flat.matches("; tolerance ").count(), 2, "{flat}");
}

/// The README's mail excerpt of the main job is what `acctemu diff --format mail` prints:
/// every line of it (`[...]` marks what it leaves out) is a line of the output, in order.
#[test]
fn the_readme_shows_the_main_job_as_a_mail() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README.md");
    let setup = &readme[readme.find("## Set-up").expect("Set-up")..];
    let mail = &setup[setup.find("--format mail` lays").expect("the mail paragraph")..];
    let block = &mail[mail.find("```text\n").expect("the mail excerpt") + 8..];
    let block = &block[..block.find("```").expect("its end")];
    let out = ok(&["diff", "--format", "mail"]);
    fits_a_mail(block);
    let mut lines = out.lines();
    for want in block.lines().filter(|l| l.trim() != "[...]") {
        assert!(lines.any(|l| l == want), "not in the output (in order): {want}\n{out}");
    }
}

/// Compiled traces of the catalogue (x86-64, s390x): the scenario diff's mail, with the core's
/// model and clock; a guest workload counts hypercalls, and says when the groups (which cover
/// only the paths with a profile) miss the change.
#[test]
fn compiled_catalogue_traces() {
    let out =
        ok(&["diff", "x86/nohz-syscall/patch3", "x86/nohz-syscall/patch4", "--syscalls", "200", "--format", "mail"]);
    fits_a_mail(&out);
    assert!(out.starts_with("patch4 saves 78.0 cycles per system call (-38.6%, "), "{out}");
    assert!(unwrapped(&out).contains("\nmodel: x86-64 (Zen 4 model) at "), "{out}");
    assert!(out.contains("\n  patch3 correct: ") || out.contains("\n  patch3 WRONG: "), "{out}");
    let out =
        ok(&["diff", "s390/vtime/immediate", "s390/vtime/delayed", "--guest", "--syscalls", "200", "--format", "mail"]);
    fits_a_mail(&out);
    assert!(out.starts_with("delayed saves "), "{out}");
    let flat = unwrapped(&out);
    assert!(flat.contains("\nmodel: s390x (z13 model) at 5 GHz; workload: 200 guest hypercalls,"), "{flat}");
    assert!(flat.contains("\nwhere the difference comes from (cycles per hypercall):\n"), "{flat}");
    assert!(flat.contains("the rest is in paths that ran without a group profile)"), "{flat}");
}
