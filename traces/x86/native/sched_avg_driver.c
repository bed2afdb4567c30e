// SPDX-License-Identifier: GPL-2.0-only
/*
 * Native side of the sched_avg_update differential test: the trace's own C (sched_avg.c, same
 * -DSCHED_AVG_DIV), run on generated runqueues. One line per case:
 *   case sysctl clock age_stamp rt_avg -> age_stamp' rt_avg'      (hex, no 0x)
 * Inputs for case k, from rng seeded with SEED + k, in this order:
 *   sysctl = 1 + below(2000) ms; period = sysctl * 1000000 / 2
 *   age_stamp = next()
 *   clock = age_stamp + below(64 * period + 1) - below(period)   (wrapping; <= 63 missed
 *           periods, since the new version's `rt_avg >>= pending` needs pending < 64 in C)
 *   rt_avg = next()
 */
#include "rng.h"
#include "../sched_avg.c"

unsigned int sysctl_sched_time_avg;

int main(int argc, char **argv)
{
	unsigned long long seed, cases, k;

	parse_args(argc, argv, &seed, &cases);
	for (k = 0; k < cases; k++) {
		struct rng r = { seed + k };
		struct rq rq;
		u64 period;

		sysctl_sched_time_avg = 1 + rng_below(&r, 2000);
		period = (u64)sysctl_sched_time_avg * 1000000 / 2;
		rq.age_stamp = rng_next(&r);
		rq.clock = rq.age_stamp + rng_below(&r, 64 * period + 1);
		rq.clock -= rng_below(&r, period);
		rq.rt_avg = rng_next(&r);
		printf("%llu %x %llx %llx %llx -> ", k, sysctl_sched_time_avg, rq.clock, rq.age_stamp, rq.rt_avg);
		sched_avg_update(&rq);
		printf("%llx %llx\n", rq.age_stamp, rq.rt_avg);
	}
	return 0;
}
