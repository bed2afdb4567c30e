// SPDX-License-Identifier: GPL-2.0-only
/*
 * s390 virtual CPU-time accounting (arch/s390/kernel/vtime.c of Linux 4.10 and 4.11) and the
 * generic accounting it calls, written for acctemu after /work/shared/reference/s390-accounting.md
 * and seed 002 (Martin Schwidefsky, "s390/cputime: delayed accounting of system time", in
 * Frederic Weisbecker's "vtime: Delay cputime accounting to tick"). Not copied from the kernel.
 *
 * DELAYED selects the version (build.sh passes it, and -DLOWCORE_411 with it):
 *   undefined  4.10, immediate: every irq enter/exit and guest switch reads the CPU timer, adds
 *              the elapsed time to SYSTEM_TIMER, takes the delta against the thread snapshot
 *              off STEAL_TIMER and calls account_system_time() right away
 *   defined    4.11, delayed: irq enter/exit adds the elapsed time to ONE lowcore bucket
 *              (GUEST, HARDIRQ, SOFTIRQ or SYSTEM); the tick (vtime_flush) and the task switch
 *              turn the five buckets into nanoseconds and account them
 *
 * Units: the CPU timer and TOD clock tick 4096 times per microsecond; cputime_to_nsecs() is
 * (x * 1000) >> 12. The 4.10 accounting functions take timer units and convert when they touch
 * cpustat; the 4.11 ones take nanoseconds (cputime_t was gone by then).
 *
 * Structures keep only the fields these paths use, in our layout (the _Static_asserts are what
 * the harnesses rely on). The lowcore is at absolute address 0, reached as the kernel reaches
 * it: through a null-based pointer, hence -fno-delete-null-pointer-checks.
 *
 * Entry points (task in r2, returning through r14):
 *   vtime_init()                    set the CPU timer and the LAST_UPDATE snapshots (boot)
 *   vtime_account_irq_enter(tsk)    hardirq/softirq entry accounting (also vtime_account_system)
 *   vtime_account_irq_exit(tsk)     the same accounting at irq exit
 *   irq_enter_accounting(tsk)       __irq_enter: the accounting, then HARDIRQ_OFFSET on
 *   irq_exit_accounting(tsk)        irq_exit: the accounting, then HARDIRQ_OFFSET off
 *   vtime_guest_enter(tsk)          guest_enter_irqoff: flush system time, set PF_VCPU
 *   vtime_guest_exit(tsk)           guest_exit_irqoff: flush guest time, clear PF_VCPU
 *   vtime_flush(tsk)                the tick (4.10 calls it vtime_account_user)
 *   vtime_task_switch(prev)         after the switch; the next task is lowcore's current task
 */
#include "lowcore.h"

typedef unsigned char u8;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long u64;
typedef long s64;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))

#define NSEC_PER_USEC 1000UL
#define VTIMER_MAX_SLICE 0x7fffffffffffffffUL

/* include/linux/preempt.h */
#define SOFTIRQ_OFFSET 0x100U
#define SOFTIRQ_MASK 0xff00U
#define HARDIRQ_OFFSET 0x10000U
#define HARDIRQ_MASK 0xf0000U
#define NMI_MASK 0x100000U

#define PF_VCPU 0x10U

/* include/linux/kernel_stat.h */
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

/* The fields of struct lowcore these paths use, at the offsets of lowcore.h. */
struct lowcore {
	u8 pad0[LC_SYNC_ENTER_TIMER];
	u64 sync_enter_timer;
	u64 async_enter_timer;
	u64 mcck_enter_timer;
	u64 exit_timer;
	u64 user_timer;
#ifdef DELAYED
	u64 guest_timer;
	u64 system_timer;
	u64 hardirq_timer;
	u64 softirq_timer;
#else
	u64 system_timer;
#endif
	u64 steal_timer;
	u64 last_update_timer;
	u64 last_update_clock;
	u64 int_clock;
	u8 pad1[LC_CURRENT_TASK - LC_INT_CLOCK - 8];
	struct task_struct *current_task;
	u8 pad2[LC_PREEMPT_COUNT - LC_CURRENT_TASK - 8];
	u32 preempt_count;
};

