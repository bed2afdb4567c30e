//! The disassembler on random bytes against the live `objdump -d` (issue 12): deterministic
//! random 16-byte bundles (every template, reserved ones included, and arbitrary slot bits) are
//! placed in `.text` as `data8` pairs, assembled by GNU as, and objdump's text of the object is
//! compared with ours line by line, keyed by address. Runs only where the ia64 binutils are
//! installed (and must, when `ACCTEMU_REQUIRE_ORACLES=1`).

use arch_ia64::disasm;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;

mod common;

/// Bundles per run: enough to reach most rows, reserved templates and undecodable slots.
const BUNDLES: usize = 4000;

/// Lines that must agree, measured when the test was written; a change that decodes fewer
/// random bundles as objdump does fails here.
const MIN_IDENTICAL: usize = 12_000;

/// A small deterministic generator (xorshift64), so every run checks the same bundles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The disassembly lines of objdump-style `text` that carry an address, keyed by it.
fn by_address(text: &str) -> BTreeMap<u64, String> {
    text.lines()
        .filter_map(|l| {
            let (addr, _) = l.split_once(":\t")?;
            Some((u64::from_str_radix(addr.trim(), 16).ok()?, l.to_string()))
        })
        .collect()
}

#[test]
fn random_bundles_disassemble_as_objdump_does() {
    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let Some(objdump) = common::oracle("ia64-linux-gnu-objdump") else { return };
    let dir = std::env::temp_dir().join(format!("acctemu-random-bytes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut src = String::from("\t.text\n");
    for _ in 0..BUNDLES {
        let _ = writeln!(src, "\tdata8 0x{:016x}\n\tdata8 0x{:016x}", rng.next(), rng.next());
    }
    let (s, o) = (dir.join("r.S"), dir.join("r.o"));
    std::fs::write(&s, &src).expect("write source");
    let st = Command::new(&gas).arg("-x").arg(&s).arg("-o").arg(&o).status().expect("run gas");
    assert!(st.success(), "GNU as rejected the data8 file");
    let out = Command::new(&objdump).arg("-d").arg(&o).output().expect("run objdump");
    assert!(out.status.success(), "objdump failed");
    let want = by_address(&String::from_utf8_lossy(&out.stdout));
    let bytes = std::fs::read(&o).expect("read object");
    let ours = by_address(&disasm::objdump_object("r.o", &bytes, false).expect("our disassembler reads the object"));
    let _ = std::fs::remove_dir_all(&dir);

    let mut identical = 0;
    let mut differ = Vec::new();
    for (addr, line) in &want {
        match ours.get(addr) {
            Some(l) if l == line => identical += 1,
            got => differ.push(format!("  want: {line:?}\n  got:  {:?}", got.map_or("(no line)", String::as_str))),
        }
    }
    let extra = ours.keys().filter(|a| !want.contains_key(a)).count();
    eprintln!("{identical} of {} objdump lines identical; {extra} lines only ours", want.len());
    // Every bundle gives at least one line per slot it shows, so the check covers them all.
    assert!(want.len() >= 2 * BUNDLES, "only {} objdump lines", want.len());
    assert!(
        identical >= MIN_IDENTICAL && extra == 0,
        "{identical} of {} lines identical (at least {MIN_IDENTICAL} expected), {extra} lines only ours; first \
         differences:\n{}",
        want.len(),
        differ.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
