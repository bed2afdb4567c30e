// Code 17 MiB above far_a.S's.
	.section .farcode, "ax", @progbits
	.global farfunc
	.proc farfunc
farfunc:
	br.ret.sptk.many b0 ;;
	.endp farfunc
