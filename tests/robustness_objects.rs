//! Issue #11, objects and binaries: what `acctemu` does with objects it must not run as they
//! are (unapplied or corrupt relocations), with ELF headers it does not take, and with binary
//! files given where a source is expected. Each test runs the real binary.
//!
//! `tests/data/objects/movl_sym.o` is `movl_sym.S` assembled by GNU as
//! (`ia64-linux-gnu-as -x -o movl_sym.o movl_sym.S`): one `R_IA64_IMM64` against `.data` in
//! `.text` at offset 0x1, its RELA entry at file offset 0x100. `seed004_linked.elf` is the
//! golden `seed004.o` linked by GNU ld (`ia64-linux-gnu-ld -N --defsym
//! __kernel_syscall_via_epc=0x12340 -e account_sys_enter -Ttext=0x4000`), so its one
//! relocation is applied. `unwind_only.o` is `unwind_only.S` assembled the same way: its
//! only relocations are of the unwind table. `x86_ext.o` and `s390_ext.o` are their .S
//! assembled by `x86_64-linux-gnu-as` and `s390x-linux-gnu-as`.

mod common;

use common::{acctemu, root};
use std::path::PathBuf;

/// A scratch directory of this test process, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("acctemu-robustness-objects-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `bytes` to `dir/name`, returning the path as a string for the command line.
fn put(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.to_string_lossy().into_owned()
}

