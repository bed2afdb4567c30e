//! The block engine against the per-step reference interpreter (issue 17): both run the same
//! code from the same state and must end with identical registers, memory, cycles, stall
//! tables, timelines and stop reasons (or errors). Cases: random programs (hand-encoded forms,
//! the ones the block engine specialises and ones it leaves to the executor, with loops, calls,
//! forward branches, faults and budget stops), every function of the committed test objects on
//! generated inputs, and every function of the committed x86 trace objects. Each runs with the
//! timing model off, on, and on with a timeline, and with `until_pc` stops inside blocks.

use std::path::{Path, PathBuf};

use arch_x86::block::Engine;
use arch_x86::cpu::X86Cpu;
use arch_x86::run::{load_object, prepare, RunConfig, SENTINEL};
use emu_core::cpu::{Cpu, Machine, StopWhen};
use emu_core::image::Image;
use emu_core::rng::Xorshift64;

#[path = "../../tests/common/engine_diff.rs"]
mod engine_diff;
use engine_diff::{code_image, memory_image};

const CODE_BASE: u64 = 0x0040_0000;
const DATA: u64 = 0x7100_0000;

/// Asserts two machines ended the same.
fn assert_same(what: &str, a: &Machine<X86Cpu>, b: &Machine<X86Cpu>) {
    assert_eq!(a.cpu.instructions(), b.cpu.instructions(), "{what}: instructions");
    assert_eq!(a.cpu.cycles(), b.cpu.cycles(), "{what}: cycles");
    assert_eq!(a.cpu.pc(), b.cpu.pc(), "{what}: pc");
    assert_eq!(a.cpu.summary(), b.cpu.summary(), "{what}: summary and stall table");
    assert_eq!(Cpu::counts(&a.cpu), Cpu::counts(&b.cpu), "{what}: counts");
    let timeline = |m: &Machine<X86Cpu>| m.cpu.model().and_then(|t| t.timeline()).cloned();
    assert_eq!(timeline(a), timeline(b), "{what}: timeline");
    assert_eq!(a.cpu.state, b.cpu.state, "{what}: registers");
    assert_eq!(a.snapshot(), b.snapshot(), "{what}: snapshot");
    assert!(memory_image(&a.mem) == memory_image(&b.mem), "{what}: memory differs");
}

