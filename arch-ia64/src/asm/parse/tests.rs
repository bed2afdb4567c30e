//! Parser tests; expected values come from `ia64-linux-gnu-as` 2.40 where noted.

use super::*;
use crate::asm::expr::SymbolEnv;
use crate::asm::syntax::IndirectFile;
use crate::regs::{AR_NAMES, CR_NAMES};
use emu_core::rng::Xorshift64;
use std::sync::Arc;

fn locate(line: u32, col: u32) -> SourceLoc {
    SourceLoc::new(Arc::from("t.S"), line, col)
}

fn run(text: &str) -> (Vec<Statement>, Vec<Diagnostic>) {
    parse(text, &locate)
}

fn kinds(text: &str) -> Vec<StmtKind> {
    let (s, d) = run(text);
    assert!(d.is_empty(), "unexpected diagnostics for {text:?}: {d:?}");
    s.into_iter().map(|s| s.kind).collect()
}

fn one_error(text: &str) -> Diagnostic {
    let (_, d) = run(text);
    assert_eq!(d.len(), 1, "expected one diagnostic for {text:?}: {d:?}");
    d.into_iter().next().unwrap_or_else(|| Diagnostic::error(locate(0, 0), ""))
}

fn insn(text: &str) -> InsnSyntax {
    let ks = kinds(text);
    match ks.into_iter().rev().find_map(|k| match k {
        StmtKind::Insn(i) => Some(i),
        _ => None,
    }) {
        Some(i) => i,
        None => InsnSyntax {
            qp: None,
            mnemonic: Located { value: "<none>".into(), loc: locate(0, 0) },
            outputs: vec![],
            inputs: vec![],
            has_equals: false,
        },
    }
}

fn ops(v: &[Located<Operand>]) -> Vec<Operand> {
    v.iter().map(|o| o.value.clone()).collect()
}

/// The register of a one-operand `mov r1=X` style line.
fn reg_in(text: &str) -> Operand {
    insn(text).inputs.first().map(|o| o.value.clone()).unwrap_or(Operand::Expr(Expr::Dot))
}

struct NoSyms;
impl SymbolEnv for NoSyms {
    fn symbol(&self, _: &str) -> Option<u64> {
        None
    }
    fn dot(&self) -> Option<u64> {
        None
    }
}

fn value(expr_text: &str) -> i64 {
    match kinds(&format!("data8 {expr_text}")).first() {
        Some(StmtKind::Directive(_, args)) => match args.first().map(|a| &a.value) {
            Some(DirArg::Expr(e)) => e.eval(&NoSyms).unwrap_or(i64::MIN + 12345),
            _ => i64::MIN + 1,
        },
        _ => i64::MIN + 2,
    }
}

/// Every left/right pair was assembled by `ia64-linux-gnu-as` 2.40 as `data8 LEFT` and
/// read back with `objdump -s`.
#[test]
fn expression_values_match_gas() {
    let cases: &[(&str, i64)] = &[
        ("1+2*3", 7),
        ("6&3+1", 3),
        ("1<<2+1", 5),
        ("-7/2", -3),
        ("-7%2", -1),
        ("7 % -2", 1),
        ("-8 / -3", 2),
        ("-16>>2", 0x3fff_ffff_ffff_fffc),
        ("0x8000000000000000>>63", 1),
        ("010", 8),
        ("0b101", 5),
        ("'a", 0x61),
        ("'a'", 0x61),
        ("'\\n", 10),
        ("'\\'", 0x27),
        ("'\\\\", 0x5c),
        ("5==5", -1),
        ("5!=5", 0),
        ("3<5", -1),
        ("1&&2", 1),
        ("0||3", 1),
        ("1|2^3", 0),
        ("8>>64", 0),
        ("1<<64", 0),
        ("1 << -1", 0),
        ("~0", -1),
        ("!5", 0),
        ("!0", 1),
        ("2*3%4", 2),
        ("1-2-3", -4),
        ("1 == 1 + 1", 0),
        ("3 & 2 == 2", -1),
        ("5 < 6 & 2", 0),
        ("0xffffffffffffffff*2", -2),
        ("-1 / 2", 0),
        ("1 <> 2", -1),
        ("2 ! 3", -2),
        ("1&3*2", 0),
        ("3&1<<2", 0),
        ("1<<2*3", 12),
        ("1|3&2", 2),
        ("1 || 0 && 0", 1),
        ("-1 < 1", -1),
        ("1 < 2 == -1", -1),
        ("2 == 2 < 1", -1),
        ("0x10 + 0X10 + 0B11", 0x23),
        ("1 << 63", i64::MIN),
        ("3 >= 3", -1),
        ("3 <= 2", 0),
        ("1 - -1", 2),
        ("- - 1", 1),
        ("~~5", 5),
        ("+3", 3),
        ("1 == 1 && 2 == 2", 1),
        ("0x7fffffffffffffff + 1 > 0", 0),
        ("(1+2)*3", 9),
        ("1 > 2 == 0", -1),
    ];
    for (text, want) in cases {
        assert_eq!(value(text), *want, "data8 {text}");
    }
}