/// (exit status, stdout, stderr) of `acctemu args`.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = acctemu(args);
    (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn object(name: &str) -> Vec<u8> {
    std::fs::read(root().join("tests/data/objects").join(name)).expect("committed test object")
}

/// File offset of `movl_sym.o`'s one RELA entry.
const RELA: usize = 0x100;

fn patched(mut bytes: Vec<u8>, at: usize, value: u64) -> Vec<u8> {
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
    bytes
}

#[test]
fn ia64_object_with_an_unapplied_relocation_is_refused_naming_it() {
    // Before: `movl r8=sym` ran with the unrelocated immediate, r8 = 0, exit status 0.
    let (code, out, err) = run(&["run", "tests/data/objects/movl_sym.o"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("movl_sym.o: relocation R_IA64_IMM64 against `.data` in `.text` at offset 0x1 is not applied"),
        "{err}"
    );
    assert!(err.contains("link the object first"), "{err}");
}

#[test]
fn ia64_object_with_relocations_still_disassembles() {
    // objdump -d does not apply relocations either: disassembly is not refused.
    let (code, out, err) = run(&["disasm", "tests/data/objects/movl_sym.o"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("movl r8=0x0"), "{out}");
}

#[test]
fn ia64_corrupt_relocations_are_refused_as_corrupt() {
    let dir = scratch("corrupt");
    let good = object("movl_sym.o");
    let cases = [
        (
            "badsym.o",
            patched(good.clone(), RELA + 8, (99 << 32) | 0x23),
            "R_IA64_IMM64: symbol index 99 is past the symbol table (6 entries)",
        ),
        (
            "badoff.o",
            patched(good.clone(), RELA, 0x1000),
            "R_IA64_IMM64 at offset 0x1000 is past the end of `.text` (0x20 bytes)",
        ),
        ("badtype.o", patched(good, RELA + 8, (2 << 32) | 0xff), "unknown IA-64 relocation type 0xff"),
    ];
    for (name, bytes, want) in cases {
        let path = put(&dir, name, &bytes);
        let (code, out, err) = run(&["run", &path]);
        assert_eq!(code, Some(1), "{name}: {out}{err}");
        assert!(err.contains(&format!("{name}: corrupt relocation #0 in `.rela.text`: {want}")), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn golden_seed004_object_is_refused_and_its_linked_form_runs() {
    // The golden seed004.o's `movl r14=__kernel_syscall_via_epc` is unrelocated: refused.
    let (code, _, err) = run(&["run", "tests/corpus/ia64/golden/seed004.o", "--entry", "account_sys_enter"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("relocation R_IA64_IMM64 against `__kernel_syscall_via_epc` in `.text` at offset 0x61"),
        "{err}"
    );
    // Linked, the relocation is applied (`movl r14=0x12340`) and the object runs.
    let (code, out, err) = run(&[
        "run",
        "tests/data/objects/seed004_linked.elf",
        "--entry",
        "account_sys_enter",
        "--set",
        "r13=task",
        "--set",
        "r20=2300",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("stop: returned to the sentinel\n"), "{out}");
    assert!(out.contains("r20: \"0x00000000000008fc\""), "{out}");
    let (_, dis, _) = run(&["disasm", "tests/data/objects/seed004_linked.elf"]);
    assert!(dis.contains("movl r14=0x12340"), "{dis}");
}

#[test]
fn ia64_object_whose_only_relocations_are_of_the_unwind_table_runs() {
    let (code, out, err) = run(&["run", "tests/data/objects/unwind_only.o"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("r8: \"0x0000000000000007\""), "{out}");
}

/// `bytes` with the 8 bytes at `at` replaced by `value` in `big`-endian or little order.
fn with_u64(mut bytes: Vec<u8>, at: usize, value: u64, big: bool) -> Vec<u8> {
    let v = if big { value.to_be_bytes() } else { value.to_le_bytes() };
    bytes[at..at + 8].copy_from_slice(&v);
    bytes
}

/// `bytes` with the 4 bytes at `at` replaced by `value`.
fn with_u32(mut bytes: Vec<u8>, at: usize, value: u32, big: bool) -> Vec<u8> {
    let v = if big { value.to_be_bytes() } else { value.to_le_bytes() };
    bytes[at..at + 4].copy_from_slice(&v);
    bytes
}

/// File offset of section header `idx` of an ELF64 object.
fn section_header(bytes: &[u8], idx: usize, big: bool) -> usize {
    let raw: [u8; 8] = bytes[0x28..0x30].try_into().expect("e_shoff");
    let shoff = if big { u64::from_be_bytes(raw) } else { u64::from_le_bytes(raw) };
    usize::try_from(shoff).expect("small") + idx * 64
}

#[test]
fn x86_and_s390_corrupt_relocations_are_refused() {
    // `x86_ext.o` / `s390_ext.o` (GNU as, from the .S beside them): one relocation against
    // the undefined `ext` in `.text`, its RELA entry at 0x98 / 0xe0; `.rela.text` is section 2.
    let dir = scratch("corrupt-x86-s390");
    for (obj, big, rela, rtype) in [("x86_ext.o", false, 0x98, 2u64), ("s390_ext.o", true, 0xe0, 0x13)] {
        let good = object(obj);
        let sh = section_header(&good, 2, big);
        let cases = [
            // Before: this one was already refused, without the table's size.
            (
                "badsym",
                with_u64(good.clone(), rela + 8, (77 << 32) | rtype, big),
                "bad symbol index 77 (the symbol table has",
            ),
            (
                "badoff",
                with_u64(good.clone(), rela, 0x1000, big),
                "in `.text` at offset 0x1000 lies outside the section",
            ),
            ("badtype", with_u64(good.clone(), rela + 8, (2 << 32) | 0x7f, big), "unsupported relocation type 127"),
            // Before: these two ran the code with its relocation silently skipped.
            (
                "rel",
                with_u32(good.clone(), sh + 4, 9, big),
                "corrupt relocation section `.rela.text`: a REL section (sh_type 9, no addends)",
            ),
            (
                "info",
                with_u32(good.clone(), sh + 44, 40, big),
                "corrupt relocation section `.rela.text`: it applies to section index 40, past the 8 section headers",
            ),
        ];
        for (name, bytes, want) in cases {
            let path = put(&dir, &format!("{name}-{obj}"), &bytes);
            let (code, out, err) = run(&["run", &path]);
            assert_eq!(code, Some(1), "{name}-{obj}: {out}{err}");
            assert!(out.is_empty(), "{name}-{obj}: {out}");
            assert!(err.contains(want), "{name}-{obj}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn elf_header_errors_say_what_byte_is_wrong_and_what_is_supported() {
    let dir = scratch("headers");
    let x86 = object("x86_ext.o");
    let s390 = object("s390_ext.o");
    let ia64 = object("movl_sym.o");
    let set = |mut b: Vec<u8>, at: usize, bytes: &[u8]| {
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    let cases: Vec<(&str, &str, Vec<u8>, &str)> = vec![
        // Before: "big-endian ELF; only little-endian IA-64 objects are supported".
        (
            "run",
            "x86-flipped.o",
            set(x86.clone(), 5, &[2]),
            "ELF byte order does not match the architecture: EI_DATA (byte 5) is 2 (ELFDATA2MSB, big-endian), \
             but x86-64 objects are little-endian (EI_DATA 1, ELFDATA2LSB)",
        ),
        // Before: "not an IA-64 object: e_machine is 5632".
        (
            "run",
            "s390-flipped.o",
            set(s390.clone(), 5, &[1]),
            "ELF byte order does not match the architecture: EI_DATA (byte 5) is 1 (ELFDATA2LSB, little-endian), \
             but s390x objects are big-endian (EI_DATA 2, ELFDATA2MSB)",
        ),
        (
            "run",
            "x86-data0.o",
            set(x86.clone(), 5, &[0]),
            "EI_DATA (byte 5) is 0 (invalid: neither 1, ELFDATA2LSB, nor 2, ELFDATA2MSB), but x86-64 objects",
        ),
        // Before: "big-endian ELF; only little-endian IA-64 objects are supported".
        (
            "run",
            "arm-be.o",
            set(set(x86.clone(), 5, &[2]), 18, &[0, 40]),
            "not an IA-64 object: e_machine is 40 (ARM), expected 50 (EM_IA_64); `acctemu run` takes IA-64 \
             (e_machine 50), x86-64 (62) and s390x (22)",
        ),
        // Before: "32-bit ELF (ELFCLASS32); only 64-bit objects are supported".
        (
            "run",
            "x86-class7.o",
            set(x86.clone(), 4, &[7]),
            "invalid ELF class: EI_CLASS (byte 4) is 7, neither 1 (ELFCLASS32) nor 2 (ELFCLASS64, expected)",
        ),
        (
            "disasm",
            "ia64-class7.o",
            set(ia64.clone(), 4, &[7]),
            "invalid ELF class: EI_CLASS (byte 4) is 7, neither 1 (ELFCLASS32) nor 2 (ELFCLASS64, expected)",
        ),
        (
            "run",
            "ia64-be.o",
            set(set(ia64, 5, &[2]), 18, &[0, 50]),
            "EI_DATA (byte 5) is 2 (ELFDATA2MSB, big-endian), but only little-endian IA-64 objects",
        ),
        (
            "disasm",
            "x86-flipped.o",
            set(x86, 5, &[2]),
            "not an IA-64 object: e_machine is 62 (x86-64), expected 50 (EM_IA_64)",
        ),
    ];
    for (cmd, name, bytes, want) in cases {
        let path = put(&dir, name, &bytes);
        let (code, out, err) = run(&[cmd, &path]);
        assert_eq!(code, Some(1), "{cmd} {name}: {out}{err}");
        assert!(err.contains(want), "{cmd} {name}: {err}");
        assert!(!err.contains("32-bit ELF"), "{cmd} {name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
