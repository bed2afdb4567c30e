// expr.S: .set/.equ/= constants and expressions with every operator (+ - * / % << >> & | ^ ~, unary -, parens) feeding immediates of adds/addl/movl/cmp/dep/ld post-increment
	.set OFF_A, 16
	.equ OFF_B, 40
	SIZE = 0x1000
	.set MASK, (1 << 12) - 1
	.set NEG, -OFF_B
	.text
	adds r8=OFF_A,r2
	adds r9=OFF_B+OFF_A,r2
	;;
	adds r10=OFF_B-OFF_A,r3
	adds r11=OFF_A*3,r3
	;;
	adds r12=SIZE/16,r4
	adds r13=SIZE%7,r4
	;;
	adds r14=1<<10,r5
	adds r15=SIZE>>4,r5
	;;
	adds r16=MASK&0x0f0,r6
	adds r17=OFF_A|3,r6
	;;
	adds r18=OFF_B^0x7f,r7
	adds r19=~OFF_A,r7
	;;
	adds r20=-(OFF_A+OFF_B),r2
	adds r21=NEG,r2
	;;
	adds r22=((OFF_A<<2)|(OFF_B>>3))&~1,r3
	adds r23=-8192+(SIZE-SIZE),r3
	;;
	addl r24=SIZE*SIZE/8-1,r1
	addl r25=-(SIZE*512),r1
	;;
	movl r26=(SIZE<<40)|(MASK<<8)|0xff
	;;
	movl r27=~0
	;;
	movl r28=-(1<<63)
	;;
	movl r29=0x7fffffffffffffff ^ MASK
	;;
	movl r30=(100/7)*7+100%7
	;;
	cmp.eq p6,p7=OFF_A-OFF_B+100,r2
	cmp.ltu p8,p9=(MASK>>5)&0x7f,r3
	;;
	dep.z r31=r2,OFF_A/2,OFF_A
	extr.u r32=r3,SIZE>>9,MASK>>6
	;;
	ld8 r33=[r40],OFF_A*(OFF_B/OFF_A)
	st8 [r41]=r2,-(OFF_A<<4)
	;;
	mov r34=OFF_B%OFF_A
	mov r35=-SIZE
	;;
	mov ar.lc=OFF_A-1
	;;
	alloc r36=ar.pfs,2,OFF_A/4,2,0
	;;
	tbit.nz p10,p11=r2,OFF_B%32
	;;
	fetchadd8.acq r37=[r2],OFF_A>>2
	;;
	.set OFF_A, 24
	adds r38=OFF_A,r2
	;;
	shladd r39=r2,OFF_A/8,r3
	;;
