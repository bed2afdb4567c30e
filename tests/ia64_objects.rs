//! The ELF object writer against GNU as 2.40: every corpus source assembled by acctemu gives
//! a relocatable object byte-identical to `golden/NAME.o` (`ia64-linux-gnu-as -x`). For a
//! file that differs, the first differing section (header or contents) is named.

mod common;

use arch_ia64::asm::assemble;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use goblin::elf::Elf;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ia64")
}

/// Sources whose object cannot be identical, with the reason.
/// (None since the kernel dialect merge: every corpus source assembles to gas's object.)
const KNOWN: &[(&str, &str)] = &[];

/// The first place two objects differ, for the report.
fn first_difference(ours: &[u8], gas: &[u8]) -> String {
    let (Ok(a), Ok(b)) = (Elf::parse(ours), Elf::parse(gas)) else {
        return "our file does not parse as ELF".into();
    };
    if ours.get(..64) != gas.get(..64) {
        return "ELF header".into();
    }
    let name = |e: &Elf, i: usize| e.shdr_strtab.get_at(e.section_headers[i].sh_name).unwrap_or("?").to_string();
    for i in 0..a.section_headers.len().max(b.section_headers.len()) {
        let (Some(x), Some(y)) = (a.section_headers.get(i), b.section_headers.get(i)) else {
            return format!("section count {} vs {}", a.section_headers.len(), b.section_headers.len());
        };
        let (nx, ny) = (name(&a, i), name(&b, i));
        if nx != ny || x.sh_type != y.sh_type || x.sh_flags != y.sh_flags || x.sh_size != y.sh_size {
            return format!(
                "section {i}: ours {nx} type {:#x} flags {:#x} size {:#x}, gas {ny} type {:#x} flags {:#x} size {:#x}",
                x.sh_type, x.sh_flags, x.sh_size, y.sh_type, y.sh_flags, y.sh_size
            );
        }
        let range = |h: &goblin::elf::SectionHeader| {
            h.sh_offset as usize..(h.sh_offset + if h.sh_type == 8 { 0 } else { h.sh_size }) as usize
        };
        if ours.get(range(x)) != gas.get(range(y)) {
            return format!("contents of section {i} ({nx})");
        }
        if x.sh_link != y.sh_link
            || x.sh_info != y.sh_info
            || x.sh_addralign != y.sh_addralign
            || x.sh_offset != y.sh_offset
        {
            return format!(
                "header of section {i} ({nx}): link/info/align/offset {}/{}/{}/{:#x} vs {}/{}/{}/{:#x}",
                x.sh_link, x.sh_info, x.sh_addralign, x.sh_offset, y.sh_link, y.sh_info, y.sh_addralign, y.sh_offset
            );
        }
    }
    "section header table placement or padding".into()
}

/// `(source, golden object)` for every corpus source: `src/NAME.S` with `golden/NAME.o`,
/// and `objects/NAME.S` with `objects/NAME.o`.
fn cases() -> Vec<(PathBuf, PathBuf)> {
    let mut v = Vec::new();
    for (dir, golden) in [("src", "golden"), ("objects", "objects")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus().join(dir))
            .expect("corpus directory exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "S"))
            .collect();
        files.sort();
        for f in files {
            let stem = f.file_stem().and_then(|n| n.to_str()).unwrap_or("?").to_string();
            v.push((f, corpus().join(golden).join(format!("{stem}.o"))));
        }
    }
    v
}

/// Our object for `path`, or why there is none.
fn ours(path: &Path) -> Result<Vec<u8>, String> {
    let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let text = std::fs::read_to_string(path).expect("readable source");
    let a = assemble(&file, &text, &PreprocessOptions::new(), &FsLoader)
        .map_err(|e| format!("does not assemble: {}", e.0.first().map(|d| d.to_string()).unwrap_or_default()))?;
    a.object_file().map_err(|e| format!("no object: {e}"))
}

#[test]
fn every_corpus_object_is_identical_to_gnu_as() {
    let cases = cases();
    let mut identical = 0;
    let mut unexpected = Vec::new();
    let mut report = String::new();
    for (path, golden) in &cases {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let gas = std::fs::read(golden).expect("golden object");
        let outcome = match ours(path) {
            Err(e) => Err(e),
            Ok(o) if o == gas => Ok(()),
            Ok(o) => Err(first_difference(&o, &gas)),
        };
        match outcome {
            Ok(()) => identical += 1,
            Err(why) => {
                report.push_str(&format!("  {file}: {}\n", why.lines().next().unwrap_or("")));
                if !KNOWN.iter().any(|(k, _)| *k == file) {
                    unexpected.push(file.clone());
                }
            }
        }
    }
    eprintln!("objects identical to GNU as: {identical} / {}\n{report}", cases.len());
    assert!(unexpected.is_empty(), "objects differ from GNU as's for {unexpected:?}:\n{report}");
    assert_eq!(identical + KNOWN.len(), cases.len(), "a known difference disappeared; update KNOWN:\n{report}");
}

