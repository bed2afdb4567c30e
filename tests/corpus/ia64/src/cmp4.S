// cmp4.S: cmp4 register forms (A6) and cmp4 r0,r3 forms (A7) for every relation and completer gas accepts
	.text
	cmp4.eq p6,p7=r2,r3
	cmp4.eq p8,p9=r0,r4
	cmp4.eq.unc p10,p11=r4,r5
	;;
(p4)	cmp4.eq.unc p12,p13=r0,r6
	cmp4.eq.and p14,p15=r3,r7
	cmp4.eq.and p16,p17=r0,r4
	;;
	cmp4.eq.or p18,p19=r2,r4
(p3)	cmp4.eq.or p20,p21=r0,r6
	cmp4.eq.andcm p22,p23=r4,r6
	;;
	cmp4.eq.andcm p24,p25=r0,r4
	cmp4.eq.orcm p26,p27=r3,r3
(p2)	cmp4.eq.orcm p28,p29=r0,r6
	;;
	cmp4.eq.or.andcm p30,p31=r2,r5
	cmp4.eq.or.andcm p32,p33=r0,r4
	cmp4.eq.and.orcm p34,p35=r4,r7
	;;
(p1)	cmp4.eq.and.orcm p36,p37=r0,r6
	cmp4.ne p38,p39=r3,r4
	cmp4.ne p40,p41=r0,r4
	;;
	cmp4.ne.unc p42,p43=r2,r6
(p5)	cmp4.ne.unc p44,p45=r0,r6
	cmp4.ne.and p46,p47=r4,r3
	;;
	cmp4.ne.and p48,p49=r0,r4
	cmp4.ne.or p50,p51=r3,r5
(p4)	cmp4.ne.or p52,p53=r0,r6
	;;
	cmp4.ne.andcm p54,p55=r2,r7
	cmp4.ne.andcm p56,p57=r0,r4
	cmp4.ne.orcm p58,p59=r4,r4
	;;
(p3)	cmp4.ne.orcm p60,p61=r0,r6
	cmp4.ne.or.andcm p6,p7=r3,r6
	cmp4.ne.or.andcm p8,p9=r0,r4
	;;
	cmp4.ne.and.orcm p10,p11=r2,r3
(p2)	cmp4.ne.and.orcm p12,p13=r0,r6
	cmp4.lt p14,p15=r4,r5
	;;
	cmp4.lt p16,p17=r0,r4
	cmp4.lt.unc p18,p19=r3,r7
(p1)	cmp4.lt.unc p20,p21=r0,r6
	;;
	cmp4.lt.and p22,p23=r0,r3
	cmp4.lt.or p24,p25=r0,r4
	cmp4.lt.andcm p26,p27=r0,r5
	;;
(p5)	cmp4.lt.orcm p28,p29=r0,r6
	cmp4.lt.or.andcm p30,p31=r0,r3
	cmp4.lt.and.orcm p32,p33=r0,r4
	;;
	cmp4.le p34,p35=r2,r5
(p4)	cmp4.le p36,p37=r0,r6
	cmp4.le.unc p38,p39=r4,r7
	;;
	cmp4.le.unc p40,p41=r0,r4
	cmp4.le.and p42,p43=r0,r5
(p3)	cmp4.le.or p44,p45=r0,r6
	;;
	cmp4.le.andcm p46,p47=r0,r3
	cmp4.le.orcm p48,p49=r0,r4
	cmp4.le.or.andcm p50,p51=r0,r5
	;;
(p2)	cmp4.le.and.orcm p52,p53=r0,r6
	cmp4.gt p54,p55=r3,r5
	cmp4.gt p56,p57=r0,r4
	;;
	cmp4.gt.unc p58,p59=r2,r7
(p1)	cmp4.gt.unc p60,p61=r0,r6
	cmp4.gt.and p6,p7=r0,r3
	;;
	cmp4.gt.or p8,p9=r0,r4
	cmp4.gt.andcm p10,p11=r0,r5
(p5)	cmp4.gt.orcm p12,p13=r0,r6
	;;
	cmp4.gt.or.andcm p14,p15=r0,r3
	cmp4.gt.and.orcm p16,p17=r0,r4
	cmp4.ge p18,p19=r4,r5
	;;
(p4)	cmp4.ge p20,p21=r0,r6
	cmp4.ge.unc p22,p23=r3,r7
	cmp4.ge.unc p24,p25=r0,r4
	;;
	cmp4.ge.and p26,p27=r0,r5
(p3)	cmp4.ge.or p28,p29=r0,r6
	cmp4.ge.andcm p30,p31=r0,r3
	;;
	cmp4.ge.orcm p32,p33=r0,r4
	cmp4.ge.or.andcm p34,p35=r0,r5
(p2)	cmp4.ge.and.orcm p36,p37=r0,r6
	;;
	cmp4.ltu p38,p39=r2,r5
	cmp4.ltu p40,p41=r0,r4
	cmp4.ltu.unc p42,p43=r4,r7
	;;
(p1)	cmp4.ltu.unc p44,p45=r0,r6
	cmp4.leu p46,p47=r3,r4
	cmp4.leu p48,p49=r0,r4
	;;
	cmp4.leu.unc p50,p51=r2,r6
(p5)	cmp4.leu.unc p52,p53=r0,r6
	cmp4.gtu p54,p55=r4,r3
	;;
	cmp4.gtu p56,p57=r0,r4
	cmp4.gtu.unc p58,p59=r3,r5
(p4)	cmp4.gtu.unc p60,p61=r0,r6
	;;
	cmp4.geu p6,p7=r2,r7
	cmp4.geu p8,p9=r0,r4
	cmp4.geu.unc p10,p11=r4,r4
	;;
(p3)	cmp4.geu.unc p12,p13=r0,r6
	;;
