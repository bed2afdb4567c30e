// Repeated blocks (issue 13): .rept with a constant expression, .irp and .irpc with \name
// substitution, nesting, inside a macro, and an empty .irp list.
	.text
	.global rep
	.proc rep
rep:
	.rept 2 * 2 - 2
	nop.m 0
	nop.i 0
	nop.i 0 ;;
	.endr
	.irp reg, r2, r3, r8
	adds \reg = 1, r0
	.endr
	;;
	.irpc d, 135
	adds r9 = \d, r9 ;;
	.endr
	.macro fill n
	.rept \n
	.irp f, 6, 7
	mov f\f = f0
	.endr
	.endr
	.endm
	fill 2
	;;
	.irp x
	nop.m 0\x
	.endr
	.rept 0
	break.m 1
	.endr
	br.ret.sptk.many b0 ;;
	.endp rep

	.data
	.irp v, 1, 2, 3
	data4 \v * 10
	.endr
