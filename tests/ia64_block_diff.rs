//! The fast engine against the reference interpreter (issue 17): both run the same code from
//! the same state, and must end with identical architectural state, memory, cycles, stall
//! tables, timelines and stop reasons. Cases: random programs (table-driven random rows, and
//! random sequences of the forms the fast engine specialises, with NaT and misaligned
//! operands mixed in), every corpus program, and every IA-64 catalogue scenario with the
//! timing model on and off.

use arch_ia64::asm::assemble;
use arch_ia64::block::Engine;
use arch_ia64::bundle::{Bundle, SlotUnit, Template};
use arch_ia64::cpu::Ia64Cpu;
use arch_ia64::decode;
use arch_ia64::encode;
use arch_ia64::run::{prepare, RunConfig};
use arch_ia64::table::{table, DecodeUnit, Flags, Unit};
use emu_core::cpu::{Cpu, Machine, StopWhen};
use emu_core::image::SectionKind;
use emu_core::memory::Memory;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::rng::Xorshift64;
use std::path::Path;
use traces::Prepared;

#[path = "common/engine_diff.rs"]
mod engine_diff;
#[path = "common/scenario_diff.rs"]
mod scenario_diff;
use engine_diff::{code_image, memory_image};
use scenario_diff::{diff_workload, scenario_traces};

const CODE_BASE: u64 = 0x0010_0000;
const BUDGET: u64 = 3000;

/// Asserts two CPUs and memories ended the same.
fn assert_same(what: &str, fast: (&Ia64Cpu, &Memory), reference: (&Ia64Cpu, &Memory)) {
    let ((a, am), (b, bm)) = (fast, reference);
    assert_eq!(a.instructions(), b.instructions(), "{what}: instructions");
    assert_eq!(a.cycles(), b.cycles(), "{what}: cycles");
    assert_eq!(a.pc(), b.pc(), "{what}: pc");
    assert_eq!(a.summary(), b.summary(), "{what}: summary and stall table");
    assert_eq!(a.timeline(), b.timeline(), "{what}: timeline");
    assert_eq!(a.snapshot(am), b.snapshot(bm), "{what}: architectural state");
    assert!(memory_image(am) == memory_image(bm), "{what}: memory differs");
}

/// Runs `code` at [`CODE_BASE`] under the default harness on both engines and compares.
fn diff_run(what: &str, code: &[u8], iva: bool, timing: bool) {
    let image = code_image(CODE_BASE, code);
    let mut sets = vec![
        ("r2".to_string(), "stack".to_string()),
        ("r3".to_string(), "task".to_string()),
        ("r14".to_string(), "stack+0x100".to_string()),
    ];
    if iva {
        sets.push(("cr.iva".to_string(), format!("{CODE_BASE:#x}")));
    }
    let cfg = RunConfig { sets, max_insns: BUDGET, timing, timeline: true, ..RunConfig::default() };
    let stop = StopWhen { on_sentinel: true, on_rfi: false, on_interruption: false, max_insns: BUDGET };
    let run = |engine: Engine| -> (Machine<Ia64Cpu>, String) {
        let (mut m, _) = prepare(&image, &cfg).unwrap_or_else(|e| panic!("{what}: setup: {e}"));
        m.cpu.set_engine(engine);
        let result = m.run(&stop);
        let text = match result {
            Ok(r) => format!("{r:?}"),
            Err(e) => format!("error: {e}"),
        };
        (m, text)
    };
    let (a, ra) = run(Engine::Fast);
    let (b, rb) = run(Engine::Reference);
    assert_eq!(ra, rb, "{what}: stop");
    if std::env::var("DIFF_DEBUG").is_ok() {
        eprintln!("{} insns, {ra}", a.cpu.instructions());
    }
    assert_same(what, (&a.cpu, &a.mem), (&b.cpu, &b.mem));
}

// ---------------------------------------------------------------------------------------
// Random programs

/// Opens a full register frame and points some registers at mapped memory, as the property
/// tests' random code does.
fn prologue() -> Vec<u8> {
    text_bytes(
        "\t.text\n\talloc r33=ar.pfs,8,72,16,8\n\tmov r34=r12\n\tmov r35=r13\n\tmov r36=r2\n\t;;\n\
         \tmov r37=r12\n\tmov r38=r13\n\tmov r39=r2\n\tmov r40=r12\n\t;;\n",
    )
}

fn text_bytes(src: &str) -> Vec<u8> {
    let a = assemble("diff.S", src, &PreprocessOptions::new(), &FsLoader).unwrap_or_else(|e| panic!("{e}\n{src}"));
    a.image.sections.iter().filter(|s| s.kind == SectionKind::Code).flat_map(|s| s.data.clone()).collect()
}

