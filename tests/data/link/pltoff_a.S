// A call through the function's official descriptor, found gp-relative (@pltoff: PLTOFF22),
// and the same offset as a long immediate (PLTOFF64I) and a data word (PLTOFF64LSB).
	.text
	.global pltcaller
	.proc pltcaller
pltcaller:
	alloc r32 = ar.pfs, 0, 3, 1, 0 ;;
	mov r33 = b0
	mov r34 = gp
	addl r14 = @pltoff(plttarget), gp
	movl r9 = @pltoff(plttarget) ;;
	add r10 = r9, gp
	ld8 r15 = [r14], 8 ;;
	ld8 gp = [r14]
	mov b6 = r15
	mov r35 = 30 ;;
	br.call.sptk.many b0 = b6 ;;
	mov gp = r34 ;;
	addl r16 = @gprel(pltword), gp ;;
	ld8 r11 = [r16]
	mov ar.pfs = r32
	mov b0 = r33 ;;
	br.ret.sptk.many b0 ;;
	.endp pltcaller

	.data
	.align 8
pltword:
	data8 @pltoff(plttarget)
