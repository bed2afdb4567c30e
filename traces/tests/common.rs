//! Shared helpers of the trace tests: a machine prepared from a catalogue trace, runs that
//! stop at a path's end, and readers for the harness layout.

use arch_ia64::cpu::Ia64Cpu;
use arch_ia64::run::{prepare, RunConfig};
use emu_core::cpu::{Cpu, Machine, StopReason, StopWhen};
use emu_core::harness::Harness;
use emu_core::image::Image;
use traces::Trace;

/// Base of the harness's task region (`task` in the TOML files).
pub const TASK: u64 = 0x7200_0000;
/// IA64_TASK_SIZE of the source: thread_info starts there.
pub const TI: u64 = TASK + 3456;

/// A trace version ready to run, with its image for symbol lookups.
pub struct Rig {
    /// The machine, prepared at the harness entry (`user_main`).
    pub m: Machine<Ia64Cpu>,
    /// The assembled image.
    pub image: Image,
}

impl Rig {
    /// Assembles `t`, parses its harness and prepares the machine.
    pub fn new(t: &Trace) -> Rig {
        let asm = t.assemble().unwrap_or_else(|d| panic!("{} does not assemble: {d}", t.name));
        let harness = Harness::parse(t.harness_name, t.harness).unwrap_or_else(|d| panic!("harness: {d}"));
        let cfg = RunConfig { harness: Some(harness), ..RunConfig::default() };
        let (m, _) = prepare(&asm.image, &cfg).unwrap_or_else(|e| panic!("prepare: {e}"));
        Rig { m, image: asm.image }
    }

    /// The address of `name`.
    pub fn sym(&self, name: &str) -> u64 {
        self.image.symbol(name).map(|s| s.value).unwrap_or_else(|| panic!("no symbol {name}"))
    }

    /// Runs until control reaches `name`; returns the instructions executed.
    pub fn run_to(&mut self, name: &str) -> u64 {
        let at = self.sym(name);
        self.m.cpu.set_sentinel(at);
        self.run(StopReason::Sentinel)
    }

    /// Runs until an rfi retires; returns the instructions executed.
    pub fn run_to_rfi(&mut self) -> u64 {
        self.run(StopReason::Rfi)
    }

    fn run(&mut self, want: StopReason) -> u64 {
        let before = self.m.cpu.instructions();
        let stop = StopWhen { on_sentinel: true, on_rfi: true, on_interruption: false, max_insns: 100_000 };
        let got = self.m.run(&stop).unwrap_or_else(|e| panic!("run failed: {e}"));
        assert_eq!(got, want, "stopped at {:#x}", self.m.cpu.pc());
        self.m.cpu.instructions() - before
    }

    /// Moves the instruction pointer to `name` (slot 0).
    pub fn jump(&mut self, name: &str) {
        let at = self.sym(name);
        self.m.cpu.set_entry(at);
    }

    /// The 8-byte word at `addr`.
    pub fn u64_at(&self, addr: u64) -> u64 {
        self.m.mem.read_u64(addr).unwrap_or_else(|e| panic!("read {addr:#x}: {e}"))
    }

    /// General register `r` of the current frame/bank.
    pub fn gr(&self, r: u8) -> u64 {
        self.m.cpu.state.gr.read(r).map(|(v, _)| v).unwrap_or_else(|e| panic!("r{r}: {e}"))
    }

    /// The current privilege level.
    pub fn cpl(&self) -> u8 {
        self.m.cpu.state.psr.cpl()
    }
}

/// The user-visible register state a system call must preserve: the frame (CFM, BSP,
/// BSPSTORE), the stacked registers of the frame, gp, sp, tp, and the dirty parent frame
/// through its backing-store addresses.
#[derive(Debug, PartialEq, Eq)]
pub struct UserState {
    cfm: u64,
    bsp: u64,
    bspstore: u64,
    regs: Vec<u64>,
    statics: [u64; 3],
    rsc: u64,
    pfs: u64,
}

impl UserState {
    /// The CFM part.
    pub fn cfm_bits(&self) -> u64 {
        self.cfm
    }

    /// Captures the state of `rig`.
    pub fn of(rig: &Rig) -> UserState {
        let gr = &rig.m.cpu.state.gr;
        let sof = gr.cfm().sof;
        UserState {
            cfm: gr.cfm().to_bits(),
            bsp: gr.bsp(),
            bspstore: gr.bspstore(),
            regs: (0..sof).map(|i| rig.gr(32 + i)).collect(),
            statics: [rig.gr(1), rig.gr(12), rig.gr(13)],
            rsc: rig.m.cpu.state.ar[16],
            pfs: rig.m.cpu.state.ar[64],
        }
    }
}
