// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte-exact native side of the nohz-syscall differential test (traces/tests/x86_differential):
 * the trace's own C (nohz_syscall.c, same -DPATCHES, -DACCTEMU_NATIVE_USER so rdtsc reads
 * acctemu_native_tsc) on generated states that reach every branch of the three entry points:
 * in_interrupt() early-outs, context-tracking recursion and WARN_ON_ONCE, inactive vtime, guest
 * time, the idle tick, a running group cputimer, cpuacct chains, the cyc2ns slot switch, a
 * clock or jiffies behind vtime_snap, and acct deltas around TICK_NSEC.
 *
 * Output, one line per case: `k` and the dump.h words of task, cpu_data, cpu_tsc, signal, mm,
 * ca0, ca1, root_cpuacct and jiffies after the call.
 *
 * Inputs of case k, from rng seeded with SEED + k, in this order (every struct zeroed first):
 *   path = below(3): 0 user_exit_accounting, 1 user_enter_accounting, 2 tick_accounting
 *   user_tick = path == 2 ? below(2) : 0
 *   ct_active = below(4) != 0
 *   ct_state = below(8) == 0 ? below(3) : path == 0 ? USER : path == 1 ? KERNEL : below(2)
 *   preempt_count = PREEMPT[below(8)]; ct_recursion = RECURSION[below(8)]
 *   cpu_data.cpustat[0..10] = below(2^40) each; cpu_data.idle = below(4) == 0 ? &task : &idle
 *   task: utime, stime, utimescaled, stimescaled, gtime = below(2^40) each;
 *         vtime_seqcount = (u32)next(); whence = below(8) == 0 ? INACTIVE : path == 1 ? SYS : USER;
 *         acct_rss_mem1 = next(); acct_vm_mem1 = next(); acct_timexpd = utime + stime + 1000000 - below(3000000)
 *   tsc = below(2^40); data[0]: mul = 1 + below(2^32 - 1), shift = below(32), offset = below(2^40)
 *   slow = below(4) == 0: head = &data[0], tail = slow ? &data[1] : &data[0];
 *         data[0].__count = slow ? below(3) : 0
 *   data[1]: mul = (u32)next(), shift = (u32)next(), offset = next(), __count = (u32)next()
 *   jiffies = next()
 *   clock = offset + (tsc * mul >> shift) (128-bit product)
 *   vtime_snap = PATCHES < 4 ? (below(8) == 0 ? clock + below(1000) : clock - below(3000000))
 *                            : (below(8) == 0 ? jiffies + 1 + below(2) : jiffies - below(3))
 *   mm.rss_stat[0..4] = below(2^20) - 2^18 each; mm.total_vm = below(2^24)
 *   static_prio = 100 + below(40); flags = below(4) == 0 ? PF_VCPU : 0
 *   signal: cputimer_running = below(2); utime, stime, sum_exec_runtime = below(2^40) each
 *   sighand = below(4) == 0 ? NULL : &signal; mm = below(16) == 0 ? NULL : &mm; signal = &signal
 *   chain = below(3): cpuacct = chain ? &ca0 : &root; ca0.parent = chain == 2 ? &ca1 : &root;
 *         ca1.parent = &root; root.parent = NULL
 *   cpustat[0..10] of ca0, then ca1, then root = below(2^40) each
 */
#include "rng.h"
#include "dump.h"
#include "../nohz_syscall.c"

volatile unsigned long jiffies;
struct cyc2ns cpu_tsc;
struct cpu_data cpu_data;
struct cpuacct root_cpuacct;
u64 acctemu_native_tsc;

static struct task_struct task, idle;
static struct mm_struct mm;
static struct signal_struct sig;
static struct cpuacct ca0, ca1;

static const int PREEMPT[8] = { 0, 0, 0, 0, 0, SOFTIRQ_OFFSET, HARDIRQ_OFFSET, 2 * SOFTIRQ_OFFSET };
static const int RECURSION[8] = { 0, 0, 0, 0, 0, 0, 1, -1 };

