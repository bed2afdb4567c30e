//! The IA-64 linker against GNU ld 2.40: the objects of `tests/data/link` (GNU as output of the
//! committed sources, `scripts/regen-link-objects.sh`) linked by acctemu and by
//! `ia64-linux-gnu-ld --no-relax` at the same section addresses give the same bytes, section
//! by section; and the linked objects run.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use emu_core::link::{Bindings, Linked};
use goblin::elf::Elf;

fn dir() -> PathBuf {
    common::root().join("tests/data/link")
}

fn read(name: &str) -> Vec<u8> {
    let p = dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Links `names` (objects of tests/data/link) with acctemu.
fn ours(names: &[&str]) -> Linked {
    let bytes: Vec<Vec<u8>> = names.iter().map(|n| read(n)).collect();
    let objects: Vec<(&str, &[u8])> = names.iter().zip(&bytes).map(|(n, b)| (*n, b.as_slice())).collect();
    arch_ia64::link::link(&objects, &Bindings::default()).unwrap_or_else(|e| panic!("{names:?}: {e}"))
}

/// The first address of each section name of `linked` (what `--section-start` takes).
fn starts(linked: &Linked) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for s in &linked.image.sections {
        out.entry(s.name.clone()).or_insert(s.addr);
    }
    out
}

/// Links `names` with GNU ld at acctemu's section addresses; the executable's bytes.
fn ld(ld: &std::path::Path, names: &[&str], linked: &Linked, tag: &str) -> Vec<u8> {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ia64_link_{tag}_{}", std::process::id()));
    let mut cmd = std::process::Command::new(ld);
    cmd.current_dir(dir()).args(["--no-relax", "-static", "-e", "start", "-o"]).arg(&out);
    for (name, addr) in starts(linked) {
        cmd.arg(format!("--section-start={name}={addr:#x}"));
    }
    cmd.args(names);
    let o = cmd.output().unwrap_or_else(|e| panic!("running ld: {e}"));
    assert!(o.status.success(), "ld {names:?}: {}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let _ = std::fs::remove_file(&out);
    bytes
}

/// The bytes ld's executable holds at `addr..addr+len` (zeros for NOBITS).
fn ld_bytes(elf: &Elf<'_>, file: &[u8], addr: u64, len: usize) -> Option<Vec<u8>> {
    for sh in &elf.section_headers {
        if sh.sh_addr <= addr && addr + len as u64 <= sh.sh_addr + sh.sh_size && sh.sh_flags & 2 != 0 {
            if sh.sh_type == goblin::elf::section_header::SHT_NOBITS {
                return Some(vec![0; len]);
            }
            let at = usize::try_from(sh.sh_offset + (addr - sh.sh_addr)).ok()?;
            return file.get(at..at + len).map(<[u8]>::to_vec);
        }
    }
    None
}

/// acctemu's link of `names` and ld's agree on every byte of every section.
fn same_as_ld(names: &[&str], tag: &str) {
    let Some(tool) = common::oracle("ia64-linux-gnu-ld") else { return };
    let linked = ours(names);
    let exe = ld(&tool, names, &linked, tag);
    let elf = Elf::parse(&exe).expect("ld output parses");
    eprintln!("{tag}: acctemu sections {:x?}, gp {:x?}", starts(&linked), linked.gp);
    for s in linked.image.sections.iter().filter(|s| !s.data.is_empty()) {
        let theirs = ld_bytes(&elf, &exe, s.addr, s.data.len())
            .unwrap_or_else(|| panic!("{tag}: ld has no bytes for {} at {:#x}", s.name, s.addr));
        for (i, (a, b)) in s.data.iter().zip(&theirs).enumerate() {
            assert_eq!(
                a,
                b,
                "{tag}: {} at {:#x} (+{i:#x}) differs: acctemu {:02x?} ld {:02x?}",
                s.name,
                s.addr + i as u64,
                &s.data[i & !0xf..(i & !0xf) + 16.min(s.data.len() - (i & !0xf))],
                &theirs[i & !0xf..(i & !0xf) + 16.min(theirs.len() - (i & !0xf))]
            );
        }
    }
    // The global pointer is the one ld chose (it is in every gp-relative value above too).
    if let Some(gp) = linked.gp {
        let sym = elf.syms.iter().find(|s| elf.strtab.get_at(s.st_name) == Some("__gp"));
        if let Some(sym) = sym {
            assert_eq!(sym.st_value, gp, "{tag}: __gp");
        }
    }
}

#[test]
fn direct_pc_relative_gp_relative_and_data_relocations_match_ld() {
    same_as_ld(&["dir_a.o", "dir_b.o"], "dir");
}

#[test]
fn linkage_table_relocations_match_ld() {
    same_as_ld(&["got_a.o", "got_b.o"], "got");
}

#[test]
fn function_descriptor_relocations_match_ld() {
    same_as_ld(&["fptr_a.o", "fptr_b.o"], "fptr");
}

#[test]
fn gp_choice_with_relaxed_targets_and_several_slots_matches_ld() {
    same_as_ld(&["gp_a.o", "gp_b.o"], "gp");
}
