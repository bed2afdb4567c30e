// fp_cmp.S: F4 fcmp with every relation gas accepts (eq lt le unord and the pseudo relations gt ge neq nlt nle ngt nge ord), with and without .unc, each status field; F5 fclass.m/.nm (.unc) with numeric masks, every @ class and | combinations (gas adds both signs to a mask naming a class without a sign) (issue 12)
	.text
.Lfp_cmp_back:
	nop.f 0
	;;
	fcmp.eq p8,p9=f7,f8
	;;
(p6)	fcmp.eq.s0 p8,p9=f7,f8
	;;
	fcmp.eq.s1 p8,p9=f7,f8
	;;
	fcmp.eq.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.eq.s3 p8,p9=f7,f8
	;;
	fcmp.eq.unc p8,p9=f7,f8
	;;
	fcmp.eq.unc.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.eq.unc.s1 p8,p9=f7,f8
	;;
(p63)	fcmp.eq.unc.s2 p8,p9=f7,f8
	;;
	fcmp.eq.unc.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.lt p8,p9=f7,f8
	;;
	fcmp.lt.s0 p8,p9=f7,f8
	;;
	fcmp.lt.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.lt.s2 p8,p9=f7,f8
	;;
	fcmp.lt.s3 p8,p9=f7,f8
	;;
(p63)	fcmp.lt.unc p8,p9=f7,f8
	;;
(p6)	fcmp.lt.unc.s0 p8,p9=f7,f8
	;;
	fcmp.lt.unc.s1 p8,p9=f7,f8
	;;
	fcmp.lt.unc.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.lt.unc.s3 p8,p9=f7,f8
	;;
	fcmp.le p8,p9=f7,f8
	;;
	fcmp.le.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.le.s1 p8,p9=f7,f8
	;;
	fcmp.le.s2 p8,p9=f7,f8
	;;
	fcmp.le.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.le.unc p8,p9=f7,f8
	;;
	fcmp.le.unc.s0 p8,p9=f7,f8
	;;
	fcmp.le.unc.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.le.unc.s2 p8,p9=f7,f8
	;;
(p63)	fcmp.le.unc.s3 p8,p9=f7,f8
	;;
	fcmp.unord p8,p9=f7,f8
	;;
(p6)	fcmp.unord.s0 p8,p9=f7,f8
	;;
	fcmp.unord.s1 p8,p9=f7,f8
	;;
	fcmp.unord.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.unord.s3 p8,p9=f7,f8
	;;
	fcmp.unord.unc p8,p9=f7,f8
	;;
(p63)	fcmp.unord.unc.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.unord.unc.s1 p8,p9=f7,f8
	;;
	fcmp.unord.unc.s2 p8,p9=f7,f8
	;;
	fcmp.unord.unc.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.gt p8,p9=f7,f8
	;;
	fcmp.gt.s0 p8,p9=f7,f8
	;;
	fcmp.gt.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.gt.s2 p8,p9=f7,f8
	;;
	fcmp.gt.s3 p8,p9=f7,f8
	;;
	fcmp.gt.unc p8,p9=f7,f8
	;;
(p6)	fcmp.gt.unc.s0 p8,p9=f7,f8
	;;
	fcmp.gt.unc.s1 p8,p9=f7,f8
	;;
	fcmp.gt.unc.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.gt.unc.s3 p8,p9=f7,f8
	;;
(p63)	fcmp.ge p8,p9=f7,f8
	;;
	fcmp.ge.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.ge.s1 p8,p9=f7,f8
	;;
	fcmp.ge.s2 p8,p9=f7,f8
	;;
	fcmp.ge.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.ge.unc p8,p9=f7,f8
	;;
	fcmp.ge.unc.s0 p8,p9=f7,f8
	;;
(p63)	fcmp.ge.unc.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.ge.unc.s2 p8,p9=f7,f8
	;;
	fcmp.ge.unc.s3 p8,p9=f7,f8
	;;
	fcmp.neq p8,p9=f7,f8
	;;
