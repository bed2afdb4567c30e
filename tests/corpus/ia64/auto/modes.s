// modes.s: the mode directives .explicit/.auto/.default, ignored stops and a manual bundle (issue 13, automatic mode)
	.text
	add r1=r2,r3
	add r4=r1,r5
	;;
	.explicit
	add r6=r7,r8
	add r9=r6,r1
	;;
	.auto
	add r10=r9,r9
	add r11=r10,r10
	;;
	.default
	add r12=r11,r11
	add r13=r12,r12
	;;
	{ .mii
	add r14=r13,r13
	add r15=r14,r14
	;;
	}
	add r16=r15,r15
