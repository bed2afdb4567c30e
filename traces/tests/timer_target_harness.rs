//! The committed timer-target harness is the generator's 1 + 39 CPU machine on CPU 2, so the
//! catalogue entry and the CPU-count sweeps describe the same machine. `ACCTEMU_BLESS=1`
//! rewrites the committed file from the generator.

use std::path::Path;

#[test]
fn committed_harness_is_the_generators_40_cpu_machine() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("x86/harness/timer-target.toml");
    let generated = traces::timer_target::harness(40, 2).expect("40 CPUs is in range");
    if std::env::var("ACCTEMU_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("write the harness");
    }
    let committed = std::fs::read_to_string(&path).expect("committed harness");
    assert_eq!(
        committed, generated,
        "regenerate with ACCTEMU_BLESS=1 cargo test -p traces --test timer_target_harness"
    );
}

#[test]
fn generated_harnesses_parse_for_every_cpu_count() {
    for n in 2..=256 {
        let this = if n > 2 { 2 } else { 1 };
        let text = traces::timer_target::harness(n, this).expect("in range");
        emu_core::harness::Harness::parse("timer-target.toml", &text).unwrap_or_else(|e| panic!("{n} CPUs: {e}"));
    }
    assert!(traces::timer_target::harness(1, 0).is_none());
    assert!(traces::timer_target::harness(300, 2).is_none());
}