#[test]
fn expression_shapes() {
    let k = kinds("data8 @gprel(foo) + 8, @ltoff(@fptr(bar#)), . - x");
    let StmtKind::Directive(name, args) = &k[0] else { panic!("{k:?}") };
    assert_eq!(name, "data8");
    let e: Vec<&DirArg> = args.iter().map(|a| &a.value).collect();
    assert_eq!(
        e[0],
        &DirArg::Expr(Expr::Binary(
            BinOp::Add,
            Box::new(Expr::RelocFn("gprel".into(), Box::new(Expr::Sym("foo".into())))),
            Box::new(Expr::Num(8))
        ))
    );
    assert_eq!(
        e[1],
        &DirArg::Expr(Expr::RelocFn(
            "ltoff".into(),
            Box::new(Expr::RelocFn("fptr".into(), Box::new(Expr::Sym("bar".into()))))
        ))
    );
    assert_eq!(e[2], &DirArg::Expr(Expr::Binary(BinOp::Sub, Box::new(Expr::Dot), Box::new(Expr::Sym("x".into())))));
}

#[test]
fn identifiers_may_hold_dollar_question_and_dots() {
    let k = kinds("a$b: a?c = 5\n.La.b:\n_x.y$?z:");
    assert_eq!(k[0], StmtKind::Label("a$b".into()));
    assert_eq!(k[1], StmtKind::Assign("a?c".into(), Expr::Num(5)));
    assert_eq!(k[2], StmtKind::Label(".La.b".into()));
    assert_eq!(k[3], StmtKind::Label("_x.y$?z".into()));
}

#[test]
fn comments_and_line_markers() {
    let k = kinds("// whole line\n# 12 \"foo.S\"\n  # 3 \"x.h\" 2\nnop 0 // trailing ;; not a stop\n");
    assert_eq!(k.len(), 1);
    let e = one_error("data8 1 # 2");
    assert_eq!((e.loc.line, e.loc.col), (1, 9));
    assert!(e.message.contains("'#'"), "{}", e.message);
}

#[test]
fn stops_in_every_position() {
    let k = kinds(";;\nld8 r2=[r3];;\n;; add r1=r2,r3\nnop 0 ;; ;;;;\nnop 1;nop 2");
    let shape: Vec<&str> = k
        .iter()
        .map(|k| match k {
            StmtKind::Stop => "stop",
            StmtKind::Insn(_) => "insn",
            _ => "other",
        })
        .collect();
    assert_eq!(shape, ["stop", "insn", "stop", "stop", "insn", "insn", "stop", "stop", "stop", "insn", "insn"]);
    let (s, _) = run("  ld8 r2=[r3] ;;");
    assert_eq!((s[1].loc.line, s[1].loc.col), (1, 15));
}

#[test]
fn single_semicolon_separates_without_stop() {
    let k = kinds("add r1=r2,r3 ; add r4=r5,r6");
    assert_eq!(k.len(), 2);
    assert!(k.iter().all(|k| matches!(k, StmtKind::Insn(_))));
}

