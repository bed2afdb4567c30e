// Relocations whose values need no linkage table or descriptor, against symbols of dir_b.S:
// immediates, pc-relative branches and immediates, gp-relative, and data words.
	.text
	.global start
	.proc start
start:
	adds r8 = small + 3, r0
	addl r9 = medium, r0
	movl r10 = bvar + 8 ;;
	addl r11 = @gprel(svar), gp
	movl r12 = @gprel(bvar) ;;
	addl r2 = @pcrel(bfunc), r0
	movl r31 = @pcrel(bfunc) ;;
	chk.s r1, bfunc
	chk.s.i r2, bfunc ;;
	fchkf.s0 bfunc ;;
	br.call.sptk.many b0 = bfunc ;;

	br.sptk.many bfunc ;;
	.endp start
	.data
	data4 small
	data8 bvar + 4
	data4 @gprel(svar)
	data8 @gprel(bvar)
	data4 @pcrel(bfunc)
	data8 @pcrel(bfunc)
	data8 bfunc - .
	data4 @secrel(bvar)
	data8 @secrel(bfunc + 32)
	data4 @segrel(bvar)
	data8 @segrel(bfunc)
	data4 @ltv(bvar)
	data8 @ltv(bvar + 2)
	data8 start
