// fp_arith.S: every F1 form GNU as 2.40 accepts (issue 12): fma/fms/fnma with none/.s/.d and fpma/fpms/fpnma, each with no status field and .s0-.s3, and the pseudo-ops fnorm fcvt.xuf fadd fsub fmpy fnmpy fpmpy fpnmpy with f0/f1 corners; predicated and not
	.text
.Lfp_arith_back:
	nop.f 0
	;;
	fma f6=f7,f8,f9
	;;
(p6)	fma.s0 f6=f7,f8,f9
	;;
	fma.s1 f6=f7,f8,f9
	;;
	fma.s2 f6=f7,f8,f9
	;;
(p6)	fma.s3 f6=f7,f8,f9
	;;
(p63)	fma.s f6=f7,f8,f9
	;;
	fma.s.s0 f6=f7,f8,f9
	;;
(p6)	fma.s.s1 f6=f7,f8,f9
	;;
	fma.s.s2 f6=f7,f8,f9
	;;
	fma.s.s3 f6=f7,f8,f9
	;;
(p6)	fma.d f6=f7,f8,f9
	;;
	fma.d.s0 f6=f7,f8,f9
	;;
(p63)	fma.d.s1 f6=f7,f8,f9
	;;
(p6)	fma.d.s2 f6=f7,f8,f9
	;;
	fma.d.s3 f6=f7,f8,f9
	;;
	fpma f6=f7,f8,f9
	;;
(p6)	fpma.s0 f6=f7,f8,f9
	;;
	fpma.s1 f6=f7,f8,f9
	;;
	fpma.s2 f6=f7,f8,f9
	;;
(p6)	fpma.s3 f6=f7,f8,f9
	;;
	fms f6=f7,f8,f9
	;;
	fms.s0 f6=f7,f8,f9
	;;
(p6)	fms.s1 f6=f7,f8,f9
	;;
	fms.s2 f6=f7,f8,f9
	;;
	fms.s3 f6=f7,f8,f9
	;;
(p6)	fms.s f6=f7,f8,f9
	;;
(p63)	fms.s.s0 f6=f7,f8,f9
	;;
	fms.s.s1 f6=f7,f8,f9
	;;
(p6)	fms.s.s2 f6=f7,f8,f9
	;;
	fms.s.s3 f6=f7,f8,f9
	;;
	fms.d f6=f7,f8,f9
	;;
(p6)	fms.d.s0 f6=f7,f8,f9
	;;
	fms.d.s1 f6=f7,f8,f9
	;;
(p63)	fms.d.s2 f6=f7,f8,f9
	;;
(p6)	fms.d.s3 f6=f7,f8,f9
	;;
	fpms f6=f7,f8,f9
	;;
	fpms.s0 f6=f7,f8,f9
	;;
(p6)	fpms.s1 f6=f7,f8,f9
	;;
	fpms.s2 f6=f7,f8,f9
	;;
	fpms.s3 f6=f7,f8,f9
	;;
(p6)	fnma f6=f7,f8,f9
	;;
	fnma.s0 f6=f7,f8,f9
	;;
	fnma.s1 f6=f7,f8,f9
	;;
(p6)	fnma.s2 f6=f7,f8,f9
	;;
	fnma.s3 f6=f7,f8,f9
	;;
	fnma.s f6=f7,f8,f9
	;;
(p6)	fnma.s.s0 f6=f7,f8,f9
	;;
(p63)	fnma.s.s1 f6=f7,f8,f9
	;;
	fnma.s.s2 f6=f7,f8,f9
	;;
(p6)	fnma.s.s3 f6=f7,f8,f9
	;;
	fnma.d f6=f7,f8,f9
	;;
	fnma.d.s0 f6=f7,f8,f9
	;;
(p6)	fnma.d.s1 f6=f7,f8,f9
	;;
	fnma.d.s2 f6=f7,f8,f9
	;;
(p63)	fnma.d.s3 f6=f7,f8,f9
	;;
(p6)	fpnma f6=f7,f8,f9
	;;
	fpnma.s0 f6=f7,f8,f9
	;;
	fpnma.s1 f6=f7,f8,f9
	;;
(p6)	fpnma.s2 f6=f7,f8,f9
	;;
	fpnma.s3 f6=f7,f8,f9
	;;
	fnorm f10=f11
	;;
(p6)	fnorm.s0 f10=f11
	;;
	fnorm.s1 f10=f11
	;;
	fnorm.s2 f10=f11
	;;
(p6)	fnorm.s3 f10=f11
	;;
	fnorm.s f10=f11
	;;
	fnorm.s.s0 f10=f11
	;;
(p6)	fnorm.s.s1 f10=f11
	;;
(p63)	fnorm.s.s2 f10=f11
	;;
	fnorm.s.s3 f10=f11
	;;
(p6)	fnorm.d f10=f11
	;;
	fnorm.d.s0 f10=f11
	;;
	fnorm.d.s1 f10=f11
	;;
(p6)	fnorm.d.s2 f10=f11
	;;
	fnorm.d.s3 f10=f11
	;;
(p63)	fcvt.xuf f10=f11
	;;
(p6)	fcvt.xuf.s0 f10=f11
	;;
	fcvt.xuf.s1 f10=f11
	;;
	fcvt.xuf.s2 f10=f11
	;;
