// unwind forms of the kernel sources (issue 13): a region after a manual bundle starts after
// its filler slots; records of an empty prologue region are at 0; `.restore sp` without a
// count pops all open prologues but one (with .label_state/.copy_state saving the count)
	.text
	.global f
	.align 32
	.proc f
f:
	.prologue 0xc, r37
	alloc r37 = ar.pfs, 2, 3, 0, 0
	movl r14 = f
{
	mov r28 = r32
	mov r36 = b0
}
	.body
	;;
	ld8 r14 = [r14]
	;;
	.prologue
	.fframe 48
	.spillsp rp, 16
	.body
	;;
	br.call.sptk.many b0 = g
	;;
	.prologue
	.body
	.label_state 1
	.prologue
	.body
	.restore sp
	mov ar.pfs = r37
	;;
	.copy_state 1
	mov b0 = r36
	.restore sp
	br.ret.sptk.many b0
	;;
	.endp f