#define LC_FIELD(f, off) _Static_assert(__builtin_offsetof(struct lowcore, f) == (off), #f)
LC_FIELD(exit_timer, LC_EXIT_TIMER);
LC_FIELD(user_timer, LC_USER_TIMER);
LC_FIELD(system_timer, LC_SYSTEM_TIMER);
#ifdef DELAYED
LC_FIELD(guest_timer, LC_GUEST_TIMER);
LC_FIELD(hardirq_timer, LC_HARDIRQ_TIMER);
LC_FIELD(softirq_timer, LC_SOFTIRQ_TIMER);
#endif
LC_FIELD(steal_timer, LC_STEAL_TIMER);
LC_FIELD(last_update_timer, LC_LAST_UPDATE_TIMER);
LC_FIELD(last_update_clock, LC_LAST_UPDATE_CLOCK);
LC_FIELD(current_task, LC_CURRENT_TASK);
LC_FIELD(preempt_count, LC_PREEMPT_COUNT);

#define S390_lowcore (*(struct lowcore *)0)

/* The thread group's running cputimer (signal_struct->cputimer), atomically updated. */
struct signal_struct {
	u32 cputimer_running;	/* 0 */
	u32 pad;
	u64 cputimer_utime;	/* 8, ns */
	u64 cputimer_stime;	/* 16, ns */
};

/* One cpuacct cgroup with this CPU's cpustat; the root's is the global kcpustat. */
struct cpuacct {
	struct cpuacct *parent;	/* 0 */
	u64 cpustat[NR_STATS];	/* 8, ns */
};

struct mm_struct {
	u64 rss;		/* 0, pages */
	u64 total_vm;		/* 8, pages */
};

/*
 * The s390 thread's vtime snapshots (thread_info in 4.10, thread_struct in 4.11) sit inside
 * the task here; both are per-task, in timer units.
 */
struct task_struct {
	u32 flags;		/* 0: PF_VCPU */
	s32 static_prio;	/* 4: 120 is nice 0 */
	u64 utime;		/* 8: 4.10 timer units, 4.11 ns */
	u64 stime;		/* 16 */
	u64 utimescaled;	/* 24 */
	u64 stimescaled;	/* 32 */
	u64 gtime;		/* 40 */
	u64 user_timer;		/* 48: thread snapshots, timer units */
	u64 system_timer;	/* 56 */
	u64 guest_timer;	/* 64 (4.11 only) */
	u64 hardirq_timer;	/* 72 (4.11 only) */
	u64 softirq_timer;	/* 80 (4.11 only) */
	struct signal_struct *signal;	/* 88 */
	struct cpuacct *cpuacct;	/* 96 */
	struct mm_struct *mm;		/* 104 */
	u64 acct_timexpd;	/* 112: ns */
	u64 acct_rss_mem1;	/* 120: pages * (ns >> 10) */
	u64 acct_vm_mem1;	/* 128 */
};

_Static_assert(__builtin_offsetof(struct task_struct, user_timer) == 48, "harness task layout");
_Static_assert(__builtin_offsetof(struct task_struct, acct_vm_mem1) == 128, "harness task layout");
_Static_assert(sizeof(struct cpuacct) == 88, "harness cpuacct layout");

/* Harness data: this CPU's kcpustat, the root cgroup, SMT scaling, the virtual timers. */
extern u64 kcpustat[NR_STATS];
extern struct cpuacct root_cpuacct;
extern u32 smp_cpu_mtid;	/* 0: no SMT, no scaling */
extern u64 mt_scaling_mult;
extern u64 mt_scaling_div;
extern u64 virt_timer_elapsed;	/* atomic; grows while virt timers are queued */
extern u32 virt_timer_active;

