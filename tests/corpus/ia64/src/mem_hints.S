// mem_hints.S: the memory hints .d4-.d7 (issue 12) on every form GNU as 2.40 takes them on: loads
// without base update (every type, ld8.fill, ld16, ldf, ldf.fill: hint bit 2 = slot bit 19),
// stores without base update (st, st8.spill, st16, stf, stf.spill: slot bit 12) and lfetch in
// all three forms (slot bit 12); predicated and not. The .d1-.d3 spellings are in mem_all.S.
	.text
	.global mem_hints
	.proc mem_hints
mem_hints:
	ld8.d4 r8=[r2]
	(p6) ld4.d4 r40=[r66]
	;;
	ld8.d5 r9=[r3]
	(p6) ld4.d5 r41=[r67]
	;;
	ld8.d6 r10=[r4]
	(p6) ld4.d6 r42=[r68]
	;;
	ld8.d7 r11=[r5]
	(p6) ld4.d7 r43=[r69]
	;;
	ld1.s.d4 r9=[r3]
	ld2.s.d5 r10=[r3]
	ld4.s.d6 r11=[r3]
	ld8.s.d7 r12=[r3]
	;;
	ld1.a.d4 r9=[r3]
	ld2.a.d5 r10=[r3]
	ld4.a.d6 r11=[r3]
	ld8.a.d7 r12=[r3]
	;;
	ld1.sa.d4 r9=[r3]
	ld2.sa.d5 r10=[r3]
	ld4.sa.d6 r11=[r3]
	ld8.sa.d7 r12=[r3]
	;;
	ld1.bias.d4 r9=[r3]
	ld2.bias.d5 r10=[r3]
	ld4.bias.d6 r11=[r3]
	ld8.bias.d7 r12=[r3]
	;;
	ld1.acq.d4 r9=[r3]
	ld2.acq.d5 r10=[r3]
	ld4.acq.d6 r11=[r3]
	ld8.acq.d7 r12=[r3]
	;;
	ld1.c.clr.d4 r9=[r3]
	ld2.c.clr.d5 r10=[r3]
	ld4.c.clr.d6 r11=[r3]
	ld8.c.clr.d7 r12=[r3]
	;;
	ld1.c.nc.d4 r9=[r3]
	ld2.c.nc.d5 r10=[r3]
	ld4.c.nc.d6 r11=[r3]
	ld8.c.nc.d7 r12=[r3]
	;;
	ld1.c.clr.acq.d4 r9=[r3]
	ld2.c.clr.acq.d5 r10=[r3]
	ld4.c.clr.acq.d6 r11=[r3]
	ld8.c.clr.acq.d7 r12=[r3]
	;;
	ld8.fill.d4 r10=[r4]
	;;
	ld16.d4 r11,ar.csd=[r5]
	;;
	ld16.acq.d4 r127,ar.csd=[r127]
	;;
	ld8.fill.d5 r10=[r4]
	;;
	ld16.d5 r11,ar.csd=[r5]
	;;
	ld16.acq.d5 r127,ar.csd=[r127]
	;;
	ld8.fill.d6 r10=[r4]
	;;
	ld16.d6 r11,ar.csd=[r5]
	;;
	ld16.acq.d6 r127,ar.csd=[r127]
	;;
	ld8.fill.d7 r10=[r4]
	;;
	ld16.d7 r11,ar.csd=[r5]
	;;
	ld16.acq.d7 r127,ar.csd=[r127]
	;;
	st1.d4 [r3]=r9
	(p7) st1.rel.d4 [r67]=r41
	;;
	st2.d5 [r3]=r9
	(p7) st2.rel.d5 [r67]=r41
	;;
	st4.d6 [r3]=r9
	(p7) st4.rel.d6 [r67]=r41
	;;
	st8.d7 [r3]=r9
	(p7) st8.rel.d7 [r67]=r41
	;;
	st8.spill.d4 [r4]=r10
	;;
	st16.d4 [r5]=r11,ar.csd
	st16.rel.d4 [r127]=r127,ar.csd
	;;
	st8.spill.d5 [r4]=r10
	;;
	st16.d5 [r5]=r11,ar.csd
	st16.rel.d5 [r127]=r127,ar.csd
	;;
	st8.spill.d6 [r4]=r10
	;;
	st16.d6 [r5]=r11,ar.csd
	st16.rel.d6 [r127]=r127,ar.csd
	;;
	st8.spill.d7 [r4]=r10
	;;
	st16.d7 [r5]=r11,ar.csd
	st16.rel.d7 [r127]=r127,ar.csd
	;;
	ldfe.d4 f8=[r3]
	ldf8.d5 f9=[r3]
	ldfs.d6 f10=[r3]
	ldfd.d7 f11=[r3]
	;;
	ldfe.s.d4 f8=[r3]
	ldf8.s.d5 f9=[r3]
	ldfs.s.d6 f10=[r3]
	ldfd.s.d7 f11=[r3]
	;;
	ldfe.a.d4 f8=[r3]
	ldf8.a.d5 f9=[r3]
	ldfs.a.d6 f10=[r3]
	ldfd.a.d7 f11=[r3]
	;;
	ldfe.sa.d4 f8=[r3]
	ldf8.sa.d5 f9=[r3]
	ldfs.sa.d6 f10=[r3]
	ldfd.sa.d7 f11=[r3]
	;;
	ldfe.c.clr.d4 f8=[r3]
	ldf8.c.clr.d5 f9=[r3]
	ldfs.c.clr.d6 f10=[r3]
	ldfd.c.clr.d7 f11=[r3]
	;;
	ldfe.c.nc.d4 f8=[r3]
	ldf8.c.nc.d5 f9=[r3]
	ldfs.c.nc.d6 f10=[r3]
	ldfd.c.nc.d7 f11=[r3]
	;;
	ldf.fill.d4 f10=[r4]
	;;
	stf.spill.d4 [r4]=f11
	;;
	ldf.fill.d5 f10=[r4]
	;;
	stf.spill.d5 [r4]=f11
	;;
	ldf.fill.d6 f10=[r4]
	;;
	stf.spill.d6 [r4]=f11
	;;
	ldf.fill.d7 f10=[r4]
	;;
	stf.spill.d7 [r4]=f11
	;;
	stfe.d4 [r3]=f9
	(p6) stfe.d4 [r127]=f127
	;;
	stf8.d5 [r3]=f9
	(p6) stf8.d5 [r127]=f127
	;;
	stfs.d6 [r3]=f9
	(p6) stfs.d6 [r127]=f127
	;;
	stfd.d7 [r3]=f9
	(p6) stfd.d7 [r127]=f127
	;;
	lfetch.d4 [r2]
	(p6) lfetch.d4 [r66],r40
	lfetch.d4 [r3],-256
	;;
	lfetch.d5 [r2]
	(p6) lfetch.d5 [r66],r40
	lfetch.d5 [r3],-256
	;;
	lfetch.d6 [r2]
	(p6) lfetch.d6 [r66],r40
	lfetch.d6 [r3],-256
	;;
	lfetch.d7 [r2]
	(p6) lfetch.d7 [r66],r40
	lfetch.d7 [r3],-256
	;;
	lfetch.excl.d4 [r2]
	(p6) lfetch.excl.d4 [r66],r40
	lfetch.excl.d4 [r3],-256
	;;
	lfetch.excl.d5 [r2]
	(p6) lfetch.excl.d5 [r66],r40
	lfetch.excl.d5 [r3],-256
	;;
	lfetch.excl.d6 [r2]
	(p6) lfetch.excl.d6 [r66],r40
	lfetch.excl.d6 [r3],-256
	;;
	lfetch.excl.d7 [r2]
	(p6) lfetch.excl.d7 [r66],r40
	lfetch.excl.d7 [r3],-256
	;;
	lfetch.fault.d4 [r2]
	(p6) lfetch.fault.d4 [r66],r40
	lfetch.fault.d4 [r3],-256
	;;
	lfetch.fault.d5 [r2]
	(p6) lfetch.fault.d5 [r66],r40
	lfetch.fault.d5 [r3],-256
	;;
	lfetch.fault.d6 [r2]
	(p6) lfetch.fault.d6 [r66],r40
	lfetch.fault.d6 [r3],-256
	;;
	lfetch.fault.d7 [r2]
	(p6) lfetch.fault.d7 [r66],r40
	lfetch.fault.d7 [r3],-256
	;;
	lfetch.fault.excl.d4 [r2]
	(p6) lfetch.fault.excl.d4 [r66],r40
	lfetch.fault.excl.d4 [r3],-256
	;;
	lfetch.fault.excl.d5 [r2]
	(p6) lfetch.fault.excl.d5 [r66],r40
	lfetch.fault.excl.d5 [r3],-256
	;;
	lfetch.fault.excl.d6 [r2]
	(p6) lfetch.fault.excl.d6 [r66],r40
	lfetch.fault.excl.d6 [r3],-256
	;;
	lfetch.fault.excl.d7 [r2]
	(p6) lfetch.fault.excl.d7 [r66],r40
	lfetch.fault.excl.d7 [r3],-256
	;;
	br.ret.sptk.many b0
	;;
	.endp mem_hints
