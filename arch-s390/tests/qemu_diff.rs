//! Differential tests of the unprivileged instructions against qemu-s390x: r2, the condition
//! code and the scratch buffer after every case of tests/data/cases.c must match exactly.

mod common;

use common::{build, data_dir, emulate, mismatches, oracles, qemu, unhex};

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_agree(image: &emu_core::image::Image, want: &[u8], got: &[u8]) {
    let bad = mismatches(image, &[], want, got);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The committed program against the committed qemu results: no tools needed.
#[test]
fn committed_program_matches_committed_qemu_results() {
    let elf = read("ops.elf");
    let want = unhex(&String::from_utf8_lossy(&read("ops.expected")));
    let (image, got) = emulate(&elf);
    assert!(want.len() > 900 * 16, "expected results look truncated");
    assert_agree(&image, &want, &got);
    // The comparison is not vacuous: a changed CC in case 1 and a changed buffer byte show up.
    let mut bad = want.clone();
    if let Some(b) = bad.get_mut(31) {
        *b ^= 1;
    }
    if let Some(b) = bad.last_mut() {
        *b ^= 0x80;
    }
    let found = mismatches(&image, &[], &bad, &got);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.first().is_some_and(|m| m.contains("f_add(0x1, 0x1")), "{found:?}");
}

/// Live: qemu on the committed program still gives the committed results, and a fresh build
/// of the sources runs identically under qemu and acctemu.
#[test]
fn live_qemu_comparison() {
    let Some((gcc, qemu_bin)) = oracles() else { return };
    let committed = data_dir().join("ops.elf");
    let want = unhex(&String::from_utf8_lossy(&read("ops.expected")));
    assert!(qemu(&qemu_bin, &committed) == want, "ops.expected is stale: rerun tests/data/build.sh");
    let dir = std::env::temp_dir().join(format!("acctemu-s390-diff-{}", std::process::id()));
    assert!(std::fs::create_dir_all(&dir).is_ok());
    let fresh = dir.join("ops.elf");
    build(&gcc, &fresh);
    let want = qemu(&qemu_bin, &fresh);
    let elf = std::fs::read(&fresh).unwrap_or_default();
    let (image, got) = emulate(&elf);
    let _ = std::fs::remove_dir_all(&dir);
    assert_agree(&image, &want, &got);
}
