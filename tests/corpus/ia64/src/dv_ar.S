// dv_ar.S: application-register dependency violations: ar.lc, ar.pfs, ar.ccv, ar.unat, ar.ec, ar.rsc/bspstore, ar48 written and read in one group
	.text
	// ar.lc: write then read, write then br.cloop
	mov ar.lc=r9
	mov r10=ar.lc
	;;
	mov ar.lc=r2
	br.cloop.sptk.few .Lout
	;;
	// ar.pfs: alloc then read, write then br.ret (neither is reported by gas)
	alloc r32=ar.pfs,2,2,0,0
	mov r34=ar.pfs
	;;
	mov ar.pfs=r2
	br.ret.sptk.many b0
	;;
	// ar.pfs: mov write then mov read (reported), and two writes (not reported by gas)
	mov ar.pfs=r3
	mov r35=ar.pfs
	;;
	mov ar.pfs=r4
	mov ar.pfs=r5
	;;
	// ar.ccv: write then cmpxchg reads it
	mov ar.ccv=r3
	cmpxchg8.acq r11=[r2],r4,ar.ccv
	;;
	// ar.ccv written twice
	mov ar.ccv=r3
	mov ar.ccv=0
	;;
	// ar.unat: st8.spill writes it, mov reads it
	st8.spill [r2]=r5
	mov r12=ar.unat
	;;
	// ar.unat: mov writes it, ld8.fill reads it
	mov ar.unat=r6
	ld8.fill r13=[r3]
	;;
	// ar.ec: write then read
	mov ar.ec=r7
	mov r14=ar.ec
	;;
	// ar.rsc then ar.bspstore then loadrs
	mov ar.rsc=r2
	mov ar.bspstore=r3
	;;
	// ar48 (no fixed unit) written and read
	mov ar48=r4
	mov r15=ar48
	;;
.Lout:
	nop.m 0
	;;
