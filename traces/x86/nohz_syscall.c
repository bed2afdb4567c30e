// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-syscall CPU-time accounting on an x86-64 nohz_full CPU, Linux 4.5-rc1 and each step of Rik
 * van Riel's series (seed 000_2c39b87cb7dcea5a.txt), written for acctemu after the seed's hunks
 * and ../../../shared/reference/x86-nohz-paths.md. Not copied from the kernel: the functions are
 * rewritten here keeping the seed's logic and the kernel's call structure.
 *
 * PATCHES selects the step (build.sh passes it):
 *   0  4.5-rc1: cputime -> jiffies -> timeval -> usec in __acct_update_integrals, under
 *      local_irq_save; vtime reads local_clock() (rdtsc, cyc2ns mult/shift)
 *   1  + patch 1 (382c2fe99432): nsecs, `>> 10`, the TICK_NSEC early-out
 *   2  + patch 2 (b2add86edd3b): early return instead of the `if (likely(mm))` block
 *   3  + patch 3 (9344c92c2e72): irq save/restore moved to acct_update_integrals()
 *   4  + patch 4 (ff9a9b4c4334): VIRT_CPU_ACCOUNTING_GEN at jiffy granularity
 *
 * Configuration modelled: NO_HZ_FULL (so VIRT_CPU_ACCOUNTING_GEN, CONTEXT_TRACKING), TASK_XACCT,
 * HZ=1000, no PARAVIRT, no PREEMPT_COUNT (preempt_disable_notrace is a barrier), stable TSC
 * (local_clock() is sched_clock()), no lockdep, tracepoints off.
 *
 * RCU's extended-quiescent-state transitions (rcu_user_enter/exit) run on every nohz_full entry
 * and exit (issue 15): nesting bookkeeping, a deferred-wakeup check per RCU flavour on entry, and
 * one locked increment of the dynticks counter each way. Left out, as the reference does: the
 * unstable-TSC sched_clock_local path and the asm entry/exit code. None is changed by the series.
 *
 * Entry points (SysV ABI, the task in %rdi):
 *   user_exit_accounting(t)      syscall entry: enter_from_user_mode() -> user_exit()
 *   user_enter_accounting(t)     syscall exit: prepare_exit_to_usermode() -> user_enter()
 *   tick_accounting(t, user)     the timer tick's account_process_tick(), in hardirq context
 * A housekeeping CPU runs the same code with context_tracking.active == 0 (harness data): the
 * per-syscall calls then only do the context-tracking bookkeeping, and time is charged by ticks.
 *
 * Harness symbols: jiffies, cpu_tsc (this CPU's cyc2ns), cpu_data (this CPU's per-cpu data),
 * root_cpuacct.
 */
#include "kernel.h"

#ifndef PATCHES
#error "build with -DPATCHES=0..4"
#endif

#define HZ 1000
#define NSEC_PER_SEC 1000000000ULL
#define USEC_PER_SEC 1000000UL
#define NSEC_PER_USEC 1000UL
#define TICK_NSEC ((NSEC_PER_SEC + HZ / 2) / HZ)

/* cputime_t is u64 nanoseconds with VIRT_CPU_ACCOUNTING_GEN (cputime_nsecs.h). */
typedef u64 cputime_t;
#define cputime_one_jiffy ((cputime_t)(NSEC_PER_SEC / HZ))
#define cputime_to_jiffies(ct) div_u64((u64)(ct), NSEC_PER_SEC / HZ)
#define jiffies_to_cputime(j) ((cputime_t)((j) * (NSEC_PER_SEC / HZ)))
#define cputime_to_nsecs(ct) ((u64)(ct))
#define nsecs_to_cputime(ns) ((cputime_t)(ns))
#define cputime_to_scaled(ct) (ct)

/* preempt_count() layout (preempt_mask.h). */
#define SOFTIRQ_OFFSET 0x100
#define HARDIRQ_OFFSET 0x10000
#define SOFTIRQ_MASK 0xff00
#define HARDIRQ_MASK 0xf0000
#define NMI_MASK 0x100000

