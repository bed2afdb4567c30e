// obj_unwind_mem.S: P6 gr_mem and fr_mem alone, P1 br_mem with and without P6, P4 for a one-bundle prologue
	.text
	.proc a1
a1:
	.prologue
	.save.g 0x5
	nop.m 0
	nop.i 0
	.save.b 0x10
	nop.i 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp a1
	.proc a2
a2:
	.prologue
	.save.f 0x3
	nop.m 0
	nop.f 0
	nop.i 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp a2
	.proc a3
a3:
	.prologue
	.save.b 0x1
	nop.m 0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp a3
