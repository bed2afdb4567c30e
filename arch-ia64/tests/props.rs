//! Property tests (issue 7, hardening): round trips through the instruction table, and
//! "never panics" properties of the decoder, the disassembler, the CPU core, the
//! preprocessor, the assembler and both ELF loaders on random and mutated input.
//!
//! Every property runs a fixed, small number of cases with no failure persistence, so the
//! file stays fast in the debug profile and writes nothing. Panics found by these
//! properties are fixed in the library; each has a plain regression test in this file
//! (`regression_*`).

use arch_ia64::asm::assemble;
use arch_ia64::bundle::{Bundle, SlotUnit, Template};
use arch_ia64::cpu::Ia64Cpu;
use arch_ia64::decode::{self, Insn, Slot};
use arch_ia64::encode;
use arch_ia64::format::{self, NoSymbols};
use arch_ia64::run::{prepare, RunConfig};
use arch_ia64::table::{table, DecodeUnit, Flags, OpKind, Unit};
use arch_ia64::{disasm, elf};
use emu_core::cpu::{Cpu, StopWhen};
use emu_core::elf::{ElfError, Reloc, RelocCtx, Relocations};
use emu_core::error::Diagnostics;
use emu_core::image::{Image, Section, SectionKind};
use emu_core::memory::Endian;
use emu_core::preprocess::{preprocess, MemLoader, PreprocessOptions};
use emu_core::rng::Xorshift64;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed};
use std::path::{Path, PathBuf};

