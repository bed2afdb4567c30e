// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte-exact native side of the sched_avg_update differential test
 * (traces/tests/x86_differential): the trace's own C (sched_avg.c, same -DSCHED_AVG_DIV), with
 * deltas exactly on period multiples, one past them, negative, and anywhere below 64 periods.
 *
 * Output, one line per case: `k` and the dump.h words of rq and of sysctl_sched_time_avg (as
 * one zero-extended word) after the call.
 *
 * Inputs of case k, from rng seeded with SEED + k, in this order:
 *   sysctl = 1 + below(2000) ms; period = sysctl * 1000000 / 2; age_stamp = next()
 *   kind = below(8): 0 clock = age_stamp + period * below(64)
 *                    1 clock = age_stamp + period * below(64) + 1
 *                    2 clock = age_stamp - below(2^40)
 *                    else clock = age_stamp + below(64 * period) - below(period)   (all wrapping)
 *   rt_avg = next()
 * Missed periods stay below 64: the new version's `rt_avg >>= pending` needs pending < 64 in C.
 */
#include "rng.h"
#include "dump.h"
#include "../sched_avg.c"

unsigned int sysctl_sched_time_avg;

int main(int argc, char **argv)
{
	unsigned long long seed, cases, k;

	parse_args(argc, argv, &seed, &cases);
	for (k = 0; k < cases; k++) {
		struct rng r = { seed + k };
		struct rq rq;
		u64 period, sysctl;
		unsigned kind;

		__builtin_memset(&rq, 0, sizeof(rq));
		sysctl_sched_time_avg = 1 + rng_below(&r, 2000);
		period = (u64)sysctl_sched_time_avg * 1000000 / 2;
		rq.age_stamp = rng_next(&r);
		kind = rng_below(&r, 8);
		if (kind == 0)
			rq.clock = rq.age_stamp + period * rng_below(&r, 64);
		else if (kind == 1)
			rq.clock = rq.age_stamp + period * rng_below(&r, 64) + 1;
		else if (kind == 2)
			rq.clock = rq.age_stamp - rng_below(&r, 1ULL << 40);
		else {
			rq.clock = rq.age_stamp + rng_below(&r, 64 * period);
			rq.clock -= rng_below(&r, period);
		}
		rq.rt_avg = rng_next(&r);

		sched_avg_update(&rq);

		sysctl = sysctl_sched_time_avg;
		printf("%llu", k);
		dump_struct("rq", &rq, sizeof(rq), 0, 0, 0, 0);
		dump_struct("sysctl_sched_time_avg", &sysctl, sizeof(sysctl), 0, 0, 0, 0);
		printf("\n");
	}
	return 0;
}