/// Random bits of a table row that decodes in a slot of `unit` (no TLB, indirect-file or
/// chk.a rows: they stop every run by design or branch to random targets).
fn random_slot(rng: &mut Xorshift64, unit: DecodeUnit) -> Option<decode::Insn> {
    let t = table();
    let fits = |u: Unit| match unit {
        DecodeUnit::M => matches!(u, Unit::A | Unit::M),
        DecodeUnit::I => matches!(u, Unit::A | Unit::I),
        DecodeUnit::F => u == Unit::F,
        DecodeUnit::B => u == Unit::B,
        DecodeUnit::X => u == Unit::X,
    };
    let excluded = |f: &arch_ia64::table::Form| {
        ["itc.", "itr.", "ptc.", "ptr.", "chk.a"].iter().any(|p| f.name.starts_with(p))
            || f.operands().any(|k| matches!(k.spec().class, arch_ia64::table::OpClass::Ind(_)))
    };
    let rows: Vec<usize> = (0..t.forms.len())
        .filter(|&i| !t.forms[i].flags.has(Flags::ASM_ONLY) && fits(t.forms[i].unit) && !excluded(&t.forms[i]))
        .collect();
    let idx = rows[rng.below(rows.len() as u64) as usize];
    let form = &t.forms[idx];
    let comp_bits = form.comps.iter().fold(0, |bits, c| {
        let opt = c.opts.get(rng.below(c.opts.len() as u64) as usize).map_or(0, |o| o.1);
        bits | c.field.put(opt)
    });
    let qp = if form.flags.has(Flags::NO_QP) || rng.below(2) == 0 { 0 } else { rng.below(64) as u8 };
    let values: Vec<i64> = form
        .operands()
        .map(|k| {
            let s = k.spec();
            match rng.below(4) {
                0 => s.min as i64,
                1 => s.max as i64,
                _ => {
                    let span = (s.max - s.min + 1) as u128;
                    (s.min + (u128::from(rng.next_u64()) % span) as i128) as i64
                }
            }
        })
        .collect();
    let raw = encode::encode(idx as u16, comp_bits, qp, &values, 0).ok()?;
    decode::decode_slot(unit, raw)
}

/// `n` bundles of random rows after the prologue.
fn random_rows(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = Xorshift64::new(seed | 1);
    let templates: Vec<Template> = Template::all().collect();
    let mut out = prologue();
    for _ in 0..n {
        let template = templates[rng.below(templates.len() as u64) as usize];
        let mut slots = [0u64; 3];
        for (i, unit) in template.units().iter().enumerate() {
            let du = match unit {
                SlotUnit::M => DecodeUnit::M,
                SlotUnit::I => DecodeUnit::I,
                SlotUnit::F => DecodeUnit::F,
                SlotUnit::B => DecodeUnit::B,
                SlotUnit::X => DecodeUnit::X,
                SlotUnit::L => continue,
            };
            if let Some(insn) = (0..4).find_map(|_| random_slot(&mut rng, du)) {
                slots[i] = insn.raw.slot;
                if *unit == SlotUnit::X {
                    slots[1] = insn.raw.long;
                }
            }
        }
        out.extend(Bundle { template, slots }.to_bytes());
    }
    out
}

/// Source of `n` lines of the forms the fast engine specialises, on registers that point at
/// the stack (mostly aligned, sometimes not), with NaTs made by failing speculative loads,
/// writes to r0 and to registers outside the frame, and predicates.
fn random_fast_source(seed: u64, n: usize) -> String {
    let mut rng = Xorshift64::new(seed | 1);
    let mut src = String::from("\t.text\n\talloc r33=ar.pfs,0,8,0,0\n\tmov r34=r2\n\tmov r35=r14\n\t;;\n");
    let regs = ["r0", "r8", "r9", "r10", "r11", "r15", "r16", "r17", "r33", "r36", "r37", "r38", "r39", "r40"];
    let reg = |rng: &mut Xorshift64| regs[rng.below(regs.len() as u64) as usize];
    let pointers = ["r2", "r14", "r34", "r35", "r12"];
    let ptr = |rng: &mut Xorshift64| pointers[rng.below(pointers.len() as u64) as usize];
    for _ in 0..n {
        let qp = if rng.below(4) == 0 { format!("(p{}) ", 6 + rng.below(2)) } else { String::new() };
        // r0 and r40 (outside the frame) as targets fault: rarely, so runs go on.
        let d = match reg(&mut rng) {
            "r0" | "r40" if rng.below(8) != 0 => "r9",
            d => d,
        };
        let (a, b) = (reg(&mut rng), reg(&mut rng));
        let size = [1, 2, 4, 8][rng.below(4) as usize];
        let line = match rng.below(16) {
            0 => format!("add {d}={a},{b}"),
            1 => format!("add {d}={a},{b},1"),
            2 => format!("sub {d}={a},{b}"),
            3 => format!("and {d}={a},{b}"),
            4 => format!("or {d}={a},{b}"),
            5 => format!("xor {d}={a},{b}"),
            6 => format!("andcm {d}={a},{b}"),
            7 => format!("adds {d}={},{b}", rng.below(512) as i64 - 256),
            8 => format!("shladd {d}={a},{},{b}", 1 + rng.below(4)),
            9 => format!("xor {d}={},{b}", rng.below(256) as i64 - 128),
            10 | 11 => format!("ld{size} {d}=[{}]", ptr(&mut rng)),
            12 | 13 => format!("st{size} [{}]={b}", ptr(&mut rng)),
            14 => {
                format!("adds {}={},{}", pointers[rng.below(3) as usize + 2], rng.below(64) as i64 - 16, ptr(&mut rng))
            }
            _ => match rng.below(3) {
                0 => format!("ld8.s {d}=[r0]"),
                1 => format!("cmp.eq p6,p7={a},{b}"),
                _ => format!("mov {d}={}", rng.next_u64() % 100),
            },
        };
        src.push_str(&format!("\t{qp}{line}\n"));
        match rng.below(12) {
            // A forward branch (maybe predicated) over a bundle, nops, a counted loop.
            0 => {
                let label = format!("skip{}", src.len());
                src.push_str(&format!("\t;;\n\t{qp}br.cond.sptk.few {label}\n\t;;\n\tadds r9=1,r9\n\t;;\n{label}:\n"));
            }
            1 => src.push_str("\tnop.i 0\n\t;;\n"),
            2 => {
                let label = format!("loop{}", src.len());
                src.push_str(&format!(
                    "\t;;\n\tmov ar.lc={}\n\t;;\n{label}:\n\tadds r10=3,r10\n\tbr.cloop.sptk.few {label}\n\t;;\n",
                    rng.below(4)
                ));
            }
            3..=6 => src.push_str("\t;;\n"),
            _ => {}
        }
    }
    src.push_str("\t;;\n\tbr.ret.sptk.many b0\n\t;;\n");
    src
}

