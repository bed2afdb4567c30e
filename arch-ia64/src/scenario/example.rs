//! A miniature accounting kernel with every scenario path bound: the smallest complete
//! example of a trace for [`super::Ia64Scenario`], used by the tests, by the CLI's tests
//! and for throughput measurements. The real traces live in the `traces` crate.

use super::{Accounting, Bindings, End, Ia64Scenario, PathBinding, Start, DEFAULT_PATH_BUDGET};
use crate::asm::assemble;
use crate::run::{prepare, RunConfig, RunError};
use emu_core::error::{Diagnostic, SourceLoc};
use emu_core::harness::Harness;
use emu_core::image::Image;
use emu_core::preprocess::{FsLoader, PreprocessOptions};
use emu_core::scenario::PathKind;

/// A miniature accounting kernel. The user stub's `break` enters at iva+0x2c00, which
/// charges the time since the stamp to utime (task+8), saves iip/ipsr (task+24/32), turns
/// interruption collection back on and branches to `body`. From `body` the exit path
/// charges the kernel time to stime (task+16), restores iip/ipsr and returns with `rfi`.
/// The tick (iva+0x3000) counts a user or system tick (task+40/48) by the interrupted cpl.
pub const PROGRAM: &str = "\t.text
user:
\tnop.m 0
\tnop.i 0
\tbreak.i 0x100000 ;;
user_ret:
\tbr.sptk.many user ;;
body:
\trsm 0x2000 ;;
\tsrlz.d
\tmov r16=ar.itc
\tadds r21=16,r13 ;;
\tld8 r17=[r13]
\tld8 r18=[r21]
\tadds r24=24,r13
\tadds r25=32,r13 ;;
\tsub r19=r16,r17
\tst8 [r13]=r16
\tld8 r22=[r24]
\tld8 r23=[r25] ;;
\tadd r18=r18,r19
\tmov cr.iip=r22 ;;
\tst8 [r21]=r18
\tmov cr.ipsr=r23 ;;
\trfi ;;
\t.align 32768
ivt:
\t.skip 0x2c00
\tmov r16=ar.itc
\tadds r21=8,r13 ;;
\tld8 r17=[r13]
\tld8 r18=[r21] ;;
\tsub r19=r16,r17
\tst8 [r13]=r16 ;;
\tadd r18=r18,r19
\tmov r22=cr.iip
\tmov r23=cr.ipsr
\tadds r24=24,r13
\tadds r25=32,r13 ;;
\tst8 [r21]=r18
\tadds r22=16,r22
\tdep r23=0,r23,41,2 ;;
\tst8 [r24]=r22
\tst8 [r25]=r23
\tssm 0x2000 ;;
\tsrlz.d ;;
\tbr.sptk.many body ;;
\t.align 1024
tick:
\tmov r16=cr.ipsr
\tadds r20=40,r13
\tadds r21=48,r13 ;;
\textr.u r17=r16,32,2 ;;
\tcmp.eq p6,p7=3,r17 ;;
\t(p6) ld8 r18=[r20]
\t(p7) ld8 r18=[r21] ;;
\tadds r18=1,r18 ;;
\t(p6) st8 [r20]=r18
\t(p7) st8 [r21]=r18 ;;
\trfi ;;
";

/// Its harness: the default regions, cr.iva = `ivt`, and user mode (cpl 3) with interruption collection and interrupts on, register bank 1.
pub const HARNESS: &str = r#"
psr = "0x0000100300006000"

[[region]]
name = "stack"
base = "0x0000000070000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "rbs"
base = "0x0000000071000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "task"
base = "0x0000000072000000"
size = "0x8000"
perms = "rw"

[registers]
r12 = "stack.top-16"
r13 = "task"
b0 = "sentinel"
"ar.bspstore" = "rbs"
"cr.iva" = "ivt"
"#;

/// Address of the program's task area (r13): stamp at +0, utime +8, stime +16 (cycles),
/// saved iip/ipsr +24/+32, user/system ticks +40/+48.
pub const TASK: u64 = 0x7200_0000;

/// The program's precise accounting: the cycle counters at task+8 and task+16.
pub const VIRTUAL: Accounting = Accounting::Virtual { utime_addr: TASK + 8, stime_addr: TASK + 16 };

/// The program's tick sampling: the tick counters at task+40 and task+48, each tick worth
/// `cycles_per_tick`.
pub fn tick_sampling(cycles_per_tick: u64) -> Accounting {
    Accounting::TickSampling { utime_addr: TASK + 40, stime_addr: TASK + 48, cycles_per_tick }
}

/// The program's bindings: entry from `user` to `body`, exit from there to the `rfi`, the
/// tick as an external interrupt.
///
/// # Errors
/// The image lacks the `user` or `body` symbol (it is not [`PROGRAM`]'s).
pub fn bindings(image: &Image, accounting: Accounting) -> Result<Bindings, RunError> {
    let sym = |name: &str| {
        image.symbol(name).map(|s| s.value).ok_or_else(|| {
            RunError::Setup(Diagnostic::error(SourceLoc::new("<example>".into(), 0, 0), format!("no symbol `{name}`")))
        })
    };
    Ok(Bindings {
        paths: vec![
            PathBinding { path: PathKind::SyscallEnter, start: Start::At(sym("user")?), end: End::Label(sym("body")?) },
            PathBinding { path: PathKind::SyscallExit, start: Start::Here, end: End::Rfi },
            PathBinding { path: PathKind::Tick, start: Start::ExternalInterrupt, end: End::Rfi },
        ],
        accounting,
        max_insns: DEFAULT_PATH_BUDGET,
    })
}

/// [`PROGRAM`] assembled.
///
/// # Errors
/// Only if the assembler regresses.
pub fn image() -> Result<Image, RunError> {
    assemble("example.S", PROGRAM, &PreprocessOptions::new(), &FsLoader).map(|a| a.image).map_err(RunError::Assemble)
}

/// The example ready to run, accounting as `accounting` says.
///
/// # Errors
/// Only if the assembler or the harness parser regresses.
pub fn scenario(accounting: Accounting) -> Result<Ia64Scenario, RunError> {
    let image = image()?;
    let harness = Harness::parse("example.toml", HARNESS).map_err(RunError::Setup)?;
    let (machine, _) = prepare(&image, &RunConfig { harness: Some(harness), ..RunConfig::default() })?;
    super::bind(machine, bindings(&image, accounting)?)
        .map_err(|e| RunError::Setup(Diagnostic::error(SourceLoc::new("<example>".into(), 0, 0), e.to_string())))
}
