//! Every error a user can reach through `acctemu` names its place (issue 7): `file:line:col` for
//! source text (assembly, preprocessed input, harness TOML), `file:line` and the hunk for a
//! patch, the pc (and slot on IA-64) for code, the path for a file-level error, the argument for
//! a bad command-line argument.
//!
//! Each case runs the real binary in a directory of its own holding the case's small input
//! files, and checks that it failed cleanly with its status of the table in
//! `acctemu::cli::exit` (1 an input error, 2 a usage error, 3 code that stopped before its
//! expected end; never a panic) and that its message holds every expected fragment. Objects for the
//! x86-64 and s390x cores are written by [`elf_object`], so no cross tool chain is needed.
//! Library-level errors (the same messages without the binary) are at the end.

use std::path::PathBuf;
use std::process::Command;

/// One invocation of the binary and what its message must contain.
struct Case {
    /// Names the case in failures and its directory.
    name: &'static str,
    /// Files written into the case's directory before the run.
    files: Vec<(&'static str, Vec<u8>)>,
    /// Arguments (relative paths resolve in the case's directory).
    args: Vec<String>,
    /// Expected exit status (the table of `acctemu::cli::exit`): 0 done, 1 an error in the
    /// input, 2 a usage error, 3 code that stopped before its expected end.
    status: i32,
    /// Fragments the message (stderr; stdout and stderr for status 0) must contain.
    expect: Vec<&'static str>,
}

fn case(name: &'static str, args: &[&str], expect: &[&'static str]) -> Case {
    Case {
        name,
        files: Vec::new(),
        args: args.iter().map(|a| (*a).to_string()).collect(),
        status: 1,
        expect: expect.to_vec(),
    }
}

impl Case {
    fn file(mut self, name: &'static str, content: impl Into<Vec<u8>>) -> Case {
        self.files.push((name, content.into()));
        self
    }

    fn status(mut self, status: i32) -> Case {
        self.status = status;
        self
    }
}

/// A case that is a usage error (status 2): a flag value or combination that cannot be meant.
fn usage(name: &'static str, args: &[&str], expect: &[&'static str]) -> Case {
    case(name, args, expect).status(2)
}

/// `cases` with the status of a run that stopped before its expected end (3).
fn stopped(cases: Vec<Case>) -> Vec<Case> {
    cases.into_iter().map(|c| c.status(3)).collect()
}

/// A directory of its own for `name` (unique per test process).
fn case_dir(group: &str, name: &str) -> PathBuf {
    let safe: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    std::env::temp_dir().join(format!("acctemu-errloc-{}-{group}-{safe}", std::process::id()))
}

