//! Random programs through GNU as and through our assembler must give the same `.text`
//! bytes: a live differential check of template choice, slot filling, stops, labels,
//! `.align`, data in code, template directives and encoding together. Runs only where
//! `ia64-linux-gnu-as` is installed (and must, when `ACCTEMU_REQUIRE_ORACLES=1`).

use arch_ia64::asm::assemble;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::rng::Xorshift64;
use std::fmt::Write as _;
use std::process::Command;

mod common;

/// Instructions of every placement class: A, M, I, F, B, X, unit-less (nop/break/chk.s,
/// ar48), must-be-first, must-be-last and slot-2-only.
const INSNS: &[&str] = &[
    "add r8=r9,r10",
    "adds r8=1,r9",
    "cmp.eq p6,p7=r8,r9",
    "mov r8=r9",
    "ld8 r8=[r9],8",
    "st8 [r9]=r8",
    "mov r8=ar.bsp",
    "nop.m 5",
    "extr r8=r9,1,2",
    "shl r8=r9,3",
    "mov ar.lc=r8",
    "mov b6=r8",
    "nop.i 5",
    "fma.s f8=f9,f10,f11",
    "br.ret.sptk.many b0",
    "(p6) br.cond.dptk .Lt",
    "br.call.sptk.many b0=.Lt",
    "nop.b 5",
    "movl r8=0x12345678",
    "brl.call.sptk.many b0=.Lt",
    "nop.x 5",
    "nop 5",
    "break 5",
    "chk.s r8,.Lt",
    "mov ar48=r8",
    "alloc r32=ar.pfs,1,1,0,0",
    "flushrs",
    "loadrs",
    "cover",
    "rfi",
    "bsw.0",
    "br.cloop.sptk.few .Lt",
    "br.ctop.sptk.few .Lt",
];

const TEMPLATES: &[&str] = &[".mii", ".mlx", ".mmi", ".mfi", ".mmf", ".mib", ".mbb", ".bbb", ".mmb", ".mfb"];

fn program(rng: &mut Xorshift64) -> String {
    let mut src = String::from("\t.text\n");
    for n in 0..40 {
        match rng.index(100) {
            0..=21 => src.push_str("\t;;\n"),
            22..=28 => {
                let _ = writeln!(src, "L{n}:");
            }
            29..=30 => {
                let _ = writeln!(src, "\t.align {}", [16, 32, 64][rng.index(3)]);
            }
            31 => src.push_str("\tdata8 0x1111111111111111\n\tdata8 0x2222222222222222\n"),
            32 => src.push_str("\t.section .data\n\tdata8 1\n\t.text\n"),
            33..=35 => {
                let _ = writeln!(src, "\t{}\n\tnop 0", TEMPLATES[rng.index(TEMPLATES.len())]);
            }
            _ => {
                let _ = writeln!(src, "\t{}", INSNS[rng.index(INSNS.len())]);
            }
        }
    }
    src.push_str("\t;;\n.Lt:\n\tnop 0\n");
    src
}

#[test]
fn random_programs_match_gnu_as() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let Some(objcopy) = common::oracle("ia64-linux-gnu-objcopy") else { return };
    let dir = std::env::temp_dir().join(format!("acctemu-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rng = Xorshift64::new(0x9e37_79b9_7f4a_7c15);
    let mut failures = Vec::new();
    let mut rejected = 0;
    for case in 0..300 {
        let src = program(&mut rng);
        let (s, o, b) = (dir.join("p.S"), dir.join("p.o"), dir.join("p.bin"));
        std::fs::write(&s, &src).expect("write source");
        let gas_ok = Command::new(&gas).arg("-x").arg(&s).arg("-o").arg(&o).output().expect("run gas").status.success();
        let ours = assemble("p.S", &src, &PreprocessOptions::new(), &FsLoader);
        match (gas_ok, ours) {
            (false, Err(_)) => rejected += 1,
            (false, Ok(_)) => failures.push(format!("case {case}: GNU as rejects, we accept:\n{src}")),
            (true, Err(e)) => failures.push(format!("case {case}: GNU as accepts, we reject: {e}\n{src}")),
            (true, Ok(a)) => {
                let st = Command::new(&objcopy).args(["-O", "binary", "-j", ".text"]).arg(&o).arg(&b).status();
                assert!(st.is_ok_and(|s| s.success()), "objcopy failed");
                let want = std::fs::read(&b).expect("bin");
                let got = a.object.iter().find(|s| s.name == ".text").map(|s| s.data.clone()).unwrap_or_default();
                if got != want {
                    let at = got.iter().zip(&want).position(|(x, y)| x != y).unwrap_or(got.len().min(want.len()));
                    failures.push(format!("case {case}: bytes differ at 0x{:x}\n{src}", at & !15));
                }
            }
        }
        if failures.len() >= 3 {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most programs must be valid, or the check would prove little.
    assert!(rejected < 30, "{rejected} of 300 random programs were rejected by both assemblers");
}
