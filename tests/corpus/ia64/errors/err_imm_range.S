// err_imm_range.S: immediates out of range
	.text
	adds r8=8192,r2
	;;
	addl r9=2097152,r1
	;;
	ld8 r10=[r2],256
	;;
	st8 [r3]=r4,-257
	;;
	fetchadd4.acq r11=[r2],3
	;;
	cmp.eq p6,p7=128,r2
	;;
	shl r12=r2,64
	;;
	alloc r32=ar.pfs,97,0,0,0
	;;
	mov ar.ccv=128
	;;
	dep r13=r2,r3,4,17
	;;
