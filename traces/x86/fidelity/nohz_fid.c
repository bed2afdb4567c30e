// SPDX-License-Identifier: GPL-2.0-only
/*
 * Native measurement of the nohz-syscall trace functions for the fidelity table. Linked with a
 * trace object built by fidelity.sh from ../nohz_syscall.c with the step's -DPATCHES and the flags
 * of ../build.sh, its `cli` removed (user mode), so the calls below run the committed code.
 *
 * The memory is the harness's initial state (../harness/nohz-*.toml), region by region at the same
 * offsets; the build chooses the variant:
 *   -DVTIME_SNAP=0           nohz-sched-clock.toml (v4.5-rc1, patch1, patch3)
 *   -DVTIME_SNAP=4294667296  nohz-jiffies.toml (patch4) and nohz-housekeeping.toml
 *   -DCT_ACTIVE=1 or 0       context_tracking.active (0: housekeeping)
 *   -DOBJ='"name"'           the object's name, the first field of each row key
 * Rows: the user_exit/user_enter pair on the task (one syscall's accounting: the calls leave the
 * state as they found it, apart from the clocks), and on the housekeeping CPU the tick's
 * account_process_tick for a user tick.
 */
#include <string.h>

#include "measure.h"

#ifndef VTIME_SNAP
#error "build with -DVTIME_SNAP=..."
#endif
#ifndef CT_ACTIVE
#error "build with -DCT_ACTIVE=0 or 1"
#endif
#ifndef OBJ
#error "build with -DOBJ='\"name\"'"
#endif

/* The trace's entry points; the unused second argument keeps one call shape for all rows. */
void user_exit_accounting(void *t, long unused);
void user_enter_accounting(void *t, long unused);
void tick_accounting(void *t, long user_tick);

#define REGION(name) unsigned char name[4096] __attribute__((aligned(4096)))

/* The trace's extern symbols. */
REGION(jiffies);
REGION(cpu_tsc);
REGION(cpu_data);
REGION(root_cpuacct);
/* Regions only reached through pointers. */
static REGION(task);
static REGION(idle_task);
static REGION(mm);
static REGION(sig);

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
	put32(task, 44, 1);                       /* vtime_snap_whence = VTIME_USER */
	put64(task, 48, VTIME_SNAP);              /* vtime_snap */
	put64(task, 80, (uint64_t)mm);            /* mm */
	put64(task, 88, (uint64_t)sig);           /* signal */
	put64(task, 96, (uint64_t)(sig + 0x800)); /* sighand */
	put64(task, 104, (uint64_t)root_cpuacct); /* cpuacct */
	put32(task, 112, 120);                    /* static_prio: nice 0 */
	put32(task, 116, 0);                      /* flags */
	put64(mm, 0, 1000);                       /* rss FILE, ANON, SWAP, SHMEM; total_vm */
	put64(mm, 8, 2000);
	put64(mm, 16, 0);
	put64(mm, 24, 10);
	put64(mm, 32, 50000);
	put32(cpu_data, 80, 0);                   /* preempt_count */
	put32(cpu_data, 84, CT_ACTIVE);           /* context_tracking.active */
	put32(cpu_data, 88, 1);                   /* context_tracking.state = CONTEXT_USER */
	put32(cpu_data, 92, 0);                   /* recursion */
	put64(cpu_data, 104, (uint64_t)idle_task);
	put32(cpu_tsc, 0, 825955249);             /* cyc2ns mul, shift, offset */
	put32(cpu_tsc, 4, 31);
	put64(cpu_tsc, 8, 0);
	put64(cpu_tsc, 48, (uint64_t)cpu_tsc);    /* head == tail: the fast path */
	put64(cpu_tsc, 56, (uint64_t)cpu_tsc);
	put64(jiffies, 0, 4294667296ULL);
}

#define NO_SETUP ((void)0)
#define PAIR(C)                                     \
	do {                                        \
		C(user_exit_accounting, task, 0);   \
		C(user_enter_accounting, task, 0);  \
	} while (0)
#define TICK(C) C(tick_accounting, task, 1)

ROW_LOOPS(pair, NO_SETUP, PAIR)
ROW_LOOPS(tick, NO_SETUP, TICK)

int main(void)
{
	double ratio = core_per_tick();

	harness_state();
	printf("RATIO %.4f\n", ratio);
	MEASURE(OBJ ":user_exit+user_enter:harness-task", ratio, pair);
	if (!CT_ACTIVE)
		MEASURE(OBJ ":tick_accounting:user-tick", ratio, tick);
	return 0;
}
