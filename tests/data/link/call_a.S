// Two objects calling each other: a PCREL21B call across objects, an indirect call
// through @ltoff(@fptr()), a call to a stub, and @ltoff of a harness data symbol.
	.text
	.global caller
	.proc caller
caller:
	alloc r32 = ar.pfs, 0, 3, 1, 0 ;;
	mov r33 = b0
	mov r34 = gp
	mov r35 = 5
	br.call.sptk.many b0 = callee ;;
	mov r9 = r8
	addl r14 = @ltoff(@fptr(callee2)), gp ;;
	ld8 r14 = [r14] ;;
	ld8 r15 = [r14], 8 ;;
	ld8 gp = [r14]
	mov b6 = r15
	mov r35 = 7 ;;
	br.call.sptk.many b0 = b6 ;;
	mov gp = r34
	mov r10 = r8
	mov r35 = 3 ;;
	br.call.sptk.many b0 = schedule ;;
	mov r11 = r8
	addl r14 = @ltoff(jiffies), gp ;;
	ld8 r14 = [r14] ;;
	ld8 r16 = [r14]
	mov ar.pfs = r32
	mov b0 = r33 ;;
	br.ret.sptk.many b0 ;;
	.endp caller
