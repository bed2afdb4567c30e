/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The input generator both sides of a differential test share: splitmix64, seeded with
 * (seed + case number), so the Rust side reproduces case k without running the others.
 */
#ifndef ACCTEMU_NATIVE_RNG_H
#define ACCTEMU_NATIVE_RNG_H

int printf(const char *fmt, ...);
unsigned long long strtoull(const char *s, char **end, int base);

struct rng {
	unsigned long long state;
};

static inline unsigned long long rng_next(struct rng *r)
{
	unsigned long long z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A value below n (n > 0), by remainder: the bias does not matter for test inputs. */
static inline unsigned long long rng_below(struct rng *r, unsigned long long n)
{
	return rng_next(r) % n;
}

/* argv: [SEED [CASES]] */
static inline void parse_args(int argc, char **argv, unsigned long long *seed, unsigned long long *cases)
{
	*seed = argc > 1 ? strtoull(argv[1], 0, 0) : 1;
	*cases = argc > 2 ? strtoull(argv[2], 0, 0) : 1000;
}

#endif
