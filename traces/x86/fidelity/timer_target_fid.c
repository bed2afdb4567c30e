// SPDX-License-Identifier: GPL-2.0-only
/*
 * Native measurement of get_nohz_timer_target() for the fidelity table. Linked with a trace
 * object built by fidelity.sh from ../timer_target.c (-DTIMER_TARGET_NEW=0 or 1, the flags of
 * ../build.sh). -DOBJ='"name"' names the object in the row keys.
 *
 * The state is ../harness/timer-target.toml's, `traces::timer_target::harness(40, 2)`: 40 CPUs,
 * CPU 0 housekeeping and idle, CPUs 1..39 nohz_full and busy, CPU 2 arming the timer, sched
 * domains SMT {2, 3} under MC {0..39}; runqueue i at runqueues + i * 0x40, idle task i at
 * tasks + 0x100 * i, running task at tasks + 0x8000 + 0x100 * i. The function only reads, so
 * every call sees the same state. The row prints the returned CPU as a check (both versions: 0).
 */
#include <string.h>

#include "measure.h"

#ifndef OBJ
#error "build with -DOBJ='\"name\"'"
#endif

#define NCPUS 40
#define THIS 2

int get_nohz_timer_target(void *unused_a, long unused_b);

#define REGION(name, size) unsigned char name[size] __attribute__((aligned(4096)))

/* The trace's extern symbols. */
REGION(cpu_number, 4096);
REGION(nr_cpu_ids, 4096);
REGION(housekeeping_flags, 4096);
REGION(housekeeping_mask, 4096);
REGION(__cpu_online_mask, 4096);
REGION(__cpu_possible_mask, 4096);
REGION(__per_cpu_offset, 4096);
REGION(runqueues, 4096);
/* Regions only reached through pointers. */
static REGION(tasks, 0x20000);
static REGION(sched_domains, 4096);

static void put32(unsigned char *r, int at, uint32_t v)
{
	memcpy(r + at, &v, sizeof v);
}

static void put64(unsigned char *r, int at, uint64_t v)
{
	memcpy(r + at, &v, sizeof v);
}

static void harness_state(void)
{
	uint64_t all = (1ULL << NCPUS) - 1;

	put32(cpu_number, 0, THIS);
	put32(nr_cpu_ids, 0, NCPUS);
	put32(housekeeping_flags, 0, 0xd7);
	put64(housekeeping_mask, 0, (uint64_t)(housekeeping_mask + 0x100));
	put64(housekeeping_mask, 0x100, 0x1);  /* CPU 0 only */
	put64(__cpu_online_mask, 0, all);
	put64(__cpu_possible_mask, 0, all);
	for (int i = 0; i < NCPUS; i++) {
		int rq = 0x40 * i;
		int busy = i != 0;

		put64(__per_cpu_offset, 8 * i, (uint64_t)rq);
		put64(runqueues, rq + 0, (uint64_t)(tasks + (busy ? 0x8000 : 0) + 0x100 * i));
		put64(runqueues, rq + 8, (uint64_t)(tasks + 0x100 * i));
		put64(runqueues, rq + 16, busy);
		put64(runqueues, rq + 24, 0);
		put64(runqueues, rq + 32, i == THIS ? (uint64_t)sched_domains : 0);
	}
	put64(sched_domains, 0, (uint64_t)(sched_domains + 0x40));  /* SMT: parent MC */
	put64(sched_domains, 8, (1ULL << THIS) | (1ULL << (THIS ^ 1)));
	put64(sched_domains, 0x40, 0);                               /* MC: no parent */
	put64(sched_domains, 0x48, all);
}

#define NO_SETUP ((void)0)
#define ONE(C) C(get_nohz_timer_target, 0, 0)

ROW_LOOPS(tt, NO_SETUP, ONE)

int main(void)
{
	double ratio = core_per_tick();

	harness_state();
	printf("RATIO %.4f\n", ratio);
	printf("RESULT %s:get_nohz_timer_target:1+39-cpus %d\n", OBJ, get_nohz_timer_target(0, 0));
	MEASURE(OBJ ":get_nohz_timer_target:1+39-cpus", ratio, tt);
	return 0;
}