#[test]
fn random_table_rows_run_alike_on_both_engines() {
    for seed in 0..120u64 {
        let code = random_rows(0xB10C_0000 + seed, 32);
        diff_run(&format!("random rows, seed {seed}"), &code, seed % 2 == 0, seed % 3 != 0);
    }
}

#[test]
fn random_fast_forms_run_alike_on_both_engines() {
    for seed in 0..150u64 {
        let src = random_fast_source(0xFA57_0000 + seed, 60);
        let code = text_bytes(&src);
        diff_run(&format!("fast forms, seed {seed}:\n{src}"), &code, seed % 2 == 0, seed % 4 != 0);
    }
}

// ---------------------------------------------------------------------------------------
// The corpus

#[test]
fn every_corpus_program_runs_alike_on_both_engines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ia64/golden");
    let mut n = 0;
    let mut entries: Vec<_> =
        std::fs::read_dir(&dir).expect("corpus directory").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if !path.to_string_lossy().ends_with(".text.hex") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("hex file");
        let hex: String = text.split_whitespace().collect();
        let bytes: Vec<u8> =
            (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digit")).collect();
        let mut code = prologue();
        code.extend(bytes);
        for (iva, timing) in [(false, true), (true, true), (false, false)] {
            diff_run(&format!("{} (iva {iva}, timing {timing})", path.display()), &code, iva, timing);
        }
        n += 1;
    }
    assert!(n > 30, "corpus not found in {}", dir.display());
}

// ---------------------------------------------------------------------------------------
// The catalogue scenarios

#[test]
fn every_ia64_catalogue_scenario_runs_alike_on_both_engines() {
    let w = diff_workload(40);
    let mut n = 0;
    for trace in scenario_traces(traces::Arch::Ia64) {
        for timing in [true, false] {
            let what = format!("{} (timing {timing})", trace.name);
            let run = |engine: Engine| {
                let Prepared::Ia64(mut s) = trace.prepare(None, &w, timing).unwrap_or_else(|e| panic!("{what}: {e}"))
                else {
                    panic!("{what}: not an IA-64 scenario")
                };
                s.machine.cpu.set_engine(engine);
                s.machine.cpu.record_timeline(true);
                let report = emu_core::scenario::run(&mut *s, &w, &mut |_| {}).map_err(|e| e.to_string());
                (s, format!("{report:?}"))
            };
            let (a, ra) = run(Engine::Fast);
            let (b, rb) = run(Engine::Reference);
            assert_eq!(ra, rb, "{what}: report");
            assert_same(&what, (&a.machine.cpu, &a.machine.mem), (&b.machine.cpu, &b.machine.mem));
            n += 1;
        }
    }
    assert!(n >= 4, "expected the IA-64 syscall traces, found {n} runs");
}

// ---------------------------------------------------------------------------------------
// Blocks (issue 17, w7-iblock): the block engine runs only without a timeline, so every case
// also runs with the model on and no timeline; and programs aimed at block boundaries.

/// As [`diff_run`], with the timeline recorded or not.
fn diff_run_timeline(what: &str, code: &[u8], iva: bool, timing: bool, timeline: bool) {
    diff_run_with(what, code, iva, timing, timeline, BUDGET, None);
}

/// Runs `code` on both engines with `budget` and the end label `until` (through
/// [`Cpu::run_until`]) and compares.
fn diff_run_with(what: &str, code: &[u8], iva: bool, timing: bool, timeline: bool, budget: u64, until: Option<u64>) {
    diff_run_sets(what, code, iva, timing, timeline, budget, until, &[]);
}

