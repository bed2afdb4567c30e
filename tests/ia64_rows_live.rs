//! Every row of the IA-64 table, live against GNU as and objdump: each row that is not
//! assembler-only gets several synthesised instances (boundary and random operand values,
//! every completer spelling, predicated and not), all rows in one source file. GNU as 2.40
//! `-x` and our assembler must give the same bytes for every instance, and our
//! disassembler must print GNU as's object exactly as `objdump -d` does.
//!
//! A row that cannot match for a recorded reason is listed in
//! `tests/corpus/ia64/rows-live-exempt.txt` (`row key -- reason`); an exemption for a row
//! that now matches fails the test, so the list stays true. Runs only where the oracles are
//! installed (and must, when `ACCTEMU_REQUIRE_ORACLES=1`).

mod common;
#[path = "ia64_rows_live/synth.rs"]
mod synth;

use arch_ia64::asm::assemble;
use arch_ia64::table::{table, Flags};
use arch_ia64::{disasm, elf};
use emu_core::image::Image;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::process::Command;
use synth::Instance;

/// The key naming a row in the exemption list: mnemonic template, format and operand kinds
/// (unique per row, as the table test checks).
fn row_key(idx: usize) -> String {
    let f = &table().forms[idx];
    let kinds = |ks: &[arch_ia64::table::OpKind]| ks.iter().map(|k| format!("{k:?}")).collect::<Vec<_>>().join(",");
    format!("{} {} {}={}", f.name.replace("{}", "*"), f.format, kinds(f.outs), kinds(f.ins))
}

/// The source holding `insts`, and the line of each instance's instruction.
fn source(insts: &[&Instance]) -> (String, Vec<u32>) {
    // Some room before the first instance for targets a few bundles back.
    let mut src = String::from("\t.text\nPAD:\n");
    for _ in 0..8 {
        src.push_str("\tnop.m 0\n\tnop.m 0\n\tnop.i 0\n\t;;\n");
    }
    let mut lines = Vec::new();
    for inst in insts {
        // A label starts a bundle, so each instance has bundles of its own.
        let _ = write!(src, "{}:\n\t{}\n\t;;\n", inst.label, inst.text);
        lines.push(src.lines().count() as u32 - 1);
    }
    src.push_str("END:\n\tnop.m 0\n\t;;\n");
    (src, lines)
}

/// The lines GNU as reports errors on, with the message.
fn gas_errors(stderr: &str) -> BTreeMap<u32, String> {
    stderr
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("rows.S:")?;
            let (line, msg) = rest.split_once(':')?;
            let msg = msg.trim();
            msg.starts_with("Error:").then(|| (line.parse().ok(), msg.to_string()))
        })
        .filter_map(|(line, msg)| Some((line?, msg)))
        .collect()
}

/// Each label's byte range in the `.text` of `image` (from its address to the next label).
fn ranges(image: &Image) -> BTreeMap<String, (usize, usize)> {
    let Some((idx, text)) = image.sections.iter().enumerate().find(|(_, s)| s.name == ".text") else {
        return BTreeMap::new();
    };
    let mut syms: Vec<(u64, &str)> = image
        .symbols
        .iter()
        .filter(|s| s.section == Some(idx))
        .map(|s| (s.value - text.addr, s.name.as_str()))
        .collect();
    syms.sort();
    let mut out = BTreeMap::new();
    for (i, (at, name)) in syms.iter().enumerate() {
        let end = syms.get(i + 1).map_or(text.data.len() as u64, |n| n.0);
        out.insert(name.to_string(), (*at as usize, end as usize));
    }
    out
}

fn text_of(image: &Image) -> &[u8] {
    image.sections.iter().find(|s| s.name == ".text").map_or(&[], |s| s.data.as_slice())
}

/// objdump text cut at the `ADDR <label>:` headers, by label.
fn by_label(dump: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::<String, String>::new();
    let mut cur = None;
    for line in dump.lines() {
        if let Some(name) = line.strip_suffix(">:").and_then(|l| l.split_once(" <")).map(|(_, n)| n.to_string()) {
            cur = Some(name);
            continue;
        }
        if let Some(name) = &cur {
            let seg = out.entry(name.clone()).or_default();
            seg.push_str(line);
            seg.push('\n');
        }
    }
    out
}

/// What became of one row.
#[derive(Default)]
struct RowResult {
    /// Instances GNU as accepted.
    accepted: usize,
    /// Disagreements with GNU as (acceptance or bytes), one line each.
    asm: Vec<String>,
    /// Disagreements with objdump, one line each.
    dis: Vec<String>,
}

