// fp_misc.S: F6/F7 frcpa frsqrta fprcpa fprsqrta; F8 fmin fmax famin famax and the parallel forms; fpcmp with every relation; F9 fmerge fmix fsxt fpack fswap fand fandcm for fxor fpmerge and the fabs/fneg/fnegabs/fpabs/fpneg/fpnegabs pseudo-ops; F10 fcvt.fx/.fxu (.trunc) and fpcvt; F11 fcvt.xf; F12-F14 fsetc fclrf fchkf (forward and backward targets) with each status field; predicated and not (issue 12)
	.text
.Lfp_misc_back:
	nop.f 0
	;;
(p63)	frcpa f6,p7=f8,f9
	;;
	frcpa.s0 f6,p7=f8,f9
	;;
(p6)	frcpa.s1 f6,p7=f8,f9
	;;
	frcpa.s2 f6,p7=f8,f9
	;;
	frcpa.s3 f6,p7=f8,f9
	;;
(p6)	fprcpa f6,p7=f8,f9
	;;
	fprcpa.s0 f6,p7=f8,f9
	;;
(p63)	fprcpa.s1 f6,p7=f8,f9
	;;
(p6)	fprcpa.s2 f6,p7=f8,f9
	;;
	fprcpa.s3 f6,p7=f8,f9
	;;
	frsqrta f6,p7=f9
	;;
(p6)	frsqrta.s0 f6,p7=f9
	;;
	frsqrta.s1 f6,p7=f9
	;;
	frsqrta.s2 f6,p7=f9
	;;
(p6)	frsqrta.s3 f6,p7=f9
	;;
	fprsqrta f6,p7=f9
	;;
	fprsqrta.s0 f6,p7=f9
	;;
(p6)	fprsqrta.s1 f6,p7=f9
	;;
	fprsqrta.s2 f6,p7=f9
	;;
	fprsqrta.s3 f6,p7=f9
	;;
(p6)	fmin f20=f21,f22
	;;
(p63)	fmin.s0 f20=f21,f22
	;;
	fmin.s1 f20=f21,f22
	;;
(p6)	fmin.s2 f20=f21,f22
	;;
	fmin.s3 f20=f21,f22
	;;
	fmax f20=f21,f22
	;;
(p6)	fmax.s0 f20=f21,f22
	;;
	fmax.s1 f20=f21,f22
	;;
(p63)	fmax.s2 f20=f21,f22
	;;
(p6)	fmax.s3 f20=f21,f22
	;;
	famin f20=f21,f22
	;;
	famin.s0 f20=f21,f22
	;;
(p6)	famin.s1 f20=f21,f22
	;;
	famin.s2 f20=f21,f22
	;;
	famin.s3 f20=f21,f22
	;;
(p6)	famax f20=f21,f22
	;;
	famax.s0 f20=f21,f22
	;;
	famax.s1 f20=f21,f22
	;;
(p6)	famax.s2 f20=f21,f22
	;;
	famax.s3 f20=f21,f22
	;;
	fpmin f20=f21,f22
	;;
(p6)	fpmin.s0 f20=f21,f22
	;;
(p63)	fpmin.s1 f20=f21,f22
	;;
	fpmin.s2 f20=f21,f22
	;;
(p6)	fpmin.s3 f20=f21,f22
	;;
	fpmax f20=f21,f22
	;;
	fpmax.s0 f20=f21,f22
	;;
(p6)	fpmax.s1 f20=f21,f22
	;;
	fpmax.s2 f20=f21,f22
	;;
(p63)	fpmax.s3 f20=f21,f22
	;;
(p6)	fpamin f20=f21,f22
	;;
	fpamin.s0 f20=f21,f22
	;;
	fpamin.s1 f20=f21,f22
	;;
(p6)	fpamin.s2 f20=f21,f22
	;;
	fpamin.s3 f20=f21,f22
	;;
	fpamax f20=f21,f22
	;;
(p6)	fpamax.s0 f20=f21,f22
	;;
	fpamax.s1 f20=f21,f22
	;;
	fpamax.s2 f20=f21,f22
	;;
(p6)	fpamax.s3 f20=f21,f22
	;;
	fpcmp.eq f23=f24,f25
	;;
	fpcmp.eq.s0 f23=f24,f25
	;;
(p6)	fpcmp.eq.s1 f23=f24,f25
	;;
(p63)	fpcmp.eq.s2 f23=f24,f25
	;;
	fpcmp.eq.s3 f23=f24,f25
	;;
(p6)	fpcmp.lt f23=f24,f25
	;;
	fpcmp.lt.s0 f23=f24,f25
	;;
	fpcmp.lt.s1 f23=f24,f25
	;;
(p6)	fpcmp.lt.s2 f23=f24,f25
	;;
	fpcmp.lt.s3 f23=f24,f25
	;;
(p63)	fpcmp.le f23=f24,f25
	;;
