//! Inputs that used to abort, hang or exhaust the tool (issue 11, section 2): deep `#if`
//! expressions (stack overflow), large sources (quadratic time), endless or huge files and
//! output-multiplying directives (unbounded memory).
//!
//! Each case runs the real binary in a directory of its own and checks that it ends with the
//! expected status (never a signal or a panic) and message. Time bounds are generous (a
//! debug build on a loaded machine); the structural checks carry the weight.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for `name` holding `files`.
fn dir_with(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("acctemu-robust-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates the case directory");
    for (file, content) in files {
        std::fs::write(dir.join(file), content).expect("writes a case file");
    }
    dir
}

/// Runs `acctemu args` in `dir`. No test here times it: the host's speed is not the
/// tool's property; a stage that turned quadratic again shows as a run that never ends in CI.
fn acctemu_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_acctemu")).args(args).current_dir(dir).output().expect("runs acctemu")
}

/// Asserts a clean exit with `status` (not a signal, not a panic) and `expect` in stderr.
fn assert_exit(what: &str, out: &Output, status: i32, expect: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked at"), "{what} panicked:\n{stderr}");
    assert_eq!(out.status.code(), Some(status), "{what}: status {:?}, stderr:\n{stderr}", out.status);
    for e in expect {
        assert!(stderr.contains(e), "{what}: missing {e:?} in:\n{stderr}");
    }
}

