// Issue 13: gas's checks of .proc/.endp names (a name defined before .proc, an empty .proc, an .endp name never defined)
	.text
early:
	br.ret.sptk.many rp
	;;
	.proc later, early
later:
	br.ret.sptk.many rp
	;;
	.endp later, never
	.proc
	.endp