/* arch/s390/include/asm/timex.h, cputime.h: the clocks, read with the privileged STPT. */
static inline u64 stpt(void)
{
	u64 timer;

	__asm__ __volatile__("stpt %0" : "=Q"(timer));
	return timer;
}

static inline void stpt_to(u64 *where)
{
	__asm__ __volatile__("stpt %0" : "=Q"(*where));
}

static inline void stckf_to(u64 *where)
{
	__asm__ __volatile__("stckf %0" : "=Q"(*where) : : "cc");
}

static inline u64 cputime_to_nsecs(u64 t)
{
	return (t * NSEC_PER_USEC) >> 12;
}

static inline struct task_struct *current_task(void)
{
	return S390_lowcore.current_task;
}

static inline u32 preempt_count(void)
{
	return READ_ONCE(S390_lowcore.preempt_count);
}

#define hardirq_count() (preempt_count() & HARDIRQ_MASK)
#define irq_count() (preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK | NMI_MASK))
#define in_serving_softirq() (preempt_count() & SOFTIRQ_OFFSET)

/* SMT: scale by the fraction of the core's threads that ran (smp_cpu_mtid 0: none). */
static inline u64 scale_vtime(u64 vtime)
{
	if (smp_cpu_mtid)
		return vtime * mt_scaling_mult / mt_scaling_div;
	return vtime;
}

/* virt_timer_forward(): queued virtual timers see the accounted time go by. */
static inline void virt_timer_forward(u64 elapsed)
{
	if (virt_timer_active)
		__atomic_fetch_add(&virt_timer_elapsed, elapsed, __ATOMIC_SEQ_CST);
}

/* ---- kernel/sched/cputime.c and friends: the accounting the vtime code feeds ---- */

/* cpuacct_account_field(): every cgroup level below the root keeps its own cpustat. */
static void cpuacct_account_field(struct task_struct *p, int index, u64 ns)
{
	for (struct cpuacct *ca = p->cpuacct; ca && ca != &root_cpuacct; ca = ca->parent)
		ca->cpustat[index] += ns;
}

static void task_group_account_field(struct task_struct *p, int index, u64 ns)
{
	kcpustat[index] += ns;
	cpuacct_account_field(p, index, ns);
}

/* The thread group's cputimer, only while a process-wide timer is armed. */
static void account_group_time(struct task_struct *p, u64 *field, u64 ns)
{
	if (!READ_ONCE(p->signal->cputimer_running))
		return;
	__atomic_fetch_add(field, ns, __ATOMIC_RELAXED);
}

/* acct_account_cputime(): BSD accounting's memory integrals, updated per 1024 ns. */
static void acct_account_cputime(struct task_struct *p, u64 total_ns)
{
	u64 delta = total_ns - p->acct_timexpd;

	if (delta < 1024 || !p->mm)
		return;
	p->acct_timexpd = total_ns;
	delta >>= 10;
	p->acct_rss_mem1 += delta * p->mm->rss;
	p->acct_vm_mem1 += delta * p->mm->total_vm;
}

#ifndef DELAYED
/*
 * 4.10: cputime in CPU-timer units; cpustat and the group timer take nanoseconds. noinline:
 * these are in kernel/sched/cputime.c, a call away from arch/s390/kernel/vtime.c.
 */
static __attribute__((noinline)) void account_user_time(struct task_struct *p, u64 cputime)
{
	u64 ns = cputime_to_nsecs(cputime);

	p->utime += cputime;
	account_group_time(p, &p->signal->cputimer_utime, ns);
	task_group_account_field(p, p->static_prio > 120 ? CPUTIME_NICE : CPUTIME_USER, ns);
	acct_account_cputime(p, cputime_to_nsecs(p->utime + p->stime));
}

