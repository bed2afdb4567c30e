// directives.s: `{` after .auto, .pred.rel.mutex, a predicated call, .align, a label, PSR writes (srlz.d inserted), .explicit, .serialize.data (issue 13, automatic mode)
	.text
	.auto
	add r1=r2,r3
	{ .mii
	add r4=r1,r5
	add r6=r4,r4
	}
	.pred.rel.mutex p6,p7
	(p6) mov r8=1
	(p7) mov r8=2
	(p6) br.call.sptk.many b0=f
	add r9=r8,r1
	.align 32
	mov r10=r9
f:	mov r11=r10
	ssm psr.ic
	mov cr.ifs=r11
	rsm psr.i
	mov r12=psr
	mov r13=r12
	.explicit
	{ .mmi
	mov r14=r13
	;;
	mov r15=r14
	}
	.serialize.data
	br.ret.sptk.many b0
