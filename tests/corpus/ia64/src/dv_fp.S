// dv_fp.S: dependency violations of the F unit (issue 12): FR RAW/WAW through F forms, fcmp/fclass predicates (and their .unc mutex), frcpa's predicate, and the ar.fpsr fields: status-field controls/flags/traps/rv of arithmetic forms with and without an explicit .sN (and the .s precision completer), fsetc/fclrf/fchkf
	.text
	fma.s1 f6=f7,f8,f9
	fadd f10=f6,f8
	;;
	fmerge.s f11=f12,f13
	fmix.l f11=f12,f13
	;;
	fcmp.eq.s2 p6,p7=f8,f9
(p6)	fselect f14=f7,f8,f9
	;;
	fcmp.lt.unc p8,p9=f8,f9
	;;
(p8)	fmerge.s f15=f7,f8
(p9)	fmerge.s f15=f7,f9
	;;
	fclass.m p10,p11=f8,@nat
(p10)	br.cond.sptk .Ldv_fp_out
	;;
	frcpa.s1 f16,p12=f8,f9
(p12)	fma.s1 f24=f16,f8,f9
	;;
	mov ar.fpsr=r8
	fma.s1 f17=f7,f8,f9
	;;
	mov ar.fpsr=r8
	fma f17=f7,f8,f9
	;;
	mov ar.fpsr=r8
	fma.s f18=f7,f8,f9
	;;
	fsetc.s2 0x7f,0x0
	fpmax.s2 f19=f7,f8
	;;
	fsetc.s0 0x7f,0x0
	fsetc.s1 0x7f,0x0
	;;
	fclrf.s1
	fmin.s1 f20=f7,f8
	;;
	fnorm.s3 f21=f7
	fchkf.s3 .Ldv_fp_out
	;;
	fcmp.eq p13,p14=f8,f9
	fchkf .Ldv_fp_out
	;;
	fclrf
	fsetc 0x7f,0x0
	mov r9=ar.fpsr
	;;
	fcvt.fx.s1 f22=f7
	mov r10=ar.fpsr
	;;
	fpcmp.eq f23=f7,f8
	mov ar.fpsr=r11
	;;
.Ldv_fp_out:
	nop.f 0
	;;
