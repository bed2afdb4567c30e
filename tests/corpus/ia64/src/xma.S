// xma.S: xma.l/.lu/.h/.hu (F2) and their xmpy pseudo-ops (f2 = f0), predicated and not, low/high/rotating FP registers, xma with an explicit f0 addend (objdump shows xmpy)
	.text
	.global xma_forms
	.proc xma_forms
xma_forms:
	xma.l f6=f7,f8,f9
	;;
	xmpy.l f6=f7,f8
	;;
(p7)	xma.l f2=f127,f32,f1
	;;
(p7)	xmpy.l f2=f127,f32
	;;
	xma.l f127=f0,f1,f126
	;;
	xmpy.l f127=f0,f1
	;;
(p9)	xma.l f33=f64,f96,f10
	;;
(p9)	xmpy.l f33=f64,f96
	;;
	xma.l f20=f21,f22,f0
	;;
(p63)	xma.l f20=f21,f22,f0
	;;
	xma.lu f6=f7,f8,f9
	;;
	xmpy.lu f6=f7,f8
	;;
(p11)	xma.lu f2=f127,f32,f1
	;;
(p11)	xmpy.lu f2=f127,f32
	;;
	xma.lu f127=f0,f1,f126
	;;
	xmpy.lu f127=f0,f1
	;;
(p13)	xma.lu f33=f64,f96,f10
	;;
(p13)	xmpy.lu f33=f64,f96
	;;
	xma.lu f20=f21,f22,f0
	;;
(p63)	xma.lu f20=f21,f22,f0
	;;
	xma.h f6=f7,f8,f9
	;;
	xmpy.h f6=f7,f8
	;;
(p6)	xma.h f2=f127,f32,f1
	;;
(p6)	xmpy.h f2=f127,f32
	;;
	xma.h f127=f0,f1,f126
	;;
	xmpy.h f127=f0,f1
	;;
(p8)	xma.h f33=f64,f96,f10
	;;
(p8)	xmpy.h f33=f64,f96
	;;
	xma.h f20=f21,f22,f0
	;;
(p63)	xma.h f20=f21,f22,f0
	;;
	xma.hu f6=f7,f8,f9
	;;
	xmpy.hu f6=f7,f8
	;;
(p10)	xma.hu f2=f127,f32,f1
	;;
(p10)	xmpy.hu f2=f127,f32
	;;
	xma.hu f127=f0,f1,f126
	;;
	xmpy.hu f127=f0,f1
	;;
(p12)	xma.hu f33=f64,f96,f10
	;;
(p12)	xmpy.hu f33=f64,f96
	;;
	xma.hu f20=f21,f22,f0
	;;
(p63)	xma.hu f20=f21,f22,f0
	;;
	br.ret.sptk.many b0
	;;
	.endp xma_forms
