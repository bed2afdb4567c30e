// shift_dep.S: shl/shr/shr.u immediate (pseudo-ops of dep.z/extr) and register (I7/I5) forms, extr/extr.u (I11), dep/dep.z in all four formats (I12-I15), shrp, mux
	.text
	shl r8=r2,0
	shl r9=r2,1
	shl r10=r2,63
	;;
	shl r11=r2,r3
	shl r12=r4,r0
	;;
	shr r13=r2,1
	shr r14=r2,63
	;;
	shr r15=r2,r3
	shr.u r16=r2,1
	;;
	shr.u r17=r2,63
	shr.u r18=r2,r3
	;;
	shr.u r19=r2,0
	shr r20=r2,0
	;;
	extr r21=r2,0,1
	extr r22=r2,63,1
	;;
	extr r23=r2,0,64
	extr r24=r2,7,9
	;;
	extr.u r25=r2,0,1
	extr.u r26=r2,63,1
	;;
	extr.u r27=r2,0,64
	extr.u r28=r2,16,16
	;;
	// I12: dep.z r1=r2,pos,len
	dep.z r29=r2,0,1
	dep.z r30=r2,63,1
	;;
	dep.z r31=r2,0,64
	dep.z r32=r2,8,24
	;;
	// I13: dep.z r1=imm8,pos,len
	dep.z r33=-128,0,8
	dep.z r34=127,56,8
	;;
	dep.z r35=-1,0,64
	dep.z r36=0,3,5
	;;
	// I14: dep r1=imm1,r3,pos,len
	dep r37=0,r3,0,1
	dep r38=-1,r3,63,1
	;;
	dep r39=-1,r3,0,64
	dep r40=0,r3,17,33
	;;
	// I15: dep r1=r2,r3,pos,len (len 1..16)
	dep r41=r2,r3,0,1
	dep r42=r2,r3,63,1
	;;
	dep r43=r2,r3,0,16
	dep r44=r2,r3,48,16
	;;
	dep r45=r2,r3,5,7
	;;
	// predicated forms
(p6)	shl r46=r2,r3
(p7)	shr.u r47=r2,7
	;;
(p8)	extr r48=r2,4,4
(p9)	dep.z r49=r2,4,4
	;;
(p10)	dep r50=r2,r3,4,4
(p11)	dep r51=0,r3,4,4
	;;
	shrp r52=r2,r3,1
	shrp r53=r2,r3,63
	;;
	;;
	;;
	;;
	;;
	;;
	;;
