//! GNU as's automatic mode (no `-x`; issue 13): we assemble in `DvMode::Auto` and GNU as 2.40
//! without `-x`, and compare every section we write and every warning, on
//! 1. each corpus source of `tests/corpus/ia64/src/` that gas accepts in automatic mode,
//! 2. each build of the Linux tree's arch/ia64 `.S` files preprocessed by acctemu as the
//!    kernel build does (`tests/common/kernel_corpus.rs`),
//! 3. generated programs (18,000 instructions) with dependencies on general, predicate, branch,
//!    application and floating-point registers, calls, predicated branches, labels and mixed
//!    units, and the system forms automatic mode serializes or stops for: alloc with rotating
//!    registers, loop branches, PSR writes and reads, interruption control registers, srlz,
//!    the register stack, TLB purges and inserts, region registers, check loads, `.mem.offset`,
//! 4. the hand-written mode cases of `tests/corpus/ia64/auto/` under `-xauto`, `-x` and `-xnone`.
//!
//! Corpus sources listed in `tests/corpus/ia64/auto-mode-differs.txt` (with the reason) are
//! known to differ; the test fails when one of them becomes identical or another one differs.
//!
//! Prints the figures (files identical / total, instructions of the generated programs).
//! Missing oracles skip the test, or fail it under `ACCTEMU_REQUIRE_ORACLES=1`.

mod common;
#[path = "common/kernel_corpus.rs"]
mod kernel_corpus;

use arch_ia64::asm::{assemble_in_mode, Assembly, DvMode};
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::rng::Xorshift64;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ia64-auto-mode").join(name);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// What one assembler made of one source: section contents by name and the warning lines
/// (`LINE: TEXT`, notes included, in order).
#[derive(Debug, PartialEq, Eq)]
struct Output {
    sections: BTreeMap<String, Vec<u8>>,
    warnings: Vec<String>,
}

/// GNU as without `-x`, run in the source's directory (where a kernel build's `.incbin`
/// finds its file), or `Err(stderr)` when it rejects the source.
fn gas_auto(gas: &Path, src: &Path, obj: &Path) -> Result<Output, String> {
    let mut cmd = Command::new(gas);
    if let Some(dir) = src.parent() {
        cmd.current_dir(dir);
    }
    let out = cmd.arg("-o").arg(obj).arg(src).output().expect("runs gas");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(stderr);
    }
    Ok(gas_auto_parts(obj, &stderr))
}

/// The sections of GNU as's object `obj` and the warnings of its `stderr`.
fn gas_auto_parts(obj: &Path, stderr: &str) -> Output {
    let bytes = std::fs::read(obj).expect("GNU as object");
    let elf = goblin::elf::Elf::parse(&bytes).expect("GNU as writes valid ELF");
    let mut sections = BTreeMap::new();
    for sh in &elf.section_headers {
        if sh.sh_type == goblin::elf::section_header::SHT_PROGBITS && sh.sh_size > 0 {
            let name = elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("").to_string();
            let start = sh.sh_offset as usize;
            sections.insert(name, bytes.get(start..start + sh.sh_size as usize).unwrap_or_default().to_vec());
        }
    }
    let warnings = stderr
        .lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once(':')?;
            let (line, msg) = rest.split_once(": Warning: ")?;
            Some(format!("{line}: {msg}"))
        })
        .collect();
    Output { sections, warnings }
}

/// Our sections that gas would write (code and data with contents) and our warnings.
fn ours(a: &Assembly, gas: &Output) -> Output {
    let mut sections = BTreeMap::new();
    for s in &a.object {
        if !s.data.is_empty() && (gas.sections.contains_key(&s.name) || s.kind == emu_core::image::SectionKind::Code) {
            sections.insert(s.name.clone(), s.data.clone());
        }
    }
    // Sections only gas has (unwind tables) are not compared: the object writer's own tests
    // cover them.
    let mut warnings = Vec::new();
    for w in &a.warnings {
        warnings.push(format!("{}: {}", w.loc.line, w.message));
        for (loc, note) in &w.notes {
            warnings.push(format!("{}: {}", loc.line, note));
        }
    }
    Output { sections, warnings }
}