(p6)	fcmp.neq.s0 p8,p9=f7,f8
	;;
	fcmp.neq.s1 p8,p9=f7,f8
	;;
	fcmp.neq.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.neq.s3 p8,p9=f7,f8
	;;
	fcmp.neq.unc p8,p9=f7,f8
	;;
	fcmp.neq.unc.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.neq.unc.s1 p8,p9=f7,f8
	;;
	fcmp.neq.unc.s2 p8,p9=f7,f8
	;;
	fcmp.neq.unc.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.nlt p8,p9=f7,f8
	;;
(p63)	fcmp.nlt.s0 p8,p9=f7,f8
	;;
	fcmp.nlt.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.nlt.s2 p8,p9=f7,f8
	;;
	fcmp.nlt.s3 p8,p9=f7,f8
	;;
	fcmp.nlt.unc p8,p9=f7,f8
	;;
(p6)	fcmp.nlt.unc.s0 p8,p9=f7,f8
	;;
	fcmp.nlt.unc.s1 p8,p9=f7,f8
	;;
(p63)	fcmp.nlt.unc.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.nlt.unc.s3 p8,p9=f7,f8
	;;
	fcmp.nle p8,p9=f7,f8
	;;
	fcmp.nle.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.nle.s1 p8,p9=f7,f8
	;;
	fcmp.nle.s2 p8,p9=f7,f8
	;;
	fcmp.nle.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.nle.unc p8,p9=f7,f8
	;;
	fcmp.nle.unc.s0 p8,p9=f7,f8
	;;
	fcmp.nle.unc.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.nle.unc.s2 p8,p9=f7,f8
	;;
	fcmp.nle.unc.s3 p8,p9=f7,f8
	;;
	fcmp.ngt p8,p9=f7,f8
	;;
(p6)	fcmp.ngt.s0 p8,p9=f7,f8
	;;
(p63)	fcmp.ngt.s1 p8,p9=f7,f8
	;;
	fcmp.ngt.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.ngt.s3 p8,p9=f7,f8
	;;
	fcmp.ngt.unc p8,p9=f7,f8
	;;
	fcmp.ngt.unc.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.ngt.unc.s1 p8,p9=f7,f8
	;;
	fcmp.ngt.unc.s2 p8,p9=f7,f8
	;;
(p63)	fcmp.ngt.unc.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.nge p8,p9=f7,f8
	;;
	fcmp.nge.s0 p8,p9=f7,f8
	;;
	fcmp.nge.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.nge.s2 p8,p9=f7,f8
	;;
	fcmp.nge.s3 p8,p9=f7,f8
	;;
	fcmp.nge.unc p8,p9=f7,f8
	;;
(p6)	fcmp.nge.unc.s0 p8,p9=f7,f8
	;;
	fcmp.nge.unc.s1 p8,p9=f7,f8
	;;
	fcmp.nge.unc.s2 p8,p9=f7,f8
	;;
(p6)	fcmp.nge.unc.s3 p8,p9=f7,f8
	;;
	fcmp.ord p8,p9=f7,f8
	;;
	fcmp.ord.s0 p8,p9=f7,f8
	;;
(p6)	fcmp.ord.s1 p8,p9=f7,f8
	;;
(p63)	fcmp.ord.s2 p8,p9=f7,f8
	;;
	fcmp.ord.s3 p8,p9=f7,f8
	;;
(p6)	fcmp.ord.unc p8,p9=f7,f8
	;;
	fcmp.ord.unc.s0 p8,p9=f7,f8
	;;
	fcmp.ord.unc.s1 p8,p9=f7,f8
	;;
(p6)	fcmp.ord.unc.s2 p8,p9=f7,f8
	;;
	fcmp.ord.unc.s3 p8,p9=f7,f8
	;;
(p63)	fclass.m p10,p11=f9,0x0
	;;