#[test]
#[allow(clippy::too_many_lines)] // one pipeline: synthesise, two assemblers, two disassemblers, tally
fn every_row_matches_gnu_as_and_objdump() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let Some(objdump) = common::oracle("ia64-linux-gnu-objdump") else { return };
    let dir = std::env::temp_dir().join(format!("acctemu-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");

    let rows: Vec<usize> = (0..table().forms.len()).filter(|&i| !table().forms[i].flags.has(Flags::ASM_ONLY)).collect();
    let all: Vec<Instance> = rows.iter().flat_map(|&i| synth::instances(i, &table().forms[i], &row_key(i))).collect();
    let mut results: BTreeMap<usize, RowResult> = rows.iter().map(|&i| (i, RowResult::default())).collect();

    // Drop what either assembler refuses until both accept the file; a refusal by one side
    // only is a disagreement of that instance's row.
    let mut live: Vec<&Instance> = all.iter().collect();
    let mut gas_rejected: Vec<(&Instance, String)> = Vec::new();
    let (gas_obj, ours) = loop {
        let (src, lines) = source(&live);
        std::fs::write(dir.join("rows.S"), &src).expect("write source");
        let out = Command::new(&gas)
            .args(["-x", "rows.S", "-o", "rows.o"])
            .current_dir(&dir)
            .env("LC_ALL", "C")
            .output()
            .expect("run gas");
        let errors = gas_errors(&String::from_utf8_lossy(&out.stderr));
        if !out.status.success() {
            assert!(
                !errors.is_empty(),
                "GNU as failed without a located error:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let mut keep = Vec::new();
            for (inst, line) in live.iter().zip(&lines) {
                match errors.get(line) {
                    Some(msg) => gas_rejected.push((inst, msg.clone())),
                    None => keep.push(*inst),
                }
            }
            assert!(keep.len() < live.len(), "GNU as errors on no instance line:\n{errors:?}");
            live = keep;
            continue;
        }
        match assemble("rows.S", &src, &PreprocessOptions::new(), &FsLoader) {
            Ok(a) => break (std::fs::read(dir.join("rows.o")).expect("gas object"), a),
            Err(e) => {
                let bad: BTreeSet<u32> = e.0.iter().map(|d| d.loc.line).collect();
                let mut keep = Vec::new();
                for (inst, line) in live.iter().zip(&lines) {
                    if bad.contains(line) {
                        let msg =
                            e.0.iter().find(|d| d.loc.line == *line).map(|d| d.message.clone()).unwrap_or_default();
                        results
                            .get_mut(&inst.row)
                            .expect("row")
                            .asm
                            .push(format!("`{}`: GNU as accepts, we reject: {msg}", inst.text));
                    } else {
                        keep.push(*inst);
                    }
                }
                assert!(keep.len() < live.len(), "our assembler errors on no instance line:\n{e}");
                live = keep;
            }
        }
    };

    // Instances GNU as refuses must be refused by us too.
    for (inst, msg) in &gas_rejected {
        let src = format!("\t.text\n{}:\n\t{}\n\t;;\n", inst.label, inst.text);
        if assemble("one.S", &src, &PreprocessOptions::new(), &FsLoader).is_ok() {
            results
                .get_mut(&inst.row)
                .expect("row")
                .asm
                .push(format!("`{}`: GNU as rejects ({msg}), we accept", inst.text));
        }
    }

    // Bytes, label by label.
    let gas_image = elf::load(&gas_obj).expect("GNU as object loads");
    let (gas_text, gas_ranges) = (text_of(&gas_image), ranges(&gas_image));
    let ours_text = ours.object.iter().find(|s| s.name == ".text").map_or(&[][..], |s| s.data.as_slice());
    let ours_ranges = ranges(&ours.image);
    for inst in &live {
        let r = results.get_mut(&inst.row).expect("row");
        r.accepted += 1;
        let want = gas_ranges.get(&inst.label).and_then(|&(a, e)| gas_text.get(a..e));
        let got = ours_ranges.get(&inst.label).and_then(|&(a, e)| ours_text.get(a..e));
        if want != got {
            r.asm.push(format!("`{}`: bytes differ: GNU as {:02x?}, ours {:02x?}", inst.text, want, got));
        }
    }

    // Disassembly of GNU as's object, label by label.
    let out = Command::new(&objdump)
        .args(["-d", "rows.o"])
        .current_dir(&dir)
        .env("LC_ALL", "C")
        .output()
        .expect("run objdump");
    assert!(out.status.success(), "objdump -d failed");
    let want = by_label(&String::from_utf8_lossy(&out.stdout));
    let got = by_label(&disasm::objdump("rows.o", &gas_image));
    for inst in &live {
        let (w, g) = (want.get(&inst.label), got.get(&inst.label));
        if w != g {
            let r = results.get_mut(&inst.row).expect("row");
            r.dis.push(format!("`{}`:\n    objdump: {:?}\n    ours:    {:?}", inst.text, w, g));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    check_against_exemptions(&results, all.len(), live.len(), gas_rejected.len());
}

/// Prints the totals and fails on any row that differs without an exemption, and on any
/// exemption whose row now matches.
fn check_against_exemptions(results: &BTreeMap<usize, RowResult>, instances: usize, live: usize, rejected: usize) {
    let exempt = common::exemption_keys("rows-live-exempt.txt");
    let asm_ok = results.values().filter(|r| r.accepted > 0 && r.asm.is_empty()).count();
    let dis_ok = results.values().filter(|r| r.accepted > 0 && r.dis.is_empty()).count();
    eprintln!(
        "rows total {}, GNU-as-identical {asm_ok}, objdump-identical {dis_ok}; instances {instances}, \
         assembled by both {live}, refused by GNU as {rejected}",
        results.len()
    );
    let mut unexplained = Vec::new();
    let mut stale = Vec::new();
    let keys: BTreeSet<String> = results.keys().map(|&i| row_key(i)).collect();
    for (&idx, r) in results {
        let key = row_key(idx);
        let ok = r.accepted > 0 && r.asm.is_empty() && r.dis.is_empty();
        match (ok, exempt.contains(key.as_str())) {
            (false, false) => {
                let mut why: Vec<String> = r.asm.iter().chain(&r.dis).take(3).cloned().collect();
                if r.accepted == 0 && why.is_empty() {
                    why.push("GNU as refused every instance".to_string());
                }
                unexplained.push(format!("{key}\n  {}", why.join("\n  ")));
            }
            (true, true) => stale.push(key),
            _ => {}
        }
    }
    let unknown: Vec<&String> = exempt.iter().filter(|k| !keys.contains(*k)).collect();
    assert!(
        unexplained.is_empty(),
        "{} rows differ from GNU as/objdump with no reason in tests/corpus/ia64/rows-live-exempt.txt:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(stale.is_empty(), "exempted rows that now match (remove them):\n{}", stale.join("\n"));
    assert!(unknown.is_empty(), "exemptions naming no row of the table: {unknown:?}");
    let both_ok = results.values().filter(|r| r.accepted > 0 && r.asm.is_empty() && r.dis.is_empty()).count();
    assert_eq!(both_ok + exempt.len(), results.len(), "matching rows plus exemptions must be all rows");
}

// Quirks the live test found, checked without the oracles (each compared with GNU as 2.40
// and objdump when it was found).

fn text_bytes(src: &str) -> Result<Vec<u8>, String> {
    let a = assemble("q.S", src, &PreprocessOptions::new(), &FsLoader).map_err(|e| e.to_string())?;
    Ok(a.object.iter().find(|s| s.name == ".text").map(|s| s.data.clone()).unwrap_or_default())
}

#[test]
fn mov_to_br_tag_is_checked_as_a_displacement_not_an_address() {
    // The tag's range (4 KiB) applies to the distance from the bundle; a label past 4 KiB
    // used to be refused as out of range.
    let near = text_bytes("\t.text\nL:\n\tmov b6=r2,L\n\t;;\n").expect("at 0");
    let far = text_bytes("\t.text\n\t.skip 0x2000\nL:\n\tmov b6=r2,L\n\t;;\n").expect("past 4 KiB");
    assert_eq!(far.get(0x2000..), Some(&near[..]));
}

#[test]
fn explicit_unit_ar_moves_must_reach_the_ar() {
    let m_only = text_bytes("\t.text\n\tmov.i ar.k0=r1\n\t;;\n").expect_err("ar.k0 is M-unit only");
    assert!(m_only.contains("AR 0 can only be accessed by M-unit"), "{m_only}");
    let i_only = text_bytes("\t.text\n\tmov.m r1=ar.lc\n\t;;\n").expect_err("ar.lc is I-unit only");
    assert!(i_only.contains("AR 65 can only be accessed by I-unit"), "{i_only}");
    assert!(text_bytes("\t.text\n\tmov.m ar.k0=r1\n\tmov.i r1=ar.lc\n\t;;\n").is_ok());
}

#[test]
fn hint_m_takes_19_bits_split_like_gas() {
    // gas 2.40 places hint.m's 19 bits at slot bits 6-9, 12-25 and 36 (not M48's contiguous
    // imm21), and objdump reads them back the same way. Bytes from `ia64-linux-gnu-as -x`.
    let want: [u8; 32] = [
        0x08, 0x78, 0xfe, 0xff, 0x01, 0x02, 0x00, 0x04, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, //
        0x01, 0x78, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
    ];
    let got = text_bytes("\t.text\n\thint.m 524287\n\thint.m 16\n\thint.m 15\n\t;;\n").expect("assembles");
    assert_eq!(got, want);
    let text = disasm::disassemble_bytes(&want, 0);
    for v in ["hint.m 524287", "hint.m 16", "hint.m 15"] {
        assert!(text.contains(v), "{v} in\n{text}");
    }
    let e = text_bytes("\t.text\n\thint.m 0x80000\n\t;;\n").expect_err("20 bits");
    assert!(e.contains("0..0x7ffff"), "{e}");
}

#[test]
fn objdump_address_column_keeps_one_leading_zero() {
    // objdump drops leading zero digits four at a time but keeps one zero: a section ending
    // at 0x1010 prints 8 digits wide (`    1000:`), one ending at 0x0ff0 4 wide.
    let nop = [0x08, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4, 0];
    let wide = disasm::disassemble_bytes(&nop, 0x1000);
    assert!(wide.starts_with("    1000:\t"), "{wide}");
    let narrow = disasm::disassemble_bytes(&nop, 0xfe0);
    assert!(narrow.starts_with(" fe0:\t"), "{narrow}");
}
