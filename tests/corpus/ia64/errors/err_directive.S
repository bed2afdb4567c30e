// err_directive.S: unknown and malformed directives (unknown pseudo-op, template directive with an operand, .proc without a name, p0 in .pred.rel, .save without a register, .align 3)
	.text
	.frobnicate 1
	.mii extra
	.proc
	.pred.rel.mutex p0,p6
	.save ar.pfs
	.align 3
	add r8=r2,r3
	;;