/// As [`diff_run_with`], with more registers set by the harness (`extra`: name, value).
#[allow(clippy::too_many_arguments)]
fn diff_run_sets(
    what: &str,
    code: &[u8],
    iva: bool,
    timing: bool,
    timeline: bool,
    budget: u64,
    until: Option<u64>,
    extra: &[(&str, String)],
) {
    let image = code_image(CODE_BASE, code);
    let mut sets = vec![
        ("r2".to_string(), "stack".to_string()),
        ("r3".to_string(), "task".to_string()),
        ("r14".to_string(), "stack+0x100".to_string()),
    ];
    if iva {
        sets.push(("cr.iva".to_string(), format!("{CODE_BASE:#x}")));
    }
    sets.extend(extra.iter().map(|(name, value)| (name.to_string(), value.clone())));
    let cfg = RunConfig { sets, max_insns: budget, timing, timeline, ..RunConfig::default() };
    let stop = StopWhen { on_sentinel: true, on_rfi: false, on_interruption: false, max_insns: budget };
    let run = |engine: Engine| -> (Machine<Ia64Cpu>, String) {
        let (mut m, _) = prepare(&image, &cfg).unwrap_or_else(|e| panic!("{what}: setup: {e}"));
        m.cpu.set_engine(engine);
        let result = m.cpu.run_until(&mut m.mem, &stop, until);
        let text = match result {
            Ok(r) => format!("{r:?}"),
            Err(e) => format!("error: {e} after {}", e.executed),
        };
        (m, text)
    };
    let (a, ra) = run(Engine::Fast);
    let (b, rb) = run(Engine::Reference);
    assert_eq!(ra, rb, "{what}: stop");
    if std::env::var("DIFF_DEBUG").is_ok() {
        eprintln!("{what}: {} insns, {ra}", a.cpu.instructions());
    }
    assert_same(what, (&a.cpu, &a.mem), (&b.cpu, &b.mem));
}

#[test]
fn random_programs_run_alike_with_the_model_on_and_no_timeline() {
    for seed in 0..60u64 {
        let code = random_rows(0xB10C_1000 + seed, 32);
        diff_run_timeline(&format!("random rows, seed {seed}"), &code, seed % 2 == 0, true, false);
    }
    for seed in 0..80u64 {
        let src = random_fast_source(0xFA57_1000 + seed, 60);
        let code = text_bytes(&src);
        diff_run_timeline(&format!("fast forms, seed {seed}:\n{src}"), &code, seed % 2 == 0, true, false);
    }
}

#[test]
fn every_corpus_program_runs_alike_with_the_model_on_and_no_timeline() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ia64/golden");
    let mut entries: Vec<_> =
        std::fs::read_dir(&dir).expect("corpus directory").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    let mut n = 0;
    for path in entries.iter().filter(|p| p.to_string_lossy().ends_with(".text.hex")) {
        let text = std::fs::read_to_string(path).expect("hex file");
        let hex: String = text.split_whitespace().collect();
        let bytes: Vec<u8> =
            (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digit")).collect();
        let mut code = prologue();
        code.extend(bytes);
        for iva in [false, true] {
            diff_run_timeline(&format!("{} (iva {iva}, no timeline)", path.display()), &code, iva, true, false);
        }
        n += 1;
    }
    assert!(n > 30, "corpus not found in {}", dir.display());
}

#[test]
fn every_ia64_catalogue_scenario_runs_alike_with_no_timeline() {
    let w = diff_workload(40);
    let mut n = 0;
    for trace in scenario_traces(traces::Arch::Ia64) {
        let what = format!("{} (timing on, no timeline)", trace.name);
        let run = |engine: Engine| {
            let Prepared::Ia64(mut s) = trace.prepare(None, &w, true).unwrap_or_else(|e| panic!("{what}: {e}")) else {
                panic!("{what}: not an IA-64 scenario")
            };
            s.machine.cpu.set_engine(engine);
            s.machine.cpu.record_timeline(false);
            let report = emu_core::scenario::run(&mut *s, &w, &mut |_| {}).map_err(|e| e.to_string());
            (s, format!("{report:?}"))
        };
        let (a, ra) = run(Engine::Fast);
        let (b, rb) = run(Engine::Reference);
        assert_eq!(ra, rb, "{what}: report");
        assert_same(&what, (&a.machine.cpu, &a.machine.mem), (&b.machine.cpu, &b.machine.mem));
        n += 1;
    }
    assert!(n >= 2, "expected the IA-64 syscall traces, found {n} runs");
}

