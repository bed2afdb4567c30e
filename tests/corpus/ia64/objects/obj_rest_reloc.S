// Issue 13: ld8.mov (LDXMOV after LTOFF22X), operators a field cannot take (gas warns "Cannot express" and relocates the plain value), a lone .body and prologue/body/prologue regions (unwind entries gas keeps), .endp naming a label not given to .proc
	.global ext
	.section .rodata, "a", @progbits
	.text
	.proc relax
relax:
	.body
	addl r2 = @ltoffx(ext), gp
	;;
	ld8.mov r3 = [r2], ext
	;;
(p6)	ld8.mov r4 = [r5], ext+16
	adds r6 = @gprel(ext), r0
	mov r7 = @fptr(ext)
	;;
	movl r8 = @segrel(ext)
	;;
	.xdata4 .rodata, @ltoff(ext)
	.xdata8 .rodata, @iplt(ext)
	br.ret.sptk.many rp
	;;
	.endp relax
	.proc regions
regions:
	.prologue
	mov r2 = r0
	.body
	nop.i 0
	.prologue
	mov r3 = r0
	;;
	br.ret.sptk.many rp
	;;
extra:
	.endp regions, extra
