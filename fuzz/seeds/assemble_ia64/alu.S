// alu.S: integer ALU forms (A1-A5, A9 style): add/adds/addl/sub/and/andcm/or/xor/shladd, zxt/sxt, r0 operands
	.text
	add r8=r2,r3
	add r9=r2,r3,1
	add r10=r0,r0
	;;
	add r11=r127,r126
	add r12=r3,r2,1
	;;
	adds r13=0,r2
	adds r14=-8192,r3
	adds r15=8191,r4
	;;
	adds r16=-1,r5
	adds r17=100,r0
	;;
	addl r18=0,r2
	addl r19=-2097152,r3
	addl r20=2097151,r1
	;;
	addl r21=12345,r0
	;;
	sub r22=r2,r3
	sub r23=r2,r3,1
	sub r24=-128,r3
	;;
	sub r25=127,r4
	sub r26=0,r5
	sub r27=r0,r2
	;;
	and r28=r2,r3
	and r29=-128,r3
	and r30=127,r3
	;;
	andcm r31=r2,r3
	andcm r32=-1,r3
	andcm r33=0x7f,r3
	;;
	or r34=r2,r3
	or r35=-5,r3
	or r36=64,r0
	;;
	xor r37=r2,r3
	xor r38=-128,r3
	xor r39=1,r4
	;;
	shladd r40=r2,1,r3
	shladd r41=r2,2,r3
	shladd r42=r2,3,r3
	;;
	shladd r43=r2,4,r3
	;;
	zxt1 r44=r2
	zxt2 r45=r3
	zxt4 r46=r4
	;;
	sxt1 r47=r2
	sxt2 r48=r3
	sxt4 r49=r4
	;;
	// add and sub with the same destination only across groups
	add r8=r8,r8
	;;
	sub r8=r8,r8
	;;
	and r127=r126,r125
	or r126=r124,r123
	xor r125=r122,r121
	;;
	// predicated forms
(p1)	add r50=r2,r3
(p63)	adds r51=1,r2
(p62)	addl r52=-1,r3
	;;
(p7)	sub r53=r2,r3,1
(p8)	and r54=r2,r3
(p9)	or r55=r2,r3
	;;
(p10)	xor r56=r2,r3
(p11)	andcm r57=r2,r3
(p12)	shladd r58=r2,2,r3
	;;
(p13)	zxt1 r59=r2
(p14)	sxt4 r60=r2
	;;
	// mov r=r and mov r=imm are pseudo-ops of adds/addl
	mov r61=r2
	mov r62=r0
	mov r63=0
	;;
	mov r64=-1
	mov r65=2097151
	mov r66=-2097152
	;;
	mov r67=8191
	mov r68=-8192
	mov r69=8192
	;;
	mov r70=r1
	mov r71=r12
	mov r72=r13
	;;
	// ld/add mixes give MMI and MII
	ld8 r73=[r2]
	add r74=r2,r3
	add r75=r2,r3
	;;
	add r76=r2,r3
	ld8 r77=[r3]
	add r78=r2,r3
	;;
