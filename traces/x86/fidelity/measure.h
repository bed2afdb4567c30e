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
 * Run pinned: `taskset -c 1` (fidelity.sh does).
 *
 * A driver defines its rows with ROW(...) and calls measure_row() for each; output, one line
 * per row:  ROW key free_cycles lfence_cycles calls
 */
#ifndef FIDELITY_MEASURE_H
#define FIDELITY_MEASURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REPS 7
#define TARGET_TICKS 40000000ULL
#define MIN_CALLS 20000L
#define MAX_CALLS 10000000L

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

static double best_ticks(loop_fn f, long n)
{
	uint64_t best = UINT64_MAX;

	for (int r = 0; r < REPS; r++) {
		uint64_t t = f(n);

		if (t < best)
			best = t;
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

/* Core cycles per TSC tick, measured now. */
static double core_per_tick(void)
{
	const long n = 10000000;

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

/* Measures one row and prints it. */
static void measure_row(const char *key, double ratio, loop_fn free_, loop_fn fence, loop_fn efree,
			loop_fn efence)
{
	long n = calls_for(free_);
	double f = (best_ticks(free_, n) - best_ticks(efree, n)) / n * ratio;
	double l = (best_ticks(fence, n) - best_ticks(efence, n)) / n * ratio;

	printf("ROW %s %.2f %.2f %ld\n", key, f, l, n);
	fflush(stdout);
}

#define MEASURE(KEY, RATIO, NAME) \
	measure_row(KEY, RATIO, NAME##_free, NAME##_fence, NAME##_efree, NAME##_efence)

#endif
