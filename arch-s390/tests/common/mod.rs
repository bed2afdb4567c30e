//! The qemu-s390x oracle for the differential tests: finding the tools, building the test
//! program, running it under qemu and under acctemu, and comparing the outputs case by case.
//!
//! Output layout (driver.S): per case r2 and the CC as two big-endian u64, then `buf`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use arch_s390::run::{load_object, prepare, RunConfig};
use emu_core::cpu::{StopReason, StopWhen};
use emu_core::image::Image;

/// Bytes of the scratch buffer at the end of the output.
pub const BUF_LEN: usize = 256;

/// `data/` beside this file.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("data")
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// The cross gcc and qemu-s390x, when both are installed. Missing tools skip the live tests
/// (with a note) unless ACCTEMU_REQUIRE_ORACLES=1, which makes them fail.
pub fn oracles() -> Option<(PathBuf, PathBuf)> {
    let found = on_path("s390x-linux-gnu-gcc").zip(on_path("qemu-s390x"));
    if found.is_none() {
        let required = std::env::var("ACCTEMU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
        assert!(!required, "ACCTEMU_REQUIRE_ORACLES=1 but s390x-linux-gnu-gcc or qemu-s390x is missing");
        eprintln!("note: s390x-linux-gnu-gcc or qemu-s390x missing; live qemu comparison skipped");
    }
    found
}

/// Builds ops.elf from the sources in `data/` into `out` (the flags of build.sh).
pub fn build(gcc: &Path, out: &Path) {
    let d = data_dir();
    let status = Command::new(gcc)
        .args(["-O2", "-march=z196", "-static", "-nostdlib", "-fno-asynchronous-unwind-tables"])
        .args(["-fno-stack-protector", "-Wl,--build-id=none"])
        .arg(d.join("ops.c"))
        .arg(d.join("refops.S"))
        .arg(d.join("cases.c"))
        .arg(d.join("driver.S"))
        .arg("-o")
        .arg(out)
        .status();
    assert!(status.is_ok_and(|s| s.success()), "building {} failed", out.display());
}

/// qemu-s390x's stdout for `elf`.
pub fn qemu(qemu: &Path, elf: &Path) -> Vec<u8> {
    let out = Command::new(qemu).arg(elf).output();
    match out {
        Ok(o) if o.status.success() => o.stdout,
        other => panic!("qemu-s390x {} failed: {other:?}", elf.display()),
    }
}

/// Decodes ops.expected (hex, any line breaks).
pub fn unhex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text.bytes().filter(u8::is_ascii_hexdigit).collect();
    digits.chunks(2).filter_map(|p| std::str::from_utf8(p).ok().and_then(|s| u8::from_str_radix(s, 16).ok())).collect()
}

/// Runs `elf` under acctemu from `_start` to its first svc; returns the image and the output
/// the program would have written.
pub fn emulate(elf: &[u8]) -> (Image, Vec<u8>) {
    let image = load_object(elf).unwrap_or_else(|e| panic!("load: {e}"));
    let cfg = RunConfig { entry: Some("_start".into()), max_insns: 10_000_000, ..RunConfig::default() };
    let (mut m, _) = prepare(&image, &cfg).unwrap_or_else(|e| panic!("prepare: {e}"));
    let stop = StopWhen { max_insns: cfg.max_insns, ..StopWhen::default() };
    let reason = m.run(&stop).unwrap_or_else(|e| panic!("run: {e} at {:?}", image.symbolize(e.error.addr())));
    assert!(matches!(reason, StopReason::Interruption { vector: 0x1c0, name: "svc", .. }), "{reason}");
    let sym = |n: &str| image.symbol(n).map(|s| s.value).unwrap_or_else(|| panic!("no `{n}`"));
    let ncases = m.mem.read_u64(sym("ncases")).unwrap_or_else(|e| panic!("ncases: {e}"));
    let mut out = vec![0u8; ncases as usize * 16];
    assert!(m.mem.read_bytes(sym("res"), &mut out).is_ok());
    let mut buf = vec![0u8; BUF_LEN];
    assert!(m.mem.read_bytes(sym("buf"), &mut buf).is_ok());
    out.extend(buf);
    (image, out)
}

/// The mismatches between `want` (the oracle) and `got` (acctemu), naming each case's function
/// and arguments; empty when they agree.
pub fn mismatches(image: &Image, elf_mem: &[u8], want: &[u8], got: &[u8]) -> Vec<String> {
    let _ = elf_mem;
    let mut out = Vec::new();
    if want.len() != got.len() {
        out.push(format!("output lengths differ: qemu {} bytes, acctemu {}", want.len(), got.len()));
        return out;
    }
    let cases = want.len().saturating_sub(BUF_LEN) / 16;
    let word =
        |b: &[u8], at: usize| b.get(at..at + 8).map_or(0, |s| s.iter().fold(0u64, |a, x| (a << 8) | u64::from(*x)));
    for k in 0..cases {
        let (w_r2, w_cc, g_r2, g_cc) =
            (word(want, k * 16), word(want, k * 16 + 8), word(got, k * 16), word(got, k * 16 + 8));
        if (w_r2, w_cc) != (g_r2, g_cc) {
            let name = case_name(image, k);
            out.push(format!("case {k} {name}: qemu r2={w_r2:#x} cc={w_cc}, acctemu r2={g_r2:#x} cc={g_cc}"));
        }
    }
    let (wb, gb) = (want.get(cases * 16..).unwrap_or(&[]), got.get(cases * 16..).unwrap_or(&[]));
    for (i, (w, g)) in wb.iter().zip(gb).enumerate() {
        if w != g {
            out.push(format!("buf[{i}]: qemu {w:#04x}, acctemu {g:#04x}"));
        }
    }
    out
}

/// The function a case calls, from the image's `cases` table (function pointer + 5 args).
fn case_name(image: &Image, k: usize) -> String {
    let Some(cases) = image.symbol("cases") else { return "?".into() };
    let sec = image.sections.iter().find(|s| s.contains(cases.value));
    let at = sec.map(|s| (cases.value - s.addr) as usize + k * 48);
    let read = |off: usize| {
        sec.and_then(|s| s.data.get(off..off + 8)).map_or(0, |b| b.iter().fold(0u64, |a, x| (a << 8) | u64::from(*x)))
    };
    let Some(at) = at else { return "?".into() };
    let f = read(at);
    let args: Vec<String> = (0..5).map(|i| format!("{:#x}", read(at + 8 + i * 8))).collect();
    let name = image.symbolize(f).map_or_else(|| format!("{f:#x}"), |(n, _)| n.to_string());
    format!("{name}({})", args.join(", "))
}
