//! The real kernel files: every `.S` under `arch/ia64` of Debian's `linux-source-6.1`
//! (kernel/, lib/, scripts/; not the linker scripts), preprocessed by `cpp` as the kernel build
//! would, assembled by GNU as 2.40 (`-x -mconstant-gp`) and by us from the same text; every
//! section our object holds must have GNU as's bytes, our relocations GNU as's offsets and
//! types, and the whole ELF object our writer makes GNU as's file byte for byte. Prints
//! per-file figures.
//!
//! The kernel build generates headers that need a configured tree and an ia64 compiler
//! (`autoconf.h`, `asm-offsets.h`, the syscall table, the `asm-generic` wrappers). This test
//! writes stand-ins into a scratch directory: the config is `generic_defconfig` plus the
//! defaults the files test; `asm-offsets.h` gives every name `asm-offsets.c` defines a small
//! multiple of 8 (the three offsets the files check with `#if` are 0, `IA64_UPID_SHIFT` is 5).
//! Both assemblers read the same text, so the values only need to be in range.
//!
//! The sources are `tests/common`'s `kernel_source()`. Missing sources, `cpp` or the GNU
//! tools skip the test, or fail it under `ACCTEMU_REQUIRE_ORACLES=1`.

mod common;

use arch_ia64::asm::{assemble, Assembly};
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Files GNU as itself cannot assemble here, with the reason.
const SKIP: &[(&str, &str)] =
    &[("arch/ia64/kernel/gate-data.S", ".incbin of gate.so, which only a full kernel build produces")];

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ia64-kernel-files")
}

use common::kernel_pp::{corpus_files, generated_headers, preprocess};

/// The sections (name -> contents) and relocations (section, offset, type number) of an object.
type Relocs = BTreeMap<String, Vec<(u64, u32)>>;

fn read_object(path: &Path) -> (BTreeMap<String, Vec<u8>>, Relocs) {
    let bytes = std::fs::read(path).expect("GNU as object");
    let elf = goblin::elf::Elf::parse(&bytes).expect("GNU as writes valid ELF");
    let mut sections = BTreeMap::new();
    for sh in &elf.section_headers {
        let name = elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("").to_string();
        if sh.sh_type == goblin::elf::section_header::SHT_PROGBITS {
            let start = sh.sh_offset as usize;
            let data = bytes.get(start..start + sh.sh_size as usize).unwrap_or_default().to_vec();
            sections.insert(name, data);
        } else if sh.sh_type == goblin::elf::section_header::SHT_NOBITS {
            sections.insert(name, vec![0; sh.sh_size as usize]);
        }
    }
    let mut relocs: Relocs = BTreeMap::new();
    for (idx, rs) in &elf.shdr_relocs {
        let Some(target) = elf.section_headers.get(*idx).map(|h| h.sh_info as usize) else { continue };
        let Some(th) = elf.section_headers.get(target) else { continue };
        let name = elf.shdr_strtab.get_at(th.sh_name).unwrap_or("").to_string();
        let mut v: Vec<(u64, u32)> = rs.iter().map(|r| (r.r_offset, r.r_type)).collect();
        v.sort();
        relocs.insert(name, v);
    }
    (sections, relocs)
}

/// One file's figures.
#[derive(Default)]
struct Figures {
    sections_same: usize,
    sections: usize,
    text_same: bool,
    relocs_same: usize,
    relocs: usize,
    /// Relocations of the unwind tables (the object writer's own, checked with the whole
    /// object file), GNU as's count.
    relocs_unwind: usize,
    differences: Vec<String>,
}

fn compare(ours: &Assembly, gas: &BTreeMap<String, Vec<u8>>, gas_relocs: &Relocs) -> Figures {
    let mut f = Figures::default();
    for sec in &ours.object {
        // An empty section we opened without writing is not in GNU as's output when gas
        // never opened it; compare only what has contents on either side.
        let theirs = gas.get(&sec.name);
        if sec.data.is_empty() && theirs.is_none_or(|d| d.is_empty()) {
            continue;
        }
        f.sections += 1;
        match theirs {
            Some(d) if *d == sec.data => {
                f.sections_same += 1;
                if sec.name == ".text" {
                    f.text_same = true;
                }
            }
            Some(d) => {
                let first = d.iter().zip(&sec.data).position(|(a, b)| a != b).unwrap_or(d.len().min(sec.data.len()));
                f.differences.push(format!(
                    "{}: {} bytes (GNU as {}), first difference at {first:#x}",
                    sec.name,
                    sec.data.len(),
                    d.len()
                ));
            }
            None => f.differences.push(format!("{}: not in GNU as's object", sec.name)),
        }
    }
    if !ours.object.iter().any(|s| s.name == ".text" && !s.data.is_empty())
        && gas.get(".text").is_none_or(Vec::is_empty)
    {
        f.text_same = true;
    }
    let mut mine: Relocs = BTreeMap::new();
    for r in &ours.relocs {
        let name = ours.object.get(r.section).map(|s| s.name.clone()).unwrap_or_default();
        mine.entry(name).or_default().push((r.offset, r.r_type.number));
    }
    for v in mine.values_mut() {
        v.sort();
    }
    let all: std::collections::BTreeSet<&String> = mine.keys().chain(gas_relocs.keys()).collect();
    for name in all {
        let a = mine.get(name).cloned().unwrap_or_default();
        let b = gas_relocs.get(name).cloned().unwrap_or_default();
        if name.starts_with(".IA_64.unwind") && a.is_empty() {
            f.relocs_unwind += b.len();
            continue;
        }
        f.relocs += b.len().max(a.len());
        let same = a.iter().filter(|x| b.binary_search(x).is_ok()).count();
        f.relocs_same += same;
        if a != b {
            let missing = b.iter().find(|x| a.binary_search(x).is_err());
            let extra = a.iter().find(|x| b.binary_search(x).is_err());
            f.differences.push(format!(
                "relocations of {name}: ours {}, GNU as {}; first missing {missing:x?}, first extra {extra:x?}",
                a.len(),
                b.len()
            ));
        }
    }
    f
}