/// Cases per property: small, so the whole file runs in a few seconds in debug builds.
/// `PROPTEST_CASES=N` overrides the count for a deeper run.
/// The seed is fixed so a run is reproducible; `PROPTEST_RNG_SEED=N` explores others.
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    let rng_seed = match std::env::var("PROPTEST_RNG_SEED") {
        Ok(_) => Config::default().rng_seed,
        Err(_) => RngSeed::Fixed(0x1550_e007),
    };
    Config { cases, failure_persistence: None, max_shrink_iters: 2000, rng_seed, ..Config::default() }
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> Vec<u8> {
    let p = workspace().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

// ---------------------------------------------------------------------------------------
// A random instruction from the table.

/// A small deterministic generator fed by proptest's seeds: the instruction generator draws
/// a varying number of values (one per operand), which a seed expresses more simply than a
/// nest of strategies.
///
/// `| 1`: the seeds were always made odd, keeping the cases of earlier runs.
fn seeded(seed: u64) -> Xorshift64 {
    Xorshift64::new(seed | 1)
}

/// A value in `min..=max`, often at an edge.
fn in_range(rng: &mut Xorshift64, min: i128, max: i128) -> i128 {
    match rng.below(8) {
        0 => min,
        1 => max,
        2 => 0i128.clamp(min, max),
        _ => {
            let span = (max - min + 1) as u128;
            let r = (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) % span;
            min + r as i128
        }
    }
}

/// A random, in-range value for operand `kind` of an instruction in the bundle at 0.
fn operand_value(rng: &mut Xorshift64, kind: OpKind) -> i64 {
    let s = kind.spec();
    match kind {
        OpKind::Tgt25 | OpKind::Tgt25Chk | OpKind::Tag13 | OpKind::Tgt64 => {
            let (lo, hi) = if kind == OpKind::Tgt64 { (-0x10_0000, 0x10_0000) } else { (s.min, s.max) };
            (in_range(rng, lo / 16, hi / 16) * 16) as i64
        }
        OpKind::Imm44 => (in_range(rng, s.min >> 16, s.max >> 16) << 16) as i64,
        OpKind::Sor => (in_range(rng, 0, 12) * 8) as i64,
        OpKind::Inc3 => [-16, -8, -4, -1, 1, 4, 8, 16][rng.below(8) as usize],
        OpKind::Imm64 => rng.next_u64() as i64,
        _ => in_range(rng, s.min, s.max) as i64,
    }
}

/// Random instruction bits of a row that decodes in a slot of `unit`, as the decoder sees
/// them (so display aliases are what a disassembly would show), or `None` if this draw
/// gives bits the table rejects (a pinned operand, an unnamed completer value).
fn random_insn(rng: &mut Xorshift64, unit: Option<DecodeUnit>) -> Option<Insn> {
    let t = table();
    let fits = |u: Unit| match unit {
        None => true,
        Some(DecodeUnit::M) => matches!(u, Unit::A | Unit::M),
        Some(DecodeUnit::I) => matches!(u, Unit::A | Unit::I),
        Some(DecodeUnit::F) => u == Unit::F,
        Some(DecodeUnit::B) => u == Unit::B,
        Some(DecodeUnit::X) => u == Unit::X,
    };
    // Random code (a unit given) leaves out the TLB insertion/purge and indirect-file rows: they
    // stop every run by design (no TLB or msr is modelled) or fault on random operands (reserved
    // fields, unimplemented indices), and tests/ia64_sysregs.rs covers them. chk.a too: with
    // nothing advanced-loaded it always misses and branches to its random target (memory forms,
    // issue 12; tests/ia64_alat.rs covers it).
    let stops_runs = |f: &arch_ia64::table::Form| {
        unit.is_some()
            && (["itc.", "itr.", "ptc.", "ptr.", "chk.a"].iter().any(|p| f.name.starts_with(p))
                || f.operands().any(|k| matches!(k.spec().class, arch_ia64::table::OpClass::Ind(_))))
    };
    let rows: Vec<usize> = (0..t.forms.len())
        .filter(|&i| !t.forms[i].flags.has(Flags::ASM_ONLY) && fits(t.forms[i].unit) && !stops_runs(&t.forms[i]))
        .collect();
    let idx = rows[rng.below(rows.len() as u64) as usize];
    let form = &t.forms[idx];
    let comp_bits = form.comps.iter().fold(0, |bits, c| {
        let opt = c.opts.get(rng.below(c.opts.len() as u64) as usize).map_or(0, |o| o.1);
        bits | c.field.put(opt)
    });
    let qp = if form.flags.has(Flags::NO_QP) || rng.below(2) == 0 { 0 } else { rng.below(64) as u8 };
    let values: Vec<i64> = form.operands().map(|k| operand_value(rng, k)).collect();
    let raw = encode::encode(idx as u16, comp_bits, qp, &values, 0).ok()?;
    let du = unit.unwrap_or(match form.unit {
        Unit::A | Unit::M => DecodeUnit::M,
        Unit::I => DecodeUnit::I,
        Unit::F => DecodeUnit::F,
        Unit::B => DecodeUnit::B,
        Unit::X => DecodeUnit::X,
    });
    decode::decode_slot(du, raw)
}

/// The source text of one instruction: predicate, mnemonic and operands.
fn insn_text(insn: &Insn, ip: u64) -> String {
    let mut out = String::new();
    if insn.qp != 0 {
        out.push_str(&format!("(p{}) ", insn.qp));
    }
    format::format_insn(&mut out, insn, ip, &NoSymbols);
    out
}

/// The `.text` bytes of an assembly.
fn text_bytes(a: &arch_ia64::asm::Assembly) -> Vec<u8> {
    a.object.iter().find(|s| s.name == ".text").map(|s| s.data.clone()).unwrap_or_default()
}

/// Disassembles `bytes` (at address 0) back into source: each bundle as its template
/// directive and its three instructions with their stops.
fn bytes_to_source(bytes: &[u8]) -> Result<String, String> {
    let mut src = String::from("\t.text\n");
    for (i, b) in decode::decode_all(bytes).map_err(|(at, e)| format!("{at:#x}: {e}"))?.iter().enumerate() {
        let ip = 16 * i as u64;
        src.push_str(&format!("\t.{}\n", b.template.name().to_lowercase()));
        for slot in 0..3 {
            let shown = match b.slots[slot] {
                Slot::Insn(insn) => insn,
                Slot::Long => continue,
                Slot::Unknown { bits, .. } => return Err(format!("{ip:#x} slot {slot}: unknown bits {bits:#x}")),
            };
            let stop = if b.template.stop_after(slot) { " ;;" } else { "" };
            src.push_str(&format!("\t{}{stop}\n", insn_text(&shown, ip)));
        }
    }
    Ok(src)
}

fn asm(src: &str) -> Result<arch_ia64::asm::Assembly, Diagnostics> {
    assemble("p.S", src, &PreprocessOptions::new(), &MemLoader::new())
}

proptest! {
    #![proptest_config(config(300))]

    /// (a) A random table row with random valid operands: its text assembles to bytes that
    /// decode, format and assemble again to the same bytes; and the instruction's text
    /// survives the trip unchanged.
    #[test]
    fn table_round_trip(seed in any::<u64>()) {
        let mut rng = seeded(seed);
        let Some(insn) = random_insn(&mut rng, None) else { return Ok(()) };
        let text = insn_text(&insn, 0);
        let src = format!("\t.text\n\t{text}\n\t;;\n");
        // Operand combinations gas refuses (r0 as a target, reserved registers, an odd
        // register pair, ...) are fine to refuse: the round trip needs accepted text.
        let Ok(first) = asm(&src) else { return Ok(()) };
        let bytes = text_bytes(&first);
        let again = bytes_to_source(&bytes).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert!(again.contains(&text), "`{text}` came back as\n{again}");
        let second = asm(&again).map_err(|e| TestCaseError::fail(format!("{text}: reassembly: {e}\n{again}")))?;
        let mut second_bytes = text_bytes(&second);
        // A must-be-last M instruction (itc.i/d, ptc.g/ga) in slot 0 ends its group there, so
        // its bundle has no final stop (M;MI, template 0x0a); the listing's filler nops, written
        // back as source, end the input and get gas's end-of-input stop (0x0b). gas 2.40 does
        // the same with that text, so the round trip holds up to that one bit.
        if bytes.len() == 16 && bytes[0] & 1 == 0 && second_bytes.len() == 16 {
            second_bytes[0] &= !1;
        }
        prop_assert_eq!(second_bytes, bytes, "`{}` reassembled differently from\n{}", text, again);
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// (b) Any 16 bytes decode to a bundle or a typed error, format, disassemble and
    /// re-encode without panicking.
    #[test]
    fn random_bundles_never_panic(bytes in any::<[u8; 16]>(), addr in any::<u64>()) {
        check_bundle(bytes, addr & !15);
    }

    /// (b) Byte buffers of any length disassemble and decode without panicking.
    #[test]
    fn random_buffers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..100), addr in any::<u64>()) {
        let _ = disasm::disassemble_bytes(&bytes, addr);
        match decode::decode_all(&bytes) {
            Ok(b) => prop_assert_eq!(b.len(), bytes.len() / 16),
            Err((at, _)) => prop_assert!(at < bytes.len() && at % 16 == 0),
        }
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// (c) Random code, a mix of random bits and random table rows, runs to a stop, the
    /// budget or a typed error; never a panic and never past the budget.
    #[test]
    fn cpu_never_panics_on_random_code(seed in any::<u64>(), bundles in 1usize..48, iva in any::<bool>()) {
        let code = random_code(seed, bundles);
        check_run(&code, iva)?;
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// (d) Random text never panics the preprocessor or the assembler; errors name a place.
    #[test]
    fn random_text_never_panics(text in "[ -~\t\n]{0,300}") {
        check_source(&text);
    }

    /// (d) Lines of the kind the preprocessor and assembler see, in random order.
    #[test]
    fn random_directive_soup_never_panics(lines in proptest::collection::vec(soup_line(false), 0..24)) {
        check_source(&lines.join("\n"));
    }

    /// (d) Assembler lines alone, so every case gets past the preprocessor.
    #[test]
    fn random_asm_soup_never_panics(lines in proptest::collection::vec(soup_line(true), 0..24)) {
        check_source(&lines.join("\n"));
    }
}

proptest! {
    #![proptest_config(config(100))]

    /// (d) Mutations of real source: lines shuffled, dropped, truncated and characters
    /// substituted in `traces/ia64/syscall.S` and every corpus source.
    #[test]
    fn mutated_source_never_panics(file in any::<Index>(), seed in any::<u64>(), edits in 1usize..12) {
        let src = mutate_source(file.get::<String>(&SOURCES), seed, edits);
        check_source(&src);
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// (e) Random bytes never panic either ELF loader.
    #[test]
    fn random_bytes_never_panic_the_elf_loaders(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_elf(&bytes);
    }

    /// (e) Bit flips, byte overwrites and truncations of committed objects (the ia64
    /// golden objects and the x86 trace objects) never panic either loader.
    #[test]
    fn mutated_objects_never_panic_the_elf_loaders(obj in any::<Index>(), seed in any::<u64>(), edits in 1usize..8) {
        let bytes = mutate_object(obj.get::<Vec<u8>>(&OBJECTS), seed, edits);
        check_elf(&bytes);
    }
}

// ---------------------------------------------------------------------------------------
// (b) decoder and formatter

fn check_bundle(bytes: [u8; 16], addr: u64) {
    for slot in 0..3 {
        let _ = format::format_raw_slot(bytes, slot, addr, &NoSymbols);
    }
    if let Ok(bundle) = decode::decode_bundle(bytes) {
        let mut out = String::new();
        format::format_bundle_lines(&mut out, &bundle, &bytes, addr, &NoSymbols);
        for slot in bundle.slots.iter() {
            if let Slot::Insn(insn) = slot {
                let _ = decode::real_form(insn);
                let _ = encode::reencode(insn, addr);
                for k in insn.form().operands() {
                    let _ = insn.operand(k, addr);
                }
            }
        }
    }
    let _ = Bundle::from_bytes(bytes).map(Bundle::to_bytes);
    let _ = disasm::disassemble_bytes(&bytes, addr);
}

// ---------------------------------------------------------------------------------------
// (c) the CPU

const CODE_BASE: u64 = 0x0010_0000;

/// `n` bundles of random code: random templates; each slot a random row of its unit
/// (usually) or random bits.
fn random_code(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = seeded(seed);
    let templates: Vec<Template> = Template::all().collect();
    let mut out = PROLOGUE.clone();
    for _ in 0..n {
        if rng.below(32) == 0 {
            out.extend((0..16).map(|_| rng.next_u64() as u8));
            continue;
        }
        let template = templates[rng.below(templates.len() as u64) as usize];
        let mut slots = [0u64; 3];
        let units = template.units();
        for (i, unit) in units.iter().enumerate() {
            let du = match unit {
                SlotUnit::M => DecodeUnit::M,
                SlotUnit::I => DecodeUnit::I,
                SlotUnit::F => DecodeUnit::F,
                SlotUnit::B => DecodeUnit::B,
                SlotUnit::X => DecodeUnit::X,
                SlotUnit::L => continue,
            };
            let insn = if rng.below(40) == 0 { None } else { (0..4).find_map(|_| random_insn(&mut rng, Some(du))) };
            match insn {
                Some(insn) => {
                    slots[i] = insn.raw.slot;
                    if *unit == SlotUnit::X {
                        slots[1] = insn.raw.long;
                    }
                }
                None => slots[i] = rng.next_u64() & ((1 << 41) - 1),
            }
        }
        out.extend(Bundle { template, slots }.to_bytes());
    }
    out
}

/// Opens a full register frame (so random stacked-register operands are mostly legal) and
/// points some registers at mapped memory, before the random bundles.
static PROLOGUE: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(|| {
    let src = "\t.text\n\talloc r33=ar.pfs,8,72,16,8\n\tmov r34=r12\n\tmov r35=r13\n\tmov r36=r2\n\t;;\n\
               \tmov r37=r12\n\tmov r38=r13\n\tmov r39=r2\n\tmov r40=r12\n\t;;\n";
    text_bytes(&asm(src).unwrap_or_else(|e| panic!("prologue: {e}")))
});

/// Runs `code` at [`CODE_BASE`] under the default harness with a budget of 2000.
fn check_run(code: &[u8], iva: bool) -> Result<(), TestCaseError> {
    const BUDGET: u64 = 2000;
    let mut image = Image::new(Endian::Little);
    image.sections.push(Section {
        name: ".text".into(),
        addr: CODE_BASE,
        data: code.to_vec(),
        kind: SectionKind::Code,
        align: 16,
    });
    let mut sets = vec![
        ("r2".to_string(), "stack".to_string()),
        ("r3".to_string(), "task".to_string()),
        ("r14".to_string(), "stack+0x100".to_string()),
    ];
    if iva {
        // Interruptions are delivered into the random code (vectors past its end fail
        // with a typed "no code" error).
        sets.push(("cr.iva".to_string(), format!("{CODE_BASE:#x}")));
    }
    let cfg = RunConfig { sets, max_insns: BUDGET, ..RunConfig::default() };
    let (mut machine, _) = prepare(&image, &cfg).map_err(|e| TestCaseError::fail(format!("setup: {e}")))?;
    let stop = StopWhen { on_sentinel: true, on_rfi: false, on_interruption: false, max_insns: BUDGET };
    let result = machine.run(&stop);
    let done: &Ia64Cpu = &machine.cpu;
    prop_assert!(done.instructions() <= BUDGET, "ran {} instructions", done.instructions());
    if let Err(e) = result {
        // A typed error naming a pc (`0x...`) or the emulator's reason.
        let text = e.to_string();
        prop_assert!(text.contains("0x") || text.contains("pc"), "error without a location: {text}");
    }
    let _ = machine.snapshot();
    Ok(())
}

// ---------------------------------------------------------------------------------------
// (d) preprocessor and assembler

/// The real sources the mutation property starts from: the ia64 trace and every corpus
/// source.
static SOURCES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    let mut paths = vec!["traces/ia64/syscall.S".to_string()];
    paths.extend(files_in("tests/corpus/ia64/src", "S"));
    paths.iter().map(|p| String::from_utf8_lossy(&read(p)).into_owned()).collect()
});

/// The files with extension `ext` in the workspace directory `dir`, sorted.
fn files_in(dir: &str, ext: &str) -> Vec<String> {
    let full = workspace().join(dir);
    let mut out: Vec<String> = std::fs::read_dir(&full)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", full.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(&format!(".{ext}")))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .{ext} files in {dir}");
    out
}

