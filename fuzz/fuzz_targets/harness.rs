//! Fuzz target `harness`: the bytes through [`acctemu::fuzzing::harness`], the function the
//! regression tests in `tests/fuzz_regressions.rs` call on every input committed under
//! `tests/fuzz-regressions/harness/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = acctemu::fuzzing::harness(data);
});
