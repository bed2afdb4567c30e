//! Unit-level IA-64 test helpers: one instruction assembled, predecoded and executed on
//! a fresh state, without the whole CPU loop. The FP and multimedia differential tests use
//! them to run thousands of operand sets against one predecoded record.
//!
//! Included with `#[path = "common/ia64_unit.rs"] mod ia64_unit;` so that only the test
//! files that need it compile it.

use arch_ia64::asm::assemble;
use arch_ia64::exec::op::Op;
use arch_ia64::exec::predecode::{predecode, Exec, SlotRec};
use arch_ia64::exec::{execute, Ctx, Flow, Trap};
use arch_ia64::state::State;
use emu_core::memory::{Endian, Memory};
use emu_core::preprocess::{FsLoader, PreprocessOptions};

/// The address and bytes of `line` assembled alone in `.text` and closed by a stop.
///
/// # Panics
/// When `line` does not assemble (the message names the line).
pub fn bundle_of(line: &str) -> (u64, Vec<u8>) {
    let src = format!("\t.text\n\t{line}\n\t;;\n");
    let asm = match assemble("unit.S", &src, &PreprocessOptions::new(), &FsLoader) {
        Ok(a) => a,
        Err(e) => panic!("`{line}` does not assemble: {e}"),
    };
    let sec = &asm.image.sections[0];
    (sec.addr, sec.data.clone())
}

/// The slot number and predecoded record of the first instruction in `bytes` whose
/// operation `wanted` accepts; `what` names it in the panic message.
///
/// # Panics
/// When no slot predecodes to such an operation.
pub fn find_op(addr: u64, bytes: &[u8], wanted: fn(&Op) -> bool, what: &str) -> (usize, Exec) {
    let region = predecode(addr, bytes);
    for b in &region.bundles {
        for (i, s) in b.slots.iter().enumerate() {
            if let SlotRec::Insn(e) = s {
                if wanted(&e.op) {
                    return (i, *e);
                }
            }
        }
    }
    panic!("`{what}` predecodes to no operation of the kind the test wants");
}

/// The predecoded record of the first instruction of `line` that `wanted` accepts, and
/// the address of its bundle.
pub fn compile(line: &str, wanted: fn(&Op) -> bool) -> (Exec, u64) {
    let (addr, bytes) = bundle_of(line);
    let (_, e) = find_op(addr, &bytes, wanted, line);
    (e, addr)
}

/// Executes `e` at bundle address `ip`, slot 0, on `st` with an empty memory.
pub fn exec_on(st: &mut State, e: &Exec, ip: u64) -> Result<Flow, Trap> {
    let mut mem = Memory::new(Endian::Little);
    let ctx = Ctx { ip, slot: 0, itc: 0, gate: (0, 0) };
    execute(st, &mut mem, e, &ctx)
}

/// Runs `e` on a fresh state with r9 and r10 set to (value, NaT) and returns r8 as
/// (value, NaT).
///
/// # Panics
/// When r9 or r10 cannot be written (never for a fresh state).
pub fn exec_gr(e: &Exec, ip: u64, r9: (u64, bool), r10: (u64, bool)) -> Result<(u64, bool), Trap> {
    let mut st = State::new();
    for (r, (v, n)) in [(9u8, r9), (10, r10)] {
        if st.gr.write(r, v, n).is_err() {
            panic!("cannot set r{r}");
        }
    }
    exec_on(&mut st, e, ip)?;
    Ok(st.gr.read_or_zero(8))
}
