// ldfp.S: ldfps/ldfpd/ldfp8 (M11 [r3], M12 [r3],8/16) with every type (none .s .a .sa .c.clr .c.nc) and hint (none .nt1 .nta; gas has no .nt2 for ldfp), predicated and not, static/rotating odd-even pairs, and the pairs gas warns about (same register, same bank, static with rotating), the dependencies of both targets and the base update
	.text
	.global ldfp_forms
	.proc ldfp_forms
ldfp_forms:
(p1)	ldfps f6,f7=[r2]
	;;
(p1)	ldfps f7,f6=[r2],8
	;;
	ldfps.nt1 f33,f32=[r9]
	;;
	ldfps.nt1 f32,f33=[r9],8
	;;
(p4)	ldfps.nta f9,f8=[r23]
	;;
(p4)	ldfps.nta f8,f9=[r23],8
	;;
	ldfps.s f6,f7=[r30]
	;;
	ldfps.s f7,f6=[r30],8
	;;
	ldfps.s.nt1 f33,f32=[r37]
	;;
	ldfps.s.nt1 f32,f33=[r37],8
	;;
	ldfps.s.nta f9,f8=[r51]
	;;
	ldfps.s.nta f8,f9=[r51],8
	;;
	ldfps.a f6,f7=[r58]
	;;
	ldfps.a f7,f6=[r58],8
	;;
(p10)	ldfps.a.nt1 f33,f32=[r65]
	;;
(p10)	ldfps.a.nt1 f32,f33=[r65],8
	;;
	ldfps.a.nta f9,f8=[r79]
	;;
	ldfps.a.nta f8,f9=[r79],8
	;;
(p13)	ldfps.sa f6,f7=[r86]
	;;
(p13)	ldfps.sa f7,f6=[r86],8
	;;
	ldfps.sa.nt1 f33,f32=[r93]
	;;
	ldfps.sa.nt1 f32,f33=[r93],8
	;;
(p16)	ldfps.sa.nta f9,f8=[r107]
	;;
(p16)	ldfps.sa.nta f8,f9=[r107],8
	;;
	ldfps.c.clr f6,f7=[r114]
	;;
	ldfps.c.clr f7,f6=[r114],8
	;;
	ldfps.c.clr.nt1 f33,f32=[r121]
	;;
	ldfps.c.clr.nt1 f32,f33=[r121],8
	;;
	ldfps.c.clr.nta f9,f8=[r9]
	;;
	ldfps.c.clr.nta f8,f9=[r9],8
	;;
	ldfps.c.nc f6,f7=[r16]
	;;
	ldfps.c.nc f7,f6=[r16],8
	;;
(p22)	ldfps.c.nc.nt1 f33,f32=[r23]
	;;
(p22)	ldfps.c.nc.nt1 f32,f33=[r23],8
	;;
	ldfps.c.nc.nta f9,f8=[r37]
	;;
	ldfps.c.nc.nta f8,f9=[r37],8
	;;
(p25)	ldfpd f6,f7=[r44]
	;;
(p25)	ldfpd f7,f6=[r44],16
	;;
	ldfpd.nt1 f33,f32=[r51]
	;;
	ldfpd.nt1 f32,f33=[r51],16
	;;
(p28)	ldfpd.nta f9,f8=[r65]
	;;
(p28)	ldfpd.nta f8,f9=[r65],16
	;;
	ldfpd.s f6,f7=[r72]
	;;
	ldfpd.s f7,f6=[r72],16
	;;
	ldfpd.s.nt1 f33,f32=[r79]
	;;
	ldfpd.s.nt1 f32,f33=[r79],16
	;;
	ldfpd.s.nta f9,f8=[r93]
	;;
	ldfpd.s.nta f8,f9=[r93],16
	;;
	ldfpd.a f6,f7=[r100]
	;;
	ldfpd.a f7,f6=[r100],16
	;;
(p34)	ldfpd.a.nt1 f33,f32=[r107]
	;;
(p34)	ldfpd.a.nt1 f32,f33=[r107],16
	;;
	ldfpd.a.nta f9,f8=[r121]
	;;
	ldfpd.a.nta f8,f9=[r121],16
	;;
(p37)	ldfpd.sa f6,f7=[r2]
	;;
(p37)	ldfpd.sa f7,f6=[r2],16
	;;
	ldfpd.sa.nt1 f33,f32=[r9]
	;;
	ldfpd.sa.nt1 f32,f33=[r9],16
	;;
(p40)	ldfpd.sa.nta f9,f8=[r23]
	;;
