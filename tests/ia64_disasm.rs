//! The IA-64 disassembler against the golden corpus: objdump text, re-encoding, a second
//! decoder (yaxpeax-ia64), the live objdump, and robustness against bit flips.

mod common;

use arch_ia64::bundle::{Bundle, SlotUnit};
use arch_ia64::decode::{self, Slot};
use arch_ia64::{disasm, elf, encode, format};
use common::first_diff;
use emu_core::image::{Image, SectionKind};
use emu_core::rng::Xorshift64;

fn load(path: &std::path::Path) -> Image {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    elf::load(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The golden objects the disassembler must reproduce: all of them (`unsupported_forms`
/// holds forms the table has since issue 12).
fn checked_objects() -> Vec<(String, std::path::PathBuf)> {
    common::golden_objects()
}

#[test]
fn objdump_text_matches_every_golden() {
    let mut failures = Vec::new();
    for (stem, path) in checked_objects() {
        let want = std::fs::read_to_string(path.with_extension("objdump")).unwrap_or_default();
        let got = disasm::objdump(&format!("{stem}.o"), &load(&path));
        if want != got {
            failures.push(format!("{stem}: {}", first_diff(&want, &got)));
        }
    }
    assert!(failures.is_empty(), "{} files differ:\n{}", failures.len(), failures.join("\n"));
}

/// Every code bundle of a golden object with its address.
fn code_bundles(image: &Image) -> Vec<(u64, [u8; 16])> {
    let mut out = Vec::new();
    for sec in image.sections.iter().filter(|s| s.kind == SectionKind::Code) {
        for (i, chunk) in sec.data.chunks_exact(16).enumerate() {
            let mut b = [0u8; 16];
            b.copy_from_slice(chunk);
            out.push((sec.addr + 16 * i as u64, b));
        }
    }
    out
}

#[test]
fn every_decoded_bundle_reencodes_to_the_same_bytes() {
    let mut checked = 0;
    for (stem, path) in checked_objects() {
        for (addr, bytes) in code_bundles(&load(&path)) {
            // Data in .text (directives.S) has reserved templates: nothing to re-encode.
            let Ok(bundle) = decode::decode_bundle(bytes) else {
                continue;
            };
            let mut slots = [0u64; 3];
            for (i, slot) in bundle.slots.iter().enumerate() {
                match slot {
                    Slot::Insn(insn) => {
                        let raw =
                            encode::reencode(insn, addr).unwrap_or_else(|e| panic!("{stem} {addr:#x} slot {i}: {e}"));
                        slots[i] = raw.slot;
                        if bundle.template.units()[1] == SlotUnit::L {
                            slots[1] = raw.long;
                        }
                    }
                    Slot::Long => {}
                    Slot::Unknown { bits, .. } => slots[i] = *bits,
                }
            }
            let again = Bundle { template: bundle.template, slots }.to_bytes();
            assert_eq!(again, bytes, "{stem} bundle at {addr:#x} re-encodes differently");
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} bundles checked");
}

#[test]
fn bit_flips_never_panic_the_decoder_or_formatter() {
    // A fixed xorshift sequence keeps the test deterministic.
    let mut rng = Xorshift64::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next_u64();
    let syms = format::NoSymbols;
    for (_, path) in common::golden_objects() {
        for (addr, bytes) in code_bundles(&load(&path)) {
            for _ in 0..8 {
                let mut b = bytes;
                let bit = (next() % 128) as usize;
                b[bit / 8] ^= 1 << (bit % 8);
                for slot in 0..3 {
                    let _ = format::format_raw_slot(b, slot, addr, &syms);
                }
                if let Ok(bundle) = decode::decode_bundle(b) {
                    for slot in bundle.slots.iter() {
                        if let Slot::Insn(insn) = slot {
                            let _ = encode::reencode(insn, addr);
                        }
                    }
                }
                let _ = disasm::disassemble_bytes(&b, addr);
            }
        }
    }
}

#[test]
fn live_objdump_agrees_on_every_golden_object() {
    let Some(tool) = common::oracle("ia64-linux-gnu-objdump") else {
        return;
    };
    let dir = common::root().join("tests/corpus/ia64/golden");
    for (stem, path) in checked_objects() {
        let out = std::process::Command::new(&tool)
            .arg("-d")
            .arg(format!("{stem}.o"))
            .current_dir(&dir)
            .env("LC_ALL", "C")
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", tool.display()));
        assert!(out.status.success(), "{} -d {stem}.o failed", tool.display());
        let want = String::from_utf8_lossy(&out.stdout);
        let got = disasm::objdump(&format!("{stem}.o"), &load(&path));
        assert!(want == got, "{stem}: {}", first_diff(&want, &got));
    }
}

/// What both decoders must agree on for one slot: the predicate, the mnemonic's base
/// name (before the first `.`) and the sorted register operands.
#[derive(Debug, PartialEq, Eq)]
struct Essence {
    qp: u8,
    base: String,
    regs: Vec<String>,
}

fn ours(insn: &decode::Insn) -> Essence {
    use arch_ia64::table::OpClass;
    let form = insn.form();
    let name = form.mnemonic(insn.raw.slot).unwrap_or_default();
    let mut regs: Vec<String> = form
        .operands()
        .filter_map(|k| {
            let v = insn.operand(k, 0);
            match k.spec().class {
                OpClass::Gr | OpClass::Mem => Some(format!("r{v}")),
                OpClass::Fixed("r0") => Some("r0".to_string()),
                OpClass::Fr => Some(format!("f{v}")),
                OpClass::Pr => Some(format!("p{v}")),
                OpClass::Br => Some(format!("b{v}")),
                _ => None,
            }
        })
        .collect();
    regs.sort();
    Essence { qp: insn.qp, base: name.split('.').next().unwrap_or("").to_string(), regs }
}

fn theirs(insn: &yaxpeax_ia64::Instruction) -> Essence {
    use yaxpeax_ia64::Operand;
    let mut regs: Vec<String> = insn
        .operands()
        .iter()
        .filter_map(|op| match op {
            Operand::GPRegister(r) | Operand::Memory(r) => Some(format!("r{}", r.0)),
            Operand::FloatRegister(r) => Some(format!("f{}", r.0)),
            Operand::PredicateRegister(r) => Some(format!("p{}", r.0)),
            Operand::BranchRegister(r) => Some(format!("b{}", r.0)),
            _ => None,
        })
        .collect();
    regs.sort();
    let name = insn.opcode().to_string();
    Essence { qp: insn.predicate(), base: name.split('.').next().unwrap_or("").to_string(), regs }
}

#[test]
fn yaxpeax_agrees_on_mnemonics_and_registers() {
    use yaxpeax_arch::{Decoder, U8Reader};
    let decoder = yaxpeax_ia64::InstDecoder::default();
    let mut diffs = std::collections::BTreeMap::<String, (usize, String)>::new();
    let mut compared = 0;
    let mut yaxpeax_panics = 0;
    for (stem, path) in checked_objects() {
        for (addr, bytes) in code_bundles(&load(&path)) {
            let Ok(ours_b) = decode::decode_bundle(bytes) else {
                continue;
            };
            // yaxpeax-ia64 0.2.1 panics inside bitvec on a few valid bundles (explained
            // difference 1); those bundles are counted, not compared.
            let decoded = std::panic::catch_unwind(|| decoder.decode(&mut U8Reader::new(&bytes)));
            let Ok(Ok(theirs_b)) = decoded else {
                yaxpeax_panics += 1;
                continue;
            };
            let mine: Vec<&decode::Insn> =
                ours_b.slots.iter().filter_map(|s| if let Slot::Insn(i) = s { Some(i) } else { None }).collect();
            for (m, t) in mine.iter().zip(theirs_b.instructions()) {
                let (a, b) = (ours(m), theirs(t));
                compared += 1;
                if a != b && !explained(&a, &b) {
                    let e = diffs.entry(a.base.clone()).or_default();
                    e.0 += 1;
                    e.1 = format!("{stem} {addr:#x}: ours {a:?} yaxpeax {b:?} ({t})");
                }
            }
        }
    }
    assert!(compared > 3000, "only {compared} slots compared ({yaxpeax_panics} bundles yaxpeax could not decode)");
    let report: Vec<String> = diffs.iter().map(|(k, (n, ex))| format!("{k} x{n}: {ex}")).collect();
    assert!(report.is_empty(), "{} unexplained differences:\n{}", report.len(), report.join("\n"));
}

/// Differences between the two decoders, each checked against the SDM and objdump:
/// 1. yaxpeax-ia64 0.2.1 panics (bitvec "Cannot load 8 bits") on some bundles; skipped.
/// 2. `add r1=r2,r3,1` / `sub r1=r2,r3,1` (A1 x4=0/1 with x2b=1) are opcodes `addplusone`
///    and `subminusone` in yaxpeax; objdump and gas call them add/sub with a literal 1.
/// 3. `clrrrb` is spelled `clrrb` by yaxpeax.
/// 4. `shl`/`shr`/`shr.u` by an immediate are objdump's names for dep.z/extr/extr.u;
///    yaxpeax's opcode is the real instruction (its text also shows shl/shr).
/// 5. `mov f1=f3` is objdump's name for `fmerge.s f1=f3,f3`; yaxpeax lists f3 twice.
/// 6. yaxpeax has no opcode for the `.acq` imm9 post-increment loads (M3 x6 0x14-0x17)
///    and returns its placeholder `purple`, with the right registers.
/// 7. yaxpeax decodes `chk.s.i` (I20) with predicate operands and r127 instead of r2;
///    the SDM's I20 has r2 at bits 13-19 and a target, as objdump and gas agree.
/// 8. (multimedia, issue 12) yaxpeax-ia64 0.2.1 decodes the I-unit multimedia forms of major
///    opcode 7 (I2-I4, I6-I8) from shifted tables: `purple`, or another multimedia opcode
///    (pack2 as pshr2, pmin2 as pmpyshr2, pshl2 as a nonexistent pshl1). objdump agrees with our decode of every one
///    (`multimedia.S` goldens and the live objdump test).
/// 9. (issue 12) yaxpeax-ia64 reads the p2 of `tf` (I30) from 7 bits (`p71`); the SDM's p2 is
///    bits 27-32, as objdump shows.
fn explained(ours: &Essence, theirs: &Essence) -> bool {
    const RENAMED: [(&str, &str); 8] = [
        ("add", "addplusone"),
        ("sub", "subminusone"),
        ("clrrrb", "clrrb"),
        ("shl", "dep"),
        ("shr", "extr"),
        ("ld2", "purple"),
        ("ld4", "purple"),
        // yaxpeax-ia64 0.2.1 names ldfs.sa with register update (x6 0x0e, m = 1) "ldfp".
        ("ldfs", "ldfp"),
    ];
    let renamed = RENAMED.contains(&(ours.base.as_str(), theirs.base.as_str()));
    let same_regs = {
        let mut t = theirs.regs.clone();
        t.dedup();
        t == ours.regs
    };
    let fmerge = ours.base == "mov" && theirs.base == "fmerge";
    let chk = ours.base == "chk" && theirs.base == "chk" && theirs.regs.iter().any(|r| r.starts_with('p'));
    // multimedia (issue 12): difference 8.
    const MM_OP7: [&str; 19] = [
        "mix1", "mix2", "mix4", "mux1", "mux2", "pack2", "pack4", "pmax1", "pmax2", "pmin1", "pmin2", "pmpy2", "psad1",
        "pshl2", "pshl4", "pshr4", "unpack1", "unpack2", "unpack4",
    ];
    let mm = MM_OP7.contains(&ours.base.as_str())
        && (theirs.base == "purple"
            || ["pshr2", "pshr4", "pmpyshr2", "pshl1", "pshl4"].contains(&theirs.base.as_str()));
    let tf = ours.base == "tf" && theirs.base == "tf";
    // yaxpeax-ia64 0.2.1 shows ld16's implied ar.csd as an r0 operand (memory forms, issue 12),
    // and as r64 under the hints .d4-.d7, whose third bit is the top bit of that r2 field.
    let ld16 = ours.base == "ld16" && {
        let t: Vec<String> = theirs.regs.iter().filter(|r| *r != "r0" && *r != "r64").cloned().collect();
        t == ours.regs
    };
    ours.qp == theirs.qp
        && ((renamed || fmerge) && same_regs
            || chk
            || mm
            || tf
            || ld16
            || fp_unit_explained(ours, theirs)
            || later_explained(ours, theirs))
}

/// Later forms (issue 12), checked against objdump:
/// 12. yaxpeax-ia64 0.2.1 predates the Itanium 9500's dahr moves: `mov dahrN=imm16`, which
///    lives in hint.m's M48 space (bit 10 set), decodes as hint.m, and `mov r1=dahr[r3]`
///    (M43 x6 0x20) as its placeholder `purple`.
fn later_explained(ours: &Essence, theirs: &Essence) -> bool {
    ours.base == "mov"
        && theirs.regs.is_empty()
        && (theirs.base == "hint" && ours.regs.is_empty() || theirs.base == "purple")
}

/// F unit (issue 12), checked against objdump and the SDM:
/// 10. objdump's pseudo-ops of the F unit (fabs/fneg/fnegabs/fpabs/fpneg/fpnegabs of the
///    merges, fadd/fsub/fmpy/fnmpy/fpmpy/fpnmpy/fnorm of the multiply-adds) are the real
///    instruction in yaxpeax, which lists the pinned f0/f1 operand too.
/// 11. yaxpeax spells frsqrta `frsqta` and has no opcode for fpcmp (its placeholder `purple`).
fn fp_unit_explained(ours: &Essence, theirs: &Essence) -> bool {
    const PSEUDO: [(&str, &str); 13] = [
        ("fabs", "fmerge"),
        ("fneg", "fmerge"),
        ("fnegabs", "fmerge"),
        ("fpabs", "fpmerge"),
        ("fpneg", "fpmerge"),
        ("fpnegabs", "fpmerge"),
        ("fadd", "fma"),
        ("fsub", "fms"),
        ("fmpy", "fma"),
        ("fnmpy", "fnma"),
        ("fpmpy", "fpma"),
        ("fpnmpy", "fpnma"),
        ("fnorm", "fma"),
    ];
    if PSEUDO.contains(&(ours.base.as_str(), theirs.base.as_str())) {
        // Their operands are ours plus the pinned f0/f1 (and f3 again for fneg/fpneg).
        let mut t = theirs.regs.clone();
        return ours.regs.iter().all(|r| {
            let found = t.iter().position(|x| x == r);
            found.map(|i| t.remove(i)).is_some()
        }) && t.iter().all(|r| r == "f0" || r == "f1" || ours.regs.contains(r));
    }
    (ours.base == "frsqrta" && theirs.base == "frsqta" && ours.regs == theirs.regs)
        || (ours.base == "fpcmp" && theirs.base == "purple")
}