#[test]
fn kernel_files_assemble_to_the_gnu_as_bytes() {
    let Some(tree) = common::kernel_source() else { return };
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    if Command::new("cpp").arg("--version").output().is_err() {
        assert!(!common::oracles_required(), "cpp is missing but ACCTEMU_REQUIRE_ORACLES=1");
        eprintln!("note: no cpp; skipping the kernel-file comparison");
        return;
    }
    let gen = scratch().join("generated-headers");
    generated_headers(&tree, &gen);
    let work = scratch().join("objects");
    std::fs::create_dir_all(&work).expect("object directory");

    let mut report = String::new();
    let mut failures = Vec::new();
    let (mut files, mut text_same, mut all_same, mut objects_same) = (0, 0, 0, 0);
    let configs: [(&str, &[&str]); 2] =
        [("generic_defconfig", &[]), ("+ VIRT_CPU_ACCOUNTING_NATIVE", &["CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=1"])];
    let started = std::time::Instant::now();
    let mut ours_time = std::time::Duration::ZERO;
    for ((config, defines), file) in configs.iter().flat_map(|c| corpus_files(&tree).into_iter().map(move |f| (*c, f)))
    {
        let file_label = format!("{file} [{config}]");
        let file = file.as_str();
        if let Some((_, why)) = SKIP.iter().find(|(f, _)| *f == file) {
            report.push_str(&format!("{file_label}: skipped ({why})\n"));
            continue;
        }
        let text = match preprocess(&tree, &gen, file, defines) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{file_label}: cpp failed: {e}"));
                continue;
            }
        };
        let stem = format!("{}{}", file.replace('/', "_"), if defines.is_empty() { "" } else { "-acct" });
        let src = work.join(format!("{stem}.s"));
        let obj = work.join(format!("{stem}.o"));
        std::fs::write(&src, &text).expect("preprocessed text");
        let out =
            Command::new(&gas).args(["-x", "-mconstant-gp", "-o"]).arg(&obj).arg(&src).output().expect("runs gas");
        if !out.status.success() {
            failures.push(format!("{file_label}: GNU as failed: {}", String::from_utf8_lossy(&out.stderr)));
            continue;
        }
        files += 1;
        let (gas_sections, gas_relocs) = read_object(&obj);
        // `.s`: the text is already preprocessed.
        let t0 = std::time::Instant::now();
        let assembled = assemble(&format!("{stem}.s"), &text, &PreprocessOptions::new(), &FsLoader);
        ours_time += t0.elapsed();
        let ours = match assembled {
            Ok(a) => a,
            Err(d) => {
                report.push_str(&format!(
                    "{file_label}: {} errors, first: {}\n",
                    d.0.len(),
                    d.0.first().map(|x| x.message.as_str()).unwrap_or("")
                ));
                failures.push(format!("{file_label}: our assembler failed with {} errors", d.0.len()));
                continue;
            }
        };
        // Our sections beside GNU as's object, for a look with `objdump -b binary`.
        for sec in ours.object.iter().filter(|s| s.kind == emu_core::image::SectionKind::Code) {
            std::fs::write(work.join(format!("{stem}.ours{}.bin", sec.name)), &sec.data).expect("our code");
        }
        let mut f = compare(&ours, &gas_sections, &gas_relocs);
        if let Some(d) = symbolic_relocs_differ(&ours, &obj) {
            f.differences.push(d);
        }
        // The whole file as our object writer makes it (`-mconstant-gp`, as gas was run).
        let mut ours = ours;
        ours.elf.e_flags |= arch_ia64::asm::object::EF_IA_64_CONS_GP;
        let object = match ours.object_file() {
            Ok(bytes) if bytes == std::fs::read(&obj).expect("GNU as object") => "identical".to_string(),
            Ok(bytes) => {
                std::fs::write(work.join(format!("{stem}.ours.o")), &bytes).expect("our object");
                format!("DIFFERS (ours in {stem}.ours.o)")
            }
            Err(e) => format!("not written: {}", e.to_string().lines().next().unwrap_or("")),
        };
        objects_same += usize::from(object == "identical");
        if object != "identical" {
            f.differences.push(format!("whole object {object}"));
        }
        text_same += usize::from(f.text_same);
        all_same += usize::from(f.sections_same == f.sections);
        report.push_str(&format!(
            "{file_label}: 0 errors; .text {}; sections identical {}/{}; relocations (offset, type) identical {}/{} \
             (+{} in the unwind tables, checked with the whole object); whole object {object}\n",
            if f.text_same { "identical" } else { "DIFFERS" },
            f.sections_same,
            f.sections,
            f.relocs_same,
            f.relocs,
            f.relocs_unwind
        ));
        for d in &f.differences {
            report.push_str(&format!("    {d}\n"));
        }
        if !f.differences.is_empty() {
            failures.push(format!("{file_label}: {}", f.differences.join("; ")));
        }
    }
    eprintln!("{report}");
    eprintln!(
        "{files} assemblies: .text identical in {text_same}, every section we write identical in {all_same}, \
         whole object file identical in {objects_same}; our assembler took {:.2} s of {:.2} s in all (debug builds are slower)",
        ours_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{} kernel files differ:\n{}", failures.len(), failures.join("\n"));
}