thread_local! {
    /// Blocks the block engine timed as a whole, and ones whose live state sent them record by
    /// record, over this test's runs (each test runs on its own thread).
    static OUTCOMES: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// Both outcomes of timing a block as a whole happened in this test's runs.
fn assert_both_block_outcomes(what: &str) {
    let (ready, not) = OUTCOMES.with(|o| o.get());
    assert!(ready > 0 && not > 0, "{what}: blocks timed whole {ready}, record by record {not}");
}

/// The three ways of timing a run: no model, the model, the model with a timeline.
const MODES: [(bool, bool); 3] = [(false, false), (true, false), (true, true)];

/// Runs `image` from `entry` on both engines (after `setup`) and compares; `until` also stops
/// at that pc. Returns the instructions run.
fn diff_image(
    what: &str,
    image: &Image,
    entry: Option<&str>,
    setup: &dyn Fn(&mut Machine<X86Cpu>),
    budget: u64,
    until: Option<u64>,
) -> u64 {
    let mut ran = 0;
    for (timing, timeline) in MODES {
        let what = format!("{what} (timing {timing}, timeline {timeline}, until {until:x?})");
        let cfg = RunConfig { entry: entry.map(str::to_string), timing, timeline, ..RunConfig::default() };
        let stop = StopWhen { max_insns: budget, ..StopWhen::default() };
        let run = |engine: Engine| {
            let (mut m, _) = prepare(image, &cfg).unwrap_or_else(|e| panic!("{what}: setup: {e}"));
            setup(&mut m);
            m.cpu.set_engine(engine);
            let mut stops = Vec::new();
            // Three calls: a stop by `until`, budget or an event leaves a state the next call
            // resumes from, as the scenario engine resumes paths.
            for _ in 0..3 {
                let r = m.cpu.run_until(&mut m.mem, &stop, until);
                // The state where each call stopped, too: a stop inside a block must leave
                // every flag computed (flag liveness, `arch_x86::block`).
                stops.push(match r {
                    Ok(r) => format!("{r:?} {:?}", m.cpu.state),
                    Err(e) => format!("error: {e} {:?}", m.cpu.state),
                });
                if stops.last().is_some_and(|s| s.starts_with("error") || s.contains("Halt") || s.contains("Sentinel"))
                {
                    break;
                }
            }
            (m, stops)
        };
        let (a, ra) = run(Engine::Block);
        let (b, rb) = run(Engine::Step);
        assert_eq!(ra, rb, "{what}: stops");
        if std::env::var("DIFF_DEBUG").is_ok() {
            eprintln!("{what}: {} insns, {ra:?}", a.cpu.instructions());
        }
        assert_same(&what, &a, &b);
        if let Some(m) = a.cpu.model() {
            let (ready, not) = m.block_outcomes();
            OUTCOMES.with(|o| o.set((o.get().0 + ready, o.get().1 + not)));
        }
        ran = a.cpu.instructions();
    }
    ran
}

// ---------------------------------------------------------------------------------------
// Random programs

/// Registers a random form may write: not rbx and rbp (the data pointers), rsp or r15 (the loop
/// counter).
const DSTS: [u8; 12] = [0, 1, 2, 6, 7, 8, 9, 10, 11, 12, 13, 14];

struct Gen {
    rng: Xorshift64,
}

/// One generated instruction: its bytes and whether a forward branch may jump over it.
struct Item {
    bytes: Vec<u8>,
    skippable: bool,
}

impl Gen {
    fn n(&mut self, k: u64) -> u64 {
        self.rng.next_u64() % k
    }

    fn dst(&mut self) -> u8 {
        DSTS[self.n(DSTS.len() as u64) as usize]
    }

    fn any(&mut self) -> u8 {
        self.n(16) as u8
    }

    fn imm(&mut self) -> u64 {
        match self.n(4) {
            0 => self.n(4),
            1 => 0xffff_ffff - self.n(3),
            2 => 0x7fff_ffff + self.n(3),
            _ => self.rng.next_u64(),
        }
    }

    /// REX for operand width `w` (bytes) with ModRM reg `r` and rm `b`; `byte_regs`: an 8-bit
    /// form (a REX turns regs 4-7 into spl..dil, without one they are ah..bh).
    fn rex(&mut self, out: &mut Vec<u8>, w: u8, r: u8, b: u8) {
        if w == 2 {
            out.push(0x66);
        }
        let mut rex = 0x40;
        if w == 8 {
            rex |= 8;
        }
        if r & 8 != 0 {
            rex |= 4;
        }
        if b & 8 != 0 {
            rex |= 1;
        }
        if rex != 0x40 || (w == 1 && self.n(2) == 0) {
            out.push(rex);
        }
    }

    fn width(&mut self) -> u8 {
        [8, 8, 8, 4, 4, 4, 2, 1][self.n(8) as usize]
    }

    /// ModRM (+ disp8) for a memory operand at rbx or rbp + small displacement; rarely a
    /// SIB with a random index (likely a fault).
    fn modrm_mem(&mut self, out: &mut Vec<u8>, reg: u8) {
        if self.n(60) == 0 {
            out.push(0x44 | ((reg & 7) << 3));
            let index = self.n(8) as u8;
            out.push((index << 3) | 3);
        } else {
            let base = if self.n(2) == 0 { 3 } else { 5 };
            out.push(0x40 | ((reg & 7) << 3) | base);
        }
        out.push((self.n(15) * 8) as u8);
    }

    fn item(&mut self) -> Item {
        let mut b = Vec::new();
        let mut skippable = true;
        const ALU: [u8; 10] = [0x01, 0x09, 0x11, 0x19, 0x21, 0x29, 0x31, 0x39, 0x85, 0x89];
        match self.n(26) {
            // op r/m, r between registers
            0..=4 => {
                let (w, d, s) = (self.width(), self.dst(), self.any());
                let op = ALU[self.n(10) as usize];
                self.rex(&mut b, w, s, d);
                b.push(if w == 1 { op - 1 } else { op });
                b.push(0xc0 | ((s & 7) << 3) | (d & 7));
            }
            // op r, imm
            5..=7 => {
                let (w, d) = (self.width().max(4), self.dst());
                let imm = self.imm();
                match self.n(4) {
                    0 => {
                        self.rex(&mut b, w, 0, d);
                        b.push(0xb8 + (d & 7));
                        let n = if w == 8 { 8 } else { 4 };
                        b.extend_from_slice(&imm.to_le_bytes()[..n]);
                    }
                    1 => {
                        self.rex(&mut b, w, 0, d);
                        b.push(0x83);
                        b.push(0xc0 | ((self.n(8) as u8) << 3) | (d & 7));
                        b.push(imm as u8);
                    }
                    2 => {
                        self.rex(&mut b, w, 0, d);
                        b.push(0xf7);
                        b.push(0xc0 | (d & 7));
                        b.extend_from_slice(&(imm as u32).to_le_bytes());
                    }
                    _ => {
                        // every width: 80 ib, 66 81 iw, 81 id
                        let w = self.width();
                        self.rex(&mut b, w, 0, d);
                        b.push(if w == 1 { 0x80 } else { 0x81 });
                        b.push(0xc0 | ((self.n(8) as u8) << 3) | (d & 7));
                        let n = match w {
                            1 => 1,
                            2 => 2,
                            _ => 4,
                        };
                        b.extend_from_slice(&(imm as u32).to_le_bytes()[..n]);
                    }
                }
            }
            // op r, [m] (load forms, mov included)
            8..=9 => {
                let (w, d) = (self.width(), self.dst());
                let op = [0x03, 0x0b, 0x13, 0x1b, 0x23, 0x2b, 0x33, 0x3b, 0x85, 0x8b][self.n(10) as usize];
                self.rex(&mut b, w, d, 0);
                b.push(if w == 1 { op - 1 } else { op });
                self.modrm_mem(&mut b, d);
            }
            // op [m], r (stores and read-modify-writes), sometimes locked
            10..=11 => {
                let (w, s) = (self.width(), self.any());
                let op = ALU[self.n(10) as usize];
                if op != 0x89 && op != 0x85 && op != 0x39 && self.n(5) == 0 {
                    b.push(0xf0);
                }
                self.rex(&mut b, w, s, 0);
                b.push(if w == 1 { op - 1 } else { op });
                self.modrm_mem(&mut b, s);
            }
            // op [m], imm
            12 => {
                let w = self.width().max(4);
                let (op, sub) = if self.n(3) == 0 { (0xc7, 0) } else { (0x83, self.n(8) as u8) };
                self.rex(&mut b, w, 0, 0);
                b.push(op);
                self.modrm_mem(&mut b, sub);
                if op == 0xc7 {
                    b.extend_from_slice(&(self.imm() as u32).to_le_bytes());
                } else {
                    b.push(self.imm() as u8);
                }
            }
            // inc/dec, neg/not
            13 => {
                let (w, d) = (self.width(), self.dst());
                self.rex(&mut b, w, 0, d);
                let (op, sub) = match self.n(4) {
                    0 => (0xff, 0),
                    1 => (0xff, 1),
                    2 => (0xf7, 2),
                    _ => (0xf7, 3),
                };
                b.push(if w == 1 { op - 1 } else { op });
                b.push(0xc0 | (sub << 3) | (d & 7));
            }
            // shifts and rotates by imm, 1 or cl
            14 => {
                let (w, d) = (self.width(), self.dst());
                let sub = [0u8, 1, 4, 5, 7][self.n(5) as usize];
                self.rex(&mut b, w, 0, d);
                let form = self.n(3);
                let op = [0xc1u8, 0xd1, 0xd3][form as usize];
                b.push(if w == 1 { op - 1 } else { op });
                b.push(0xc0 | (sub << 3) | (d & 7));
                if form == 0 {
                    b.push(self.n(70) as u8);
                }
            }
            // lea
            15 => {
                let (w, d) = (self.width().max(4), self.dst());
                self.rex(&mut b, w, d, 0);
                b.push(0x8d);
                if self.n(2) == 0 {
                    b.push(0x44 | ((d & 7) << 3));
                    b.push((((self.n(4) as u8) << 6) | ((self.n(8) as u8) << 3)) | 3);
                } else {
                    b.push(0x40 | ((d & 7) << 3) | 5);
                }
                b.push(self.n(256) as u8);
            }
            // push/pop pair around nothing (balanced), pushf/popf
            16 => {
                skippable = false;
                let (s, d) = (self.any(), self.dst());
                if s & 8 != 0 {
                    b.push(0x41);
                }
                b.push(0x50 + (s & 7));
                if d & 8 != 0 {
                    b.push(0x41);
                }
                b.push(0x58 + (d & 7));
                if self.n(4) == 0 {
                    b.extend_from_slice(&[0x9c, 0x9d]);
                }
            }
            // executor forms: imul, movzx, movsx(d), setcc, cmovcc, xchg, bt, cqo, xadd, cmpxchg
            17..=19 => {
                let (d, s) = (self.dst(), self.any());
                let w = if self.n(2) == 0 { 8 } else { 4 };
                match self.n(10) {
                    0 => {
                        self.rex(&mut b, w, d, s);
                        b.extend_from_slice(&[0x0f, 0xaf, 0xc0 | ((d & 7) << 3) | (s & 7)]);
                    }
                    1 => {
                        self.rex(&mut b, w, d, s);
                        b.extend_from_slice(&[0x0f, [0xb6, 0xb7, 0xbe, 0xbf][self.n(4) as usize]]);
                        b.push(0xc0 | ((d & 7) << 3) | (s & 7));
                    }
                    2 => {
                        self.rex(&mut b, 8, d, s);
                        b.extend_from_slice(&[0x63, 0xc0 | ((d & 7) << 3) | (s & 7)]);
                    }
                    3 => {
                        self.rex(&mut b, 1, 0, d);
                        b.extend_from_slice(&[0x0f, 0x90 + self.n(16) as u8, 0xc0 | (d & 7)]);
                    }
                    4 => {
                        self.rex(&mut b, w, d, s);
                        b.extend_from_slice(&[0x0f, 0x40 + self.n(16) as u8, 0xc0 | ((d & 7) << 3) | (s & 7)]);
                    }
                    5 => {
                        let e = self.dst();
                        self.rex(&mut b, w, e, d);
                        b.extend_from_slice(&[0x87, 0xc0 | ((e & 7) << 3) | (d & 7)]);
                    }
                    6 => {
                        self.rex(&mut b, w, s, d);
                        b.extend_from_slice(&[0x0f, 0xa3, 0xc0 | ((s & 7) << 3) | (d & 7)]);
                    }
                    7 => b.extend_from_slice(if w == 8 { &[0x48, 0x99] } else { &[0x99] }),
                    8 => {
                        let e = self.dst();
                        self.rex(&mut b, w, e, 0);
                        b.extend_from_slice(&[0x0f, if self.n(2) == 0 { 0xc1 } else { 0xb1 }]);
                        self.modrm_mem(&mut b, e);
                    }
                    _ => {
                        // a division by a register that may be zero (#DE ends the run)
                        if self.n(8) == 0 {
                            self.rex(&mut b, w, 0, s);
                            b.extend_from_slice(&[0xf7, 0xf0 | (s & 7)]);
                        } else {
                            self.rex(&mut b, w, 0, d);
                            b.extend_from_slice(&[0xf7, 0xe0 | (d & 7)]);
                        }
                    }
                }
            }
            // clock reads, fences, nops, pause, cli/sti
            20 => match self.n(8) {
                0 => b.extend_from_slice(&[0x0f, 0x31]),
                1 => b.extend_from_slice(&[0x0f, 0x01, 0xf9]),
                2 => b.extend_from_slice(&[0x0f, 0xae, 0xe8]),
                3 => b.extend_from_slice(&[0x0f, 0xae, 0xf0]),
                4 => b.extend_from_slice(&[0x0f, 0x1f, 0x40, 0x00]),
                5 => b.extend_from_slice(&[0xf3, 0x90]),
                6 => b.extend_from_slice(&[0xfa, 0xfb]),
                _ => b.push(0x90),
            },
            // gs-relative load
            21 => {
                let d = self.dst();
                b.push(0x65);
                self.rex(&mut b, 8, d, 0);
                b.push(0x8b);
                self.modrm_mem(&mut b, d);
            }
            _ => {
                // mov r, r in every width
                let (w, d, s) = (self.width(), self.dst(), self.any());
                self.rex(&mut b, w, s, d);
                b.push(if w == 1 { 0x88 } else { 0x89 });
                b.push(0xc0 | ((s & 7) << 3) | (d & 7));
            }
        }
        Item { bytes: b, skippable }
    }

    /// A straight run of `n` items with forward branches over skippable ones.
    fn body(&mut self, n: usize, out: &mut Vec<u8>) {
        let items: Vec<Item> = (0..n).map(|_| self.item()).collect();
        let mut k = 0;
        while k < items.len() {
            if self.n(6) == 0 {
                // jcc/jmp short over the next few skippable items
                let mut over = 0usize;
                let mut len = 0usize;
                let want = 1 + self.n(3) as usize;
                while over < want && k + over < items.len() && items[k + over].skippable {
                    len += items[k + over].bytes.len();
                    over += 1;
                }
                if len < 120 {
                    if self.n(4) == 0 {
                        out.push(0xeb);
                    } else {
                        out.push(0x70 + self.n(16) as u8);
                    }
                    out.push(len as u8);
                }
            }
            out.extend_from_slice(&items[k].bytes);
            k += 1;
        }
    }

    /// A program: set-up, a body, a counted loop with a call to a leaf, a body, ret; the leaf.
    fn program(&mut self) -> Vec<u8> {
        let mut code = Vec::new();
        let k = 4 + self.n(12) as usize;
        self.body(k, &mut code);
        // mov r15d, count
        code.extend_from_slice(&[0x41, 0xbf]);
        code.extend_from_slice(&(1 + self.n(6) as u32).to_le_bytes());
        let top = code.len();
        let k = 2 + self.n(8) as usize;
        self.body(k, &mut code);
        let call_at = code.len();
        code.extend_from_slice(&[0xe8, 0, 0, 0, 0]);
        let k = self.n(4) as usize;
        self.body(k, &mut code);
        // dec r15d; jnz top
        code.extend_from_slice(&[0x41, 0xff, 0xcf]);
        let back = top as i64 - (code.len() as i64 + 6);
        code.extend_from_slice(&[0x0f, 0x85]);
        code.extend_from_slice(&(back as i32).to_le_bytes());
        let k = self.n(6) as usize;
        self.body(k, &mut code);
        code.push(0xc3);
        let leaf = code.len();
        let rel = leaf as i64 - (call_at as i64 + 5);
        code[call_at + 1..call_at + 5].copy_from_slice(&(rel as i32).to_le_bytes());
        let k = 1 + self.n(6) as usize;
        self.body(k, &mut code);
        code.push(0xc3);
        code
    }
}

/// Random registers, the data pointers, random data.
fn random_setup(seed: u64) -> impl Fn(&mut Machine<X86Cpu>) {
    move |m: &mut Machine<X86Cpu>| {
        let mut rng = Xorshift64::new(seed | 1);
        for r in [0u8, 1, 2, 6, 7, 8, 9, 10, 11, 12, 13, 14] {
            let v = if rng.next_u64().is_multiple_of(3) { rng.next_u64() % 64 } else { rng.next_u64() };
            m.cpu.state.set_reg(r, v);
        }
        m.cpu.state.set_reg(3, DATA + 0x100);
        m.cpu.state.set_reg(5, DATA + 0x800);
        m.cpu.state.rflags = 0x202 | (rng.next_u64() & 0x8d5);
        for k in 0..64u64 {
            let _ = m.mem.write_u64(DATA + k * 8, rng.next_u64());
        }
    }
}

/// A fault inside a block leaves the flags of the records before it computed, even when a
/// later record of the block would have overwritten them (flag liveness, `arch_x86::block`):
/// each memory form faults between two flag writers.
#[test]
fn a_fault_inside_a_block_sees_every_flag_before_it() {
    // mov rcx,[rbx]; mov [rbx],rcx; add rcx,[rbx]; add [rbx],rcx; push rcx; pop rcx
    let forms: [&[u8]; 6] =
        [&[0x48, 0x8b, 0x0b], &[0x48, 0x89, 0x0b], &[0x48, 0x03, 0x0b], &[0x48, 0x01, 0x0b], &[0x51], &[0x59]];
    for (k, form) in forms.iter().enumerate() {
        // add rax,rdx; FORM; sub rax,rdx; ret
        let mut code = vec![0x48, 0x01, 0xd0];
        code.extend_from_slice(form);
        code.extend_from_slice(&[0x48, 0x29, 0xd0, 0xc3]);
        let image = code_image(CODE_BASE, &code);
        let setup = move |m: &mut Machine<X86Cpu>| {
            m.cpu.state.set_reg(0, u64::MAX - 7);
            m.cpu.state.set_reg(2, 0x18);
            // An unmapped address for the memory forms (and the stack for push and pop).
            m.cpu.state.set_reg(3, 0x10);
            if k >= 4 {
                m.cpu.state.set_reg(4, 0x10);
            }
            m.cpu.state.rflags = 0x202;
        };
        diff_image(&format!("fault {k}"), &image, None, &setup, 100, None);
    }
}

#[test]
fn random_programs_run_alike_on_both_engines() {
    let mut gen = Gen { rng: Xorshift64::new(0x5eed_b10c) };
    let mut total = 0;
    let mut programs = 0;
    for case in 0..300u64 {
        let code = gen.program();
        let image = code_image(CODE_BASE, &code);
        let setup = random_setup(case * 7919 + 1);
        let what = format!("random program {case} ({} bytes)", code.len());
        // Budgets that end runs inside blocks too; an `until` inside the code.
        let budget = [5000, 37, 101][(case % 3) as usize];
        let until = (case % 4 == 1).then(|| CODE_BASE + (gen.n(code.len() as u64)));
        total += diff_image(&what, &image, None, &setup, budget, until);
        programs += 1;
    }
    assert_eq!(programs, 300);
    assert!(total > 10_000, "the random programs ran only {total} instructions");
    assert_both_block_outcomes("random programs");
}

// ---------------------------------------------------------------------------------------
// The committed objects

/// Global function symbols of an object.
fn functions(image: &Image) -> Vec<String> {
    let mut names: Vec<String> = image
        .symbols
        .iter()
        .filter(|s| s.kind == emu_core::image::SymbolKind::Function && s.size > 0)
        .map(|s| s.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

fn objects(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "o"))
        .collect();
    v.sort();
    v
}

fn diff_objects(dir: &Path, calls: u64) -> (usize, u64) {
    let (mut n, mut insns) = (0, 0);
    for obj in objects(dir) {
        let bytes = std::fs::read(&obj).unwrap_or_else(|e| panic!("{}: {e}", obj.display()));
        let image = load_object(&bytes).unwrap_or_else(|e| panic!("{}: {e}", obj.display()));
        for f in functions(&image) {
            for call in 0..calls {
                let seed = (n as u64) * 131 + call;
                let setup = move |m: &mut Machine<X86Cpu>| {
                    let mut rng = Xorshift64::new(seed | 1);
                    for r in [7u8, 6, 2, 1, 8, 9] {
                        // pointer arguments into the data region, or small and random values
                        let v = match rng.next_u64() % 3 {
                            0 => DATA + (rng.next_u64() % 256) * 8,
                            1 => rng.next_u64() % 100,
                            _ => rng.next_u64(),
                        };
                        m.cpu.state.set_reg(r, v);
                    }
                };
                let what = format!("{} {f} call {call}", obj.display());
                insns += diff_image(&what, &image, Some(&f), &setup, 200_000, None);
            }
            n += 1;
        }
    }
    (n, insns)
}

#[test]
fn every_test_object_function_runs_alike_on_both_engines() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let (n, insns) = diff_objects(&dir, 4);
    assert!(n > 50, "expected the test objects' functions, found {n}");
    assert!(insns > 1000, "{insns}");
    assert_both_block_outcomes("test objects");
}

