// atomic.S: xchg1-8 (M16), cmpxchg1-8 .acq/.rel (M16) with hints, fetchadd4/8 .acq/.rel (M17) with every increment -16 -8 -4 -1 1 4 8 16, cmp8xchg16, ld16/st16
	.text
	xchg1 r8=[r2],r4
	xchg2.nt1 r9=[r3],r5
	;;
	xchg4.nta r10=[r2],r4
	xchg8 r11=[r3],r5
	;;
	cmpxchg1.acq r12=[r2],r4,ar.ccv
	cmpxchg1.rel.nt1 r13=[r3],r4,ar.ccv
	;;
	cmpxchg2.acq.nt1 r14=[r2],r5,ar.ccv
	cmpxchg2.rel.nta r15=[r3],r5,ar.ccv
	;;
	cmpxchg4.acq.nta r16=[r2],r4,ar.ccv
	cmpxchg4.rel r17=[r3],r4,ar.ccv
	;;
	cmpxchg8.acq r18=[r2],r5,ar.ccv
	cmpxchg8.rel.nt1 r19=[r3],r5,ar.ccv
	;;
	fetchadd4.acq r42=[r2],-16
	fetchadd4.acq.nt1 r43=[r3],-8
	;;
	fetchadd4.acq.nta r44=[r2],-4
	fetchadd4.acq r45=[r3],-1
	;;
	fetchadd4.acq.nt1 r46=[r2],1
(p7)	fetchadd4.acq.nta r47=[r3],4
	;;
	fetchadd4.acq r48=[r2],8
	fetchadd4.acq.nt1 r49=[r3],16
	;;
	fetchadd4.rel r50=[r2],-16
	fetchadd4.rel.nt1 r51=[r3],-8
	;;
	fetchadd4.rel.nta r52=[r2],-4
	fetchadd4.rel r53=[r3],-1
	;;
	fetchadd4.rel.nt1 r54=[r2],1
(p7)	fetchadd4.rel.nta r55=[r3],4
	;;
	fetchadd4.rel r56=[r2],8
	fetchadd4.rel.nt1 r57=[r3],16
	;;
	fetchadd8.acq r58=[r2],-16
	fetchadd8.acq.nt1 r59=[r3],-8
	;;
	fetchadd8.acq.nta r60=[r2],-4
	fetchadd8.acq r61=[r3],-1
	;;
	fetchadd8.acq.nt1 r62=[r2],1
(p7)	fetchadd8.acq.nta r63=[r3],4
	;;
	fetchadd8.acq r64=[r2],8
	fetchadd8.acq.nt1 r65=[r3],16
	;;
	fetchadd8.rel r66=[r2],-16
	fetchadd8.rel.nt1 r67=[r3],-8
	;;
	fetchadd8.rel.nta r68=[r2],-4
	fetchadd8.rel r69=[r3],-1
	;;
	fetchadd8.rel.nt1 r30=[r2],1
(p7)	fetchadd8.rel.nta r31=[r3],4
	;;
	fetchadd8.rel r32=[r2],8
	fetchadd8.rel.nt1 r33=[r3],16
	;;
	;;
	;;
	;;
	;;
	;;
	;;