#define PF_VCPU 0x00000010

enum cpu_usage_stat {
	CPUTIME_USER,
	CPUTIME_NICE,
	CPUTIME_SYSTEM,
	CPUTIME_SOFTIRQ,
	CPUTIME_IRQ,
	CPUTIME_IDLE,
	CPUTIME_IOWAIT,
	CPUTIME_STEAL,
	CPUTIME_GUEST,
	CPUTIME_GUEST_NICE,
	NR_STATS,
};

enum ctx_state { CONTEXT_KERNEL = 0, CONTEXT_USER = 1, CONTEXT_GUEST = 2 };
enum vtime_state { VTIME_INACTIVE = 0, VTIME_USER = 1, VTIME_SYS = 2 };
enum { MM_FILEPAGES, MM_ANONPAGES, MM_SWAPENTS, MM_SHMEMPAGES, NR_MM_COUNTERS };

struct timeval {
	long tv_sec;
	long tv_usec;
};

struct mm_struct {
	long rss_stat[NR_MM_COUNTERS];	/* atomic_long_t count[] */
	unsigned long total_vm;
};

/* signal_struct, reduced to its thread_group_cputimer. */
struct signal_struct {
	int cputimer_running;
	int pad;
	u64 cputimer_utime;	/* cputime_atomic: atomic64_t each */
	u64 cputimer_stime;
	u64 cputimer_sum_exec_runtime;
};

/* A cpuacct cgroup, with this CPU's slot of its per-cpu cpustat. */
struct cpuacct {
	struct cpuacct *parent;
	u64 cpustat[NR_STATS];
};

/* The task_struct fields the paths touch. */
struct task_struct {
	cputime_t utime;		/* 0 */
	cputime_t stime;		/* 8 */
	cputime_t utimescaled;		/* 16 */
	cputime_t stimescaled;		/* 24 */
	cputime_t gtime;		/* 32 */
	u32 vtime_seqcount;		/* 40: seqcount_t.sequence */
	int vtime_snap_whence;		/* 44 */
	u64 vtime_snap;			/* 48: ns before patch 4, jiffies after */
	u64 acct_rss_mem1;		/* 56 */
	u64 acct_vm_mem1;		/* 64 */
	cputime_t acct_timexpd;		/* 72 */
	struct mm_struct *mm;		/* 80 */
	struct signal_struct *signal;	/* 88 */
	void *sighand;			/* 96 */
	struct cpuacct *cpuacct;	/* 104: task_ca() */
	int static_prio;		/* 112 */
	u32 flags;			/* 116 */
};

/* This CPU's per-cpu variables (the kernel reaches them through %gs). */
struct cpu_data {
	u64 cpustat[NR_STATS];		/* 0: kernel_cpustat */
	int preempt_count;		/* 80: __preempt_count */
	int ct_active;			/* 84: context_tracking.active */
	int ct_state;			/* 88: context_tracking.state */
	int ct_recursion;		/* 92: context_tracking.recursion */
	u32 warnings;			/* 96: WARN_ON_ONCE hits (stands in for the warn slow path) */
	u32 pad;
	struct task_struct *idle;	/* 104: rq->idle */
	/* rcu_dynticks (kernel/rcu/tree.h), context-tracking's RCU state (issue 15) */
	long long dynticks_nesting;	/* 112: process-level nesting; 0 in user mode */
	int dynticks;			/* 120: atomic_t, even while in an extended quiescent state */
	u32 pad2;
	/* rcu_data.nocb_defer_wakeup of the two flavours without PREEMPT_RCU (rcu_sched, rcu_bh) */
	int nocb_defer_wakeup[2];	/* 128 */
};

/* arch/x86/kernel/tsc.c's per-cpu cyc2ns: two data slots and the head/tail latch. */
struct cyc2ns_data {
	u32 cyc2ns_mul;
	u32 cyc2ns_shift;
	u64 cyc2ns_offset;
	u32 __count;
};

