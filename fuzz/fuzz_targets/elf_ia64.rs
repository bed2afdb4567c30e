//! Fuzz target `elf_ia64`: the bytes through [`acctemu::fuzzing::elf_ia64`], the function the
//! regression tests in `tests/fuzz_regressions.rs` call on every input committed under
//! `tests/fuzz-regressions/elf_ia64/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = acctemu::fuzzing::elf_ia64(data);
});