fn mutate_source(src: &str, seed: u64, edits: usize) -> String {
    let mut rng = seeded(seed);
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    const NOISE: &[u8] = b"#()[]{},;:=+-*/<>!~&|^\"'\\ \t0123456789abcdefxrpfb.@_\n";
    for _ in 0..edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len() as u64;
        let i = rng.below(n) as usize;
        match rng.below(6) {
            0 => {
                let j = rng.below(n) as usize;
                lines.swap(i, j);
            }
            1 => {
                lines.remove(i);
            }
            2 => {
                let keep = rng.below(lines[i].len() as u64 + 1) as usize;
                let cut: String = lines[i].chars().take(keep).collect();
                lines[i] = cut;
            }
            3 => {
                let j = rng.below(n) as usize;
                let copy = lines[j].clone();
                lines.insert(i, copy);
            }
            _ => {
                let mut chars: Vec<char> = lines[i].chars().collect();
                if !chars.is_empty() {
                    let k = rng.below(chars.len() as u64) as usize;
                    chars[k] = char::from(NOISE[rng.below(NOISE.len() as u64) as usize]);
                }
                lines[i] = chars.into_iter().collect();
            }
        }
    }
    // Truncate the whole file sometimes, mid-line.
    let mut out = lines.join("\n");
    if rng.below(4) == 0 {
        let keep = rng.below(out.len() as u64 + 1) as usize;
        out = out.chars().take(keep).collect();
    }
    out
}

