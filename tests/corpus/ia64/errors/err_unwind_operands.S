// Issue 13: gas's operand checks of unwind directives (mask ranges of .save.g/.f/.b/.gf and .prologue, too few registers after grN, .spillreg sources that are not preserved and targets that are not writable, an epilogue popping more prologues than open, .copy_state of a state never labelled)
	.text
	.proc f
f:
	.prologue 0x10, r2
	.prologue 0x3, r127
	.save.g 0
	nop.m 0
	.save.g 0x3, r127
	nop.m 0
	.save.f 0x100000
	nop.f 0
	.save.b 0x40
	nop.i 0
	.save.gf 0, 0
	nop.i 0
	.spillreg r8, r9
	nop.i 0
	.spillreg r4, r0
	nop.i 0
	.spillreg.p p1, f2, f1
	nop.i 0
	.body
	.restore sp, 3
	nop.m 0
	.copy_state 9
	br.ret.sptk.many rp
	;;
	.endp f
