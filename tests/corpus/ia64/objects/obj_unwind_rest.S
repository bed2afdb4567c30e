// Issue 13, the remaining unwind directives: .personality and .handlerdata (EHANDLER|UHANDLER, the LTOFF_FPTR64 pointer, handler data with its own relocations), .restorereg[.p], .save.g/.save.b to general registers (P9/P2), separate P6 masks, .spill, .vframepsp, an MLX before .body
	.text
	.proc handler
handler:
	br.ret.sptk.many rp
	;;
	.endp handler
	.global cleanup
	.proc with_handler
with_handler:
	.prologue
	.save ar.pfs, r34
	alloc r34 = ar.pfs, 0, 3, 0, 0
	.save rp, r33
	mov r33 = b0
	;;
	.body
	br.ret.sptk.many rp
	;;
	.personality handler
	.handlerdata
	data4 0x11223344
	data8 @gprel(with_handler)
	data8 cleanup
	.endp with_handler
	.proc regs_to_gr
regs_to_gr:
	.prologue
	.spill 32
	.save.g 0x3, r40
	mov r40 = r4
	mov r41 = r5
	.save.b 0x6, r42
	mov r42 = b2
	mov r43 = b3
	;;
	.save.f 0x1
	stf.spill [r2] = f2
	.save.g 0x8
	st8.spill [r3] = r7
	.restorereg r4
	nop.i 0
	.restorereg.p p6, f2
	nop.x 0
	;;
	.body
	br.ret.sptk.many rp
	;;
	.endp regs_to_gr
	.proc vpsp
vpsp:
	.prologue
	.vframepsp 48
	mov r2 = r12
	;;
	.body
	.personality cleanup
	br.ret.sptk.many rp
	;;
	.endp vpsp
