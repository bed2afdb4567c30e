// The target of pltoff_a.S's call: returns its argument plus 12.
	.text
	.global plttarget
	.proc plttarget
plttarget:
	alloc r2 = ar.pfs, 1, 0, 0, 0
	adds r8 = 12, in0
	br.ret.sptk.many b0 ;;
	.endp plttarget
