// SPDX-License-Identifier: GPL-2.0-only
/*
 * Native side of the get_nohz_timer_target differential test: the trace's own C
 * (timer_target.c, same -DTIMER_TARGET_NEW) on generated machines. One line per case:
 *   case ncpus this hk_mask[0..3] busy_mask[0..3] -> target        (hex, no 0x)
 * Inputs for case k, from rng seeded with SEED + k, in this order:
 *   ncpus = 2 + below(255); this = below(ncpus)
 *   hk: for each cpu < ncpus in order, below(8) == 0; then cpu below(ncpus) is added (never empty)
 *   busy: for each cpu < ncpus in order, below(2) == 1 (curr != idle, nr_running = 1)
 * Domains of `this`: SMT {this, this ^ 1 if < ncpus} under MC {0..ncpus-1}, as
 * traces::timer_target::harness lays them out. Memory differs from the harness (native arrays);
 * only the returned CPU is compared.
 */
#include "rng.h"
#include "../timer_target.c"

int cpu_number;
unsigned int nr_cpu_ids;
unsigned long __per_cpu_offset[NR_CPUS];
struct rq runqueues;
unsigned int housekeeping_flags = 0xd7;
struct cpumask *housekeeping_mask;
struct cpumask __cpu_online_mask;
struct cpumask __cpu_possible_mask;

static struct rq rqs[NR_CPUS];
static struct cpumask hk;
static struct sched_domain smt, mc;
static char tasks[2 * NR_CPUS];

static void set_cpu(struct cpumask *m, int cpu)
{
	m->bits[cpu / BITS_PER_LONG] |= 1UL << (cpu % BITS_PER_LONG);
}

int main(int argc, char **argv)
{
	unsigned long long seed, cases, k;

	parse_args(argc, argv, &seed, &cases);
	for (k = 0; k < cases; k++) {
		struct rng r = { seed + k };
		struct cpumask busy = { { 0 } };
		int n, cpu, i;

		n = 2 + rng_below(&r, 255);
		cpu_number = rng_below(&r, n);
		nr_cpu_ids = n;
		hk = (struct cpumask){ { 0 } };
		__cpu_online_mask = (struct cpumask){ { 0 } };
		smt = (struct sched_domain){ 0 };
		mc = (struct sched_domain){ 0 };
		for (cpu = 0; cpu < n; cpu++)
			if (rng_below(&r, 8) == 0)
				set_cpu(&hk, cpu);
		set_cpu(&hk, rng_below(&r, n));
		for (cpu = 0; cpu < n; cpu++) {
			int b = rng_below(&r, 2) == 1;

			if (b)
				set_cpu(&busy, cpu);
			rqs[cpu].idle = (struct task_struct *)&tasks[cpu];
			rqs[cpu].curr = (struct task_struct *)&tasks[b ? NR_CPUS + cpu : cpu];
			rqs[cpu].nr_running = b;
			rqs[cpu].wake_list = 0;
			rqs[cpu].sd = 0;
			__per_cpu_offset[cpu] = (char *)&rqs[cpu] - (char *)&runqueues;
			set_cpu(&__cpu_online_mask, cpu);
			set_cpu((struct cpumask *)mc.span, cpu);
		}
		__cpu_possible_mask = __cpu_online_mask;
		housekeeping_mask = &hk;
		set_cpu((struct cpumask *)smt.span, cpu_number);
		if ((cpu_number ^ 1) < n)
			set_cpu((struct cpumask *)smt.span, cpu_number ^ 1);
		smt.parent = &mc;
		rqs[cpu_number].sd = &smt;

		printf("%llu %x %x", k, n, cpu_number);
		for (i = 0; i < 4; i++)
			printf(" %lx", hk.bits[i]);
		for (i = 0; i < 4; i++)
			printf(" %lx", busy.bits[i]);
		printf(" -> %x\n", get_nohz_timer_target());
	}
	return 0;
}
