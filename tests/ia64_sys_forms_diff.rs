//! The system forms' specialised handlers against the generic semantics (issue 17, w7-isys):
//! `exec::execute` (which runs the handler chosen at predecode when its common case applies)
//! and `exec::execute_generic` (the generic semantics only) run every random instruction of
//! those forms from the same random state and memory, and must return the same outcome and
//! leave identical architectural state and memory. The states mix in what makes a handler
//! decline: NaT operands, r0 and registers outside the frame as targets, misaligned,
//! read-only and unmapped addresses, cpl 3, PSR.ic/si/be/ac, RSC.mode, translation on.
//!
//! Both engines share `execute`, so the engine differential (`tests/ia64_block_diff.rs`)
//! cannot see these handlers; this test compares them one instruction at a time instead.

use arch_ia64::asm::assemble;
use arch_ia64::exec::predecode::{predecode, Exec, SlotRec};
use arch_ia64::exec::special::Special;
use arch_ia64::exec::{execute, execute_generic, Ctx};
use arch_ia64::state::fr::Fr;
use arch_ia64::state::psr::Psr;
use arch_ia64::state::State;
use emu_core::image::SectionKind;
use emu_core::memory::{Endian, Memory, Perms};
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::rng::Xorshift64;
use std::collections::BTreeMap;

/// The writable data region, a read-only one after it, and nothing beyond.
const RW_BASE: u64 = 0x0001_0000;
const RW_SIZE: u64 = 0x2000;
const RO_BASE: u64 = 0x0001_2000;
const RO_SIZE: u64 = 0x1000;

fn pick<'a>(rng: &mut Xorshift64, xs: &[&'a str]) -> &'a str {
    xs[rng.below(xs.len() as u64) as usize]
}

/// A general register operand: fixed, banked, stacked in and beyond the frame, r0.
fn gr(rng: &mut Xorshift64) -> String {
    match rng.below(10) {
        0 => "r0".to_string(),
        1..=3 => format!("r{}", 1 + rng.below(31)),
        4..=8 => format!("r{}", 32 + rng.below(24)),
        _ => format!("r{}", 32 + rng.below(96)),
    }
}

/// One random line of a specialised form (or a near relative the handlers must leave alone).
fn random_line(rng: &mut Xorshift64) -> String {
    let sizes = ["1", "2", "4", "8"];
    let (d, a, b) = (gr(rng), gr(rng), gr(rng));
    let imm9 = rng.below(512) as i64 - 256;
    match rng.below(26) {
        0 | 1 => {
            let c = pick(rng, &["", ".acq", ".bias"]);
            format!("ld{}{c} {d}=[{a}],{}", pick(rng, &sizes), imm9)
        }
        2 => format!("ld{} {d}=[{a}],{b}", pick(rng, &sizes)),
        3 => format!("ld{} {d}=[{a}]", pick(rng, &sizes)),
        4 => format!("ld8.fill {d}=[{a}],{imm9}"),
        5 => format!("ld8.fill {d}=[{a}]"),
        6 | 7 => {
            let c = pick(rng, &["", ".rel"]);
            format!("st{}{c} [{a}]={b},{imm9}", pick(rng, &sizes))
        }
        8 => format!("st{} [{a}]={b}", pick(rng, &sizes)),
        9 => format!("st8.spill [{a}]={b},{imm9}"),
        10 => format!("st8.spill [{a}]={b}"),
        11 => {
            let r = pick(rng, &["bsp", "bspstore", "rnat", "itc", "rsc", "k0", "k6", "unat", "fpsr", "ccv", "csd"]);
            format!("mov {d}=ar.{r}")
        }
        12 => format!("mov {d}=ar.{}", pick(rng, &["pfs", "lc", "ec"])),
        13 => {
            let r = pick(rng, &["bsp", "bspstore", "rnat", "itc", "rsc", "k1", "k7", "unat", "fpsr", "ccv", "ssd"]);
            if rng.below(3) == 0 {
                format!("mov ar.{r}={}", rng.below(256) as i64 - 128)
            } else {
                format!("mov ar.{r}={a}")
            }
        }
        14 => format!("mov ar.{}={a}", pick(rng, &["pfs", "lc", "ec"])),
        15 => {
            let r = pick(rng, &["ipsr", "iip", "ifs", "iim", "iva", "dcr", "tpr", "itm", "ivr", "irr0", "lid"]);
            format!("mov {d}=cr.{r}")
        }
        16 => {
            let r = pick(rng, &["ipsr", "iip", "ifs", "iha", "iva", "dcr", "tpr", "itm", "eoi", "lid"]);
            format!("mov cr.{r}={a}")
        }
        17 => match rng.below(4) {
            0 => format!("mov {d}=b{}", rng.below(8)),
            1 => format!("mov b{}={a}", rng.below(8)),
            2 => format!("mov {d}=pr"),
            _ => format!("mov pr={a},{}", rng.below(0x2_0000) as i64 - 0x1_0000),
        },
        18 => match rng.below(3) {
            0 => format!("mov {d}=ip"),
            1 => format!("movl {d}={:#x}", rng.next_u64()),
            _ => format!("mov pr.rot={:#x}", (rng.next_u64() & 0xFFF_FFFF_FFFF) << 16),
        },
        19 => {
            let m = pick(rng, &["ssm", "rsm", "sum", "rum"]);
            let bits = if m.ends_with("um") { rng.below(0x40) } else { rng.below(0x100_0000) };
            format!("{m} {bits:#x}")
        }
        20 => pick(rng, &["srlz.d", "srlz.i", "invala", "mf", "sync.i", "mf.a"]).to_string(),
        21 | 22 => {
            let (p1, p2) = (rng.below(64), if rng.below(8) == 0 { 0 } else { rng.below(64) });
            let rel = pick(rng, &["eq", "ne", "lt", "ltu", "le", "gt", "geu", "eq.unc", "lt.unc", "ne.and"]);
            let w = pick(rng, &["cmp", "cmp4"]);
            if rng.below(3) == 0 {
                format!("{w}.{rel} p{p1},p{p2}={},{b}", rng.below(256) as i64 - 128)
            } else {
                format!("{w}.{rel} p{p1},p{p2}={a},{b}")
            }
        }
        23 => {
            let pos = rng.below(64);
            let len = 1 + rng.below(64 - pos);
            format!("{} {d}={a},{pos},{len}", pick(rng, &["extr", "extr.u"]))
        }
        24 => {
            let pos = rng.below(64);
            if rng.below(2) == 0 {
                format!("dep.z {d}={a},{pos},{}", 1 + rng.below(64 - pos))
            } else {
                format!("dep {d}={a},{b},{pos},{}", 1 + rng.below(16))
            }
        }
        _ => {
            let f = |rng: &mut Xorshift64| if rng.below(6) == 0 { rng.below(2) } else { rng.below(128) };
            let (fd, fa, fb) = (f(rng), f(rng), f(rng));
            format!("{} f{fd}=f{fa},f{fb}", pick(rng, &["fmerge.s", "fmerge.ns", "fmerge.se"]))
        }
    }
}