(p6)	fcvt.xuf.s3 f10=f11
	;;
	fcvt.xuf.s f10=f11
	;;
	fcvt.xuf.s.s0 f10=f11
	;;
(p6)	fcvt.xuf.s.s1 f10=f11
	;;
	fcvt.xuf.s.s2 f10=f11
	;;
	fcvt.xuf.s.s3 f10=f11
	;;
(p6)	fcvt.xuf.d f10=f11
	;;
	fcvt.xuf.d.s0 f10=f11
	;;
	fcvt.xuf.d.s1 f10=f11
	;;
(p6)	fcvt.xuf.d.s2 f10=f11
	;;
(p63)	fcvt.xuf.d.s3 f10=f11
	;;
	fadd f12=f13,f14
	;;
(p6)	fadd.s0 f12=f13,f14
	;;
	fadd.s1 f12=f13,f14
	;;
	fadd.s2 f12=f13,f14
	;;
(p6)	fadd.s3 f12=f13,f14
	;;
	fadd.s f12=f13,f14
	;;
(p63)	fadd.s.s0 f12=f13,f14
	;;
(p6)	fadd.s.s1 f12=f13,f14
	;;
	fadd.s.s2 f12=f13,f14
	;;
	fadd.s.s3 f12=f13,f14
	;;
(p6)	fadd.d f12=f13,f14
	;;
	fadd.d.s0 f12=f13,f14
	;;
	fadd.d.s1 f12=f13,f14
	;;
(p6)	fadd.d.s2 f12=f13,f14
	;;
	fadd.d.s3 f12=f13,f14
	;;
	fsub f12=f13,f14
	;;
(p6)	fsub.s0 f12=f13,f14
	;;
	fsub.s1 f12=f13,f14
	;;
	fsub.s2 f12=f13,f14
	;;
(p6)	fsub.s3 f12=f13,f14
	;;
(p63)	fsub.s f12=f13,f14
	;;
	fsub.s.s0 f12=f13,f14
	;;
(p6)	fsub.s.s1 f12=f13,f14
	;;
	fsub.s.s2 f12=f13,f14
	;;
	fsub.s.s3 f12=f13,f14
	;;
(p6)	fsub.d f12=f13,f14
	;;
	fsub.d.s0 f12=f13,f14
	;;
(p63)	fsub.d.s1 f12=f13,f14
	;;
(p6)	fsub.d.s2 f12=f13,f14
	;;
	fsub.d.s3 f12=f13,f14
	;;
	fmpy f12=f13,f14
	;;
(p6)	fmpy.s0 f12=f13,f14
	;;
	fmpy.s1 f12=f13,f14
	;;
	fmpy.s2 f12=f13,f14
	;;
(p6)	fmpy.s3 f12=f13,f14
	;;
	fmpy.s f12=f13,f14
	;;
	fmpy.s.s0 f12=f13,f14
	;;
(p6)	fmpy.s.s1 f12=f13,f14
	;;
	fmpy.s.s2 f12=f13,f14
	;;
	fmpy.s.s3 f12=f13,f14
	;;
(p6)	fmpy.d f12=f13,f14
	;;
(p63)	fmpy.d.s0 f12=f13,f14
	;;
	fmpy.d.s1 f12=f13,f14
	;;
(p6)	fmpy.d.s2 f12=f13,f14
	;;
	fmpy.d.s3 f12=f13,f14
	;;
	fpmpy f12=f13,f14
	;;
(p6)	fpmpy.s0 f12=f13,f14
	;;
	fpmpy.s1 f12=f13,f14
	;;
(p63)	fpmpy.s2 f12=f13,f14
	;;
(p6)	fpmpy.s3 f12=f13,f14
	;;
	fnmpy f12=f13,f14
	;;
	fnmpy.s0 f12=f13,f14
	;;
(p6)	fnmpy.s1 f12=f13,f14
	;;
	fnmpy.s2 f12=f13,f14
	;;
	fnmpy.s3 f12=f13,f14
	;;
(p6)	fnmpy.s f12=f13,f14
	;;
	fnmpy.s.s0 f12=f13,f14
	;;
	fnmpy.s.s1 f12=f13,f14
	;;
(p6)	fnmpy.s.s2 f12=f13,f14
	;;
	fnmpy.s.s3 f12=f13,f14
	;;
	fnmpy.d f12=f13,f14
	;;
(p6)	fnmpy.d.s0 f12=f13,f14
	;;
(p63)	fnmpy.d.s1 f12=f13,f14
	;;
	fnmpy.d.s2 f12=f13,f14
	;;
(p6)	fnmpy.d.s3 f12=f13,f14
	;;
	fpnmpy f12=f13,f14
	;;
	fpnmpy.s0 f12=f13,f14
	;;
(p6)	fpnmpy.s1 f12=f13,f14
	;;
	fpnmpy.s2 f12=f13,f14
	;;
(p63)	fpnmpy.s3 f12=f13,f14
	;;
(p6)	fma f6=f7,f1,f0
	;;
	fma.d f6=f7,f8,f0
	;;
	fms.s f6=f7,f1,f9
	;;
(p6)	fpma f6=f7,f1,f0
	;;
	fnma f127=f126,f125,f0
	;;
.Lfp_arith_recover:
	nop.f 1
	;;
