// tbit.S: tbit.z/.nz and tnat.z/.nz (I16/I17) with every completer (none .unc .and .or .andcm .orcm .or.andcm .and.orcm), bit positions 0..63
	.text
	tbit.z p6,p7=r3,0
	tnat.z p8,p9=r4
	;;
	tbit.z.unc p10,p11=r5,5
(p4)	tnat.z.unc p12,p13=r6
	;;
	tbit.z.and p14,p15=r3,32
	tnat.z.and p16,p17=r4
	;;
	tbit.z.or p18,p19=r5,0
(p3)	tnat.z.or p20,p21=r6
	;;
	tbit.z.andcm p22,p23=r3,5
	tnat.z.andcm p24,p25=r4
	;;
	tbit.z.orcm p26,p27=r5,32
(p2)	tnat.z.orcm p28,p29=r6
	;;
	tbit.z.or.andcm p30,p31=r3,0
	tnat.z.or.andcm p32,p33=r4
	;;
	tbit.z.and.orcm p34,p35=r5,5
(p1)	tnat.z.and.orcm p36,p37=r6
	;;
	tbit.nz p38,p39=r3,32
	tnat.nz p40,p41=r4
	;;
	tbit.nz.unc p42,p43=r5,0
(p5)	tnat.nz.unc p44,p45=r6
	;;
	tbit.nz.and p46,p47=r3,5
	tnat.nz.and p48,p49=r4
	;;
	tbit.nz.or p50,p51=r5,32
(p4)	tnat.nz.or p52,p53=r6
	;;
	tbit.nz.andcm p54,p55=r3,0
	tnat.nz.andcm p56,p57=r4
	;;
	tbit.nz.orcm p58,p59=r5,5
(p3)	tnat.nz.orcm p60,p61=r6
	;;
	tbit.nz.or.andcm p6,p7=r3,32
	tnat.nz.or.andcm p8,p9=r4
	;;
	tbit.nz.and.orcm p10,p11=r5,0
(p2)	tnat.nz.and.orcm p12,p13=r6
	;;
