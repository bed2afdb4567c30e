//! Where the C functions find their fields: `struct thread_info` (at `task + IA64_TASK_SIZE`,
//! `arch/ia64/include/asm/thread_info.h:55`) and the few `task_struct` and `pt_regs` members
//! they use, laid out from the tree's own headers by [`crate::asm_offsets`].

use crate::asm_offsets::cstruct::Types;

/// Offsets of every field the accounting C reads or writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskLayout {
    /// `IA64_TASK_SIZE`: thread_info sits this far past the task (thread_info.h:55).
    pub task_size: u64,
    /// `task_struct.flags` (PF_VCPU is bit 0, `include/linux/sched.h:1732`).
    pub task_flags: u64,
    /// `thread_info.flags` (TIF_NEED_RESCHED is bit 1, thread_info.h:100).
    pub ti_flags: u64,
    /// `thread_info.preempt_count`, where `irq_count()` is kept (thread_info.h:30; the
    /// generic `asm-generic/preempt.h` reads `current_thread_info()->preempt_count`).
    pub ti_preempt_count: u64,
    /// The `__u64` fields of thread_info.h:32-41 that exist in this tree, by name
    /// (`utime`, `stime`, `gtime`, `hardirq_time`, `softirq_time`, `idle_time`, `ac_stamp`,
    /// `ac_leave`, `ac_stime`, `ac_utime`). V.1 has no `ac_leave`; without the config there
    /// are none.
    pub ti_u64: Vec<(&'static str, u64)>,
    /// `pt_regs.cr_ipsr` (`arch/ia64/include/uapi/asm/ptrace.h:89`), read by `user_mode()`.
    pub pt_cr_ipsr: u64,
}

/// The thread_info `__u64` accounting fields the C of 6.1 names, in declaration order.
pub const TI_U64_FIELDS: [&str; 10] = [
    "utime",
    "stime",
    "gtime",
    "hardirq_time",
    "softirq_time",
    "idle_time",
    "ac_stamp",
    "ac_leave",
    "ac_stime",
    "ac_utime",
];

impl TaskLayout {
    /// The layout of `types` (from [`crate::asm_offsets::layouts`] for a tree and config).
    ///
    /// # Errors
    /// A structure or member the accounting C needs is missing.
    pub fn from_types(types: &Types) -> Result<TaskLayout, String> {
        let task = types.get("task_struct").ok_or("no struct task_struct")?;
        let ti = types.get("thread_info").ok_or("no struct thread_info")?;
        let pt = types.get("pt_regs").ok_or("no struct pt_regs")?;
        let field = |l: &crate::asm_offsets::cstruct::Layout, s: &str, f: &str| {
            l.offset(f).ok_or_else(|| format!("struct {s} has no member {f}"))
        };
        let ti_u64 = TI_U64_FIELDS.iter().filter_map(|&f| ti.offset(f).map(|o| (f, o))).collect();
        Ok(TaskLayout {
            task_size: task.shape.size,
            task_flags: field(task, "task_struct", "flags")?,
            ti_flags: field(ti, "thread_info", "flags")?,
            ti_preempt_count: field(ti, "thread_info", "preempt_count")?,
            ti_u64,
            pt_cr_ipsr: field(pt, "pt_regs", "cr_ipsr")?,
        })
    }

    /// The offset of thread_info's `__u64` member `name`, if the tree has it.
    pub fn ti(&self, name: &str) -> Option<u64> {
        self.ti_u64.iter().find(|f| f.0 == name).map(|f| f.1)
    }

    /// Whether thread_info has the accounting fields (the config is on).
    pub fn has_accounting(&self) -> bool {
        self.ti("ac_stamp").is_some()
    }

    /// The address of `name` in `task`'s thread_info.
    ///
    /// # Errors
    /// The tree's thread_info has no such member (the C would not compile).
    pub fn ti_addr(&self, task: u64, name: &str) -> Result<u64, emu_core::stub::StubError> {
        let off = self
            .ti(name)
            .ok_or_else(|| emu_core::stub::StubError(format!("this tree's struct thread_info has no member {name}")))?;
        Ok(task.wrapping_add(self.task_size).wrapping_add(off))
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// 6.1 with the config on: the thread_info offsets of reference §4.3 (TI_AC_STAMP 80 ..
    /// TI_AC_UTIME 104); a task of 0x1000 bytes with flags at 12.
    pub fn v2() -> TaskLayout {
        let ti_u64 = TI_U64_FIELDS.iter().enumerate().map(|(i, &f)| (f, 32 + 8 * i as u64)).collect();
        TaskLayout { task_size: 0x1000, task_flags: 12, ti_flags: 8, ti_preempt_count: 24, ti_u64, pt_cr_ipsr: 64 }
    }

    /// V.1: as [`v2`] without `ac_leave` (seed 004's thread_info.h hunk reversed).
    pub fn v1() -> TaskLayout {
        let mut l = v2();
        l.ti_u64 = TI_U64_FIELDS
            .iter()
            .filter(|f| **f != "ac_leave")
            .enumerate()
            .map(|(i, &f)| (f, 32 + 8 * i as u64))
            .collect();
        l
    }
}
