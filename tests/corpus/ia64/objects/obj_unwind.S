// obj_unwind.S: unwind records: R2 (.prologue mask, grsave), X1 spills of gr/fr/br/special to sp and psp, X2 .spillreg, X3 .spillsp.p, P3/P7/P8 saves of every register class (.save, .savesp, .savepsp, @priunat, ar.rnat, ar.bsp), .vframesp, .restore sp with a count
	.text
	.proc f1
f1:
	.prologue 12, 32
	alloc r32=ar.pfs,0,8,0,0
	mov r33=b0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp f1
	.proc f2
f2:
	.prologue
	.fframe 64
	adds r12=-64,r12
	.spillsp r4, 0
	st8.spill [r12]=r4
	.spillsp f2, 16
	stf.spill [r12]=f2
	;;
	.spillsp b2, 32
	mov r3=b2
	.spillsp pr, 40
	mov r3=pr
	.spillpsp r5, 8
	st8.spill [r12]=r5
	;;
	nop.m 0
	nop.f 0
	nop.i 0
	;;
	nop.m 0
	.spillreg r6, r9
	mov r9=r6
	.spillsp.p p1, ar.rnat, 48
	nop.i 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp f2
	.proc f3
f3:
	.prologue
	.save @priunat, r17
	mov r17=ar.unat
	.save ar.rnat, r18
	mov r18=ar.rnat
	.savesp ar.pfs, 8
	nop.i 0
	;;
	.savesp pr, 16
	nop.m 0
	.savesp ar.unat, 24
	nop.m 0
	.savesp ar.fpsr, 32
	nop.i 0
	;;
	.savesp rp, 40
	nop.m 0
	.savepsp ar.lc, 48
	nop.m 0
	.vframesp 64
	nop.i 0
	;;
	.save rp, r0
	nop.m 0
	.spillsp ar.bsp, 56
	nop.m 0
	nop.i 0
	;;
	.body
	.restore sp, 0
	br.ret.sptk.many b0
	;;
	.endp f3
