//! The `acctemu` binary end to end.

mod common;

use std::process::{Command, Output};

fn acctemu(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_acctemu"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run acctemu: {e}"))
}

fn golden_dir() -> std::path::PathBuf {
    common::root().join("tests/corpus/ia64/golden")
}

#[test]
fn disasm_of_a_golden_object_prints_the_golden_text() {
    for stem in ["seed004", "directives", "branch_long"] {
        let out = acctemu(&["disasm", &format!("{stem}.o")], &golden_dir());
        assert!(out.status.success(), "{stem}: {}", String::from_utf8_lossy(&out.stderr));
        let want = std::fs::read_to_string(golden_dir().join(format!("{stem}.objdump"))).unwrap_or_default();
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{stem}");
    }
}

#[test]
fn bad_files_give_a_clear_error_and_exit_status_1() {
    let dir = std::env::temp_dir().join(format!("acctemu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let truncated = dir.join("truncated.o");
    std::fs::write(&truncated, b"\x7fELF\x02\x01\x01").unwrap_or_else(|e| panic!("{e}"));
    let x86 = dir.join("x86.o");
    let mut header = vec![0u8; 64];
    header[..7].copy_from_slice(b"\x7fELF\x02\x01\x01");
    header[18] = 62;
    std::fs::write(&x86, &header).unwrap_or_else(|e| panic!("{e}"));
    let cases = [
        (dir.join("missing.o"), "No such file"),
        (truncated, "truncated ELF header"),
        (x86, "not an IA-64 object: e_machine is 62"),
    ];
    for (path, needle) in &cases {
        let out = acctemu(&["disasm", &path.display().to_string()], &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {err}", path.display());
        assert!(err.contains("acctemu: error:") && err.contains(needle), "{}: {err}", path.display());
    }
    let bad_src = dir.join("bad.S");
    std::fs::write(&bad_src, "\tfrobnicate r1=r2\n").unwrap_or_else(|e| panic!("{e}"));
    let out = acctemu(&["asm", "bad.S"], &dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("bad.S:1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-o` writes the ELF object GNU as writes (issue 13); `--raw` keeps the bare `.text`.
#[test]
fn asm_writes_the_gnu_as_object() {
    let dir = std::env::temp_dir().join(format!("acctemu-asm-obj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let src = common::root().join("tests/corpus/ia64/src");
    for stem in ["branch_long", "directives"] {
        let obj = dir.join(format!("{stem}.o"));
        let out = acctemu(&["asm", &format!("{stem}.S"), "-o", &obj.display().to_string()], &src);
        assert!(out.status.success(), "{stem}: {}", String::from_utf8_lossy(&out.stderr));
        let ours = std::fs::read(&obj).unwrap_or_else(|e| panic!("{e}"));
        let gas = std::fs::read(golden_dir().join(format!("{stem}.o"))).unwrap_or_else(|e| panic!("{e}"));
        assert!(ours == gas, "{stem}: object differs from GNU as's");
    }
    // -mconstant-gp (the kernel's flag) only sets EF_IA_64_CONS_GP in e_flags, as in gas.
    let obj = dir.join("cgp.o");
    let out = acctemu(&["asm", "branch_long.S", "-mconstant-gp", "-o", &obj.display().to_string()], &src);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut want = std::fs::read(golden_dir().join("branch_long.o")).unwrap_or_else(|e| panic!("{e}"));
    want[0x30] = 0x50;
    assert!(std::fs::read(&obj).unwrap_or_else(|e| panic!("{e}")) == want, "-mconstant-gp object");
    let out = acctemu(&["asm", "branch_long.S", "-mbogus", "-o", &obj.display().to_string()], &src);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("-mbogus"), "unknown -m option");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn asm_writes_the_golden_text_bytes_and_a_listing() {
    let dir = std::env::temp_dir().join(format!("acctemu-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let src = common::root().join("tests/corpus/ia64/src");
    for stem in ["seed004_cpp", "alu", "branch_long"] {
        let bin = dir.join(format!("{stem}.bin"));
        let out = acctemu(&["asm", &format!("{stem}.S"), "-o", &bin.display().to_string(), "--raw", "--listing"], &src);
        assert!(out.status.success(), "{stem}: {}", String::from_utf8_lossy(&out.stderr));
        let bytes = std::fs::read(&bin).unwrap_or_else(|e| panic!("{e}"));
        let hex: String =
            bytes.chunks(16).map(|c| c.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n").collect();
        let want = std::fs::read_to_string(golden_dir().join(format!("{stem}.text.hex"))).unwrap_or_default();
        assert_eq!(hex, want, "{stem}");
        let listing = String::from_utf8_lossy(&out.stdout);
        assert_eq!(listing.lines().count(), bytes.len() / 16 * 3, "{stem}: one listing line per slot");
        assert!(listing.contains(&format!("{stem}.S:")), "{stem}: listing names source lines");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