static void account_guest_time(struct task_struct *p, u64 cputime)
{
	u64 ns = cputime_to_nsecs(cputime);

	p->utime += cputime;
	account_group_time(p, &p->signal->cputimer_utime, ns);
	acct_account_cputime(p, cputime_to_nsecs(p->utime + p->stime));
	p->gtime += cputime;
	if (p->static_prio > 120) {
		kcpustat[CPUTIME_NICE] += ns;
		kcpustat[CPUTIME_GUEST_NICE] += ns;
	} else {
		kcpustat[CPUTIME_USER] += ns;
		kcpustat[CPUTIME_GUEST] += ns;
	}
}

static void __account_system_time(struct task_struct *p, u64 cputime, int index)
{
	u64 ns = cputime_to_nsecs(cputime);

	p->stime += cputime;
	account_group_time(p, &p->signal->cputimer_stime, ns);
	task_group_account_field(p, index, ns);
	acct_account_cputime(p, cputime_to_nsecs(p->utime + p->stime));
}

/* account_system_time(): which of guest, hardirq, softirq or system time this was. */
static __attribute__((noinline)) void account_system_time(struct task_struct *p, int hardirq_offset, u64 cputime)
{
	int index;

	if ((p->flags & PF_VCPU) && (irq_count() - hardirq_offset == 0)) {
		account_guest_time(p, cputime);
		return;
	}
	if (hardirq_count() - hardirq_offset)
		index = CPUTIME_IRQ;
	else if (in_serving_softirq())
		index = CPUTIME_SOFTIRQ;
	else
		index = CPUTIME_SYSTEM;
	__account_system_time(p, cputime, index);
}

static __attribute__((noinline)) void account_steal_time(u64 cputime)
{
	kcpustat[CPUTIME_STEAL] += cputime_to_nsecs(cputime);
}

/* do_account_vtime(), 4.10: user and system against the thread snapshot, then steal. */
static void do_account_vtime(struct task_struct *tsk, int hardirq_offset)
{
	u64 timer = S390_lowcore.last_update_timer;
	u64 clock = S390_lowcore.last_update_clock;
	u64 user, system, steal;

	stpt_to(&S390_lowcore.last_update_timer);
	stckf_to(&S390_lowcore.last_update_clock);
	/* The CPU timer counts down, the TOD clock up. */
	S390_lowcore.system_timer += timer - S390_lowcore.last_update_timer;
	S390_lowcore.steal_timer += S390_lowcore.last_update_clock - clock;

	user = S390_lowcore.user_timer - tsk->user_timer;
	S390_lowcore.steal_timer -= user;
	tsk->user_timer = S390_lowcore.user_timer;

	system = S390_lowcore.system_timer - tsk->system_timer;
	S390_lowcore.steal_timer -= system;
	tsk->system_timer = S390_lowcore.system_timer;

	account_user_time(tsk, user);
	tsk->utimescaled += scale_vtime(user);
	account_system_time(tsk, hardirq_offset, system);
	tsk->stimescaled += scale_vtime(system);

	steal = S390_lowcore.steal_timer;
	if ((s64)steal > 0) {
		S390_lowcore.steal_timer = 0;
		account_steal_time(steal);
	}
	virt_timer_forward(user + system);
}

/* The tick (account_process_tick -> vtime_account_user in 4.10), in hardirq context. */
void vtime_flush(struct task_struct *tsk)
{
	do_account_vtime(tsk, HARDIRQ_OFFSET);
}

void vtime_task_switch(struct task_struct *prev)
{
	struct task_struct *next = current_task();

	do_account_vtime(prev, 0);
	prev->user_timer = S390_lowcore.user_timer;
	prev->system_timer = S390_lowcore.system_timer;
	S390_lowcore.user_timer = next->user_timer;
	S390_lowcore.system_timer = next->system_timer;
}

/* 4.10: the time since the last update is system time, accounted now. */
__attribute__((noinline)) void vtime_account_irq_enter(struct task_struct *tsk)
{
	u64 timer = S390_lowcore.last_update_timer;
	u64 system;

	S390_lowcore.last_update_timer = stpt();
	S390_lowcore.system_timer += timer - S390_lowcore.last_update_timer;

	system = S390_lowcore.system_timer - tsk->system_timer;
	S390_lowcore.steal_timer -= system;
	tsk->system_timer = S390_lowcore.system_timer;

	account_system_time(tsk, 0, system);
	tsk->stimescaled += scale_vtime(system);
	virt_timer_forward(system);
}

