// fp.S: a little floating point: fma/fms/fnma (F1) with .s/.d and status fields, pseudo-ops fadd fsub fmpy fnorm, fcmp (F4), fmerge.s/.ns/.se (F9), mov f=f, getf/setf (M18/M19), fcvt, fselect, fclass, frcpa
	.text
	fma f6=f7,f8,f9
	;;
	fma.s f10=f7,f8,f9
	;;
	fma.d.s1 f11=f7,f8,f9
	;;
	fma.s.s2 f12=f7,f8,f9
	;;
	fma.s3 f13=f7,f8,f9
	;;
	fms.d f14=f7,f8,f9
	;;
	fnma f15=f7,f8,f9
	;;
	fnma.s f16=f7,f8,f9
	;;
	fnma.d.s1 f17=f7,f8,f9
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	fmerge.s f24=f7,f8
	fmerge.ns f25=f7,f8
	;;
	fmerge.se f26=f7,f8
	mov f27=f7
	;;
	;;
	getf.sig r8=f7
	getf.exp r9=f8
	;;
	getf.s r10=f9
	getf.d r11=f10
	;;
	setf.sig f30=r2
	setf.exp f31=r3
	;;
	setf.s f32=r4
	setf.d f33=r5
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
	;;
(p6)	fma.s f41=f7,f8,f9
(p7)	fma.s f41=f7,f8,f10
	;;
	ld8 r12=[r2]
	fma.s f42=f7,f8,f9
	br.ret.sptk.many b0
	;;
.Lfp_done:
	fma.d f43=f7,f8,f9
	;;