/// Runs one file through `acctemu asm` and checks the outcome.
fn asm_case(name: &str, source: &str, status: i32, expect: &[&str]) {
    let dir = dir_with(name, &[("x.S", source.as_bytes())]);
    let out = acctemu_in(&dir, &["asm", "x.S", "-o", "x.bin"]);
    assert_exit(name, &out, status, expect);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 5,000 `(` used to overflow the stack (SIGABRT); the limit is the assembler's own, 200.
#[test]
fn deep_if_parentheses_are_a_located_error() {
    let src = format!("#if {}1{}\n#endif\n", "(".repeat(5000), ")".repeat(5000));
    asm_case("if-parens", &src, 1, &["x.S:1:205: error: #if expression nested more than 200 levels deep"]);
}

/// 100k `!` and a 100k-long else-chain of `?:` used to overflow the stack; they are loops now.
#[test]
fn long_if_operator_chains_evaluate() {
    let bangs = format!("#if {}0\n#error odd\n#endif\n\t.text\n\tnop.m 0\n", "!".repeat(100_000));
    asm_case("if-bangs", &bangs, 0, &[]);
    let chain = format!("#if {}0\n#error taken\n#endif\n\t.text\n\tnop.m 0\n", "0 ? 1 : ".repeat(100_000));
    asm_case("if-chain", &chain, 0, &[]);
    let middle = format!("#if {}1{}\n#endif\n", "1 ? ".repeat(100_000), " : 0".repeat(100_000));
    asm_case("if-middle", &middle, 1, &["x.S:1:", "error: #if expression nested more than 200 levels deep"]);
}

/// The preprocessor's other recursions are bounded too: argument pre-expansion (by depth and
/// by the tokens it copies: 5,000 nested `F(` took 420 MB before failing), includes;
/// `#if` groups are a stack of their own and nest without limit.
#[test]
fn other_preprocessor_nesting_is_bounded() {
    let macros = format!("#define F(x) x\n\tmov r8 = {}1{}\n", "F(".repeat(5000), ")".repeat(5000));
    asm_case("macro-nesting", &macros, 1, &["x.S:2:", "error: macro arguments expand to more than 65536 tokens"]);
    let shallow = format!("#define F(x) x\n\tmov r8 = {}1{}\n", "F(".repeat(300), ")".repeat(300));
    asm_case("macro-depth", &shallow, 1, &["x.S:2:", "error: macro"]);
    asm_case(
        "self-include",
        "#include \"x.S\"\n",
        1,
        &["x.S:1:2: error: #include nested depth 65 exceeds maximum of 64"],
    );
    let groups = format!("{}\t.text\n\tnop.m 0\n{}", "#if 1\n".repeat(100_000), "#endif\n".repeat(100_000));
    asm_case("if-groups", &groups, 0, &[]);
}

/// `LineMap::source_line_at` split the whole file for every statement: 20,000 `nop.m` took
/// 49 s (release) and 100,000 took 503 s. Now each stage is linear: 200,000 statements (with
/// the listing, which looks up every source line) must finish well inside a minute even in
/// a debug build, and their listing must name the last line.
#[test]
fn large_sources_assemble_in_linear_time() {
    let n = 200_000;
    let src = format!("\t.text\n{}", "\tnop.m 0\n".repeat(n));
    let dir = dir_with("large", &[("x.S", src.as_bytes())]);
    let out = acctemu_in(&dir, &["asm", "x.S", "--listing"]);
    assert_exit("large", &out, 0, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().filter(|l| l.contains("; x.S:")).count(), n, "one sourced listing line per nop.m");
    assert!(stdout.contains(&format!("; x.S:{}:2  nop.m 0", n + 1)), "the last statement's source line is shown");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Endless and huge files stop at the input size limit (16 MiB by default) with the file
/// named, wherever the tool reads them; before, `/dev/zero` read gigabytes.
#[cfg(unix)]
#[test]
fn endless_files_stop_at_the_input_limit() {
    let limit = "character device gives more than the input size limit of 16777216 bytes \
                 (raise it with --max-input-size)";
    let ok = "\t.text\nf:\n\tadds r8=1,r0\n\tbr.ret.sptk.many b0 ;;\n";
    let dir = dir_with("endless", &[("ok.S", ok.as_bytes()), ("inc.S", b"#include \"/dev/urandom\"\n")]);
    let cases: &[(&str, &[&str], String)] = &[
        ("source", &["asm", "/dev/zero"], format!("acctemu: error: /dev/zero: {limit}")),
        ("include", &["asm", "inc.S"], format!("inc.S:1:2: error: /dev/urandom: {limit}")),
        ("run source", &["run", "/dev/zero"], format!("acctemu: error: /dev/zero: {limit}")),
        ("harness", &["run", "ok.S", "--harness", "/dev/zero"], format!("acctemu: error: /dev/zero: {limit}")),
        ("snapshot", &["run", "ok.S", "--check", "/dev/zero"], format!("acctemu: error: /dev/zero: {limit}")),
        ("disasm", &["disasm", "/dev/zero"], format!("acctemu: error: /dev/zero: {limit}")),
        ("patch", &["diff", "ok.S", "--patch", "/dev/zero"], format!("acctemu: error: /dev/zero: {limit}")),
    ];
    for (what, args, expect) in cases {
        let out = acctemu_in(&dir, args);
        assert_exit(what, &out, 1, &[expect]);
    }
    let out = acctemu_in(&dir, &["asm", "."]);
    assert_exit("directory", &out, 1, &["acctemu: error: .: is a directory, not a file"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--max-input-size` is the limit for every file, and a regular file over it is refused
/// from its size, before it is read.
#[test]
fn the_input_limit_is_a_flag() {
    let ok = "\t.text\nf:\n\tadds r8=1,r0\n\tbr.ret.sptk.many b0 ;;\n";
    let dir = dir_with("input-flag", &[("ok.S", ok.as_bytes()), ("inc.S", b"#include \"ok.S\"\n")]);
    let size = ok.len();
    let out = acctemu_in(&dir, &["asm", "ok.S", "--max-input-size", &(size - 1).to_string()]);
    let msg = format!("acctemu: error: ok.S: file is {size} bytes, over the input size limit of {} bytes", size - 1);
    assert_exit("source over the flag", &out, 1, &[&msg]);
    let out = acctemu_in(&dir, &["--max-input-size", &size.to_string(), "asm", "ok.S"]);
    assert_exit("source at the flag", &out, 0, &[]);
    let out = acctemu_in(&dir, &["asm", "inc.S", "--max-input-size", "20"]);
    let msg = format!("inc.S:1:2: error: ok.S: file is {size} bytes, over the input size limit of 20 bytes");
    assert_exit("include over the flag", &out, 1, &[&msg]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `.skip`, `.space` and `.align` multiply a small source into any amount of output: 400 ×
/// `.skip 16777216` aborted on allocation, a 1.5 KB source reached 3.3 GB. Their total is
/// capped (16 MiB by default, `--max-output-size`), the directive over it named.
#[test]
fn output_multiplying_directives_are_capped() {
    let skips = format!("\t.data\n{}", "\t.skip 16777216\n".repeat(400));
    asm_case(
        "skips",
        &skips,
        1,
        &[
            "x.S:3:",
            "error: `.skip` would bring the output to 33554432 bytes, over the output size limit of \
           16777216 bytes (raise it with --max-output-size)",
        ],
    );
    let aligns = format!("\t.data\n{}", "\t.byte 1\n\t.align 8388608\n".repeat(400));
    asm_case("data aligns", &aligns, 1, &["error: `.align` would bring the output to"]);
    let bss = format!("\t.bss\n{}", "\t.space 16777216\n".repeat(400));
    asm_case("bss", &bss, 1, &["x.S:3:", "error: `.space` would bring the output to 33554432 bytes"]);
    // Code padding is filler bundles (as costly as instructions): a small limit keeps the
    // debug build quick: 1 MiB allows 16 paddings of just under 64 KiB.
    let code = format!("\t.text\n{}", "\tnop.m 0\n\t.align 65536\n".repeat(400));
    let dir = dir_with("code-aligns", &[("x.S", code.as_bytes())]);
    let out = acctemu_in(&dir, &["asm", "x.S", "--max-output-size", "1048576"]);
    assert_exit("code aligns", &out, 1, &["x.S:", "error: `.align` would bring the output to"]);
    let _ = std::fs::remove_dir_all(&dir);

    let dir = dir_with("output-flag", &[("x.S", b"\t.data\n\t.skip 1000\n\t.skip 1000\n")]);
    let out = acctemu_in(&dir, &["asm", "x.S", "--max-output-size", "1500"]);
    assert_exit("over the flag", &out, 1, &["x.S:3:", "over the output size limit of 1500 bytes"]);
    let out = acctemu_in(&dir, &["asm", "x.S", "--max-output-size", "2000"]);
    assert_exit("at the flag", &out, 0, &[]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Other stages that were quadratic, each now linear: a long instruction group without stops
/// (the dependency checker compared every write with every earlier one and reported each
/// pair: 20,000 instructions took 43 s and 5.2 GB), many sections (found by a search of the
/// list: 40,000 took 25 s) and many `.global`s (searched per symbol).
#[test]
fn groups_sections_and_globals_scale() {
    let n = 20_000;
    let nostop: String = std::iter::once("\t.text\n".to_string())
        .chain((0..n).map(|i| format!("\tadd r{}=r2,r3\n", 8 + i % 20)))
        .collect();
    let dir = dir_with("nostop", &[("x.S", nostop.as_bytes())]);
    let out = acctemu_in(&dir, &["asm", "x.S", "-o", "x.bin"]);
    assert_exit(
        "nostop",
        &out,
        0,
        &["warning: more than 1000 dependency violations; the rest of the file is not checked"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().filter(|l| l.contains(": warning: ")).count(), 1001, "the cap and its notice");

    let sections: String = (0..n).map(|i| format!("\t.section .data.s{i},\"aw\"\n\tdata1 1\n")).collect();
    let globals: String = std::iter::once("\t.text\n".to_string())
        .chain((0..n).map(|i| format!("\t.global fn{i}\nfn{i}:\n\tnop.m 0\n")))
        .collect();
    for (what, src) in [("sections", sections), ("globals", globals)] {
        std::fs::write(dir.join("y.S"), src).expect("writes the case");
        let out = acctemu_in(&dir, &["asm", "y.S", "-o", "y.bin"]);
        assert_exit(what, &out, 0, &[]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