#[test]
fn labels_and_local_labels() {
    let k = kinds("foo: bar: add r1=r2,r3\n1: data8 1b\n1: data8 1b, 1f\n1:\n.Lx: 12: data8 12b");
    assert_eq!(k[0], StmtKind::Label("foo".into()));
    assert_eq!(k[1], StmtKind::Label("bar".into()));
    assert!(matches!(&k[2], StmtKind::Insn(i) if i.mnemonic.value == "add"));
    assert_eq!(k[3], StmtKind::Label(local_label_name(1, 1)));
    let sym = |n, i| DirArg::Expr(Expr::Sym(local_label_name(n, i)));
    let args = |k: &StmtKind| match k {
        StmtKind::Directive(_, a) => a.iter().map(|a| a.value.clone()).collect(),
        _ => Vec::new(),
    };
    assert_eq!(args(&k[4]), vec![sym(1, 1)]);
    assert_eq!(k[5], StmtKind::Label(local_label_name(1, 2)));
    assert_eq!(args(&k[6]), vec![sym(1, 2), sym(1, 3)]);
    assert_eq!(k[7], StmtKind::Label(local_label_name(1, 3)));
    assert_eq!(k[9], StmtKind::Label(local_label_name(12, 1)));
    assert_eq!(args(&k[10]), vec![sym(12, 1)]);
    let e = one_error("data8 2b");
    assert!(e.message.contains("'2b'"), "{}", e.message);
    // `0b` without binary digits is a local reference; `1f` is not hex.
    let k = kinds("0: data8 0b, 0x1f, 1f");
    assert_eq!(args(&k[1]), vec![sym(0, 1), DirArg::Expr(Expr::Num(0x1f)), sym(1, 1)]);
}

#[test]
fn assignment() {
    let k = kinds("x = 4 * 8\ny=x+1");
    assert_eq!(
        k[0],
        StmtKind::Assign("x".into(), Expr::Binary(BinOp::Mul, Box::new(Expr::Num(4)), Box::new(Expr::Num(8))))
    );
    assert!(matches!(&k[1], StmtKind::Assign(n, _) if n == "y"));
}

#[test]
fn qualifying_predicates_and_mnemonics() {
    let i = insn("(p6) mov r1=r2");
    assert_eq!(i.qp.as_ref().map(|q| q.value), Some(6));
    let i = insn("( p63 ) BR.RET.SPTK.MANY rp");
    assert_eq!(i.qp.as_ref().map(|q| q.value), Some(63));
    assert_eq!(i.mnemonic.value, "br.ret.sptk.many");
    assert_eq!(ops(&i.inputs), vec![Operand::Reg(Reg::Br(0))]);
    assert!(!i.has_equals);
    assert_eq!(insn("(p0) nop.m 0").qp.map(|q| q.value), Some(0));
    let e = one_error("(P6) mov r1=r2");
    assert_eq!(e.loc.col, 2);
    assert!(e.message.contains("predicate register"), "{}", e.message);
    let e = one_error("(p6 mov r1=r2");
    assert!(e.message.contains("expected ')'"), "{}", e.message);
    let e = one_error("(r6) mov r1=r2");
    assert!(e.message.contains("found 'r6'"), "{}", e.message);
}

#[test]
fn outputs_and_inputs() {
    let i = insn("cmp.eq.unc p6,p7=r2,r3");
    assert_eq!(ops(&i.outputs), vec![Operand::Reg(Reg::Pr(6)), Operand::Reg(Reg::Pr(7))]);
    assert_eq!(ops(&i.inputs), vec![Operand::Reg(Reg::Gr(2)), Operand::Reg(Reg::Gr(3))]);
    assert!(i.has_equals);
    let i = insn("st8 [r1]=r2,8");
    assert_eq!(ops(&i.outputs), vec![Operand::Mem(Reg::Gr(1))]);
    assert_eq!(ops(&i.inputs), vec![Operand::Reg(Reg::Gr(2)), Operand::Expr(Expr::Num(8))]);
    let i = insn("ld8 r1=[ r2 ], -8");
    assert_eq!(ops(&i.inputs)[1], Operand::Expr(Expr::Unary(UnaryOp::Neg, Box::new(Expr::Num(8)))));
    let i = insn("nop.i 0x1234");
    assert!(i.outputs.is_empty());
    assert_eq!(ops(&i.inputs), vec![Operand::Expr(Expr::Num(0x1234))]);
    assert!(insn("rfi").inputs.is_empty());
    let i = insn("mov r1=pmc [r3]");
    assert_eq!(ops(&i.inputs), vec![Operand::Indirect(IndirectFile::Pmc, Reg::Gr(3))]);
    let i = insn("addl r2=@ltoff(foo),gp");
    assert_eq!(i.inputs[0].value, Operand::Expr(Expr::RelocFn("ltoff".into(), Box::new(Expr::Sym("foo".into())))));
    assert_eq!(i.inputs[1].value, Operand::Reg(Reg::Gr(1)));
    // Operand locations are their first character.
    let i = insn("  add r1 = r2, 5");
    assert_eq!(i.mnemonic.loc.col, 3);
    assert_eq!(i.outputs[0].loc.col, 7);
    assert_eq!(i.inputs[0].loc.col, 12);
    assert_eq!(i.inputs[1].loc.col, 16);
}

