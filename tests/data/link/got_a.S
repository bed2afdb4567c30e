// One linkage-table slot: @ltoff(gvar) through LTOFF22, LTOFF64I and LTOFF22X + LDXMOV, all
// for the same symbol and addend.
	.text
	.global start
	.proc start
start:
	addl r14 = @ltoff(gvar), gp
	movl r15 = @ltoff(gvar) ;;
	addl r16 = @ltoffx(gvar), gp ;;
	ld8.mov r17 = [r16], gvar
	br.ret.sptk.many b0 ;;
	.endp start