#else /* DELAYED */

/* 4.11: the accounting takes nanoseconds. */
static __attribute__((noinline)) void account_user_time(struct task_struct *p, u64 ns)
{
	p->utime += ns;
	account_group_time(p, &p->signal->cputimer_utime, ns);
	task_group_account_field(p, p->static_prio > 120 ? CPUTIME_NICE : CPUTIME_USER, ns);
	acct_account_cputime(p, p->utime + p->stime);
}

static __attribute__((noinline)) void account_guest_time(struct task_struct *p, u64 ns)
{
	p->utime += ns;
	account_group_time(p, &p->signal->cputimer_utime, ns);
	acct_account_cputime(p, p->utime + p->stime);
	p->gtime += ns;
	if (p->static_prio > 120) {
		kcpustat[CPUTIME_NICE] += ns;
		kcpustat[CPUTIME_GUEST_NICE] += ns;
	} else {
		kcpustat[CPUTIME_USER] += ns;
		kcpustat[CPUTIME_GUEST] += ns;
	}
}

/* account_system_index_time(): the caller already knows the cpustat index. */
static __attribute__((noinline)) void account_system_index_time(struct task_struct *p, u64 ns, u64 scaled,
								int index)
{
	p->stime += ns;
	p->stimescaled += scaled;
	account_group_time(p, &p->signal->cputimer_stime, ns);
	task_group_account_field(p, index, ns);
	acct_account_cputime(p, p->utime + p->stime);
}

static __attribute__((noinline)) void account_steal_time(u64 ns)
{
	kcpustat[CPUTIME_STEAL] += ns;
}

/* The growth of one lowcore bucket since the task's snapshot, which moves up to it. */
static inline u64 update_tsk_timer(u64 *tsk_vtime, u64 new)
{
	u64 delta = new - *tsk_vtime;

	*tsk_vtime = new;
	return delta;
}

/* do_account_vtime(), 4.11: five buckets against the snapshots, each accounted in ns. */
static void do_account_vtime(struct task_struct *tsk)
{
	u64 timer = S390_lowcore.last_update_timer;
	u64 clock = S390_lowcore.last_update_clock;
	u64 user, guest, system, hardirq, softirq, steal;

	stpt_to(&S390_lowcore.last_update_timer);
	stckf_to(&S390_lowcore.last_update_clock);
	clock = S390_lowcore.last_update_clock - clock;
	timer -= S390_lowcore.last_update_timer;

	if (hardirq_count())
		S390_lowcore.hardirq_timer += timer;
	else
		S390_lowcore.system_timer += timer;

	user = update_tsk_timer(&tsk->user_timer, READ_ONCE(S390_lowcore.user_timer));
	guest = update_tsk_timer(&tsk->guest_timer, READ_ONCE(S390_lowcore.guest_timer));
	system = update_tsk_timer(&tsk->system_timer, READ_ONCE(S390_lowcore.system_timer));
	hardirq = update_tsk_timer(&tsk->hardirq_timer, READ_ONCE(S390_lowcore.hardirq_timer));
	softirq = update_tsk_timer(&tsk->softirq_timer, READ_ONCE(S390_lowcore.softirq_timer));
	S390_lowcore.steal_timer += clock - user - guest - system - hardirq - softirq;

	if (user) {
		account_user_time(tsk, cputime_to_nsecs(user));
		tsk->utimescaled += cputime_to_nsecs(scale_vtime(user));
	}
	if (guest) {
		account_guest_time(tsk, cputime_to_nsecs(guest));
		tsk->utimescaled += cputime_to_nsecs(scale_vtime(guest));
	}
	if (system)
		account_system_index_time(tsk, cputime_to_nsecs(system), cputime_to_nsecs(scale_vtime(system)),
					  CPUTIME_SYSTEM);
	if (hardirq)
		account_system_index_time(tsk, cputime_to_nsecs(hardirq), cputime_to_nsecs(scale_vtime(hardirq)),
					  CPUTIME_IRQ);
	if (softirq)
		account_system_index_time(tsk, cputime_to_nsecs(softirq), cputime_to_nsecs(scale_vtime(softirq)),
					  CPUTIME_SOFTIRQ);

	steal = S390_lowcore.steal_timer;
	if ((s64)steal > 0) {
		S390_lowcore.steal_timer = 0;
		account_steal_time(cputime_to_nsecs(steal));
	}
	virt_timer_forward(user + guest + system + hardirq + softirq);
}