/// A line of the preprocessor's or the assembler's kind (`asm_only`: no preprocessor
/// lines, so the assembler sees every case rather than an early preprocessor error).
fn soup_line(asm_only: bool) -> impl Strategy<Value = String> {
    const LINES: &[&str] = &[
        "#define A 1",
        "#define F(x,y) x+y",
        "#define G(x) #x",
        "#define H(x, ...) x __VA_ARGS__",
        "#define R R",
        "#undef A",
        "#if A",
        "#if defined(A) && F(1,2) > 2",
        "#if (1 ? 2 : 3) / 0",
        "#if 1 % 0",
        "#if -9223372036854775807 - 1 / -1",
        "#if 0x7fffffffffffffff * 2",
        "#if 1 << 64",
        "#elif 1",
        "#ifdef A",
        "#ifndef B",
        "#else",
        "#endif",
        "#include \"x.h\"",
        "#include <y.h>",
        "#include",
        "#error e",
        "#warning w",
        "#line 5",
        "#",
        "#define",
        "#define 1",
        "#define P(a,b) a##b",
        "#define Q(a) P(a, a) ## #a",
        "#define V(...) __VA_ARGS__",
        "#define W(a,a) a",
        "#define X(",
        "#undef",
        "#ifdef",
        "#if",
        "#if 1 +",
        "#if (",
        "#if defined",
        "#if defined(",
        "#if 'a'",
        "#if 08",
        "#if 0x",
        "#if 1 ? 2",
        "#if 99999999999999999999999",
        "#if -(-9223372036854775807 - 1)",
        "#if (-9223372036854775807 - 1) / -1",
        "#if (-9223372036854775807 - 1) % -1",
        "#if 1 >> -1",
        "#if 1 << -1",
        "#elif",
        "#include \"",
        "#include x.h",
        "P(r,8)",
        "Q(x)",
        "V(1, 2, 3)",
        "F(1,",
        "F(r8, r9)",
        "G(p6)",
        "H(1)",
        "R",
        "\t.text",
        "\t.data",
        "\t.align 16",
        "\t.align 0x100000000",
        "\t.skip 0x100000000000",
        "\t.org 0x10",
        "\t.org -16",
        "\t.fill 100000000000, 8, 1",
        "\t.mii",
        "\t.mlx",
        "\t.proc f",
        "\t.endp f",
        "\t.global f",
        "\t.section .foo, \"ax\", @progbits",
        "\t.set x, 1",
        "\t.equ y, x+1",
        "\t.byte 1, 2, 300",
        "\t.ascii \"abc",
        "\t.asciz \"\\777\"",
        "\tdata8 f",
        "\tdata8 1/0",
        "\tdata8 1 << 100",
        "\tdata8 (-9223372036854775807 - 1) / -1",
        "\tdata4 -1 % 0",
        "\tdata8 (-9223372036854775807 - 1) % -1",
        "\tdata8 1 >> 64",
        "\tdata8 1 << -1",
        "\tdata8 -(-9223372036854775807 - 1)",
        "\tdata1 0x1ffffffffffffffff",
        "\t.align -1",
        "\t.skip -1",
        "\t.org 0xffffffffffffffff",
        "\t.fill -1, -1, -1",
        "\t.fill 1, 100, 1",
        "\t.balign 3",
        "\t.p2align 70",
        "\t.ascii \"\\x\"",
        "\t.string \"\\",
        "\tmovl r8=0x10000000000000000",
        "\tadds r8=0x7fffffffffffffff+1,r9",
        "\tbr.cond.sptk 0x7ffffffffffffff0",
        "\tbrl.cond.sptk -16",
        "f:",
        "1:",
        "\tbr.cond.sptk 1b",
        "\tbr.cond.sptk 1f",
        "\tbr.call.sptk.many b0=f",
        "\tbrl.call.sptk.many b0=f",
        "\tmovl r8=f",
        "\tadds r8=f,r9",
        "\tadd r8=r9,r10",
        "\tmov r8=ar.itc",
        "\tmov ar.k7=r8",
        "\talloc r16=ar.pfs,8,8,8,8",
        "\talloc r16=ar.pfs,96,96,96,96",
        "\tld8 r8=[r9],-256",
        "\tcmp.eq p6,p7=r8,r9",
        "\t(p6) br.ret.sptk.many b0",
        "\tfma.s f8=f9,f10,f11",
        "\t;;",
        "\tnop 0",
        "\tmov r8=r9 ;; add r8=r8,r8",
        "\tdep r8=r9,r10,60,16",
        "\textr.u r8=r9,63,64",
        "\tshl r8=r9,64",
        "\tmov b6=r8,f",
        "\tchk.s r8,f",
    ];
    let lines: Vec<&str> = LINES.iter().copied().filter(|l| !asm_only || l.starts_with('\t')).collect();
    proptest::sample::select(lines).prop_map(str::to_string)
}

