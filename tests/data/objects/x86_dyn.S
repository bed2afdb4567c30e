	.text
	.globl f
f:
	movq ext@GOTPCREL(%rip), %rax
	movq (%rax), %rax
	ret
