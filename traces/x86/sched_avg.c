// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_avg_update(): the RT-average decay, before and after Frederic Weisbecker's "sched: Unloop
 * sched avg decaying" (seed 003_6c8452a7b1af273b.txt), written for acctemu after the seed's hunk.
 *
 * SCHED_AVG_DIV selects the version (build.sh passes it):
 *   0  the loop: one iteration per missed half-period, halving rt_avg each time
 *   1  one division: the missed periods and the remainder from div64_u64_rem()
 *
 * struct rq keeps only the fields the function uses (our layout, not the kernel's);
 * rq_clock() is rq->clock without the lockdep assertion. sysctl_sched_time_avg (ms) is
 * harness data, as a sysctl is.
 *
 * Entry point: sched_avg_update(rq), the rq in %rdi.
 */
#include "kernel.h"

#ifndef SCHED_AVG_DIV
#error "build with -DSCHED_AVG_DIV=0 or 1"
#endif

#define NSEC_PER_MSEC 1000000ULL

struct rq {
	u64 clock;	/* 0 */
	u64 age_stamp;	/* 8 */
	u64 rt_avg;	/* 16 */
};

_Static_assert(sizeof(struct rq) == 24, "harness rq layout");

extern unsigned int sysctl_sched_time_avg;

static inline u64 sched_avg_period(void)
{
	return (u64)sysctl_sched_time_avg * NSEC_PER_MSEC / 2;
}

static inline u64 rq_clock(struct rq *rq)
{
	return rq->clock;
}

#if SCHED_AVG_DIV == 0
void sched_avg_update(struct rq *rq)
{
	s64 period = sched_avg_period();

	while ((s64)(rq_clock(rq) - rq->age_stamp) > period) {
		/*
		 * The empty asm hides age_stamp's value from gcc, which would otherwise turn
		 * the loop into a division (as __iter_div_u64_rem() also has to prevent).
		 */
		__asm__("" : "+rm"(rq->age_stamp));
		rq->age_stamp += period;
		rq->rt_avg /= 2;
	}
}
#else
/* include/linux/math64.h, 64-bit: a real division, the divisor is not a constant. */
static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

void sched_avg_update(struct rq *rq)
{
	s64 period = sched_avg_period();
	s64 delta;
	u64 rem;
	int pending;

	delta = (s64)(rq_clock(rq) - rq->age_stamp);
	if (delta <= period)
		return;

	pending = div64_u64_rem(delta, period, &rem);
	rq->age_stamp += delta - rem;
	rq->rt_avg >>= pending;
}
#endif
