/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Native cycle measurement for the fidelity table (fidelity.sh), after the method of
 * shared/reference/x86-host.md:
 *   - a loop of N calls is timed with `lfence; rdtsc` ... `rdtscp; lfence`, best of REPS runs;
 *   - the same loop around an empty out-of-line call (same arguments, same per-call setup) is
 *     timed the same way and subtracted;
 *   - two loops per row: free-running (calls overlap in the out-of-order core: throughput) and
 *     with an `lfence` before each call (the call starts on a drained core: latency);
 *   - TSC ticks become core cycles through a dependent `add r64,r64` chain measured at start-up,
 *     taken to be one core cycle per add.
 * N is chosen per row so that one run lasts about TARGET_TICKS TSC ticks.
 * Run pinned: `taskset -c 1` (fidelity.sh does), and the program pins itself again with
 * sched_setaffinity (issue 15: a helper shell that forgot taskset must not float).
 *
 * On a loaded machine (issue 15: a shared 2-vCPU guest) one best-of figure can be wrong both
 * ways, so each loop is run REPS times and both the minimum and the median are kept; the
 * add-chain ratio is measured before and after every row, and a row whose two ratios differ by
 * more than RATIO_DRIFT (frequency change, or a neighbour on the core during the calibration)
 * is measured again, up to ROW_TRIES times. Where the kernel gives a hardware cycle counter
 * (perf_event_open), the free-running loop is also counted in core cycles directly.
 *
 * A driver defines its rows with ROW(...) and calls measure_row() for each; output per row:
 *   ROW key free_cycles lfence_cycles calls            (minimum of REPS, minus the empty loop's)
 *   MEDIAN key free_cycles lfence_cycles               (median of REPS, minus the empty loop's)
 *   RATIOS key before after tries                      (core cycles per TSC tick around the row)
 *   PERF key free_cycles | PERF key unavailable        (hardware cycles per call, minus empty)
 */
#ifndef FIDELITY_MEASURE_H
#define FIDELITY_MEASURE_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Many short runs rather than a few long ones (issue 15): on a loaded machine a run longer than a
 * scheduler slice (a few ms) is preempted every time, so no minimum of long runs is clean; runs
 * of about 0.4 ms (1M ticks at 2.6 GHz) usually fit between two preemptions. */
#define REPS 41
#define RATIO_DRIFT 0.03
#define ROW_TRIES 3
#define TARGET_TICKS 1000000ULL
#define MIN_CALLS 2000L
#define MAX_CALLS 1000000L

static inline uint64_t t_start(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t t_end(void)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

#define LFENCE() __asm__ volatile("lfence" : : : "memory")

/* The empty call every row subtracts: out of line, opaque, returns at once. */
__attribute__((noipa)) void fid_empty(void *a, long b)
{
	(void)a;
	(void)b;
}

/* One timed loop: a function of n returning TSC ticks. */
typedef uint64_t (*loop_fn)(long n);

/*
 * Defines four loops for a row: NAME_free, NAME_fence (the calls) and NAME_efree, NAME_efence
 * (the same with each call of BODY replaced by fid_empty through CALL). BODY is a statement that
 * uses CALL(fn, a, b) for each call; SETUP runs before each iteration in all four.
 */
#define ROW_LOOPS(NAME, SETUP, BODY)                                                   \
	static uint64_t NAME##_free(long n)                                            \
	{                                                                              \
		uint64_t t0 = t_start();                                               \
		for (long i = 0; i < n; i++) {                                         \
			SETUP;                                                         \
			BODY(CALL_REAL);                                               \
		}                                                                      \
		return t_end() - t0;                                                   \
	}                                                                              \
	static uint64_t NAME##_fence(long n)                                           \
	{                                                                              \
		uint64_t t0 = t_start();                                               \
		for (long i = 0; i < n; i++) {                                         \
			SETUP;                                                         \
			BODY(CALL_REAL_FENCED);                                        \
		}                                                                      \
		return t_end() - t0;                                                   \
	}                                                                              \
	static uint64_t NAME##_efree(long n)                                           \
	{                                                                              \
		uint64_t t0 = t_start();                                               \
		for (long i = 0; i < n; i++) {                                         \
			SETUP;                                                         \
			BODY(CALL_EMPTY);                                              \
		}                                                                      \
		return t_end() - t0;                                                   \
	}                                                                              \
	static uint64_t NAME##_efence(long n)                                          \
	{                                                                              \
		uint64_t t0 = t_start();                                               \
		for (long i = 0; i < n; i++) {                                         \
			SETUP;                                                         \
			BODY(CALL_EMPTY_FENCED);                                       \
		}                                                                      \
		return t_end() - t0;                                                   \
	}

#define CALL_REAL(fn, a, b) fn(a, b)
#define CALL_REAL_FENCED(fn, a, b) ({ LFENCE(); fn(a, b); })
#define CALL_EMPTY(fn, a, b) fid_empty((void *)(a), (long)(b))
#define CALL_EMPTY_FENCED(fn, a, b) ({ LFENCE(); fid_empty((void *)(a), (long)(b)); })

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* REPS runs of one loop: the minimum and the median of their TSC ticks. */
struct sample {
	double min;
	double median;
};

static struct sample sample_ticks(loop_fn f, long n)
{
	uint64_t t[REPS];
	struct sample s;

	for (int r = 0; r < REPS; r++)
		t[r] = f(n);
	qsort(t, REPS, sizeof t[0], cmp_u64);
	s.min = (double)t[0];
	s.median = (REPS % 2) ? (double)t[REPS / 2] : ((double)t[REPS / 2 - 1] + (double)t[REPS / 2]) / 2;
	return s;
}

static double best_ticks(loop_fn f, long n)
{
	return sample_ticks(f, n).min;
}

/* Pins the process to CPU 1 (fidelity.sh's taskset does the same; this survives its absence). */
static void pin_cpu1(void)
{
	/* The raw system call: the drivers include libc headers before this one, without _GNU_SOURCE. */
	unsigned long mask = 1UL << 1;

	if (syscall(SYS_sched_setaffinity, 0, sizeof mask, &mask) != 0)
		fprintf(stderr, "measure: sched_setaffinity(CPU 1) failed; running unpinned\n");
}

/* A hardware cycle counter for this thread, or -1 (KVM guests without a PMU have none). */
static int perf_cycles_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* Hardware cycles of the best of REPS runs of f(n), or -1. */
static double perf_best(int fd, loop_fn f, long n)
{
	uint64_t best = UINT64_MAX;

	for (int r = 0; r < REPS; r++) {
		uint64_t c0, c1;

		if (read(fd, &c0, sizeof c0) != sizeof c0)
			return -1;
		f(n);
		if (read(fd, &c1, sizeof c1) != sizeof c1)
			return -1;
		if (c1 - c0 < best)
			best = c1 - c0;
	}
	return (double)best;
}

/* Dependent add chain: 10 adds per iteration, one core cycle each. */
static uint64_t add_chain(long n)
{
	uint64_t t0 = t_start();

	__asm__ volatile("mov %0, %%r11\n\tmov $1, %%eax\n\tmov $1, %%ecx\n"
			 "1:\n\t.rept 10\n\tadd %%rcx, %%rax\n\t.endr\n"
			 "\tdec %%r11\n\tjnz 1b\n"
			 :
			 : "r"(n)
			 : "r11", "rax", "rcx", "cc");
	return t_end() - t0;
}

/* Core cycles per TSC tick, measured now (pins the process first). Short runs, as above. */
static double core_per_tick(void)
{
	const long n = 100000;

	pin_cpu1();
	return (double)n * 10.0 / best_ticks(add_chain, n);
}

/* The same, shorter: the check around every row. */
static double core_per_tick_quick(void)
{
	const long n = 50000;

	return (double)n * 10.0 / best_ticks(add_chain, n);
}

/* Calls per run for a loop costing about `probe` ticks per call. */
static long calls_for(loop_fn f)
{
	const long probe = 10000;
	double per = best_ticks(f, probe) / probe;
	double n = per > 0 ? (double)TARGET_TICKS / per : MAX_CALLS;

	if (n < MIN_CALLS)
		return MIN_CALLS;
	if (n > MAX_CALLS)
		return MAX_CALLS;
	return (long)n;
}

/* Measures one row and prints it. The row's own before/after ratio (mean of the two) converts
 * its ticks, so a frequency change between rows does not move it; `ratio` (the program's
 * start-up figure) is the fallback when the check never settles. */
static void measure_row(const char *key, double ratio, loop_fn free_, loop_fn fence, loop_fn efree,
			loop_fn efence)
{
	long n = calls_for(free_);
	struct sample fr, fe, er, ee;
	double before = 0, after = 0, r = ratio;
	int tries = 0;

	while (tries < ROW_TRIES) {
		tries++;
		before = core_per_tick_quick();
		fr = sample_ticks(free_, n);
		er = sample_ticks(efree, n);
		fe = sample_ticks(fence, n);
		ee = sample_ticks(efence, n);
		after = core_per_tick_quick();
		if (before > 0 && after > 0 && (before > after ? before / after : after / before) <= 1 + RATIO_DRIFT) {
			r = (before + after) / 2;
			break;
		}
	}
	printf("ROW %s %.2f %.2f %ld\n", key, (fr.min - er.min) / n * r, (fe.min - ee.min) / n * r, n);
	printf("MEDIAN %s %.2f %.2f\n", key, (fr.median - er.median) / n * r, (fe.median - ee.median) / n * r);
	printf("RATIOS %s %.4f %.4f %d\n", key, before, after, tries);
	{
		int fd = perf_cycles_open();
		double c = fd >= 0 ? perf_best(fd, free_, n) : -1;
		double e = fd >= 0 ? perf_best(fd, efree, n) : -1;

		if (c >= 0 && e >= 0)
			printf("PERF %s %.2f\n", key, (c - e) / n);
		else
			printf("PERF %s unavailable\n", key);
		if (fd >= 0)
			close(fd);
	}
	fflush(stdout);
}

#define MEASURE(KEY, RATIO, NAME) \
	measure_row(KEY, RATIO, NAME##_free, NAME##_fence, NAME##_efree, NAME##_efence)

#endif
