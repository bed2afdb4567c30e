//! The machine state a booted kernel leaves for a task about to run in user mode, built on a
//! linked image of the entry objects (reference `linux-ia64-paths.md` section 4):
//! - the task block (task_struct, thread_info at +IA64_TASK_SIZE, the kernel RBS at
//!   +IA64_RBS_OFFSET, the kernel memory stack with pt_regs at its top) in region 7, with
//!   `thread.on_ustack` = 1, TI flags 0, preempt_count 0, `signal->pids[PIDTYPE_TGID]`
//!   pointing at a `struct pid` of level 0 whose `numbers[0].nr` is [`PID`];
//! - the kernel registers: ar.k6 = current (`IA64_KR(CURRENT)`), ar.k5 = 0 (no fph owner,
//!   `setup.c`); k0 (I/O base), k3 (per-CPU base), k4 (stack granule) and k7 (page table)
//!   are read only by code these paths do not reach (the TLB-miss handlers and the
//!   per-CPU/MCA code), and stay 0;
//! - cr.iva = `ia64_ivt`, cr.itv = the timer vector (masked unless the tick runs), cr.tpr 0;
//! - the gate's code as the range where `epc` promotes (the kernel maps gate.so's epc page
//!   with PL0 and access rights 7);
//! - the patch lists boot code applies ([`super::patch`]) and `mem_init`'s fill of the
//!   fsyscall table: every zero slot gets `sys_call_table[i] | 1` (`arch/ia64/mm/init.c`);
//! - the user side: the program at [`USER_TEXT`], its memory stack and RBS, PSR at cpl 3
//!   with ic, i, dt, rt, it, bn, dfh and sp (`start_thread`, `asm/processor.h`), ar.rsc 0xf
//!   (eager, pl 3), ar.fpsr = FPSR_DEFAULT.

use super::layout::{self, Layout, USER_BSPSTORE, USER_RBS, USER_RBS_SIZE, USER_STACK, USER_STACK_SIZE, USER_TEXT};
use super::offsets::{MissingOffset, Offsets, TreeConstants};
use super::patch::{self, PatchError, Patched};
use crate::cpu::{CpuConfig, Ia64Cpu};
use crate::state::psr::Psr;
use crate::state::{ar, cr};
use crate::timing::Itanium2Params;
use emu_core::cpu::Machine;
use emu_core::image::{Image, SectionKind};
use emu_core::memory::{Endian, MemError, MemFault, Memory, Perms};

/// `numbers[level].nr` of the task's TGID pid: what getpid returns.
pub const PID: u64 = 4242;
/// The user's thread pointer (r13): any user address; the kernel saves and restores it.
pub const USER_TP: u64 = 0x6000_0000_0200_0000;
/// The user's gp (r1): saved and restored by the kernel like r13.
pub const USER_GP: u64 = 0x6000_0000_0300_0000;