#[test]
fn every_x86_trace_object_function_runs_alike_on_both_engines() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../traces/x86/obj");
    let (n, _) = diff_objects(&dir, 2);
    assert!(n > 20, "expected the trace objects' functions, found {n}");
}

#[test]
fn the_sentinel_and_until_pc_stop_where_the_step_loop_stops() {
    // add rax, rcx; add rax, rcx; add rax, rcx; ret: `until` on every instruction boundary.
    let code = [0x48, 0x01, 0xc8, 0x48, 0x01, 0xc8, 0x48, 0x01, 0xc8, 0xc3];
    let image = code_image(CODE_BASE, &code);
    for at in [3u64, 6, 9, 10, 0] {
        let setup = |m: &mut Machine<X86Cpu>| m.cpu.state.set_reg(1, 5);
        diff_image("until", &image, None, &setup, 100, Some(CODE_BASE + at));
    }
    for budget in 1..5 {
        diff_image("budget", &image, None, &|_| {}, budget, None);
    }
    // call L; add rax, rcx; ret; L: add rax, rcx; ret — the call is followed inside a block,
    // so `until` at its target stops inside one.
    let code = [0xe8, 0x04, 0, 0, 0, 0x48, 0x01, 0xc8, 0xc3, 0x48, 0x01, 0xc8, 0xc3];
    let image = code_image(CODE_BASE, &code);
    for at in [0u64, 5, 8, 9, 12] {
        let setup = |m: &mut Machine<X86Cpu>| m.cpu.state.set_reg(1, 5);
        diff_image("until in a followed call", &image, None, &setup, 100, Some(CODE_BASE + at));
    }
    for budget in 1..6 {
        diff_image("budget in a followed call", &image, None, &|_| {}, budget, None);
    }
    let _ = SENTINEL;
}
