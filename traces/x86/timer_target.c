// SPDX-License-Identifier: GPL-2.0-only
/*
 * get_nohz_timer_target(): where a timer armed on this CPU should go, before and after Wanpeng
 * Li's "sched/nohz: Optimize get_nohz_timer_target()" (seed 001_fb9872666a54b8b1.txt, its first
 * patch), written for acctemu after the seed's hunk and the 5.2-era helpers it calls.
 *
 * TIMER_TARGET_NEW selects the version (build.sh passes it):
 *   0  old: walk every CPU of every domain, idle_cpu() and then housekeeping_cpu() for each
 *   1  new: walk only the domain CPUs that are also in the housekeeping mask
 *
 * Simplified, and why:
 *   - struct sched_domain keeps only parent and span; the chain hangs off this CPU's runqueue,
 *     as for_each_domain() finds it. No NUMA levels: the seed's machine is one socket.
 *   - struct rq keeps curr, idle, nr_running, wake_list and sd (our layout).
 *   - housekeeping_overridden is on (nohz_full= given): the static branch is taken, so it is
 *     written as a constant true. rcu_read_lock()/unlock() are barriers (no PREEMPT_RCU).
 *   - housekeeping_any_cpu() is the version before the seed's second (NUMA) patch.
 *   - cpumasks have NR_CPUS = 256 bits and walks stop at nr_cpu_ids (CPUMASK_OFFSTACK).
 *
 * Harness symbols: cpu_number (smp_processor_id()), nr_cpu_ids, __per_cpu_offset[],
 * runqueues (the per-cpu template), housekeeping_flags, housekeeping_mask (a cpumask pointer),
 * __cpu_online_mask, __cpu_possible_mask.
 *
 * Entry point: get_nohz_timer_target(void), the CPU in %eax.
 */
#include "kernel.h"

#ifndef TIMER_TARGET_NEW
#error "build with -DTIMER_TARGET_NEW=0 or 1"
#endif

#define NR_CPUS 256
#define BITS_PER_LONG 64
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))

#define HK_FLAG_TIMER 1

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};

struct sched_domain {
	struct sched_domain *parent;	/* 0 */
	unsigned long span[BITS_TO_LONGS(NR_CPUS)];	/* 8 */
};

struct task_struct;

struct rq {
	struct task_struct *curr;	/* 0 */
	struct task_struct *idle;	/* 8 */
	unsigned int nr_running;	/* 16 */
	void *wake_list;		/* 24: llist_head.first */
	struct sched_domain *sd;	/* 32 */
};

_Static_assert(sizeof(struct rq) == 40, "harness rq layout");
_Static_assert(sizeof(struct sched_domain) == 40, "harness sched_domain layout");

extern int cpu_number;
extern unsigned int nr_cpu_ids;
extern unsigned long __per_cpu_offset[NR_CPUS];
extern struct rq runqueues;
extern unsigned int housekeeping_flags;
extern struct cpumask *housekeeping_mask;
extern struct cpumask __cpu_online_mask;
extern struct cpumask __cpu_possible_mask;

#define nr_cpumask_bits nr_cpu_ids
#define smp_processor_id() READ_ONCE(cpu_number)
#define cpu_rq(cpu) ((struct rq *)((char *)&runqueues + __per_cpu_offset[(cpu)]))
#define cpumask_bits(m) ((m)->bits)
#define to_cpumask(b) ((struct cpumask *)(b))
#define sched_domain_span(sd) to_cpumask((sd)->span)
#define for_each_domain(cpu, __sd) \
	for (__sd = READ_ONCE(cpu_rq(cpu)->sd); __sd; __sd = __sd->parent)
#define rcu_read_lock() barrier()
#define rcu_read_unlock() barrier()

/* arch/x86/include/asm/bitops.h: `rep; bsf` (tzcnt where the CPU has it). */
static inline unsigned long __ffs(unsigned long word)
{
	__asm__("rep; bsf %1,%0" : "=r"(word) : "rm"(word));
	return word;
}

static inline bool variable_test_bit(long nr, const volatile unsigned long *addr)
{
	bool oldbit;

	__asm__ __volatile__("bt %2,%1" : "=@ccc"(oldbit) : "m"(*(unsigned long *)addr), "Ir"(nr));
	return oldbit;
}

/* ---- lib/find_bit.c ---- */

static inline unsigned long _find_next_bit(const unsigned long *addr1, const unsigned long *addr2,
					   unsigned long nbits, unsigned long start,
					   unsigned long invert)
{
	unsigned long tmp;

	if (unlikely(start >= nbits))
		return nbits;

	tmp = addr1[start / BITS_PER_LONG];
	if (addr2)
		tmp &= addr2[start / BITS_PER_LONG];
	tmp ^= invert;

	/* Drop the bits below start in the first word. */
	tmp &= BITMAP_FIRST_WORD_MASK(start);
	start &= ~(unsigned long)(BITS_PER_LONG - 1);

	while (!tmp) {
		start += BITS_PER_LONG;
		if (start >= nbits)
			return nbits;

		tmp = addr1[start / BITS_PER_LONG];
		if (addr2)
			tmp &= addr2[start / BITS_PER_LONG];
		tmp ^= invert;
	}

	start += __ffs(tmp);
	return start < nbits ? start : nbits;
}

