	.text
	.global f
f:
	movl r8=sym
	;;
	br.ret.sptk.many b0
	;;
	.data
sym:	.quad 5