#[test]
fn every_indirect_file() {
    for (name, file) in INDIRECT {
        assert_eq!(reg_in(&format!("mov r1={name}[r2]")), Operand::Indirect(file, Reg::Gr(2)));
    }
    let e = one_error("mov r1=foo[r2]");
    assert!(e.message.contains("unknown indirect register file 'foo'"), "{}", e.message);
}

#[test]
fn register_files_and_ranges() {
    let r = |s: &str| reg_in(&format!("mov x={s}"));
    assert_eq!(r("r0"), Operand::Reg(Reg::Gr(0)));
    assert_eq!(r("r127"), Operand::Reg(Reg::Gr(127)));
    assert_eq!(r("f127"), Operand::Reg(Reg::Fr(127)));
    assert_eq!(r("p63"), Operand::Reg(Reg::Pr(63)));
    assert_eq!(r("b7"), Operand::Reg(Reg::Br(7)));
    assert_eq!(r("ar64"), Operand::Reg(Reg::Ar(64)));
    assert_eq!(r("cr23"), Operand::Reg(Reg::Cr(23)));
    assert_eq!(r("pr"), Operand::Reg(Reg::PrAll));
    assert_eq!(r("pr.rot"), Operand::Reg(Reg::PrRot));
    assert_eq!(r("psr"), Operand::Reg(Reg::Psr));
    assert_eq!(r("psr.l"), Operand::Reg(Reg::PsrL));
    assert_eq!(r("psr.um"), Operand::Reg(Reg::PsrUm));
    assert_eq!(r("ip"), Operand::Reg(Reg::Ip));
    // Register names are case-sensitive in gas: these are symbols.
    assert_eq!(r("R1"), Operand::Expr(Expr::Sym("R1".into())));
    assert_eq!(r("AR.PFS"), Operand::Expr(Expr::Sym("AR.PFS".into())));
    assert_eq!(r("r1#"), Operand::Expr(Expr::Sym("r1".into())));
    for (bad, range) in [
        ("r128", "r0-r127"),
        ("r200", "r0-r127"),
        ("r01", "r0-r127"),
        ("f128", "f0-f127"),
        ("p64", "p0-p63"),
        ("b8", "b0-b7"),
        ("ar128", "ar0-ar127"),
        ("cr999", "cr0-cr127"),
    ] {
        let e = one_error(&format!("mov r1 = {bad}"));
        assert_eq!(e.loc.col, 10);
        assert!(e.message.contains(&format!("unknown register '{bad}'")), "{}", e.message);
        assert!(e.message.contains(range), "{}", e.message);
    }
    let e = one_error("mov r1=ar.foo");
    assert!(e.message.contains("unknown application register 'ar.foo'"), "{}", e.message);
    let e = one_error("mov r1=cr.bar");
    assert!(e.message.contains("unknown control register 'cr.bar'"), "{}", e.message);
}

#[test]
fn every_named_ar_and_cr() {
    for (n, name) in AR_NAMES {
        assert_eq!(reg_in(&format!("mov r1={name}")), Operand::Reg(Reg::Ar(*n)), "{name}");
    }
    for (n, name) in CR_NAMES {
        assert_eq!(reg_in(&format!("mov r1={name}")), Operand::Reg(Reg::Cr(*n)), "{name}");
    }
}

#[test]
fn every_alias() {
    let cases: Vec<(String, Reg)> = [("sp", Reg::Gr(12)), ("gp", Reg::Gr(1)), ("tp", Reg::Gr(13)), ("rp", Reg::Br(0))]
        .into_iter()
        .map(|(s, r)| (s.to_string(), r))
        .chain((0..4).map(|i| (format!("ret{i}"), Reg::Gr(8 + i))))
        .chain((0..8).map(|i| (format!("farg{i}"), Reg::Fr(8 + i))))
        .chain((0..8).map(|i| (format!("fret{i}"), Reg::Fr(8 + i))))
        .collect();
    for (name, reg) in cases {
        assert_eq!(reg_in(&format!("mov x={name}")), Operand::Reg(reg), "{name}");
    }
    // Past the alias range gas sees a symbol.
    assert_eq!(reg_in("mov x=fret8"), Operand::Expr(Expr::Sym("fret8".into())));
    assert_eq!(reg_in("mov x=ret4"), Operand::Expr(Expr::Sym("ret4".into())));
}

