/* SPDX-License-Identifier: GPL-2.0-only */
/* s390x assembly through gcc's preprocessor: r2 = r2 + r3 (+ 1 with -DPLUS_ONE). */
	.text
	.globl	add3
	.type	add3, @function
add3:
	agr	%r2,%r3
#ifdef PLUS_ONE
	aghi	%r2,1
#endif
	br	%r14
	.size	add3, .-add3
