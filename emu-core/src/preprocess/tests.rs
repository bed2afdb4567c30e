//! End-to-end tests; expected texts were checked against
//! `cpp -P -undef -x assembler-with-cpp` (GCC 12), whitespace aside.

use super::*;

fn run_with(text: &str, opts: &PreprocessOptions, loader: &MemLoader) -> Result<Preprocessed, Diagnostic> {
    preprocess("entry.S", text, opts, loader)
}

fn pp(text: &str) -> String {
    match run_with(text, &PreprocessOptions::new(), &MemLoader::new()) {
        Ok(p) => p.text,
        Err(d) => panic!("unexpected error: {d}"),
    }
}

/// Non-empty output lines, trimmed.
fn pp_lines(text: &str) -> Vec<String> {
    pp(text).lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect()
}

fn pp_err(text: &str) -> Diagnostic {
    match run_with(text, &PreprocessOptions::new(), &MemLoader::new()) {
        Ok(p) => panic!("expected an error, got:\n{}", p.text),
        Err(d) => d,
    }
}

#[test]
fn kernel_kr_paste_chain() {
    let src = "#define IA64_KR_CURRENT 6\n\
               #define _IA64_KR_PASTE(x,y) x##y\n\
               #define _IA64_KR_PREFIX(n) _IA64_KR_PASTE(ar.k, n)\n\
               #define IA64_KR(n) _IA64_KR_PREFIX(IA64_KR_##n)\n\
               \tmov r2=IA64_KR(CURRENT);;\n";
    assert_eq!(pp(src), "\n\n\n\n\tmov r2=ar.k6;;\n");
}

#[test]
fn kernel_pt_offsets_and_predicate_aliases() {
    let src = "#define IA64_PT_REGS_R8_OFFSET 64\n\
               #define PT(f) (IA64_PT_REGS_##f##_OFFSET)\n\
               #define pUStk p9\n\
               (pUStk) adds r16=PT(R8),r1\n\
               \tcmp.eq pUStk,p0=r0,r0\n";
    assert_eq!(pp_lines(src), ["(p9) adds r16=(64),r1", "cmp.eq p9,p0=r0,r0"]);
}

#[test]
fn config_conditionals_follow_defines() {
    let src = "#ifdef CONFIG_VIRT_CPU_ACCOUNTING\n\
               \tmov.m r30=ar.itc\n\
               #else\n\
               \tnop.m 0\n\
               #endif\n";
    assert_eq!(pp_lines(src), ["nop.m 0"]);
    let opts = PreprocessOptions::new().defined("CONFIG_VIRT_CPU_ACCOUNTING", "1");
    let out = run_with(src, &opts, &MemLoader::new()).unwrap();
    assert_eq!(out.text, "\n\tmov.m r30=ar.itc\n\n\n\n");
    let opts = opts.undefined("CONFIG_VIRT_CPU_ACCOUNTING");
    assert!(run_with(src, &opts, &MemLoader::new()).unwrap().text.contains("nop.m"));
}

#[test]
fn if_elif_else_with_defined_and_expressions() {
    let src = "#define PAGE_SHIFT 14\n\
               #if defined(CONFIG_X) || PAGE_SHIFT > 16\n\
               a\n\
               #elif defined PAGE_SHIFT && (1 << PAGE_SHIFT) == 0x4000\n\
               b\n\
               #elif 1/0\n\
               c\n\
               #else\n\
               d\n\
               #endif\n\
               #ifndef PAGE_SHIFT\n\
               e\n\
               #endif\n";
    assert_eq!(pp_lines(src), ["b"]);
}

#[test]
fn nested_skipped_groups_are_not_evaluated() {
    let src = "#if 0\n#if 1/0\n#bogus\n#error no\n#else\nx\n#endif\n#endif\ny\n";
    assert_eq!(pp_lines(src), ["y"]);
}

#[test]
fn stringize_and_variadics() {
    let src = "#define S(x) #x\n\
               #define E(a, ...) a __VA_ARGS__ , ## __VA_ARGS__\n\
               #define G(fmt, args...) f(fmt, ## args)\n\
               S(a  \"b\\n\" 'c')\n\
               E(1) E(1,2,3)\n\
               G(x) G(x, y, z)\n";
    assert_eq!(pp_lines(src), ["\"a \\\"b\\\\n\\\" 'c'\"", "1 1 2,3 ,2,3", "f(x) f(x, y, z)"]);
}

#[test]
fn rescanning_and_self_reference() {
    let src = "#define f(a) a*g\n\
               #define g(a) f(a)\n\
               f(2)(9)\n\
               #define foo foo + 1\n\
               foo\n\
               #define x (4 + y)\n\
               #define y (2 * x)\n\
               x y\n\
               #define ID(x) x\n\
               ID(ID)(ID)(3)\n";
    assert_eq!(pp_lines(src), ["2*9*g", "foo + 1", "(4 + (2 * x)) (2 * (4 + y))", "ID(ID)(3)"]);
}

