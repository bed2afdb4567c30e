//! `.s` files are assembled as written and `.S` files are preprocessed, as with GNU as and
//! gcc: in a `.s` file `#` at the start of a line is a comment, so `#if 0` hides nothing and
//! `#define` defines nothing. Checked end to end through `acctemu asm`, and against
//! `ia64-linux-gnu-as` where it is installed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `#if 0` around one nop, a `#define`, and a C comment over two lines.
const SOURCE: &str =
    "#define COUNT 5\n\t.text\n#if 0\n\tnop.m 1 /* a comment\n   over two lines */\n#endif\n\tnop.m 2\n\t;;\n";

fn temp_dir(tag: &str) -> PathBuf {
    common::scratch_dir(&format!("dot-s-{tag}"))
}

/// The `.text` bytes `acctemu asm` writes for `file`, and its stdout.
fn ours(file: &Path, extra: &[&str]) -> (Vec<u8>, String) {
    let bin = file.with_extension(format!("{}.bin", file.extension().and_then(|e| e.to_str()).unwrap_or("")));
    let mut args = vec!["asm", file.to_str().expect("utf-8 path"), "-o", bin.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    args.push("--raw");
    args.push("--listing");
    let out = common::acctemu(&args);
    assert!(out.status.success(), "acctemu asm {}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    (std::fs::read(&bin).expect("output written"), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn dot_s_is_not_preprocessed_and_dot_capital_s_is() {
    let dir = temp_dir("cli");
    let (lower, upper) = (dir.join("plain.s"), dir.join("plain.S"));
    std::fs::write(&lower, SOURCE).expect("write .s");
    std::fs::write(&upper, SOURCE).expect("write .S");
    let (s_bytes, s_listing) = ours(&lower, &[]);
    let (cap_bytes, cap_listing) = ours(&upper, &[]);
    // .s: both nops in one bundle; .S: the #if 0 removed `nop.m 1`.
    assert!(s_listing.contains("nop.m 0x1") && s_listing.contains("nop.m 0x2"), "{s_listing}");
    assert!(!cap_listing.contains("nop.m 0x1") && cap_listing.contains("nop.m 0x2"), "{cap_listing}");
    assert_eq!((s_bytes.len(), cap_bytes.len()), (16, 16));
    assert_ne!(s_bytes, cap_bytes);
    // Locations in a .s file are the file's own lines.
    assert!(s_listing.contains("plain.s:4"), "{s_listing}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dot_s_ignores_defines_from_the_command_line() {
    let dir = temp_dir("define");
    let file = dir.join("d.s");
    // In a .s file, `-D X` changes nothing and `#ifdef X` is a comment.
    std::fs::write(&file, "\t.text\n#ifndef X\n\tnop.m 7\n#endif\n\t;;\n").expect("write");
    let (plain, _) = ours(&file, &[]);
    let (defined, listing) = ours(&file, &["-D", "X"]);
    assert_eq!(plain, defined);
    assert!(listing.contains("nop.m 0x7"), "{listing}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dot_s_matches_gnu_as() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let Some(objcopy) = common::oracle("ia64-linux-gnu-objcopy") else { return };
    let dir = temp_dir("gas");
    let file = dir.join("g.s");
    std::fs::write(&file, SOURCE).expect("write");
    let (obj, bin) = (dir.join("g.o"), dir.join("g.gas.bin"));
    let st = Command::new(&gas).arg("-x").arg(&file).arg("-o").arg(&obj).status().expect("run gas");
    assert!(st.success(), "GNU as refused the .s source");
    let st = Command::new(&objcopy).args(["-O", "binary", "-j", ".text"]).arg(&obj).arg(&bin).status();
    assert!(st.is_ok_and(|s| s.success()), "objcopy failed");
    let (bytes, _) = ours(&file, &[]);
    assert_eq!(bytes, std::fs::read(&bin).expect("gas bytes"), "our .s bytes differ from GNU as");
    let _ = std::fs::remove_dir_all(&dir);
}
