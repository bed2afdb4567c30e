// brl_qp.S: brl.cond and brl.call with every hint under a predicate and without one (objdump shortens only the unpredicated brl.cond.sptk to brl), numeric targets (gas takes a number as the displacement from the bundle, for brl and br alike)
	.text
	.global brl_qp_forms
	.proc brl_qp_forms
brl_qp_forms:
.Lback:
	brl.cond.sptk 0
	;;
	brl.call.sptk b0=0
	;;
(p6)	brl.cond.sptk 0
	;;
(p6)	brl.call.sptk b1=0
	;;
(p63)	brl.cond.sptk 0
	;;
(p63)	brl.call.sptk b2=0
	;;
	brl.cond.sptk.clr 0
	;;
	brl.call.sptk.clr b3=0
	;;
(p6)	brl.cond.sptk.clr 0
	;;
(p6)	brl.call.sptk.clr b4=0
	;;
(p63)	brl.cond.sptk.clr 0
	;;
(p63)	brl.call.sptk.clr b5=0
	;;
	brl.cond.sptk.few 0
	;;
	brl.call.sptk.few b6=0
	;;
(p6)	brl.cond.sptk.few 0
	;;
(p6)	brl.call.sptk.few b7=0
	;;
(p63)	brl.cond.sptk.few 0
	;;
(p63)	brl.call.sptk.few b0=0
	;;
	brl.cond.sptk.few.clr 0
	;;
	brl.call.sptk.few.clr b1=0
	;;
(p6)	brl.cond.sptk.few.clr 0
	;;
(p6)	brl.call.sptk.few.clr b2=0
	;;
(p63)	brl.cond.sptk.few.clr 0
	;;
(p63)	brl.call.sptk.few.clr b3=0
	;;
	brl.cond.sptk.many 0
	;;
	brl.call.sptk.many b4=0
	;;
(p6)	brl.cond.sptk.many 0
	;;
(p6)	brl.call.sptk.many b5=0
	;;
(p63)	brl.cond.sptk.many 0
	;;
(p63)	brl.call.sptk.many b6=0
	;;
	brl.cond.sptk.many.clr 0
	;;
	brl.call.sptk.many.clr b7=0
	;;
(p6)	brl.cond.sptk.many.clr 0
	;;
(p6)	brl.call.sptk.many.clr b0=0
	;;
(p63)	brl.cond.sptk.many.clr 0
	;;
(p63)	brl.call.sptk.many.clr b1=0
	;;
	brl.cond.spnt 0
	;;
	brl.call.spnt b2=0
	;;
(p6)	brl.cond.spnt 0
	;;
(p6)	brl.call.spnt b3=0
	;;
(p63)	brl.cond.spnt 0
	;;
(p63)	brl.call.spnt b4=0
	;;
	brl.cond.spnt.clr 0
	;;
	brl.call.spnt.clr b5=0
	;;
(p6)	brl.cond.spnt.clr 0
	;;
(p6)	brl.call.spnt.clr b6=0
	;;
(p63)	brl.cond.spnt.clr 0
	;;
(p63)	brl.call.spnt.clr b7=0
	;;
	brl.cond.spnt.few 0
	;;
	brl.call.spnt.few b0=0
	;;
(p6)	brl.cond.spnt.few 0
	;;
(p6)	brl.call.spnt.few b1=0
	;;
(p63)	brl.cond.spnt.few 0
	;;
(p63)	brl.call.spnt.few b2=0
	;;
	brl.cond.spnt.few.clr 0
	;;
	brl.call.spnt.few.clr b3=0
	;;
(p6)	brl.cond.spnt.few.clr 0
	;;
(p6)	brl.call.spnt.few.clr b4=0
	;;
(p63)	brl.cond.spnt.few.clr 0
	;;
(p63)	brl.call.spnt.few.clr b5=0
	;;
	brl.cond.spnt.many 0
	;;
	brl.call.spnt.many b6=0
	;;
(p6)	brl.cond.spnt.many 0
	;;
(p6)	brl.call.spnt.many b7=0
	;;
(p63)	brl.cond.spnt.many 0
	;;
(p63)	brl.call.spnt.many b0=0
	;;
	brl.cond.spnt.many.clr 0
	;;
	brl.call.spnt.many.clr b1=0
	;;
(p6)	brl.cond.spnt.many.clr 0
	;;
(p6)	brl.call.spnt.many.clr b2=0
	;;
(p63)	brl.cond.spnt.many.clr 0
	;;
(p63)	brl.call.spnt.many.clr b3=0
	;;
	brl.cond.dptk 0
	;;
	brl.call.dptk b4=0
	;;
(p6)	brl.cond.dptk 0
	;;
(p6)	brl.call.dptk b5=0
	;;
(p63)	brl.cond.dptk 0
	;;
