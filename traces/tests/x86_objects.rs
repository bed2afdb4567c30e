//! The x86 traces' committed objects: they are what `traces/x86/build.sh` makes from the
//! sources today (live where gcc is installed; required when `ACCTEMU_REQUIRE_ORACLES=1`),
//! they use only the instructions arch-x86 executes (where objdump is installed), and every
//! symbol they leave undefined is a name their harness defines.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use emu_core::harness::Harness;
use traces::{Arch, PathKind, Trace};

mod oracles;
use oracles::{oracle, required};

fn x86_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("x86")
}

fn x86() -> impl Iterator<Item = &'static Trace> {
    traces::catalogue().iter().filter(|t| t.arch == Arch::X86_64)
}

/// The object file name of `t` (`x86/nohz-syscall/patch1` -> `nohz-syscall-patch1.o`).
fn object_name(t: &Trace) -> String {
    format!("{}.o", t.name.trim_start_matches("x86/").replace('/', "-"))
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("traces-x86-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn catalogue_names_the_nine_x86_versions() {
    let names: Vec<&str> = x86().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "x86/nohz-syscall/v4.5-rc1",
            "x86/nohz-syscall/patch1",
            "x86/nohz-syscall/patch3",
            "x86/nohz-syscall/patch4",
            "x86/nohz-syscall/housekeeping",
            "x86/sched-avg/loop",
            "x86/sched-avg/div",
            "x86/timer-target/old",
            "x86/timer-target/new",
        ]
    );
    for t in x86() {
        assert!(traces::find(t.name).is_some());
        assert!(t.assemble().is_err(), "{}: x86 traces are not assembled", t.name);
        let committed = std::fs::read(x86_dir().join("obj").join(object_name(t))).expect("committed object");
        assert_eq!(t.object, Some(committed.as_slice()), "{}: object is its build.sh output", t.name);
        if t.name.starts_with("x86/nohz-syscall/") {
            for kind in [PathKind::SyscallEnter, PathKind::SyscallExit, PathKind::Tick] {
                assert!(t.binding(kind).is_some(), "{} binds {kind:?}", t.name);
            }
            assert!(t.accounting.counters().is_some(), "{}", t.name);
        } else {
            assert!(t.binding(PathKind::Call).is_some(), "{}", t.name);
            assert!(t.accounting.counters().is_none(), "{}", t.name);
        }
    }
}

#[test]
fn harnesses_parse_and_name_the_counters() {
    for t in x86() {
        let h = Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        let starts: Vec<&str> = t.bindings.iter().map(|b| b.start).collect();
        assert!(h.entry.as_deref().is_some_and(|e| starts.contains(&e)), "{}: entry is a bound start", t.name);
        if let Some((u, s)) = t.accounting.counters() {
            for name in [u, s] {
                let c = h.counters.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("{}: {name}", t.name));
                assert_eq!((c.width, c.unit.as_str()), (8, "ns"), "{}: {name}", t.name);
            }
        }
    }
}

/// `nm`'s defined and undefined symbols of `obj`.
fn symbols(nm: &Path, obj: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let out = Command::new(nm).arg(obj).output().expect("run nm");
    assert!(out.status.success());
    let (mut defined, mut undefined) = (BTreeSet::new(), BTreeSet::new());
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["U", name] => undefined.insert((*name).to_string()),
            [_, "T", name] => defined.insert((*name).to_string()),
            _ => false,
        };
    }
    (defined, undefined)
}