/// Why the machine could not be set up.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SetupError {
    /// An offset the layout needs is missing.
    #[error(transparent)]
    Offset(#[from] MissingOffset),
    /// A symbol the harness needs is not in the linked image.
    #[error("the linked image has no symbol `{0}` (it is defined by {1})")]
    Symbol(String, &'static str),
    /// A patch list could not be applied.
    #[error(transparent)]
    Patch(#[from] PatchError),
    /// Memory could not be mapped or written.
    #[error("memory: {0}")]
    Memory(String),
}

impl From<MemError> for SetupError {
    fn from(e: MemError) -> Self {
        SetupError::Memory(e.to_string())
    }
}

impl From<MemFault> for SetupError {
    fn from(e: MemFault) -> Self {
        SetupError::Memory(e.to_string())
    }
}

/// A machine ready to run the user program, and where things are.
#[derive(Debug, Clone)]
pub struct KernelMachine {
    /// CPU and memory.
    pub machine: Machine<Ia64Cpu>,
    /// The layout.
    pub layout: Layout,
    /// The user program's code: [start, end).
    pub user_text: (u64, u64),
    /// The promote range (the gate's code).
    pub gate: (u64, u64),
    /// The patch lists applied.
    pub patched: Patched,
    /// The linked image after patching (for symbols and disassembly).
    pub image: Image,
    /// Source lines of the linked code (empty unless the caller gives the objects' images).
    pub sources: super::locate::SourceIndex,
}

/// How to set the machine up.
#[derive(Debug, Clone)]
pub struct SetupOptions {
    /// The timing model (else one cycle per group).
    pub timing: Option<Itanium2Params>,
    /// Arm the interval timer to fire this many ITC ticks after the start (the tick path).
    pub timer_delta: Option<u64>,
}

fn symbol(image: &Image, name: &str, from: &'static str) -> Result<u64, SetupError> {
    image.symbol(name).map(|s| s.value).ok_or_else(|| SetupError::Symbol(name.to_string(), from))
}

/// The image section that holds `addr`: [start, end).
fn section_range(image: &Image, addr: u64) -> Option<(u64, u64)> {
    image.sections.iter().find(|s| s.contains(addr)).map(|s| (s.addr, s.addr + s.size()))
}

/// Builds the machine: patches `image`, loads it and `user_code`, lays out the task.
///
/// # Errors
/// A missing offset or symbol, a patch list that does not apply, or memory that overlaps.
pub fn boot(
    mut image: Image,
    off: &Offsets,
    k: &TreeConstants,
    user_code: &[u8],
    opts: &SetupOptions,
) -> Result<KernelMachine, SetupError> {
    let lay = Layout::new(off, k)?;
    let patched = patch::apply(&mut image)?;
    let ivt = symbol(&image, "ia64_ivt", "ivt.S")?;
    let epc = symbol(&image, "__kernel_syscall_via_epc", "gate.S")?;
    let gate = section_range(&image, epc).ok_or(SetupError::Symbol("__kernel_syscall_via_epc".into(), "gate.S"))?;

    let mut mem = Memory::new(Endian::Little);
    image.load_into(&mut mem).map_err(|e| SetupError::Memory(e.to_string()))?;
    mem.map(lay.task, lay.task_size, Perms::RW, "task")?;
    mem.map(lay.kdata, layout::KDATA_SIZE, Perms::RW, "kdata")?;
    mem.map(USER_STACK, USER_STACK_SIZE, Perms::RW, "user stack")?;
    mem.map(USER_RBS, USER_RBS_SIZE, Perms::RW, "user rbs")?;
    let user_len = (user_code.len() as u64).max(16);
    mem.map(USER_TEXT, user_len, Perms::RX, "user text")?;
    mem.load(USER_TEXT, user_code)?;

    // The task: thread_info, on_ustack, and what fsys_getpid reads.
    let ti = lay.thread_info;
    mem.write_u32(ti.wrapping_add(off.get("TI_FLAGS")?), 0)?;
    mem.write_u32(ti.wrapping_add(off.get("TI_CPU")?), 0)?;
    mem.write_u32(ti.wrapping_add(off.get("TI_PRE_COUNT")?), 0)?;
    mem.write_u8(lay.task.wrapping_add(off.get("IA64_TASK_THREAD_ON_USTACK_OFFSET")?), 1)?;
    mem.write_u64(lay.task.wrapping_add(off.get("IA64_TASK_SIGNAL_OFFSET")?), lay.signal)?;
    mem.write_u64(lay.signal.wrapping_add(off.get("IA64_SIGNAL_PIDS_TGID_OFFSET")?), lay.tgid_pid)?;
    mem.write_u32(lay.tgid_pid.wrapping_add(off.get("IA64_PID_LEVEL_OFFSET")?), 0)?;
    mem.write_u32(lay.tgid_pid.wrapping_add(off.get("IA64_PID_UPID_OFFSET")?), PID as u32)?;

    // mem_init's fill of the fsyscall table (arch/ia64/mm/init.c).
    let fsys = symbol(&image, "fsyscall_table", "fsys.S")?;
    let sct = symbol(&image, "sys_call_table", "entry.S")?;
    for i in 0..k.nr_syscalls {
        if mem.read_u64(fsys.wrapping_add(8 * i))? == 0 {
            let handler = mem.read_u64(sct.wrapping_add(8 * i))?;
            mem.write_u64(fsys.wrapping_add(8 * i), handler | 1)?;
        }
    }

    let config = CpuConfig { sentinel: 0, gate, timing: opts.timing.clone(), timeline: false, itc_per_cycle: 1 };
    let mut cpu = Ia64Cpu::new(config);
    for s in image.sections.iter().filter(|s| s.kind == SectionKind::Code && !s.data.is_empty()) {
        cpu.add_code(s.addr, &s.data);
    }
    cpu.add_code(USER_TEXT, user_code);
    let st = &mut cpu.state;
    st.psr = (Psr::IC | Psr::I | Psr::DT | Psr::RT | Psr::IT | Psr::BN | Psr::DFH | Psr::SP).with_cpl(3);
    st.gr.set_bank(st.psr.bank());
    st.ar[ar::K6 as usize] = lay.task;
    st.ar[ar::RSC as usize] = 0xf;
    st.ar[ar::FPSR as usize] = k.fpsr_default;
    st.gr.set_bspstore(USER_BSPSTORE);
    st.cr[cr::IVA as usize] = ivt;
    st.cr[cr::ITV as usize] = k.timer_vector | (1 << 16);
    st.cr[cr::TPR as usize] = 0;
    st.gr.write(1, USER_GP, false).map_err(|e| SetupError::Memory(e.to_string()))?;
    st.gr.write(12, USER_STACK + USER_STACK_SIZE - 16, false).map_err(|e| SetupError::Memory(e.to_string()))?;
    st.gr.write(13, USER_TP, false).map_err(|e| SetupError::Memory(e.to_string()))?;
    if let Some(delta) = opts.timer_delta {
        st.cr[cr::ITV as usize] = k.timer_vector;
        st.cr[cr::ITM as usize] = delta;
        st.interrupts.write_itm();
    }
    cpu.set_entry(USER_TEXT);
    let user_text = (USER_TEXT, USER_TEXT + user_code.len() as u64);
    Ok(KernelMachine {
        machine: Machine::new(cpu, mem),
        layout: lay,
        user_text,
        gate,
        patched,
        image,
        sources: super::locate::SourceIndex::default(),
    })
}