/// Loops whose body calls a procedure (br.call/br.ret and alloc change the renaming in the
/// loop), a modulo-scheduled loop (br.ctop rotates the registers each iteration), cover,
/// bank switches and an rfi into the middle of a bundle.
const RENAMING_LOOPS: &str = "\t.text
\talloc r32=ar.pfs,0,4,2,0
\tmov r33=b0
\tmov r15=b0
\tmov r34=5
\t;;
\tmov ar.lc=r34
\t;;
top:
\tadd r35=r35,r34
\t;;
\tmov r36=r35
\tbr.call.sptk.many b0=leaf
\t;;
\tadds r35=1,r8
\tnop.i 0
\tbr.cloop.sptk.few top
\t;;
\tmov ar.lc=6
\tmov ar.ec=3
\tclrrrb
\t;;
\talloc r37=ar.pfs,0,24,0,16
\t;;
rot:
\tadds r32=1,r33
\tadd r40=r40,r41
\tbr.ctop.sptk.few rot
\t;;
\tclrrrb
\t;;
\tbsw.0
\t;;
\tadds r16=7,r16
\t;;
\tadds r17=9,r16
\t;;
\tbsw.1
\t;;
\tadd r18=r16,r17
\trsm psr.ic
\t;;
\tsrlz.d
\tmov r8=psr
\tmovl r9=back
\tmovl r10=0x100000
\t;;
\tadd r9=r9,r10
\t;;
\tdep r8=-1,r8,41,1
\tmov cr.iip=r9
\tmov cr.ifs=r0
\t;;
\tmov cr.ipsr=r8
\t;;
\trfi
\t;;
back:
\tadds r20=1,r20
\tadds r21=2,r21
\tadds r22=3,r22
\t;;
\tcover
\t;;
\tadds r23=4,r23
\tmov b0=r15
\t;;
\tbr.ret.sptk.many b0
\t;;
leaf:
\talloc r34=ar.pfs,2,2,0,0
\tadd r8=r32,r33
\t;;
\tadd r35=r8,r32
\tmov ar.pfs=r34
\t;;
\tbr.ret.sptk.many b0
\t;;
";

/// A loop of ALU work with a taken branch in the middle of a bundle, a fault in the middle of
/// a block (a load through r0 when r9 reaches 0, delivered when cr.iva is set) and nops.
const MIDDLE_EXITS: &str = "\t.text
\tmov r9=12
\tmov r10=0
\t;;
again:
\tadds r9=-1,r9
\tadds r10=3,r10
\tnop.i 0
\t;;
\tcmp.eq p6,p7=0,r9
\tadd r11=r10,r9
\t;;
\t(p7) br.cond.sptk.few again
\tadds r12=1,r12
\tnop.b 0
\t;;
\tadds r13=1,r13
\tld8.s r16=[r0]
\t;;
\tadds r13=1,r13
\tld8 r14=[r16]
\tadds r15=1,r15
\t;;
\tbr.ret.sptk.many b0
\t;;
";

#[test]
fn block_boundaries_run_alike_on_both_engines() {
    for (name, src) in [("renaming loops", RENAMING_LOOPS), ("middle exits", MIDDLE_EXITS)] {
        let code = text_bytes(src);
        for (iva, timing, timeline) in
            [(false, false, false), (true, false, false), (false, true, false), (true, true, false), (true, true, true)]
        {
            diff_run_with(
                &format!("{name} (iva {iva}, timing {timing}, timeline {timeline})"),
                &code,
                iva,
                timing,
                timeline,
                BUDGET,
                None,
            );
        }
    }
}

#[test]
fn budgets_and_end_labels_inside_blocks_run_alike_on_both_engines() {
    for (name, src) in [("renaming loops", RENAMING_LOOPS), ("middle exits", MIDDLE_EXITS)] {
        let code = text_bytes(src);
        let n = code.len() as u64 / 16;
        for timing in [false, true] {
            // Every budget up to a few block lengths: most end inside a block.
            for budget in 1..80 {
                diff_run_with(
                    &format!("{name} (timing {timing}, budget {budget})"),
                    &code,
                    true,
                    timing,
                    false,
                    budget,
                    None,
                );
            }
            // Every slot of the code as the end label.
            for at in (0..n).flat_map(|b| (0..3).map(move |s| CODE_BASE + 16 * b + s)) {
                diff_run_with(
                    &format!("{name} (timing {timing}, until {at:#x})"),
                    &code,
                    true,
                    timing,
                    false,
                    BUDGET,
                    Some(at),
                );
            }
        }
    }
}

