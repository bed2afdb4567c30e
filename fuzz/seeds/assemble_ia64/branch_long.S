// branch_long.S: brl.cond and brl.call (X3/X4) with every hint combination, MLX with and without an instruction in slot 0, a call to an undefined external symbol (relocation)
	.text
	.global brl_ext
	.global branch_long_entry
branch_long_entry:
.Lback:
	add r8=r2,r3
	;;
	brl.cond.sptk .Lfwd
	;;
	brl.cond.sptk.clr .Lback
	;;
	brl.cond.sptk.few .Lfwd
	;;
	brl.cond.sptk.few.clr .Lback
	;;
	brl.cond.sptk.many .Lfwd
	;;
	brl.cond.sptk.many.clr .Lback
	;;
	brl.cond.spnt .Lfwd
	;;
	brl.cond.spnt.clr .Lback
	;;
	brl.cond.spnt.few .Lfwd
	;;
	brl.cond.spnt.few.clr .Lback
	;;
	brl.cond.spnt.many .Lfwd
	;;
	brl.cond.spnt.many.clr .Lback
	;;
	brl.cond.dptk .Lfwd
	;;
	brl.cond.dptk.clr .Lback
	;;
	brl.cond.dptk.few .Lfwd
	;;
	brl.cond.dptk.few.clr .Lback
	;;
	brl.cond.dptk.many .Lfwd
	;;
	brl.cond.dptk.many.clr .Lback
	;;
	brl.cond.dpnt .Lfwd
	;;
	brl.cond.dpnt.clr .Lback
	;;
	brl.cond.dpnt.few .Lfwd
	;;
	brl.cond.dpnt.few.clr .Lback
	;;
	brl.cond.dpnt.many .Lfwd
	;;
	brl.cond.dpnt.many.clr .Lback
	;;
	brl.call.sptk b0=.Lfwd
	;;
	brl.call.sptk.clr b1=brl_ext
	;;
	brl.call.sptk.few b2=.Lfwd
	;;
	brl.call.sptk.few.clr b3=brl_ext
	;;
	brl.call.sptk.many b4=.Lfwd
	;;
	brl.call.sptk.many.clr b5=brl_ext
	;;
	brl.call.spnt b6=.Lfwd
	;;
	brl.call.spnt.clr b7=brl_ext
	;;
	brl.call.spnt.few b0=.Lfwd
	;;
	brl.call.spnt.few.clr b1=brl_ext
	;;
	brl.call.spnt.many b2=.Lfwd
	;;
	brl.call.spnt.many.clr b3=brl_ext
	;;
	brl.call.dptk b4=.Lfwd
	;;
	brl.call.dptk.clr b5=brl_ext
	;;
	brl.call.dptk.few b6=.Lfwd
	;;
	brl.call.dptk.few.clr b7=brl_ext
	;;
	brl.call.dptk.many b0=.Lfwd
	;;
	brl.call.dptk.many.clr b1=brl_ext
	;;
	brl.call.dpnt b2=.Lfwd
	;;
	brl.call.dpnt.clr b3=brl_ext
	;;
	brl.call.dpnt.few b4=.Lfwd
	;;
	brl.call.dpnt.few.clr b5=brl_ext
	;;
	brl.call.dpnt.many b6=.Lfwd
	;;
	brl.call.dpnt.many.clr b7=brl_ext
	;;
	brl .Lback
	;;
	add r11=r2,r3
	brl.sptk.many .Lfwd
	;;
	ld8 r12=[r2]
	brl.call.dptk.few b0=.Lback
	;;
(p6)	brl.cond.spnt.many .Lfwd
	;;
	brl.many brl_ext
	;;
.Lfwd:
	add r9=r2,r3
	;;