/// Compares our output with gas's: `None` when identical (every section we write, and the
/// warnings), else a one-line description of the first difference.
fn differs(ours: &Output, gas: &Output) -> Option<String> {
    for (name, data) in &ours.sections {
        match gas.sections.get(name) {
            Some(g) if g == data => {}
            Some(g) => {
                let at = g.iter().zip(data).position(|(a, b)| a != b).unwrap_or(g.len().min(data.len()));
                return Some(format!("{name}: first difference at {at:#x} ({} bytes, GNU as {})", data.len(), g.len()));
            }
            None if data.iter().all(|b| *b == 0) => {}
            None => return Some(format!("{name}: not in GNU as's object")),
        }
    }
    if ours.warnings != gas.warnings {
        let at = ours.warnings.iter().zip(&gas.warnings).position(|(a, b)| a != b);
        let (o, g) = match at {
            Some(i) => (ours.warnings.get(i), gas.warnings.get(i)),
            None => (ours.warnings.get(gas.warnings.len()), gas.warnings.get(ours.warnings.len())),
        };
        return Some(format!("warnings differ: ours {o:?}, GNU as {g:?}"));
    }
    None
}

fn assemble_auto(name: &str, text: &str) -> Result<Assembly, String> {
    assemble_in_mode(name, text, &PreprocessOptions::new(), &FsLoader, DvMode::Auto).map_err(|d| {
        let first = d.0.first().map(|x| format!("{}: {}", x.loc.line, x.message)).unwrap_or_default();
        format!("{} errors, first {first}", d.0.len())
    })
}

#[test]
fn corpus_sources_in_auto_mode_match_gnu_as() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let dir = common::root().join("tests/corpus/ia64/src");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus sources")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "S"))
        .collect();
    paths.sort();
    let work = scratch("corpus");
    let listed = std::fs::read_to_string(common::root().join("tests/corpus/ia64/auto-mode-differs.txt"))
        .expect("auto-mode exemption list");
    let exempt: Vec<&str> = listed
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(':').map(|(n, _)| n.trim()))
        .collect();
    let (mut total, mut same, mut rejected) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in paths {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        if stem.ends_with("_cpp") {
            continue; // needs cpp first; its literal twin is in the corpus
        }
        let obj = work.join(format!("{stem}.o"));
        let g = match gas_auto(&gas, &path, &obj) {
            Ok(g) => g,
            Err(_) => {
                rejected += 1;
                continue;
            }
        };
        total += 1;
        let text = std::fs::read_to_string(&path).expect("corpus source");
        let listed = exempt.contains(&stem.as_str());
        match assemble_auto(&format!("{stem}.S"), &text) {
            Ok(a) => match differs(&ours(&a, &g), &g) {
                None if listed => failures.push(format!("{stem}: identical now; remove it from auto-mode-differs.txt")),
                None => same += 1,
                Some(_) if listed => {}
                Some(d) => failures.push(format!("{stem}: {d}")),
            },
            Err(e) => failures.push(format!("{stem}: ours failed: {e}")),
        }
    }
    eprintln!(
        "corpus, automatic mode: {same}/{total} identical ({} listed as differing, {rejected} rejected by GNU as)",
        exempt.len()
    );
    assert!(failures.is_empty(), "{} corpus files differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn kernel_files_in_auto_mode_match_gnu_as() {
    let Some(tree) = common::kernel_source() else { return };
    let (Some(gas), Some(ld)) = (common::oracle("ia64-linux-gnu-as"), common::oracle("ia64-linux-gnu-ld")) else {
        return;
    };
    let (mut total, mut same) = (0, 0);
    let mut failures = Vec::new();
    for accounting in [false, true] {
        let work = scratch(if accounting { "kernel-accounting" } else { "kernel-base" });
        let corpus = kernel_corpus::prepare(&tree, &work, accounting, Some(&ld));
        for b in &corpus.builds {
            let text = match &b.text {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("{}: acctemu's preprocessor failed: {e}", b.label));
                    continue;
                }
            };
            let src = work.join(format!("{}.s", b.stem));
            std::fs::write(&src, text).expect("preprocessed text");
            // gate-data.S `.incbin`s gate.so from the objtree, where the build runs gas.
            let g = match gas_auto(&gas, &src, &work.join(format!("{}.o", b.stem))) {
                Ok(g) => g,
                Err(e) => {
                    failures.push(format!("{}: GNU as failed: {}", b.label, e.lines().nth(1).unwrap_or("")));
                    continue;
                }
            };
            total += 1;
            let opts = PreprocessOptions::new().include_dir(&work);
            match assemble_in_mode(&format!("{}.s", b.stem), text, &opts, &FsLoader, DvMode::Auto) {
                Ok(a) => match differs(&ours(&a, &g), &g) {
                    None => same += 1,
                    Some(d) => failures.push(format!("{}: {d}", b.label)),
                },
                Err(e) => failures.push(format!("{}: ours failed: {e}", b.label)),
            }
        }
    }
    eprintln!("kernel builds, automatic mode: {same}/{total} identical");
    assert!(failures.is_empty(), "{} kernel builds differ:\n{}", failures.len(), failures.join("\n"));
}

