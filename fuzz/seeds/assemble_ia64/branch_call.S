// branch_call.S: br.call (B3 direct, B5 indirect) with every hint combination, return link in b0-b7, one call per group (each call writes its link register)
	.text
	.global branch_call_entry
branch_call_entry:
.Lback:
	add r8=r2,r3
	;;
	br.call.sptk b0=.Lfwd
	;;
	br.call.sptk.clr b0=.Lback
	;;
	br.call.sptk.few b0=.Lfwd
	;;
	br.call.sptk.few.clr b0=.Lback
	;;
	br.call.sptk.many b0=.Lfwd
	;;
	br.call.sptk.many.clr b0=.Lback
	;;
	br.call.spnt b0=.Lfwd
	;;
	br.call.spnt.clr b0=.Lback
	;;
	br.call.spnt.few b0=.Lfwd
	;;
	br.call.spnt.few.clr b0=.Lback
	;;
	br.call.spnt.many b0=.Lfwd
	;;
	br.call.spnt.many.clr b0=.Lback
	;;
	br.call.dptk b0=.Lfwd
	;;
	br.call.dptk.clr b0=.Lback
	;;
	br.call.dptk.few b0=.Lfwd
	;;
	br.call.dptk.few.clr b0=.Lback
	;;
	br.call.dptk.many b0=.Lfwd
	;;
	br.call.dptk.many.clr b0=.Lback
	;;
	br.call.dpnt b0=.Lfwd
	;;
	br.call.dpnt.clr b0=.Lback
	;;
	br.call.dpnt.few b0=.Lfwd
	;;
	br.call.dpnt.few.clr b0=.Lback
	;;
	br.call.dpnt.many b0=.Lfwd
	;;
	br.call.dpnt.many.clr b0=.Lback
	;;
	br.call.sptk b0=b4
	;;
	br.call.sptk.clr b1=b5
	;;
	br.call.sptk.few b2=b6
	;;
	br.call.sptk.few.clr b3=b7
	;;
	br.call.sptk.many b4=b1
	;;
	br.call.sptk.many.clr b5=b2
	;;
	br.call.spnt b6=b3
	;;
	br.call.spnt.clr b7=b4
	;;
	br.call.spnt.few b0=b5
	;;
	br.call.spnt.few.clr b1=b6
	;;
	br.call.spnt.many b2=b7
	;;
	br.call.spnt.many.clr b3=b1
	;;
	br.call.dptk b4=b2
	;;
	br.call.dptk.clr b5=b3
	;;
	br.call.dptk.few b6=b4
	;;
	br.call.dptk.few.clr b7=b5
	;;
	br.call.dptk.many b0=b6
	;;
	br.call.dptk.many.clr b1=b7
	;;
	br.call.dpnt b2=b1
	;;
	br.call.dpnt.clr b3=b2
	;;
	br.call.dpnt.few b4=b3
	;;
	br.call.dpnt.few.clr b5=b4
	;;
	br.call.dpnt.many b6=b5
	;;
	br.call.dpnt.many.clr b7=b6
	;;
.Lfwd:
	add r9=r2,r3
	;;
