//! The block engine against the reference steps (issue 17): the same program run with
//! [`Engine::Blocks`] and with [`Engine::Steps`] must end the same way with identical
//! registers, PSW, memory, cycles, instruction and group counts, stall tables and timelines.
//! Inputs: random code (real instructions of the committed objects mixed with random bytes
//! and short branches, with and without interruption handlers, random PSW masks, budgets that
//! end runs inside blocks, end labels inside blocks), the committed test program (ops.elf),
//! the bench loops, and every s390 trace of the catalogue path by path.

use arch_s390::block::Engine;
use arch_s390::cpu::{CpuConfig, S390Cpu};
use arch_s390::decode::{S390Decoder, MAX_INSN_LEN};
use arch_s390::optable::Op;
use arch_s390::run::{load_object, prepare, RunConfig};
use arch_s390::timing::S390Params;
use emu_core::cpu::{Cpu, Machine, StopWhen};
use emu_core::image::SectionKind;
use emu_core::memory::{Endian, Memory, Perms};
use emu_core::rng::Xorshift64;
use emu_core::scenario::ScenarioMachine;
use std::path::Path;

const CODE: u64 = 0x10_0000;
const CODE_SIZE: u64 = 0x1000;
const STACK: u64 = 0x20_0000;
const STACK_SIZE: u64 = 0x2000;
const DATA: u64 = 0x30_0000;
const DATA_SIZE: u64 = 0x1000;
const SENTINEL: u64 = 0xdead_0000;
const PGM_NEW_PSW: u64 = 0x1d0;
const SVC_NEW_PSW: u64 = 0x1c0;

