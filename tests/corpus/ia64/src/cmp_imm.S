// cmp_imm.S: cmp and cmp4 imm8 forms (A8) for every relation and completer gas accepts; range ends per relation (le/gt/leu/gtu are pseudo-ops that adjust the immediate by one)
	.text
	cmp.eq p6,p7=-128,r3
	cmp.eq.unc p8,p9=127,r4
	cmp.eq.and p10,p11=0,r5
	;;
(p4)	cmp.eq.or p12,p13=-1,r6
	cmp.eq.andcm p14,p15=5,r3
	cmp.eq.orcm p16,p17=64,r4
	;;
	cmp.eq.or.andcm p18,p19=-128,r5
(p3)	cmp.eq.and.orcm p20,p21=127,r6
	cmp.ne p22,p23=0,r3
	;;
	cmp.ne.unc p24,p25=-1,r4
	cmp.ne.and p26,p27=5,r5
(p2)	cmp.ne.or p28,p29=64,r6
	;;
	cmp.ne.andcm p30,p31=-128,r3
	cmp.ne.orcm p32,p33=127,r4
	cmp.ne.or.andcm p34,p35=0,r5
	;;
(p1)	cmp.ne.and.orcm p36,p37=-1,r6
	cmp.lt p38,p39=5,r3
	cmp.lt.unc p40,p41=64,r4
	;;
	cmp.le p42,p43=-127,r5
(p5)	cmp.le.unc p44,p45=128,r6
	cmp.gt p46,p47=0,r3
	;;
	cmp.gt.unc p48,p49=-1,r4
	cmp.ge p50,p51=5,r5
(p4)	cmp.ge.unc p52,p53=64,r6
	;;
	cmp.ltu p54,p55=-128,r3
	cmp.ltu.unc p56,p57=127,r4
	cmp.leu p58,p59=1,r5
	;;
(p3)	cmp.leu.unc p60,p61=-1,r6
	cmp.gtu p6,p7=5,r3
	cmp.gtu.unc p8,p9=64,r4
	;;
	cmp.geu p10,p11=-128,r5
(p2)	cmp.geu.unc p12,p13=127,r6
	cmp4.eq p14,p15=0,r3
	;;
	cmp4.eq.unc p16,p17=-1,r4
	cmp4.eq.and p18,p19=5,r5
(p1)	cmp4.eq.or p20,p21=64,r6
	;;
	cmp4.eq.andcm p22,p23=-128,r3
	cmp4.eq.orcm p24,p25=127,r4
	cmp4.eq.or.andcm p26,p27=0,r5
	;;
(p5)	cmp4.eq.and.orcm p28,p29=-1,r6
	cmp4.ne p30,p31=5,r3
	cmp4.ne.unc p32,p33=64,r4
	;;
	cmp4.ne.and p34,p35=-128,r5
(p4)	cmp4.ne.or p36,p37=127,r6
	cmp4.ne.andcm p38,p39=0,r3
	;;
	cmp4.ne.orcm p40,p41=-1,r4
	cmp4.ne.or.andcm p42,p43=5,r5
(p3)	cmp4.ne.and.orcm p44,p45=64,r6
	;;
	cmp4.lt p46,p47=-128,r3
	cmp4.lt.unc p48,p49=127,r4
	cmp4.le p50,p51=0,r5
	;;
(p2)	cmp4.le.unc p52,p53=-1,r6
	cmp4.gt p54,p55=5,r3
	cmp4.gt.unc p56,p57=64,r4
	;;
	cmp4.ge p58,p59=-128,r5
(p1)	cmp4.ge.unc p60,p61=127,r6
	cmp4.ltu p6,p7=0,r3
	;;
	cmp4.ltu.unc p8,p9=-1,r4
	cmp4.leu p10,p11=5,r5
(p5)	cmp4.leu.unc p12,p13=64,r6
	;;
	cmp4.gtu p14,p15=-127,r3
	cmp4.gtu.unc p16,p17=128,r4
	cmp4.geu p18,p19=0,r5
	;;
(p4)	cmp4.geu.unc p20,p21=-1,r6
	;;
