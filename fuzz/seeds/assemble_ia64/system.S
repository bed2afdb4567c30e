// system.S: memory ordering and serialization (mf mf.a srlz sync.i invala fc), RSE (flushrs loadrs alloc cover clrrrb), privileged (rfi epc bsw rsm ssm sum rum), probe, TLB and indirect-register moves
	.text
	mf
	;;
	mf.a
	;;
	srlz.d
	;;
	srlz.i
	;;
	sync.i
	;;
	invala
	;;
	;;
	;;
	fc r2
	;;
	fc.i r3
	;;
	flushrs
	;;
	loadrs
	;;
	alloc r32=ar.pfs,0,0,0,0
	;;
	alloc r33=ar.pfs,2,3,4,0
	;;
	alloc r34=ar.pfs,8,8,8,8
	;;
	alloc r35=ar.pfs,0,96,0,96
	;;
	alloc r36=ar.pfs,2,6,0,8
	;;
	alloc r37=ar.pfs,96,0,0,0
	;;
	cover
	;;
	clrrrb
	;;
	clrrrb.pr
	;;
	rsm 0x4000
	;;
	ssm 0x4000
	;;
	sum 0x3f
	;;
	rum 0x10
	;;
	rsm 0xffffff
	;;
	srlz.d
	;;
	epc
	;;
	bsw.0
	;;
	bsw.1
	;;
	// probes: reg and imm2 forms, and the faulting forms
	probe.r r8=r2,r3
	probe.w r9=r2,r3
	;;
	probe.r r10=r2,0
	probe.w r11=r2,3
	;;
	probe.r.fault r2,1
	;;
	probe.w.fault r3,2
	;;
	probe.rw.fault r4,3
	;;
	// translation
	thash r12=r2
	ttag r13=r3
	;;
	tpa r14=r4
	tak r15=r5
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	// indirect register files
	;;
	;;
	;;
	srlz.d
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	rfi
	;;
