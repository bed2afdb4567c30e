//! Running a path: the user program enters the kernel, the kernel's own code runs to its
//! return to user mode, and the driver measures each round trip.
//!
//! A round trip starts when execution leaves the user program's text (the `break`, the
//! `br.call` into the gate, or the interrupt taken between two user instructions) and ends
//! when it is back there. Its cost is the model's cycles from the end of the last user
//! instruction before to the end of the instruction that returned (the `rfi`, or the gate's
//! `br.ret`), and its instructions are all those executed in between, the entry instruction
//! included (stubs count none: their cycles are their stated cost).

use super::setup::KernelMachine;
use crate::exec::interrupt::vector::{BREAK, EXTERNAL};
use crate::exec::ExecError;
use emu_core::cpu::{Cpu, StepEvent};
use emu_core::snapshot::Snapshot;

/// How the user program enters the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntryKind {
    /// `break 0x100000` → break_fault → ia64_syscall_setup → handler → ia64_leave_syscall → rfi.
    Break,
    /// `br.call` to `__kernel_syscall_via_epc` → fsys_bubble_down → ia64_syscall_setup →
    /// handler → ia64_leave_syscall → rfi → the gate's `br.ret b6`.
    EpcHeavy,
    /// `br.call` to the gate → `fsys_getpid` → `br.ret b6` (no kernel stack, no rfi).
    FsysGetpid,
    /// The interval timer: external interrupt → `__interrupt` → ia64_handle_irq →
    /// ia64_leave_kernel → rfi.
    Tick,
}

impl EntryKind {
    /// Every kind, in report order.
    pub const ALL: [EntryKind; 4] = [EntryKind::Break, EntryKind::EpcHeavy, EntryKind::FsysGetpid, EntryKind::Tick];

    /// The name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::Break => "break",
            EntryKind::EpcHeavy => "epc",
            EntryKind::FsysGetpid => "fsys-getpid",
            EntryKind::Tick => "tick",
        }
    }

    /// The kind a name names.
    pub fn parse(name: &str) -> Option<EntryKind> {
        EntryKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What started a round trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    /// A system call (r15 at the entry): through `break` or the gate.
    Syscall {
        /// The number.
        nr: u64,
        /// Entered by `break` (else by the gate's `epc`).
        by_break: bool,
    },
    /// An external interrupt (the timer).
    Interrupt,
}

/// One round trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundTrip {
    /// What started it.
    pub cause: Cause,
    /// Model cycles.
    pub cycles: u64,
    /// Instructions executed.
    pub instructions: u64,
    /// r8 on return.
    pub r8: u64,
    /// r10 on return (0 = success, -1 = error for the syscall paths).
    pub r10: u64,
}

/// The result of running a path.
#[derive(Debug, Clone)]
pub struct PathRun {
    /// Each round trip, in order.
    pub trips: Vec<RoundTrip>,
    /// The architectural state at the last return to user mode.
    pub snapshot: Snapshot,
    /// Instructions executed in all (user program included).
    pub total_instructions: u64,
    /// Cycles in all.
    pub total_cycles: u64,
}

impl PathRun {
    /// Mean cycles per round trip, leaving out the first `warm` trips.
    pub fn mean_cycles(&self, warm: usize) -> f64 {
        let t = self.trips.get(warm..).unwrap_or_default();
        if t.is_empty() {
            return 0.0;
        }
        t.iter().map(|x| x.cycles as f64).sum::<f64>() / t.len() as f64
    }

    /// Mean instructions per round trip, leaving out the first `warm` trips.
    pub fn mean_instructions(&self, warm: usize) -> f64 {
        let t = self.trips.get(warm..).unwrap_or_default();
        if t.is_empty() {
            return 0.0;
        }
        t.iter().map(|x| x.instructions as f64).sum::<f64>() / t.len() as f64
    }
}