/// The instructions of `line` (nops dropped), or `None` when the assembler refuses it (a
/// random combination no form has, such as an I-unit-only AR with an immediate).
fn instructions(line: &str) -> Option<Vec<Exec>> {
    let src = format!("\t.text\n\t{line}\n\t;;\n");
    let a = assemble("sys.S", &src, &PreprocessOptions::new(), &FsLoader).ok()?;
    let code: Vec<u8> =
        a.image.sections.iter().filter(|s| s.kind == SectionKind::Code).flat_map(|s| s.data.clone()).collect();
    let region = predecode(0x4000, &code);
    let execs: Vec<Exec> = region
        .bundles
        .iter()
        .flat_map(|b| b.slots.iter())
        .filter_map(|s| match s {
            SlotRec::Insn(e) if !e.nop => Some(*e),
            _ => None,
        })
        .collect();
    (!execs.is_empty()).then_some(execs)
}

/// An address for a base register: mostly aligned in the writable region, sometimes
/// misaligned, read-only, at the edge of a page or of the region, or unmapped.
fn address(rng: &mut Xorshift64) -> u64 {
    match rng.below(10) {
        0..=5 => RW_BASE + (rng.below(RW_SIZE / 8) * 8),
        6 => RW_BASE + rng.below(RW_SIZE),
        7 => RO_BASE + rng.below(RO_SIZE / 8) * 8,
        8 => RW_BASE + RW_SIZE - 8 + rng.below(8),
        _ => [0u64, 0x8000, 0x13000, rng.next_u64()][rng.below(4) as usize],
    }
}

