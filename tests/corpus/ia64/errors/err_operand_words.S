// gas's words for operands no form takes (issue 13): a count no form has, and the
// operand the first fitting form wants as a general register.
	.text
f:
	zxt1	r1, r2 = r3
	sxt2	r4 = r5, r6
	zxt4	p1 = r8
	sxt1	r7 = 0
	add	r1 = f2, r3
	sub	r1 = r2, f3
	ld8	r1, r2 = [r3]