struct cyc2ns {
	struct cyc2ns_data data[2];	/* 0, 24 */
	struct cyc2ns_data *head;	/* 48 */
	struct cyc2ns_data *tail;	/* 56 */
};

_Static_assert(__builtin_offsetof(struct task_struct, vtime_snap) == 48, "harness task layout");
_Static_assert(__builtin_offsetof(struct task_struct, mm) == 80, "harness task layout");
_Static_assert(sizeof(struct task_struct) == 120, "harness task layout");
_Static_assert(__builtin_offsetof(struct cpu_data, idle) == 104, "harness cpu_data layout");
_Static_assert(__builtin_offsetof(struct cpu_data, nocb_defer_wakeup) == 128, "harness cpu_data layout");
_Static_assert(__builtin_offsetof(struct cyc2ns, tail) == 56, "harness cyc2ns layout");

extern volatile unsigned long jiffies;
extern struct cyc2ns cpu_tsc;
extern struct cpu_data cpu_data;
extern struct cpuacct root_cpuacct;

#define WARN_ON_ONCE(cond) ({					\
	int __ret = !!(cond);					\
	if (unlikely(__ret))					\
		cpu_data.warnings++;				\
	__ret;							\
})

static inline int preempt_count(void)
{
	return READ_ONCE(cpu_data.preempt_count);
}

#define irq_count() (preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK | NMI_MASK))
#define hardirq_count() (preempt_count() & HARDIRQ_MASK)
#define in_interrupt() (irq_count())
#define in_serving_softirq() (preempt_count() & SOFTIRQ_OFFSET)

static inline void write_seqcount_begin(u32 *seq)
{
	(*seq)++;
	smp_wmb();
}

static inline void write_seqcount_end(u32 *seq)
{
	smp_wmb();
	(*seq)++;
}

/* ---- include/linux/math64.h (64-bit) ---- */

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	u32 remainder;

	return div_u64_rem(dividend, divisor, &remainder);
}

/* ARCH_SUPPORTS_INT128: one mulq and a shift. */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

/* ---- kernel/time/time.c ---- */

/* Exported and out of line; one 64-bit product, then constant divisions. */
__tu_boundary void jiffies_to_timeval(const unsigned long j, struct timeval *value)
{
	u32 rem;

	value->tv_sec = div_u64_rem((u64)j * TICK_NSEC, NSEC_PER_SEC, &rem);
	value->tv_usec = rem / NSEC_PER_USEC;
}

/* ---- include/linux/mm.h ---- */

static inline unsigned long get_mm_counter(struct mm_struct *mm, int member)
{
	long val = __atomic_load_n(&mm->rss_stat[member], __ATOMIC_RELAXED);

	/* SPLIT_RSS_COUNTING: per-thread caches can leave the sum briefly negative. */
	if (val < 0)
		val = 0;
	return (unsigned long)val;
}

static inline unsigned long get_mm_rss(struct mm_struct *mm)
{
	return get_mm_counter(mm, MM_FILEPAGES) + get_mm_counter(mm, MM_ANONPAGES) +
	       get_mm_counter(mm, MM_SHMEMPAGES);
}

/* ---- kernel/tsacct.c ---- */

