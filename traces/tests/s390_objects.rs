//! The s390x traces' committed objects: they are what `traces/s390/build.sh` makes from the
//! sources today (live where the s390x cross tools are installed; required when
//! `ACCTEMU_REQUIRE_ORACLES=1`), they use only the reference's instructions plus the listed
//! ones gcc emits for the C, the entry bookkeeping has the reference's shape, every symbol they
//! leave undefined is a harness name, and the harnesses lay the lowcore out as lowcore.h does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use emu_core::harness::Harness;
use traces::{Arch, PathKind, Trace};

mod oracles;
use oracles::{oracle, required};

fn s390_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("s390")
}

fn s390() -> impl Iterator<Item = &'static Trace> {
    traces::catalogue().iter().filter(|t| t.arch == Arch::S390x)
}

/// The object file name of `t` (`s390/vtime/delayed` -> `vtime-delayed.o`).
fn object_name(t: &Trace) -> String {
    format!("{}.o", t.name.trim_start_matches("s390/").replace('/', "-"))
}

fn is_411(t: &Trace) -> bool {
    t.defines.iter().any(|(n, _)| *n == "LOWCORE_411")
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("traces-s390-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Entry points beyond the bindings that scenarios call (task switch, boot, the pieces).
const OTHER_ENTRIES: &[&str] = &[
    "vtime_init",
    "vtime_account_irq_enter",
    "vtime_account_irq_exit",
    "irq_enter_accounting",
    "vtime_task_switch",
    "irq_entry_bookkeeping",
    "ext_entry_bookkeeping",
    "vtime_flush",
    "irq_exit_accounting",
];

#[test]
fn catalogue_names_the_two_s390_versions() {
    let names: Vec<&str> = s390().map(|t| t.name).collect();
    assert_eq!(names, ["s390/vtime/immediate", "s390/vtime/delayed"]);
    for t in s390() {
        assert!(traces::find(t.name).is_some());
        assert_eq!(t.seed, "002_444712d0ae2cf32d.txt");
        assert!(t.assemble().is_err(), "{}: s390 traces are not assembled", t.name);
        let committed = std::fs::read(s390_dir().join("obj").join(object_name(t))).expect("committed object");
        assert_eq!(t.object, Some(committed.as_slice()), "{}: object is its build.sh output", t.name);
        for kind in
            [PathKind::SyscallEnter, PathKind::SyscallExit, PathKind::IrqEnter, PathKind::IrqExit, PathKind::Tick]
        {
            assert!(t.binding(kind).is_some(), "{} binds {kind:?}", t.name);
        }
        assert!(t.accounting.counters().is_some(), "{}", t.name);
    }
}

/// `#define LC_* value` of lowcore.h as the preprocessor sees it with or without LOWCORE_411:
/// numbers, or `(number + LC_SHIFT)`.
fn lowcore_h(with_411: bool) -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(s390_dir().join("lowcore.h")).expect("lowcore.h");
    let mut raw: Vec<(String, String)> = Vec::new();
    let mut active = vec![true];
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["#ifdef", "LOWCORE_411", ..] => active.push(with_411),
            ["#ifndef", ..] => active.push(true),
            ["#else", ..] => {
                let top = active.pop().expect("balanced #if");
                active.push(!top);
            }
            ["#endif", ..] => {
                active.pop();
            }
            ["#define", name, value @ ..] if active.iter().all(|a| *a) && name.starts_with("LC_") => {
                let v: String = value.iter().take_while(|w| !w.starts_with("/*")).copied().collect();
                raw.push(((*name).to_string(), v));
            }
            _ => {}
        }
    }
    let num = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex offset");
    let shift = raw.iter().find(|(n, _)| n == "LC_SHIFT").map(|(_, v)| num(v)).expect("LC_SHIFT");
    raw.into_iter()
        .map(|(n, v)| {
            let value = match v.strip_prefix('(').and_then(|v| v.strip_suffix("+LC_SHIFT)")) {
                Some(base) => num(base) + shift,
                None => num(&v),
            };
            (n, value)
        })
        .collect()
}