/// Why a path did not complete.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PathError {
    /// The emulator stopped: the message names the instruction's address and its symbol.
    #[error("{error} at {place} (round trip {trip}, after {executed} instructions)")]
    Exec {
        /// The executor's error.
        error: ExecError,
        /// Symbol + offset (and source line when known) of the failing pc.
        place: String,
        /// Which round trip (1-based).
        trip: usize,
        /// Instructions executed in all.
        executed: u64,
    },
    /// The budget ran out before `trips` round trips completed.
    #[error("{executed} instructions without completing round trip {trip}; stopped at {place}")]
    Budget {
        /// Instructions executed.
        executed: u64,
        /// The round trip that did not finish.
        trip: usize,
        /// Where it was.
        place: String,
    },
}

/// `addr` as `symbol+0xoff (file:line)` from the image.
pub fn describe(km: &KernelMachine, addr: u64) -> String {
    let bundle = addr & !0xf;
    let mut s = match km.image.symbolize(bundle) {
        Some((name, 0)) if addr == bundle => format!("{addr:#x} <{name}>"),
        Some((name, off)) => format!("{addr:#x} <{name}+{:#x}>", off + (addr - bundle)),
        None if (km.user_text.0..km.user_text.1).contains(&bundle) => {
            format!("{addr:#x} <user program+{:#x}>", bundle - km.user_text.0)
        }
        None => format!("{addr:#x}"),
    };
    // The assembler maps each slot (bundle | slot) to its line.
    let loc = km.sources.locate(addr).or_else(|| km.image.source_loc(addr));
    if let Some(loc) = loc {
        s.push_str(&format!(" ({loc})"));
    }
    s
}

/// Runs until `trips` round trips have completed, or `max_insns` instructions ran.
///
/// # Errors
/// An emulator error (with the pc's symbol), or the budget.
pub fn run(km: &mut KernelMachine, trips: usize, max_insns: u64) -> Result<PathRun, PathError> {
    let (lo, hi) = km.user_text;
    let in_user = |ip: u64| (lo..hi).contains(&ip);
    let mut out = Vec::with_capacity(trips);
    let mut start: Option<(u64, u64, Cause)> = None;
    let mut executed = 0u64;
    while out.len() < trips {
        if executed >= max_insns {
            let pc = km.machine.cpu.pc();
            return Err(PathError::Budget { executed, trip: out.len() + 1, place: describe(km, pc) });
        }
        let cpu = &mut km.machine.cpu;
        let before = (cpu.cycles(), cpu.instructions());
        let pc = cpu.pc();
        let r15 = cpu.state.gr.read(15).map(|(v, _)| v).unwrap_or(0);
        let step = cpu.step(&mut km.machine.mem);
        let event = match step {
            Ok(e) => e,
            Err(error) => {
                return Err(PathError::Exec { error, place: describe(km, pc), trip: out.len() + 1, executed });
            }
        };
        executed += 1;
        let cpu = &km.machine.cpu;
        let ip = cpu.state.ip;
        match start {
            None if !in_user(ip) => {
                let cause = match event {
                    StepEvent::Interruption { vector, .. } if vector == u64::from(EXTERNAL) => Cause::Interrupt,
                    StepEvent::Interruption { vector, .. } => {
                        Cause::Syscall { nr: r15, by_break: vector == u64::from(BREAK) }
                    }
                    _ => Cause::Syscall { nr: r15, by_break: false },
                };
                start = Some((before.0, before.1, cause));
            }
            Some((c0, i0, cause)) if in_user(ip) => {
                let r = |n: u8| cpu.state.gr.read(n).map(|(v, _)| v).unwrap_or(0);
                out.push(RoundTrip {
                    cause,
                    cycles: cpu.cycles() - c0,
                    instructions: cpu.instructions() - i0,
                    r8: r(8),
                    r10: r(10),
                });
                start = None;
            }
            _ => {}
        }
    }
    let cpu = &km.machine.cpu;
    Ok(PathRun {
        trips: out,
        snapshot: km.machine.snapshot(),
        total_instructions: cpu.instructions(),
        total_cycles: cpu.cycles(),
    })
}