#[test]
fn frame_registers_follow_alloc() {
    let text = "alloc r3=ar.pfs,2,3,4,0\nmov r1=in1\nmov r1=loc0\nmov r1=loc2\nmov r1=out0\nmov r1=out3";
    let regs: Vec<Operand> = kinds(text)
        .into_iter()
        .skip(1)
        .filter_map(|k| match k {
            StmtKind::Insn(i) => i.inputs.first().map(|o| o.value.clone()),
            _ => None,
        })
        .collect();
    let want: Vec<Operand> = [33, 34, 36, 37, 40].iter().map(|n| Operand::Reg(Reg::Gr(*n))).collect();
    assert_eq!(regs, want);
    for (bad, have) in [("in2", "in0-in1"), ("loc3", "loc0-loc2"), ("out4", "out0-out3")] {
        let e = one_error(&format!("alloc r3=ar.pfs,2,3,4,0\nmov r1 = {bad}"));
        assert_eq!((e.loc.line, e.loc.col), (2, 10));
        assert!(e.message.contains("out of range") && e.message.contains(have), "{}", e.message);
    }
    let e = one_error("alloc r3=ar.pfs,0,3,0,0\nmov r1=in0");
    assert!(e.message.contains("no in registers"), "{}", e.message);
    // Before any alloc there is no frame (gas: "No current frame").
    let e = one_error("mov r1=loc0");
    assert!(e.message.contains("no alloc"), "{}", e.message);
    // in96 and above are ordinary symbols.
    assert_eq!(reg_in("mov r1=in96"), Operand::Expr(Expr::Sym("in96".into())));
}

#[test]
fn alloc_output_uses_its_own_frame() {
    // gas: `alloc loc1=ar.pfs,8,2,0,0` assembles as alloc r41=...
    let i = insn("alloc loc1=ar.pfs,8,2,0,0");
    assert_eq!(i.outputs[0].value, Operand::Reg(Reg::Gr(41)));
    assert_eq!(i.inputs[0].value, Operand::Reg(Reg::Ar(64)));
    let k = kinds("alloc r3=ar.pfs,8,2,0,0\nalloc loc1=ar.pfs,1,2,3,0");
    let StmtKind::Insn(i) = &k[1] else { panic!("{k:?}") };
    assert_eq!(i.outputs[0].value, Operand::Reg(Reg::Gr(34)));
    // Constants defined with `=` may size the frame; so may .regstk.
    assert_eq!(reg_in("N=3\nalloc r3=ar.pfs,N,2,0,0\nmov r1=loc1"), Operand::Reg(Reg::Gr(36)));
    let k = kinds(".regstk 1,2,3,0\nmov r1=loc1");
    let StmtKind::Insn(i) = &k[1] else { panic!("{k:?}") };
    assert_eq!(i.inputs[0].value, Operand::Reg(Reg::Gr(34)));
    let e = one_error("alloc r3=ar.pfs,n,2,0,0");
    assert_eq!(e.message, "Operand 3 of `alloc' should be a frame size (register count)");
}