/// The programs' random choices (the suite's one generator: fixed seeds, no host randomness).
struct Gen(Xorshift64);

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen(Xorshift64::new(seed))
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.0.index(items.len())]
    }
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }
}

/// One random instruction (text) with dependencies on a few registers of each file.
fn random_insn(g: &mut Gen) -> String {
    let gr = ["r2", "r3", "r8", "r9", "r14", "r15", "r16", "r32", "r33"];
    let pr = ["p6", "p7", "p8", "p9", "p16"];
    let br = ["b1", "b6", "b7"];
    let fr = ["f6", "f7", "f8", "f9", "f32"];
    let r = |g: &mut Gen| g.pick(&gr).to_string();
    let p = |g: &mut Gen| g.pick(&pr).to_string();
    let f = |g: &mut Gen| g.pick(&fr).to_string();
    match g.below(72) {
        0 => format!("add {}={},{}", r(g), r(g), r(g)),
        1 => format!("adds {}={},{}", r(g), g.below(200), r(g)),
        2 => format!("sub {}={},{}", r(g), r(g), r(g)),
        3 => format!("and {}={},{}", r(g), r(g), r(g)),
        4 => format!("shladd {}={},2,{}", r(g), r(g), r(g)),
        5 => format!("mov {}={}", r(g), r(g)),
        6 => format!("mov {}={}", r(g), g.below(1000)),
        7 => format!("ld8 {}=[{}]", r(g), r(g)),
        // Distinct target and base: gas warns about `ld8 r2=[r2],8`, which is not modelled.
        8 => format!("ld8 {}=[r17],8", r(g)),
        9 => format!("st8 [{}]={}", r(g), r(g)),
        10 => format!("st8 [{}]={},16", r(g), r(g)),
        11 => format!("extr.u {}={},3,5", r(g), r(g)),
        12 => format!("dep {}={},{},4,6", r(g), r(g), r(g)),
        13 => format!("shl {}={},3", r(g), r(g)),
        14 => format!("movl {}=0x123456789", r(g)),
        15 => format!("cmp.eq {},{}={},{}", p(g), p(g), r(g), r(g)),
        16 => format!("cmp.lt.unc {},{}={},{}", p(g), p(g), r(g), r(g)),
        17 => format!("cmp.eq.and {},p0={},{}", p(g), r(g), r(g)),
        18 => format!("tbit.z {},{}={},3", p(g), p(g), r(g)),
        19 => format!("({}) add {}={},{}", p(g), r(g), r(g), r(g)),
        20 => format!("({}) ld8 {}=[{}]", p(g), r(g), r(g)),
        21 => format!("mov {}={}", g.pick(&br), r(g)),
        22 => format!("mov {}={}", r(g), g.pick(&br)),
        23 => format!("({}) br.cond.sptk .Lend", p(g)),
        24 => format!("({}) br.call.sptk.many b0=.Lend", p(g)),
        25 => format!("mov ar.lc={}", r(g)),
        26 => format!("mov {}=ar.lc", r(g)),
        27 => format!("mov ar.ccv={}", r(g)),
        28 => format!("cmpxchg8.acq {}=[{}],{},ar.ccv", r(g), r(g), r(g)),
        29 => format!("mov ar.unat={}", r(g)),
        30 => format!("st8.spill [{}]={}", r(g), r(g)),
        31 => format!("mov {}=ar.pfs", r(g)),
        32 => format!("fma.s1 {}={},{},{}", f(g), f(g), f(g), f(g)),
        33 => format!("fadd {}={},{}", f(g), f(g), f(g)),
        34 => format!("ldfd {}=[{}]", f(g), r(g)),
        35 => format!("stfd [{}]={}", r(g), f(g)),
        36 => format!("setf.sig {}={}", f(g), r(g)),
        37 => format!("getf.sig {}={}", r(g), f(g)),
        38 => format!("fcmp.eq {},{}={},{}", p(g), p(g), f(g), f(g)),
        39 => format!("mov {}=pr", r(g)),
        // System and register-stack forms: CFM, RSE, PSR, TLB and indirect-register rows.
        40 => "alloc r34=ar.pfs,2,3,1,0".to_string(),
        41 => "alloc r34=ar.pfs,2,6,0,8".to_string(),
        42 => format!("(p16) add r33={},r34", r(g)),
        43 => "br.ctop.sptk .Lend".to_string(),
        44 => format!("({}) br.wtop.sptk .Lend", p(g)),
        45 => "rsm psr.i".to_string(),
        46 => "ssm psr.ic".to_string(),
        47 => format!("mov {}=psr", r(g)),
        48 => format!("mov psr.l={}", r(g)),
        49 => "sum psr.up".to_string(),
        50 => format!("mov {}=psr.um", r(g)),
        51 => format!("mov cr.ifa={}", r(g)),
        52 => format!("mov {}=cr.ifa", r(g)),
        53 => format!("mov cr.iip={}", r(g)),
        54 => "srlz.d".to_string(),
        55 => "srlz.i".to_string(),
        56 => "flushrs".to_string(),
        57 => format!("mov ar.rsc={}", r(g)),
        58 => format!("mov {}=ar.bsp", r(g)),
        59 => format!("mov ar.bspstore={}", r(g)),
        60 => format!("ptc.l {},{}", r(g), r(g)),
        61 => format!("ptr.d {},{}", r(g), r(g)),
        62 => format!("itr.d dtr[{}]={}", r(g), r(g)),
        63 => format!("mov rr[{}]={}", r(g), r(g)),
        64 => format!("lfetch [{}]", r(g)),
        65 => format!("probe.r {}={},{}", r(g), r(g), r(g)),
        66 => format!("fcmp.unord {},{}={},{}", p(g), p(g), f(g), f(g)),
        67 => format!("fpcmp.eq.s0 {}={},{}", f(g), f(g), f(g)),
        68 => format!("ld8.c.clr {}=[r17]", r(g)),
        69 => format!("chk.a.nc {},.Lend", r(g)),
        70 => "cover".to_string(),
        _ => format!(".mem.offset {},0\n\tst8.spill [r17]={}", 8 * g.below(4), r(g)),
    }
}