#[test]
fn harnesses_lay_out_the_lowcore_of_their_version() {
    for t in s390() {
        let h = Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        let starts: Vec<&str> = t.bindings.iter().map(|b| b.start).collect();
        assert!(h.entry.as_deref().is_some_and(|e| starts.contains(&e)), "{}: entry is a bound start", t.name);
        let env = h.env(&|_: &str| None).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        assert_eq!(env.lookup("lowcore"), Some(0), "{}: lowcore at prefix 0", t.name);
        let counter = |name: &str| {
            let c = h.counters.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("{}: no {name}", t.name));
            (env.eval(&c.address).unwrap_or_else(|d| panic!("{d}")), c.width, c.unit.clone())
        };
        for name in ["cpustat_user", "cpustat_system", "cpustat_hardirq", "cpustat_softirq", "cpustat_guest"] {
            let (_, width, unit) = counter(name);
            assert_eq!((width, unit.as_str()), (8, "ns"), "{}: {name}", t.name);
        }
        let lc = lowcore_h(is_411(t));
        let mut fields = vec!["EXIT_TIMER", "USER_TIMER", "SYSTEM_TIMER", "STEAL_TIMER", "LAST_UPDATE_TIMER"];
        fields.extend(["SYNC_ENTER_TIMER", "ASYNC_ENTER_TIMER", "LAST_UPDATE_CLOCK", "INT_CLOCK"]);
        if is_411(t) {
            fields.extend(["GUEST_TIMER", "HARDIRQ_TIMER", "SOFTIRQ_TIMER"]);
        }
        for f in fields {
            let (addr, width, _) = counter(&format!("lc_{}", f.to_lowercase()));
            assert_eq!((addr, width), (lc[&format!("LC_{f}")], 8), "{}: {f}", t.name);
        }
        assert_eq!(counter("preempt_count").0, lc["LC_PREEMPT_COUNT"], "{}", t.name);
        // The reference's numbers, not only lowcore.h's.
        let expect: &[(&str, u64)] = if is_411(t) {
            &[("LC_GUEST_TIMER", 0x2d8), ("LC_STEAL_TIMER", 0x2f8), ("LC_LAST_UPDATE_TIMER", 0x300)]
        } else {
            &[("LC_SYSTEM_TIMER", 0x2d8), ("LC_STEAL_TIMER", 0x2e0), ("LC_INT_CLOCK", 0x2f8)]
        };
        for (name, off) in expect {
            assert_eq!(lc[*name], *off, "{}: {name}", t.name);
        }
        for (name, off) in [("LC_CURRENT_TASK", "task"), ("LC_VDSO_PER_CPU", "vdso_data")] {
            let at = format!("{:#x}", lc[name]);
            let filled = h.regions.iter().filter(|r| r.name == "lowcore").flat_map(|r| r.fill.iter()).any(|f| {
                f.origin.source_line.as_deref().is_some_and(|l| l.contains(&format!("\"{at}\"")) && l.contains(off))
            });
            assert!(filled, "{}: lowcore fill of {name} at {at} with {off}", t.name);
        }
    }
}

/// `nm`'s defined (text) and undefined symbols of `obj`.
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

/// Writes each s390 object to `dir`, returning (trace, path) pairs.
fn written(dir: &Path) -> Vec<(&'static Trace, PathBuf)> {
    s390()
        .map(|t| {
            let obj = dir.join(object_name(t));
            std::fs::write(&obj, t.object.unwrap_or_default()).expect("write object");
            (t, obj)
        })
        .collect()
}

