// Issue 13, TLS sections: every symbol defined in a section with flag T is STT_TLS (labels, @object, globals), .tdata and .tbss, and TLS relocations against them
	.section .tdata, "awT", @progbits
	.align 8
	.global tls_a
	.type tls_a, @object
	.size tls_a, 8
tls_a:	data8 1
tls_b:	data4 2
	.section .tbss, "awT", @nobits
	.align 8
tls_c:	.skip 16
	.text
	.proc f
f:
	addl r14 = @ltoff(@tprel(tls_a)), gp
	adds r15 = @tprel(tls_c), r13
	addl r16 = @dtprel(tls_b), r0
	;;
	br.ret.sptk.many rp
	;;
	.endp f
