//! The IA-64 linker against GNU ld 2.40: the objects of `tests/data/link` (GNU as output of the
//! committed sources, `scripts/regen-link-objects.sh`) linked by acctemu and by
//! `ia64-linux-gnu-ld --no-relax` at the same section addresses give the same bytes, section
//! by section; and the linked objects run.

mod common;
#[path = "common/kernel_corpus.rs"]
mod kernel_corpus;

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

/// Links `objects` (name, bytes) with acctemu.
fn ours(objects: &[(String, Vec<u8>)], bindings: &Bindings) -> Linked {
    let list: Vec<(&str, &[u8])> = objects.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    arch_ia64::link::link(&list, bindings).unwrap_or_else(|e| panic!("{e}"))
}

/// The first address of each section name of `linked` (what `--section-start` takes).
fn starts(linked: &Linked) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for s in &linked.image.sections {
        out.entry(s.name.clone()).or_insert(s.addr);
    }
    out
}

/// Links the files `paths` with GNU ld at acctemu's section addresses, the symbols acctemu
/// bound defined with `--defsym`; the executable's bytes.
/// The executable stays in the target's scratch directory (`ia64_link_TAG`) for inspection.
fn ld(ld: &std::path::Path, paths: &[PathBuf], linked: &Linked, bindings: &Bindings, tag: &str) -> Vec<u8> {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ia64_link_{tag}"));
    // A script placing each output section where acctemu did, gathering the same input
    // sections, in one segment (acctemu's SEGREL base is the link base).
    let mut script = String::from("PHDRS { all PT_LOAD; }\nSECTIONS {\n");
    let mut sections: Vec<(&String, &u64)> = Vec::new();
    let map = starts(linked);
    sections.extend(map.iter().filter(|(n, _)| n.as_str() != emu_core::link::STUB_SECTION));
    sections.sort_by_key(|(_, a)| **a);
    for (name, addr) in sections {
        let gathers = matches!(name.as_str(), ".text" | ".data" | ".rodata" | ".bss" | ".sdata" | ".sbss")
            || name.starts_with(".IA_64.unwind");
        let mut patterns = if gathers { format!("{name} {name}.*") } else { name.clone() };
        if name == ".bss" {
            patterns.push_str(") *(COMMON");
        }
        if name == ".sbss" {
            patterns.push_str(") *(.scommon");
        }
        // ld's default script's fill of .text, which acctemu fills alike.
        let fill = if name == ".text" { " =0x00300000010070000002000001000400" } else { "" };
        script.push_str(&format!("  {name} {addr:#x} : {{ *({patterns}) }} :all{fill}\n"));
    }
    script.push_str("}\n");
    let script_path = out.with_extension("ld");
    std::fs::write(&script_path, script).expect("linker script");
    let mut cmd = std::process::Command::new(ld);
    cmd.args(["--no-relax", "-static", "-e", "0", "-T"]).arg(&script_path).arg("-o").arg(&out);
    for (name, addr) in &bindings.data {
        cmd.arg(format!("--defsym={name}={addr:#x}"));
    }
    for s in &linked.stubs {
        cmd.arg(format!("--defsym={}={:#x}", s.name, s.entry));
    }
    cmd.args(paths);
    let o = cmd.output().unwrap_or_else(|e| panic!("running ld: {e}"));
    assert!(o.status.success(), "ld {paths:?}: {}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()))
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

/// acctemu's link of the files `paths` and ld's agree on every byte of every section;
/// returns acctemu's link.
fn check_against_ld(paths: &[PathBuf], bindings: &Bindings, tag: &str) -> Option<Linked> {
    let tool = common::oracle("ia64-linux-gnu-ld")?;
    let objects: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))))
        .collect();
    let linked = ours(&objects, bindings);
    let exe = ld(&tool, paths, &linked, bindings, tag);
    let elf = Elf::parse(&exe).expect("ld output parses");
    eprintln!("{tag}: acctemu sections {:x?}, gp {:x?}", starts(&linked), linked.gp);
    // ld orders its function descriptors by its hash tables: a data word holding a
    // descriptor's address may differ when both point at descriptors with the same entry
    // and gp, and the descriptor table is compared as a set.
    let our_opd = linked.image.section(emu_core::link::OPD_SECTION).map(|s| (s.addr, s.data.clone()));
    let ld_opd = elf
        .section_headers
        .iter()
        .find(|sh| elf.shdr_strtab.get_at(sh.sh_name) == Some(".opd"))
        .and_then(|sh| Some((sh.sh_addr, ld_bytes(&elf, &exe, sh.sh_addr, usize::try_from(sh.sh_size).ok()?)?)));
    let descriptor = |opd: &Option<(u64, Vec<u8>)>, addr: u64| -> Option<Vec<u8>> {
        let (base, data) = opd.as_ref()?;
        let off = usize::try_from(addr.checked_sub(*base)?).ok()?;
        data.get(off..off + 16).map(<[u8]>::to_vec)
    };
    let word =
        |d: &[u8], at: usize| d.get(at..at + 8).map(|w| w.iter().rev().fold(0u64, |v, b| v << 8 | u64::from(*b)));
    let mut compared = 0;
    let mut descriptor_words = 0;
    for s in linked.image.sections.iter().filter(|s| !s.data.is_empty() && s.name != emu_core::link::STUB_SECTION) {
        let theirs = ld_bytes(&elf, &exe, s.addr, s.data.len())
            .unwrap_or_else(|| panic!("{tag}: ld has no bytes for {} at {:#x}", s.name, s.addr));
        if s.name == emu_core::link::OPD_SECTION {
            let mut a: Vec<&[u8]> = s.data.chunks(16).collect();
            let mut b: Vec<&[u8]> = theirs.chunks(16).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{tag}: the descriptors differ");
            compared += s.data.len();
            continue;
        }
        let mut i = 0;
        while i < s.data.len() {
            if s.data.get(i) != theirs.get(i) {
                let at = i & !7;
                let (ours_w, ld_w) = (word(&s.data, at), word(&theirs, at));
                let same_descriptor = match (ours_w, ld_w) {
                    (Some(x), Some(y)) => {
                        let (dx, dy) = (descriptor(&our_opd, x), descriptor(&ld_opd, y));
                        dx.is_some() && dx == dy
                    }
                    _ => false,
                };
                if same_descriptor {
                    descriptor_words += 1;
                    i = at + 8;
                    continue;
                }
                let row = |d: &[u8]| d.get(i & !0xf..((i & !0xf) + 16).min(d.len())).map(<[u8]>::to_vec);
                panic!(
                    "{tag}: {} at {:#x} (+{i:#x}) differs: acctemu {:02x?} ld {:02x?}",
                    s.name,
                    s.addr + i as u64,
                    row(&s.data),
                    row(&theirs)
                );
            }
            i += 1;
        }
        compared += s.data.len();
    }
    eprintln!("{tag}: {descriptor_words} words name the same descriptor at another place of ld's table");
    eprintln!("{tag}: {compared} bytes identical to ld's");
    Some(linked)
}