#[test]
fn directives() {
    let args = |t: &str| match kinds(t).into_iter().next() {
        Some(StmtKind::Directive(n, a)) => (n, a.into_iter().map(|a| a.value).collect::<Vec<_>>()),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        args(".pred.rel \"mutex\", p6, p7"),
        (".pred.rel".into(), vec![DirArg::Str("mutex".into()), DirArg::Reg(Reg::Pr(6)), DirArg::Reg(Reg::Pr(7))])
    );
    assert_eq!(
        args(".pred.rel.mutex p6,p7"),
        (".pred.rel.mutex".into(), vec![DirArg::Reg(Reg::Pr(6)), DirArg::Reg(Reg::Pr(7))])
    );
    assert_eq!(args(".save ar.pfs, r34").1, vec![DirArg::Reg(Reg::Ar(64)), DirArg::Reg(Reg::Gr(34))]);
    assert_eq!(
        args(".section .data, \"aw\", @progbits").1,
        vec![DirArg::Expr(Expr::Sym(".data".into())), DirArg::Str("aw".into()), DirArg::At("progbits".into())]
    );
    assert_eq!(args(".mii"), (".mii".into(), vec![]));
    assert_eq!(args(".MLX").0, ".mlx");
    assert_eq!(args("DATA8.UA 1").0, "data8.ua");
    for d in ["data1", "data2", "data4", "data16", "real4", "real8", "string", "stringz", "data4.ua"] {
        assert_eq!(args(&format!("{d} 1")).0, d);
    }
    assert_eq!(args(".ascii \"a\" \"b\"").1, vec![DirArg::Str("a".into()), DirArg::Str("b".into())]);
    assert_eq!(args("string \"a\\tb\\101\\x41\\\"q\\x414\\377\"").1, vec![DirArg::Str("a\tbAA\"q\u{14}\u{ff}".into())]);
    assert_eq!(
        args(".type foo, @function").1,
        vec![DirArg::Expr(Expr::Sym("foo".into())), DirArg::At("function".into())]
    );
    let e = one_error(".byte 1,,2");
    assert!(e.message.contains("found ','"), "{}", e.message);
    let e = one_error(".byte 1 2");
    assert!(e.message.contains("expected ',' between arguments of .byte, found '2'"), "{}", e.message);
}

#[test]
fn explicit_bundles_open_and_close() {
    // `{` and `}` stand alone, before a directive, or after an instruction (issue 13).
    let k = kinds("{ .mii\nnop.m 0\n}\n{ .mib; (p6) ld8 r1=[r2]; br.ret.sptk.many rp }\n1: { .mfb nop.m 0\n}");
    assert_eq!(k[0], StmtKind::BundleOpen);
    assert_eq!(k[1], StmtKind::Directive(".mii".into(), vec![]));
    assert!(matches!(&k[2], StmtKind::Insn(i) if i.mnemonic.value == "nop.m"));
    assert_eq!(k[3], StmtKind::BundleClose);
    assert_eq!(k[4], StmtKind::BundleOpen);
    assert!(matches!(&k[7], StmtKind::Insn(i) if i.mnemonic.value == "br.ret.sptk.many"));
    assert_eq!(k[8], StmtKind::BundleClose);
    assert!(matches!(&k[9], StmtKind::Label(_)));
    assert_eq!(k[10], StmtKind::BundleOpen);
    // gas reads an instruction after a template directive on the same statement.
    assert_eq!(k[11], StmtKind::Directive(".mfb".into(), vec![]));
    assert!(matches!(&k[12], StmtKind::Insn(i) if i.mnemonic.value == "nop.m"));
}

#[test]
fn tags_precede_their_instruction() {
    let k = kinds("[.Ltag1:] add r31=r2,r3\nx: [t2:] (p6) nop.i 0");
    assert_eq!(k[0], StmtKind::Tag(".Ltag1".into()));
    assert!(matches!(&k[1], StmtKind::Insn(i) if i.mnemonic.value == "add"));
    assert_eq!(k[2], StmtKind::Label("x".into()));
    assert_eq!(k[3], StmtKind::Tag("t2".into()));
    assert!(matches!(&k[4], StmtKind::Insn(i) if i.qp.as_ref().map(|q| q.value) == Some(6)));
    // A tag may end the line; it names the next instruction's slot (`...; [99:]`).
    assert_eq!(kinds("[t1:]"), vec![StmtKind::Tag("t1".into())]);
    // Numeric tags are local labels, referred to as `1b`.
    let k = kinds("[1:] nop.m 0\ndata8 1b");
    assert!(matches!(&k[0], StmtKind::Tag(n) if n.contains('\u{2}')));
    let e = one_error("[5] nop 0");
    assert!(e.message.contains("tag name"), "{}", e.message);
}

/// gas values of `data8 @rev` etc.; `mux1 r1=r2,0xb` assembles like `mux1 r1=r2,@rev`.
#[test]
fn at_keywords_are_constants_in_expressions() {
    let cases = [("@rev", 0xb), ("@brcst", 0), ("@mix", 8), ("@shuf", 9), ("@alt", 0xa), ("@pause", 0)];
    for (w, v) in cases {
        assert_eq!(value(&format!("{w}+0")), v, "{w}");
    }
    assert_eq!(value("@rev+1"), 0xc);
    assert_eq!(value("@priority+0"), 1);
    assert_eq!(insn("mux1 r54=r2,@rev").inputs[1].value, Operand::Expr(Expr::Num(0xb)));
    assert_eq!(insn("hint @pause").inputs[0].value, Operand::Expr(Expr::Num(0)));
    let e = one_error("mux1 r1=r2,@bogus");
    assert!(e.message.contains("'@bogus'"), "{}", e.message);
}