/// A program of `n` instructions, with labels, ignored stops and calls among them.
fn random_program(g: &mut Gen, n: usize) -> String {
    let mut s = String::from("\t.text\n");
    for i in 0..n {
        match g.below(30) {
            0 => s.push_str(&format!(".L{i}:\n")),
            1 => s.push_str("\t;;\n"),
            2 => s.push_str("\tbr.call.sptk.many b0=.Lend\n"),
            _ => {}
        }
        let mut insn = random_insn(g);
        // gas refuses a compare with the same predicate twice.
        while let Some((lhs, _)) = insn.split_once('=') {
            let ps: Vec<&str> = lhs.split([' ', ',']).filter(|t| t.starts_with('p') && *t != "p0").collect();
            if ps.len() == 2 && ps[0] == ps[1] {
                insn = random_insn(g);
            } else {
                break;
            }
        }
        s.push_str(&format!("\t{insn}\n"));
    }
    s.push_str(".Lend:\n\tbr.ret.sptk.many b0\n");
    s
}

#[test]
fn generated_programs_in_auto_mode_match_gnu_as() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let work = scratch("generated");
    let (programs, per_program) = (300, 60);
    let (mut insns, mut insns_same, mut same) = (0, 0, 0);
    let mut failures = Vec::new();
    // Two seeds, half the programs each.
    let mut g = Gen::new(0x1a64_a070);
    for k in 0..programs {
        if k == programs / 2 {
            g = Gen::new(0xdead_beef);
        }
        let text = random_program(&mut g, per_program);
        let src = work.join(format!("prog{k:03}.s"));
        std::fs::write(&src, &text).expect("generated source");
        let g_out = match gas_auto(&gas, &src, &work.join(format!("prog{k:03}.o"))) {
            Ok(o) => o,
            Err(e) => panic!("GNU as rejects generated program {}: {e}", src.display()),
        };
        insns += per_program;
        match assemble_auto(&format!("prog{k:03}.s"), &text) {
            Ok(a) => match differs(&ours(&a, &g_out), &g_out) {
                None => {
                    same += 1;
                    insns_same += per_program;
                }
                Some(d) => failures.push(format!("{}: {d}", src.display())),
            },
            Err(e) => failures.push(format!("{}: ours failed: {e}", src.display())),
        }
    }
    eprintln!(
        "generated programs, automatic mode: {same}/{programs} identical ({insns_same}/{insns} instructions in identical programs)"
    );
    assert!(failures.is_empty(), "{} generated programs differ:\n{}", failures.len(), failures.join("\n"));
}

