	.text
	.globl f
f:
	movq ext(%rip), %rax
	ret
