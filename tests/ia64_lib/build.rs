//! The arch/ia64/lib objects as the kernel build makes them, by acctemu alone: each `.S`
//! preprocessed by `cpp` with the build's flags (and the per-object `AFLAGS` of
//! arch/ia64/lib/Makefile for the eight division objects), assembled by acctemu's assembler
//! (`-x -mconstant-gp`), written as ELF objects by acctemu's object writer.
//!
//! The stand-ins for the build's generated headers are those `tests/ia64_kernel_files.rs`
//! writes (the same recipe, kept here so the two tests do not share a scratch directory):
//! `generic_defconfig` plus the Kconfig defaults the files test, 16 KiB pages.

use arch_ia64::asm::assemble;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One object of arch/ia64/lib: its name in the Makefile, source file and extra defines.
pub struct LibObject {
    /// The object's name (`__udivdi3`, `memcpy_mck`, ...).
    pub name: &'static str,
    /// The source under arch/ia64/lib.
    pub source: &'static str,
    /// `AFLAGS_<name>.o` of the Makefile.
    pub defines: &'static [&'static str],
}

/// Every `.S` object the Makefile builds (`lib-y`, and both the `CONFIG_ITANIUM` and the
/// `CONFIG_MCKINLEY` variants).
pub const OBJECTS: &[LibObject] = &[
    LibObject { name: "__divsi3", source: "idiv32.S", defines: &[] },
    LibObject { name: "__udivsi3", source: "idiv32.S", defines: &["UNSIGNED"] },
    LibObject { name: "__modsi3", source: "idiv32.S", defines: &["MODULO"] },
    LibObject { name: "__umodsi3", source: "idiv32.S", defines: &["UNSIGNED", "MODULO"] },
    LibObject { name: "__divdi3", source: "idiv64.S", defines: &[] },
    LibObject { name: "__udivdi3", source: "idiv64.S", defines: &["UNSIGNED"] },
    LibObject { name: "__moddi3", source: "idiv64.S", defines: &["MODULO"] },
    LibObject { name: "__umoddi3", source: "idiv64.S", defines: &["UNSIGNED", "MODULO"] },
    LibObject { name: "clear_page", source: "clear_page.S", defines: &[] },
    LibObject { name: "clear_user", source: "clear_user.S", defines: &[] },
    LibObject { name: "strncpy_from_user", source: "strncpy_from_user.S", defines: &[] },
    LibObject { name: "strnlen_user", source: "strnlen_user.S", defines: &[] },
    LibObject { name: "flush", source: "flush.S", defines: &[] },
    LibObject { name: "ip_fast_csum", source: "ip_fast_csum.S", defines: &[] },
    LibObject { name: "do_csum", source: "do_csum.S", defines: &[] },
    LibObject { name: "memset", source: "memset.S", defines: &[] },
    LibObject { name: "strlen", source: "strlen.S", defines: &[] },
    LibObject { name: "xor", source: "xor.S", defines: &[] },
    LibObject { name: "copy_page", source: "copy_page.S", defines: &[] },
    LibObject { name: "copy_user", source: "copy_user.S", defines: &[] },
    LibObject { name: "memcpy", source: "memcpy.S", defines: &[] },
    LibObject { name: "copy_page_mck", source: "copy_page_mck.S", defines: &[] },
    LibObject { name: "memcpy_mck", source: "memcpy_mck.S", defines: &[] },
];

/// The scratch directory of this test.
pub fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ia64-lib-routines")
}

/// Builds `obj` from `tree`: the ELF object bytes acctemu writes.
///
/// # Panics
/// When cpp or our assembler fails (with its messages).
pub fn build(tree: &Path, gen: &Path, obj: &LibObject) -> Vec<u8> {
    let file = format!("arch/ia64/lib/{}", obj.source);
    let text = preprocess(tree, gen, &file, obj.defines).unwrap_or_else(|e| panic!("cpp {file}: {e}"));
    let asm = assemble(&format!("{}.s", obj.name), &text, &PreprocessOptions::new(), &FsLoader)
        .unwrap_or_else(|d| panic!("acctemu cannot assemble {file} ({}): {d}", obj.name));
    let mut asm = asm;
    asm.elf.e_flags |= arch_ia64::asm::object::EF_IA_64_CONS_GP;
    asm.object_file().unwrap_or_else(|e| panic!("acctemu cannot write the object of {file}: {e}"))
}

/// Writes the generated-header stand-ins (once per test binary: tests run on threads, and
/// cpp must not read a header another thread is rewriting) and returns their directory.
pub fn headers(tree: &Path) -> PathBuf {
    static ONCE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        let gen = scratch().join("generated-headers");
        generated_headers(tree, &gen);
        gen
    })
    .clone()
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("header directory");
    }
    std::fs::write(path, text).expect("generated header");
}

