// branch_wloop.S: while-loop branches br.wtop br.wexit (B2, slot-2 only) with every hint combination, some predicated, forward and backward
	.text
	.global branch_wloop_entry
branch_wloop_entry:
.Lback:
	add r8=r2,r3
	;;
(p6)	br.wtop.sptk .Lfwd
	;;
	br.wtop.sptk.clr .Lback
	;;
	br.wtop.sptk.few .Lfwd
	;;
(p9)	br.wtop.sptk.few.clr .Lback
	;;
	br.wtop.sptk.many .Lfwd
	;;
	br.wtop.sptk.many.clr .Lback
	;;
(p8)	br.wtop.spnt .Lfwd
	;;
	br.wtop.spnt.clr .Lback
	;;
	br.wtop.spnt.few .Lfwd
	;;
(p7)	br.wtop.spnt.few.clr .Lback
	;;
	br.wtop.spnt.many .Lfwd
	;;
	br.wtop.spnt.many.clr .Lback
	;;
(p6)	br.wtop.dptk .Lfwd
	;;
	br.wtop.dptk.clr .Lback
	;;
	br.wtop.dptk.few .Lfwd
	;;
(p9)	br.wtop.dptk.few.clr .Lback
	;;
	br.wtop.dptk.many .Lfwd
	;;
	br.wtop.dptk.many.clr .Lback
	;;
(p8)	br.wtop.dpnt .Lfwd
	;;
	br.wtop.dpnt.clr .Lback
	;;
	br.wtop.dpnt.few .Lfwd
	;;
(p7)	br.wtop.dpnt.few.clr .Lback
	;;
	br.wtop.dpnt.many .Lfwd
	;;
	br.wtop.dpnt.many.clr .Lback
	;;
(p6)	br.wexit.sptk .Lfwd
	;;
	br.wexit.sptk.clr .Lback
	;;
	br.wexit.sptk.few .Lfwd
	;;
(p9)	br.wexit.sptk.few.clr .Lback
	;;
	br.wexit.sptk.many .Lfwd
	;;
	br.wexit.sptk.many.clr .Lback
	;;
(p8)	br.wexit.spnt .Lfwd
	;;
	br.wexit.spnt.clr .Lback
	;;
	br.wexit.spnt.few .Lfwd
	;;
(p7)	br.wexit.spnt.few.clr .Lback
	;;
	br.wexit.spnt.many .Lfwd
	;;
	br.wexit.spnt.many.clr .Lback
	;;
(p6)	br.wexit.dptk .Lfwd
	;;
	br.wexit.dptk.clr .Lback
	;;
	br.wexit.dptk.few .Lfwd
	;;
(p9)	br.wexit.dptk.few.clr .Lback
	;;
	br.wexit.dptk.many .Lfwd
	;;
	br.wexit.dptk.many.clr .Lback
	;;
(p8)	br.wexit.dpnt .Lfwd
	;;
	br.wexit.dpnt.clr .Lback
	;;
	br.wexit.dpnt.few .Lfwd
	;;
(p7)	br.wexit.dpnt.few.clr .Lback
	;;
	br.wexit.dpnt.many .Lfwd
	;;
	br.wexit.dpnt.many.clr .Lback
	;;
.Lfwd:
	add r9=r2,r3
	;;
