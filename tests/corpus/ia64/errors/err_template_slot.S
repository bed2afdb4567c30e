// err_template_slot.S: user template directives whose slots cannot take the next instruction (only the F-in-MMI case is an error)
// For .mii + branch and .mlx + add gas silently moves the instruction to a later bundle; recorded for reference.
	.text
	.mii
	add r8=r2,r3
	br.cond.sptk.few .Lx
	;;
	.mmi
	fma.s f6=f7,f8,f9
	;;
	.mlx
	add r9=r2,r3
	add r10=r2,r3
	;;
.Lx:
	nop.m 0
	;;
