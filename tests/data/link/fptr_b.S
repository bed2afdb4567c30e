// The function fptr_a.S takes the address of.
	.text
	.global f
	.proc f
f:
	br.ret.sptk.many b0 ;;
	.endp f