#[test]
fn set_constants_size_frames() {
    let k = kinds(".set OFF_A, 16\nalloc r36=ar.pfs,2,OFF_A/4,2,0\nmov r1=out1");
    let StmtKind::Insn(i) = &k[2] else { panic!("{k:?}") };
    assert_eq!(i.inputs[0].value, Operand::Reg(Reg::Gr(32 + 2 + 4 + 1)));
}

#[test]
fn error_messages_and_positions() {
    let e = one_error("add r1=,r2");
    assert_eq!(e.message, "expected register or expression after '=', found ','");
    assert_eq!((e.loc.line, e.loc.col), (1, 8));
    assert_eq!(e.source_line.as_deref(), Some("add r1=,r2"));
    let e = one_error("nop 0\n  mov r1=");
    assert_eq!(e.message, "expected register or expression after '=', found end of line");
    assert_eq!((e.loc.line, e.loc.col), (2, 10));
    let e = one_error("data8 \"abc");
    assert!(e.message.contains("unterminated string"), "{}", e.message);
    assert_eq!(e.loc.col, 7);
    let e = one_error("mov r1=r2 r3");
    assert_eq!(e.message, "expected ',' or end of line after operand, found 'r3'");
    let e = one_error("mov r1 r2=r3");
    assert_eq!(e.message, "expected ',' or '=' after operand, found 'r2'");
    let e = one_error("add r1=r2+4,r3");
    assert_eq!(e.message, "register 'r2' cannot be used in an expression");
    let e = one_error("data8 (1+2");
    assert!(e.message.starts_with("expected ')' to close '(' at column 7"), "{}", e.message);
    let e = one_error("data8 08");
    assert!(e.message.contains("'08'"), "{}", e.message);
    let e = one_error("data8 0x1ffffffffffffffff");
    assert!(e.message.contains("64 bits"), "{}", e.message);
    let e = one_error("ld8 r1=[5]");
    assert!(e.message.contains("expected a register after '['"), "{}", e.message);
    let e = one_error("(p6) .mii");
    assert!(e.message.contains("qualifying predicate"), "{}", e.message);
    // One diagnostic per bad statement; parsing goes on.
    let (s, d) = run("mov r1=,\nnop 0; mov r2=r999; nop 1\nnop 2");
    assert_eq!(d.len(), 2);
    assert_eq!((d[1].loc.line, d[1].loc.col), (2, 15));
    assert_eq!(s.len(), 3);
}

#[test]
fn locate_maps_positions() {
    let map = |line: u32, col: u32| SourceLoc::new(Arc::from("orig.S"), line + 100, col);
    let (s, d) = parse("nop 0\n r5:", &map);
    assert!(d.is_empty());
    assert_eq!(s[1].loc, SourceLoc::new(Arc::from("orig.S"), 102, 2));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("data8 {}1{}", "(".repeat(5000), ")".repeat(5000));
    assert!(one_error(&deep).message.contains("too deeply nested"));
    let long = format!("data8 1{}", "+1".repeat(5000));
    assert!(one_error(&long).message.contains("too deeply nested"));
    let neg = format!("data8 {}1", "-".repeat(5000));
    assert!(one_error(&neg).message.contains("too deeply nested"));
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Xorshift64::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let len = (rng.next_u64() % 80) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = run(&text);
    }
}

