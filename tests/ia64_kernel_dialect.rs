//! The kernel dialect corpus (`tests/corpus/ia64/src/kernel_*.S`: the constructs of the
//! arch/ia64 files, written here): every section we write and every relocation (offset,
//! type, symbol or section, addend) as in GNU as's committed golden object. Needs no oracle.
//! The real kernel files themselves are `tests/ia64_kernel_corpus.rs`.

mod common;

use arch_ia64::asm::{assemble, Assembly};
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use std::collections::BTreeMap;
use std::path::Path;

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

/// The differences between our assembly and GNU as's sections and relocations (offset, type).
fn compare(ours: &Assembly, gas: &BTreeMap<String, Vec<u8>>, gas_relocs: &Relocs) -> Vec<String> {
    let mut differences = Vec::new();
    for sec in &ours.object {
        // An empty section we opened without writing is not in GNU as's output when gas
        // never opened it; compare only what has contents on either side.
        let theirs = gas.get(&sec.name);
        if sec.data.is_empty() && theirs.is_none_or(|d| d.is_empty()) {
            continue;
        }
        match theirs {
            Some(d) if *d == sec.data => {}
            Some(d) => {
                let first = d.iter().zip(&sec.data).position(|(a, b)| a != b).unwrap_or(d.len().min(sec.data.len()));
                differences.push(format!(
                    "{}: {} bytes (GNU as {}), first difference at {first:#x}",
                    sec.name,
                    sec.data.len(),
                    d.len()
                ));
            }
            None => differences.push(format!("{}: not in GNU as's object", sec.name)),
        }
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
        // The unwind tables' relocations are the object writer's own, not in Assembly::relocs.
        if name.starts_with(".IA_64.unwind") && a.is_empty() {
            continue;
        }
        if a != b {
            let missing = b.iter().find(|x| a.binary_search(x).is_err());
            let extra = a.iter().find(|x| b.binary_search(x).is_err());
            differences.push(format!(
                "relocations of {name}: ours {}, GNU as {}; first missing {missing:x?}, first extra {extra:x?}",
                a.len(),
                b.len()
            ));
        }
    }
    differences
}

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
        let differences = compare(&ours, &sections, &relocs);
        if !differences.is_empty() {
            failures.push(format!("{stem}: {}", differences.join("; ")));
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
