// gp-relative references to ordinary data beside short data: ld widens the short range by
// their targets and puts gp in the middle; two linkage-table slots, one with an addend.
	.text
	.global start
	.proc start
start:
	addl r11 = @gprel(dvar), gp
	addl r12 = @gprel(svar2), gp ;;
	addl r14 = @ltoff(dvar + 8), gp
	addl r15 = @ltoff(svar2), gp ;;
	br.ret.sptk.many b0 ;;
	.endp start
	.data
	data8 9
dvar:	data8 10
	data8 11
