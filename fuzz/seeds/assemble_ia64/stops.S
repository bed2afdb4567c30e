// stops.S: mid-bundle stops (M;;MI R6a, MI;;I R6b, close R6c), labels mid-group (R5), tags, .align padding (R12), must-be-last (R7), must-be-first (R8), slot-2-only (R9), MLX (R10), end-of-input flush (R11)
	.text
	// R6a: stop after slot 0
	add r8=r2,r3
	;;
	add r9=r2,r3
	add r10=r2,r3
	;;
	ld8 r11=[r2]
	;;
	mov ar.lc=r3
	add r12=r2,r3
	;;
	ld8 r13=[r2]
	;;
	br.ret.sptk.many b0
	;;
	// R6b: stop after slot 1
	add r14=r2,r3
	add r15=r2,r3
	;;
	add r16=r2,r3
	;;
	add r17=r2,r3
	add r18=r2,r3
	;;
	br.ret.sptk.many b0
	;;
	// R6c: stop after slot 1 of MMI closes the bundle
	ld8 r19=[r2]
	ld8 r20=[r3]
	;;
	add r21=r2,r3
	;;
	fma.s f6=f7,f8,f9
	;;
	add r22=r2,r3
	;;
	// R5: labels start bundles, mid-group, no stop added
	add r23=r2,r3
mid1:
	add r24=r2,r3
	add r25=r2,r3
	;;
	add r26=r2,r3
.Lmid2:
	add r27=r2,r3
1:
	add r28=r2,r3
	add r29=r2,r3
	;;
	// tags do not break bundles
	add r30=r2,r3
[.Ltag1:] add r31=r2,r3
	add r32=r2,r3
	;;
	// R12: .align in code pads with MMI nop bundles
	add r33=r2,r3
	.align 32
	add r34=r2,r3
	;;
	.align 64
	add r35=r2,r3
	;;
	add r36=r2,r3
	;;
	.align 32
	alloc r37=ar.pfs,2,2,0,0
	add r38=r2,r3
	;;
	add r39=r2,r3
	add r40=r2,r3
	add r41=r2,r3
	;;
	.align 16
	add r42=r2,r3
	;;
.Lbefore_align:
	.align 32
	add r43=r2,r3
	;;
	// R7: must-be-last
	add r44=r2,r3
	cover
	;;
	cover
	;;
	br.ret.sptk.many b0
	;;
	cover
	add r45=r2,r3
	add r46=r2,r3
	;;
(p6)	br.cond.sptk .Lend
	br.call.sptk.many b0=.Lend
	cover
	;;
	add r47=r2,r3
	;;
	add r48=r2,r3
	add r49=r2,r3
	;;
	add r50=r2,r3
	clrrrb
	;;
	add r51=r2,r3
	bsw.0
	;;
	add r52=r2,r3
	bsw.1
	;;
	srlz.d
	;;
	// R8: must-be-first
	add r53=r2,r3
	flushrs
	add r54=r2,r3
	;;
	add r55=r2,r3
	add r56=r2,r3
	loadrs
	;;
	// R9: slot-2-only branches
	add r57=r2,r3
	br.cloop.sptk.few .Lend
	;;
	br.cexit.spnt.few .Lend
(p7)	br.cond.sptk.few .Lend
	;;
	// R10: MLX with and without slot 0
	add r58=r2,r3
	movl r59=0x1234
	add r60=r2,r3
	;;
	extr r61=r2,4,8
	movl r62=0x5678
	;;
	add r63=r2,r3
	;;
	movl r64=0x9abc
	;;
	ld8 r65=[r2]
	brl.call.sptk.many b0=.Lend
	;;
.Lend:
	add r66=r2,r3
	add r67=r2,r3