(p40)	ldfpd.sa.nta f8,f9=[r23],16
	;;
	ldfpd.c.clr f6,f7=[r30]
	;;
	ldfpd.c.clr f7,f6=[r30],16
	;;
	ldfpd.c.clr.nt1 f33,f32=[r37]
	;;
	ldfpd.c.clr.nt1 f32,f33=[r37],16
	;;
	ldfpd.c.clr.nta f9,f8=[r51]
	;;
	ldfpd.c.clr.nta f8,f9=[r51],16
	;;
	ldfpd.c.nc f6,f7=[r58]
	;;
	ldfpd.c.nc f7,f6=[r58],16
	;;
(p46)	ldfpd.c.nc.nt1 f33,f32=[r65]
	;;
(p46)	ldfpd.c.nc.nt1 f32,f33=[r65],16
	;;
	ldfpd.c.nc.nta f9,f8=[r79]
	;;
	ldfpd.c.nc.nta f8,f9=[r79],16
	;;
(p49)	ldfp8 f6,f7=[r86]
	;;
(p49)	ldfp8 f7,f6=[r86],16
	;;
	ldfp8.nt1 f33,f32=[r93]
	;;
	ldfp8.nt1 f32,f33=[r93],16
	;;
(p52)	ldfp8.nta f9,f8=[r107]
	;;
(p52)	ldfp8.nta f8,f9=[r107],16
	;;
	ldfp8.s f6,f7=[r114]
	;;
	ldfp8.s f7,f6=[r114],16
	;;
	ldfp8.s.nt1 f33,f32=[r121]
	;;
	ldfp8.s.nt1 f32,f33=[r121],16
	;;
	ldfp8.s.nta f9,f8=[r9]
	;;
	ldfp8.s.nta f8,f9=[r9],16
	;;
	ldfp8.a f6,f7=[r16]
	;;
	ldfp8.a f7,f6=[r16],16
	;;
(p58)	ldfp8.a.nt1 f33,f32=[r23]
	;;
(p58)	ldfp8.a.nt1 f32,f33=[r23],16
	;;
	ldfp8.a.nta f9,f8=[r37]
	;;
	ldfp8.a.nta f8,f9=[r37],16
	;;
(p61)	ldfp8.sa f6,f7=[r44]
	;;
(p61)	ldfp8.sa f7,f6=[r44],16
	;;
	ldfp8.sa.nt1 f33,f32=[r51]
	;;
	ldfp8.sa.nt1 f32,f33=[r51],16
	;;
(p1)	ldfp8.sa.nta f9,f8=[r65]
	;;
(p1)	ldfp8.sa.nta f8,f9=[r65],16
	;;
	ldfp8.c.clr f6,f7=[r72]
	;;
	ldfp8.c.clr f7,f6=[r72],16
	;;
	ldfp8.c.clr.nt1 f33,f32=[r79]
	;;
	ldfp8.c.clr.nt1 f32,f33=[r79],16
	;;
	ldfp8.c.clr.nta f9,f8=[r93]
	;;
	ldfp8.c.clr.nta f8,f9=[r93],16
	;;
	ldfp8.c.nc f6,f7=[r100]
	;;
	ldfp8.c.nc f7,f6=[r100],16
	;;
(p7)	ldfp8.c.nc.nt1 f33,f32=[r107]
	;;
(p7)	ldfp8.c.nc.nt1 f32,f33=[r107],16
	;;
	ldfp8.c.nc.nta f9,f8=[r121]
	;;
	ldfp8.c.nc.nta f8,f9=[r121],16
	;;
	ldfps f6,f8=[r3]
	;;
	ldfpd f40,f42=[r3],16
	;;
	ldfp8 f31,f33=[r3]
	;;
	ldfps f2,f32=[r3],8
	;;
	ldfpd f10,f10=[r3]
	;;
	ldfp8 f1,f3=[r3],16
	;;
	ldfps f0,f2=[r3]
	;;
	// Dependencies: the base update writes r3; gas records f1 of a pair as written but not f2.
	ldfps f6,f7=[r3],8
	fmerge.s f6=f8,f8
	add r3=r3,r0
	;;
	ldfpd f6,f7=[r3]
	fmerge.s f7=f8,f8
	;;
	ldfp8 f6,f7=[r3]
	getf.sig r8=f7
	;;
	ldfp8.s.nta f10,f11=[r9],16
	getf.sig r8=f10
	ld8 r10=[r9]
	;;
	br.ret.sptk.many b0
	;;
	.endp ldfp_forms