/// The objects `names` of tests/data/link agree with ld.
fn same_as_ld(names: &[&str], tag: &str) {
    let paths: Vec<PathBuf> = names.iter().map(|n| dir().join(n)).collect();
    check_against_ld(&paths, &Bindings::default(), tag);
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

/// GNU as's objects of arch/ia64/lib (the shared kernel corpus's base build; the division
/// files in their first variant, `__divsi3`/`__divdi3`, as the Makefile's plain objects):
/// (name, path) of each, named `lib-FILE`, or `None` when the tree or the tools are missing
/// (and oracles are optional).
fn kernel_lib_objects() -> Option<Vec<(String, PathBuf)>> {
    let tree = common::kernel_source()?;
    let gas = common::oracle("ia64-linux-gnu-as")?;
    common::oracle("ia64-linux-gnu-ld")?;
    let objtree = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ia64-link-kernel-lib");
    let _ = std::fs::remove_dir_all(&objtree);
    let corpus = kernel_corpus::prepare(&tree, &objtree, false, None);
    let mut libs = Vec::new();
    for b in corpus.builds.iter().filter(|b| b.file.starts_with("arch/ia64/lib/") && b.defines.is_empty()) {
        let obj = kernel_corpus::gas_object(b, &corpus.objtree, &gas).unwrap_or_else(|e| panic!("{e}"));
        let stem = b.file.trim_start_matches("arch/ia64/lib/").trim_end_matches(".S");
        libs.push((format!("lib-{stem}"), obj));
    }
    Some(libs)
}

/// The undefined symbols of an object.
fn undefined(bytes: &[u8]) -> Vec<String> {
    let elf = Elf::parse(bytes).expect("object parses");
    let mut out: Vec<String> = elf
        .syms
        .iter()
        .filter(|s| s.st_shndx == 0 && s.st_name != 0)
        .filter_map(|s| elf.strtab.get_at(s.st_name).map(str::to_string))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn kernel_lib_objects_link_alone_with_stubs_and_together_as_ld_links_them() {
    let Some(libs) = kernel_lib_objects() else { return };
    // Every routine of arch/ia64/lib (issue 14's list; flush, xor and the _mck copies too).
    assert_eq!(libs.len(), 17, "{libs:?}");
    for (name, path) in &libs {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let bindings = Bindings { stubs: undefined(&bytes), ..Bindings::default() };
        let linked = ours(&[(name.clone(), bytes)], &bindings);
        let code = linked.image.sections.iter().filter(|s| s.kind == emu_core::image::SectionKind::Code);
        assert!(code.map(|s| s.data.len()).sum::<usize>() > 0, "{name}: no code");
        assert_eq!(linked.stubs.len(), bindings.stubs.len(), "{name}");
    }
    // The two sets a kernel links: the plain copies, or the machine-check-safe ones (they
    // define the same symbols). flush.S reads two variables: bound to harness data.
    let data: BTreeMap<String, u64> =
        [("ia64_cache_stride_shift", 0x7300_0000), ("ia64_i_cache_stride_shift", 0x7300_0008)]
            .into_iter()
            .map(|(n, a)| (n.to_string(), a))
            .collect();
    let bindings = Bindings { data, ..Bindings::default() };
    let plain = ["lib-memcpy_mck", "lib-copy_page_mck"];
    let mck = ["lib-memcpy", "lib-copy_page", "lib-copy_user"];
    for (tag, without) in [("kernel-lib", &plain[..]), ("kernel-lib-mck", &mck[..])] {
        let paths: Vec<PathBuf> =
            libs.iter().filter(|(n, _)| !without.contains(&n.as_str())).map(|(_, p)| p.clone()).collect();
        let linked = check_against_ld(&paths, &bindings, tag).expect("ld is there");
        // The exception table's entries point into the code (PCREL32LSB applied).
        let code = |a: u64| {
            linked.image.sections.iter().any(|s| s.kind == emu_core::image::SectionKind::Code && s.contains(a))
        };
        let ex = linked.image.section("__ex_table").expect("__ex_table");
        for (i, w) in ex.data.chunks_exact(8).enumerate() {
            // Each entry: the faulting instruction and its continuation, both self-relative
            // (bundle | slot), into the code.
            for (k, half) in w.chunks_exact(4).enumerate() {
                let rel = i64::from(i32::from_le_bytes([half[0], half[1], half[2], half[3]]));
                let at = (ex.addr + 8 * i as u64 + 4 * k as u64).wrapping_add(rel as u64);
                assert!(code(at & !0xf), "{tag}: __ex_table entry {i}.{k} -> {at:#x}");
            }
        }
    }
}

#[test]
fn a_long_branch_over_16_mib_matches_ld() {
    same_as_ld(&["far_a.o", "far_b.o"], "far");
}

#[test]
fn thread_local_relocations_match_ld() {
    same_as_ld(&["tls_a.o", "tls_b.o"], "tls");
}

#[test]
fn common_and_weak_symbols_resolve_as_ld_resolves_them() {
    same_as_ld(&["common_a.o", "common_b.o"], "common");
    let objects = [("common_a.o".to_string(), read("common_a.o")), ("common_b.o".to_string(), read("common_b.o"))];
    let linked = ours(&objects, &Bindings::default());
    let sym = |n: &str| linked.image.symbol(n).unwrap_or_else(|| panic!("{n}")).clone();
    assert_eq!(sym("cvar").size, 32);
    assert_eq!(sym("cvar").value % 16, 0);
    // The strong wfunc is common_b.o's (after common_a.o's .text).
    assert!(sym("wfunc").value > sym("start").value + 0x20, "{:?}", sym("wfunc"));
}

#[test]
fn a_branch_out_of_reach_is_an_error_naming_object_section_offset_and_symbol() {
    let objects = [("farbr_a.o".to_string(), read("farbr_a.o")), ("far_b.o".to_string(), read("far_b.o"))];
    let list: Vec<(&str, &[u8])> = objects.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let err = arch_ia64::link::link(&list, &Bindings::default()).expect_err("out of reach");
    let msg = err.to_string();
    assert!(
        msg.starts_with("farbr_a.o: relocation R_IA64_PCREL21B against `farfunc` in `.text` at offset 0x2: value"),
        "{msg}"
    );
    assert!(msg.ends_with("overflows"), "{msg}");
}

#[test]
fn a_tprel_data_word_is_the_offset_from_the_thread_pointer() {
    // ld 2.40 refuses R_IA64_TPREL64LSB in a static link ("unsupported reloc"): checked
    // against the definition instead: tvar - (start of the TLS segment - 16).
    let objects = [("tlsdata_a.o".to_string(), read("tlsdata_a.o")), ("tls_b.o".to_string(), read("tls_b.o"))];
    let linked = ours(&objects, &Bindings::default());
    let tdata = linked.image.section(".tdata").expect(".tdata");
    let tvar = linked.image.symbol("tvar").expect("tvar").value;
    let data = linked.image.section(".data").expect(".data");
    let word = u64::from_le_bytes(data.data[..8].try_into().expect("8 bytes"));
    assert_eq!(word, tvar - (tdata.addr - 16));
}

#[test]
fn the_cli_links_several_objects_and_runs_them_with_a_stub() {
    let d = "tests/data/link";
    let o = common::acctemu(&[
        "run",
        "-v",
        &format!("{d}/call_a.o"),
        &format!("{d}/call_b.o"),
        "--entry",
        "caller",
        "--harness",
        &format!("{d}/call.toml"),
    ]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{out}{err}");
    assert!(out.starts_with("stop: returned to the sentinel\n"), "{out}");
    // callee: 5 + 10; callee2 through its descriptor: 100 + 7; the stub: 42; jiffies: 1234.
    for want in [
        "r9: \"0x000000000000000f\"",
        "r10: \"0x000000000000006b\"",
        "r11: \"0x000000000000002a\"",
        "r16: \"0x00000000000004d2\"",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    // The stub's stated cost is a stall cause of its own.
    assert!(out.lines().any(|l| l.trim_start().starts_with("stub schedule") && l.ends_with(" 120")), "{out}");
    // Without the harness the unbound symbols are named, all of them.
    let o = common::acctemu(&["run", &format!("{d}/call_a.o"), &format!("{d}/call_b.o"), "--entry", "caller"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("2 undefined symbols with no binding: `schedule` (needed by tests/data/link/call_a.o), `jiffies`"),
        "{err}"
    );
}

#[test]
fn the_cli_refuses_objects_of_mixed_architectures() {
    let o = common::acctemu(&["run", "tests/data/link/call_a.o", "tests/data/objects/x86_ext.o"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains(
            "mixed architectures: tests/data/link/call_a.o is IA-64, but tests/data/objects/x86_ext.o is x86-64"
        ),
        "{err}"
    );
}

#[test]
fn a_call_through_pltoff_reaches_the_function_through_its_descriptor() {
    // PLTOFF22, PLTOFF64I and PLTOFF64LSB give the same gp-relative offset of the callee's
    // descriptor; the call through it returns 30 + 12.
    let d = "tests/data/link";
    let o = common::acctemu(&[
        "run",
        "-v",
        &format!("{d}/pltoff_a.o"),
        &format!("{d}/pltoff_b.o"),
        "--entry",
        "pltcaller",
        "--set",
        "r1=__gp",
    ]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{out}{err}");
    assert!(out.starts_with("stop: returned to the sentinel\n"), "{out}");
    assert!(out.contains("r8: \"0x000000000000002a\""), "{out}");
    let reg = |name: &str| {
        let line = out.lines().find(|l| l.trim_start().starts_with(&format!("{name}: "))).expect(name);
        u64::from_str_radix(line.split('"').nth(1).expect("quoted").trim_start_matches("0x"), 16).expect("hex")
    };
    let (gp, imm, desc, word) = (reg("r1"), reg("r9"), reg("r10"), reg("r11"));
    assert_eq!(imm, word, "PLTOFF64I and PLTOFF64LSB agree");
    assert_eq!(desc, gp + imm, "the offset is from gp");
}
