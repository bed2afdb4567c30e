//! `acctemu diff A.o B.o --entry F` on every core (issue 16): two objects of one architecture,
//! each run once under the same harness and `--set`s, compared by totals, by symbol and by
//! instruction group with the reasons each waited. Before, both objects were read as IA-64
//! assembly and refused as binary files.

mod common;

use common::acctemu;

/// stdout of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let o = acctemu(args);
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{args:?}: {err}\n{out}");
    out
}

/// The A and B columns of the row `name` of the totals table.
fn row(out: &str, name: &str) -> (u64, u64) {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(name) && l[l.find(name).unwrap_or(0) + name.len()..].starts_with(' '))
        .unwrap_or_else(|| panic!("no row {name} in\n{out}"));
    let n: Vec<u64> = line[line.find(name).unwrap_or(0) + name.len()..]
        .split_whitespace()
        .take(2)
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{line}")))
        .collect();
    (n[0], n[1])
}

/// The rows of the by-symbol table: symbol, A, B.
fn by_symbol(out: &str) -> Vec<(String, u64, u64)> {
    let start = out.find("where the cycles go, by symbol:\n").unwrap_or_else(|| panic!("no symbols in\n{out}"));
    out[start..]
        .lines()
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].parse().expect("A"), f[2].parse().expect("B"))
        })
        .collect()
}

/// The cycles of one `acctemu run`.
fn cycles_of_run(args: &[&str]) -> u64 {
    let out = ok(&[&["run"], args].concat());
    let line = out.lines().find(|l| l.starts_with("cycles ")).expect("a cycles line");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("cycles")
}

/// Checks the symbols' charges add up to each side's cycles, and that each side's cycles are
/// those of `acctemu run` of its object alone.
fn consistent(out: &str, a: &[&str], b: &[&str]) -> (u64, u64) {
    let (ca, cb) = row(out, "cycles");
    let symbols = by_symbol(out);
    assert_eq!(symbols.iter().map(|s| s.1).sum::<u64>(), ca, "A's symbols:\n{out}");
    assert_eq!(symbols.iter().map(|s| s.2).sum::<u64>(), cb, "B's symbols:\n{out}");
    assert_eq!(cycles_of_run(a), ca);
    assert_eq!(cycles_of_run(b), cb);
    (ca, cb)
}

const SETS: [&str; 6] = ["--set", "rdi=3", "--set", "rsi=5", "--set", "rdx=7"];

#[test]
fn x86_objects_diff_by_symbol_and_group() {
    // The same C built without and with -fPIC: `calls` goes through the GOT in B.
    let (a, b) = ("arch-x86/tests/data/ops.o", "arch-x86/tests/data/ops_pic.o");
    let out = ok(&[&["diff", a, b, "--entry", "calls"][..], &SETS].concat());
    assert!(out.starts_with("B costs "), "the headline first: {out}");
    assert!(out.contains(&format!("\nA = {a}\nB = {b}\n")), "{out}");
    let (ca, cb) = consistent(
        &out,
        &[&[a, "--entry", "calls"][..], &SETS].concat(),
        &[&[b, "--entry", "calls"][..], &SETS].concat(),
    );
    assert_ne!(ca, cb, "{out}");
    let symbols: Vec<String> = by_symbol(&out).into_iter().map(|s| s.0).collect();
    for name in ["calls", "helper_deep", "helper_add", "helper_mix"] {
        assert!(symbols.iter().any(|s| s == name), "{name} in {symbols:?}");
    }
    let groups = &out[out.find("by instruction group (largest changes first):\n").expect("groups")..];
    assert!(groups.contains("\n  calls#"), "{groups}");
    assert!(groups.contains("      waits: "), "the reasons groups waited:\n{groups}");
    // The same results: the PIC build differs in scratch registers only.
    assert!(out.contains("final state (A -> B):\n"), "{out}");
    assert!(!out.contains("\nrax: "), "{out}");
}

#[test]
fn s390_objects_diff_with_groups_in_json() {
    let o = "arch-s390/tests/data/ops.o";
    let sets = ["--set", "r2=1000", "--set", "r3=7"];
    let out = ok(&[&["diff", o, o, "--entry", "f_divu"][..], &sets].concat());
    let (ca, cb) = consistent(
        &out,
        &[&[o, "--entry", "f_divu"][..], &sets].concat(),
        &[&[o, "--entry", "f_divu"][..], &sets].concat(),
    );
    assert_eq!(ca, cb);
    assert!(out.contains("  (no group changed)\n") && out.contains("final state: identical"), "{out}");
    let json = ok(&[&["diff", o, o, "--entry", "f_divu", "--format", "json"][..], &sets].concat());
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    for side in ["a", "b"] {
        let groups = v[side]["groups"].as_array().expect("groups");
        assert!(!groups.is_empty(), "{json}");
        let sum: u64 = groups.iter().map(|g| g["cycles"].as_u64().expect("cycles")).sum();
        assert_eq!(sum, v[side]["report"]["summary"]["cycles"].as_u64().expect("cycles"));
        assert!(groups.iter().all(|g| g["label"] == "f_divu"), "{json}");
    }
}

#[test]
fn ia64_objects_made_by_our_assembler_diff() {
    let dir = common::scratch_dir("diff-objects");
    let src = dir.join("f.S");
    // B moves the addend through an FP register, and its add waits for getf.
    std::fs::write(
        &src,
        "\t.text\n\t.global f\n\t.proc f\nf:\n\tadds r8=40,r0\n\tadds r9=2,r0 ;;\n#ifdef VIA_FP\n\tsetf.sig f6=r9 ;;\n\
         \tgetf.sig r9=f6 ;;\n#endif\n\tadd r8=r8,r9\n\tbr.ret.sptk.many b0 ;;\n\t.endp f\n",
    )
    .expect("write f.S");
    let (a, b) = (dir.join("a.o"), dir.join("b.o"));
    let (src, a, b) = (src.to_str().expect("utf-8"), a.to_str().expect("utf-8"), b.to_str().expect("utf-8"));
    ok(&["asm", src, "-o", a]);
    ok(&["asm", src, "-DVIA_FP", "-o", b]);
    let out = ok(&["diff", a, b, "--entry", "f"]);
    let (ca, cb) = consistent(&out, &[a, "--entry", "f"], &[b, "--entry", "f"]);
    assert!(cb > ca, "the moves' latency:\n{out}");
    assert_eq!(by_symbol(&out).first().map(|s| s.0.as_str()), Some("f"), "{out}");
    assert!(out.contains("B dependency on r9 ("), "why B's add waited:\n{out}");
    assert!(out.contains("      B: getf.sig r9=f6"), "{out}");
    assert!(out.contains("final state (A -> B):\n") && !out.contains("\nr8: "), "the same sum:\n{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn objects_of_two_architectures_are_refused() {
    let o = acctemu(&["diff", "arch-x86/tests/data/ops.o", "arch-s390/tests/data/ops.o", "--entry", "f"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("diff: arch-x86/tests/data/ops.o is x86-64 but arch-s390/tests/data/ops.o is s390x; compare two programs of one architecture"),
        "{err}"
    );
    let o = acctemu(&["diff", "arch-x86/tests/data/ops.o", "arch-x86/tests/data/ops.o", "--arch", "s390x"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("arch-x86/tests/data/ops.o: --arch s390x but the object is x86-64"), "{err}");
}
