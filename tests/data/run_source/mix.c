/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A helper for `acctemu run`/`diff` of compiled sources on x86-64 and s390x (issue 16):
 * the same loop with a shift, or with -DUSE_DIV a division, whose latency the timing
 * models charge.
 */
typedef unsigned long u64;

u64 mix(u64 x, u64 n)
{
	u64 acc = 1;

	for (u64 i = 0; i < n; i++) {
#ifdef USE_DIV
		acc = acc * 3 + x / (i + 1);
#else
		acc = acc * 3 + (x >> (i & 7));
#endif
	}
	return acc;
}