#if PATCHES == 0
static void __acct_update_integrals(struct task_struct *tsk, cputime_t utime, cputime_t stime)
{
	if (likely(tsk->mm)) {
		cputime_t time, dtime;
		struct timeval value;
		unsigned long flags;
		u64 delta;

		local_irq_save(flags);
		time = stime + utime;
		dtime = time - tsk->acct_timexpd;
		jiffies_to_timeval(cputime_to_jiffies(dtime), &value);
		delta = value.tv_sec;
		delta = delta * USEC_PER_SEC + value.tv_usec;

		if (delta == 0)
			goto out;
		tsk->acct_timexpd = time;
		tsk->acct_rss_mem1 += delta * get_mm_rss(tsk->mm);
		tsk->acct_vm_mem1 += delta * tsk->mm->total_vm;
	out:
		local_irq_restore(flags);
	}
}
#elif PATCHES == 1
static void __acct_update_integrals(struct task_struct *tsk, cputime_t utime, cputime_t stime)
{
	if (likely(tsk->mm)) {
		cputime_t time, dtime;
		unsigned long flags;
		u64 delta;

		local_irq_save(flags);
		time = stime + utime;
		dtime = time - tsk->acct_timexpd;
		/* cputime_t is nanoseconds here: no conversion, no division. */
		delta = cputime_to_nsecs(dtime);

		if (delta < TICK_NSEC)
			goto out;

		tsk->acct_timexpd = time;
		/* pages * ns / 1024: a shift instead of a division; xacct_add_tsk rescales. */
		tsk->acct_rss_mem1 += delta * get_mm_rss(tsk->mm) >> 10;
		tsk->acct_vm_mem1 += delta * tsk->mm->total_vm >> 10;
	out:
		local_irq_restore(flags);
	}
}
#elif PATCHES == 2
static void __acct_update_integrals(struct task_struct *tsk, cputime_t utime, cputime_t stime)
{
	cputime_t time, dtime;
	unsigned long flags;
	u64 delta;

	if (!likely(tsk->mm))
		return;

	local_irq_save(flags);
	time = stime + utime;
	dtime = time - tsk->acct_timexpd;
	/* cputime_t is nanoseconds here: no conversion, no division. */
	delta = cputime_to_nsecs(dtime);

	if (delta < TICK_NSEC)
		goto out;

	tsk->acct_timexpd = time;
	/* pages * ns / 1024: a shift instead of a division; xacct_add_tsk rescales. */
	tsk->acct_rss_mem1 += delta * get_mm_rss(tsk->mm) >> 10;
	tsk->acct_vm_mem1 += delta * tsk->mm->total_vm >> 10;
out:
	local_irq_restore(flags);
}
#else /* patch 3 and later: the callers run with irqs off */
static void __acct_update_integrals(struct task_struct *tsk, cputime_t utime, cputime_t stime)
{
	cputime_t time, dtime;
	u64 delta;

	if (!likely(tsk->mm))
		return;

	time = stime + utime;
	dtime = time - tsk->acct_timexpd;
	/* cputime_t is nanoseconds here: no conversion, no division. */
	delta = cputime_to_nsecs(dtime);

	if (delta < TICK_NSEC)
		return;

	tsk->acct_timexpd = time;
	/* pages * ns / 1024: a shift instead of a division; xacct_add_tsk rescales. */
	tsk->acct_rss_mem1 += delta * get_mm_rss(tsk->mm) >> 10;
	tsk->acct_vm_mem1 += delta * tsk->mm->total_vm >> 10;
}
#endif

/*
 * Simplified: with VIRT_CPU_ACCOUNTING_GEN the kernel's task_cputime() also adds the pending
 * vtime delta under the seqcount; only exit and exec call this, never the syscall path.
 */
static inline void task_cputime(struct task_struct *t, cputime_t *utime, cputime_t *stime)
{
	*utime = t->utime;
	*stime = t->stime;
}

/* The exit/exec caller: patch 3 moves the irq save/restore here. */
__tu_boundary void acct_update_integrals(struct task_struct *tsk)
{
	cputime_t utime, stime;
#if PATCHES >= 3
	unsigned long flags;

	local_irq_save(flags);
#endif
	task_cputime(tsk, &utime, &stime);
	__acct_update_integrals(tsk, utime, stime);
#if PATCHES >= 3
	local_irq_restore(flags);
#endif
}

/* The accounting hook of account_{user,system}_time. */
__tu_boundary void acct_account_cputime(struct task_struct *tsk)
{
	__acct_update_integrals(tsk, tsk->utime, tsk->stime);
}

/* ---- kernel/sched/cpuacct.c ---- */

/* Walks the task's cpuacct groups below the root; a root-cgroup task walks none. */
__tu_boundary void cpuacct_account_field(struct task_struct *p, int index, u64 val)
{
	struct cpuacct *ca;

	/* rcu_read_lock()/unlock(): compiler barriers without PREEMPT_RCU. */
	barrier();
	ca = p->cpuacct;
	while (ca != &root_cpuacct) {
		ca->cpustat[index] += val;
		ca = ca->parent;
	}
	barrier();
}

