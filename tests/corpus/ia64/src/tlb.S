// TLB and system forms (issue 12): itc/itr/ptc/ptr/ptc.e with r0/r127 and predicates, probe in every form, tak thash ttag tpa, fc/fc.i, psr masks and moves, srlz/sync/mf/fwb, epc/bsw/cover/clrrrb, alloc with rotating registers, loadrs/flushrs, br.ia, hint.x/nop.x/break.x
	.text
	.global f
f:
	mov cr.ifa=r2
	mov cr.itir=r3 ;;
	itc.d r4 ;;
	(p6) itc.i r127 ;;
	itr.d dtr[r5]=r6 ;;
	(p7) itr.i itr[r127]=r0 ;;
	srlz.i ;;
	ptc.l r8,r9 ;;
	(p8) ptr.d r10,r11 ;;
	ptr.i r127,r0 ;;
	ptc.g r12,r13 ;;
	(p9) ptc.ga r14,r15 ;;
	ptc.e r16 ;;
	(p10) ptc.e r127 ;;
	srlz.d ;;
	probe.r r17=r18,r19
	probe.w r20=r21,r22
	(p11) probe.r r23=r24,0
	probe.w r25=r26,3 ;;
	probe.r.fault r27,1
	probe.w.fault r28,2
	probe.rw.fault r29,3 ;;
	tak r30=r31
	thash r32=r33
	ttag r34=r35 ;;
	(p12) tpa r36=r37 ;;
	fc r38
	fc.i r39 ;;
	sum 0x3f
	rum 0x1 ;;
	ssm 0x6000
	rsm 0x800000 ;;
	mov psr.l=r40 ;;
	srlz.d ;;
	mov psr.um=r41 ;;
	srlz.d ;;
	mov r42=psr
	mov r43=psr.um ;;
	srlz.d
	sync.i ;;
	mf
	mf.a
	fwb ;;
	epc ;;
	bsw.0 ;;
	bsw.1 ;;
	clrrrb ;;
	clrrrb.pr ;;
	cover ;;
	alloc r44=ar.pfs,2,14,8,16 ;;
	alloc r45=ar.pfs,0,96,0,96 ;;
	alloc r46=2,3,4,0 ;;
	alloc r47=0,8,0,8 ;;
	loadrs ;;
	flushrs ;;
	br.ia.sptk b6 ;;
	br.ia.dpnt.many.clr b7 ;;
	hint.x 0x3
	nop.x 0x3fffffffffffffff
	break.x 0x1000000000000000 ;;
	br.ret.sptk.many b0 ;;