#[test]
fn entry_points_are_defined_and_externals_come_from_the_harness() {
    let Some(nm) = oracle("s390x-linux-gnu-nm") else { return };
    let dir = temp_dir("nm");
    for (t, obj) in written(&dir) {
        let (defined, undefined) = symbols(&nm, &obj);
        for name in t.bindings.iter().map(|b| b.start).chain(OTHER_ENTRIES.iter().copied()) {
            assert!(defined.contains(name), "{}: {name} not defined", t.name);
        }
        let h = Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        let env = h.env(&|_: &str| None).unwrap_or_else(|d| panic!("{}: {d}", t.name));
        for name in &undefined {
            assert!(env.lookup(name).is_some(), "{}: `{name}` is in neither object nor harness", t.name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn committed_objects_match_a_rebuild() {
    let (Some(gcc), Some(ld), Some(sh)) = (oracle("s390x-linux-gnu-gcc"), oracle("s390x-linux-gnu-ld"), oracle("sh"))
    else {
        return;
    };
    let recorded = std::fs::read_to_string(s390_dir().join("obj/toolchain-version")).expect("obj/toolchain-version");
    let gcc_v = Command::new(&gcc).arg("-dumpfullversion").output().expect("run gcc");
    let ld_v = Command::new(&ld).arg("--version").output().expect("run ld");
    let ours = format!(
        "{}\n{}",
        String::from_utf8_lossy(&gcc_v.stdout).trim(),
        String::from_utf8_lossy(&ld_v.stdout).lines().next().unwrap_or("")
    );
    if ours.trim() != recorded.trim() {
        // Another toolchain makes other bytes: staleness cannot be judged here.
        assert!(!required(), "toolchain {ours:?} here, objects built with {recorded:?}");
        return;
    }
    let dir = temp_dir("rebuild");
    let st = Command::new(&sh).arg(s390_dir().join("build.sh")).arg(&dir).status().expect("run build.sh");
    assert!(st.success(), "build.sh failed");
    let mut stale = Vec::new();
    for t in s390() {
        let name = object_name(t);
        let fresh = std::fs::read(dir.join(&name)).expect("rebuilt object");
        if t.object != Some(fresh.as_slice()) {
            stale.push(name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(stale.is_empty(), "stale objects (run `sh traces/s390/build.sh` and commit): {stale:?}");
}

/// The reference's instruction list (s390-accounting.md, "Instructions these paths use"), the
/// base forms: BR is BCR, the J* branches are BRC.
const REFERENCE: &[&str] = &[
    "stpt", "spt", "stck", "stckf", "ectg", "lg", "stg", "slg", "alg", "mvc", "clc", "stmg", "lmg", "la", "lay",
    "larl", "lgr", "lghi", "aghi", "slgr", "srag", "clg", "tmhh", "tm", "ni", "oi", "nihh", "xc", "brc", "brasl",
    "basr", "bcr", "ssm", "lpswe", "svc", "agr", "sgr", "ltgr", "cg", "laag", "msg", "dlg", "dlgr", "sllg", "srlg",
    "risbg", "tmll", "tmlh", "lgrl",
];

/// What `s390x-linux-gnu-gcc -O2 -march=z196` emits for vtime.c beyond the reference's list:
/// the integer instructions arch-s390 must also execute for these objects (brcl is `jg`, the
/// load/store-on-condition families are named without their condition).
const COMPILED_C: &[&str] = &[
    "ag", "agrk", "alfi", "brcl", "cgr", "chi", "chsi", "clgfi", "cr", "l", "lgfr", "lhi", "llihf", "llilh", "locgr",
    "locr", "lt", "ltg", "ltr", "mghi", "msgr", "mvghi", "nilf", "oilf", "sg", "sgrk", "slfi", "slgrk", "st", "stgrl",
];

/// Condition suffixes objdump appends to extended mnemonics.
const CONDS: &[&str] = &[
    "o", "h", "p", "nle", "l", "m", "nhe", "lh", "ne", "nz", "e", "z", "nlh", "he", "nl", "nm", "le", "nh", "np", "no",
];

/// The base instruction of objdump's mnemonic `m` (`jne` -> `brc`, `locgrnh` -> `locgr`).
fn base(m: &str) -> String {
    let cond = |rest: &str| CONDS.contains(&rest);
    if REFERENCE.contains(&m) || COMPILED_C.contains(&m) {
        return m.to_string();
    }
    for fam in ["locgr", "locr", "locg", "loc", "stocg", "stoc"] {
        if m.strip_prefix(fam).is_some_and(cond) {
            return fam.to_string();
        }
    }
    match m {
        "br" | "nopr" => return "bcr".to_string(),
        "j" | "nop" => return "brc".to_string(),
        "jg" => return "brcl".to_string(),
        _ => {}
    }
    if m.strip_prefix("jg").is_some_and(cond) {
        return "brcl".to_string();
    }
    if m.strip_prefix('j').is_some_and(cond) {
        return "brc".to_string();
    }
    if m.strip_prefix('b').and_then(|r| r.strip_suffix('r')).is_some_and(cond) {
        return "bcr".to_string();
    }
    m.to_string()
}

/// objdump's disassembly of `obj`: per function, its (mnemonic, operands) lines.
fn disassemble(objdump: &Path, obj: &Path) -> BTreeMap<String, Vec<(String, String)>> {
    let out = Command::new(objdump).args(["-d", "--no-show-raw-insn"]).arg(obj).output().expect("objdump");
    assert!(out.status.success());
    let mut funcs: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut current = String::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(name) = line.strip_suffix(">:").and_then(|l| l.split('<').nth(1)) {
            current = name.to_string();
            continue;
        }
        let mut cols = line.split('\t');
        let (Some(addr), Some(insn)) = (cols.next(), cols.next()) else { continue };
        if !addr.trim_end().ends_with(':') {
            continue;
        }
        // objdump separates the operands with a tab (or a space after short mnemonics).
        let rest: Vec<&str> = cols.collect();
        let text = format!("{insn} {}", rest.join(" "));
        let mut words = text.trim().splitn(2, char::is_whitespace);
        let m = words.next().unwrap_or("").to_string();
        let ops = words.next().unwrap_or("").trim().to_string();
        funcs.entry(current.clone()).or_default().push((m, ops));
    }
    funcs
}

#[test]
fn objects_use_only_the_listed_instructions() {
    let Some(objdump) = oracle("s390x-linux-gnu-objdump") else { return };
    let dir = temp_dir("objdump");
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut unlisted = BTreeSet::new();
    for (t, obj) in written(&dir) {
        for (func, insns) in disassemble(&objdump, &obj) {
            for (m, ops) in insns {
                let b = base(&m);
                *used.entry(b.clone()).or_default() += 1;
                if !(REFERENCE.contains(&b.as_str()) || COMPILED_C.contains(&b.as_str())) {
                    unlisted.insert(format!("{} {func}: {m} {ops}", t.name));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("s390 trace instructions (base form: count): {used:?}");
    assert!(unlisted.is_empty(), "instructions in neither the reference's nor the compiled-C list: {unlisted:?}");
    let unused: Vec<&&str> = COMPILED_C.iter().filter(|m| !used.contains_key(**m)).collect();
    assert!(unused.is_empty(), "COMPILED_C lists instructions the objects no longer use: {unused:?}");
}

#[test]
fn entry_bookkeeping_has_the_reference_shape() {
    let Some(objdump) = oracle("s390x-linux-gnu-objdump") else { return };
    let dir = temp_dir("shape");
    for (t, obj) in written(&dir) {
        let lc = lowcore_h(is_411(t));
        let f = disassemble(&objdump, &obj);
        let func = |name: &str| f.get(name).cloned().unwrap_or_else(|| panic!("{}: no {name}", t.name));
        let mnemonics = |v: &[(String, String)]| v.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>();
        let update_vtime = ["lg", "slg", "lg", "slg", "alg", "alg", "stg", "stg", "mvc"];

        let sys = func("syscall_entry_bookkeeping");
        assert_eq!(sys.first(), Some(&("stpt".to_string(), lc["LC_SYNC_ENTER_TIMER"].to_string())), "{}", t.name);
        let m = mnemonics(&sys);
        assert_eq!(m.get(2..11), Some(&update_vtime.map(String::from)[..]), "{}: UPDATE_VTIME", t.name);
        assert!(sys.iter().any(|(m, o)| m == "stg" && o.ends_with(&lc["LC_SYSTEM_TIMER"].to_string())));

        let exit = func("syscall_exit_bookkeeping");
        let exit_timer = lc["LC_EXIT_TIMER"].to_string();
        let pos = |want: &(&str, String)| exit.iter().position(|(m, o)| m == want.0 && *o == want.1);
        let stpt = pos(&("stpt", exit_timer.clone())).unwrap_or_else(|| panic!("{}: stpt EXIT_TIMER", t.name));
        let copy = pos(&("mvc", format!("0(16,%r1),{exit_timer}"))).unwrap_or_else(|| panic!("{}: vdso copy", t.name));
        let lpswe = exit.iter().position(|(m, _)| m == "lpswe").unwrap_or_else(|| panic!("{}: lpswe", t.name));
        assert!(
            stpt < copy && copy < lpswe && lpswe + 1 == mnemonics(&exit).iter().take_while(|m| *m != "nopr").count()
        );

        for name in ["irq_entry_bookkeeping", "ext_entry_bookkeeping"] {
            let irq = func(name);
            assert_eq!(irq.first(), Some(&("stckf".to_string(), lc["LC_INT_CLOCK"].to_string())), "{}", t.name);
            assert_eq!(irq.get(1), Some(&("stpt".to_string(), lc["LC_ASYNC_ENTER_TIMER"].to_string())));
            let m = mnemonics(&irq);
            let tmhh = m.iter().position(|m| m == "tmhh").unwrap_or_else(|| panic!("{}: tmhh", t.name));
            assert_eq!(m.get(tmhh + 2..tmhh + 11), Some(&update_vtime.map(String::from)[..]), "{}: {name}", t.name);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
