//! lfetch.count (Itanium 9500, issue 12 later forms): the operand edges GNU as 2.40 has and the
//! golden corpus cannot hold. Measured with gas 2.40 `-x` and objdump 2.40: a stride that is not
//! a multiple of 64 loses its low 6 bits (gas warns, and rounds toward minus infinity: -1 and
//! -63 give -64, 65 and 127 give 64); gas checks the range -1024..960 on the written value
//! first, so 961 and -1025 are refused; counts run 1..64.

use arch_ia64::asm::assemble;
use emu_core::preprocess::{FsLoader, PreprocessOptions};

fn text_of(line: &str) -> Result<Vec<u8>, String> {
    let src = format!("\t.text\n\t{line}\n\t;;\n");
    let a = assemble("lc.S", &src, &PreprocessOptions::new(), &FsLoader).map_err(|e| e.to_string())?;
    Ok(a.object.iter().find(|s| s.name == ".text").map(|s| s.data.clone()).unwrap_or_default())
}

#[test]
fn strides_lose_their_low_six_bits_as_gas_drops_them() {
    for (written, kept) in [(1, 0), (63, 0), (65, 64), (127, 64), (-1, -64), (-63, -64), (-65, -128), (959, 896)] {
        let got = text_of(&format!("lfetch.count [r3],1,{written}")).expect("assembles");
        let want = text_of(&format!("lfetch.count [r3],1,{kept}")).expect("assembles");
        assert_eq!(got, want, "stride {written}");
    }
}

/// gas 2.40: `lc.s:1: Warning: stride must be a multiple of 64; lower 6 bits ignored`, once
/// per instruction whose stride has low bits, none for a multiple of 64.
#[test]
fn an_unaligned_stride_is_warned_about_as_gas_does() {
    let warnings = |line: &str| -> Vec<String> {
        let src = format!("\t.text\n\t{line}\n\t;;\n");
        let a = assemble("lc.S", &src, &PreprocessOptions::new(), &FsLoader).expect("assembles");
        a.warnings.iter().map(|d| d.message.clone()).collect()
    };
    assert_eq!(warnings("lfetch.count [r3],4,100"), ["stride must be a multiple of 64; lower 6 bits ignored"]);
    assert_eq!(warnings("lfetch.count [r3],4,-1"), ["stride must be a multiple of 64; lower 6 bits ignored"]);
    assert!(warnings("lfetch.count [r3],4,128").is_empty());
    assert!(warnings("lfetch.count.nt1 [r3],4,-1024").is_empty());
}

#[test]
fn out_of_range_counts_and_strides_are_refused() {
    for (line, what) in [
        ("lfetch.count [r3],0,64", "lfetch count"),
        ("lfetch.count [r3],65,64", "lfetch count"),
        ("lfetch.count [r3],1,961", "lfetch stride"),
        ("lfetch.count [r3],1,-1025", "lfetch stride"),
        ("lfetch.count [r3],1,4096", "lfetch stride"),
    ] {
        match text_of(line) {
            Ok(_) => panic!("`{line}` assembled but gas refuses it"),
            Err(e) => assert!(e.contains(what), "{line}: {e}"),
        }
    }
    // gas has no .excl or .fault count form.
    for line in ["lfetch.count.excl [r3],1,0", "lfetch.count.fault [r3],1,0"] {
        assert!(text_of(line).is_err(), "`{line}` assembled but gas refuses it");
    }
}

#[test]
fn the_edges_are_taken() {
    for line in ["lfetch.count [r3],1,-1024", "lfetch.count [r3],64,960", "(p63) lfetch.count.d7 [r127],64,0"] {
        text_of(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}
