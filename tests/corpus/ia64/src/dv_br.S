// dv_br.S: branch-register dependency violations: mov b= then br via it, b written twice, br.call writes the link register, mov r=b after a write
	.text
	// RAW: indirect branch through a b-register written in the same group
	mov b6=r2
	br.cond.sptk.few b6
	;;
	// WAW on b7
	mov b7=r2
	mov b7=r3
	;;
	// read back a just-written b-register
	mov b1=r4
	mov r8=b1
	;;
	// br.call writes b0; a predicated call and a move to b0 in one group
	mov b0=r5
(p6)	br.call.sptk.many b0=.Lfunc
	;;
	// br.ret reads b0 after a write
	mov b0=r6
	br.ret.sptk.many b0
	;;
.Lfunc:
	mov b2=r7
(p7)	br.call.dptk.few b3=b2
	;;
	br.ret.sptk.many b0
	;;