/* ---- kernel/sched/stats.h: thread-group CPU timers ---- */

static inline bool cputimer_running(struct task_struct *tsk)
{
	if (!READ_ONCE(tsk->signal->cputimer_running))
		return false;
	if (unlikely(!tsk->sighand))
		return false;
	return true;
}

static inline void account_group_user_time(struct task_struct *tsk, cputime_t cputime)
{
	if (!cputimer_running(tsk))
		return;
	__atomic_fetch_add(&tsk->signal->cputimer_utime, cputime, __ATOMIC_RELAXED);
}

static inline void account_group_system_time(struct task_struct *tsk, cputime_t cputime)
{
	if (!cputimer_running(tsk))
		return;
	__atomic_fetch_add(&tsk->signal->cputimer_stime, cputime, __ATOMIC_RELAXED);
}

/* ---- arch/x86/kernel/tsc.c and kernel/sched/clock.c ---- */

#ifdef ACCTEMU_NATIVE_USER
/* The native drivers pin the clock so that both sides of a differential test read one value. */
extern u64 acctemu_native_tsc;

static inline u64 rdtsc(void)
{
	return READ_ONCE(acctemu_native_tsc);
}
#else
static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}
#endif

static inline u64 cycles_2_ns(u64 cyc)
{
	struct cyc2ns_data *data, *tail;
	u64 ns;

	barrier();	/* preempt_disable_notrace() */
	data = READ_ONCE(cpu_tsc.head);
	tail = READ_ONCE(cpu_tsc.tail);
	if (likely(data == tail)) {
		ns = data->cyc2ns_offset;
		ns += mul_u64_u32_shr(cyc, data->cyc2ns_mul, data->cyc2ns_shift);
	} else {
		/* set_cyc2ns_scale() is switching slots: pin this one while we use it. */
		data->__count++;
		barrier();
		ns = data->cyc2ns_offset;
		ns += mul_u64_u32_shr(cyc, data->cyc2ns_mul, data->cyc2ns_shift);
		barrier();
		if (!--data->__count)
			WRITE_ONCE(cpu_tsc.tail, data);
	}
	barrier();	/* preempt_enable_notrace() */
	return ns;
}

/* sched_clock(): the __use_tsc static branch is taken on every TSC machine. */
__tu_boundary u64 native_sched_clock(void)
{
	static_key_nop();
	return cycles_2_ns(rdtsc());
}

/* A stable TSC makes local_clock() plain sched_clock(). */
__tu_boundary u64 local_clock(void)
{
	static_key_nop();
	return native_sched_clock();
}

/* ---- kernel/sched/cputime.c ---- */

static inline int task_nice(const struct task_struct *p)
{
	return p->static_prio - 120;
}

static inline void task_group_account_field(struct task_struct *p, int index, u64 tmp)
{
	cpu_data.cpustat[index] += tmp;
	cpuacct_account_field(p, index, tmp);
}

void account_user_time(struct task_struct *p, cputime_t cputime, cputime_t cputime_scaled)
{
	int index;

	p->utime += cputime;
	p->utimescaled += cputime_scaled;
	account_group_user_time(p, cputime);

	index = (task_nice(p) > 0) ? CPUTIME_NICE : CPUTIME_USER;
	task_group_account_field(p, index, (u64)cputime);

	acct_account_cputime(p);
}

static void account_guest_time(struct task_struct *p, cputime_t cputime, cputime_t cputime_scaled)
{
	p->utime += cputime;
	p->utimescaled += cputime_scaled;
	account_group_user_time(p, cputime);
	p->gtime += cputime;

	if (task_nice(p) > 0) {
		cpu_data.cpustat[CPUTIME_NICE] += (u64)cputime;
		cpu_data.cpustat[CPUTIME_GUEST_NICE] += (u64)cputime;
	} else {
		cpu_data.cpustat[CPUTIME_USER] += (u64)cputime;
		cpu_data.cpustat[CPUTIME_GUEST] += (u64)cputime;
	}
}