#[test]
fn argument_pre_expansion_except_next_to_paste_and_stringize() {
    let src = "#define ONE 1\n\
               #define CAT(a,b) a##b\n\
               #define XCAT(a,b) CAT(a,b)\n\
               #define STR(x) #x\n\
               #define XSTR(x) STR(x)\n\
               CAT(ONE,ONE) XCAT(ONE,ONE) STR(ONE) XSTR(ONE)\n";
    assert_eq!(pp_lines(src), ["ONEONE 11 \"ONE\" \"1\""]);
}

#[test]
fn odd_pastes_are_kept_as_in_assembler_mode() {
    let src = "#define P(a,b) a##b\nP(+,-) P(-,-) P(.,5) P(1,.foo) P(,x) P(y,)\n#define X -1\n-X\n";
    assert_eq!(pp_lines(src), ["+- -- .5 1. foo x y", "- -1"]);
}

#[test]
fn function_like_name_without_parens_is_left_alone() {
    assert_eq!(pp_lines("#define F(x) [x]\nF F (1) F\n"), ["F [1] F"]);
}

#[test]
fn comments_are_removed_but_stops_and_strings_stay() {
    let src = "\tmov r1=r2 ;; // copy\n\
               /* a\n   block */ ld8 r3=[r4]\n\
               data1 \"/* not a comment */\", '//'\n";
    let out = pp(src);
    assert_eq!(out, "\tmov r1=r2 ;; \n  ld8 r3=[r4]\n\ndata1 \"/* not a comment */\", '//'\n");
}

#[test]
fn line_map_tracks_includes_and_splices() {
    let loader = MemLoader::new()
        .with("include/asm/offsets.h", "#define TI_FLAGS 16\n#define X 1\n")
        .with("arch/entry.h", "// local header\n#define pKStk p8\n");
    let src = "#include <asm/offsets.h>\n\
               #include \"entry.h\"\n\
               #define LONG \\\n  2\n\
               adds r2=TI_FLAGS+LONG,r13\n\
               \t(pKStk) br.cond.dpnt 1f\n\
               \tnop.i 0\n";
    let opts = PreprocessOptions::new().include_dir("include");
    let out = preprocess("arch/entry.S", src, &opts, &loader).unwrap();
    let lines: Vec<&str> = out.text.lines().collect();
    // cpp separates a number from a `+` that follows a macro expansion: `16 +2`.
    assert_eq!(lines, ["", "", "", "", "", "", "adds r2=16 +2,r13", "\t(p8) br.cond.dpnt 1f", "\tnop.i 0"]);
    let origin = |l: u32| {
        let o = out.lines.origin(l);
        (o.file.to_string(), o.line)
    };
    assert_eq!(origin(1), ("include/asm/offsets.h".to_string(), 1));
    assert_eq!(origin(2), ("include/asm/offsets.h".to_string(), 2));
    assert_eq!(origin(3), ("arch/entry.h".to_string(), 1));
    assert_eq!(origin(5), ("arch/entry.S".to_string(), 3));
    assert_eq!(origin(6), ("arch/entry.S".to_string(), 4));
    assert_eq!(origin(7), ("arch/entry.S".to_string(), 5));
    assert_eq!(origin(99), ("arch/entry.S".to_string(), 7));
    assert_eq!(out.lines.len(), 9);
    assert_eq!(out.lines.origin_col(9, 3).col, 3);
    assert_eq!(out.lines.origin_col(8, 3).col, 0);
    assert_eq!(out.lines.source_line(7), Some("adds r2=TI_FLAGS+LONG,r13"));
}

#[test]
fn include_errors() {
    let loader = MemLoader::new().with("self.h", "#include \"self.h\"\n").with("bad.h", "ok\n#error broken header\n");
    let opts = PreprocessOptions::new();
    let d = run_with("#include \"self.h\"\n", &opts, &loader).unwrap_err();
    assert!(d.message.contains("exceeds maximum of 64"), "{d}");
    let d = run_with("#include \"missing.h\"\n", &opts, &loader).unwrap_err();
    assert_eq!(d.message, "missing.h: No such file or directory");
    let d = run_with("\n#include \"bad.h\"\n", &opts, &loader).unwrap_err();
    assert_eq!((d.loc.file.as_ref(), d.loc.line), ("bad.h", 2));
    assert_eq!(d.message, "#error broken header");
    assert_eq!(d.notes.first().map(|(l, _)| l.line), Some(2));
    let d = run_with("#include nothing\n", &opts, &loader).unwrap_err();
    assert!(d.message.contains("expects"), "{d}");
}

