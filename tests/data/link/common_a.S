// COMMON symbols and weak definitions across objects: a strong definition overrides a weak
// one, two COMMONs of one name take the larger size, an undefined weak reference is 0.
	.text
	.global start
	.weak wfunc, wundef
	.proc start
start:
	movl r8 = cvar
	movl r9 = cvar2 ;;
	movl r10 = wfunc
	movl r11 = wundef ;;
	br.ret.sptk.many b0 ;;
	.endp start
	.proc wfunc
wfunc:
	br.ret.sptk.many b0 ;;
	.endp wfunc
	.comm cvar, 8, 8
	.comm cvar2, 4, 4
