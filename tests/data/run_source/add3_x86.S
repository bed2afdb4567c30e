/* SPDX-License-Identifier: GPL-2.0-only */
/* x86-64 assembly through gcc's preprocessor: rax = rdi + rsi (+ 1 with -DPLUS_ONE). */
	.text
	.globl	add3
	.type	add3, @function
add3:
	leaq	(%rdi,%rsi), %rax
#ifdef PLUS_ONE
	incq	%rax
#endif
	ret
	.size	add3, .-add3