static inline void __account_system_time(struct task_struct *p, cputime_t cputime,
					 cputime_t cputime_scaled, int index)
{
	p->stime += cputime;
	p->stimescaled += cputime_scaled;
	account_group_system_time(p, cputime);

	task_group_account_field(p, index, (u64)cputime);

	acct_account_cputime(p);
}

void account_system_time(struct task_struct *p, int hardirq_offset, cputime_t cputime,
			 cputime_t cputime_scaled)
{
	int index;

	if ((p->flags & PF_VCPU) && (irq_count() - hardirq_offset == 0)) {
		account_guest_time(p, cputime, cputime_scaled);
		return;
	}

	if (hardirq_count() - hardirq_offset)
		index = CPUTIME_IRQ;
	else if (in_serving_softirq())
		index = CPUTIME_SOFTIRQ;
	else
		index = CPUTIME_SYSTEM;

	__account_system_time(p, cputime, cputime_scaled, index);
}

void account_idle_time(cputime_t cputime)
{
	/* No task waits for I/O in these scenarios: all of it is idle, none iowait. */
	cpu_data.cpustat[CPUTIME_IDLE] += (u64)cputime;
}

/* vtime_accounting_cpu_enabled(): this CPU does its own (virtual) accounting. */
static inline bool vtime_accounting_cpu_enabled(void)
{
	return READ_ONCE(cpu_data.ct_active);
}

/* The tick's charge of one jiffy (no IRQ_TIME_ACCOUNTING with NO_HZ_FULL, no steal time). */
void account_process_tick(struct task_struct *p, int user_tick)
{
	cputime_t one_jiffy_scaled = cputime_to_scaled(cputime_one_jiffy);

	if (vtime_accounting_cpu_enabled())
		return;

	if (user_tick)
		account_user_time(p, cputime_one_jiffy, one_jiffy_scaled);
	else if ((p != cpu_data.idle) || (irq_count() != HARDIRQ_OFFSET))
		account_system_time(p, HARDIRQ_OFFSET, cputime_one_jiffy, one_jiffy_scaled);
	else
		account_idle_time(cputime_one_jiffy);
}

#if PATCHES < 4
static unsigned long long vtime_delta(struct task_struct *tsk)
{
	unsigned long long clock;

	clock = local_clock();
	if (clock < tsk->vtime_snap)
		return 0;

	return clock - tsk->vtime_snap;
}

static cputime_t get_vtime_delta(struct task_struct *tsk)
{
	unsigned long long delta = vtime_delta(tsk);

	WARN_ON_ONCE(tsk->vtime_snap_whence == VTIME_INACTIVE);
	tsk->vtime_snap += delta;

	/* nanoseconds are cputime already */
	return nsecs_to_cputime(delta);
}
#else
static cputime_t vtime_delta(struct task_struct *tsk)
{
	unsigned long now = READ_ONCE(jiffies);

	/* time_before(now, snap), wrap-safe */
	if ((long)(now - (unsigned long)tsk->vtime_snap) < 0)
		return 0;

	return jiffies_to_cputime(now - tsk->vtime_snap);
}

static cputime_t get_vtime_delta(struct task_struct *tsk)
{
	unsigned long now = READ_ONCE(jiffies);
	unsigned long delta = now - tsk->vtime_snap;

	WARN_ON_ONCE(tsk->vtime_snap_whence == VTIME_INACTIVE);
	tsk->vtime_snap = now;

	return jiffies_to_cputime(delta);
}
#endif

static void __vtime_account_system(struct task_struct *tsk)
{
	cputime_t delta_cpu = get_vtime_delta(tsk);

	account_system_time(tsk, irq_count(), delta_cpu, cputime_to_scaled(delta_cpu));
}

