// dv_pr.S: predicate-register dependency violations: compare then use as qp, compare writing a predicate twice, pr moves, parallel compares, and the branch exception
	.text
	// RAW on the qualifying predicate
	cmp.eq p6,p7=r2,r3
(p6)	mov r8=1
	;;
	// WAW: two compares write p6
	cmp.eq p6,p7=r2,r3
	cmp.ne p6,p8=r4,r5
	;;
	// tbit writes p8 then a predicated add reads it
	tbit.z p8,p9=r2,5
(p8)	add r9=r2,r3
	;;
	// mov pr= writes all predicates, then one is read
	mov pr=r2,-1
(p10)	add r10=r2,r3
	;;
	// mov r=pr reads all predicates after a compare
	cmp.lt p11,p12=r2,r3
	mov r11=pr
	;;
	// mov pr.rot writes the rotating predicates
	mov pr.rot=0x10000
(p16)	add r12=r2,r3
	;;
	// parallel compares of the same type may share a target
	cmp.eq.and p13,p14=r2,r3
	cmp.ne.and p13,p14=r4,r5
	;;
	// mixing .and and .or on one predicate is a WAW
	cmp.eq.and p15,p0=r2,r3
	cmp.eq.or p15,p0=r4,r5
	;;
	// a branch may read a predicate written in the same group
	cmp.eq p6,p7=r2,r3
(p6)	br.cond.sptk.few .Lout
	;;
	// fcmp writes predicates too
(p20)	mov r13=1
	;;
.Lout:
	nop.m 0
	;;
