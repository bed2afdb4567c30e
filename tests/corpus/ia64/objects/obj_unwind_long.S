// obj_unwind_long.S: X2 to fr/br targets, X4 .spillreg.p, .spillpsp.p, B4 long label/copy_state, R3 long region (rlen >= 32)
	.text
	.proc g1
g1:
	.prologue
	.spillreg b1, r9
	mov r9=b1
	.spillreg f2, f9
	mov f9=f2
	.spillreg r4, b3
	mov b3=r4
	;;
	.spillreg.p p3, r5, r10
	nop.m 0
	.spillpsp.p p4, f3, 24
	nop.m 0
	.spillreg pr, r11
	mov r11=pr
	;;
	.body
	.label_state 40
	nop.m 0
	.copy_state 40
	nop.m 0
	br.ret.sptk.many b0
	;;
	.endp g1
	.proc g2
g2:
	.prologue
	.save ar.pfs, r40
	alloc r40=ar.pfs,0,1,0,0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	nop.m 0
	nop.m 0
	nop.i 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp g2
