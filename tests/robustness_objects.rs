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
//! assembled by `x86_64-linux-gnu-as` and `s390x-linux-gnu-as`. `x86_dyn.so`: see its test.

mod common;

use common::{acctemu, root};
use std::path::PathBuf;

/// A scratch directory of this test process, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = common::scratch_dir(&format!("robustness-objects-{name}"));
    // Fresh: a stale directory of the same name would keep earlier files.
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
fn ia64_object_with_a_relocation_runs_with_it_applied() {
    // Before the loader relocated IA-64 objects, `movl r8=sym` ran with the unrelocated
    // immediate (r8 = 0), then it was refused; now the IMM64 is applied (issue 14): `.data`
    // follows the 0x20 bytes of `.text` at 0.
    let (code, out, err) = run(&["run", "-v", "tests/data/objects/movl_sym.o"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("r8: \"0x0000000000000020\""), "{out}");
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
fn golden_seed004_object_needs_its_undefined_symbol_bound_and_its_linked_form_runs() {
    // The golden seed004.o's `movl r14=__kernel_syscall_via_epc` names an undefined symbol:
    // without a harness binding it the link is refused, naming it and the object.
    let (code, _, err) = run(&["run", "tests/corpus/ia64/golden/seed004.o", "--entry", "account_sys_enter"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("`__kernel_syscall_via_epc` (needed by tests/corpus/ia64/golden/seed004.o)"), "{err}");
    // Linked, the relocation is applied (`movl r14=0x12340`); tests/cli_run.rs
    // (runs_an_object_made_by_gnu_as) runs it.
    let (_, dis, _) = run(&["disasm", "tests/data/objects/seed004_linked.elf"]);
    assert!(dis.contains("movl r14=0x12340"), "{dis}");
}

#[test]
fn ia64_object_whose_only_relocations_are_of_the_unwind_table_runs() {
    let (code, out, err) = run(&["run", "-v", "tests/data/objects/unwind_only.o"]);
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

// ---- IA-64 alignment of semaphores and ordinary accesses (SDM vol. 1 section 4.5) ----

use arch_ia64::exec::ExecError;
use arch_ia64::run::{run_source, RunConfig, RunError};

/// A function `f` that points r3 at `offset` below the stack top, runs `insn` at label
/// `at` after `prelude`, and returns.
fn access_at(prelude: &str, offset: i64, insn: &str) -> String {
    format!("\t.text\nf:\n{prelude}\tadds r3={offset},r12\n\tmov r5=1 ;;\nat:\n\t{insn} ;;\n\tbr.ret.sptk.many b0 ;;\n")
}

/// The vector and what of the unhandled fault `src` stops on, with the faulting bundle.
fn fault_of(src: &str) -> Option<(u64, u16, String)> {
    match run_source("t.S", src, &RunConfig::default()) {
        Err(RunError::Exec { error: ExecError::Unhandled { pc, vector, what, .. }, .. }) => Some((pc, vector, what)),
        _ => None,
    }
}

fn runs_to_the_sentinel(src: &str) -> bool {
    run_source("t.S", src, &RunConfig::default()).is_ok_and(|r| r.stop == "returned to the sentinel")
}

#[test]
fn misaligned_semaphores_raise_the_unaligned_data_reference_fault() {
    // Before: every one of these ran to the sentinel (exit status 0) as if aligned.
    let forms = [
        ("cmpxchg2.acq r8=[r3],r5,ar.ccv", 2),
        ("cmpxchg4.acq r8=[r3],r5,ar.ccv", 4),
        ("cmpxchg8.rel r8=[r3],r5,ar.ccv", 8),
        ("xchg2 r8=[r3],r5", 2),
        ("xchg4 r8=[r3],r5", 4),
        ("xchg8 r8=[r3],r5", 8),
        ("fetchadd4.acq r8=[r3],1", 4),
        ("fetchadd8.rel r8=[r3],-1", 8),
    ];
    for (insn, size) in forms {
        // r12 is 16-byte aligned: -32 is aligned for every size, -32 + size / 2 for none.
        assert!(runs_to_the_sentinel(&access_at("", -32, insn)), "{insn} aligned");
        let src = access_at("", -32 + size / 2, insn);
        let Some((pc, vector, what)) = fault_of(&src) else { panic!("{insn}: no fault") };
        assert_eq!(vector, 0x5a00, "{insn}: {what}");
        assert!(what.starts_with("unaligned data reference: "), "{insn}: {what}");
        assert!(what.contains(&format!("of {size} bytes at 0x")), "{insn}: {what}");
        let at = arch_ia64::asm::assemble("t.S", &src, &Default::default(), &emu_core::preprocess::FsLoader)
            .ok()
            .and_then(|a| a.image.symbol("at").map(|s| s.value));
        assert_eq!(Some(pc), at, "{insn}: the fault is at the semaphore");
    }
    // A 1-byte semaphore is always aligned.
    assert!(runs_to_the_sentinel(&access_at("", -31, "cmpxchg1.acq r8=[r3],r5,ar.ccv")));
    assert!(runs_to_the_sentinel(&access_at("", -31, "xchg1 r8=[r3],r5")));
}

#[test]
fn ordinary_misaligned_accesses_fault_only_under_psr_ac() {
    // PSR.ac clear: the access is done (the architecture lets an implementation do it).
    for insn in ["ld8 r8=[r3]", "st4 [r3]=r5", "ldfd f6=[r3]", "stfe [r3]=f1"] {
        assert!(runs_to_the_sentinel(&access_at("", -31, insn)), "{insn} with PSR.ac clear");
    }
    // PSR.ac set (ssm psr.ac, bit 3): the same accesses fault; aligned ones do not.
    let ac = "\tssm 0x8 ;;\n";
    for (insn, aligned) in [("ld8 r8=[r3]", -32), ("st4 [r3]=r5", -28), ("ldfd f6=[r3]", -32), ("stfe [r3]=f1", -32)] {
        assert!(runs_to_the_sentinel(&access_at(ac, aligned, insn)), "{insn} aligned under PSR.ac");
        let fault = fault_of(&access_at(ac, -31, insn));
        assert!(matches!(fault, Some((_, 0x5a00, _))), "{insn} under PSR.ac: {fault:?}");
    }
    // A speculative load defers the fault into its NaT bit instead.
    let src = access_at(ac, -31, "ld8.s r8=[r3]");
    let r = run_source("t.S", &src, &RunConfig::default()).expect("runs");
    assert!(matches!(r.snapshot.register("r8.nat"), Some(emu_core::snapshot::Value::Bool(true))));
}

#[test]
fn the_unaligned_handler_sees_ifa_isr_and_iip() {
    let src = "\t.text\nf:\n\tmovl r2=ivt ;;\n\tmov cr.iva=r2 ;;\n\tadds r3=-26,r12\n\tssm 0x2000 ;;\n\tsrlz.d ;;\n\
        sem:\n\tcmpxchg4.acq r10=[r3],r0,ar.ccv ;;\n\tbr.ret.sptk.many b0 ;;\n\t.align 32768\nivt:\n\t.skip 0x5a00\n\
        \tmov r8=cr.ifa\n\tmov r9=cr.isr\n\tmov r10=cr.iip ;;\n\tbr.ret.sptk.many b0 ;;\n";
    let r = run_source("t.S", src, &RunConfig::default()).expect("runs");
    let reg = |n: &str| match r.snapshot.register(n) {
        Some(emu_core::snapshot::Value::Hex(v)) => *v,
        other => panic!("{n}: {other:?}"),
    };
    assert_eq!(reg("r8"), reg("r12") - 26, "cr.ifa is the semaphore's address");
    assert_eq!(reg("r9"), (1 << 34) | (1 << 33), "ISR.r (bit 34) and ISR.w (bit 33) set, x clear, code 0, slot 0");
    assert_eq!(reg("r10"), 0x30, "cr.iip is the semaphore's bundle");
}

#[test]
fn cli_reports_a_misaligned_fetchadd_with_its_place_and_a_failure_status() {
    let dir = scratch("fetchadd");
    let path = put(&dir, "f.S", access_at("", -31, "fetchadd8.acq r8=[r3],1").as_bytes());
    let (code, out, err) = run(&["run", &path]);
    assert_eq!(code, Some(3), "a fault stops the code before its end: {out}{err}");
    assert!(
        err.contains("slot 0: unaligned data reference: fetchadd of 8 bytes at 0x7000ffd1 (vector 0x5a00)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn s390_opcode_zero_is_reported_as_an_invalid_instruction() {
    // Before: "unsupported instruction `?` (bytes 00 00) at 0x400000".
    let dir = scratch("s390-zero");
    let mut bytes = object("s390_ext.o");
    // `.text` starts at file offset 0x40: its first halfword becomes 0x0000.
    bytes[0x40..0x42].copy_from_slice(&[0, 0]);
    let path = put(&dir, "z0.o", &bytes);
    let (code, out, err) = run(&["run", &path]);
    assert_eq!(code, Some(3), "an invalid instruction stops the code before its end: {out}{err}");
    assert!(
        err.contains(
            "invalid instruction at 0x400000: bytes 00 00 are an undefined s390x opcode (0x00 is not assigned); \
             the machine would raise an operation exception"
        ),
        "{err}"
    );
    assert!(!err.contains('?'), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_program_that_needs_the_dynamic_loader_is_refused() {
    // `x86_dyn.so`: `x86_dyn.S` linked by `x86_64-linux-gnu-ld -shared -z noseparate-code
    // -z norelro`, one R_X86_64_GLOB_DAT for `ext`. Before: it ran from its first code
    // section and faulted loading through the unrelocated GOT slot (0); `/bin/ls` ran 6
    // instructions of `.init` and returned to the sentinel with status 0.
    let (code, out, err) = run(&["run", "tests/data/objects/x86_dyn.so"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("x86_dyn.so: a linked shared object that needs a dynamic loader (1 dynamic relocations)"),
        "{err}"
    );
    // A dynamically linked host program, where there is one to try.
    if let Some(ls) = ["/bin/ls", "/usr/bin/ls"].into_iter().find(|p| {
        std::fs::read(p).is_ok_and(|b| b.get(..4) == Some(b"\x7fELF") && b.get(18) == Some(&62) && b.get(5) == Some(&1))
    }) {
        let (code, out, err) = run(&["run", ls]);
        assert_eq!(code, Some(1), "{out}{err}");
        assert!(err.contains("that needs a dynamic loader (interpreter "), "{err}");
    }
}

#[test]
fn binary_files_given_as_source_say_what_they_are() {
    // Before: `asm x.o` and `diff a.o b.o` printed "x.o:1:1: error: unexpected character
    // '\u{7f}'" followed by the object's bytes as a source line (1013 bytes of stderr). A diff
    // of two objects now runs them (issue 16, tests/cli_diff_objects.rs); a diff of a source
    // that is a binary file is still refused.
    let dir = scratch("binary-source");
    let o = "tests/data/objects/movl_sym.o";
    let raw = put(&dir, "raw.bin", &[0x11, 0x00, 0x41, 0xff, 0x00, 0x09]);
    let latin1 = put(&dir, "latin1.S", b"\t.text\n// caf\xe9\nf:\n");
    let elf = "an ELF object (IA-64, e_machine 50), not assembly source: `acctemu run FILE` runs IA-64, x86-64 \
               and s390x objects, `acctemu disasm FILE` disassembles IA-64 ones";
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["asm", o], format!("movl_sym.o: asm: {elf}")),
        (
            vec!["diff", &raw, "tests/data/objects/unwind_only.o"],
            "raw.bin: diff: a binary file, not assembly source".to_string(),
        ),
        (vec!["asm", &raw], "raw.bin: asm: a binary file, not assembly source".to_string()),
        (vec!["run", &raw], "raw.bin: run: a binary file, not assembly source".to_string()),
        (vec!["asm", &latin1], "it is not UTF-8 text (byte 0xe9 at offset 0xd)".to_string()),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(1), "{args:?}: {out}{err}");
        assert!(err.contains(&want), "{args:?}: {err}");
        assert!(err.len() < 400, "{args:?}: one short message, not the file: {err}");
        assert!(!err.contains('\u{7f}') && !err.contains('\0'), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