/// Runs every case; panics once with every failure listed.
fn check(group: &str, cases: Vec<Case>) {
    let mut failures = Vec::new();
    for c in &cases {
        let dir = case_dir(group, c.name);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            failures.push(format!("{}: cannot create {}: {e}", c.name, dir.display()));
            continue;
        }
        for (file, content) in &c.files {
            let path = dir.join(file);
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            if let Err(e) = std::fs::write(&path, content) {
                failures.push(format!("{}: cannot write {}: {e}", c.name, path.display()));
            }
        }
        let out = match Command::new(env!("CARGO_BIN_EXE_acctemu")).args(&c.args).current_dir(&dir).output() {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{}: cannot run acctemu: {e}", c.name));
                continue;
            }
        };
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        // A clean stop, or one before the expected end, reports on stdout (warnings and why it
        // stopped go to stderr): look at both.
        let message = if c.status == 0 || c.status == 3 { format!("{stdout}{stderr}") } else { stderr.clone() };
        let code = out.status.code();
        let what = format!("{}: `acctemu {}`", c.name, c.args.join(" "));
        if stderr.contains("panicked at") || code == Some(101) {
            failures.push(format!("{what} panicked:\n{stderr}"));
        } else if code != Some(c.status) {
            failures.push(format!("{what}: exit status {code:?}, expected {}\nstderr: {stderr}", c.status));
        } else {
            let missing: Vec<&&str> = c.expect.iter().filter(|f| !message.contains(**f)).collect();
            if !missing.is_empty() {
                failures.push(format!("{what}: missing {missing:?} in:\n{message}"));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

// ---- ELF objects for the x86-64 and s390x cores ----

/// A relocation of [`elf_object`]: offset in `.text`, type, symbol (undefined in the object).
type Rel = (u64, u32, &'static str);

/// A minimal relocatable ELF64 object of `machine`: `.text` holding `code`, a global function
/// symbol `f` at its start, and `.rela.text` with `relocs` against undefined symbols.
fn elf_object(machine: u16, big_endian: bool, code: &[u8], relocs: &[Rel]) -> Vec<u8> {
    let u16b = |v: u16| if big_endian { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() };
    let u32b = |v: u32| if big_endian { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() };
    let u64b = |v: u64| if big_endian { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() };
    // Symbols: null, f (global function in .text), then one undefined per relocation.
    let mut strtab = b"\0f\0".to_vec();
    let mut symtab = vec![0u8; 24];
    let sym = |name: u32, info: u8, shndx: u16, value: u64, size: u64| {
        [u32b(name), vec![info, 0], u16b(shndx), u64b(value), u64b(size)].concat()
    };
    symtab.extend(sym(1, 0x12, 1, 0, code.len() as u64));
    let mut rela = Vec::new();
    for (i, (offset, r_type, name)) in relocs.iter().enumerate() {
        let name_at = strtab.len() as u32;
        strtab.extend(name.as_bytes());
        strtab.push(0);
        symtab.extend(sym(name_at, 0x10, 0, 0, 0));
        let index = (i + 2) as u64;
        rela.extend([u64b(*offset), u64b(index << 32 | u64::from(*r_type)), u64b(0)].concat());
    }
    let shstrtab = b"\0.text\0.rela.text\0.symtab\0.strtab\0.shstrtab\0".to_vec();
    // Section contents one after another from offset 64.
    let contents = [code.to_vec(), rela, symtab, strtab, shstrtab];
    let mut offsets = Vec::new();
    let mut body = Vec::new();
    for c in &contents {
        body.resize(body.len().next_multiple_of(8), 0);
        offsets.push(64 + body.len() as u64);
        body.extend(c);
    }
    body.resize(body.len().next_multiple_of(8), 0);
    let shoff = 64 + body.len() as u64;
    // name, type, flags, link, info, align, entsize per section (null first).
    let headers: [(u32, u32, u64, u32, u32, u64, u64); 5] = [
        (1, 1, 0x6, 0, 0, 16, 0),  // .text: PROGBITS, ALLOC | EXECINSTR
        (7, 4, 0x40, 3, 1, 8, 24), // .rela.text: RELA, INFO_LINK, symtab 3, section 1
        (18, 2, 0, 4, 1, 8, 24),   // .symtab: link strtab 4, first global 1
        (26, 3, 0, 0, 0, 1, 0),    // .strtab
        (34, 3, 0, 0, 0, 1, 0),    // .shstrtab
    ];
    let mut out = vec![0x7f, b'E', b'L', b'F', 2, if big_endian { 2 } else { 1 }, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    out.extend([u16b(1), u16b(machine), u32b(1), u64b(0), u64b(0), u64b(shoff), u32b(0)].concat());
    out.extend([u16b(64), u16b(0), u16b(0), u16b(64), u16b(6), u16b(5)].concat());
    out.extend(body);
    out.extend(vec![0u8; 64]);
    for (i, (name, kind, flags, link, info, align, entsize)) in headers.iter().enumerate() {
        let size = contents[i].len() as u64;
        out.extend(
            [u32b(*name), u32b(*kind), u64b(*flags), u64b(0), u64b(offsets[i]), u64b(size)]
                .concat()
                .into_iter()
                .chain([u32b(*link), u32b(*info), u64b(*align), u64b(*entsize)].concat()),
        );
    }
    out
}

fn x86(code: &[u8]) -> Vec<u8> {
    elf_object(62, false, code, &[])
}

fn s390(code: &[u8]) -> Vec<u8> {
    elf_object(22, true, code, &[])
}

/// A bare ELF64 header: `class` 1 or 2, `data` 1 (LSB) or 2 (MSB), little-endian `machine`.
fn elf_header(class: u8, data: u8, machine: u16) -> Vec<u8> {
    let mut h = vec![0u8; 64];
    h[..7].copy_from_slice(&[0x7f, b'E', b'L', b'F', class, data, 1]);
    h[18..20].copy_from_slice(&machine.to_le_bytes());
    h
}

// ---- IA-64 sources ----

/// A source whose first label is `f`, with `body` after it.
fn ia64(body: &str) -> String {
    format!("\t.text\nf:\n{body}")
}

const OK_S: &str = "\t.text\nf:\n\tadds r8=1,r0\n\tbr.ret.sptk.many b0 ;;\n";

#[test]
fn preprocessor_errors_name_file_line_and_column() {
    check(
        "cpp",
        vec![
            case("include not found", &["asm", "inc.S"], &["inc.S:1:2: error: nothere.h: No such file"])
                .file("inc.S", "#include \"nothere.h\"\n"),
            case("include <> not found", &["asm", "inc.S"], &["inc.S:2:2: error: sys.h: No such file"])
                .file("inc.S", "\t.text\n#include <sys.h>\n"),
            case("include without a name", &["asm", "inc.S"], &["inc.S:1:2: error: #include expects"])
                .file("inc.S", "#include nothere\n"),
            case(
                "error inside an included file",
                &["asm", "top.S", "-I", "inc"],
                &["inc/bad.h:2:2: error: missing expression in #if", "top.S:2: note: in file included from here"],
            )
            .file("inc/bad.h", "#define X 1\n#if X +\n#endif\n")
            .file("top.S", "\t.text\n#include \"bad.h\"\n"),
            case("recursive include", &["asm", "self.S"], &["self.S:1:2: error: #include nested depth"])
                .file("self.S", "#include \"self.S\"\n"),
            case("bad #if expression", &["asm", "if.S"], &["if.S:2:2: error: missing expression in #if"])
                .file("if.S", "\t.text\n#if 1 +\n#endif\n"),
            case("#if division by zero", &["asm", "div.S"], &["div.S:1:6: error: division by zero in #if"])
                .file("div.S", "#if 1/0\n#endif\n"),
            case("defined without a name", &["asm", "d.S"], &["d.S:1:5: error: operator \"defined\" requires"])
                .file("d.S", "#if defined(\n#endif\n"),
            case("unterminated #if", &["asm", "u.S"], &["u.S:1:1: error: unterminated #if"])
                .file("u.S", "#if 1\n\tnop.m 0\n"),
            case("#endif without #if", &["asm", "e.S"], &["e.S:2:1: error: #endif without #if"])
                .file("e.S", "\t.text\n#endif\n"),
            case("#else after #else", &["asm", "e.S"], &["e.S:3:1: error: #else after #else"])
                .file("e.S", "#if 1\n#else\n#else\n#endif\n"),
            case("unknown directive", &["asm", "d.S"], &["d.S:1:2: error: invalid preprocessing directive #frob"])
                .file("d.S", "#frob\n"),
            case("#define without a name", &["asm", "d.S"], &["d.S:1:2: error: no macro name given"])
                .file("d.S", "#define\n"),
            case(
                "unterminated macro call",
                &["asm", "m.S"],
                &["m.S:2:2: error: unterminated argument list invoking macro \"F\""],
            )
            .file("m.S", "#define F(a,b) a\n\tF(1\n"),
            case("#error", &["asm", "e.S"], &["e.S:2:1: error: #error stop here"])
                .file("e.S", "\t.text\n#error stop here\n"),
            case("-D reaches #error", &["run", "e.S", "-D", "BAD"], &["e.S:2:1: error: #error BAD set"])
                .file("e.S", "#ifdef BAD\n#error BAD set\n#endif\n"),
        ],
    );
}

#[test]
fn assembler_errors_name_file_line_and_column() {
    check(
        "asm",
        vec![
            case("unknown mnemonic", &["asm", "bad.S"], &["bad.S:4:2: error: unknown instruction `frobnicate`"])
                .file("bad.S", ia64("\tadd r1=r2,r3\n\tfrobnicate r1=r2\n")),
            case(
                "immediate out of range",
                &["asm", "r.S"],
                &["r.S:3:10: error: immediate 100000 out of range for `adds`"],
            )
            .file("r.S", ia64("\tadds r1=100000,r2 ;;\n")),
            case(
                "bit position out of range",
                &["asm", "t.S"],
                &["t.S:3:18: error: immediate 64 out of range for `tbit.z`"],
            )
            .file("t.S", ia64("\ttbit.z p1,p2=r3,64 ;;\n")),
            case(
                "post-increment out of range",
                &["asm", "l.S"],
                &["l.S:3:14: error: immediate 5000 out of range for `ld`"],
            )
            .file("l.S", ia64("\tld8 r1=[r2],5000 ;;\n")),
            case(
                "operands match no form",
                &["asm", "o.S"],
                &["o.S:3:9: error: Operand 2 of `add' should be a general register"],
            )
            .file("o.S", ia64("\tadd r1=f2,r3 ;;\n")),
            case("unknown register", &["asm", "g.S"], &["g.S:3:6: error: unknown register 'r200'"])
                .file("g.S", ia64("\tadd r200=r2,r3 ;;\n")),
            case("unknown branch register", &["asm", "b.S"], &["b.S:3:9: error: unknown register 'b9'"])
                .file("b.S", ia64("\tmov r1=b9 ;;\n")),
            case(
                "unknown application register",
                &["asm", "a.S"],
                &["a.S:3:6: error: unknown application register 'ar.k9'"],
            )
            .file("a.S", ia64("\tmov ar.k9=r1 ;;\n")),
            case("bad qualifying predicate", &["asm", "p.S"], &["p.S:3:2: error: expected a predicate register"])
                .file("p.S", ia64("(p64) add r1=r2,r3 ;;\n")),
            case("wrong slot type", &["asm", "s.S"], &["s.S:5:2: error: `add' does not fit into BBB template"])
                .file("s.S", ia64("\tnop.m 0\n\t.bbb\n\tadd r1=r2,r3 ;;\n")),
            // A named symbol defined nowhere is an external (a relocation, as in gas) unless
            // the operand needs a constant; an undefined numeric label is always an error.
            case("undefined symbol", &["asm", "u.S"], &["u.S:3:12: error: undefined symbol `undefined_sym`"])
                .file("u.S", ia64("\tshl r1=r2,undefined_sym ;;\n")),
            case("undefined numeric label", &["asm", "n.S"], &["n.S:3:10: error: undefined symbol `1`"])
                .file("n.S", ia64("\tmovl r1=1f ;;\n")),
            case("undefined local label", &["asm", "l.S"], &["l.S:3:19: error: backward reference '3b'"])
                .file("l.S", ia64("\tbr.cond.sptk.few 3b ;;\n")),
            case(
                "symbol defined twice",
                &["asm", "d.S"],
                &["d.S:4:1: error: symbol `f` is already defined", "d.S:2:1: note: first defined here"],
            )
            .file("d.S", ia64("\tnop.i 0 ;;\nf:\n\tnop.i 0 ;;\n")),
            case("syntax error", &["asm", "x.S"], &["x.S:3:12: error: expected ',' or end of line"])
                .file("x.S", ia64("\tadd r1=r2 r3\n")),
            case("bad expression", &["asm", "x.S"], &["x.S:3:13: error: expected an expression after '+'"])
                .file("x.S", ia64("\tadds r1=(1+,r2 ;;\n")),
            case("unknown directive", &["asm", "d.S"], &["d.S:3:2: error: unknown directive `.frobdir`"])
                .file("d.S", ia64("\t.frobdir 1\n")),
            case("bad alignment", &["asm", "d.S"], &["d.S:3:2: error: alignment 3 is not a power of 2"])
                .file("d.S", ia64("\t.align 3\n")),
            case(
                "directive without its argument",
                &["asm", "d.S"],
                &["d.S:3:2: error: `.section` needs a section name"],
            )
            .file("d.S", ia64("\t.section\n")),
            // automatic mode (issue 13): `.auto` is taken; gas's unknown `-x` spelling is not.
            usage("unknown -x mode", &["asm", "-xbogus", "d.S"], &["asm: Unrecognized option '-xbogus'"])
                .file("d.S", "\t.text\n\t.auto\n"),
            // gas: "`nop.i' does not fit into bundle" on the fourth instruction of a manual bundle.
            case("explicit bundle", &["asm", "d.S"], &["d.S:7:2: error: `nop.i' does not fit into bundle"])
                .file("d.S", ia64("{ .mii\n\tnop.m 0\n\tnop.i 0\n\tnop.i 0\n\tnop.i 0\n}\n")),
            case("run of a bad source", &["run", "bad.S"], &["bad.S:3:2: error: unknown instruction `frob`"])
                .file("bad.S", ia64("\tfrob\n")),
            case(
                "diff of a bad source",
                &["diff", "bad.S", "--b-define", "X"],
                &["bad.S:3:2: error: unknown instruction"],
            )
            .file("bad.S", ia64("\tfrob\n")),
        ],
    );
}

#[test]
fn dependency_violations_are_warnings_at_both_places() {
    // A warning, not an error: the file assembles (as GNU as does) and stderr names both writes.
    check(
        "dv",
        vec![case(
            "WAW on r1",
            &["asm", "dv.S"],
            &[
                "dv.S:4:2: warning: Use of 'add' violates WAW dependency",
                "dv.S:3:2: note: This is the location of the conflicting usage",
            ],
        )
        .file("dv.S", ia64("\tadd r1=r2,r3\n\tadd r1=r4,r5 ;;\n"))
        .status(0)],
    );
}

/// The harness cases, for the core whose `run` gets `program` (file name, bytes, extra args).
fn harness_cases(program: (&'static str, Vec<u8>, &[&str])) -> Vec<Case> {
    let (file, bytes, extra) = program;
    let run = |h: &str| -> Vec<String> {
        let mut a = vec!["run".to_string(), file.to_string(), "--harness".to_string(), h.to_string()];
        a.extend(extra.iter().map(|s| (*s).to_string()));
        a
    };
    let c = |name: &'static str, toml: &str, expect: &[&'static str]| Case {
        name,
        files: vec![(file, bytes.clone()), ("h.toml", toml.as_bytes().to_vec())],
        args: run("h.toml"),
        status: 1,
        expect: expect.to_vec(),
    };
    vec![
        c("toml syntax", "[registers\nr1 = 1\n", &["h.toml:1:11: error: invalid table header"]),
        c("unknown key", "entry = \"f\"\nfrob = 1\n", &["h.toml:2:1: error: unknown field `frob`"]),
        c("wrong type", "itc = \"abc\"\n", &["h.toml:1:7: error: invalid type: string \"abc\", expected u64"]),
        c("missing field", "[[counter]]\nname = \"c\"\naddress = \"0x10\"\nwidth = 8\n", &["h.toml:1:1: error: missing field `unit`"]),
        c("duplicate key", "[symbols]\na = \"1\"\na = \"2\"\n", &["h.toml:3:1: error: duplicate key `a`"]),
        c("bad register name", "[registers]\nfrob = \"1\"\n", &["h.toml:2:8: error: registers.frob: unknown register `frob`"]),
        c("unknown symbol in a value", "[symbols]\nx = \"nosuch+8\"\n", &["h.toml:2:5: error: symbols.x: unknown symbol 'nosuch'"]),
        c("malformed value", "[symbols]\nx = \"1+\"\n", &["h.toml:2:5: error: symbols.x: '1+' is not a value"]),
        c("bad permissions", "[[region]]\nname = \"a\"\nbase = \"0x1000\"\nsize = \"0x100\"\nperms = \"rwq\"\n", &["h.toml:5:9: error: region.a.perms: bad permissions 'rwq'"]),
        c("zero-size region", "[[region]]\nname = \"a\"\nbase = \"0x1000\"\nsize = \"0\"\nperms = \"rw\"\n", &["h.toml:2:8: error: region.a: cannot map: region `a` at 0x1000 has size zero"]),
        c(
            "overlapping regions",
            "[[region]]\nname = \"a\"\nbase = \"0x1000\"\nsize = \"0x100\"\nperms = \"rw\"\n[[region]]\nname = \"b\"\nbase = \"0x1080\"\nsize = \"0x100\"\nperms = \"rw\"\n",
            &["h.toml:7:8: error: region.b: cannot map: region `b`", "overlaps region `a`"],
        ),
        c(
            "fill past the region",
            "[[region]]\nname = \"a\"\nbase = \"0x1000\"\nsize = \"0x10\"\nperms = \"rw\"\nfill = [ { at = \"0x8\", u64 = [1, 2] } ]\n",
            &["h.toml:6:10: error: region.a.fill[0]: 16 bytes at offset 0x8 leave the region"],
        ),
        c("name defined twice", "[symbols]\na = \"1\"\n[[region]]\nname = \"a\"\nbase = \"0x1000\"\nsize = \"0x10\"\nperms = \"rw\"\n", &["h.toml:4:8: error: region.a: 'a' is defined twice"]),
        c("bad counter width", "[[counter]]\nname = \"c\"\naddress = \"0x10\"\nwidth = 3\nunit = \"x\"\n", &["h.toml:4:9: error: counter.c.width: width 3 is not 1, 2, 4 or 8"]),
        c("undefined entry symbol", "entry = \"nowhere\"\n", &["h.toml:1:9: error: entry: entry symbol `nowhere` is not defined"]),
    ]
}

#[test]
fn ia64_harness_errors_name_file_line_and_column() {
    let mut cases = harness_cases(("ok.S", OK_S.as_bytes().to_vec(), &[]));
    cases.push(
        case("unreadable counter after the run", &["run", "ok.S", "--harness", "h.toml"], &["h.toml:4:11: error: counter.c.address: memory fault: 8-byte access at 0x123456789"])
            .file("ok.S", OK_S)
            .file("h.toml", "[registers]\nb0 = \"sentinel\"\n[[counter]]\naddress = \"0x123456789\"\nname = \"c\"\nwidth = 8\nunit = \"x\"\n"),
    );
    cases.push(
        case(
            "bad psr expression",
            &["run", "ok.S", "--harness", "h.toml"],
            &["h.toml:1:7: error: psr: unknown symbol 'zz'"],
        )
        .file("ok.S", OK_S)
        .file("h.toml", "psr = \"zz\"\n"),
    );
    check("harness-ia64", cases);
}

/// `ret`.
const X86_RET: &[u8] = &[0xc3];
/// `br %r14`.
const S390_RET: &[u8] = &[0x07, 0xfe];

#[test]
fn x86_harness_errors_name_file_line_and_column() {
    let mut cases = harness_cases(("x.o", x86(X86_RET), &[]));
    cases.push(
        case(
            "unreadable counter after the run",
            &["run", "x.o", "--harness", "h.toml"],
            &["h.toml:3:11: error: counter.c.address: memory fault: 8-byte access at 0x10"],
        )
        .file("x.o", x86(X86_RET))
        .file("h.toml", "[[counter]]\nname = \"c\"\naddress = \"0x10\"\nwidth = 8\nunit = \"x\"\n"),
    );
    check("harness-x86", cases);
}

#[test]
fn s390_harness_errors_name_file_line_and_column() {
    check("harness-s390", harness_cases(("z.o", s390(S390_RET), &[])));
}

#[test]
fn object_file_errors_name_the_file() {
    let bad_reloc = elf_object(62, false, &[0x48, 0x8b, 0x05, 0, 0, 0, 0, 0xc3], &[(3, 0x7f, "ext")]);
    let outside = elf_object(62, false, &[0xc3], &[(0x100, 2, "ext")]);
    let s390_bad_reloc = elf_object(22, true, &[0xc0, 0x10, 0, 0, 0, 0, 0x07, 0xfe], &[(2, 0x7f, "ext")]);
    let mut malformed = elf_header(2, 1, 50);
    malformed[0x28..0x30].copy_from_slice(&1_000_000u64.to_le_bytes());
    malformed[0x3a] = 64;
    malformed[0x3c] = 5;
    check(
        "elf",
        vec![
            case(
                "disasm: truncated header",
                &["disasm", "t.o"],
                &["acctemu: error: t.o: truncated ELF header: 7 bytes"],
            )
            .file("t.o", b"\x7fELF\x02\x01\x01".to_vec()),
            case("disasm: wrong machine", &["disasm", "x.o"], &["x.o: not an IA-64 object: e_machine is 62"])
                .file("x.o", elf_header(2, 1, 62)),
            case("disasm: 32-bit", &["disasm", "c.o"], &["c.o: 32-bit ELF (ELFCLASS32)"])
                .file("c.o", elf_header(1, 1, 50)),
            case("disasm: big-endian", &["disasm", "b.o"], &["b.o: big-endian ELF"]).file("b.o", elf_header(2, 2, 50)),
            case("disasm: malformed", &["disasm", "m.o"], &["m.o: malformed ELF"]).file("m.o", malformed.clone()),
            case("run: truncated header", &["run", "t.o"], &["t.o: truncated ELF header"])
                .file("t.o", b"\x7fELF\x02\x01\x01".to_vec()),
            case("run: wrong machine", &["run", "arm.o"], &["arm.o: not an IA-64 object: e_machine is 40"])
                .file("arm.o", elf_header(2, 1, 40)),
            case("run: 32-bit", &["run", "c.o"], &["c.o: 32-bit ELF"]).file("c.o", elf_header(1, 1, 50)),
            case("run: malformed", &["run", "m.o"], &["m.o: malformed ELF"]).file("m.o", malformed),
            case("run: x86 object without code", &["run", "x.o"], &["x.o: error: no code to run"])
                .file("x.o", elf_header(2, 1, 62)),
            case("run: s390 byte order", &["run", "z.o"], &["z.o: ELF byte order does not match"])
                .file("z.o", elf_header(2, 1, 22)),
            case(
                "run: unsupported x86 relocation",
                &["run", "x.o"],
                &["x.o: unsupported relocation", "against `ext` in `.text` at offset 0x3"],
            )
            .file("x.o", bad_reloc),
            case(
                "run: x86 relocation outside its section",
                &["run", "x.o"],
                &["x.o: relocation", "in `.text` at offset 0x100 lies outside the section"],
            )
            .file("x.o", outside),
            case(
                "run: unsupported s390 relocation",
                &["run", "z.o"],
                &["z.o: unsupported relocation", "against `ext` in `.text` at offset 0x2"],
            )
            .file("z.o", s390_bad_reloc),
            case(
                "run: undefined x86 entry",
                &["run", "x.o", "--entry", "nope"],
                &["--entry nope: error: entry symbol `nope` is not defined"],
            )
            .file("x.o", x86(X86_RET)),
            case(
                "run: undefined s390 entry",
                &["run", "z.o", "--entry", "nope"],
                &["--entry nope: error: entry symbol `nope` is not defined"],
            )
            .file("z.o", s390(S390_RET)),
            case(
                "run: undefined ia64 entry",
                &["run", "ok.S", "--entry", "nope"],
                &["--entry nope: error: entry symbol `nope` is not defined"],
            )
            .file("ok.S", OK_S),
        ],
    );
}

#[test]
fn patch_errors_name_the_patch_line_and_hunk() {
    let good_hunk = "@@ -1,1 +1,1 @@\n-\tadds r8=1,r0\n+\tadds r8=2,r0\n";
    let src = "\tadds r8=1,r0\n\tbr.ret.sptk.many b0 ;;\n";
    check(
        "patch",
        vec![
            case(
                "hunk that does not apply (catalogue trace)",
                &["diff", "ia64/syscall/v2", "--patch", "p.diff"],
                &["p.diff:3: hunk #1 `@@ -1,1 +1,1 @@`: does not apply to syscall.S"],
            )
            .file("p.diff", "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-no such line\n+other\n"),
            case(
                "second hunk that does not apply (file)",
                &["diff", "f.S", "--patch", "p.diff"],
                &["p.diff:6: hunk #2 `@@ -2,1 +2,1 @@`: does not apply to f.S"],
            )
            .file("f.S", src)
            .file("p.diff", format!("--- a/f.S\n+++ b/f.S\n{good_hunk}@@ -2,1 +2,1 @@\n-\tno such line\n+\tnop.i 0\n")),
            case(
                "malformed hunk header",
                &["diff", "ia64/syscall/v2", "--patch", "p.diff"],
                &["p.diff:3: hunk #1 `@@ -1,x +1,1 @@`: not a unified diff", "can't parse range"],
            )
            .file("p.diff", "--- a/x\n+++ b/x\n@@ -1,x +1,1 @@\n-a\n+b\n"),
            case(
                "hunk shorter than its header says",
                &["diff", "f.S", "--patch", "p.diff"],
                &["p.diff:6: hunk #2 `@@ -2,3 +2,1 @@`: not a unified diff"],
            )
            .file("f.S", src)
            .file("p.diff", format!("--- a/f.S\n+++ b/f.S\n{good_hunk}@@ -2,3 +2,1 @@\n-x\n+y\n")),
            case("no hunks", &["diff", "ia64/syscall/v2", "--patch", "p.diff"], &["p.diff: no hunks"])
                .file("p.diff", "hello\n"),
            case(
                "patch not found",
                &["diff", "ia64/syscall/v2", "--patch", "nothere.diff"],
                &["acctemu: error: nothere.diff: No such file"],
            ),
            usage(
                "patch and B",
                &["diff", "ia64/syscall/v1", "ia64/syscall/v2", "--patch", "p.diff"],
                &["--patch", "not both"],
            )
            .file("p.diff", "hello\n"),
        ],
    );
}

#[test]
fn ia64_runtime_errors_name_pc_and_slot() {
    check(
        "exec-ia64",
        stopped(vec![
            case(
                "break without an IVT",
                &["run", "b.S"],
                &["0x0 slot 0: break 0x100000 (vector 0x2c00) with no interruption vector table"],
            )
            .file("b.S", ia64("\tbreak 0x100000 ;;\n")),
            case(
                "unimplemented instruction",
                &["run", "t.S"],
                &["0x0 slot 0: `mov to/from msr", "is not implemented by the ia64 core"],
            )
            .file("t.S", ia64("\tmov r1=msr[r2] ;;\n")),
            case(
                "memory fault",
                &["run", "m.S"],
                &["0x10 slot 0: memory fault: 8-byte access at 0x123456789: unmapped address"],
            )
            .file("m.S", ia64("\tmovl r2=0x123456789 ;;\n\tld8 r1=[r2] ;;\n")),
            case(
                "execution leaves the code",
                &["run", "n.S"],
                &["no code at 0x10 (slot 0): execution left the loaded code"],
            )
            .file("n.S", ia64("\tnop.i 0 ;;\n")),
            case("undecodable bits", &["run", "u.S"], &["0x0 slot 0: undecodable instruction bits"])
                .file("u.S", ia64("\tdata8 -1, -1\n")),
            case(
                "budget (not the expected end)",
                &["run", "s.S", "--max-insns", "10"],
                &["stop: budget of 10 instructions exhausted at 0x0 slot 1"],
            )
            .file("s.S", ia64("\tbr.cond.sptk.few f ;;\n")),
        ]),
    );
}

#[test]
fn x86_runtime_errors_name_the_instruction_and_pc() {
    check(
        "exec-x86",
        stopped(vec![
            case(
                "unsupported instruction",
                &["run", "x.o"],
                &["acctemu: error: unsupported instruction `cpuid` (bytes 0f a2) at 0x400000"],
            )
            .file("x.o", x86(&[0x0f, 0xa2, 0xc3])),
            case(
                "memory fault",
                &["run", "x.o"],
                &["(bytes 48 8b 04 25 10 00 00 00) at 0x400000: memory fault: 8-byte access at 0x10: unmapped address"],
            )
            .file("x.o", x86(&[0x48, 0x8b, 0x04, 0x25, 0x10, 0, 0, 0, 0xc3])),
            case("divide error", &["run", "x.o"], &["divide error (#DE) in `div %rcx` (bytes 48 f7 f1) at 0x400002"])
                .file("x.o", x86(&[0x31, 0xc9, 0x48, 0xf7, 0xf1, 0xc3])),
            case("fetch fault", &["run", "x.o"], &["cannot fetch an instruction at 0x1234"])
                .file("x.o", x86(&[0x48, 0xc7, 0xc0, 0x34, 0x12, 0, 0, 0xff, 0xe0])),
            case(
                "budget (not the expected end)",
                &["run", "x.o", "--max-insns", "5"],
                &["stop: budget of 5 instructions exhausted at pc 0x400000"],
            )
            .file("x.o", x86(&[0xeb, 0xfe])),
        ]),
    );
}

#[test]
fn s390_runtime_errors_name_the_instruction_and_pc() {
    check(
        "exec-s390",
        stopped(vec![
            case(
                "undefined opcode",
                &["run", "z.o"],
                &["acctemu: error: invalid instruction at 0x400000: bytes 00 00 are an undefined s390x opcode"],
            )
            .file("z.o", s390(&[0, 0, 0x07, 0xfe])),
            case(
                "memory fault",
                &["run", "z.o"],
                &["`lg` (bytes e3 10 00 10 00 04) at 0x400000: memory fault: 8-byte access at 0x10"],
            )
            .file("z.o", s390(&[0xe3, 0x10, 0x00, 0x10, 0x00, 0x04, 0x07, 0xfe])),
            case("fetch fault", &["run", "z.o", "--set", "r1=0x1234"], &["cannot fetch an instruction at 0x1234"])
                .file("z.o", s390(&[0x07, 0xf1])),
            case(
                "privileged operation in problem state (not the expected end)",
                &["run", "z.o", "--set", "psw_mask=0x0001000180000000"],
                &["stop: interruption: privileged-operation (vector 0x1d0) at pc 0x400000"],
            )
            .file("z.o", s390(&[0xb2, 0x09, 0xf0, 0x00, 0x07, 0xfe])),
            case(
                "fixed-point divide by zero (not the expected end)",
                &["run", "z.o", "--set", "r3=0"],
                &["stop: interruption: fixed-point-divide (vector 0x1d0) at pc 0x400000"],
            )
            .file("z.o", s390(&[0xb9, 0x0d, 0x00, 0x23, 0x07, 0xfe])),
            case(
                "budget (not the expected end)",
                &["run", "z.o", "--max-insns", "5"],
                &["stop: budget of 5 instructions exhausted at pc 0x400000"],
            )
            .file("z.o", s390(&[0xa7, 0xf4, 0x00, 0x00])),
        ]),
    );
}

#[test]
fn command_line_errors_name_the_argument() {
    check(
        "args",
        vec![
            case(
                "--set of an unknown ia64 register",
                &["run", "ok.S", "--set", "r200=1"],
                &["--set r200=1: error: unknown register `r200`"],
            )
            .file("ok.S", OK_S),
            case(
                "--set of an unknown x86 register",
                &["run", "x.o", "--set", "foo=1"],
                &["--set foo=1: error: unknown register `foo`"],
            )
            .file("x.o", x86(X86_RET)),
            case(
                "--set of an unknown s390 register",
                &["run", "z.o", "--set", "rax=1"],
                &["--set rax=1: error: unknown register `rax`"],
            )
            .file("z.o", s390(S390_RET)),
            case(
                "--set of an unknown symbol",
                &["run", "ok.S", "--set", "r13=nosuch"],
                &["--set r13=nosuch: error: unknown symbol 'nosuch'"],
            )
            .file("ok.S", OK_S),
            case(
                "--set of a malformed value",
                &["run", "ok.S", "--set", "r13=1+"],
                &["--set r13=1+: error: '1+' is not a value"],
            )
            .file("ok.S", OK_S),
            usage("--set without =", &["run", "ok.S", "--set", "r13"], &["--set r13: expected REG=VALUE"])
                .file("ok.S", OK_S),
            usage("run without a file", &["run"], &["run: a source or object file is required"]),
            case(
                "--check of a bad snapshot",
                &["run", "ok.S", "--check", "s.snap"],
                &["s.snap:1: error: in the snapshot: unknown key 'garbage'"],
            )
            .file("ok.S", OK_S)
            .file("s.snap", "garbage: [\n"),
            usage("scenario: unknown trace", &["scenario", "ia64/nope"], &["no trace `ia64/nope` in the catalogue"]),
            usage(
                "scenario: --guest without guest paths",
                &["scenario", "ia64/syscall/v1", "--guest"],
                &["--guest: trace ia64/syscall/v1 binds no `guest_exit` path"],
            ),
            usage(
                "scenario: a sweep-only trace",
                &["scenario", "x86/sched-avg/loop"],
                &["trace x86/sched-avg/loop binds no `syscall_enter` path", "acctemu sweep"],
            ),
            case(
                "scenario: --syscalls not a number",
                &["scenario", "ia64/syscall/v1", "--syscalls", "abc"],
                &["invalid value 'abc' for '--syscalls <N>'"],
            )
            .status(2),
            usage("show: unknown trace", &["show", "nope"], &["no trace `nope` in the catalogue"]),
            usage("diff: unknown B", &["diff", "ia64/syscall/v1", "ia64/nope"], &["diff: no trace named `ia64/nope`"]),
            case(
                "diff: A neither trace nor file",
                &["diff", "ia64/nope"],
                &["acctemu: error: ia64/nope: No such file"],
            ),
            usage(
                "diff: architectures differ",
                &["diff", "ia64/syscall/v1", "x86/nohz-syscall/patch3"],
                &["diff: ia64/syscall/v1 is ia64 but x86/nohz-syscall/patch3 is x86_64"],
            ),
            usage(
                "diff: compiled traces differ",
                &["diff", "x86/nohz-syscall/patch3", "s390/vtime/delayed"],
                &["diff: x86/nohz-syscall/patch3 is x86_64 but s390/vtime/delayed is s390x"],
            ),
            usage(
                "diff: compiled trace alone",
                &["diff", "x86/nohz-syscall/patch3"],
                &["diff: x86/nohz-syscall/patch3 is a compiled x86_64 trace"],
            ),
            usage(
                "diff: --b-define on a compiled trace, not a macro name",
                &["diff", "x86/nohz-syscall/patch3", "--b-define", "1X"],
                &["diff: -D1X: `1X` is not a macro name"],
            ),
            usage(
                "diff: --guest without guest paths",
                &["diff", "ia64/syscall/v1", "ia64/syscall/v2", "--guest"],
                &["--guest: trace ia64/syscall/v1 binds no `guest_exit` path"],
            ),
            usage("diff: nothing to compare", &["diff", "ok.S"], &["diff: give B, --patch or --b-define"])
                .file("ok.S", OK_S),
            case(
                "diff: --entry",
                &["diff", "ok.S", "--b-define", "X", "--entry", "nope"],
                &["--entry nope: error: entry symbol `nope` is not defined"],
            )
            .file("ok.S", OK_S),
            usage(
                "sweep: unknown trace",
                &["sweep", "x86/nope", "--param", "cpus", "--from", "2", "--to", "4"],
                &["sweep: no trace named `x86/nope`"],
            ),
            usage(
                "sweep: --from after --to",
                &["sweep", "x86/timer-target/old", "--param", "cpus", "--from", "4", "--to", "2"],
                &["sweep: --from 4 is greater than --to 2"],
            ),
            usage(
                "sweep: --step 0",
                &["sweep", "x86/timer-target/old", "--param", "cpus", "--from", "2", "--to", "4", "--step", "0"],
                &["sweep: --step 0"],
            ),
            usage(
                "sweep: too many points",
                &["sweep", "x86/sched-avg/loop", "--param", "missed-periods", "--from", "0", "--to", "100000000000"],
                &["sweep: --from 0 --to 100000000000 --step 1 gives 100000000001 points"],
            ),
            usage(
                "sweep: value outside the parameter's range",
                &["sweep", "x86/timer-target/old", "--param", "cpus", "--from", "1", "--to", "2"],
                &["--param cpus: 1 is outside 2..=256 CPUs"],
            ),
            usage(
                "sweep: value overflows the clock",
                &[
                    "sweep",
                    "x86/sched-avg/loop",
                    "--param",
                    "missed-periods",
                    "--from",
                    "18446744073709551615",
                    "--to",
                    "18446744073709551615",
                ],
                &["--param missed-periods: 18446744073709551615 periods overflow"],
            ),
            usage(
                "sweep: parameter does not apply",
                &["sweep", "x86/sched-avg/loop", "--param", "cpus", "--from", "2", "--to", "4"],
                &["--param cpus does not apply to x86/sched-avg/loop"],
            ),
            case(
                "sweep: unknown --param",
                &["sweep", "x86/sched-avg/loop", "--param", "nope", "--from", "2", "--to", "4"],
                &["invalid value 'nope' for '--param <PARAM>'"],
            )
            .status(2),
            case(
                "disasm: bad --base",
                &["disasm", "x.bin", "--base", "zz"],
                &["invalid value 'zz' for '--base <BASE>'", "`zz` is not an address"],
            )
            .status(2),
            usage(
                "scenario: workload too long for the clocks",
                &["scenario", "ia64/syscall/v1", "--syscalls", "1", "--user-cycles", "18446744073709551615"],
                &["--syscalls 1 with --user-cycles 18446744073709551615 and --kernel-cycles 300 spans more than"],
            ),
            usage(
                "diff: workload too long for the clocks",
                &["diff", "--syscalls", "3", "--kernel-cycles", "9223372036854775807"],
                &["--syscalls 3 with --user-cycles 1500 and --kernel-cycles 9223372036854775807 spans more than"],
            ),
            usage("bench: --only matches no row", &["bench", "--only", "zzz"], &["--only \"zzz\" matches no row"]),
            case("bench: --iterations 0", &["bench", "--iterations", "0"], &["'--iterations <N>'"]).status(2),
            case("unknown subcommand", &["frob"], &["unrecognized subcommand 'frob'"]).status(2),
        ],
    );
}

#[test]
fn missing_and_unwritable_files_are_named() {
    check(
        "files",
        vec![
            case("asm: source", &["asm", "nothere.S"], &["acctemu: error: nothere.S: No such file"]),
            case(
                "asm: -o",
                &["asm", "ok.S", "-o", "no/such/dir/x.bin"],
                &["acctemu: error: no/such/dir/x.bin: No such file"],
            )
            .file("ok.S", OK_S),
            case("disasm", &["disasm", "nothere.o"], &["acctemu: error: nothere.o: No such file"]),
            case("run: source", &["run", "nothere.S"], &["acctemu: error: nothere.S: No such file"]),
            case(
                "run: harness",
                &["run", "ok.S", "--harness", "nothere.toml"],
                &["acctemu: error: nothere.toml: No such file"],
            )
            .file("ok.S", OK_S),
            case(
                "run: --check",
                &["run", "ok.S", "--check", "nothere.snap"],
                &["acctemu: error: nothere.snap: No such file"],
            )
            .file("ok.S", OK_S),
            case(
                "run: --snapshot",
                &["run", "ok.S", "--snapshot", "no/such/dir/x.snap"],
                &["acctemu: error: no/such/dir/x.snap: No such file"],
            )
            .file("ok.S", OK_S),
            case("diff: B", &["diff", "ok.S", "nothere.S"], &["acctemu: error: nothere.S: No such file"])
                .file("ok.S", OK_S),
            case(
                "diff: harness",
                &["diff", "ok.S", "--b-define", "X", "--harness", "nothere.toml"],
                &["acctemu: error: nothere.toml: No such file"],
            )
            .file("ok.S", OK_S),
            case(
                "sweep: --svg",
                &[
                    "sweep",
                    "x86/timer-target/old",
                    "--param",
                    "cpus",
                    "--from",
                    "2",
                    "--to",
                    "2",
                    "--svg",
                    "no/such/dir/x.svg",
                ],
                &["acctemu: error: no/such/dir/x.svg: No such file"],
            ),
        ],
    );
}

// ---- The same errors through the library API ----

#[test]
fn library_errors_carry_their_locations() {
    use arch_ia64::run::{run_source, RunConfig};
    let cfg = RunConfig::default();
    let asm = run_source("lib.S", &ia64("\tfrobnicate r1=r2\n"), &cfg).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(asm.starts_with("lib.S:3:2: error: unknown instruction `frobnicate`"), "{asm}");
    let exec =
        run_source("lib.S", &ia64("\tbreak 0x100000 ;;\n"), &cfg).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(exec.starts_with("0x0 slot 0: break 0x100000"), "{exec}");
    let entry = RunConfig { entry: Some("nope".into()), ..RunConfig::default() };
    let e = run_source("lib.S", OK_S, &entry).err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(e, "--entry nope: error: entry symbol `nope` is not defined");

    let h = emu_core::harness::Harness::parse("lib.toml", "[registers]\nr13 = \"1+\"\n").err().map(|d| d.to_string());
    assert!(h.is_some_and(|m| m.starts_with("lib.toml:2:7: error: registers.r13: '1+' is not a value")));

    let loader = emu_core::preprocess::MemLoader::new().with("a.h", "\n#if\n#endif\n");
    let opts = emu_core::preprocess::PreprocessOptions::new();
    let pp =
        emu_core::preprocess::preprocess("lib.S", "#include \"a.h\"\n", &opts, &loader).err().map(|e| e.to_string());
    assert!(pp.as_deref().is_some_and(|m| m.starts_with("a.h:2:2: error:") && m.contains("lib.S:1: note")), "{pp:?}");

    let x = arch_x86::run::run_object(&x86(&[0x0f, 0xa2]), &arch_x86::run::RunConfig::default())
        .err()
        .map(|e| e.to_string());
    assert!(x.as_deref().is_some_and(|m| m.contains("`cpuid` (bytes 0f a2) at 0x400000")), "{x:?}");
    let z =
        arch_s390::run::run_object(&s390(&[0, 0]), &arch_s390::run::RunConfig::default()).err().map(|e| e.to_string());
    assert!(z.as_deref().is_some_and(|m| m.contains("invalid instruction at 0x400000: bytes 00 00")), "{z:?}");

    let p = acctemu::cli::plain_diff::apply_patch("a\nb\n", "src.S", "lib.diff", "@@ -2,1 +2,1 @@\n-c\n+d\n")
        .err()
        .map(|e| e.to_string());
    assert_eq!(p.as_deref(), Some("lib.diff:1: hunk #1 `@@ -2,1 +2,1 @@`: does not apply to src.S"));
}

#[test]
fn scenario_paths_that_do_not_return_name_the_pc() {
    use arch_x86::scenario::{Accounting, Bindings, X86Scenario};
    use emu_core::scenario::{PathKind, ScenarioMachine};
    // `jmp .`: the syscall-entry path never returns.
    let image = arch_x86::run::load_object(&x86(&[0xeb, 0xfe])).unwrap_or_else(|e| panic!("load: {e}"));
    let (machine, _) =
        arch_x86::run::prepare(&image, &arch_x86::run::RunConfig::default()).unwrap_or_else(|e| panic!("prepare: {e}"));
    let bindings = Bindings {
        paths: vec![(PathKind::SyscallEnter, emu_core::elf::REL_BASE)],
        task: 0x7100_0000,
        sentinel: emu_core::setup::SENTINEL,
        stack_top: emu_core::setup::STACK_BASE + emu_core::setup::STACK_SIZE - 8,
        jiffies: None,
        accounting: Accounting::Nanoseconds { utime_addr: 0x7100_0000, stime_addr: 0x7100_0008, cycles_per_ns: 1.0 },
        max_insns: 100,
    };
    let mut s = X86Scenario::new(machine, bindings);
    let e = s.run_path(PathKind::SyscallEnter).err().map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("syscall_enter did not return within 100 instructions (stopped at pc 0x400000)"));
    let unbound = s.run_path(PathKind::GuestExit).err().map(|e| e.to_string());
    assert_eq!(unbound.as_deref(), Some("no guest_exit path is bound"));
}
