//! Execution proof for the IA-64 core.

use arch_ia64::run::{run_source, RunConfig};

#[test]
fn probe() {
    let r = run_source("p.S", "\t.text\nf:\n\tmov r8=ip\n\tbr.ret.sptk.many b0 ;;\n", &RunConfig::default()).unwrap();
    println!("{:#?}", r.snapshot);
}
