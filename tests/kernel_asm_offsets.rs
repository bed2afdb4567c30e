//! The asm-offsets generator's layouts against a C compiler's.
//!
//! No ia64 compiler exists here, but the host's x86-64 gcc lays out these structures by the
//! same rules as the IA-64 LP64 ABI for every type they use (char 1, short 2, int 4, long and
//! pointers 8, long double 16 bytes aligned 16; no bit-fields): the test compiles the very C
//! text the generator parsed (the tree's headers after the config's conditionals, and the
//! stand-ins) with `offsetof`/`sizeof` for every computed macro, runs it, and compares.
//! Both configs of the preprocessor test (with and without CONFIG_VIRT_CPU_ACCOUNTING_NATIVE).
//! Needs the Linux 6.1 tree and gcc as `ia64_kernel_corpus.rs` does.

mod common;

use emu_core::kernel::KernelConfig;
use emu_core::preprocess::FsLoader;
use std::process::Command;

const TYPES: &str = "#include <stddef.h>\nint printf(const char *, ...);\n\
    typedef unsigned char __u8; typedef signed char __s8; typedef unsigned short __u16;\n\
    typedef unsigned int __u32; typedef int __s32; typedef unsigned long __u64; typedef long __s64;\n\
    typedef __u8 u8; typedef __u16 u16; typedef __u32 u32; typedef __u64 u64; typedef int pid_t;\n";

#[test]
fn generated_offsets_match_a_c_compiler() {
    let Some(tree) = common::kernel_source() else { return };
    let Some(gcc) = common::oracle("gcc") else { return };
    let config_text = std::fs::read_to_string(common::root().join("tests/data/kernel/ia64-6.1.config")).unwrap();
    let dir = std::env::temp_dir().join(format!("acctemu-asm-offsets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut report = String::new();
    let mut bad = Vec::new();
    for accounting in [false, true] {
        let mut config = KernelConfig::parse("ia64-6.1.config", &config_text).unwrap();
        if accounting {
            config.set("VIRT_CPU_ACCOUNTING_NATIVE", "y");
        }
        let offsets = arch_ia64::asm_offsets::compute(&tree, &config, &FsLoader).unwrap();
        let mut c = TYPES.to_string();
        for (name, text) in arch_ia64::asm_offsets::c_sources(&tree, &config, &FsLoader).unwrap() {
            c.push_str(&format!("/* {name} */\n{text}\n"));
        }
        c.push_str("int main(void) {\n");
        let computed: Vec<_> =
            offsets.iter().filter(|o| o.source.starts_with("offsetof(") || o.source.starts_with("sizeof(")).collect();
        for o in &computed {
            c.push_str(&format!("  printf(\"%s %lu\\n\", \"{}\", (unsigned long)({}));\n", o.name, o.source));
        }
        c.push_str("  return 0;\n}\n");
        let src = dir.join(format!("layout-{accounting}.c"));
        let exe = dir.join(format!("layout-{accounting}"));
        std::fs::write(&src, &c).unwrap();
        let cc = Command::new(&gcc).arg("-w").arg("-o").arg(&exe).arg(&src).output().unwrap();
        assert!(cc.status.success(), "gcc failed:\n{}", String::from_utf8_lossy(&cc.stderr));
        let run = Command::new(&exe).output().unwrap();
        let printed = String::from_utf8_lossy(&run.stdout).into_owned();
        let mut same = 0;
        for (o, line) in computed.iter().zip(printed.lines()) {
            let expect = format!("{} {}", o.name, o.value);
            if line == expect {
                same += 1;
            } else {
                bad.push(format!("accounting={accounting}: ours `{expect}`, gcc `{line}` ({})", o.source));
            }
        }
        assert_eq!(printed.lines().count(), computed.len());
        report.push_str(&format!(
            "accounting={accounting}: {same}/{} computed macros equal gcc's ({} macros in all)\n",
            computed.len(),
            offsets.len()
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{report}");
    assert!(bad.is_empty(), "{report}{}", bad.join("\n"));
}

/// Every macro of asm-offsets.h that the arch/ia64 assembly names, directly or through the
/// `PT()`/`SW()` pastes of minstate.h and entry.h, is generated.
#[test]
fn every_offset_the_assembly_uses_is_generated() {
    let Some(tree) = common::kernel_source() else { return };
    let config_text = std::fs::read_to_string(common::root().join("tests/data/kernel/ia64-6.1.config")).unwrap();
    let mut config = KernelConfig::parse("ia64-6.1.config", &config_text).unwrap();
    config.set("VIRT_CPU_ACCOUNTING_NATIVE", "y");
    let names: Vec<String> =
        arch_ia64::asm_offsets::compute(&tree, &config, &FsLoader).unwrap().into_iter().map(|o| o.name).collect();
    let offsets_c = std::fs::read_to_string(tree.join("arch/ia64/kernel/asm-offsets.c")).unwrap();
    let defined: Vec<&str> = offsets_c
        .split("DEFINE(")
        .skip(1)
        .filter_map(|s| s.split(|c: char| c == ',' || c.is_whitespace()).next())
        .collect();
    let mut asm = String::new();
    for dir in ["arch/ia64/kernel", "arch/ia64/lib", "arch/ia64/include/asm"] {
        for e in std::fs::read_dir(tree.join(dir)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".S") || name.ends_with(".h") {
                asm.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let used_word = |w: &str| {
        asm.match_indices(w).any(|(i, _)| {
            let before = asm[..i].chars().next_back().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            let after = asm[i + w.len()..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            before && after
        })
    };
    // PT(x) and SW(x) paste IA64_PT_REGS_x_OFFSET / IA64_SWITCH_STACK_x_OFFSET.
    let pasted = |w: &str| {
        let field = |p: &str| w.strip_prefix(p).and_then(|r| r.strip_suffix("_OFFSET"));
        field("IA64_PT_REGS_").is_some_and(|f| used_word(&format!("PT({f})")))
            || field("IA64_SWITCH_STACK_").is_some_and(|f| used_word(&format!("SW({f})")))
    };
    let missing: Vec<&str> =
        defined.iter().copied().filter(|d| (used_word(d) || pasted(d)) && !names.iter().any(|n| n == d)).collect();
    assert!(missing.is_empty(), "asm-offsets macros the assembly uses but acctemu does not generate: {missing:?}");
}