#if PATCHES < 4
__tu_boundary void vtime_account_user(struct task_struct *tsk)
{
	cputime_t delta_cpu;

	write_seqcount_begin(&tsk->vtime_seqcount);
	delta_cpu = get_vtime_delta(tsk);
	tsk->vtime_snap_whence = VTIME_SYS;
	account_user_time(tsk, delta_cpu, cputime_to_scaled(delta_cpu));
	write_seqcount_end(&tsk->vtime_seqcount);
}

__tu_boundary void vtime_user_enter(struct task_struct *tsk)
{
	write_seqcount_begin(&tsk->vtime_seqcount);
	__vtime_account_system(tsk);
	tsk->vtime_snap_whence = VTIME_USER;
	write_seqcount_end(&tsk->vtime_seqcount);
}
#else
__tu_boundary void vtime_account_user(struct task_struct *tsk)
{
	cputime_t delta_cpu;

	write_seqcount_begin(&tsk->vtime_seqcount);
	tsk->vtime_snap_whence = VTIME_SYS;
	if (vtime_delta(tsk)) {
		delta_cpu = get_vtime_delta(tsk);
		account_user_time(tsk, delta_cpu, cputime_to_scaled(delta_cpu));
	}
	write_seqcount_end(&tsk->vtime_seqcount);
}

__tu_boundary void vtime_user_enter(struct task_struct *tsk)
{
	write_seqcount_begin(&tsk->vtime_seqcount);
	if (vtime_delta(tsk))
		__vtime_account_system(tsk);
	tsk->vtime_snap_whence = VTIME_USER;
	write_seqcount_end(&tsk->vtime_seqcount);
}
#endif

/* ---- include/linux/vtime.h ---- */

static inline void vtime_user_exit(struct task_struct *tsk)
{
	vtime_account_user(tsk);
}

/* ---- kernel/rcu/tree.c: extended quiescent states for user mode (issue 15) ---- */

/* The process-level nesting unit (7 bits of irq nesting below it) and the count kept while a
 * task runs in the kernel: one process-level level plus the initial one. */
#define DYNTICK_TASK_NEST_VALUE (1LL << 56)
#define DYNTICK_TASK_NEST_MASK (0x7fffffffffffffffLL - DYNTICK_TASK_NEST_VALUE + 1)
#define DYNTICK_TASK_EXIT_IDLE (DYNTICK_TASK_NEST_VALUE + 1)

/* atomic_inc(): the kernel's `lock incl`; smp_mb__before/after_atomic() are barriers on x86. */
static inline void rcu_dynticks_inc(int *v)
{
	barrier();
	__asm__ __volatile__("lock incl %0" : "+m"(*v) : : "memory");
	barrier();
}

/* rcu_nocb_need_deferred_wakeup()/do_nocb_deferred_wakeup(): the kthread wakeup is rare. */
static inline void rcu_nocb_deferred_wakeup(int flavour)
{
	if (unlikely(READ_ONCE(cpu_data.nocb_defer_wakeup[flavour]))) {
		WRITE_ONCE(cpu_data.nocb_defer_wakeup[flavour], 0);
		cpu_data.warnings++;	/* stands in for wake_nocb_leader() */
	}
}

/* rcu_user_enter() -> rcu_eqs_enter(true): the last process-level exit enters the EQS. */
__tu_boundary void rcu_user_enter(void)
{
	long long oldval = cpu_data.dynticks_nesting;

	WARN_ON_ONCE((oldval & DYNTICK_TASK_NEST_MASK) == 0);
	if ((oldval & DYNTICK_TASK_NEST_MASK) == DYNTICK_TASK_NEST_VALUE) {
		cpu_data.dynticks_nesting = 0;
		/* rcu_eqs_enter_common(): tracepoint off; each flavour's deferred wakeup */
		static_key_nop();
		rcu_nocb_deferred_wakeup(0);
		rcu_nocb_deferred_wakeup(1);
		/* rcu_prepare_for_idle(): empty without RCU_FAST_NO_HZ */
		rcu_dynticks_inc(&cpu_data.dynticks);
		WARN_ON_ONCE(READ_ONCE(cpu_data.dynticks) & 1);
	} else {
		cpu_data.dynticks_nesting = oldval - DYNTICK_TASK_NEST_VALUE;
	}
}

