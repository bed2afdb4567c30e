// The strong wfunc and a larger cvar.
	.text
	.global wfunc
	.proc wfunc
wfunc:
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0 ;;
	.endp wfunc
	.comm cvar, 32, 16
	.data
	data8 cvar