/// Preprocesses and assembles `text`; every error must name a place.
fn check_source(text: &str) {
    let loader = MemLoader::new().with("x.h", "#define INC 1\nadd r8=r9,r10\n").with("y.h", "#include \"y.h\"\n");
    for opts in [
        PreprocessOptions::new(),
        PreprocessOptions::new().defined("CONFIG_VIRT_CPU_ACCOUNTING", "1").defined("ACCOUNTING_V2", "1"),
    ] {
        if let Err(d) = preprocess("p.S", text, &opts, &loader) {
            assert_located(&Diagnostics(vec![d]), text);
        }
        match assemble("p.S", text, &opts, &loader) {
            Ok(a) => {
                // Assembled code must also disassemble and load without trouble.
                let _ = disasm::objdump("p.o", &a.image);
            }
            Err(e) => assert_located(&e, text),
        }
    }
}

fn assert_located(e: &Diagnostics, text: &str) {
    assert!(!e.0.is_empty(), "an error with no diagnostics for\n{text}");
    for d in &e.0 {
        let shown = d.to_string();
        let prefix = format!("{}:{}", d.loc.file, d.loc.line);
        assert!(shown.starts_with(&prefix), "error without file:line: {shown}\n--- for\n{text}");
        assert!(!d.loc.file.is_empty(), "error without a file: {shown}");
        if &*d.loc.file == "p.S" {
            assert!(d.loc.line >= 1, "error at line 0: {shown}\n--- for\n{text}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// (e) ELF loaders

/// Committed objects: the ia64 golden objects and the x86 trace objects.
static OBJECTS: std::sync::LazyLock<Vec<Vec<u8>>> = std::sync::LazyLock::new(|| {
    let mut paths = files_in("tests/corpus/ia64/golden", "o");
    paths.extend(files_in("traces/x86/obj", "o"));
    paths.iter().map(|p| read(p)).collect()
});

fn mutate_object(obj: &[u8], seed: u64, edits: usize) -> Vec<u8> {
    let mut rng = seeded(seed);
    let mut bytes = obj.to_vec();
    for _ in 0..edits {
        if bytes.is_empty() {
            break;
        }
        let n = bytes.len() as u64;
        // Headers and tables matter most: half the edits land in the first 64 bytes or the
        // section header table at the end.
        let at = match rng.below(4) {
            0 => rng.below(64.min(n)),
            1 => n - 1 - rng.below(512.min(n)),
            _ => rng.below(n),
        } as usize;
        match rng.below(6) {
            0 => bytes[at] ^= 1 << rng.below(8),
            1 => bytes[at] = rng.next_u64() as u8,
            2 => bytes[at] = [0, 0xff, 0x7f, 0x80][rng.below(4) as usize],
            3 => {
                let end = (at + 8).min(bytes.len());
                let v = rng.next_u64().to_le_bytes();
                bytes[at..end].copy_from_slice(&v[..end - at]);
            }
            4 => bytes.truncate(at),
            _ => {
                let end = (at + 8).min(bytes.len());
                let v = [u64::MAX, 1 << 63, 0xffff_ffff, 0x8000_0000][rng.below(4) as usize].to_le_bytes();
                bytes[at..end].copy_from_slice(&v[..end - at]);
            }
        }
    }
    bytes
}

/// x86-64 relocation rules enough for the loader's own paths: absolute and PC-relative
/// fields of 4 and 8 bytes, and a GOT for the GOTPCREL types.
struct TestRelocs;

impl Relocations for TestRelocs {
    fn machine(&self) -> u16 {
        62
    }
    fn endian(&self) -> Endian {
        Endian::Little
    }
    fn name(&self, r_type: u32) -> Option<&'static str> {
        Some(match r_type {
            1 => "R_X86_64_64",
            2 => "R_X86_64_PC32",
            4 => "R_X86_64_PLT32",
            9 => "R_X86_64_GOTPCREL",
            10 => "R_X86_64_32",
            11 => "R_X86_64_32S",
            _ => return None,
        })
    }
    fn needs_got(&self, r_type: u32) -> bool {
        r_type == 9 || r_type == 41 || r_type == 42
    }
    fn apply(&self, r: &Reloc, bytes: &mut [u8], ctx: &RelocCtx) -> Result<(), ElfError> {
        let (value, size) = match r.r_type {
            1 => ((r.symbol as i64).wrapping_add(r.addend), 8),
            2 | 4 => ((r.symbol as i64).wrapping_add(r.addend).wrapping_sub(r.place as i64), 4),
            9 | 41 | 42 => ((r.got.unwrap_or(0) as i64).wrapping_add(r.addend).wrapping_sub(r.place as i64), 4),
            10 | 11 => ((r.symbol as i64).wrapping_add(r.addend), 4),
            _ => {
                return Err(ElfError::UnsupportedRelocation {
                    type_name: ctx.type_name.clone(),
                    symbol: ctx.symbol.clone(),
                    section: ctx.section.clone(),
                    offset: r.offset,
                })
            }
        };
        let out_of_section = || ElfError::OutOfSection {
            type_name: ctx.type_name.clone(),
            section: ctx.section.clone(),
            offset: r.offset,
        };
        let start = usize::try_from(r.offset).map_err(|_| out_of_section())?;
        let field =
            bytes.get_mut(start..start.checked_add(size).ok_or_else(out_of_section)?).ok_or_else(out_of_section)?;
        field.copy_from_slice(&value.to_le_bytes()[..size]);
        Ok(())
    }
}

fn check_elf(bytes: &[u8]) {
    if let Ok(image) = elf::load(bytes) {
        let _ = disasm::objdump("m.o", &image);
    }
    let _ = emu_core::elf::machine(bytes);
    // Resolve some undefined symbols and not others, so both paths run.
    let externals = |name: &str| name.bytes().next().is_some_and(|b| b < b'n').then_some(0x1000);
    let _ = emu_core::elf::load(bytes, &TestRelocs, &externals);
}

// ---------------------------------------------------------------------------------------
// The generators are worth their cases: most random rows assemble, and random code runs.

/// Most generated instructions are accepted, so `table_round_trip` checks something.
#[test]
fn generated_instructions_mostly_assemble() {
    let (mut generated, mut accepted) = (0, 0);
    for seed in 1..=300u64 {
        let mut rng = seeded(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let Some(insn) = random_insn(&mut rng, None) else { continue };
        generated += 1;
        accepted += usize::from(asm(&format!("\t.text\n\t{}\n\t;;\n", insn_text(&insn, 0))).is_ok());
    }
    assert!(generated >= 270 && accepted * 10 >= generated * 9, "{accepted} of {generated} assembled");
}

/// Random code gets past its first few instructions on average, so the CPU property
/// reaches more than the decoder.
#[test]
fn random_code_runs_some_way() {
    let mut total = 0;
    for seed in 1..=100u64 {
        let code = random_code(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15), 1 + (seed % 47) as usize);
        let mut image = Image::new(Endian::Little);
        image.sections.push(Section {
            name: ".text".into(),
            addr: CODE_BASE,
            data: code,
            kind: SectionKind::Code,
            align: 16,
        });
        let (mut machine, _) = prepare(&image, &RunConfig::default()).expect("setup");
        let stop = StopWhen { on_sentinel: true, on_rfi: false, on_interruption: false, max_insns: 2000 };
        let res = machine.run(&stop);
        eprintln!("DBG {} {:?}", machine.cpu.instructions(), res.map(|_| ()).map_err(|e| e.to_string()));
        total += machine.cpu.instructions();
    }
    assert!(total >= 100 * 20, "only {total} instructions in 100 runs");
}

// ---------------------------------------------------------------------------------------
// Regression cases of panics the properties found.

/// `tbit.nz`/`tnat.nz` without two predicate targets indexed an empty target list
/// (matcher.rs, found by `mutated_source_never_panics`). One target is gas's pseudo form
/// (`tnat.nz.unc p6=r8` is `tnat.z.unc p0,p6=r8`), so the cases have none or a non-predicate.
#[test]
fn regression_tbit_nz_without_targets() {
    for src in ["\ttbit.nz r8,1\n", "\ttnat.nz.unc r6=r8\n", "\t(p7) tbit.nz =r8,1 ;;\n"] {
        let err = asm(&format!("\t.text\n{src}")).expect_err(src);
        assert_located(&err, src);
        assert!(err.to_string().starts_with("p.S:2:"), "{err}");
    }
}

/// `.align` in a data section allocated its padding unchecked: `.align 0x100000000` after
/// a byte took seconds and gigabytes, `.align 1<<62` aborted the process; `.p2align 70`
/// was silently ignored (found by `random_asm_soup_never_panics`).
#[test]
fn regression_huge_alignment_in_data() {
    for (src, want) in [
        ("\t.data\n\t.asciz \"\\777\"\n\t.align 0x100000000\n", "p.S:3:"),
        ("\t.data\n\t.byte 1\n\t.align 0x4000000000000000\n", "p.S:3:"),
        ("\t.data\n\t.byte 1\n\t.balign 0x8000000000000000\n", "p.S:3:"),
        ("\t.text\n\tnop 0\n\t.align 0x100000000\n", "p.S:3:"),
        ("\t.data\n\t.p2align 70\n", "p.S:2:"),
        ("\t.text\n\t.p2align -1\n", "p.S:2:"),
    ] {
        let err = asm(src).expect_err(src);
        assert_located(&err, src);
        assert!(err.to_string().starts_with(want), "{err}");
        assert!(!err.to_string().contains("TooLarge"), "{err}");
    }
    // Reasonable alignments still pad.
    let a = asm("\t.data\n\t.byte 1\n\t.align 0x1000\n\t.byte 2\n\t.p2align 3\n").expect("assembles");
    let data = a.object.iter().find(|s| s.name == ".data").expect(".data");
    assert_eq!(data.data.len(), 0x1008);
}