static const unsigned TASK_PTRS[] = { 80, 88, 96, 104 };
static const unsigned CPU_DATA_PTRS[] = { 104 };
static const unsigned CYC2NS_PTRS[] = { 48, 56 };
static const unsigned CPUACCT_PTRS[] = { 0 };

static void fill_cpustat(struct rng *r, u64 *stat)
{
	int i;

	for (i = 0; i < NR_STATS; i++)
		stat[i] = rng_below(r, 1ULL << 40);
}

int main(int argc, char **argv)
{
	const struct dump_object objs[] = {
		{ "task", &task, sizeof(task) },
		{ "idle_task", &idle, sizeof(idle) },
		{ "mm", &mm, sizeof(mm) },
		{ "signal", &sig, sizeof(sig) },
		{ "cpu_data", &cpu_data, sizeof(cpu_data) },
		{ "cpu_tsc", &cpu_tsc, sizeof(cpu_tsc) },
		{ "root_cpuacct", &root_cpuacct, sizeof(root_cpuacct) },
		{ "ca0", &ca0, sizeof(ca0) },
		{ "ca1", &ca1, sizeof(ca1) },
	};
	const int nobjs = sizeof(objs) / sizeof(objs[0]);
	unsigned long long seed, cases, k;

	parse_args(argc, argv, &seed, &cases);
	for (k = 0; k < cases; k++) {
		struct rng r = { seed + k };
		int path, user_tick, slow, chain;
		u64 clock;
		unsigned long jif;

		__builtin_memset(&task, 0, sizeof(task));
		__builtin_memset(&cpu_data, 0, sizeof(cpu_data));
		__builtin_memset(&cpu_tsc, 0, sizeof(cpu_tsc));
		__builtin_memset(&mm, 0, sizeof(mm));
		__builtin_memset(&sig, 0, sizeof(sig));
		__builtin_memset(&ca0, 0, sizeof(ca0));
		__builtin_memset(&ca1, 0, sizeof(ca1));
		__builtin_memset(&root_cpuacct, 0, sizeof(root_cpuacct));

		path = rng_below(&r, 3);
		user_tick = path == 2 ? (int)rng_below(&r, 2) : 0;
		cpu_data.ct_active = rng_below(&r, 4) != 0;
		if (rng_below(&r, 8) == 0)
			cpu_data.ct_state = rng_below(&r, 3);
		else
			cpu_data.ct_state = path == 0 ? CONTEXT_USER : path == 1 ? CONTEXT_KERNEL : (int)rng_below(&r, 2);
		cpu_data.preempt_count = PREEMPT[rng_below(&r, 8)];
		cpu_data.ct_recursion = RECURSION[rng_below(&r, 8)];
		fill_cpustat(&r, cpu_data.cpustat);
		cpu_data.idle = rng_below(&r, 4) == 0 ? &task : &idle;

		task.utime = rng_below(&r, 1ULL << 40);
		task.stime = rng_below(&r, 1ULL << 40);
		task.utimescaled = rng_below(&r, 1ULL << 40);
		task.stimescaled = rng_below(&r, 1ULL << 40);
		task.gtime = rng_below(&r, 1ULL << 40);
		task.vtime_seqcount = (u32)rng_next(&r);
		if (rng_below(&r, 8) == 0)
			task.vtime_snap_whence = VTIME_INACTIVE;
		else
			task.vtime_snap_whence = path == 1 ? VTIME_SYS : VTIME_USER;
		task.acct_rss_mem1 = rng_next(&r);
		task.acct_vm_mem1 = rng_next(&r);
		task.acct_timexpd = task.utime + task.stime + 1000000 - rng_below(&r, 3000000);

		acctemu_native_tsc = rng_below(&r, 1ULL << 40);
		cpu_tsc.data[0].cyc2ns_mul = 1 + rng_below(&r, 0xffffffffULL);
		cpu_tsc.data[0].cyc2ns_shift = rng_below(&r, 32);
		cpu_tsc.data[0].cyc2ns_offset = rng_below(&r, 1ULL << 40);
		slow = rng_below(&r, 4) == 0;
		cpu_tsc.head = &cpu_tsc.data[0];
		cpu_tsc.tail = slow ? &cpu_tsc.data[1] : &cpu_tsc.data[0];
		cpu_tsc.data[0].__count = slow ? (u32)rng_below(&r, 3) : 0;
		cpu_tsc.data[1].cyc2ns_mul = (u32)rng_next(&r);
		cpu_tsc.data[1].cyc2ns_shift = (u32)rng_next(&r);
		cpu_tsc.data[1].cyc2ns_offset = rng_next(&r);
		cpu_tsc.data[1].__count = (u32)rng_next(&r);
		jif = rng_next(&r);
		jiffies = jif;
		clock = cpu_tsc.data[0].cyc2ns_offset +
			mul_u64_u32_shr(acctemu_native_tsc, cpu_tsc.data[0].cyc2ns_mul, cpu_tsc.data[0].cyc2ns_shift);
		if (PATCHES < 4)
			task.vtime_snap = rng_below(&r, 8) == 0 ? clock + rng_below(&r, 1000) : clock - rng_below(&r, 3000000);
		else
			task.vtime_snap = rng_below(&r, 8) == 0 ? jif + 1 + rng_below(&r, 2) : jif - rng_below(&r, 3);

		mm.rss_stat[0] = (long)rng_below(&r, 1 << 20) - (1 << 18);
		mm.rss_stat[1] = (long)rng_below(&r, 1 << 20) - (1 << 18);
		mm.rss_stat[2] = (long)rng_below(&r, 1 << 20) - (1 << 18);
		mm.rss_stat[3] = (long)rng_below(&r, 1 << 20) - (1 << 18);
		mm.total_vm = rng_below(&r, 1 << 24);
		task.static_prio = 100 + rng_below(&r, 40);
		task.flags = rng_below(&r, 4) == 0 ? PF_VCPU : 0;
		sig.cputimer_running = rng_below(&r, 2);
		sig.cputimer_utime = rng_below(&r, 1ULL << 40);
		sig.cputimer_stime = rng_below(&r, 1ULL << 40);
		sig.cputimer_sum_exec_runtime = rng_below(&r, 1ULL << 40);
		task.sighand = rng_below(&r, 4) == 0 ? NULL : &sig;
		task.mm = rng_below(&r, 16) == 0 ? NULL : &mm;
		task.signal = &sig;
		chain = rng_below(&r, 3);
		task.cpuacct = chain ? &ca0 : &root_cpuacct;
		ca0.parent = chain == 2 ? &ca1 : &root_cpuacct;
		ca1.parent = &root_cpuacct;
		fill_cpustat(&r, ca0.cpustat);
		fill_cpustat(&r, ca1.cpustat);
		fill_cpustat(&r, root_cpuacct.cpustat);

		if (path == 0)
			user_exit_accounting(&task);
		else if (path == 1)
			user_enter_accounting(&task);
		else
			tick_accounting(&task, user_tick);

		printf("%llu", k);
		dump_struct("task", &task, sizeof(task), TASK_PTRS, 4, objs, nobjs);
		dump_struct("cpu_data", &cpu_data, sizeof(cpu_data), CPU_DATA_PTRS, 1, objs, nobjs);
		dump_struct("cpu_tsc", &cpu_tsc, sizeof(cpu_tsc), CYC2NS_PTRS, 2, objs, nobjs);
		dump_struct("signal", &sig, sizeof(sig), 0, 0, objs, nobjs);
		dump_struct("mm", &mm, sizeof(mm), 0, 0, objs, nobjs);
		dump_struct("ca0", &ca0, sizeof(ca0), CPUACCT_PTRS, 1, objs, nobjs);
		dump_struct("ca1", &ca1, sizeof(ca1), CPUACCT_PTRS, 1, objs, nobjs);
		dump_struct("root_cpuacct", &root_cpuacct, sizeof(root_cpuacct), CPUACCT_PTRS, 1, objs, nobjs);
		jif = jiffies;
		dump_struct("jiffies", &jif, sizeof(jif), 0, 0, objs, nobjs);
		printf("\n");
	}
	return 0;
}