/// The committed objects are what `ia64-linux-gnu-as -x` writes today (so the comparison
/// above is against GNU as, not against an old copy).
#[test]
fn committed_objects_are_gnu_as_output() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let work = std::env::temp_dir().join(format!("acctemu-objects-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("temp dir");
    let mut checked = 0;
    for (path, golden) in cases() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        if name.ends_with("_cpp.S") {
            continue; // preprocessed by cpp first (regen-ia64-golden.sh)
        }
        std::fs::copy(&path, work.join(&name)).expect("copy source");
        let out = std::process::Command::new(&gas)
            .current_dir(&work)
            .args(["-x", &name, "-o", "x.o"])
            .output()
            .expect("run gas");
        assert!(out.status.success(), "{name}: gas failed: {}", String::from_utf8_lossy(&out.stderr));
        let fresh = std::fs::read(work.join("x.o")).expect("gas wrote x.o");
        assert!(fresh == std::fs::read(&golden).expect("golden"), "{name}: the committed object is stale");
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(checked > 50, "only {checked} sources checked");
}

/// A small deterministic generator (64-bit LCG) for the differential test.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random source: procedures (global or local) in two code sections with random unwind
/// directives, calls and branches to globals, locals and externals, `movl` and data of
/// symbols plus offsets, data sections.
fn random_source(rng: &mut Lcg) -> String {
    let procs = 2 + rng.next(4) as usize;
    let names: Vec<String> = (0..procs).map(|i| format!("p{i}_fn")).collect();
    let mut s =
        String::from(if rng.next(2) == 0 { "\t.global ext_a, ext_b\n" } else { "\t.weak ext_a\n\t.global ext_b\n" });
    for (i, n) in names.iter().enumerate() {
        if rng.next(2) == 0 {
            s.push_str(&format!("\t.global {n}\n"));
        }
        let section = if rng.next(3) == 0 { ".section .text.alt,\"ax\"" } else { ".text" };
        s.push_str(&format!("\t{section}\n\t.proc {n}\n{n}:\n"));
        let unwind = rng.next(3) != 0;
        if unwind {
            s.push_str("\t.prologue\n");
            if rng.next(2) == 0 {
                s.push_str("\t.save ar.pfs, r34\n");
            }
            s.push_str("\talloc r34=ar.pfs,0,4,0,0\n");
            if rng.next(2) == 0 {
                s.push_str("\t.save rp, r33\n");
            }
            s.push_str("\tmov r33=b0\n");
            if rng.next(2) == 0 {
                s.push_str("\t.fframe 32\n");
            }
            s.push_str("\tadds r12=-32,r12\n\t;;\n");
            if rng.next(2) == 0 {
                s.push_str("\t.spillsp ar.unat, 16\n\tmov r35=ar.unat\n\t;;\n");
            }
            match rng.next(6) {
                0 => s.push_str("\t.savesp ar.lc, 24\n\tmov r3=ar.lc\n"),
                1 => s.push_str("\t.vframe r36\n\tmov r36=r12\n"),
                2 => s.push_str("\t.save.g 0x3\n\tst8.spill [r12]=r4\n\tst8.spill [r12]=r5\n\t;;\n"),
                3 => s.push_str("\t.spillsp f2, 0\n\tstf.spill [r12]=f2\n\t.spillpsp b1, 8\n\tmov r3=b1\n\t;;\n"),
                4 => s.push_str("\t.save.b 0x1\n\tmov r3=b1\n\t;;\n"),
                _ => {}
            }
            for _ in 0..rng.next(3) * 6 {
                s.push_str("\tnop.m 0\n");
            }
            s.push_str("\t.body\n");
            if rng.next(2) == 0 {
                s.push_str("\t.label_state 1\n\tnop.m 0\n\t;;\n\t.copy_state 1\n");
            }
        } else if rng.next(3) == 0 {
            s.push_str("\t.unwentry\n");
        } else if rng.next(2) == 0 {
            s.push_str("\t.prologue 12, 32\n\talloc r32=ar.pfs,0,8,0,0\n\tmov r33=b0\n\t;;\n\t.body\n");
        }
        for _ in 0..rng.next(5) {
            let target = match rng.next(4) {
                0 => "ext_a".to_string(),
                1 => names[rng.next(procs as u64) as usize].clone(),
                2 => names[i].clone(),
                _ => "ext_b".to_string(),
            };
            match rng.next(5) {
                4 => s.push_str(&format!("\tbrl.call.sptk.many b0={target}\n\t;;\n")),
                0 => s.push_str(&format!("\tbr.call.sptk.many b0={target}\n\t;;\n")),
                1 => s.push_str(&format!("\tmovl r8={target}+{}\n\t;;\n", 16 * rng.next(4))),
                2 => s.push_str(&format!("(p6)\tbr.cond.dptk.few {target}\n\t;;\n")),
                _ => s.push_str(&format!("\tadd r9=r{},r10\n", 2 + rng.next(20))),
            }
        }
        if unwind && rng.next(2) == 0 {
            s.push_str("\t.restore sp\n\tadds r12=32,r12\n\t;;\n");
        }
        s.push_str(&format!("\tbr.ret.sptk.many b0\n\t;;\n\t.endp {n}\n"));
        if rng.next(4) == 0 {
            s.push_str(&format!("\t.type {n}, @function\n\t.size {n}, 16\n"));
        }
    }
    s.push_str(if rng.next(2) == 0 { "\t.data\n" } else { "\t.section .sdata,\"aws\"\n" });
    for k in 0..rng.next(6) {
        let target = match rng.next(3) {
            0 => "ext_a".to_string(),
            1 => names[rng.next(procs as u64) as usize].clone(),
            _ => format!("d{}", rng.next(k + 1)),
        };
        let dir = if rng.next(2) == 0 { "data8" } else { "data4" };
        let pcrel = if rng.next(4) == 0 { " - ." } else { "" };
        s.push_str(&format!("d{k}:\tdata1 {k}\n\t{dir} {target}+{}{pcrel}\n", rng.next(40)));
    }
    s
}

/// acctemu's object equals GNU as's for random sources (sections, symbols, relocations and
/// unwind records mixed in ways the corpus files do not).
#[test]
fn random_sources_give_gnu_as_objects() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let work = std::env::temp_dir().join(format!("acctemu-objects-random-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("temp dir");
    let mut rng = Lcg(0x13b);
    let cases = 100;
    let mut failures = Vec::new();
    for case in 0..cases {
        let src = random_source(&mut rng);
        let name = format!("r{case}.S");
        let path = work.join(&name);
        std::fs::write(&path, &src).expect("write source");
        let out = std::process::Command::new(&gas)
            .current_dir(&work)
            .args(["-x", &name, "-o", "r.o"])
            .output()
            .expect("run gas");
        assert!(out.status.success(), "{name}: gas failed: {}\n{src}", String::from_utf8_lossy(&out.stderr));
        let want = std::fs::read(work.join("r.o")).expect("gas wrote r.o");
        match ours(&path) {
            Ok(o) if o == want => {}
            Ok(o) => failures.push(format!("{name}: {}\n{src}", first_difference(&o, &want))),
            Err(e) => failures.push(format!("{name}: {e}\n{src}")),
        }
    }
    eprintln!("random sources: {} / {cases} objects identical", cases - failures.len());
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&work);
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} differ (sources kept in {}); first:\n{}",
        failures.len(),
        work.display(),
        failures[0]
    );
}

/// What the writer does not model stops object output with a located message (the code
/// itself still assembles, and `--raw` can write it); a value no relocation can carry is an
/// assembly error, located the same way.
#[test]
fn unmodelled_forms_are_located_errors() {
    let cases = [
        (
            "\t.global p\n\t.text\n\t.proc f\nf:\n\t.prologue\n\t.altrp r5\n\tnop.m 0\n\t;;\n\t.endp f\n",
            "x.S:6:2: error: `.altrp` with these operands is not modelled by the object writer",
        ),
        ("\t.global e\n\t.data\n\tdata2 e\n", "x.S:3:8: error: a symbol cannot be relocated in a 2-byte data field"),
        ("\t.global e\n\t.data\n\tdata8 e*2\n", "x.S:3:8: error: expression is too complex for a relocation"),
    ];
    for (src, want) in cases {
        let err = match assemble("x.S", src, &PreprocessOptions::new(), &FsLoader) {
            Ok(a) => a.object_file().expect_err("no object").to_string(),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(want), "{src}: got {err}");
    }
}
