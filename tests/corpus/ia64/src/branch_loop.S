// branch_loop.S: counted-loop branches br.cloop br.ctop br.cexit (B2, slot-2 only, rule R9) with every hint combination, forward and backward
	.text
	.global branch_loop_entry
branch_loop_entry:
.Lback:
	add r8=r2,r3
	;;
	br.cloop.sptk .Lfwd
	;;
	br.cloop.sptk.clr .Lback
	;;
	br.cloop.sptk.few .Lfwd
	;;
	br.cloop.sptk.few.clr .Lback
	;;
	br.cloop.sptk.many .Lfwd
	;;
	br.cloop.sptk.many.clr .Lback
	;;
	br.cloop.spnt .Lfwd
	;;
	br.cloop.spnt.clr .Lback
	;;
	br.cloop.spnt.few .Lfwd
	;;
	br.cloop.spnt.few.clr .Lback
	;;
	br.cloop.spnt.many .Lfwd
	;;
	br.cloop.spnt.many.clr .Lback
	;;
	br.cloop.dptk .Lfwd
	;;
	br.cloop.dptk.clr .Lback
	;;
	br.cloop.dptk.few .Lfwd
	;;
	br.cloop.dptk.few.clr .Lback
	;;
	br.cloop.dptk.many .Lfwd
	;;
	br.cloop.dptk.many.clr .Lback
	;;
	br.cloop.dpnt .Lfwd
	;;
	br.cloop.dpnt.clr .Lback
	;;
	br.cloop.dpnt.few .Lfwd
	;;
	br.cloop.dpnt.few.clr .Lback
	;;
	br.cloop.dpnt.many .Lfwd
	;;
	br.cloop.dpnt.many.clr .Lback
	;;
	br.ctop.sptk .Lfwd
	;;
	br.ctop.sptk.clr .Lback
	;;
	br.ctop.sptk.few .Lfwd
	;;
	br.ctop.sptk.few.clr .Lback
	;;
	br.ctop.sptk.many .Lfwd
	;;
	br.ctop.sptk.many.clr .Lback
	;;
	br.ctop.spnt .Lfwd
	;;
	br.ctop.spnt.clr .Lback
	;;
	br.ctop.spnt.few .Lfwd
	;;
	br.ctop.spnt.few.clr .Lback
	;;
	br.ctop.spnt.many .Lfwd
	;;
	br.ctop.spnt.many.clr .Lback
	;;
	br.ctop.dptk .Lfwd
	;;
	br.ctop.dptk.clr .Lback
	;;
	br.ctop.dptk.few .Lfwd
	;;
	br.ctop.dptk.few.clr .Lback
	;;
	br.ctop.dptk.many .Lfwd
	;;
	br.ctop.dptk.many.clr .Lback
	;;
	br.ctop.dpnt .Lfwd
	;;
	br.ctop.dpnt.clr .Lback
	;;
	br.ctop.dpnt.few .Lfwd
	;;
	br.ctop.dpnt.few.clr .Lback
	;;
	br.ctop.dpnt.many .Lfwd
	;;
	br.ctop.dpnt.many.clr .Lback
	;;
	br.cexit.sptk .Lfwd
	;;
	br.cexit.sptk.clr .Lback
	;;
	br.cexit.sptk.few .Lfwd
	;;
	br.cexit.sptk.few.clr .Lback
	;;
	br.cexit.sptk.many .Lfwd
	;;
	br.cexit.sptk.many.clr .Lback
	;;
	br.cexit.spnt .Lfwd
	;;
	br.cexit.spnt.clr .Lback
	;;
	br.cexit.spnt.few .Lfwd
	;;
	br.cexit.spnt.few.clr .Lback
	;;
	br.cexit.spnt.many .Lfwd
	;;
	br.cexit.spnt.many.clr .Lback
	;;
	br.cexit.dptk .Lfwd
	;;
	br.cexit.dptk.clr .Lback
	;;
	br.cexit.dptk.few .Lfwd
	;;
	br.cexit.dptk.few.clr .Lback
	;;
	br.cexit.dptk.many .Lfwd
	;;
	br.cexit.dptk.many.clr .Lback
	;;
	br.cexit.dpnt .Lfwd
	;;
	br.cexit.dpnt.clr .Lback
	;;
	br.cexit.dpnt.few .Lfwd
	;;
	br.cexit.dpnt.few.clr .Lback
	;;
	br.cexit.dpnt.many .Lfwd
	;;
	br.cexit.dpnt.many.clr .Lback
	;;
.Lfwd:
	add r9=r2,r3
	;;
