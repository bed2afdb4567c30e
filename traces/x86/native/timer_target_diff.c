// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte-exact native side of the get_nohz_timer_target differential test
 * (traces/tests/x86_differential): the trace's own C (timer_target.c, same -DTIMER_TARGET_NEW)
 * on generated machines of 2..256 CPUs with mixed idle states (busy, queued tasks, a pending
 * wake list), offline CPUs, a housekeeping mask that may be empty, HK_FLAG_TIMER on or off,
 * and zero, one or two domain levels whose top span may be partial.
 *
 * Output, one line per case: `k ret` (the returned CPU, hex) and the dump.h words of the data
 * the function reads, which it must leave as it found them: the housekeeping, online and
 * possible masks, the smt and mc domains, and runqueues 0..ncpus-1.
 *
 * Inputs of case k, from rng seeded with SEED + k, in this order (everything zeroed first):
 *   n = 2 + below(255); this = below(n); housekeeping_flags = below(8) == 0 ? 0xd6 : 0xd7
 *   hk: for cpu < n, set if below(8) == 0; then if below(4) != 0, set below(n)
 *   online: for cpu < n, set if below(16) != 0; possible = cpus 0..n-1
 *   for cpu < n: state = below(8); rq.idle = &tasks[cpu];
 *     0..3 idle: curr = idle, nr_running = 0        4, 5 busy: curr = &tasks[256 + cpu], nr_running = 1
 *     6 curr = idle, nr_running = 1 + below(3)     7 curr = idle, wake_list = &tasks[511]
 *   partial = below(4) == 0: mc span = cpus 0..n-1, or for cpu < n those with below(2) == 1
 *   smt span = {this, this ^ 1 if < n}; depth = below(4): 0 no domain, 1 smt alone,
 *     2, 3 smt under mc; rq[this].sd = depth ? &smt : NULL
 */
#include "rng.h"
#include "dump.h"
#include "../timer_target.c"

int cpu_number;
unsigned int nr_cpu_ids;
unsigned long __per_cpu_offset[NR_CPUS];
struct rq runqueues;
unsigned int housekeeping_flags;
struct cpumask *housekeeping_mask;
struct cpumask __cpu_online_mask;
struct cpumask __cpu_possible_mask;

static struct rq rqs[NR_CPUS];
static struct cpumask hk;
static struct sched_domain smt, mc;
static char tasks[2 * NR_CPUS];

static const unsigned RQ_PTRS[] = { 0, 8, 24, 32 };
static const unsigned SD_PTRS[] = { 0 };

static void set_cpu(unsigned long *bits, int cpu)
{
	bits[cpu / BITS_PER_LONG] |= 1UL << (cpu % BITS_PER_LONG);
}

int main(int argc, char **argv)
{
	const struct dump_object objs[] = {
		{ "tasks", tasks, sizeof(tasks) },
		{ "smt", &smt, sizeof(smt) },
		{ "mc", &mc, sizeof(mc) },
	};
	unsigned long long seed, cases, k;

	parse_args(argc, argv, &seed, &cases);
	for (k = 0; k < cases; k++) {
		struct rng r = { seed + k };
		int n, cpu, depth, ret;

		__builtin_memset(rqs, 0, sizeof(rqs));
		__builtin_memset(&hk, 0, sizeof(hk));
		__builtin_memset(&__cpu_online_mask, 0, sizeof(__cpu_online_mask));
		__builtin_memset(&__cpu_possible_mask, 0, sizeof(__cpu_possible_mask));
		__builtin_memset(&smt, 0, sizeof(smt));
		__builtin_memset(&mc, 0, sizeof(mc));

		n = 2 + rng_below(&r, 255);
		cpu_number = rng_below(&r, n);
		nr_cpu_ids = n;
		housekeeping_flags = rng_below(&r, 8) == 0 ? 0xd6 : 0xd7;
		for (cpu = 0; cpu < n; cpu++)
			if (rng_below(&r, 8) == 0)
				set_cpu(hk.bits, cpu);
		if (rng_below(&r, 4) != 0)
			set_cpu(hk.bits, rng_below(&r, n));
		for (cpu = 0; cpu < n; cpu++) {
			if (rng_below(&r, 16) != 0)
				set_cpu(__cpu_online_mask.bits, cpu);
			set_cpu(__cpu_possible_mask.bits, cpu);
		}
		for (cpu = 0; cpu < n; cpu++) {
			unsigned state = rng_below(&r, 8);

			rqs[cpu].idle = (struct task_struct *)&tasks[cpu];
			rqs[cpu].curr = rqs[cpu].idle;
			if (state == 4 || state == 5) {
				rqs[cpu].curr = (struct task_struct *)&tasks[NR_CPUS + cpu];
				rqs[cpu].nr_running = 1;
			} else if (state == 6) {
				rqs[cpu].nr_running = 1 + rng_below(&r, 3);
			} else if (state == 7) {
				rqs[cpu].wake_list = &tasks[2 * NR_CPUS - 1];
			}
			__per_cpu_offset[cpu] = (char *)&rqs[cpu] - (char *)&runqueues;
		}
		if (rng_below(&r, 4) == 0) {
			for (cpu = 0; cpu < n; cpu++)
				if (rng_below(&r, 2) == 1)
					set_cpu(mc.span, cpu);
		} else {
			for (cpu = 0; cpu < n; cpu++)
				set_cpu(mc.span, cpu);
		}
		set_cpu(smt.span, cpu_number);
		if ((cpu_number ^ 1) < n)
			set_cpu(smt.span, cpu_number ^ 1);
		depth = rng_below(&r, 4);
		smt.parent = depth >= 2 ? &mc : NULL;
		rqs[cpu_number].sd = depth ? &smt : NULL;
		housekeeping_mask = &hk;

		ret = get_nohz_timer_target();

		printf("%llu %x", k, (unsigned)ret);
		dump_struct("hk", &hk, sizeof(hk), 0, 0, objs, 3);
		dump_struct("online", &__cpu_online_mask, sizeof(hk), 0, 0, objs, 3);
		dump_struct("possible", &__cpu_possible_mask, sizeof(hk), 0, 0, objs, 3);
		dump_struct("smt", &smt, sizeof(smt), SD_PTRS, 1, objs, 3);
		dump_struct("mc", &mc, sizeof(mc), SD_PTRS, 1, objs, 3);
		printf(" rqs:");
		for (cpu = 0; cpu < n; cpu++)
			dump_words(&rqs[cpu], sizeof(rqs[cpu]), RQ_PTRS, 4, objs, 3);
		printf("\n");
	}
	return 0;
}
