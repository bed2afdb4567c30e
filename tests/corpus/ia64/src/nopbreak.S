// nopbreak.S: nop/break in every unit form (.m .i .b .f .x) and dynamic, hint forms gas accepts (hint.b is rejected by default), chk.s (.m .i dynamic, fp), chk.a
	.text
	nop.m 0
	nop.i 0
	nop.b 0
	;;
	nop.f 0
	;;
	nop.x 0
	;;
	nop.m 0x1fffff
	nop.i 0x1fffff
	nop.b 0x1fffff
	;;
	nop.f 0x1fffff
	;;
	nop.x 0x3ffffffffffffff
	;;
	nop 0
	;;
	nop 5
	nop 6
	nop 7
	;;
	break.m 0
	break.i 1
	break.b 0x100000
	;;
	break.f 0x1fffff
	;;
	break.x 0x123456789abcdef
	;;
	break 0x100000
	;;
	add r8=r2,r3
	break 3
	nop 4
	;;
	hint @pause
	;;
	hint.m 0
	hint.i @pause
	;;
	hint.f 1
	;;
	hint.x 0x200000
	;;
	;;
(p6)	break.m 0x80000
(p7)	nop.i 1
	;;
	// chk.s: integer and fp, unit fixed and dynamic; targets forward and backward
.Lrecover:
	chk.s r2,.Lrecover
	;;
	chk.s.m r3,.Lrecover
	;;
	chk.s.i r4,.Lfwd
	;;
	chk.s f6,.Lfwd
	;;
	add r9=r2,r3
	chk.s r5,.Lfwd
	;;
(p6)	chk.s.i r6,.Lrecover
	;;
	;;
	;;
	;;
	;;
.Lfwd:
	nop.m 0
	;;