/// A random state and memory: a frame of random size, register values that are often
/// addresses, NaTs, random ARs, CRs, predicates, branch and FP registers, and a PSR that
/// is usually cpl 0 with interruption collection off.
fn random_machine(rng: &mut Xorshift64) -> (State, Memory) {
    let endian = if rng.below(6) == 0 { Endian::Big } else { Endian::Little };
    let mut mem = Memory::new(endian);
    mem.map(RW_BASE, RW_SIZE, Perms::RW, "data").expect("map data");
    mem.map(RO_BASE, RO_SIZE, Perms::READ, "ro").expect("map ro");
    mem.map(0x0006_0000, 0x1_0000, Perms::RW, "rbs").expect("map rbs");
    let mut bytes = vec![0u8; RW_SIZE as usize];
    bytes.iter_mut().for_each(|b| *b = rng.next_u64() as u8);
    mem.write_bytes(RW_BASE, &bytes).expect("fill data");

    let mut st = State::new();
    st.gr.set_bspstore(0x0006_0000 + rng.below(0x100) * 8);
    let sof = 8 + rng.below(60) as u8;
    st.gr.alloc(sof, sof / 2, 0, &mut mem).expect("alloc");
    let mut psr = Psr::from_bits_retain(rng.next_u64() & 0x0000_0010_0FFF_FFFF & !Psr::IC.bits());
    if rng.below(4) == 0 {
        psr.insert(Psr::IC);
    }
    psr = psr.with_cpl(if rng.below(5) == 0 { 3 } else { 0 });
    st.psr = psr;
    st.gr.set_bank(st.psr.bank());
    for r in (1..32).chain(32..32 + sof) {
        let v = if rng.below(2) == 0 { address(rng) } else { rng.next_u64() };
        st.gr.write(r, v, rng.below(12) == 0).expect("in the frame");
    }
    for n in 0..128 {
        st.ar[n] = rng.next_u64();
        st.cr[n] = rng.next_u64();
    }
    // RSC.mode decides whether ar.bspstore/ar.rnat may be written.
    st.ar[arch_ia64::state::ar::RSC as usize] = rng.below(16);
    st.ar[arch_ia64::state::ar::EC as usize] &= 0x3F;
    st.pr = rng.next_u64() | 1;
    st.br.iter_mut().for_each(|b| *b = rng.next_u64());
    for f in 2..128 {
        st.fr[f] = Fr { sign: rng.below(2) == 0, exp: rng.below(0x2_0000) as u32, sig: rng.next_u64() };
    }
    st.itc_offset = rng.next_u64();
    if rng.below(12) == 0 {
        st.tlb.enabled = true;
    }
    (st, mem)
}

/// Every mapped byte.
fn memory_image(mem: &Memory) -> Vec<(u64, Vec<u8>)> {
    mem.regions()
        .map(|r| {
            let mut bytes = vec![0u8; r.size as usize];
            mem.peek_bytes(r.base, &mut bytes).expect("mapped");
            (r.base, bytes)
        })
        .collect()
}

/// The handler's name (its variant), for the coverage count.
fn kind(s: &Special) -> String {
    let text = format!("{s:?}");
    text.split([' ', '{', '(']).next().unwrap_or_default().to_string()
}

#[test]
fn specialised_system_forms_match_the_generic_semantics() {
    let mut rng = Xorshift64::new(0x5157_F0A5);
    let mut covered: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut cases = 0u64;
    let mut lines = 0;
    while lines < 2500 {
        let line = random_line(&mut rng);
        let Some(execs) = instructions(&line) else { continue };
        lines += 1;
        for e in execs {
            for _ in 0..4 {
                let (st, mem) = random_machine(&mut rng);
                let ctx = Ctx { ip: 0x4000, slot: 0, itc: rng.next_u64(), gate: (0, 0) };
                let (mut sa, mut ma) = (st.clone(), mem.clone());
                let (mut sb, mut mb) = (st, mem);
                let before = format!("{sa:?}");
                let ra = execute(&mut sa, &mut ma, &e, &ctx);
                let rb = execute_generic(&mut sb, &mut mb, &e, &ctx);
                let what = format!("`{line}` ({:?}, {:?})", e.op, e.special);
                assert_eq!(ra, rb, "{what}: outcome");
                let (a, b) = (format!("{sa:?}"), format!("{sb:?}"));
                assert!(a == b, "{what}: state differs\nspecialised: {a}\ngeneric:     {b}\nbefore:      {before}");
                assert!(memory_image(&ma) == memory_image(&mb), "{what}: memory differs");
                let c = covered.entry(kind(&e.special)).or_default();
                c.0 += 1;
                c.1 += u64::from(ra.is_ok());
                cases += 1;
            }
        }
    }
    // Every handler ran, and ran its common case (a completed instruction) often.
    for k in [
        "Load",
        "Store",
        "MovFromAr",
        "MovToAr",
        "MovToArImm",
        "MovFromCr",
        "MovToCr",
        "MovFromBr",
        "MovToBr",
        "MovFromPr",
        "MovToPr",
        "MovFromIp",
        "Movl",
        "PsrMask",
        "Nothing",
        "Invala",
        "Cmp",
        "CmpImm",
        "Extr",
        "DepZ",
        "Dep",
        "Fmerge",
    ] {
        let (n, ok) = covered.get(k).copied().unwrap_or_default();
        assert!(n >= 40 && ok >= 10, "handler {k}: {n} cases, {ok} completed ({covered:?})");
    }
    assert!(cases > 8000, "{cases} cases");
    if std::env::var("DIFF_DEBUG").is_ok() {
        eprintln!("{cases} cases: {covered:?}");
    }
}