__tu_boundary unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
					  unsigned long offset)
{
	return _find_next_bit(addr, NULL, size, offset, 0UL);
}

__tu_boundary unsigned long find_next_and_bit(const unsigned long *addr1, const unsigned long *addr2,
					      unsigned long size, unsigned long offset)
{
	return _find_next_bit(addr1, addr2, size, offset, 0UL);
}

/* ---- lib/cpumask.c ---- */

__tu_boundary unsigned int cpumask_next(int n, const struct cpumask *srcp)
{
	return find_next_bit(cpumask_bits(srcp), nr_cpumask_bits, n + 1);
}

__tu_boundary int cpumask_next_and(int n, const struct cpumask *src1p, const struct cpumask *src2p)
{
	return find_next_and_bit(cpumask_bits(src1p), cpumask_bits(src2p), nr_cpumask_bits, n + 1);
}

#define for_each_cpu(cpu, mask) \
	for ((cpu) = -1; (cpu) = cpumask_next((cpu), (mask)), (cpu) < (int)nr_cpu_ids;)
#define for_each_cpu_and(cpu, mask1, mask2) \
	for ((cpu) = -1; (cpu) = cpumask_next_and((cpu), (mask1), (mask2)), (cpu) < (int)nr_cpu_ids;)
#define cpumask_any_and(mask1, mask2) cpumask_next_and(-1, (mask1), (mask2))

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *cpumask)
{
	return variable_test_bit(cpu, cpumask_bits(cpumask));
}

/* ---- kernel/sched/isolation.c ---- */

__tu_boundary int housekeeping_any_cpu(unsigned int flags)
{
	/* static_branch_unlikely(&housekeeping_overridden): on */
	if (housekeeping_flags & flags)
		return cpumask_any_and(housekeeping_mask, &__cpu_online_mask);
	return smp_processor_id();
}

__tu_boundary const struct cpumask *housekeeping_cpumask(unsigned int flags)
{
	/* static_branch_unlikely(&housekeeping_overridden): on */
	if (housekeeping_flags & flags)
		return housekeeping_mask;
	return &__cpu_possible_mask;
}

__tu_boundary bool housekeeping_test_cpu(int cpu, unsigned int flags)
{
	/* static_branch_unlikely(&housekeeping_overridden): on */
	if (housekeeping_flags & flags)
		return cpumask_test_cpu(cpu, housekeeping_mask);
	return true;
}

/* include/linux/sched/isolation.h */
static inline bool housekeeping_cpu(int cpu, unsigned int flags)
{
	/* static_branch_unlikely(&housekeeping_overridden): on */
	return housekeeping_test_cpu(cpu, flags);
}

/* ---- kernel/sched/core.c ---- */

int idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	if (rq->curr != rq->idle)
		return 0;

	if (rq->nr_running)
		return 0;

	if (READ_ONCE(rq->wake_list) != NULL)
		return 0;

	return 1;
}

#if TIMER_TARGET_NEW == 0
int get_nohz_timer_target(void)
{
	int i, cpu = smp_processor_id();
	struct sched_domain *sd;

	if (!idle_cpu(cpu) && housekeeping_cpu(cpu, HK_FLAG_TIMER))
		return cpu;

	rcu_read_lock();
	for_each_domain(cpu, sd) {
		for_each_cpu(i, sched_domain_span(sd)) {
			if (cpu == i)
				continue;

			if (!idle_cpu(i) && housekeeping_cpu(i, HK_FLAG_TIMER)) {
				cpu = i;
				goto unlock;
			}
		}
	}

	if (!housekeeping_cpu(cpu, HK_FLAG_TIMER))
		cpu = housekeeping_any_cpu(HK_FLAG_TIMER);
unlock:
	rcu_read_unlock();
	return cpu;
}
#else
int get_nohz_timer_target(void)
{
	int i, cpu = smp_processor_id(), default_cpu = -1;
	struct sched_domain *sd;

	if (housekeeping_cpu(cpu, HK_FLAG_TIMER)) {
		if (!idle_cpu(cpu))
			return cpu;
		default_cpu = cpu;
	}

	rcu_read_lock();
	for_each_domain(cpu, sd) {
		for_each_cpu_and(i, sched_domain_span(sd), housekeeping_cpumask(HK_FLAG_TIMER)) {
			if (cpu == i)
				continue;

			if (!idle_cpu(i)) {
				cpu = i;
				goto unlock;
			}
		}
	}

	if (default_cpu == -1)
		default_cpu = housekeeping_any_cpu(HK_FLAG_TIMER);
	cpu = default_cpu;
unlock:
	rcu_read_unlock();
	return cpu;
}
#endif
