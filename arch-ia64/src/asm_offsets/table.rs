//! The one description of `asm-offsets.h`: each macro the arch/ia64 `.S` files (and the
//! headers they include) use, with its source. Linux 6.1's `asm-offsets.c` defines 180
//! macros; those the assembly does not use are left out.

use super::cstruct::Types;
use super::Offset;
use emu_core::kernel::{KernelConfig, KernelError};

/// Where a macro's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `offsetof(struct S, member)` (a dotted member reaches into a member structure).
    Field(&'static str, &'static str),
    /// `sizeof(struct S)`.
    Size(&'static str),
    /// `offsetof(struct S, member[index])`.
    Element(&'static str, &'static str, u64),
    /// Every member of `struct S` as `PREFIX_<MEMBER>_OFFSET`, in declaration order.
    AllFields(&'static str, &'static str),
    /// A documented value: the structure's real layout is not computed here (the second
    /// field says why and what the value assumes).
    Value(u64, &'static str),
}

/// Why the MCA/PAL/fsyscall/time values are fixed: their structures use kernel types
/// (spinlocks, seqcounts, per-CPU data) that need the full configuration.
const NOT_COMPUTED: &str = "stand-in value, not a real build's";

/// The table: macro name (empty for [`Source::AllFields`]) and source.
pub const ENTRIES: &[(&str, Source)] = &[
    ("IA64_TASK_SIZE", Source::Size("task_struct")),
    ("IA64_THREAD_INFO_SIZE", Source::Size("thread_info")),
    ("IA64_PT_REGS_SIZE", Source::Size("pt_regs")),
    ("IA64_SWITCH_STACK_SIZE", Source::Size("switch_stack")),
    ("IA64_SIGINFO_SIZE", Source::Size("siginfo")),
    ("SIGFRAME_SIZE", Source::Size("sigframe")),
    (
        "UNW_FRAME_INFO_SIZE",
        Source::Value(640, "stand-in: sizeof(struct unw_frame_info) depends on the unwinder's config"),
    ),
    // include/linux/pid.h: sizeof(struct upid) is 16 on LP64 (asm-offsets.c writes the 4).
    ("IA64_UPID_SHIFT", Source::Value(4, "log2(sizeof(struct upid)) on LP64")),
    ("TI_FLAGS", Source::Field("thread_info", "flags")),
    ("TI_CPU", Source::Field("thread_info", "cpu")),
    ("TI_PRE_COUNT", Source::Field("thread_info", "preempt_count")),
    ("TI_AC_STAMP", Source::Field("thread_info", "ac_stamp")),
    ("TI_AC_LEAVE", Source::Field("thread_info", "ac_leave")),
    ("TI_AC_STIME", Source::Field("thread_info", "ac_stime")),
    ("TI_AC_UTIME", Source::Field("thread_info", "ac_utime")),
    ("IA64_TASK_BLOCKED_OFFSET", Source::Field("task_struct", "blocked")),
    ("IA64_TASK_CLEAR_CHILD_TID_OFFSET", Source::Field("task_struct", "clear_child_tid")),
    ("IA64_TASK_THREAD_PID_OFFSET", Source::Field("task_struct", "thread_pid")),
    ("IA64_PID_LEVEL_OFFSET", Source::Field("pid", "level")),
    ("IA64_PID_UPID_OFFSET", Source::Field("pid", "numbers")),
    ("IA64_TASK_PENDING_OFFSET", Source::Field("task_struct", "pending")),
    ("IA64_TASK_PID_OFFSET", Source::Field("task_struct", "pid")),
    ("IA64_TASK_REAL_PARENT_OFFSET", Source::Field("task_struct", "real_parent")),
    ("IA64_TASK_SIGNAL_OFFSET", Source::Field("task_struct", "signal")),
    ("IA64_TASK_TGID_OFFSET", Source::Field("task_struct", "tgid")),
    ("IA64_TASK_THREAD_KSP_OFFSET", Source::Field("task_struct", "thread.ksp")),
    ("IA64_TASK_THREAD_ON_USTACK_OFFSET", Source::Field("task_struct", "thread.on_ustack")),
    ("IA64_SIGNAL_GROUP_STOP_COUNT_OFFSET", Source::Field("signal_struct", "group_stop_count")),
    ("IA64_SIGNAL_SHARED_PENDING_OFFSET", Source::Field("signal_struct", "shared_pending")),
    ("IA64_SIGNAL_PIDS_TGID_OFFSET", Source::Field("signal_struct", "pids")),
    ("", Source::AllFields("pt_regs", "IA64_PT_REGS")),
    ("", Source::AllFields("switch_stack", "IA64_SWITCH_STACK")),
    ("IA64_SIGCONTEXT_IP_OFFSET", Source::Field("sigcontext", "sc_ip")),
    ("IA64_SIGCONTEXT_AR_BSP_OFFSET", Source::Field("sigcontext", "sc_ar_bsp")),
    ("IA64_SIGCONTEXT_AR_FPSR_OFFSET", Source::Field("sigcontext", "sc_ar_fpsr")),
    ("IA64_SIGCONTEXT_AR_RNAT_OFFSET", Source::Field("sigcontext", "sc_ar_rnat")),
    ("IA64_SIGCONTEXT_AR_UNAT_OFFSET", Source::Field("sigcontext", "sc_ar_unat")),
    ("IA64_SIGCONTEXT_B0_OFFSET", Source::Field("sigcontext", "sc_br")),
    ("IA64_SIGCONTEXT_CFM_OFFSET", Source::Field("sigcontext", "sc_cfm")),
    ("IA64_SIGCONTEXT_FLAGS_OFFSET", Source::Field("sigcontext", "sc_flags")),
    ("IA64_SIGCONTEXT_FR6_OFFSET", Source::Element("sigcontext", "sc_fr", 6)),
    ("IA64_SIGCONTEXT_PR_OFFSET", Source::Field("sigcontext", "sc_pr")),
    ("IA64_SIGCONTEXT_R12_OFFSET", Source::Element("sigcontext", "sc_gr", 12)),
    ("IA64_SIGCONTEXT_RBS_BASE_OFFSET", Source::Field("sigcontext", "sc_rbs_base")),
    ("IA64_SIGCONTEXT_LOADRS_OFFSET", Source::Field("sigcontext", "sc_loadrs")),
    ("IA64_SIGPENDING_SIGNAL_OFFSET", Source::Field("sigpending", "signal")),
    ("IA64_SIGFRAME_ARG0_OFFSET", Source::Field("sigframe", "arg0")),
    ("IA64_SIGFRAME_ARG1_OFFSET", Source::Field("sigframe", "arg1")),
    ("IA64_SIGFRAME_ARG2_OFFSET", Source::Field("sigframe", "arg2")),
    ("IA64_SIGFRAME_HANDLER_OFFSET", Source::Field("sigframe", "handler")),
    ("IA64_SIGFRAME_SIGCONTEXT_OFFSET", Source::Field("sigframe", "sc")),
    ("IA64_CPUINFO_NSEC_PER_CYC_OFFSET", Source::Field("cpuinfo_ia64", "nsec_per_cyc")),
    ("IA64_CPUINFO_PTCE_BASE_OFFSET", Source::Field("cpuinfo_ia64", "ptce_base")),
    ("IA64_CPUINFO_PTCE_COUNT_OFFSET", Source::Field("cpuinfo_ia64", "ptce_count")),
    ("IA64_CPUINFO_PTCE_STRIDE_OFFSET", Source::Field("cpuinfo_ia64", "ptce_stride")),
    ("IA64_TIMESPEC_TV_NSEC_OFFSET", Source::Value(8, "struct __kernel_old_timespec: tv_nsec after a long tv_sec")),
    ("IA64_TIME_SN_SPEC_SNSEC_OFFSET", Source::Value(8, "struct time_sn_spec: snsec after a u64 sec")),
    ("IA64_MCA_CPU_MCA_STACK_OFFSET", Source::Value(0, "struct ia64_mca_cpu: mca_stack is its first member")),
    ("IA64_MCA_CPU_INIT_STACK_OFFSET", Source::Value(65536, "stand-in: KERNEL_STACK_SIZE with 64 KB pages")),
    ("IA64_SAL_OS_STATE_SIZE", Source::Value(160, NOT_COMPUTED)),
    ("IA64_GTOD_SEQ_OFFSET", Source::Value(0, NOT_COMPUTED)),
    ("IA64_GTOD_WALL_TIME_OFFSET", Source::Value(8, NOT_COMPUTED)),
    ("IA64_GTOD_MONO_TIME_OFFSET", Source::Value(24, NOT_COMPUTED)),
    ("IA64_CLKSRC_MASK_OFFSET", Source::Value(40, NOT_COMPUTED)),
    ("IA64_CLKSRC_MULT_OFFSET", Source::Value(48, NOT_COMPUTED)),
    ("IA64_CLKSRC_SHIFT_OFFSET", Source::Value(52, NOT_COMPUTED)),
    ("IA64_CLKSRC_MMIO_OFFSET", Source::Value(56, NOT_COMPUTED)),
    ("IA64_CLKSRC_CYCLE_LAST_OFFSET", Source::Value(64, NOT_COMPUTED)),
    ("IA64_ITC_JITTER_OFFSET", Source::Value(0, NOT_COMPUTED)),
    ("IA64_ITC_LASTCYCLE_OFFSET", Source::Value(8, NOT_COMPUTED)),
];

/// The macros of [`ENTRIES`] for `types`. The `TI_AC_*` fields exist only with
/// `CONFIG_VIRT_CPU_ACCOUNTING_NATIVE`, as in `asm-offsets.c`.
///
/// # Errors
/// A structure or member the table names is missing.
pub fn evaluate(types: &Types, config: &KernelConfig) -> Result<Vec<Offset>, KernelError> {
    let accounting = config.get("VIRT_CPU_ACCOUNTING_NATIVE") == Some("y");
    let layout = |s: &str| types.get(s).ok_or_else(|| KernelError::Layout(format!("struct {s} was not found")));
    let mut out = Vec::new();
    for (name, src) in ENTRIES {
        if name.starts_with("TI_AC_") && !accounting {
            continue;
        }
        // V.1 (seed 004's patch reversed, issue 14) has no ac_leave, and its asm-offsets.c
        // no TI_AC_LEAVE.
        if *name == "TI_AC_LEAVE" && types.get("thread_info").is_some_and(|l| l.offset("ac_leave").is_none()) {
            continue;
        }
        let (value, source) = match *src {
            Source::Size(s) => (layout(s)?.shape.size, format!("sizeof(struct {s})")),
            Source::Field(s, m) => {
                let v = layout(s)?
                    .offset(m)
                    .ok_or_else(|| KernelError::Layout(format!("struct {s} has no member `{m}` ({name})")))?;
                (v, format!("offsetof(struct {s}, {m})"))
            }
            Source::AllFields(s, prefix) => {
                for (m, at, _, _) in layout(s)?.fields.iter().filter(|f| !f.0.contains('.')) {
                    let name = format!("{prefix}_{}_OFFSET", m.to_ascii_uppercase());
                    out.push(Offset { name, value: *at, source: format!("offsetof(struct {s}, {m})") });
                }
                continue;
            }
            Source::Element(s, m, index) => {
                let v = layout(s)?
                    .element(m, index)
                    .ok_or_else(|| KernelError::Layout(format!("struct {s} has no member `{m}[{index}]` ({name})")))?;
                (v, format!("offsetof(struct {s}, {m}[{index}])"))
            }
            Source::Value(v, why) => (v, why.to_string()),
        };
        out.push(Offset { name: name.to_string(), value, source });
    }
    Ok(out)
}
