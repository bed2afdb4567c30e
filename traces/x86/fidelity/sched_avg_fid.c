// SPDX-License-Identifier: GPL-2.0-only
/*
 * Native measurement of sched_avg_update() for the fidelity table. Linked with a trace object
 * built by fidelity.sh from ../sched_avg.c (-DSCHED_AVG_DIV=0 or 1, the flags of ../build.sh).
 * -DOBJ='"name"' names the object in the row keys.
 *
 * The state is ../harness/sched-avg.toml's (period 500 ms: sysctl_sched_time_avg = 1000) with
 * rq->clock placed k + 0.4 periods past age_stamp for k = 1, 7 and 50 missed periods. The
 * function moves age_stamp and halves rt_avg, so the three rq fields are written back before
 * every call (and before every empty call that is subtracted).
 */
#include "measure.h"

#ifndef OBJ
#error "build with -DOBJ='\"name\"'"
#endif

void sched_avg_update(void *rq, long unused);

unsigned int sysctl_sched_time_avg[1024] __attribute__((aligned(4096))) = { 1000 };
static uint64_t rq[512] __attribute__((aligned(4096)));

#define PERIOD 500000000ULL
#define AGE 1000000000ULL
#define RT_AVG 0x10000000ULL

static volatile uint64_t clock_now;

#define RESET() (rq[0] = clock_now, rq[1] = AGE, rq[2] = RT_AVG)
#define ONE(C) C(sched_avg_update, rq, 0)

ROW_LOOPS(upd, RESET(), ONE)

int main(void)
{
	static const int missed[] = { 1, 7, 50 };
	double ratio = core_per_tick();
	char key[128];

	printf("RATIO %.4f\n", ratio);
	for (unsigned i = 0; i < sizeof missed / sizeof missed[0]; i++) {
		clock_now = AGE + missed[i] * PERIOD + 2 * PERIOD / 5;
		snprintf(key, sizeof key, "%s:sched_avg_update:missed-%d", OBJ, missed[i]);
		MEASURE(key, ratio, upd);
	}
	return 0;
}
