// Indirect register files (rr, pkr, dbr, ibr, pmc, pmd, cpuid, msr) and the TLB insertion and purge
// instructions (itc, itr, ptc, ptr), as Linux arch/ia64 uses them. Reads of a file come before
// its writes, and the TLB forms before the rr writes they depend on, so that gas reports no
// data-serialization conflicts on the files (the DV checker does not model them; see dv.rs).
	.text
	.global sysregs
	.proc sysregs
sysregs:
	mov r16=rr[r4]
	mov r17=pkr[r7]
	mov r18=dbr[r4]
	mov r19=ibr[r7]
	;;
	mov r20=pmc[r4]
	mov r21=pmd[r7]
	;;
	mov r22=cpuid[r2]
	mov r127=cpuid[r127]
	;;
	mov r1=rr[r0]
	(p6) mov r23=rr[r126]
	;;
	(p7) mov r24=pmd[r9]
	(p63) mov r25=cpuid[r3]
	;;
	mov r26=msr[r2]
	;;
	(p11) mov r27=msr[r127]
	;;
	mov msr[r3]=r4
	;;
	itc.d r2
	;;
	itc.i r3
	;;
	(p6) itc.d r127
	;;
	ptc.l r2,r3
	;;
	ptc.e r4
	;;
	ptr.d r2,r3
	ptr.i r4,r5
	;;
	ptc.g r2,r3
	;;
	ptc.ga r4,r5
	;;
	(p9) ptc.ga r127,r126
	;;
	itr.d dtr[r2]=r3
	;;
	itr.i itr[r4]=r5
	;;
	(p8) itr.d dtr[r127]=r0
	;;
	mov rr[r2]=r3
	mov pkr[r5]=r6
	mov dbr[r2]=r3
	;;
	mov ibr[r5]=r6
	mov pmd[r5]=r6
	;;
	mov pmc[r2]=r3
	(p10) mov rr[r127]=r126
	;;
	srlz.d
	;;
	.endp sysregs