/// The corpus files of the kernel dialect (`tests/corpus/ia64/src/kernel_*.S`): every section we
/// write and every relocation (offset, type, symbol or section, addend) as in GNU as's golden
/// object. Needs no oracle: the goldens are committed.
#[test]
fn kernel_dialect_corpus_matches_the_golden_objects() {
    let corpus = common::root().join("tests/corpus/ia64");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (stem, obj) in common::golden_objects().into_iter().filter(|(s, _)| s.starts_with("kernel_")) {
        let src = corpus.join("src").join(format!("{stem}.S"));
        let text = std::fs::read_to_string(&src).expect("corpus source");
        let ours = match assemble(&format!("{stem}.S"), &text, &PreprocessOptions::new(), &FsLoader) {
            Ok(a) => a,
            Err(d) => {
                failures.push(format!("{stem}: {} errors, first: {:?}", d.0.len(), d.0.first().map(|x| &x.message)));
                continue;
            }
        };
        let (sections, relocs) = read_object(&obj);
        let f = compare(&ours, &sections, &relocs);
        if !f.differences.is_empty() {
            failures.push(format!("{stem}: {}", f.differences.join("; ")));
        }
        if let Some(d) = symbolic_relocs_differ(&ours, &obj) {
            failures.push(format!("{stem}: {d}"));
        }
        checked += 1;
    }
    assert!(checked >= 1, "no kernel_*.S corpus files");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every relocation as (section, offset, type, symbol or section name, addend), ours against
/// GNU as's object; a description of the first difference, if any. Local symbols become their
/// section plus offset as gas writes them, except for `@fptr`.
fn symbolic_relocs_differ(ours: &Assembly, obj: &Path) -> Option<String> {
    let bytes = std::fs::read(obj).expect("object");
    let elf = goblin::elf::Elf::parse(&bytes).expect("valid ELF");
    let mut theirs = Vec::new();
    for (idx, rs) in &elf.shdr_relocs {
        let target = elf.section_headers.get(*idx).map_or(0, |h| h.sh_info as usize);
        let tname = elf.section_headers.get(target).and_then(|h| elf.shdr_strtab.get_at(h.sh_name)).unwrap_or("");
        if tname.starts_with(".IA_64.unwind") {
            continue; // the writer's own (not in Assembly::relocs); the whole-object check covers them
        }
        for r in rs.iter() {
            let name = match elf.syms.get(r.r_sym) {
                Some(s) if s.st_type() == goblin::elf::sym::STT_SECTION => elf
                    .section_headers
                    .get(s.st_shndx)
                    .and_then(|h| elf.shdr_strtab.get_at(h.sh_name))
                    .unwrap_or("")
                    .to_string(),
                Some(s) => elf.strtab.get_at(s.st_name).unwrap_or("").to_string(),
                None => String::new(),
            };
            theirs.push((tname.to_string(), r.r_offset, r.r_type, name, r.r_addend.unwrap_or(0)));
        }
    }
    theirs.sort();
    let fptr = |t: u32| matches!(t, 0x43 | 0x45 | 0x47);
    let mut mine: Vec<(String, u64, u32, String, i64)> = ours
        .relocs
        .iter()
        .map(|r| {
            let tname = ours.object.get(r.section).map(|s| s.name.clone()).unwrap_or_default();
            let (name, addend) = match r.local {
                Some((sec, off)) if !r.global && !fptr(r.r_type.number) => (
                    ours.object.get(sec).map(|s| s.name.clone()).unwrap_or_default(),
                    r.addend.wrapping_add(off as i64),
                ),
                _ => (r.symbol.clone(), r.addend),
            };
            (tname, r.offset, r.r_type.number, name, addend)
        })
        .collect();
    mine.sort();
    if mine == theirs {
        return None;
    }
    let first = mine.iter().zip(&theirs).find(|(a, b)| a != b);
    Some(format!("relocations differ ({} ours, {} GNU as); first difference: {first:x?}", mine.len(), theirs.len()))
}