(p6)	fpcmp.le.s0 f23=f24,f25
	;;
	fpcmp.le.s1 f23=f24,f25
	;;
	fpcmp.le.s2 f23=f24,f25
	;;
(p6)	fpcmp.le.s3 f23=f24,f25
	;;
	fpcmp.unord f23=f24,f25
	;;
	fpcmp.unord.s0 f23=f24,f25
	;;
(p6)	fpcmp.unord.s1 f23=f24,f25
	;;
	fpcmp.unord.s2 f23=f24,f25
	;;
	fpcmp.unord.s3 f23=f24,f25
	;;
(p6)	fpcmp.neq f23=f24,f25
	;;
	fpcmp.neq.s0 f23=f24,f25
	;;
	fpcmp.neq.s1 f23=f24,f25
	;;
(p6)	fpcmp.neq.s2 f23=f24,f25
	;;
(p63)	fpcmp.neq.s3 f23=f24,f25
	;;
	fpcmp.nlt f23=f24,f25
	;;
(p6)	fpcmp.nlt.s0 f23=f24,f25
	;;
	fpcmp.nlt.s1 f23=f24,f25
	;;
	fpcmp.nlt.s2 f23=f24,f25
	;;
(p6)	fpcmp.nlt.s3 f23=f24,f25
	;;
	fpcmp.nle f23=f24,f25
	;;
(p63)	fpcmp.nle.s0 f23=f24,f25
	;;
(p6)	fpcmp.nle.s1 f23=f24,f25
	;;
	fpcmp.nle.s2 f23=f24,f25
	;;
	fpcmp.nle.s3 f23=f24,f25
	;;
(p6)	fpcmp.ord f23=f24,f25
	;;
	fpcmp.ord.s0 f23=f24,f25
	;;
	fpcmp.ord.s1 f23=f24,f25
	;;
(p6)	fpcmp.ord.s2 f23=f24,f25
	;;
	fpcmp.ord.s3 f23=f24,f25
	;;
	fpcmp.gt f23=f24,f25
	;;
(p6)	fpcmp.gt.s0 f23=f24,f25
	;;
	fpcmp.gt.s1 f23=f24,f25
	;;
	fpcmp.gt.s2 f23=f24,f25
	;;
(p6)	fpcmp.gt.s3 f23=f24,f25
	;;
(p63)	fpcmp.ge f23=f24,f25
	;;
	fpcmp.ge.s0 f23=f24,f25
	;;
(p6)	fpcmp.ge.s1 f23=f24,f25
	;;
	fpcmp.ge.s2 f23=f24,f25
	;;
	fpcmp.ge.s3 f23=f24,f25
	;;
(p6)	fpcmp.ngt f23=f24,f25
	;;
	fpcmp.ngt.s0 f23=f24,f25
	;;
(p63)	fpcmp.ngt.s1 f23=f24,f25
	;;
(p6)	fpcmp.ngt.s2 f23=f24,f25
	;;
	fpcmp.ngt.s3 f23=f24,f25
	;;
	fpcmp.nge f23=f24,f25
	;;
(p6)	fpcmp.nge.s0 f23=f24,f25
	;;
	fpcmp.nge.s1 f23=f24,f25
	;;
	fpcmp.nge.s2 f23=f24,f25
	;;
(p6)	fpcmp.nge.s3 f23=f24,f25
	;;
	fmerge.s f26=f27,f28
	;;
	fmerge.s f127=f0,f1
	;;
(p6)	fmerge.ns f26=f27,f28
	;;
	fmerge.ns f127=f0,f1
	;;
	fmerge.se f26=f27,f28
	;;
(p6)	fmerge.se f127=f0,f1
	;;
(p63)	fmix.lr f26=f27,f28
	;;
	fmix.lr f127=f0,f1
	;;
(p6)	fmix.r f26=f27,f28
	;;
	fmix.r f127=f0,f1
	;;
	fmix.l f26=f27,f28
	;;
(p6)	fmix.l f127=f0,f1
	;;
	fsxt.r f26=f27,f28
	;;
(p63)	fsxt.r f127=f0,f1
	;;
(p6)	fsxt.l f26=f27,f28
	;;
	fsxt.l f127=f0,f1
	;;
	fpack f26=f27,f28
	;;
(p6)	fpack f127=f0,f1
	;;
	fswap f26=f27,f28
	;;
	fswap f127=f0,f1
	;;
(p6)	fswap.nl f26=f27,f28
	;;
	fswap.nl f127=f0,f1
	;;
	fswap.nr f26=f27,f28
	;;
(p6)	fswap.nr f127=f0,f1
	;;
	fand f26=f27,f28
	;;
	fand f127=f0,f1
	;;
(p6)	fandcm f26=f27,f28
	;;
(p63)	fandcm f127=f0,f1
	;;
	for f26=f27,f28
	;;
(p6)	for f127=f0,f1
	;;
	fxor f26=f27,f28
	;;
	fxor f127=f0,f1
	;;
(p6)	fpmerge.s f26=f27,f28
	;;
	fpmerge.s f127=f0,f1
	;;
