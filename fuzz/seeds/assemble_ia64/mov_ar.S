// mov_ar.S: application-register moves, M side (M29/M30/M31) and I side (I26/I27/I28), named, numbered, dynamic ar48, explicit mov.m/mov.i, imm8 forms
	.text
	mov ar.k0=r2
	mov ar.k1=r3
	;;
	mov ar.k2=r4
	mov ar.k3=r5
	;;
	mov ar.k4=r6
	mov ar.k5=r7
	;;
	mov ar.k6=r8
	mov ar.k7=r9
	;;
	mov r10=ar.k0
	mov r11=ar.k1
	mov r12=ar.k2
	;;
	mov r13=ar.k3
	mov r14=ar.k4
	mov r15=ar.k5
	;;
	mov r16=ar.k6
	mov r17=ar.k7
	;;
	mov ar.rsc=r2
	;;
	mov r18=ar.rsc
	mov r19=ar.bsp
	;;
	mov ar.bspstore=r3
	;;
	mov r20=ar.bspstore
	mov r21=ar.rnat
	;;
	mov ar.rnat=r4
	mov ar.ccv=r5
	;;
	mov r22=ar.ccv
	mov ar.unat=r6
	;;
	mov r23=ar.unat
	mov ar.fpsr=r7
	;;
	mov r24=ar.fpsr
	mov r25=ar.itc
	;;
	mov ar.itc=r8
	;;
	mov ar.pfs=r9
	mov r26=ar.lc
	;;
	mov r27=ar.pfs
	mov ar.lc=r10
	;;
	mov ar.ec=r11
	;;
	mov r28=ar.ec
	mov ar.csd=r12
	;;
	mov r29=ar.csd
	mov ar.ssd=r13
	;;
	mov r30=ar.ssd
	;;
	// explicit unit suffixes
	mov.m ar.k5=r14
	mov.m r31=ar.ccv
	;;
	mov.i ar.pfs=r15
	mov.i r32=ar.lc
	;;
	mov.m ar.rsc=r16
	mov.i ar.ec=r17
	;;
	// numbered names
	mov ar0=r18
	mov r33=ar16
	;;
	mov ar64=r19
	mov r34=ar65
	;;
	mov ar40=r20
	mov r35=ar44
	;;
	// ar48-63 and ar112-127 have no fixed unit
	mov ar48=r21
	;;
	mov r36=ar48
	;;
	mov.m ar49=r22
	mov.i ar50=r23
	;;
	mov.m r37=ar63
	mov.i r38=ar112
	;;
	mov ar127=r24
	;;
	// ar = imm8
	mov ar.ccv=0
	mov ar.k0=-128
	;;
	mov ar.rsc=3
	;;
	mov ar.lc=127
	;;
	mov.i ar.ec=-1
	mov.m ar.unat=1
	;;
	mov.m ar48=5
	;;
	mov.i ar48=-5
	;;
	mov ar.pfs=0
	;;
	// predicated
(p6)	mov ar.ccv=r25
(p7)	mov r39=ar.itc
	;;
(p8)	mov ar.lc=r26
	;;
(p9)	mov r40=ar.pfs
	;;
