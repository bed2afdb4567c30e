// mem_all.S: ld16/st16 (.acq/.rel, hints) with ar.csd, cmp8xchg16 .acq/.rel with hints, chk.a.nc/.clr (M22 r1, M23 f1), invala.e r1/f1 (M26/M27), the hint spellings gas 2.40 takes (.d1 .d2 .d3 .nt2; objdump prints .d1/.d2 for store hints and .d2 for load hint 2), ldf .a/.c forms and ld.c.clr.acq with hints (issue 12)
	.text
	.global mem_all
	.proc mem_all
mem_all:
	ld16 r82,ar.csd=[r2]
	;;
	ld16.nt1 r82,ar.csd=[r2]
	;;
	ld16.nt2 r82,ar.csd=[r2]
	;;
	ld16.nta r82,ar.csd=[r2]
	;;
	ld16.d1 r82,ar.csd=[r2]
	;;
	ld16.d2 r82,ar.csd=[r2]
	;;
	ld16.d3 r82,ar.csd=[r2]
	;;
	ld16.acq r82,ar.csd=[r2]
	;;
	ld16.acq.nt1 r82,ar.csd=[r2]
	;;
	ld16.acq.nt2 r82,ar.csd=[r2]
	;;
	ld16.acq.nta r82,ar.csd=[r2]
	;;
	ld16.acq.d1 r82,ar.csd=[r2]
	;;
	ld16.acq.d2 r82,ar.csd=[r2]
	;;
	ld16.acq.d3 r82,ar.csd=[r2]
	;;
	st16 [r3]=r84,ar.csd
	;;
	st16.nt1 [r3]=r84,ar.csd
	;;
	st16.nt2 [r3]=r84,ar.csd
	;;
	st16.nta [r3]=r84,ar.csd
	;;
	st16.d1 [r3]=r84,ar.csd
	;;
	st16.d2 [r3]=r84,ar.csd
	;;
	st16.d3 [r3]=r84,ar.csd
	;;
	st16.rel [r3]=r84,ar.csd
	;;
	st16.rel.nt1 [r3]=r84,ar.csd
	;;
	st16.rel.nt2 [r3]=r84,ar.csd
	;;
	st16.rel.nta [r3]=r84,ar.csd
	;;
	st16.rel.d1 [r3]=r84,ar.csd
	;;
	st16.rel.d2 [r3]=r84,ar.csd
	;;
	st16.rel.d3 [r3]=r84,ar.csd
	;;
	cmp8xchg16.acq r80=[r2],r4,ar.csd,ar.ccv
	;;
	cmp8xchg16.acq.nt1 r80=[r2],r4,ar.csd,ar.ccv
	;;
	cmp8xchg16.acq.nta r80=[r2],r4,ar.csd,ar.ccv
	;;
	cmp8xchg16.rel r80=[r2],r4,ar.csd,ar.ccv
	;;
	cmp8xchg16.rel.nt1 r80=[r2],r4,ar.csd,ar.ccv
	;;
	cmp8xchg16.rel.nta r80=[r2],r4,ar.csd,ar.ccv
	;;
