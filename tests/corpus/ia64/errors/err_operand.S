// err_operand.S: operands of the wrong kind
	.text
	add r8=f2,r3
	;;
	mov b6=f2
	;;
	ld8 r9=r2
	;;
	cmp.eq r6,p7=r2,r3
	;;
	setf.sig r10=r2
	;;
	cmp.lt.and p6,p7=r2,r3
	;;