#[test]
fn errors_point_at_the_right_place() {
    let d = pp_err("a\n#if 1\nb\n");
    assert_eq!((d.loc.line, d.loc.col, d.message.as_str()), (2, 1, "unterminated #if"));
    let d = pp_err("#else\n");
    assert_eq!(d.message, "#else without #if");
    let d = pp_err("#if 1\n#else\n#else\n#endif\n");
    assert_eq!((d.loc.line, d.message.as_str()), (3, "#else after #else"));
    let d = pp_err("#endif\n");
    assert_eq!(d.message, "#endif without #if");
    let d = pp_err("#if 1\n#else\n#elif 1\n#endif\n");
    assert_eq!(d.message, "#elif after #else");
    let d = pp_err("x\n  #if 2 / (1 - 1)\n#endif\n");
    assert_eq!((d.loc.line, d.loc.col, d.message.as_str()), (2, 9, "division by zero in #if"));
    assert_eq!(d.source_line.as_deref(), Some("  #if 2 / (1 - 1)"));
    let d = pp_err("#error  stop here  \n");
    assert_eq!(d.message, "#error stop here");
    let d = pp_err("#frobnicate\n");
    assert_eq!(d.message, "invalid preprocessing directive #frobnicate");
    let d = pp_err("#define F(a,b) a\nF(1)\n");
    assert_eq!((d.loc.line, d.message.as_str()), (2, "macro \"F\" requires 2 arguments, but only 1 given"));
    let d = pp_err("#define F(a) a\n  F(1,2)\n");
    assert_eq!((d.loc.col, d.message.as_str()), (3, "macro \"F\" passed 2 arguments, but takes just 1"));
    let d = pp_err("#define F(a) a\nF(1\n");
    assert!(d.message.starts_with("unterminated argument list"), "{d}");
    let d = pp_err("#define C(x) ## x\n");
    assert_eq!(d.loc.col, 14);
    let d = pp_err("/* open\n");
    assert_eq!(d.message, "unterminated comment");
    let d = pp_err("#ifdef\n#endif\n");
    assert!(d.message.contains("no macro name"), "{d}");
    let d = pp_err("#if defined(\n#endif\n");
    assert!(d.message.contains("defined"), "{d}");
    assert!(d.to_string().starts_with("entry.S:1:5: error:"), "{d}");
}

#[test]
fn warnings_are_collected() {
    let out = run_with("#warning careful\nx\n", &PreprocessOptions::new(), &MemLoader::new()).unwrap();
    assert_eq!(out.warnings.len(), 1);
    assert_eq!(out.warnings.first().map(|w| w.message.as_str()), Some("#warning careful"));
}

#[test]
fn ignored_directives_and_builtins() {
    let src = "# 12 \"foo.c\"\n#line 7\n#pragma once\n#\n__LINE__ __FILE__ __ASSEMBLER__\n";
    assert_eq!(pp_lines(src), ["5 \"entry.S\" 1"]);
}

#[test]
fn explosive_expansion_is_an_error_not_a_hang() {
    let mut src = String::from("#define A0 x x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{p} A{p}\n", p = i - 1));
    }
    src.push_str("A39\n");
    let d = pp_err(&src);
    assert!(d.message.contains("exceeds"), "{d}");
}

#[test]
fn command_line_defines() {
    assert_eq!(parse_define("CONFIG_SMP"), ("CONFIG_SMP".to_string(), "1".to_string()));
    assert_eq!(parse_define("N=4=5"), ("N".to_string(), "4=5".to_string()));
    let opts = PreprocessOptions::new().defined("SQ(x)", "((x)*(x))").defined("N", "3");
    let out = run_with("SQ(N)\n", &opts, &MemLoader::new()).unwrap();
    assert_eq!(out.text, "((3)*(3))\n");
}

/// Spaces at macro boundaries as `gcc -E -P -x assembler-with-cpp` (12.2) prints them.
#[test]
fn spacing_at_macro_boundaries_matches_cpp() {
    let src = "#define TI_FLAGS 16\n#define LONG \\\n  2\nadds r2=TI_FLAGS+LONG,r13\nx=LONG+1 a=-LONG b=LONG.x\n\
               #define E\nE-E-1 E+E\n#define F(a,b) a-b+(a)\nF(1,2) F(,) F(x, -1)\n";
    let out = run_with(src, &PreprocessOptions::new(), &MemLoader::new()).unwrap();
    let lines: Vec<&str> = out.text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines, ["adds r2=16 +2,r13", "x=2 +1 a=-2 b=2 .x", "- -1 +", "1 -2 +(1) -+() x- -1 +(x)"]);
}

#[test]
fn forced_include_runs_before_the_main_file() {
    let loader = MemLoader::new().with("inc/pre.h", "#define PRE 7\n");
    let opts =
        PreprocessOptions::new().include_dir("inc").forced_include("pre.h").undefined("GONE").defined("GONE", "1");
    let out = run_with("#ifdef GONE\n#error GONE\n#endif\nmov r1=PRE\n", &opts, &loader).unwrap();
    assert!(out.text.lines().any(|l| l == "mov r1=7"), "{}", out.text);
    assert_eq!(out.lines.origin(1).file.as_ref(), "inc/pre.h");
    let missing = PreprocessOptions::new().forced_include("nope.h");
    let e = run_with("nop 0\n", &missing, &loader).unwrap_err();
    assert!(e.to_string().contains("-include nope.h"), "{e}");
}
