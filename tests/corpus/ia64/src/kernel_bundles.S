// explicit bundles { } as the kernel writes them (issue 13): template directives inside, stops inside and after, no template, one-line bundles, labels and tags, look-ahead across '{'
	.text
	add r1=r2,r3
	{ .mii
	add r4=r5,r6
	add r7=r8,r9 ;;
	add r10=r11,r12
	}
	{ .mib
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0 ;;
	}
	{ .mmi
	ld8 r1=[r2] ;;
	ld8 r3=[r4]
	nop.i 0 ;;
	}
	{
	ld8 r20=[r2]
	add r21=r4,r5
	}
	add r22=r2,r3
	{ .mfb
	ld8 r23=[r2]
	br.call.sptk.many b0=1f
	}
	{ .mii
	add r24=r2,r3 }
	{ .mmi; ld8 r25=[r2];; ld8 r26=[r2]; nop.i 0 };;
1:	{ .mib; (p6) ld8 r1=[r2]; (p7) add r3=r4,r5; (p8) br.cond.dptk.few 1b };;
	{ .mlx
	nop.m 0
	movl r8=0x123456789abcdef0 ;;
	}
2:	{ .mmi
	[3:] ld8 r9=[r10]
	[.Ltag:]
	st8 [r11]=r27
	nop.i 0
	}
	{ .mfi
	nop.m 0
	nop.f 0
	adds r12=3b-2b,r0 ;;
	}
	{ .bbb; nop.b 0; nop.b 0; br.ret.sptk.many rp;; }
	adds r13=.Ltag-2b,r0
	{ .mmb
	mov r14=1
	mov r15=2
	nop.b 0 ;;
	}
	add r16=r17,r18 ;;