(p63)	fpmerge.ns f26=f27,f28
	;;
(p6)	fpmerge.ns f127=f0,f1
	;;
	fpmerge.se f26=f27,f28
	;;
	fpmerge.se f127=f0,f1
	;;
(p6)	fabs f29=f30
	;;
	fabs f31=f0
	;;
	fneg f29=f30
	;;
(p6)	fneg f31=f0
	;;
	fnegabs f29=f30
	;;
	fnegabs f31=f0
	;;
(p6)	fpabs f29=f30
	;;
	fpabs f31=f0
	;;
	fpneg f29=f30
	;;
(p6)	fpneg f31=f0
	;;
(p63)	fpnegabs f29=f30
	;;
	fpnegabs f31=f0
	;;
(p6)	fcvt.fx f32=f33
	;;
	fcvt.fx.s0 f32=f33
	;;
	fcvt.fx.s1 f32=f33
	;;
(p6)	fcvt.fx.s2 f32=f33
	;;
	fcvt.fx.s3 f32=f33
	;;
(p63)	fcvt.fxu f32=f33
	;;
(p6)	fcvt.fxu.s0 f32=f33
	;;
	fcvt.fxu.s1 f32=f33
	;;
	fcvt.fxu.s2 f32=f33
	;;
(p6)	fcvt.fxu.s3 f32=f33
	;;
	fcvt.fx.trunc f32=f33
	;;
	fcvt.fx.trunc.s0 f32=f33
	;;
(p6)	fcvt.fx.trunc.s1 f32=f33
	;;
	fcvt.fx.trunc.s2 f32=f33
	;;
	fcvt.fx.trunc.s3 f32=f33
	;;
(p6)	fcvt.fxu.trunc f32=f33
	;;
	fcvt.fxu.trunc.s0 f32=f33
	;;
	fcvt.fxu.trunc.s1 f32=f33
	;;
(p6)	fcvt.fxu.trunc.s2 f32=f33
	;;
(p63)	fcvt.fxu.trunc.s3 f32=f33
	;;
	fpcvt.fx f32=f33
	;;
(p6)	fpcvt.fx.s0 f32=f33
	;;
	fpcvt.fx.s1 f32=f33
	;;
	fpcvt.fx.s2 f32=f33
	;;
(p6)	fpcvt.fx.s3 f32=f33
	;;
	fpcvt.fxu f32=f33
	;;
(p63)	fpcvt.fxu.s0 f32=f33
	;;
(p6)	fpcvt.fxu.s1 f32=f33
	;;
	fpcvt.fxu.s2 f32=f33
	;;
	fpcvt.fxu.s3 f32=f33
	;;
(p6)	fpcvt.fx.trunc f32=f33
	;;
	fpcvt.fx.trunc.s0 f32=f33
	;;
	fpcvt.fx.trunc.s1 f32=f33
	;;
(p6)	fpcvt.fx.trunc.s2 f32=f33
	;;
	fpcvt.fx.trunc.s3 f32=f33
	;;
	fpcvt.fxu.trunc f32=f33
	;;
(p6)	fpcvt.fxu.trunc.s0 f32=f33
	;;
	fpcvt.fxu.trunc.s1 f32=f33
	;;
	fpcvt.fxu.trunc.s2 f32=f33
	;;
(p6)	fpcvt.fxu.trunc.s3 f32=f33
	;;
(p63)	fcvt.xf f34=f35
	;;
	fcvt.xf f127=f1
	;;
(p6)	fsetc 0x7f,0x0f
	;;
	fsetc 0x0,0x7f
	;;
	fclrf
	;;
(p6)	fchkf .Lfp_misc_recover
	;;
	fchkf .Lfp_misc_back
	;;
(p63)	fsetc.s0 0x7f,0x0f
	;;
(p6)	fsetc.s0 0x0,0x7f
	;;
	fclrf.s0
	;;
	fchkf.s0 .Lfp_misc_recover
	;;
(p6)	fchkf.s0 .Lfp_misc_back
	;;
	fsetc.s1 0x7f,0x0f
	;;
	fsetc.s1 0x0,0x7f
	;;
(p6)	fclrf.s1
	;;
	fchkf.s1 .Lfp_misc_recover
	;;
	fchkf.s1 .Lfp_misc_back
	;;
(p6)	fsetc.s2 0x7f,0x0f
	;;
	fsetc.s2 0x0,0x7f
	;;
	fclrf.s2
	;;
(p6)	fchkf.s2 .Lfp_misc_recover
	;;
(p63)	fchkf.s2 .Lfp_misc_back
	;;
	fsetc.s3 0x7f,0x0f
	;;
(p6)	fsetc.s3 0x0,0x7f
	;;
	fclrf.s3
	;;
	fchkf.s3 .Lfp_misc_recover
	;;
(p6)	fchkf.s3 .Lfp_misc_back
	;;
.Lfp_misc_recover:
	nop.f 1
	;;