void vtime_flush(struct task_struct *tsk)
{
	do_account_vtime(tsk);
}

/* Save the five accumulators into prev's snapshots and load next's. */
void vtime_task_switch(struct task_struct *prev)
{
	struct task_struct *next = current_task();

	do_account_vtime(prev);
	prev->user_timer = S390_lowcore.user_timer;
	prev->guest_timer = S390_lowcore.guest_timer;
	prev->system_timer = S390_lowcore.system_timer;
	prev->hardirq_timer = S390_lowcore.hardirq_timer;
	prev->softirq_timer = S390_lowcore.softirq_timer;
	S390_lowcore.user_timer = next->user_timer;
	S390_lowcore.guest_timer = next->guest_timer;
	S390_lowcore.system_timer = next->system_timer;
	S390_lowcore.hardirq_timer = next->hardirq_timer;
	S390_lowcore.softirq_timer = next->softirq_timer;
}

/* 4.11: the time since the last update goes to one bucket; the tick accounts it. */
__attribute__((noinline)) void vtime_account_irq_enter(struct task_struct *tsk)
{
	u64 timer = S390_lowcore.last_update_timer;

	S390_lowcore.last_update_timer = stpt();
	timer -= S390_lowcore.last_update_timer;

	if ((tsk->flags & PF_VCPU) && irq_count() == 0)
		S390_lowcore.guest_timer += timer;
	else if (hardirq_count())
		S390_lowcore.hardirq_timer += timer;
	else if (in_serving_softirq())
		S390_lowcore.softirq_timer += timer;
	else
		S390_lowcore.system_timer += timer;

	virt_timer_forward(timer);
}

#endif /* DELAYED */

/* ---- common to both versions ---- */

/* vtime_init(): start the CPU timer at the maximum slice; everything before is unaccounted. */
void vtime_init(void)
{
	u64 max = VTIMER_MAX_SLICE;

	__asm__ __volatile__("spt %0" : : "Q"(max));
	S390_lowcore.last_update_timer = max;
	S390_lowcore.exit_timer = max;
	stckf_to(&S390_lowcore.last_update_clock);
}

/* include/linux/vtime.h: irq exit always accounts to hardirq or softirq, as entry does. */
void vtime_account_irq_exit(struct task_struct *tsk)
{
	vtime_account_irq_enter(tsk);
}

/* kernel/softirq.c __irq_enter / irq_exit, their accounting half. */
void irq_enter_accounting(struct task_struct *tsk)
{
	vtime_account_irq_enter(tsk);
	S390_lowcore.preempt_count += HARDIRQ_OFFSET;
}

void irq_exit_accounting(struct task_struct *tsk)
{
	vtime_account_irq_enter(tsk);
	S390_lowcore.preempt_count -= HARDIRQ_OFFSET;
}

/* include/linux/context_tracking.h guest_enter_irqoff / guest_exit_irqoff (NATIVE). */
void vtime_guest_enter(struct task_struct *tsk)
{
	vtime_account_irq_enter(tsk);
	tsk->flags |= PF_VCPU;
}

void vtime_guest_exit(struct task_struct *tsk)
{
	vtime_account_irq_enter(tsk);
	tsk->flags &= ~PF_VCPU;
}