.Lback:
	chk.a.nc r7,.Lfwd
	;;
	chk.a.clr r8,.Lback
	;;
	chk.a.nc f7,.Lfwd
	;;
	chk.a.clr f127,.Lback
	;;
	(p6) chk.a.clr r127,.Lfwd
	;;
	invala.e r8
	;;
	invala.e r127
	;;
	invala.e f9
	;;
	(p7) invala.e f127
	;;
	ld8.nt2 r4=[r5]
	;;
	st8.nt2 [r4]=r5
	;;
	ld8.fill.nt2 r4=[r5]
	;;
	st8.spill.nt2 [r4]=r5
	;;
	ldfd.nt2 f4=[r5]
	;;
	stfs.nt2 [r4]=f5
	;;
	ldf.fill.nt2 f4=[r5]
	;;
	stf.spill.nt2 [r4]=f5
	;;
	lfetch.nt2 [r4]
	;;
	ld8.d1 r4=[r5]
	;;
	st8.d1 [r4]=r5
	;;
	ld8.fill.d1 r4=[r5]
	;;
	st8.spill.d1 [r4]=r5
	;;
	ldfd.d1 f4=[r5]
	;;
	stfs.d1 [r4]=f5
	;;
	ldf.fill.d1 f4=[r5]
	;;
	stf.spill.d1 [r4]=f5
	;;
	lfetch.d1 [r4]
	;;
	ld8.d2 r4=[r5]
	;;
	st8.d2 [r4]=r5
	;;
	ld8.fill.d2 r4=[r5]
	;;
	st8.spill.d2 [r4]=r5
	;;
	ldfd.d2 f4=[r5]
	;;
	stfs.d2 [r4]=f5
	;;
	ldf.fill.d2 f4=[r5]
	;;
	stf.spill.d2 [r4]=f5
	;;
	lfetch.d2 [r4]
	;;
	ld8.d3 r4=[r5]
	;;
	st8.d3 [r4]=r5
	;;
	ld8.fill.d3 r4=[r5]
	;;
	st8.spill.d3 [r4]=r5
	;;
	ldfd.d3 f4=[r5]
	;;
	stfs.d3 [r4]=f5
	;;
	ldf.fill.d3 f4=[r5]
	;;
	stf.spill.d3 [r4]=f5
	;;
	lfetch.d3 [r4]
	;;
	ldfs.a f10 = [r5]
	;;
	ldfs.a.nta f11=[r5],r6
	;;
	ldfs.a.nt1 f12=[r5],-256
	;;
	ldfd.a f10 = [r5]
	;;
	ldfd.a.nta f11=[r5],r6
	;;
	ldfd.a.nt1 f12=[r5],-256
	;;
	ldf8.a f10 = [r5]
	;;
	ldf8.a.nta f11=[r5],r6
	;;
	ldf8.a.nt1 f12=[r5],-256
	;;
	ldfe.a f10 = [r5]
	;;
	ldfe.a.nta f11=[r5],r6
	;;
	ldfe.a.nt1 f12=[r5],-256
	;;
	ldfs.sa f10 = [r5]
	;;
	ldfs.sa.nta f11=[r5],r6
	;;
	ldfs.sa.nt1 f12=[r5],-256
	;;
	ldfd.sa f10 = [r5]
	;;
	ldfd.sa.nta f11=[r5],r6
	;;
	ldfd.sa.nt1 f12=[r5],-256
	;;
	ldf8.sa f10 = [r5]
	;;
	ldf8.sa.nta f11=[r5],r6
	;;
	ldf8.sa.nt1 f12=[r5],-256
	;;
	ldfe.sa f10 = [r5]
	;;
	ldfe.sa.nta f11=[r5],r6
	;;
	ldfe.sa.nt1 f12=[r5],-256
	;;
	ldfs.c.clr f10 = [r5]
	;;
	ldfs.c.clr.nta f11=[r5],r6
	;;
	ldfs.c.clr.nt1 f12=[r5],-256
	;;
	ldfd.c.clr f10 = [r5]
	;;
	ldfd.c.clr.nta f11=[r5],r6
	;;
	ldfd.c.clr.nt1 f12=[r5],-256
	;;
	ldf8.c.clr f10 = [r5]
	;;
	ldf8.c.clr.nta f11=[r5],r6
	;;
	ldf8.c.clr.nt1 f12=[r5],-256
	;;
	ldfe.c.clr f10 = [r5]
	;;
	ldfe.c.clr.nta f11=[r5],r6
	;;
	ldfe.c.clr.nt1 f12=[r5],-256
	;;
	ldfs.c.nc f10 = [r5]
	;;
	ldfs.c.nc.nta f11=[r5],r6
	;;
	ldfs.c.nc.nt1 f12=[r5],-256
	;;
	ldfd.c.nc f10 = [r5]
	;;
	ldfd.c.nc.nta f11=[r5],r6
	;;
	ldfd.c.nc.nt1 f12=[r5],-256
	;;
	ldf8.c.nc f10 = [r5]
	;;
	ldf8.c.nc.nta f11=[r5],r6
	;;
	ldf8.c.nc.nt1 f12=[r5],-256
	;;
	ldfe.c.nc f10 = [r5]
	;;
	ldfe.c.nc.nta f11=[r5],r6
	;;
	ldfe.c.nc.nt1 f12=[r5],-256
	;;
	ldfs.s f10 = [r5]
	;;
	ldfs.s.nta f11=[r5],r6
	;;
	ldfs.s.nt1 f12=[r5],-256
	;;
	ldfd.s f10 = [r5]
	;;
	ldfd.s.nta f11=[r5],r6
	;;
	ldfd.s.nt1 f12=[r5],-256
	;;
	ldf8.s f10 = [r5]
	;;
	ldf8.s.nta f11=[r5],r6
	;;
	ldf8.s.nt1 f12=[r5],-256
	;;
	ldfe.s f10 = [r5]
	;;
	ldfe.s.nta f11=[r5],r6
	;;
	ldfe.s.nt1 f12=[r5],-256
	;;
	ld1.c.clr.acq.nta r4=[r5],255
	;;
	st1.rel [r4]=r5
	;;
	ld2.c.clr.acq.nta r4=[r5],255
	;;
	st2.rel [r4]=r5
	;;
	ld4.c.clr.acq.nta r4=[r5],255
	;;
	st4.rel [r4]=r5
	;;
	ld8.c.clr.acq.nta r4=[r5],255
	;;
	st8.rel [r4]=r5
	;;
	lfetch.d1 [r4],8
	;;
	lfetch.d2 [r4],r5
	;;
	lfetch.fault.excl.d3 [r4],8
	;;
	ld8.fill.nt1 r4=[r5],8
	;;
	st8.spill.nta [r4]=r5,8
	;;
.Lfwd:
	nop.m 0
	;;
	.endp mem_all
