//! Running a row's calls in the emulator and timing them with the model: back to back (each
//! call starts while the previous one may still be in flight, like the native free-running loop)
//! and drained (the model's clock is advanced by nothing before each call, so nothing issued
//! before it overlaps: like an `lfence` before each native call).

use arch_x86::cpu::X86Cpu;
use emu_core::cpu::{Cpu, Machine, StepEvent};

use crate::error::ModelError;

/// A call ready to run: resolved entry and argument registers.
#[derive(Debug, Clone, Copy)]
pub struct Call {
    /// Entry address.
    pub entry: u64,
    /// rdi.
    pub rdi: u64,
    /// rsi.
    pub rsi: u64,
}

/// Where the calls return and which stores precede each iteration.
#[derive(Debug, Clone)]
pub struct Frame {
    /// rsp at the call (the return address is stored there).
    pub stack_top: u64,
    /// The return address that ends a call.
    pub sentinel: u64,
    /// `(address, value)` 64-bit stores before each iteration.
    pub resets: Vec<(u64, u64)>,
    /// Instruction budget per call.
    pub max_insns: u64,
}

/// The model's figures for one row.
#[derive(Debug, Clone)]
pub struct Timing {
    /// Cycles per iteration, back to back.
    pub back_to_back: f64,
    /// Cycles per iteration, each call drained.
    pub drained: f64,
    /// Instructions per iteration.
    pub instructions: u64,
    /// Addresses of the instructions one iteration executed, in order.
    pub trace: Vec<u64>,
}

/// Iterations before timing starts (the state reaches its steady form: clocks set, flags moved).
const WARMUP: u32 = 3;
/// Iterations timed in each mode.
const TIMED: u32 = 20;

const RSP: u8 = 4;
const RSI: u8 = 6;
const RDI: u8 = 7;

fn now(machine: &Machine<X86Cpu>) -> u64 {
    machine.cpu.counts().map_or_else(|| machine.cpu.cycles(), |c| c.cycles)
}

/// Runs one call to its return; `trace` collects the executed addresses when given.
fn run_call(
    machine: &mut Machine<X86Cpu>,
    frame: &Frame,
    call: Call,
    mut trace: Option<&mut Vec<u64>>,
) -> Result<u64, ModelError> {
    machine.mem.write_u64(frame.stack_top, frame.sentinel).map_err(|e| ModelError::Memory(e.to_string()))?;
    let st = &mut machine.cpu.state;
    st.set_reg(RSP, frame.stack_top);
    st.set_reg(RDI, call.rdi);
    st.set_reg(RSI, call.rsi);
    machine.cpu.set_entry(call.entry);
    let mut executed = 0;
    loop {
        if executed == frame.max_insns {
            return Err(ModelError::Budget { entry: call.entry, max_insns: frame.max_insns });
        }
        let pc = machine.cpu.pc();
        if let Some(t) = trace.as_deref_mut() {
            t.push(pc);
        }
        executed += 1;
        match machine.cpu.step(&mut machine.mem) {
            Ok(StepEvent::Continue) => {}
            Ok(StepEvent::Sentinel) => return Ok(executed),
            Ok(other) => return Err(ModelError::Stopped { entry: call.entry, what: format!("{other:?}") }),
            Err(e) => return Err(ModelError::Exec { entry: call.entry, what: e.to_string() }),
        }
    }
}

fn reset(machine: &mut Machine<X86Cpu>, frame: &Frame) -> Result<(), ModelError> {
    for &(addr, value) in &frame.resets {
        machine.mem.write_u64(addr, value).map_err(|e| ModelError::Memory(e.to_string()))?;
    }
    Ok(())
}

/// Warms up, then times `calls` back to back and drained.
///
/// # Errors
/// A call that faults, stops elsewhere or exceeds its budget; unmapped reset addresses.
pub fn time_row(machine: &mut Machine<X86Cpu>, frame: &Frame, calls: &[Call]) -> Result<Timing, ModelError> {
    for _ in 0..WARMUP {
        reset(machine, frame)?;
        for &c in calls {
            machine.cpu.advance(0);
            run_call(machine, frame, c, None)?;
        }
    }
    // One traced iteration, drained like the warm-up.
    let mut trace = Vec::new();
    reset(machine, frame)?;
    for &c in calls {
        machine.cpu.advance(0);
        run_call(machine, frame, c, Some(&mut trace))?;
    }
    let instructions = trace.len() as u64;

    machine.cpu.advance(0);
    let start = now(machine);
    for _ in 0..TIMED {
        reset(machine, frame)?;
        for &c in calls {
            run_call(machine, frame, c, None)?;
        }
    }
    let back_to_back = now(machine).saturating_sub(start) as f64 / f64::from(TIMED);

    let mut total = 0;
    for _ in 0..TIMED {
        reset(machine, frame)?;
        for &c in calls {
            machine.cpu.advance(0);
            let before = now(machine);
            run_call(machine, frame, c, None)?;
            total += now(machine).saturating_sub(before);
        }
    }
    let drained = total as f64 / f64::from(TIMED);
    Ok(Timing { back_to_back, drained, instructions, trace })
}