/// Writes the stand-ins for the build's generated headers under `gen`.
fn generated_headers(tree: &Path, gen: &Path) {
    let defconfig = std::fs::read_to_string(tree.join("arch/ia64/configs/generic_defconfig")).expect("defconfig");
    let mut conf = String::from("#ifndef __AUTOCONF_H\n#define __AUTOCONF_H\n");
    for line in defconfig.lines().filter(|l| l.starts_with("CONFIG_")) {
        let Some((k, v)) = line.split_once('=') else { continue };
        match v {
            "y" => conf.push_str(&format!("#define {k} 1\n")),
            "m" => conf.push_str(&format!("#define {k}_MODULE 1\n")),
            _ => conf.push_str(&format!("#define {k} {v}\n")),
        }
    }
    // Kconfig defaults the defconfig leaves out but the files test.
    for d in [
        "CONFIG_IA64 1",
        "CONFIG_64BIT 1",
        "CONFIG_PGTABLE_LEVELS 3",
        "CONFIG_IA64_PAGE_SIZE_16KB 1",
        "CONFIG_IA64_L1_CACHE_SHIFT 7",
        "CONFIG_HZ 250",
        "CONFIG_IA64_GRANULE_16MB 1",
        "CONFIG_IA64_MCA_RECOVERY 1",
    ] {
        conf.push_str(&format!("#define {d}\n"));
    }
    conf.push_str("#endif\n");
    write(&gen.join("generated/autoconf.h"), &conf);
    write(&gen.join("generated/compile.h"), "");

    let offsets_c = std::fs::read_to_string(tree.join("arch/ia64/kernel/asm-offsets.c")).expect("asm-offsets.c");
    let mut offsets = String::from("#ifndef __ASM_OFFSETS_H__\n#define __ASM_OFFSETS_H__\n");
    let mut seen = std::collections::HashSet::new();
    for (i, name) in offsets_c
        .split("DEFINE(")
        .skip(1)
        .filter_map(|s| s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next())
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .enumerate()
    {
        if !seen.insert(name.to_string()) {
            continue;
        }
        let value = match name {
            "IA64_GTOD_SEQ_OFFSET" | "IA64_ITC_JITTER_OFFSET" | "IA64_PT_REGS_B6_OFFSET" => 0,
            "IA64_UPID_SHIFT" => 5,
            _ => 16 + ((i + 1) * 8) % 224,
        };
        offsets.push_str(&format!("#define {name} {value}\n"));
    }
    offsets.push_str("#endif\n");
    write(&gen.join("generated/asm-offsets.h"), &offsets);

    // The asm-generic wrappers Kbuild makes for the headers ia64 does not have.
    let wrappers = |kbuild: &Path, have: &Path, out: &Path| {
        let text = std::fs::read_to_string(kbuild).unwrap_or_default();
        for h in text.lines().filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("mandatory-y").or_else(|| l.strip_prefix("generic-y"))?;
            rest.trim_start().strip_prefix("+=").map(str::trim)
        }) {
            if !have.join(h).is_file() {
                write(&out.join(h), &format!("#include <asm-generic/{h}>\n"));
            }
        }
    };
    let asm = tree.join("arch/ia64/include/asm");
    wrappers(&tree.join("include/asm-generic/Kbuild"), &asm, &gen.join("asmgen/asm"));
    wrappers(&tree.join("arch/ia64/include/asm/Kbuild"), &asm, &gen.join("asmgen/asm"));
    let uasm = tree.join("arch/ia64/include/uapi/asm");
    wrappers(&tree.join("include/uapi/asm-generic/Kbuild"), &uasm, &gen.join("uapigen/asm"));

    // The syscall table and numbers, written by the tree's own scripts as its Makefile does.
    let tbl = tree.join("arch/ia64/kernel/syscalls/syscall.tbl");
    std::fs::create_dir_all(gen.join("uapigen/asm")).expect("header directory");
    for (script, extra, out) in [
        ("scripts/syscalltbl.sh", &[][..], gen.join("asmgen/asm/syscall_table.h")),
        ("scripts/syscallhdr.sh", &["--emit-nr", "--offset", "__NR_Linux"][..], gen.join("uapigen/asm/unistd_64.h")),
    ] {
        let status = Command::new("sh").arg(tree.join(script)).args(extra).arg(&tbl).arg(&out).status();
        assert!(status.is_ok_and(|s| s.success()), "{script} failed");
    }
}

/// `cpp` as the kernel's build runs it for an ia64 `.S` file (no ia64 gcc exists here, so the
/// compiler's predefined macros are given by hand).
fn preprocess(tree: &Path, gen: &Path, file: &str, defines: &[&str]) -> Result<String, String> {
    let dir = Path::new(file).parent().map(|d| tree.join(d)).unwrap_or_default();
    let inc = |p: PathBuf| format!("-I{}", p.display());
    let out = Command::new("cpp")
        .args(["-nostdinc", "-undef", "-P", "-D__ASSEMBLY__", "-D__KERNEL__", "-D__ia64__", "-D__ia64", "-D__linux__"])
        .args(["-D__LP64__", "-D__BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__", "-DHAVE_SERIALIZE_DIRECTIVE"])
        .arg("-DHAVE_MODEL_SMALL_ATTRIBUTE")
        .args(defines.iter().map(|d| format!("-D{d}")))
        .arg(inc(gen.join("asmgen")))
        .arg(inc(tree.join("arch/ia64/include")))
        .arg(inc(gen.join("uapigen")))
        .arg(inc(tree.join("arch/ia64/include/uapi")))
        .arg(inc(gen.to_path_buf()))
        .arg(inc(tree.join("include")))
        .arg(inc(tree.join("include/uapi")))
        .arg(inc(dir))
        .arg("-include")
        .arg(tree.join("include/linux/compiler-version.h"))
        .arg("-include")
        .arg(tree.join("include/linux/kconfig.h"))
        .arg(tree.join(file))
        .output()
        .map_err(|e| format!("cannot run cpp: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
