// cmp_reg.S: cmp (A6) register forms for every relation and every completer gas accepts, plus cmp r0,r3 parallel forms (A7)
	.text
	cmp.eq p6,p7=r2,r3
	cmp.eq p8,p9=r0,r4
	cmp.eq.unc p10,p11=r4,r5
	;;
(p4)	cmp.eq.unc p12,p13=r0,r6
	cmp.eq.and p14,p15=r3,r7
	cmp.eq.and p16,p17=r0,r4
	;;
	cmp.eq.or p18,p19=r2,r4
(p3)	cmp.eq.or p20,p21=r0,r6
	cmp.eq.andcm p22,p23=r4,r6
	;;
	cmp.eq.andcm p24,p25=r0,r4
	cmp.eq.orcm p26,p27=r3,r3
(p2)	cmp.eq.orcm p28,p29=r0,r6
	;;
	cmp.eq.or.andcm p30,p31=r2,r5
	cmp.eq.or.andcm p32,p33=r0,r4
	cmp.eq.and.orcm p34,p35=r4,r7
	;;
(p1)	cmp.eq.and.orcm p36,p37=r0,r6
	cmp.ne p38,p39=r3,r4
	cmp.ne p40,p41=r0,r4
	;;
	cmp.ne.unc p42,p43=r2,r6
(p5)	cmp.ne.unc p44,p45=r0,r6
	cmp.ne.and p46,p47=r4,r3
	;;
	cmp.ne.and p48,p49=r0,r4
	cmp.ne.or p50,p51=r3,r5
(p4)	cmp.ne.or p52,p53=r0,r6
	;;
	cmp.ne.andcm p54,p55=r2,r7
	cmp.ne.andcm p56,p57=r0,r4
	cmp.ne.orcm p58,p59=r4,r4
	;;
(p3)	cmp.ne.orcm p60,p61=r0,r6
	cmp.ne.or.andcm p6,p7=r3,r6
	cmp.ne.or.andcm p8,p9=r0,r4
	;;
	cmp.ne.and.orcm p10,p11=r2,r3
(p2)	cmp.ne.and.orcm p12,p13=r0,r6
	cmp.lt p14,p15=r4,r5
	;;
	cmp.lt p16,p17=r0,r4
	cmp.lt.unc p18,p19=r3,r7
(p1)	cmp.lt.unc p20,p21=r0,r6
	;;
	cmp.lt.and p22,p23=r0,r3
	cmp.lt.or p24,p25=r0,r4
	cmp.lt.andcm p26,p27=r0,r5
	;;
(p5)	cmp.lt.orcm p28,p29=r0,r6
	cmp.lt.or.andcm p30,p31=r0,r3
	cmp.lt.and.orcm p32,p33=r0,r4
	;;
	cmp.le p34,p35=r2,r5
(p4)	cmp.le p36,p37=r0,r6
	cmp.le.unc p38,p39=r4,r7
	;;
	cmp.le.unc p40,p41=r0,r4
	cmp.le.and p42,p43=r0,r5
(p3)	cmp.le.or p44,p45=r0,r6
	;;
	cmp.le.andcm p46,p47=r0,r3
	cmp.le.orcm p48,p49=r0,r4
	cmp.le.or.andcm p50,p51=r0,r5
	;;
(p2)	cmp.le.and.orcm p52,p53=r0,r6
	cmp.gt p54,p55=r3,r5
	cmp.gt p56,p57=r0,r4
	;;
	cmp.gt.unc p58,p59=r2,r7
(p1)	cmp.gt.unc p60,p61=r0,r6
	cmp.gt.and p6,p7=r0,r3
	;;
	cmp.gt.or p8,p9=r0,r4
	cmp.gt.andcm p10,p11=r0,r5
(p5)	cmp.gt.orcm p12,p13=r0,r6
	;;
	cmp.gt.or.andcm p14,p15=r0,r3
	cmp.gt.and.orcm p16,p17=r0,r4
	cmp.ge p18,p19=r4,r5
	;;
(p4)	cmp.ge p20,p21=r0,r6
	cmp.ge.unc p22,p23=r3,r7
	cmp.ge.unc p24,p25=r0,r4
	;;
	cmp.ge.and p26,p27=r0,r5
(p3)	cmp.ge.or p28,p29=r0,r6
	cmp.ge.andcm p30,p31=r0,r3
	;;
	cmp.ge.orcm p32,p33=r0,r4
	cmp.ge.or.andcm p34,p35=r0,r5
(p2)	cmp.ge.and.orcm p36,p37=r0,r6
	;;
	cmp.ltu p38,p39=r2,r5
	cmp.ltu p40,p41=r0,r4
	cmp.ltu.unc p42,p43=r4,r7
	;;
(p1)	cmp.ltu.unc p44,p45=r0,r6
	cmp.leu p46,p47=r3,r4
	cmp.leu p48,p49=r0,r4
	;;
	cmp.leu.unc p50,p51=r2,r6
(p5)	cmp.leu.unc p52,p53=r0,r6
	cmp.gtu p54,p55=r4,r3
	;;
	cmp.gtu p56,p57=r0,r4
	cmp.gtu.unc p58,p59=r3,r5
(p4)	cmp.gtu.unc p60,p61=r0,r6
	;;
	cmp.geu p6,p7=r2,r7
	cmp.geu p8,p9=r0,r4
	cmp.geu.unc p10,p11=r4,r4
	;;
(p3)	cmp.geu.unc p12,p13=r0,r6
	;;
