// templates.S: makes gas choose each of the 24 template encodings (R3/R6), with and without the trailing stop, and every user template directive (.mii .mlx .mmi .mfi .mmf .mib .mbb .bbb .mmb .mfb)
	.text
	// 0x00 MII then 0x01 MII;;
.Lcase_00:
	add r8=r2,r3
	add r9=r2,r3
	add r10=r2,r3
	add r11=r2,r3
	;;
	// 0x02 MI;;I then 0x03 MI;;I;;
.Lcase_02:
	add r8=r2,r3
	add r9=r2,r3
	;;
	add r10=r2,r3
	add r11=r2,r3
	;;
.Lcase_03:
	add r12=r2,r3
	add r13=r2,r3
	;;
	add r14=r2,r3
	;;
	// 0x04 MLX then 0x05 MLX;;
.Lcase_04:
	add r14=r2,r3
	movl r15=0x1122334455667788
	ld8 r16=[r2]
	movl r17=-2
	;;
	// 0x08 MMI then 0x09 MMI;;
.Lcase_08:
	ld8 r18=[r2]
	ld8 r19=[r3]
	add r20=r2,r3
	ld8 r21=[r4]
	ld8 r22=[r5]
	add r23=r2,r3
	;;
	// 0x0a M;;MI then 0x0b M;;MI;;
.Lcase_0a:
	add r8=r2,r3
	;;
	add r9=r2,r3
	add r10=r2,r3
	add r11=r2,r3
	;;
	add r12=r2,r3
	;;
	add r13=r2,r3
	add r14=r2,r3
	;;
	// 0x0c MFI then 0x0d MFI;;
.Lcase_0c:
	fma.s f6=f7,f8,f9
	fma.s f10=f7,f8,f9
	;;
	// 0x0e MMF then 0x0f MMF;;
.Lcase_0e:
	ld8 r15=[r2]
	ld8 r16=[r3]
	fma.s f11=f7,f8,f9
	ld8 r17=[r4]
	ld8 r18=[r5]
	fma.s f12=f7,f8,f9
	;;
	// 0x10 MIB then 0x11 MIB;;
.Lcase_10:
	ld8 r19=[r2]
	add r20=r2,r3
(p6)	br.cond.sptk .Ltarget
	ld8 r21=[r3]
	add r22=r2,r3
(p7)	br.cond.sptk .Ltarget
	;;
	// 0x12 MBB then 0x13 MBB;;
.Lcase_12:
	ld8 r23=[r2]
(p6)	br.cond.sptk .Ltarget
(p7)	br.cond.sptk .Ltarget
	ld8 r24=[r3]
(p8)	br.cond.sptk .Ltarget
(p9)	br.cond.sptk .Ltarget
	;;
	// 0x16 BBB then 0x17 BBB;;
.Lcase_16:
(p6)	br.cond.sptk .Ltarget
(p7)	br.cond.sptk .Ltarget
(p8)	br.cond.sptk .Ltarget
(p9)	br.cond.sptk .Ltarget
(p10)	br.cond.sptk .Ltarget
(p11)	br.cond.sptk .Ltarget
	;;
	// 0x18 MMB then 0x19 MMB;;
.Lcase_18:
	ld8 r25=[r2]
	ld8 r26=[r3]
(p6)	br.cond.sptk .Ltarget
	ld8 r27=[r4]
	ld8 r28=[r5]
(p7)	br.cond.sptk .Ltarget
	;;
	// 0x1c MFB then 0x1d MFB;;
.Lcase_1c:
	ld8 r29=[r2]
	fma.s f13=f7,f8,f9
(p6)	br.cond.sptk .Ltarget
	ld8 r30=[r3]
	fma.s f14=f7,f8,f9
(p7)	br.cond.sptk .Ltarget
	;;
	// user template directives
.Luser:
	.mii
	add r8=r2,r3
	;;
	.mlx
	nop.m 0
	movl r9=1
	;;
	.mmi
	add r10=r2,r3
	;;
	.mfi
	add r11=r2,r3
	add r12=r2,r3
	;;
	.mmf
	add r13=r2,r3
	;;
	.mib
	add r14=r2,r3
	;;
	.mbb
	ld8 r15=[r2]
	;;
	.bbb
	nop.b 0
	;;
	.mmb
	ld8 r16=[r2]
	ld8 r17=[r3]
	;;
	.mfb
	ld8 r18=[r4]
	;;
.Ltarget:
	add r19=r2,r3
	;;
