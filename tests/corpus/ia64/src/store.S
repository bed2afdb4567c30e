// store.S: st1-8 (M4/M5) plain, .rel, .nta, st8.spill, imm9 post-increment; ldf/stf (M6-M10) ldfs ldfd ldf8 ldfe ldf.fill, stfs stfd stf8 stfe stf.spill; ldfp; lfetch
	.text
	st1 [r2]=r8
	st2 [r3]=r9
	;;
	st4 [r4]=r10
	st8 [r5]=r11
	;;
	st1.rel [r2]=r8
	st2.rel [r3]=r9
	;;
	st4.rel [r4]=r10
	st8.rel [r5]=r11
	;;
	st1.nta [r2]=r8
	st2.nta [r3]=r9
	;;
	st4.rel.nta [r4]=r10
	st8.rel.nta [r5]=r11
	;;
	st8.spill [r2]=r12
	;;
	st8.spill.nta [r3]=r13
	;;
	st1 [r40]=r8,1
	st2 [r41]=r9,-256
	;;
	st4 [r40]=r10,255
	st8 [r41]=r11,-8
	;;
	st1.rel [r40]=r8,-1
	st8.rel [r41]=r11,128
	;;
	st8.spill [r40]=r12,16
	;;
	st8.spill.nta [r41]=r12,-16
	;;
(p6)	st4 [r2]=r0
(p7)	st8 [r3]=r1,8
	;;
	// floating-point loads
	ldfs f6=[r2]
	ldfd f7=[r3]
	;;
	ldf8 f8=[r4]
	ldfe f9=[r5]
	;;
	ldf.fill f10=[r2]
	ldfs.s f11=[r3]
	;;
	ldfd.a f12=[r4]
	ldf8.sa f13=[r5]
	;;
	ldfe.c.clr f14=[r2]
	ldfs.c.nc f15=[r3]
	;;
	ldfd.nta f16=[r4]
	ldf8.nt1 f17=[r5]
	;;
	ldfs f18=[r40],r6
	ldfd f19=[r41],r7
	;;
	ldf8 f20=[r40],-256
	ldfe f21=[r41],255
	;;
	ldf.fill f22=[r40],16
	ldf.fill.nta f23=[r41],r6
	;;
	;;
	;;
	// floating-point stores
	stfs [r2]=f6
	stfd [r3]=f7
	;;
	stf8 [r4]=f8
	stfe [r5]=f9
	;;
	stf.spill [r2]=f10
	stf.spill.nta [r3]=f11
	;;
	stf8 [r40]=f12,-256
	stfs [r41]=f13,255
	;;
	stf.spill [r40]=f14,16
	stfd.nta [r41]=f15,8
	;;
	// lfetch
	;;
	;;
	;;
