// mov_misc.S: mov to/from b (I21/I22 with hints and tag), pr (I23/I24/I25), cr (M32/M33), psr/psr.l/psr.um (M35/M36), ip, f=f, and movl (X2) with many 64-bit values
	.text
	.global mov_misc_start
mov_misc_start:
	mov b0=r2
	mov b1=r3
	;;
	mov b6=r4
	mov b7=r5
	;;
	mov.sptk b6=r6,.Ltarget
	;;
	mov.dptk b7=r7,.Ltarget
	;;
	mov.ret b0=r8,.Ltarget
	;;
	mov.imp b1=r9,.Ltarget
	;;
	mov.sptk.imp b2=r10,.Ltarget
	;;
	mov.ret.dptk b3=r11,.Ltarget
	;;
	mov.dptk.imp b4=r12,mov_misc_start
	;;
	mov b6=r2,.Ltarget
	;;
	mov.sptk b7=r3,.Ltarget
	;;
	mov.ret.sptk.imp b0=r4,.Ltarget
	;;
	mov r8=b0
	mov r9=b7
	;;
	mov r10=b6
	;;
	// predicates
	mov pr=r2,-1
	;;
	mov pr=r3,0x1ffff
	;;
	mov pr=r4,0
	;;
	mov pr=r5
	;;
	mov pr.rot=0
	;;
	mov pr.rot=0x7fff0000
	;;
	mov pr.rot=-0x80000000
	;;
	mov r11=pr
	;;
	// control registers: all reads first, then all writes, then serialize, so that no data or instr DV fires
	mov r12=cr.dcr
	mov r13=cr.itm
	;;
	mov r14=cr.iva
	mov r15=cr.pta
	;;
	mov r16=cr.ipsr
	mov r17=cr.isr
	;;
	mov r18=cr.iip
	mov r19=cr.ifa
	;;
	mov r20=cr.itir
	mov r21=cr.iipa
	;;
	mov r22=cr.ifs
	mov r23=cr.iim
	;;
	mov r24=cr.iha
	mov r25=cr.tpr
	;;
	mov r26=psr
	mov r27=psr.um
	;;
	mov r28=ip
	;;
	mov cr.dcr=r2
	mov cr.itm=r3
	;;
	mov cr.iva=r4
	mov cr.pta=r5
	;;
	mov cr.ipsr=r6
	mov cr.isr=r7
	;;
	mov cr.iip=r8
	mov cr.ifa=r9
	;;
	mov cr.itir=r10
	mov cr.iipa=r11
	;;
	mov cr.ifs=r2
	mov cr.iim=r3
	;;
	mov cr.iha=r4
	srlz.i
	;;
	// psr writes last, serialized before anything reads psr again
	mov psr.l=r2
	;;
	srlz.d
	;;
	mov psr.um=r3
	;;
	srlz.d
	;;
	// f = f is fmerge.s
	mov f8=f9
	mov f10=f0
	;;
	mov f127=f1
	;;
	// movl
	movl r29=0
	;;
	movl r30=0x123456789abcdef0
	;;
	movl r31=-1
	;;
	movl r32=0x8000000000000000
	;;
	movl r33=0x7fffffffffffffff
	;;
	movl r34=-0x123456789
	;;
	movl r35=mov_misc_start
	;;
	movl r36=.Ltarget
	;;
	movl r37=.Ltarget+0x10
	;;
	add r38=r2,r3
	movl r39=0xfedcba9876543210
	;;
(p6)	movl r40=42
	;;
.Ltarget:
	mov r41=r2
	;;
