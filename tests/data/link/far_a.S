// A long branch over 16 MiB (ld keeps a brl it cannot shorten) and a short one that
// cannot reach (an overflow acctemu reports).
	.text
	.global start
	.proc start
start:
	brl.call.sptk.many b0 = farfunc ;;
	br.ret.sptk.many b0 ;;
	.endp start
	.section .gap, "aw", @nobits
	.skip 0x1100000
