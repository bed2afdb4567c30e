// dv_multimedia.S: general-register dependency violations through multimedia forms (issue 12): RAW and WAW between A9, A10, I1-I9 and I29 forms and integer ALU ops, predicated (may violate), the count register of a variable parallel shift, r0 sources never conflict, tf (I30) predicate targets
	.text
	// RAW: parallel add then parallel subtract of its result
	padd1 r8=r9,r10
	psub2.sss r11=r8,r12
	;;
	// WAW: two multimedia writes of one register
	pavg1 r13=r9,r10
	pcmp4.gt r13=r9,r10
	;;
	// integer result into the A10 form's both sources
	add r14=r9,r10
	pshladd2 r15=r14,2,r14
	;;
	// I-unit forms: multiply result into mix, then mux of the same register
	pmpyshr2.u r16=r9,r10,16
	mix2.l r17=r16,r9
	mux1 r18=r16,@rev
	;;
	// the count of a variable shift is a register read (pshr2 r1=r3,r2)
	mov r19=3
	pshr2 r20=r9,r19
	pshl4 r21=r19,r9
	;;
	// predicated writer and reader: may violate
(p6)	popcnt r22=r9
(p7)	czx1.l r23=r22
	;;
	// unary and immediate forms read only their one register
	clz r24=r9
	pshr4.u r25=r24,31
	mux2 r26=r24,0x1b
	;;
	// r0 as a source is never a conflict; r27 written in the group is
	pack2.uss r27=r0,r10
	unpack4.h r28=r0,r0
	pmpy2.r r29=r0,r27
	;;
	// tf writes its predicates like tbit: a use as a qualifying predicate in the group
	tf.z p8,p9=32
(p8)	padd2 r30=r9,r10
	;;
