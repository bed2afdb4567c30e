// branch_cond.S: br.cond (B1 direct, B4 indirect) with every hint combination (.sptk .spnt .dptk .dpnt x none/.few/.many x none/.clr), forward and backward targets, pseudo-op br
	.text
	.global branch_cond_entry
branch_cond_entry:
.Lback:
	add r8=r2,r3
	;;
(p6)	br.cond.sptk .Lfwd
(p7)	br.cond.sptk.clr .Lback
	br.cond.sptk.few .Lfwd
	;;
(p6)	br.cond.sptk.few.clr .Lback
(p7)	br.cond.sptk.many .Lfwd
	br.cond.sptk.many.clr .Lback
	;;
(p6)	br.cond.spnt .Lfwd
(p7)	br.cond.spnt.clr .Lback
	br.cond.spnt.few .Lfwd
	;;
(p6)	br.cond.spnt.few.clr .Lback
(p7)	br.cond.spnt.many .Lfwd
	br.cond.spnt.many.clr .Lback
	;;
(p6)	br.cond.dptk .Lfwd
(p7)	br.cond.dptk.clr .Lback
	br.cond.dptk.few .Lfwd
	;;
(p6)	br.cond.dptk.few.clr .Lback
(p7)	br.cond.dptk.many .Lfwd
	br.cond.dptk.many.clr .Lback
	;;
(p6)	br.cond.dpnt .Lfwd
(p7)	br.cond.dpnt.clr .Lback
	br.cond.dpnt.few .Lfwd
	;;
(p6)	br.cond.dpnt.few.clr .Lback
(p7)	br.cond.dpnt.many .Lfwd
	br.cond.dpnt.many.clr .Lback
	;;
(p6)	br.cond.sptk b1
(p7)	br.cond.sptk.clr b2
	br.cond.sptk.few b3
	;;
(p6)	br.cond.sptk.few.clr b4
(p7)	br.cond.sptk.many b5
	br.cond.sptk.many.clr b6
	;;
(p6)	br.cond.spnt b7
(p7)	br.cond.spnt.clr b1
	br.cond.spnt.few b2
	;;
(p6)	br.cond.spnt.few.clr b3
(p7)	br.cond.spnt.many b4
	br.cond.spnt.many.clr b5
	;;
(p6)	br.cond.dptk b6
(p7)	br.cond.dptk.clr b7
	br.cond.dptk.few b1
	;;
(p6)	br.cond.dptk.few.clr b2
(p7)	br.cond.dptk.many b3
	br.cond.dptk.many.clr b4
	;;
(p6)	br.cond.dpnt b5
(p7)	br.cond.dpnt.clr b6
	br.cond.dpnt.few b7
	;;
(p6)	br.cond.dpnt.few.clr b1
(p7)	br.cond.dpnt.many b2
	br.cond.dpnt.many.clr b3
	;;
	br .Lfwd
	;;
	br b6
	;;
	br.few .Lback
	;;
	br.sptk.many .Lfwd
	;;
	br.many b7
	;;
	br.dpnt b2
	;;
(p6)	br.cond.sptk.few .Lfwd
	add r10=r2,r3
	;;
.Lfwd:
	add r9=r2,r3
	;;
