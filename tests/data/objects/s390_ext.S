	.text
	.globl f
f:
	larl %r2, ext
	br %r14
