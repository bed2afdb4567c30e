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
//! only relocations are of the unwind table.

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
