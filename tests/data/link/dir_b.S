// The definitions dir_a.S refers to: code, data, short data, absolute symbols.
	.global small, medium, bfunc, bvar, svar
	small = 0x123
	medium = 0x12345
	.text
	.proc bfunc
bfunc:
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0 ;;
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0 ;;
	.endp bfunc
	.data
	data8 1
bvar:	data8 2
	.sdata
	data8 3
svar:	data8 4
