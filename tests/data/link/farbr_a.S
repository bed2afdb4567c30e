// A 21-bit branch to code 17 MiB away: out of reach.
	.text
	.global start
	.proc start
start:
	br.call.sptk.many b0 = farfunc ;;
	.endp start
	.section .gap, "aw", @nobits
	.skip 0x1100000