fn data(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// Everything a run leaves behind that the engines must agree on.
#[derive(Debug, PartialEq)]
struct Outcome {
    result: String,
    state: arch_s390::state::S390State,
    memory: Vec<(u64, Vec<u8>)>,
    counts: emu_core::cpu::Counts,
    summary: emu_core::timing::TimingSummary,
    timeline: Option<emu_core::timing::Timeline>,
    program_code: u16,
    /// Block runs timed in one step and per instruction ([`S390Cpu::block_timing_counts`]).
    block_timing: (u64, u64),
}

fn memory_of(mem: &Memory) -> Vec<(u64, Vec<u8>)> {
    mem.regions()
        .map(|r| {
            let mut bytes = vec![0u8; r.size as usize];
            mem.peek_bytes(r.base, &mut bytes).unwrap_or_else(|e| panic!("region {}: {e}", r.name));
            (r.base, bytes)
        })
        .collect()
}

fn outcome(m: &Machine<S390Cpu>, result: String) -> Outcome {
    Outcome {
        result,
        state: m.cpu.state.clone(),
        memory: memory_of(&m.mem),
        counts: m.cpu.counts(),
        summary: m.cpu.summary(),
        timeline: m.cpu.model().and_then(|t| t.timeline()).cloned(),
        program_code: m.cpu.last_program_code,
        block_timing: m.cpu.block_timing_counts(),
    }
}

/// Asserts the two outcomes agree, naming the first field that differs.
fn same(what: &str, blocks: &Outcome, steps: &Outcome) {
    assert_eq!(blocks.result, steps.result, "{what}: results differ");
    assert_eq!(blocks.state, steps.state, "{what}: states differ");
    assert_eq!(blocks.counts, steps.counts, "{what}: counts differ");
    assert_eq!(blocks.summary, steps.summary, "{what}: summaries (stall tables) differ");
    assert!(blocks.timeline == steps.timeline, "{what}: timelines differ");
    assert_eq!(blocks.program_code, steps.program_code, "{what}: program codes differ");
    for ((a, x), (b, y)) in blocks.memory.iter().zip(&steps.memory) {
        assert!(a == b && x == y, "{what}: memory differs in the region at {a:#x}");
    }
    assert_eq!(blocks.memory.len(), steps.memory.len(), "{what}: regions differ");
}

// Random programs.

/// Supported instructions of the committed objects, each as its bytes.
fn snippets() -> Vec<Vec<u8>> {
    let decoder = S390Decoder::new();
    let mut out: Vec<Vec<u8>> = Vec::new();
    for obj in [data("ops.o"), data("refops.o")] {
        let image = load_object(&obj).unwrap_or_else(|e| panic!("committed object: {e}"));
        for s in image.sections.iter().filter(|s| s.kind == SectionKind::Code) {
            for insn in decoder.decode_all(s.addr, &s.data) {
                if insn.op != Op::Unsupported && !out.iter().any(|o| o == insn.bytes()) {
                    out.push(insn.bytes().to_vec());
                }
            }
        }
    }
    assert!(out.len() >= 50, "only {} distinct instructions", out.len());
    out
}

/// Mostly real instructions, some random bytes, short relative branches (loops) and calls.
fn random_code(rng: &mut Xorshift64, snippets: &[Vec<u8>], pieces: usize) -> Vec<u8> {
    let mut code = Vec::new();
    for _ in 0..pieces {
        match rng.below(12) {
            0 => {
                let n = 2 * (1 + rng.below(MAX_INSN_LEN as u64 / 2));
                code.extend((0..n).map(|_| rng.next_u64() as u8));
            }
            1 | 2 => {
                // brc with a random mask and a short distance either way.
                let mask = (rng.below(16) as u8) << 4;
                let halfwords = (rng.below(16) as i16 - 8).to_be_bytes();
                code.extend([0xa7, 0x04 | mask, halfwords[0], halfwords[1]]);
            }
            3 => {
                // bras (a call the block engine follows) or j, a short distance either way.
                let halfwords = (rng.below(16) as i16 - 8).to_be_bytes();
                let op = if rng.below(2) == 0 { ((rng.below(14) as u8) << 4) | 0x05 } else { 0xf4 };
                code.extend([0xa7, op, halfwords[0], halfwords[1]]);
            }
            _ => code.extend_from_slice(&snippets[rng.below(snippets.len() as u64) as usize]),
        }
    }
    code.truncate(CODE_SIZE as usize);
    code
}

fn machine(code: &[u8], timing: bool, handlers: bool, engine: Engine, rng_seed: u64) -> Machine<S390Cpu> {
    let mut mem = Memory::new(Endian::Big);
    mem.map(0, 0x2000, Perms::RW, "lowcore").expect("map lowcore");
    mem.map(CODE, CODE_SIZE, Perms::RX, "code").expect("map code");
    mem.load(CODE, code).expect("load code");
    mem.map(STACK, STACK_SIZE, Perms::RW, "stack").expect("map stack");
    mem.map(DATA, DATA_SIZE, Perms::RW, "data").expect("map data");
    let timing = timing.then(S390Params::default);
    let mut cpu = S390Cpu::new(CpuConfig { sentinel: SENTINEL, timing, ..CpuConfig::default() });
    cpu.set_engine(engine);
    cpu.add_code(CODE, code);
    if handlers {
        let mask = cpu.state.full_psw_mask();
        for new in [PGM_NEW_PSW, SVC_NEW_PSW] {
            mem.write_u64(new, mask).expect("new psw mask");
            mem.write_u64(new + 8, CODE).expect("new psw address");
        }
    }
    let mut rng = Xorshift64::new(rng_seed | 1);
    for r in 0..14u8 {
        let v = match rng.below(8) {
            0 => 0,
            1 => u64::MAX,
            2 => rng.next_u64(),
            _ => DATA + 0x80 * u64::from(r),
        };
        cpu.state.set_reg(r, v);
    }
    cpu.state.cc = rng.below(4) as u8;
    if rng.below(8) == 0 {
        cpu.state.psw_mask |= arch_s390::state::psw::PROBLEM;
    }
    cpu.state.set_reg(14, SENTINEL);
    cpu.state.set_reg(15, STACK + STACK_SIZE - 160 - 0x800);
    cpu.state.cpu_timer_base = rng.next_u64();
    cpu.state.tod_base = rng.next_u64();
    cpu.record_timeline(rng.below(3) == 0);
    cpu.set_entry(CODE);
    Machine::new(cpu, mem)
}

/// Runs `m` in a few `run_until` calls (budgets cut runs inside blocks; an end label may lie
/// inside one) and describes how each call ended.
fn drive(m: &mut Machine<S390Cpu>, rng: &mut Xorshift64, handlers: bool, code_len: u64) -> String {
    let mut log = String::new();
    for _ in 0..4 {
        let max_insns = [1, 2, 3, 7, 50, 600][rng.below(6) as usize];
        let stop = StopWhen { on_sentinel: true, on_rfi: rng.below(2) == 0, on_interruption: !handlers, max_insns };
        let until = (rng.below(2) == 0).then(|| CODE + 2 * rng.below(code_len.max(2) / 2));
        let ran = m.cpu.run_until(&mut m.mem, &stop, until);
        log.push_str(&format!("{ran:?} pc {:#x}; ", m.cpu.pc()));
        if ran.is_err() {
            break;
        }
        if rng.below(4) == 0 {
            m.cpu.advance(rng.below(50));
        }
    }
    log
}

#[test]
fn random_programs_run_the_same_on_blocks_and_steps() {
    let snippets = snippets();
    let mut cases = 0;
    let mut insns = 0;
    let mut block_timing = (0, 0);
    for seed in 1..=600u64 {
        let mut rng = Xorshift64::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let pieces = 4 + rng.below(60) as usize;
        let code = random_code(&mut rng, &snippets, pieces);
        let (timing, handlers) = (rng.below(4) != 0, rng.below(2) == 0);
        let setup = rng.next_u64();
        let drive_seed = rng.next_u64();
        let run = |engine| {
            let mut m = machine(&code, timing, handlers, engine, setup);
            let mut r = Xorshift64::new(drive_seed | 1);
            let log = drive(&mut m, &mut r, handlers, code.len() as u64);
            outcome(&m, log)
        };
        let (b, s) = (run(Engine::Blocks), run(Engine::Steps));
        same(&format!("seed {seed} (timing {timing}, handlers {handlers})"), &b, &s);
        cases += 1;
        insns += s.counts.instructions;
        block_timing = (block_timing.0 + b.block_timing.0, block_timing.1 + b.block_timing.1);
    }
    assert!(insns > 10 * cases, "the random programs ran only {insns} instructions in {cases} cases");
    // The timing per block was reached both ways: applied from a known entry state, and not.
    assert!(block_timing.0 > 100 && block_timing.1 > 100, "block timing hits and misses: {block_timing:?}");
}

/// MVC's edge cases: the one-byte-overlap fill, a backward overlap, a destination and then a
/// source running off the end of the data region part way.
#[test]
fn mvc_overlaps_and_faults_run_the_same_on_blocks_and_steps() {
    let code = [
        [0xd2, 0x0e, 0x20, 0x01, 0x20, 0x00], // mvc 1(15,%r2),0(%r2)
        [0xd2, 0x0f, 0x30, 0x00, 0x30, 0x08], // mvc 0(16,%r3),8(%r3)
        [0xd2, 0xff, 0x40, 0x00, 0x50, 0x00], // mvc 0(256,%r4),0(%r5)
    ]
    .concat();
    for (r4, r5) in
        [(DATA + 0x400, DATA + 0x600), (DATA + DATA_SIZE - 0x80, DATA + 0x200), (DATA + 0x200, DATA + DATA_SIZE - 0x40)]
    {
        for timing in [true, false] {
            let run = |engine| {
                let mut m = machine(&code, timing, false, engine, 7);
                for k in 0..DATA_SIZE {
                    m.mem.write_bytes(DATA + k, &[(k * 7 + 3) as u8]).expect("fill data");
                }
                for (r, v) in [(2, DATA + 0x10), (3, DATA + 0x100), (4, r4), (5, r5)] {
                    m.cpu.state.set_reg(r, v);
                }
                let stop = StopWhen { max_insns: 10, ..StopWhen::default() };
                let ran = m.cpu.run_until(&mut m.mem, &stop, None);
                outcome(&m, format!("{ran:?}"))
            };
            same(&format!("mvc r4 {r4:#x} r5 {r5:#x} timing {timing}"), &run(Engine::Blocks), &run(Engine::Steps));
        }
    }
}

// The committed test program.

/// Timing model on or off, timeline recorded or not (with a timeline the model issues
/// through its reference path, so both matter).
const MODES: [(bool, bool); 3] = [(true, false), (true, true), (false, false)];

fn run_image(
    bytes: &[u8],
    entry: &str,
    (timing, timeline): (bool, bool),
    engine: Engine,
    regs: &[(u8, u64)],
) -> Outcome {
    let image = load_object(bytes).unwrap_or_else(|e| panic!("load: {e}"));
    let cfg = RunConfig { entry: Some(entry.into()), max_insns: 10_000_000, timing, ..RunConfig::default() };
    let (mut m, _) = prepare(&image, &cfg).unwrap_or_else(|e| panic!("prepare: {e}"));
    m.cpu.set_engine(engine);
    m.cpu.record_timeline(timeline);
    for &(r, v) in regs {
        m.cpu.state.set_reg(r, v);
    }
    let stop = StopWhen { max_insns: cfg.max_insns, ..StopWhen::default() };
    let result = format!("{:?}", m.run(&stop).map_err(|e| e.to_string()));
    outcome(&m, result)
}

#[test]
fn the_test_program_runs_the_same_on_blocks_and_steps() {
    let elf = data("ops.elf");
    for setup in MODES {
        let b = run_image(&elf, "_start", setup, Engine::Blocks, &[]);
        let s = run_image(&elf, "_start", setup, Engine::Steps, &[]);
        assert!(s.counts.instructions > 1000, "ops.elf ran {} instructions", s.counts.instructions);
        same(&format!("ops.elf (timing, timeline: {setup:?})"), &b, &s);
    }
}

#[test]
fn the_bench_loops_run_the_same_on_blocks_and_steps() {
    let obj = traces::bench::S390X.object.unwrap_or_else(|| panic!("the s390x bench loops have an object"));
    for entry in [traces::bench::ALU, traces::bench::MEM] {
        for setup in MODES {
            let b = run_image(obj, entry, setup, Engine::Blocks, &[(2, 300)]);
            let s = run_image(obj, entry, setup, Engine::Steps, &[(2, 300)]);
            same(&format!("{entry} (timing, timeline: {setup:?})"), &b, &s);
            if setup == (true, false) {
                // The loops reach a steady state: their blocks are timed in one step.
                let (hits, misses) = b.block_timing;
                assert!(hits > 5 * misses && misses > 0, "{entry}: block timing hits {hits} misses {misses}");
            }
        }
    }
}

// Every s390 trace, path by path.

#[test]
fn every_s390_trace_runs_the_same_on_blocks_and_steps() {
    use arch_s390::scenario::S390Scenario;
    use traces::bind::s390::{prepare_timed, TRACED_ORDER};
    let s390: Vec<_> = traces::catalogue().iter().filter(|t| t.arch == traces::Arch::S390x).collect();
    assert!(!s390.is_empty(), "no s390 traces in the catalogue");
    for trace in s390 {
        for (timing, timeline) in MODES {
            let prepared = |engine| {
                let mut s: S390Scenario = prepare_timed(trace, None, timing).unwrap_or_else(|e| panic!("{e}"));
                s.machine.cpu.set_engine(engine);
                s.machine.cpu.record_timeline(timeline);
                s
            };
            let (mut b, mut s) = (prepared(Engine::Blocks), prepared(Engine::Steps));
            for round in 0..3 {
                for path in TRACED_ORDER {
                    b.advance(10_000 + round);
                    s.advance(10_000 + round);
                    let (rb, rs) = (b.run_path(path), s.run_path(path));
                    let what = format!("{} (timing {timing}, timeline {timeline}) round {round} {path:?}", trace.name);
                    let (rb, rs) = (format!("{rb:?}"), format!("{rs:?}"));
                    same(&what, &outcome(&b.machine, rb), &outcome(&s.machine, rs));
                }
            }
        }
    }
}
