// cmp_r0.S: cmp and cmp4 with r0 as the second source (A7 after operand swap) for every relation and completer gas accepts
	.text
	cmp.eq p6,p7=r3,r0
	cmp.eq.unc p8,p9=r4,r0
	cmp.eq.and p10,p11=r5,r0
	;;
(p4)	cmp.eq.or p12,p13=r6,r0
	cmp.eq.andcm p14,p15=r3,r0
	cmp.eq.orcm p16,p17=r4,r0
	;;
	cmp.eq.or.andcm p18,p19=r5,r0
(p3)	cmp.eq.and.orcm p20,p21=r6,r0
	cmp.ne p22,p23=r3,r0
	;;
	cmp.ne.unc p24,p25=r4,r0
	cmp.ne.and p26,p27=r5,r0
(p2)	cmp.ne.or p28,p29=r6,r0
	;;
	cmp.ne.andcm p30,p31=r3,r0
	cmp.ne.orcm p32,p33=r4,r0
	cmp.ne.or.andcm p34,p35=r5,r0
	;;
(p1)	cmp.ne.and.orcm p36,p37=r6,r0
	cmp.lt p38,p39=r3,r0
	cmp.lt.unc p40,p41=r4,r0
	;;
	cmp.lt.and p42,p43=r5,r0
(p5)	cmp.lt.or p44,p45=r6,r0
	cmp.lt.andcm p46,p47=r3,r0
	;;
	cmp.lt.orcm p48,p49=r4,r0
	cmp.lt.or.andcm p50,p51=r5,r0
(p4)	cmp.lt.and.orcm p52,p53=r6,r0
	;;
	cmp.le p54,p55=r3,r0
	cmp.le.unc p56,p57=r4,r0
	cmp.le.and p58,p59=r5,r0
	;;
(p3)	cmp.le.or p60,p61=r6,r0
	cmp.le.andcm p6,p7=r3,r0
	cmp.le.orcm p8,p9=r4,r0
	;;
	cmp.le.or.andcm p10,p11=r5,r0
(p2)	cmp.le.and.orcm p12,p13=r6,r0
	cmp.gt p14,p15=r3,r0
	;;
	cmp.gt.unc p16,p17=r4,r0
	cmp.gt.and p18,p19=r5,r0
(p1)	cmp.gt.or p20,p21=r6,r0
	;;
	cmp.gt.andcm p22,p23=r3,r0
	cmp.gt.orcm p24,p25=r4,r0
	cmp.gt.or.andcm p26,p27=r5,r0
	;;
(p5)	cmp.gt.and.orcm p28,p29=r6,r0
	cmp.ge p30,p31=r3,r0
	cmp.ge.unc p32,p33=r4,r0
	;;
	cmp.ge.and p34,p35=r5,r0
(p4)	cmp.ge.or p36,p37=r6,r0
	cmp.ge.andcm p38,p39=r3,r0
	;;
	cmp.ge.orcm p40,p41=r4,r0
	cmp.ge.or.andcm p42,p43=r5,r0
(p3)	cmp.ge.and.orcm p44,p45=r6,r0
	;;
	cmp.ltu p46,p47=r3,r0
	cmp.ltu.unc p48,p49=r4,r0
	cmp.leu p50,p51=r5,r0
	;;
(p2)	cmp.leu.unc p52,p53=r6,r0
	cmp.gtu p54,p55=r3,r0
	cmp.gtu.unc p56,p57=r4,r0
	;;
	cmp.geu p58,p59=r5,r0
(p1)	cmp.geu.unc p60,p61=r6,r0
	cmp4.eq p6,p7=r3,r0
	;;
	cmp4.eq.unc p8,p9=r4,r0
	cmp4.eq.and p10,p11=r5,r0
(p5)	cmp4.eq.or p12,p13=r6,r0
	;;
	cmp4.eq.andcm p14,p15=r3,r0
	cmp4.eq.orcm p16,p17=r4,r0
	cmp4.eq.or.andcm p18,p19=r5,r0
	;;
(p4)	cmp4.eq.and.orcm p20,p21=r6,r0
	cmp4.ne p22,p23=r3,r0
	cmp4.ne.unc p24,p25=r4,r0
	;;
	cmp4.ne.and p26,p27=r5,r0
(p3)	cmp4.ne.or p28,p29=r6,r0
	cmp4.ne.andcm p30,p31=r3,r0
	;;
	cmp4.ne.orcm p32,p33=r4,r0
	cmp4.ne.or.andcm p34,p35=r5,r0
(p2)	cmp4.ne.and.orcm p36,p37=r6,r0
	;;
	cmp4.lt p38,p39=r3,r0
	cmp4.lt.unc p40,p41=r4,r0
	cmp4.lt.and p42,p43=r5,r0
	;;
(p1)	cmp4.lt.or p44,p45=r6,r0
	cmp4.lt.andcm p46,p47=r3,r0
	cmp4.lt.orcm p48,p49=r4,r0
	;;
	cmp4.lt.or.andcm p50,p51=r5,r0
(p5)	cmp4.lt.and.orcm p52,p53=r6,r0
	cmp4.le p54,p55=r3,r0
	;;
	cmp4.le.unc p56,p57=r4,r0
	cmp4.le.and p58,p59=r5,r0
(p4)	cmp4.le.or p60,p61=r6,r0
	;;
	cmp4.le.andcm p6,p7=r3,r0
	cmp4.le.orcm p8,p9=r4,r0
	cmp4.le.or.andcm p10,p11=r5,r0
	;;
(p3)	cmp4.le.and.orcm p12,p13=r6,r0
	cmp4.gt p14,p15=r3,r0
	cmp4.gt.unc p16,p17=r4,r0
	;;
	cmp4.gt.and p18,p19=r5,r0
(p2)	cmp4.gt.or p20,p21=r6,r0
	cmp4.gt.andcm p22,p23=r3,r0
	;;
	cmp4.gt.orcm p24,p25=r4,r0
	cmp4.gt.or.andcm p26,p27=r5,r0
(p1)	cmp4.gt.and.orcm p28,p29=r6,r0
	;;
	cmp4.ge p30,p31=r3,r0
	cmp4.ge.unc p32,p33=r4,r0
	cmp4.ge.and p34,p35=r5,r0
	;;
(p5)	cmp4.ge.or p36,p37=r6,r0
	cmp4.ge.andcm p38,p39=r3,r0
	cmp4.ge.orcm p40,p41=r4,r0
	;;
	cmp4.ge.or.andcm p42,p43=r5,r0
(p4)	cmp4.ge.and.orcm p44,p45=r6,r0
	cmp4.ltu p46,p47=r3,r0
	;;
	cmp4.ltu.unc p48,p49=r4,r0
	cmp4.leu p50,p51=r5,r0
(p3)	cmp4.leu.unc p52,p53=r6,r0
	;;
	cmp4.gtu p54,p55=r3,r0
	cmp4.gtu.unc p56,p57=r4,r0
	cmp4.geu p58,p59=r5,r0
	;;
(p2)	cmp4.geu.unc p60,p61=r6,r0
	;;