/// Source of `n` lines of the forms only blocks specialise (post-increment loads and stores,
/// compares of every relation, extr, dep.z, branch-register moves), mixed with ALU work,
/// predicates, NaTs and misaligned pointers as in [`random_fast_source`].
fn random_block_source(seed: u64, n: usize) -> String {
    let mut rng = Xorshift64::new(seed | 1);
    let mut src = String::from(
        "\t.text\n\talloc r33=ar.pfs,0,8,0,0\n\tadds r34=0x200,r2\n\tadds r35=0x300,r2\n\tmov r36=b0\n\tadds r2=0x400,r2\n\t;;\n",
    );
    let regs = ["r0", "r8", "r9", "r10", "r11", "r15", "r16", "r17", "r37", "r38", "r39", "r40"];
    let reg = |rng: &mut Xorshift64| regs[rng.below(regs.len() as u64) as usize];
    let pointers = ["r2", "r14", "r34", "r35"];
    let rels = ["eq", "ne", "lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"];
    for _ in 0..n {
        let qp = if rng.below(4) == 0 { format!("(p{}) ", 6 + rng.below(2)) } else { String::new() };
        let d = match reg(&mut rng) {
            "r0" | "r40" if rng.below(8) != 0 => "r9",
            d => d,
        };
        let (a, b) = (reg(&mut rng), reg(&mut rng));
        let size = [1, 2, 4, 8][rng.below(4) as usize];
        let ptr = pointers[rng.below(pointers.len() as u64) as usize];
        // Mostly upwards from stack + 0x100, so the pointers stay in the stack mapping.
        let inc = [size as i64, -(size as i64), 8, 0, 3, 16][rng.below(6) as usize];
        let rel = rels[rng.below(rels.len() as u64) as usize];
        let pos = rng.below(64);
        let len = 1 + rng.below(64 - pos);
        let line = match rng.below(14) {
            0 | 1 => format!("ld{size} {d}=[{ptr}],{inc}"),
            2 | 3 => format!("st{size} [{ptr}]={b},{inc}"),
            4 => format!("cmp.{rel} p6,p7={a},{b}"),
            5 => format!("cmp4.{rel} p7,p6={a},{b}"),
            6 => format!("cmp.{rel} p6,p7={},{b}", rng.below(240) as i64 - 120),
            7 => format!("extr.u {d}={a},{pos},{len}"),
            8 => format!("extr {d}={a},{pos},{len}"),
            9 => format!("dep.z {d}={a},{pos},{len}"),
            10 => format!("mov b6={a}"),
            11 => format!("mov {d}=b6"),
            12 => format!("ld8.s {d}=[r0]"),
            _ => format!("adds {d}={},{a}", rng.below(64) as i64 - 32),
        };
        src.push_str(&format!("\t{qp}{line}\n\t;;\n"));
        if rng.below(10) == 0 {
            let label = format!("skip{}", src.len());
            src.push_str(&format!("\t(p6) br.cond.sptk.few {label}\n\t;;\n\tadds r9=1,r9\n\t;;\n{label}:\n"));
        }
    }
    src.push_str("\tmov b0=r36\n\t;;\n\tbr.ret.sptk.many b0\n\t;;\n");
    src
}

#[test]
fn random_block_forms_run_alike_on_both_engines() {
    for seed in 0..120u64 {
        let src = random_block_source(0xB10C_2000 + seed, 60);
        let code = text_bytes(&src);
        let (timing, timeline) = [(false, false), (true, false), (true, true)][seed as usize % 3];
        diff_run_timeline(&format!("block forms, seed {seed}:\n{src}"), &code, seed % 2 == 0, timing, timeline);
    }
}

// ---------------------------------------------------------------------------------------
// System forms as block operations (w8-iv2): the handlers that need no context run inside
// blocks; the forms that need the slot's address or the clock, and the `.unc` compares, stay
// with the reference executor, and a privileged form at cpl 3 faults there.

