//! Fuzz target `run_x86`: the bytes through [`acctemu::fuzzing::run_x86`], the function the
//! regression tests in `tests/fuzz_regressions.rs` call on every input committed under
//! `tests/fuzz-regressions/run_x86/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = acctemu::fuzzing::run_x86(data);
});
