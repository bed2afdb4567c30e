//! The preprocessor flags of `asm`/`run`/`diff` (`-U`, `-include`, `--kernel-tree`), the
//! `asm-offsets` command and `diff -D`.

mod common;

use common::acctemu;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("cli-kernel-{name}"))
}

#[test]
fn undefine_and_forced_include() {
    let dir = scratch("pp");
    std::fs::write(dir.join("pre.h"), "#define IMM 42\n").unwrap();
    std::fs::write(
        dir.join("t.S"),
        "#ifdef GONE\n#error GONE should be undefined\n#endif\n\t.text\n\tadds r8=IMM,r0\n\tnop.i 0\n\tnop.i 0\n;;\n",
    )
    .unwrap();
    let s = |p: &str| dir.join(p).display().to_string();
    let o = acctemu(&["asm", &s("t.S"), "-DGONE", "-U", "GONE", "-include", &s("pre.h"), "--listing"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("adds r8=42,r0"), "{out}");
    let o = acctemu(&["asm", &s("t.S"), "-DGONE"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("GONE should be undefined"));
    let o = acctemu(&["asm", &s("t.S"), "--include", &s("missing.h")]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("-include"), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kernel_flags_need_a_tree() {
    let o = acctemu(&["asm", "tests/data/ia64/account_sys_enter.S", "--kernel-config", "x.config"]);
    assert_eq!(o.status.code(), Some(2), "clap usage error: {}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn kernel_tree_headers_config_and_offsets() {
    let Some(tree) = common::kernel_source() else { return };
    let dir = scratch("tree");
    let src = "#include <asm/asm-offsets.h>\n#include <asm/unistd.h>\n#include <asm/ptrace.h>\n\t.text\n\
               #if IS_ENABLED(CONFIG_SMP) && defined(__KERNEL__) && defined(__ASSEMBLY__)\n\
               \tadds r8=IA64_PT_REGS_R8_OFFSET,r12\n#endif\n\tadds r15=__NR_getpid,r0\n\tnop.i 0\n;;\n";
    std::fs::write(dir.join("k.S"), src).unwrap();
    let k = dir.join("k.S").display().to_string();
    let t = tree.display().to_string();
    let config = "tests/data/kernel/ia64-6.1.config";
    let o = acctemu(&["asm", &k, "--kernel-tree", &t, "--kernel-config", config, "--listing"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // pt_regs.r8 is at 32 (after b6, b7, ar.csd, ar.ssd); getpid is 1041 (__NR_Linux 1024 + 17).
    assert!(out.contains("adds r8=32,r12"), "{out}");
    assert!(out.contains("adds r15=1041,r0"), "{out}");

    // A user's own asm-offsets.h replaces the generated one.
    std::fs::write(dir.join("offsets.h"), "#define IA64_PT_REGS_R8_OFFSET 88\n").unwrap();
    let mine = dir.join("offsets.h").display().to_string();
    let o = acctemu(&["asm", &k, "--kernel-tree", &t, "--kernel-config", config, "--asm-offsets", &mine, "--listing"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("adds r8=88,r12"), "{}", String::from_utf8_lossy(&o.stderr));

    // The generator on its own.
    let header = dir.join("asm-offsets.h");
    let h = header.display().to_string();
    let o = acctemu(&["asm-offsets", "--kernel-tree", &t, "--kernel-config", config, "-o", &h]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&header).unwrap();
    assert!(text.contains("#define IA64_PT_REGS_R8_OFFSET 32 /* offsetof(struct pt_regs, r8) */"), "{text}");
    assert!(text.contains("#define IA64_SWITCH_STACK_SIZE 528 "), "{text}");
    assert!(!text.contains("TI_AC_STAMP"), "no accounting fields without the accounting config");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-D` goes to both sides, `--b-define` to B only: with V.2 on both sides and an unused
/// macro for B, both sides run V.2's code.
#[test]
fn diff_defines_for_both_sides() {
    let o = acctemu(&[
        "diff",
        "tests/data/ia64/account_sys_enter.S",
        "-D",
        "ACCOUNTING_V2",
        "--b-define",
        "UNUSED_MACRO",
        "--harness",
        "tests/data/ia64/account_sys_enter.toml",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let counters = |side: &str| v[side]["report"]["counters"].clone();
    assert_eq!(counters("a"), counters("b"));
    // V.2 charges stamp..leave (500) to stime: see accounting_truth.rs.
    let stime = counters("a").as_array().unwrap().iter().find(|c| c["name"] == "ac_stime").unwrap()["value"].clone();
    assert_eq!(stime, 10_500);
}
