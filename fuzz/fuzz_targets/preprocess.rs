//! Fuzz target `preprocess`: the bytes through [`acctemu::fuzzing::preprocess`], the function the
//! regression tests in `tests/fuzz_regressions.rs` call on every input committed under
//! `tests/fuzz-regressions/preprocess/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = acctemu::fuzzing::preprocess(data);
});
