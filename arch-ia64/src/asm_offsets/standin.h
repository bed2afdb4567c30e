/*
 * acctemu's stand-ins for the kernel structures arch/ia64 assembly reads through
 * asm-offsets.h but whose real layout needs the whole kernel configuration and a compiler
 * (task_struct and what hangs off it). Laid out by the same LP64 rules as the structures
 * computed from the tree (arch-ia64/src/asm_offsets/cstruct.rs).
 *
 * Each structure keeps the members the assembly uses, in the kernel's (6.1) declaration
 * order, and nothing else: the offsets are consistent with each other and with the computed
 * structures, but they are NOT the offsets of a real build. A user with a real ia64 build
 * passes its include/generated/asm-offsets.h instead (acctemu asm --asm-offsets FILE, or a
 * --kernel-build DIR that holds it).
 */

/* include/linux/types.h: struct list_head; include/linux/signal_types.h: sigpending. */
struct list_head { struct list_head *next; struct list_head *prev; };
struct sigpending { struct list_head list; sigset_t signal; };

/* include/linux/pid.h (PIDTYPE_MAX = 4): a pid's numbers[] are struct upid (16 bytes, so
 * IA64_UPID_SHIFT = 4). */
struct upid { int nr; void *ns; };
struct pid { __u32 count; unsigned int level; __u32 lock; struct upid numbers[1]; };

/* include/linux/sched/signal.h */
struct signal_struct {
	__u32 sigcnt;
	__u32 live;
	int nr_threads;
	struct sigpending shared_pending;
	int group_stop_count;
	struct pid *pids[4];
};

/* arch/ia64/include/asm/processor.h: struct thread_struct, the members entry.S reads. */
struct thread_struct {
	__u32 flags;
	__u8 on_ustack;
	__u8 pad[3];
	__u64 ksp;
	__u64 map_base;
	__u64 rbs_bot;
};

/* include/linux/sched.h */
struct task_struct {
	long __state;
	void *stack;
	__u32 usage;
	unsigned int flags;
	pid_t pid;
	pid_t tgid;
	struct task_struct *real_parent;
	struct pid *thread_pid;
	int *clear_child_tid;
	struct signal_struct *signal;
	sigset_t blocked;
	struct sigpending pending;
	struct thread_struct thread;
};

/* include/uapi/asm-generic/siginfo.h: SI_MAX_SIZE is 128. */
struct siginfo { __u64 _si[16]; };

/* arch/ia64/kernel/sigframe.h (struct sigcontext comes from the tree's sigcontext.h). */
struct sigframe {
	unsigned long arg0;
	unsigned long arg1;
	unsigned long arg2;
	void *handler;
	struct siginfo info;
	struct sigcontext sc;
};