/// The hand-written mode cases of `tests/corpus/ia64/auto/` under each of gas's `-x` modes:
/// `.explicit`/`.auto`/`.default`, braces in either mode, `.pred.rel`, calls, `.align`,
/// inserted serializations, `.serialize.data`.
#[test]
fn mode_cases_match_gnu_as_in_every_mode() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let dir = common::root().join("tests/corpus/ia64/auto");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("auto-mode cases")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no cases in {}", dir.display());
    let work = scratch("modes");
    let mut failures = Vec::new();
    for path in &paths {
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        let text = std::fs::read_to_string(path).expect("case source");
        for (flag, mode) in [("-xauto", DvMode::Auto), ("-x", DvMode::Explicit), ("-xnone", DvMode::None)] {
            let obj = work.join(format!("{name}{flag}.o"));
            let out = Command::new(&gas).arg(flag).arg("-o").arg(&obj).arg(path).output().expect("runs gas");
            assert!(out.status.success(), "GNU as {flag} rejects {name}");
            let g = gas_auto_parts(&obj, &String::from_utf8_lossy(&out.stderr));
            match assemble_in_mode(&name, &text, &PreprocessOptions::new(), &FsLoader, mode) {
                Ok(a) => {
                    if let Some(d) = differs(&ours(&a, &g), &g) {
                        failures.push(format!("{name} {flag}: {d}"));
                    }
                }
                Err(e) => failures.push(format!("{name} {flag}: ours failed: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `acctemu asm` takes gas's spellings of the mode.
#[test]
fn cli_takes_the_gas_mode_options() {
    let case = "tests/corpus/ia64/auto/modes.s";
    for flag in ["-x", "-xexplicit", "-xauto", "-xnone", "-x=auto"] {
        let out = common::acctemu(&["asm", flag, case]);
        assert!(out.status.success(), "{flag}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // The first `;;` (line 5) is ignored in automatic mode only; acctemu's default is explicit
    // (the `;;` after the file's `.auto` is ignored in both).
    let first = "modes.s:5:2: warning: Explicit stops are ignored in auto mode";
    let auto = common::acctemu(&["asm", "-xauto", case]);
    assert!(String::from_utf8_lossy(&auto.stderr).contains(first));
    let explicit = common::acctemu(&["asm", case]);
    assert!(!String::from_utf8_lossy(&explicit.stderr).contains(first));
    assert!(String::from_utf8_lossy(&explicit.stderr).contains("modes.s:13:2: warning: Explicit stops are ignored"));
    let bad = common::acctemu(&["asm", "-xbogus", case]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Unrecognized option '-xbogus'"));
    let debug = common::acctemu(&["asm", "-xdebug", case]);
    assert!(!debug.status.success(), "-xdebug's trace is not modelled and must say so");
}