/// Source of `n` lines of system forms (moves to and from ARs, CRs, PR, spills and fills,
/// rsm/ssm, fences, fmerge, dep) mixed with fast forms, predicated at random, on the
/// registers the prologue points at memory.
fn random_system_source(seed: u64, n: usize) -> String {
    let mut rng = Xorshift64::new(seed | 1);
    let mut src =
        String::from("\t.text\n\talloc r33=ar.pfs,0,8,0,0\n\tmov r34=r2\n\tmov r35=r14\n\tmov r36=b0\n\t;;\n");
    let regs = ["r8", "r9", "r10", "r11", "r15", "r16", "r17", "r33", "r37", "r38", "r39"];
    let pick = |rng: &mut Xorshift64, xs: &[&'static str]| xs[rng.below(xs.len() as u64) as usize];
    for _ in 0..n {
        let qp = if rng.below(4) == 0 { format!("(p{}) ", 6 + rng.below(2)) } else { String::new() };
        let (d, a, b) = (pick(&mut rng, &regs), pick(&mut rng, &regs), pick(&mut rng, &regs));
        let ptr = pick(&mut rng, &["r34", "r35", "r2", "r14"]);
        let line = match rng.below(24) {
            0 | 1 => format!("mov {d}=ar.{}", pick(&mut rng, &["k0", "k6", "unat", "fpsr", "ccv", "pfs", "lc", "rsc"])),
            2 => format!("mov {d}=ar.{}", pick(&mut rng, &["bsp", "bspstore", "rnat", "itc"])),
            3 | 4 => format!("mov ar.{}={a}", pick(&mut rng, &["k1", "k5", "unat", "ccv", "lc", "ec", "rsc"])),
            5 => format!("mov ar.{}={}", pick(&mut rng, &["rsc", "ccv", "k2", "itc"]), rng.below(8)),
            6 => format!("mov ar.rnat={a}"),
            7 => format!("mov {d}=cr.{}", pick(&mut rng, &["ipsr", "iip", "ifa", "iim", "dcr", "tpr", "iva"])),
            8 => format!("mov cr.{}={a}", pick(&mut rng, &["iip", "ifa", "iim", "iha", "tpr"])),
            9 => pick(&mut rng, &["rsm psr.ic", "ssm psr.ic", "rsm psr.i", "ssm psr.i", "ssm psr.ac", "rsm psr.ac"])
                .to_string(),
            10 => format!("st8.spill [{ptr}]={a},{}", 8 * rng.below(4)),
            11 => format!("ld8.fill {d}=[{ptr}],{}", 8 * rng.below(4)),
            12 => format!("st8.spill [{ptr}]={a}"),
            13 => format!("ld8.fill {d}=[{ptr}]"),
            14 => format!("mov pr={a},{}", pick(&mut rng, &["-1", "0x1fffe", "0xc0"])),
            15 => format!("mov {d}=pr"),
            16 => format!("movl {d}={:#x}", rng.next_u64()),
            17 => format!("fmerge.s f{}=f{},f{}", 2 + rng.below(40), rng.below(40), rng.below(40)),
            18 => format!("dep {d}={a},{b},{},{}", rng.below(48), 1 + rng.below(16)),
            19 => pick(&mut rng, &["invala", "srlz.d", "srlz.i", "mf"]).to_string(),
            20 => format!("cmp.eq.unc p6,p7={a},{b}"),
            21 => format!("mov {d}=ip"),
            22 => format!("ld8 {d}=[{ptr}]"),
            _ => format!("adds {d}={},{a}", rng.below(64) as i64 - 32),
        };
        src.push_str(&format!("\t{qp}{line}\n"));
        if rng.below(3) == 0 {
            src.push_str("\t;;\n");
        }
        if rng.below(12) == 0 {
            let label = format!("skip{}", src.len());
            src.push_str(&format!("\t;;\n\t(p6) br.cond.sptk.few {label}\n\t;;\n\tadds r9=1,r9\n\t;;\n{label}:\n"));
        }
    }
    src.push_str("\t;;\n\tmov b0=r36\n\t;;\n\tbr.ret.sptk.many b0\n\t;;\n");
    src
}

/// Source of a loop calling random procedures (issue 17, w8-iuntimed: the block engine's calls
/// and returns): frames of random sizes, nested deep enough that the register stack spills on
/// the way down and fills on the way back, direct, indirect and predicated calls, and
/// predicated returns.
fn random_call_source(seed: u64) -> String {
    let mut rng = Xorshift64::new(seed | 1);
    let procs = 4usize;
    let mut src = String::from(
        "\t.text\n\talloc r33=ar.pfs,0,8,4,0\n\tmov r34=b0\n\tmovl r35=0x100000\n\tmov r36=5\n\t;;\n\
         \tmov ar.lc=r36\n\tadds r40=1,r0\n\tadds r41=2,r0\n\t;;\n",
    );
    let call = |rng: &mut Xorshift64, from: usize, scratch: &str, base: &str| -> String {
        let to = from + rng.below((procs - from) as u64) as usize;
        let qp = if rng.below(3) == 0 { "(p6) " } else { "" };
        if rng.below(2) == 0 {
            format!("\t{qp}br.call.sptk.many b0=proc{to}\n\t;;\n")
        } else {
            format!(
                "\tmovl {scratch}=proc{to}\n\t;;\n\tadd {scratch}={scratch},{base}\n\t;;\n\tmov b6={scratch}\n\t;;\n\
                 \t{qp}br.call.sptk.many b0=b6\n\t;;\n"
            )
        }
    };
    src.push_str("top:\n\tadds r37=3,r37\n\t;;\n\tcmp.eq p6,p7=r37,r40\n\t;;\n");
    for _ in 0..1 + rng.below(3) {
        src.push_str(&call(&mut rng, 0, "r38", "r35"));
        src.push_str("\tadd r37=r37,r8\n\t;;\n");
    }
    src.push_str("\tbr.cloop.sptk.few top\n\t;;\n\tmov b0=r34\n\tmov ar.pfs=r33\n\t;;\n\tbr.ret.sptk.many b0\n\t;;\n");
    for i in 0..procs {
        let ins = rng.below(4) as usize;
        let locals = 4 + rng.below(28) as usize;
        let outs = rng.below(5) as usize;
        let (pfs, b0, base, scratch) = (32 + ins, 33 + ins, 34 + ins, 35 + ins);
        let top = 32 + ins + locals + outs - 1;
        src.push_str(&format!(
            "proc{i}:\n\talloc r{pfs}=ar.pfs,{ins},{locals},{outs},0\n\tmov r{b0}=b0\n\tmovl r{base}=0x100000\n\t;;\n\
             \tadd r8=r8,r{}\n\tadds r{top}={},r{top}\n\t;;\n\tadd r{}=r{top},r8\n\t;;\n\
             \tld8 r{scratch}=[r12]\n\t;;\n\tadd r{scratch}=r{scratch},r8\n\t;;\n\tst8 [r12]=r{scratch}\n\t;;\n",
            32 + rng.below((ins + locals) as u64),
            rng.below(64),
            32 + ins + locals - 1,
        ));
        if i + 1 < procs && rng.below(4) != 0 {
            src.push_str(&call(&mut rng, i + 1, &format!("r{scratch}"), &format!("r{base}")));
        }
        src.push_str(&format!("\tmov b0=r{b0}\n\tmov ar.pfs=r{pfs}\n\tcmp.ne p6,p7=r8,r0\n\t;;\n"));
        if rng.below(3) == 0 {
            src.push_str("\t(p7) br.ret.sptk.many b0\n\t;;\n\tadds r8=1,r8\n\t;;\n");
        }
        src.push_str("\tbr.ret.sptk.many b0\n\t;;\n");
    }
    src
}

#[test]
fn random_system_forms_run_alike_in_blocks() {
    for seed in 0..120u64 {
        let src = random_system_source(0x5515_0000 + seed, 60);
        let code = text_bytes(&src);
        let timing = seed % 3 != 0;
        // Mostly cpl 0 (bank 1), where the forms run; every fourth at cpl 3, where the
        // privileged ones fault.
        let psr = if seed % 4 == 3 { (1u64 << 44) | (3 << 32) } else { 1 << 44 };
        let extra = [("psr", format!("{psr:#x}"))];
        let what = format!("system forms, seed {seed}:\n{src}");
        diff_run_sets(&what, &code, seed % 2 == 0, timing, false, BUDGET, None, &extra);
    }
}

#[test]
fn random_calls_and_returns_run_alike_on_both_engines() {
    for seed in 0..48u64 {
        let src = random_call_source(0xCA11_0000 + seed);
        let code = text_bytes(&src);
        let (timing, timeline) = [(false, false), (true, false), (false, false), (true, true)][seed as usize % 4];
        diff_run_timeline(&format!("calls, seed {seed}:\n{src}"), &code, seed % 2 == 0, timing, timeline);
    }
}

// ---------------------------------------------------------------------------------------
// The model-off chain (w9-iuntimed): blocks run one after the other through their cached
// exits (the fall-through and the last branch taken), retiring per-block constants, with IP
// and PSR.ri written only when the chain stops; loops that take both exits many times, with
// and without predicated operations, calls to a leaf, and budgets and end labels anywhere.

/// Source of a counted loop whose body is random ALU work (predicated or not, stops and
/// nops at random), forward branches taken or not, and calls to a leaf that loads and
/// stores.
fn random_loop_source(seed: u64) -> String {
    let mut rng = Xorshift64::new(seed | 1);
    let mut src = format!(
        "\t.text\n\talloc r33=ar.pfs,0,8,0,0\n\tmov r34=b0\n\tmov r36={}\n\t;;\n\tmov ar.lc=r36\n\t;;\nloop:\n",
        2 + rng.below(10)
    );
    let regs = ["r8", "r9", "r10", "r11", "r15", "r16", "r17", "r37", "r38", "r39"];
    let pick = |rng: &mut Xorshift64| regs[rng.below(regs.len() as u64) as usize];
    let predicated = seed.is_multiple_of(2);
    for _ in 0..4 + rng.below(16) {
        let qp = if predicated && rng.below(3) == 0 { format!("(p{}) ", 6 + rng.below(2)) } else { String::new() };
        let (d, a, b) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
        let line = match rng.below(10) {
            0 => format!("add {d}={a},{b}"),
            1 => format!("add {d}={a},{b},1"),
            2 => format!("sub {d}={a},{b}"),
            3 => format!("xor {d}={a},{b}"),
            4 => format!("shladd {d}={a},{},{b}", 1 + rng.below(4)),
            5 => format!("cmp.ltu p6,p7={a},{b}"),
            6 => format!("adds {d}={},{a}", rng.below(64) as i64 - 32),
            7 => format!("mov {d}=ar.lc"),
            _ => format!("and {d}={a},{b}"),
        };
        src.push_str(&format!("\t{qp}{line}\n"));
        match rng.below(8) {
            0 | 1 => src.push_str("\t;;\n"),
            2 => {
                let label = format!("skip{}", src.len());
                src.push_str(&format!("\t;;\n\t(p6) br.cond.sptk.few {label}\n\t;;\n\tadds r9=1,r9\n\t;;\n{label}:\n"));
            }
            3 => src.push_str("\t;;\n\tbr.call.sptk.many b0=leaf\n\t;;\n"),
            _ => {}
        }
    }
    src.push_str(
        "\t;;\n\tbr.cloop.sptk.few loop\n\t;;\n\tmov b0=r34\n\tmov ar.pfs=r33\n\t;;\n\tbr.ret.sptk.many b0\n\t;;\n\
         leaf:\n\tadd r8=r8,r9\n\tld8 r10=[r2]\n\t;;\n\tst8 [r2]=r10\n\tadds r11=1,r11\n\tbr.ret.sptk.many b0\n\t;;\n",
    );
    src
}

#[test]
fn random_loops_run_alike_in_the_model_off_chain() {
    for seed in 0..64u64 {
        let src = random_loop_source(0x1007_0000 + seed);
        let code = text_bytes(&src);
        let n = code.len() as u64 / 16;
        let mut rng = Xorshift64::new(seed | 1);
        let what = |how: String| format!("loop, seed {seed}, {how}:\n{src}");
        diff_run_with(&what("whole".into()), &code, seed.is_multiple_of(2), false, false, BUDGET, None);
        for _ in 0..4 {
            let budget = 1 + rng.below(400);
            diff_run_with(&what(format!("budget {budget}")), &code, true, false, false, budget, None);
            let at = CODE_BASE + 16 * rng.below(n) + rng.below(3);
            diff_run_with(&what(format!("until {at:#x}")), &code, true, false, false, BUDGET, Some(at));
        }
        // The model on takes the same exits through the general handling.
        diff_run_timeline(&what("model on".into()), &code, true, true, false);
    }
}