/* rcu_user_exit() -> rcu_eqs_exit(true): leaving user mode leaves the EQS. */
__tu_boundary void rcu_user_exit(void)
{
	long long oldval = cpu_data.dynticks_nesting;

	WARN_ON_ONCE(oldval < 0);
	if (oldval & DYNTICK_TASK_NEST_MASK) {
		cpu_data.dynticks_nesting = oldval + DYNTICK_TASK_NEST_VALUE;
	} else {
		/* rcu_eqs_exit_common(): the counter goes odd, then the tracepoint (off) */
		rcu_dynticks_inc(&cpu_data.dynticks);
		WARN_ON_ONCE(!(READ_ONCE(cpu_data.dynticks) & 1));
		/* rcu_cleanup_after_idle(): empty without RCU_FAST_NO_HZ */
		static_key_nop();
		cpu_data.dynticks_nesting = DYNTICK_TASK_EXIT_IDLE;
	}
}

/* ---- kernel/context_tracking.c ---- */

static inline bool context_tracking_recursion_enter(void)
{
	int recursion;

	recursion = ++cpu_data.ct_recursion;
	if (recursion == 1)
		return true;

	WARN_ON_ONCE(recursion < 1);
	cpu_data.ct_recursion--;
	return false;
}

static inline void context_tracking_recursion_exit(void)
{
	cpu_data.ct_recursion--;
}

/* `current` is passed down from the entry point instead of read from %gs:current_task. */
void __context_tracking_enter(struct task_struct *current, enum ctx_state state)
{
	/* Kernel threads never return to user space. */
	WARN_ON_ONCE(!current->mm);

	if (!context_tracking_recursion_enter())
		return;

	if (cpu_data.ct_state != (int)state) {
		if (cpu_data.ct_active) {
			if (state == CONTEXT_USER) {
				static_key_nop();	/* trace_user_enter(0) */
				vtime_user_enter(current);
			}
			rcu_user_enter();
		}
		cpu_data.ct_state = state;
	}
	context_tracking_recursion_exit();
}

__tu_boundary void context_tracking_enter(struct task_struct *current, enum ctx_state state)
{
	unsigned long flags;

	/* Interrupts and softirqs entering user space are not a user entry. */
	if (in_interrupt())
		return;

	local_irq_save(flags);
	__context_tracking_enter(current, state);
	local_irq_restore(flags);
}

void __context_tracking_exit(struct task_struct *current, enum ctx_state state)
{
	if (!context_tracking_recursion_enter())
		return;

	if (cpu_data.ct_state == (int)state) {
		if (cpu_data.ct_active) {
			rcu_user_exit();
			if (state == CONTEXT_USER) {
				vtime_user_exit(current);
				static_key_nop();	/* trace_user_exit(0) */
			}
		}
		cpu_data.ct_state = CONTEXT_KERNEL;
	}
	context_tracking_recursion_exit();
}

__tu_boundary void context_tracking_exit(struct task_struct *current, enum ctx_state state)
{
	unsigned long flags;

	if (in_interrupt())
		return;

	local_irq_save(flags);
	__context_tracking_exit(current, state);
	local_irq_restore(flags);
}

/* ---- arch/x86/entry/common.c: the scenario's entry points ---- */

/* enter_from_user_mode(): user_exit(), whose static key is on under nohz_full. */
void user_exit_accounting(struct task_struct *t)
{
	context_tracking_exit(t, CONTEXT_USER);
}

/* prepare_exit_to_usermode()'s user_enter(). */
void user_enter_accounting(struct task_struct *t)
{
	context_tracking_enter(t, CONTEXT_USER);
}

/* update_process_times() -> account_process_tick(), inside irq_enter()/irq_exit(). */
void tick_accounting(struct task_struct *t, int user_tick)
{
	cpu_data.preempt_count += HARDIRQ_OFFSET;
	barrier();
	account_process_tick(t, user_tick);
	barrier();
	cpu_data.preempt_count -= HARDIRQ_OFFSET;
}