(p6)	fclass.m.unc p10,p11=f9,0x0
	;;
	fclass.nm p10,p11=f9,0x0
	;;
	fclass.nm.unc p10,p11=f9,0x0
	;;
(p6)	fclass.m p10,p11=f9,0x1ff
	;;
	fclass.m.unc p10,p11=f9,0x1ff
	;;
	fclass.nm p10,p11=f9,0x1ff
	;;
(p6)	fclass.nm.unc p10,p11=f9,0x1ff
	;;
	fclass.m p10,p11=f9,@nat
	;;
	fclass.m.unc p10,p11=f9,@nat
	;;
(p6)	fclass.nm p10,p11=f9,@nat
	;;
	fclass.nm.unc p10,p11=f9,@nat
	;;
	fclass.m p10,p11=f9,@qnan
	;;
(p6)	fclass.m.unc p10,p11=f9,@qnan
	;;
(p63)	fclass.nm p10,p11=f9,@qnan
	;;
	fclass.nm.unc p10,p11=f9,@qnan
	;;
(p6)	fclass.m p10,p11=f9,@snan
	;;
	fclass.m.unc p10,p11=f9,@snan
	;;
	fclass.nm p10,p11=f9,@snan
	;;
(p6)	fclass.nm.unc p10,p11=f9,@snan
	;;
	fclass.m p10,p11=f9,@pos
	;;
(p63)	fclass.m.unc p10,p11=f9,@pos
	;;
(p6)	fclass.nm p10,p11=f9,@pos
	;;
	fclass.nm.unc p10,p11=f9,@pos
	;;
	fclass.m p10,p11=f9,@neg
	;;
(p6)	fclass.m.unc p10,p11=f9,@neg
	;;
	fclass.nm p10,p11=f9,@neg
	;;
	fclass.nm.unc p10,p11=f9,@neg
	;;
(p6)	fclass.m p10,p11=f9,@zero
	;;
	fclass.m.unc p10,p11=f9,@zero
	;;
	fclass.nm p10,p11=f9,@zero
	;;
(p6)	fclass.nm.unc p10,p11=f9,@zero
	;;
	fclass.m p10,p11=f9,@unorm
	;;
	fclass.m.unc p10,p11=f9,@unorm
	;;
(p6)	fclass.nm p10,p11=f9,@unorm
	;;
(p63)	fclass.nm.unc p10,p11=f9,@unorm
	;;
	fclass.m p10,p11=f9,@norm
	;;
(p6)	fclass.m.unc p10,p11=f9,@norm
	;;
	fclass.nm p10,p11=f9,@norm
	;;
	fclass.nm.unc p10,p11=f9,@norm
	;;
(p6)	fclass.m p10,p11=f9,@inf
	;;
	fclass.m.unc p10,p11=f9,@inf
	;;
(p63)	fclass.nm p10,p11=f9,@inf
	;;
(p6)	fclass.nm.unc p10,p11=f9,@inf
	;;
	fclass.m p10,p11=f9,@nat|@qnan|@snan
	;;
	fclass.m.unc p10,p11=f9,@nat|@qnan|@snan
	;;
(p6)	fclass.nm p10,p11=f9,@nat|@qnan|@snan
	;;
	fclass.nm.unc p10,p11=f9,@nat|@qnan|@snan
	;;
	fclass.m p10,p11=f9,@pos|@norm|@inf
	;;
(p6)	fclass.m.unc p10,p11=f9,@pos|@norm|@inf
	;;
	fclass.nm p10,p11=f9,@pos|@norm|@inf
	;;
	fclass.nm.unc p10,p11=f9,@pos|@norm|@inf
	;;
(p6)	fclass.m p10,p11=f9,0x155
	;;
	fclass.m.unc p10,p11=f9,0x155
	;;
	fclass.nm p10,p11=f9,0x155
	;;
(p6)	fclass.nm.unc p10,p11=f9,0x155
	;;
.Lfp_cmp_recover:
	nop.f 1
	;;
