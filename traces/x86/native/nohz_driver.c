// SPDX-License-Identifier: GPL-2.0-only
/*
 * Native side of the nohz-syscall differential test: the trace's own C (nohz_syscall.c, same
 * -DPATCHES) on generated task and CPU states, with rdtsc pinned (acctemu_native_tsc, see
 * nohz_syscall.c). One line per case:
 *   case path tsc jiffies -> utime stime utimescaled stimescaled vtime_seq whence vtime_snap
 *        rss_mem1 vm_mem1 timexpd cpustat[USER] cpustat[NICE] cpustat[SYSTEM] cpustat[IDLE]
 *        ct_state ct_recursion warnings                                  (hex, no 0x)
 * Inputs for case k, from rng seeded with SEED + k, in this order:
 *   path = below(3): 0 user_exit_accounting, 1 user_enter_accounting, 2 tick_accounting(t, below(2))
 *     (the tick's user flag is drawn right after path, only for path 2)
 *   ct_active = below(4) != 0; ct_state = path == 0 ? USER : path == 1 ? KERNEL : below(2)
 *   utime = below(2^40); stime = below(2^40); acct_timexpd = utime + stime - below(3000000)
 *   tsc = below(2^40); mul = 1 + below(2^32 - 1); shift = below(32); offset = below(2^40)
 *   jiffies = next(); vtime_snap = PATCHES < 4 ? (sched_clock(tsc) - below(3000000))
 *                                             : jiffies - below(3)
 *   rss FILE, ANON, SHMEM = below(2^20) - 2^18 (may be negative); total_vm = below(2^24)
 *   static_prio = 100 + below(40)
 * whence = VTIME_USER for path 0 (and the tick), VTIME_SYS for path 1. Everything else is 0.
 */
#include "rng.h"
#include "../nohz_syscall.c"

volatile unsigned long jiffies;
struct cyc2ns cpu_tsc;
struct cpu_data cpu_data;
struct cpuacct root_cpuacct;
u64 acctemu_native_tsc;

static struct task_struct task, idle;
static struct mm_struct mm;
static struct signal_struct sig;

int main(int argc, char **argv)
{
	unsigned long long seed, cases, k;

	parse_args(argc, argv, &seed, &cases);
	for (k = 0; k < cases; k++) {
		struct rng r = { seed + k };
		int path, user_tick = 0;
		u64 clock;

		task = (struct task_struct){ 0 };
		cpu_data = (struct cpu_data){ { 0 } };
		cpu_tsc = (struct cyc2ns){ { { 0 } } };
		mm = (struct mm_struct){ { 0 } };
		sig = (struct signal_struct){ 0 };

		path = rng_below(&r, 3);
		if (path == 2)
			user_tick = rng_below(&r, 2);
		cpu_data.ct_active = rng_below(&r, 4) != 0;
		cpu_data.ct_state = path == 0 ? CONTEXT_USER : path == 1 ? CONTEXT_KERNEL : (int)rng_below(&r, 2);
		cpu_data.idle = &idle;
		task.utime = rng_below(&r, 1ULL << 40);
		task.stime = rng_below(&r, 1ULL << 40);
		task.acct_timexpd = task.utime + task.stime - rng_below(&r, 3000000);
		acctemu_native_tsc = rng_below(&r, 1ULL << 40);
		cpu_tsc.data[0].cyc2ns_mul = 1 + rng_below(&r, 0xffffffffULL);
		cpu_tsc.data[0].cyc2ns_shift = rng_below(&r, 32);
		cpu_tsc.data[0].cyc2ns_offset = rng_below(&r, 1ULL << 40);
		cpu_tsc.head = cpu_tsc.tail = &cpu_tsc.data[0];
		jiffies = rng_next(&r);
		clock = cycles_2_ns(acctemu_native_tsc);
		task.vtime_snap = PATCHES < 4 ? clock - rng_below(&r, 3000000) : jiffies - rng_below(&r, 3);
		mm.rss_stat[MM_FILEPAGES] = (long)rng_below(&r, 1 << 20) - (1 << 18);
		mm.rss_stat[MM_ANONPAGES] = (long)rng_below(&r, 1 << 20) - (1 << 18);
		mm.rss_stat[MM_SHMEMPAGES] = (long)rng_below(&r, 1 << 20) - (1 << 18);
		mm.total_vm = rng_below(&r, 1 << 24);
		task.static_prio = 100 + rng_below(&r, 40);
		task.vtime_snap_whence = path == 1 ? VTIME_SYS : VTIME_USER;
		task.mm = &mm;
		task.signal = &sig;
		task.sighand = &sig;
		task.cpuacct = &root_cpuacct;

		printf("%llu %x %llx %lx -> ", k, path, acctemu_native_tsc, jiffies);
		if (path == 0)
			user_exit_accounting(&task);
		else if (path == 1)
			user_enter_accounting(&task);
		else
			tick_accounting(&task, user_tick);
		printf("%llx %llx %llx %llx %x %x %llx %llx %llx %llx %llx %llx %llx %llx %x %x %x\n",
		       task.utime, task.stime, task.utimescaled, task.stimescaled, task.vtime_seqcount,
		       task.vtime_snap_whence, task.vtime_snap, task.acct_rss_mem1, task.acct_vm_mem1,
		       task.acct_timexpd, cpu_data.cpustat[CPUTIME_USER], cpu_data.cpustat[CPUTIME_NICE],
		       cpu_data.cpustat[CPUTIME_SYSTEM], cpu_data.cpustat[CPUTIME_IDLE], cpu_data.ct_state,
		       cpu_data.ct_recursion, cpu_data.warnings);
	}
	return 0;
}
