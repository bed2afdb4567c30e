// Forms outside the issue-2 instruction list (multimedia, most FP, invala.e,
// 16-byte accesses, chk.a): kept with GNU as's output as a record of what
// is not supported yet; the assembler and disassembler tests exempt this file (see README.md).
	.text
	.global unsupported_forms
	.proc unsupported_forms
unsupported_forms:
	alloc r40=ar.pfs,0,16,0,0
;;
	cmp8xchg16.acq r80=[r2],r4,ar.csd,ar.ccv	// from atomic.S
	;;
	cmp8xchg16.rel.nta r81=[r3],r5,ar.csd,ar.ccv	// from atomic.S
	;;
	ld16 r82,ar.csd=[r2]	// from atomic.S
	;;
	ld16.acq r83,ar.csd=[r3]	// from atomic.S
	;;
	st16 [r2]=r84,ar.csd	// from atomic.S
	;;
	st16.rel.nta [r3]=r85,ar.csd	// from atomic.S
	;;
	fcmp.eq p20,p21=f6,f7	// from dv_pr.S
	;;
	fpma f18=f7,f8,f9	// from fp.S
	;;
	fadd f19=f7,f8	// from fp.S
	;;
	fsub.d f20=f7,f8	// from fp.S
	;;
	fmpy.s f21=f7,f8	// from fp.S
	;;
	fnorm f22=f7	// from fp.S
	;;
	fnorm.d.s1 f23=f7	// from fp.S
	;;
	fcmp.eq p6,p7=f7,f8	// from fp.S
	;;
	fcmp.lt.unc p8,p9=f7,f8	// from fp.S
	;;
	fcmp.le.s1 p10,p11=f7,f8	// from fp.S
	;;
	fcmp.unord p12,p13=f7,f8	// from fp.S
	;;
	fcmp.gt p14,p15=f7,f8	// from fp.S
	;;
	fcmp.ge.unc.s2 p16,p17=f7,f8	// from fp.S
	;;
	fcmp.neq p18,p19=f7,f8	// from fp.S
	;;
	fcmp.ord p20,p21=f7,f8	// from fp.S
	;;
	fneg f28=f7	// from fp.S
	;;
	fabs f29=f8	// from fp.S
	;;
	fcvt.fx f34=f7	// from fp.S
	;;
	fcvt.fxu.trunc f35=f7	// from fp.S
	;;
	fcvt.xf f36=f7	// from fp.S
	;;
	fselect f37=f7,f8,f9	// from fp.S
	;;
	fclass.m p22,p23=f7,0x1ff	// from fp.S
	;;
	frcpa f38,p24=f7,f8	// from fp.S
	;;
	fmin f39=f7,f8	// from fp.S
	;;
	fmax f40=f7,f8	// from fp.S
	;;
	fsetc.s0 0x7f,0x0f	// from fp.S
	;;
	fchkf.s0 .Lfp_done	// from fp.S
	;;
	fclrf.s0	// from fp.S
	;;
	chk.a.nc r7,.Lfwd	// from nopbreak.S
	;;
	chk.a.clr r8,.Lrecover	// from nopbreak.S
	;;
	chk.a.nc f7,.Lfwd	// from nopbreak.S
	;;
	chk.a.clr f8,.Lfwd	// from nopbreak.S
	;;
	mux1 r54=r2,@rev	// from shift_dep.S
	;;
	mux1 r55=r2,@brcst	// from shift_dep.S
	;;
	mux1 r56=r2,@mix	// from shift_dep.S
	;;
	mux1 r57=r2,@shuf	// from shift_dep.S
	;;
	mux1 r58=r2,@alt	// from shift_dep.S
	;;
	mux2 r59=r2,0xe4	// from shift_dep.S
	;;
	popcnt r60=r2	// from shift_dep.S
	;;
	invala.e r8	// from system.S
	;;
	invala.e f9	// from system.S
	;;
	hint 0x40	// from nopbreak.S
	;;
	czx1.l r61=r2	// from shift_dep.S
	;;
	czx1.r r62=r2	// from shift_dep.S
	;;
	czx2.l r63=r2	// from shift_dep.S
	;;
	czx2.r r64=r2	// from shift_dep.S
	;;
	.endp unsupported_forms