#[test]
fn random_token_soup_never_panics() {
    const WORDS: [&str; 48] = [
        "r1",
        "in0",
        "loc1",
        "out2",
        "alloc",
        "ar.pfs",
        "=",
        ",",
        ";;",
        ";",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ":",
        "1",
        "1b",
        "1f",
        "0b",
        "0x",
        "'",
        "\"",
        "\"s\"",
        "@gprel",
        "@progbits",
        ".",
        ".mii",
        "data8",
        "mov",
        "(p6)",
        "p6",
        "+",
        "-",
        "*",
        "/",
        "<<",
        "!",
        "~",
        "&&",
        "//",
        "#",
        "foo#",
        "pmc",
        "\n",
        "r999",
        "\\",
    ];
    let mut rng = Xorshift64::new(12345);
    for _ in 0..3000 {
        let n = (rng.next_u64() % 16) as usize;
        let mut text = String::new();
        for _ in 0..n {
            let w = WORDS.get((rng.next_u64() % WORDS.len() as u64) as usize).copied().unwrap_or("");
            text.push_str(w);
            if rng.next_u64() & 1 == 0 {
                text.push(' ');
            }
        }
        let (stmts, _) = run(&text);
        for s in stmts {
            if let StmtKind::Directive(_, args) = s.kind {
                for a in args {
                    if let DirArg::Expr(e) = a.value {
                        let _ = e.eval(&NoSyms);
                    }
                }
            }
        }
    }
}

/// Rotating register names (`.rotr`/`.rotp`/`.rotf`) after `alloc`, as gas numbers them:
/// consecutive from r32, p16 and f32; each directive replaces the names of its kind.
#[test]
fn rotating_register_names() {
    let text = ".rotr a[3], b[2]\n.rotp q[4]\n.rotf g[2]\n(q[3]) add b[1]=a[2],a[0]\nfma g[1]=g[0],f1,f0";
    let k = kinds(text);
    let insns: Vec<&InsnSyntax> =
        k.iter().filter_map(|k| if let StmtKind::Insn(i) = k { Some(i) } else { None }).collect();
    assert_eq!(insns[0].qp.as_ref().map(|q| q.value), Some(19));
    assert_eq!(insns[0].outputs[0].value, Operand::Reg(Reg::Gr(36)));
    assert_eq!(insns[0].inputs[0].value, Operand::Reg(Reg::Gr(34)));
    assert_eq!(insns[1].outputs[0].value, Operand::Reg(Reg::Fr(33)));
    assert!(one_error(".rotr a[2]\nadd r1=a[2],r0").message.contains("out of range"));
    // A later .rotr forgets the earlier names.
    assert!(!run(".rotr a[2]\n.rotr c[1]\nadd r1=a[0],r0").1.is_empty());
}

/// `psr.*` are the one-bit PSR masks gas predefines (`data8 psr.X`); psr.cpl/psr.ri are symbols.
#[test]
fn psr_field_names_are_masks() {
    assert_eq!(value("psr.i|psr.ic"), (1 << 14) | (1 << 13));
    assert_eq!(value("psr.be+psr.bn"), (1 << 1) | (1 << 44));
    assert_eq!(insn("rsm psr.dt").inputs[0].value, Operand::Expr(Expr::Num(1 << 17)));
    // Not a constant: an (undefined) symbol.
    assert_eq!(value("psr.cpl"), i64::MIN + 12345);
}

/// Section names are raw text up to the first comma, and `%type` spells `@type`.
#[test]
fn section_names_and_percent_types() {
    let k = kinds(".section tab+name,\"a\"\n.section s,\"aMS\",%progbits,1");
    assert!(
        matches!(&k[0], StmtKind::Directive(n, a) if n == ".section" && a[0].value == DirArg::Str("tab+name".into()))
    );
    assert!(matches!(&k[1], StmtKind::Directive(_, a) if a[2].value == DirArg::At("progbits".into())));
}

/// Floating literals become their IEEE bits, rounded to nearest (`objdump -s` of gas's `real4`).
#[test]
fn floating_literals() {
    let k = kinds("real4 1.5, -2.25e3, 0f1.5\nreal8 0.1, 0d2.5\n.double -0.5");
    let nums = |i: usize| match &k[i] {
        StmtKind::Directive(_, a) => a.iter().map(|x| x.value.clone()).collect::<Vec<_>>(),
        _ => vec![],
    };
    assert_eq!(nums(0), [0x3fc0_0000u64, 0xc50c_a000, 0x3fc0_0000].map(|v| DirArg::Expr(Expr::Num(v))));
    assert_eq!(nums(1), [0x3fb9_9999_9999_999au64, 0x4004_0000_0000_0000].map(|v| DirArg::Expr(Expr::Num(v))));
    assert_eq!(nums(2), [0xbfe0_0000_0000_0000u64].map(|v| DirArg::Expr(Expr::Num(v))));
    assert!(one_error("real4 abc").message.contains("not a floating-point number"));
}
