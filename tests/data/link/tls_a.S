// Thread-local references in every form a static link resolves itself.
	.text
	.global start
	.proc start
start:
	adds r23 = @tprel(tvar), r13
	addl r22 = @tprel(tvar), r0
	movl r24 = @tprel(tvar + 8) ;;
	adds r25 = @dtprel(tvar), r0
	addl r26 = @dtprel(tvar), r0
	movl r27 = @dtprel(tvar) ;;
	br.ret.sptk.many b0 ;;
	.endp start
	.data
	data8 @dtprel(tvar)
	data4 @dtprel(tvar)
	.text
	.proc tls_got
tls_got:
	addl r25 = @ltoff(@tprel(tvar)), gp
	addl r26 = @ltoff(@dtpmod(tvar)), gp
	addl r30 = @ltoff(@dtprel(tvar + 8)), gp ;;
	br.ret.sptk.many b0 ;;
	.endp tls_got
