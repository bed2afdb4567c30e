//! Emulated instructions per second of the IA-64 core on small loops, with the Itanium 2
//! timing model on and off. Run with `cargo bench --bench ia64_loop`. (Throughput is
//! measured here, never asserted by a test.)

use arch_ia64::asm::assemble;
use arch_ia64::run::{prepare, RunConfig};
use emu_core::cpu::{Cpu, StopWhen};
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use std::time::Instant;

/// An ALU loop: three bundles of integer work per iteration, counted by ar.lc.
const ALU_LOOP: &str = "
	.text
	.proc alu
alu:
	mov ar.lc=r14
	;;
1:	add r8=r8,r9
	add r9=r9,r10
	add r10=r10,r11
	;;
	add r11=r11,r8
	shladd r15=r8,2,r9
	xor r16=r15,r10
	;;
	adds r17=1,r17
	br.cloop.sptk.few 1b
	;;
	br.ret.sptk.many b0
	;;
	.endp alu
";

/// A load/store/call loop: a call to a leaf that loads, adds and stores through the stack.
const MEM_LOOP: &str = "
	.text
	.proc mem
mem:
	alloc r32=ar.pfs,0,2,0,0
	mov r33=b0
	mov ar.lc=r14
	;;
1:	br.call.sptk.many b0=leaf
	;;
	br.cloop.sptk.few 1b
	;;
	mov b0=r33
	mov ar.pfs=r32
	br.ret.sptk.many b0
	;;
	.endp mem
	.proc leaf
leaf:
	ld8 r8=[r12]
	adds r9=8,r12
	;;
	ld8 r10=[r9]
	add r8=r8,r11
	;;
	st8 [r12]=r8
	st8 [r9]=r10
	br.ret.sptk.many b0
	;;
	.endp leaf
";

fn measure(name: &str, src: &str, iterations: u64, timing: bool) {
    let asm = assemble(name, src, &PreprocessOptions::new(), &FsLoader).expect("bench program assembles");
    let cfg = RunConfig { timing, sets: vec![("r14".into(), iterations.to_string())], ..RunConfig::default() };
    let (mut machine, _) = prepare(&asm.image, &cfg).expect("bench program runs");
    let stop = StopWhen { on_sentinel: true, on_rfi: true, on_interruption: true, max_insns: u64::MAX };
    let start = Instant::now();
    let reason = machine.run(&stop).expect("bench program completes");
    let secs = start.elapsed().as_secs_f64();
    let insns = machine.cpu.instructions();
    let cycles = machine.cpu.cycles();
    println!(
        "{name:<5} timing {:<3}  {insns:>11} insns  {cycles:>11} cycles  {secs:>7.3} s  {:>8.1} M insns/s  {:>8.1} M cycles/s  ({reason})",
        if timing { "on" } else { "off" },
        insns as f64 / secs / 1e6,
        cycles as f64 / secs / 1e6,
    );
}

fn main() {
    let n: u64 = std::env::var("ACCTEMU_BENCH_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(3_000_000);
    for timing in [false, true] {
        measure("alu", ALU_LOOP, n, timing);
        measure("mem", MEM_LOOP, n, timing);
    }
}
