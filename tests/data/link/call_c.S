// An indirect call to a stub through its function descriptor (@ltoff(@fptr(ktime))), as C
// code calls through a function pointer; the descriptor's gp is the link's.
	.text
	.global indirect
	.proc indirect
indirect:
	alloc r32 = ar.pfs, 0, 3, 2, 0 ;;
	mov r33 = b0
	mov r34 = gp
	addl r14 = @ltoff(@fptr(ktime)), gp ;;
	ld8 r14 = [r14] ;;
	ld8 r15 = [r14], 8 ;;
	ld8 r16 = [r14]
	mov b6 = r15
	mov r35 = 11
	mov r36 = 22 ;;
	br.call.sptk.many b0 = b6 ;;
	mov r9 = r8
	mov r10 = r16
	mov gp = r34
	mov ar.pfs = r32
	mov b0 = r33 ;;
	br.ret.sptk.many b0 ;;
	.endp indirect