(p63)	brl.call.dptk b6=0
	;;
	brl.cond.dptk.clr 0
	;;
	brl.call.dptk.clr b7=0
	;;
(p6)	brl.cond.dptk.clr 0
	;;
(p6)	brl.call.dptk.clr b0=0
	;;
(p63)	brl.cond.dptk.clr 0
	;;
(p63)	brl.call.dptk.clr b1=0
	;;
	brl.cond.dptk.few 0
	;;
	brl.call.dptk.few b2=0
	;;
(p6)	brl.cond.dptk.few 0
	;;
(p6)	brl.call.dptk.few b3=0
	;;
(p63)	brl.cond.dptk.few 0
	;;
(p63)	brl.call.dptk.few b4=0
	;;
	brl.cond.dptk.few.clr 0
	;;
	brl.call.dptk.few.clr b5=0
	;;
(p6)	brl.cond.dptk.few.clr 0
	;;
(p6)	brl.call.dptk.few.clr b6=0
	;;
(p63)	brl.cond.dptk.few.clr 0
	;;
(p63)	brl.call.dptk.few.clr b7=0
	;;
	brl.cond.dptk.many 0
	;;
	brl.call.dptk.many b0=0
	;;
(p6)	brl.cond.dptk.many 0
	;;
(p6)	brl.call.dptk.many b1=0
	;;
(p63)	brl.cond.dptk.many 0
	;;
(p63)	brl.call.dptk.many b2=0
	;;
	brl.cond.dptk.many.clr 0
	;;
	brl.call.dptk.many.clr b3=0
	;;
(p6)	brl.cond.dptk.many.clr 0
	;;
(p6)	brl.call.dptk.many.clr b4=0
	;;
(p63)	brl.cond.dptk.many.clr 0
	;;
(p63)	brl.call.dptk.many.clr b5=0
	;;
	brl.cond.dpnt 0
	;;
	brl.call.dpnt b6=0
	;;
(p6)	brl.cond.dpnt 0
	;;
(p6)	brl.call.dpnt b7=0
	;;
(p63)	brl.cond.dpnt 0
	;;
(p63)	brl.call.dpnt b0=0
	;;
	brl.cond.dpnt.clr 0
	;;
	brl.call.dpnt.clr b1=0
	;;
(p6)	brl.cond.dpnt.clr 0
	;;
(p6)	brl.call.dpnt.clr b2=0
	;;
(p63)	brl.cond.dpnt.clr 0
	;;
(p63)	brl.call.dpnt.clr b3=0
	;;
	brl.cond.dpnt.few 0
	;;
	brl.call.dpnt.few b4=0
	;;
(p6)	brl.cond.dpnt.few 0
	;;
(p6)	brl.call.dpnt.few b5=0
	;;
(p63)	brl.cond.dpnt.few 0
	;;
(p63)	brl.call.dpnt.few b6=0
	;;
	brl.cond.dpnt.few.clr 0
	;;
	brl.call.dpnt.few.clr b7=0
	;;
(p6)	brl.cond.dpnt.few.clr 0
	;;
(p6)	brl.call.dpnt.few.clr b0=0
	;;
(p63)	brl.cond.dpnt.few.clr 0
	;;
(p63)	brl.call.dpnt.few.clr b1=0
	;;
	brl.cond.dpnt.many 0
	;;
	brl.call.dpnt.many b2=0
	;;
(p6)	brl.cond.dpnt.many 0
	;;
(p6)	brl.call.dpnt.many b3=0
	;;
(p63)	brl.cond.dpnt.many 0
	;;
(p63)	brl.call.dpnt.many b4=0
	;;
	brl.cond.dpnt.many.clr 0
	;;
	brl.call.dpnt.many.clr b5=0
	;;
(p6)	brl.cond.dpnt.many.clr 0
	;;
(p6)	brl.call.dpnt.many.clr b6=0
	;;
(p63)	brl.cond.dpnt.many.clr 0
	;;
(p63)	brl.call.dpnt.many.clr b7=0
	;;
	brl .Lback
	;;
	brl.few .Lback
	;;
	brl.many .Lback
	;;
	brl.sptk.few .Lback
	;;
	brl.cond.sptk.few.clr .Lback
	;;
(p6)	brl .Lback
	;;
(p6)	brl.few .Lback
	;;
(p6)	brl.many .Lback
	;;
(p6)	brl.sptk.few .Lback
	;;
(p6)	brl.cond.sptk.few.clr .Lback
	;;
	brl.few 0x40
	;;
(p6)	brl.call.dpnt.many.clr b7=-0x30
	;;
	br.few 0x40
	;;
(p7)	br.cond.spnt.many -0x20
	;;
	br.call.sptk.few b2=0x1000
	;;
	br.ret.sptk.many b0
	;;
	.endp brl_qp_forms
