// branch_ret.S: br.ret (B4) with every hint combination through b0-b7, br.ia (B4) with every hint combination (br.ia is never predicated by gas users; one per group)
	.text
	.global branch_ret_entry
branch_ret_entry:
.Lback:
	add r8=r2,r3
	;;
(p6)	br.ret.sptk b0
(p7)	br.ret.sptk.clr b1
	br.ret.sptk.few b2
	;;
(p6)	br.ret.sptk.few.clr b3
(p7)	br.ret.sptk.many b4
	br.ret.sptk.many.clr b5
	;;
(p6)	br.ret.spnt b6
(p7)	br.ret.spnt.clr b7
	br.ret.spnt.few b0
	;;
(p6)	br.ret.spnt.few.clr b1
(p7)	br.ret.spnt.many b2
	br.ret.spnt.many.clr b3
	;;
(p6)	br.ret.dptk b4
(p7)	br.ret.dptk.clr b5
	br.ret.dptk.few b6
	;;
(p6)	br.ret.dptk.few.clr b7
(p7)	br.ret.dptk.many b0
	br.ret.dptk.many.clr b1
	;;
(p6)	br.ret.dpnt b2
(p7)	br.ret.dpnt.clr b3
	br.ret.dpnt.few b4
	;;
(p6)	br.ret.dpnt.few.clr b5
(p7)	br.ret.dpnt.many b6
	br.ret.dpnt.many.clr b7
	;;
	br.ia.sptk b1
	;;
	br.ia.sptk.clr b2
	;;
	br.ia.sptk.few b3
	;;
	br.ia.sptk.few.clr b4
	;;
	br.ia.sptk.many b5
	;;
	br.ia.sptk.many.clr b6
	;;
	br.ia.spnt b7
	;;
	br.ia.spnt.clr b1
	;;
	br.ia.spnt.few b2
	;;
	br.ia.spnt.few.clr b3
	;;
	br.ia.spnt.many b4
	;;
	br.ia.spnt.many.clr b5
	;;
	br.ia.dptk b6
	;;
	br.ia.dptk.clr b7
	;;
	br.ia.dptk.few b1
	;;
	br.ia.dptk.few.clr b2
	;;
	br.ia.dptk.many b3
	;;
	br.ia.dptk.many.clr b4
	;;
	br.ia.dpnt b5
	;;
	br.ia.dpnt.clr b6
	;;
	br.ia.dpnt.few b7
	;;
	br.ia.dpnt.few.clr b1
	;;
	br.ia.dpnt.many b2
	;;
	br.ia.dpnt.many.clr b3
	;;
.Lfwd:
	add r9=r2,r3
	;;
