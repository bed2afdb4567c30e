// The thread-local variables tls_a.S refers to.
	.global tvar
	.section .tdata, "awT", @progbits
	.align 16
	data8 1
tvar:	data8 2
	data8 3
	.section .tbss, "awT", @nobits
	.skip 16
