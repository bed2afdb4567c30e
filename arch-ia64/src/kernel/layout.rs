//! Where the harness puts things, following the kernel's own address map (`asm/page.h`,
//! reference `linux-ia64-paths.md` section 4.4): the task block in region 7 (the identity
//! map at PAGE_OFFSET), the kernel's objects at KERNEL_START in region 5, the gate's epc
//! page at GATE_ADDR + PERCPU_PAGE_SIZE, and user memory in regions 2 (text) and 3 (stack,
//! register backing store). Translation is off: virtual addresses are used as they are, so
//! "mapped" means present in the emulator's memory.

use super::offsets::{MissingOffset, Offsets, TreeConstants};

/// PAGE_OFFSET, the base of region 7 (`asm/page.h`).
pub const PAGE_OFFSET: u64 = 0xe000_0000_0000_0000;
/// Where the task block of `current` starts: a KERNEL_STACK_SIZE-aligned block in region 7
/// (the kernel allocates it from the page allocator; any aligned physical page will do).
pub const TASK_PHYS: u64 = 0x0400_0000;
/// Other kernel data the paths read through `current` (signal_struct, struct pid), the
/// syscall table's stubs' data: one region behind the task.
pub const KDATA_PHYS: u64 = 0x0410_0000;
/// Size of the kernel-data region.
pub const KDATA_SIZE: u64 = 0x1_0000;
/// User text (region 2, where ia64 executables are linked).
pub const USER_TEXT: u64 = 0x4000_0000_0000_0000;
/// User memory stack: region 3, growing down from its top.
pub const USER_STACK: u64 = 0x6000_0fff_fff0_0000;
/// Size of the user stack region.
pub const USER_STACK_SIZE: u64 = 0x1_0000;
/// The user register backing store (region 3, growing up).
pub const USER_RBS: u64 = 0x6000_0000_0100_0000;
/// Size of the user RBS region.
pub const USER_RBS_SIZE: u64 = 0x1_0000;
/// Where the user RBS starts: 0x1e0 into it, so the first user frames straddle the NaT
/// collection slot at +0x1f8 and the round trip has to keep it right.
pub const USER_BSPSTORE: u64 = USER_RBS + 0x1e0;

/// The addresses of the kernel state, from the offsets and the tree's constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// `current`: the task_struct (ar.k6, r13 in the kernel).
    pub task: u64,
    /// Size of the task block (IA64_STK_OFFSET = KERNEL_STACK_SIZE).
    pub task_size: u64,
    /// thread_info: task + IA64_TASK_SIZE.
    pub thread_info: u64,
    /// The kernel RBS base: task + IA64_RBS_OFFSET.
    pub krbs: u64,
    /// pt_regs on the kernel stack: task + IA64_STK_OFFSET - IA64_PT_REGS_SIZE.
    pub pt_regs: u64,
    /// Kernel data region (signal_struct, struct pid).
    pub kdata: u64,
    /// `current->signal`.
    pub signal: u64,
    /// `current->signal->pids[PIDTYPE_TGID]`.
    pub tgid_pid: u64,
    /// The gate's epc page: GATE_ADDR + PERCPU_PAGE_SIZE.
    pub gate_text: u64,
    /// KERNEL_START.
    pub kernel_start: u64,
}

impl Layout {
    /// The layout for these offsets and constants.
    ///
    /// # Errors
    /// `asm-offsets.h` lacks IA64_TASK_SIZE or IA64_PT_REGS_SIZE.
    pub fn new(off: &Offsets, k: &TreeConstants) -> Result<Layout, MissingOffset> {
        let task = PAGE_OFFSET + TASK_PHYS;
        let kdata = PAGE_OFFSET + KDATA_PHYS;
        Ok(Layout {
            task,
            task_size: k.stk_offset,
            thread_info: task.wrapping_add(off.get("IA64_TASK_SIZE")?),
            krbs: task.wrapping_add(k.rbs_offset),
            pt_regs: task.wrapping_add(k.stk_offset).wrapping_sub(off.get("IA64_PT_REGS_SIZE")?),
            kdata,
            signal: kdata,
            tgid_pid: kdata + 0x1000,
            gate_text: k.gate_addr.wrapping_add(k.percpu_page_size),
            kernel_start: k.kernel_start,
        })
    }
}