#[test]
fn bindings_are_defined_and_externals_come_from_the_harness() {
    let Some(nm) = oracle("nm") else { return };
    let dir = temp_dir("nm");
    for t in x86() {
        let obj = dir.join(object_name(t));
        std::fs::write(&obj, t.object.unwrap_or_default()).expect("write object");
        let (defined, undefined) = symbols(&nm, &obj);
        for b in t.bindings {
            assert!(defined.contains(b.start), "{}: {} not defined", t.name, b.start);
        }
        let h = Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        let no_outer = |_: &str| None;
        let env = h.env(&no_outer).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        for name in &undefined {
            let from_object = defined.contains(name);
            assert!(from_object || env.lookup(name).is_some(), "{}: `{name}` is in neither object nor harness", t.name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn committed_objects_match_a_rebuild() {
    let (Some(gcc), Some(sh)) = (oracle("gcc"), oracle("sh")) else { return };
    let recorded = std::fs::read_to_string(x86_dir().join("obj/gcc-version")).expect("obj/gcc-version");
    let out = Command::new(&gcc).arg("-dumpfullversion").output().expect("run gcc");
    let ours = String::from_utf8_lossy(&out.stdout).to_string();
    if ours.trim() != recorded.trim() {
        // Another gcc makes other bytes: staleness cannot be judged here.
        assert!(!required(), "gcc {} here, objects built with {}", ours.trim(), recorded.trim());
        return;
    }
    let dir = temp_dir("rebuild");
    let st = Command::new(&sh).arg(x86_dir().join("build.sh")).arg(&dir).status().expect("run build.sh");
    assert!(st.success(), "build.sh failed");
    let mut stale = Vec::new();
    for t in x86() {
        let name = object_name(t);
        let fresh = std::fs::read(dir.join(&name)).expect("rebuilt object");
        if t.object != Some(fresh.as_slice()) {
            stale.push(name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(stale.is_empty(), "stale objects (run `sh traces/x86/build.sh` and commit): {stale:?}");
}

/// The instructions issue 5's core executes, as objdump spells them without size suffixes
/// (nops of every length included; `shrd` is the double shift gcc uses for the 128-bit
/// `mul_u64_u32_shr`; `xchg %ax,%ax` is objdump's name for the 2-byte nop 66 90).
const SUPPORTED: &[&str] = &[
    "mov", "movabs", "movzbw", "movzbl", "movzbq", "movzwl", "movzwq", "movsbw", "movsbl", "movsbq", "movswl",
    "movswq", "movslq", "lea", "add", "sub", "adc", "sbb", "inc", "dec", "neg", "not", "and", "or", "xor", "test",
    "cmp", "shl", "shr", "sar", "rol", "ror", "shld", "shrd", "bt", "bts", "btr", "bsf", "bsr", "tzcnt", "lzcnt",
    "popcnt", "imul", "mul", "div", "idiv", "cbtw", "cwtl", "cltq", "cqto", "cltd", "cwtd", "call", "ret", "jmp",
    "push", "pushf", "pop", "popf", "xchg", "xadd", "cmpxchg", "cli", "sti", "rdtsc", "rdtscp", "lfence", "mfence",
    "pause", "nop", "endbr64",
];

/// `m` without a size suffix, condition codes folded (`cmovne` -> `cmov`, `jle` -> `j`).
fn family(m: &str) -> String {
    for (prefix, fam) in [("cmov", "cmov"), ("set", "set")] {
        if m.starts_with(prefix) {
            return fam.to_string();
        }
    }
    if m.starts_with('j') && m != "jmp" {
        return "j".to_string();
    }
    if SUPPORTED.contains(&m) {
        return m.to_string();
    }
    let stripped = m.strip_suffix(['b', 'w', 'l', 'q']).unwrap_or(m);
    stripped.to_string()
}

#[test]
fn objects_use_only_supported_instructions() {
    let Some(objdump) = oracle("objdump") else { return };
    let dir = temp_dir("objdump");
    let mut unsupported = BTreeSet::new();
    for t in x86() {
        let obj = dir.join(object_name(t));
        std::fs::write(&obj, t.object.unwrap_or_default()).expect("write object");
        let out = Command::new(&objdump).args(["-d", "--no-show-raw-insn"]).arg(&obj).output().expect("objdump");
        assert!(out.status.success());
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let mut cols = line.split('\t');
            let (Some(addr), Some(insn)) = (cols.next(), cols.next()) else { continue };
            if !addr.trim_end().ends_with(':') {
                continue;
            }
            // Prefixes objdump prints as words: the mnemonic is the next one.
            let words: Vec<&str> = insn.split_whitespace().collect();
            let m = words.iter().find(|w| !matches!(**w, "lock" | "rep" | "data16" | "cs" | "ds")).copied();
            let fam = family(m.unwrap_or(""));
            if !(SUPPORTED.contains(&fam.as_str()) || matches!(fam.as_str(), "j" | "cmov" | "set" | "nopw" | "nopl")) {
                unsupported.insert(format!("{}: {insn}", t.name));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(unsupported.is_empty(), "instructions outside issue 5's subset: {unsupported:?}");
}
