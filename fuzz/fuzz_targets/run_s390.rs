//! Fuzz target `run_s390`: the bytes through [`acctemu::fuzzing::run_s390`], the function the
//! regression tests in `tests/fuzz_regressions.rs` call on every input committed under
//! `tests/fuzz-regressions/run_s390/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = acctemu::fuzzing::run_s390(data);
});
