// multimedia.S: every multimedia form gas 2.40 has (issue 12): A9 padd/psub/pavg/pavgsub/pcmp, A10 pshladd2/pshradd2,
// I1 pmpyshr2, I2 pmpy2/mix/pack/unpack/pmin/pmax/psad1/mpy4/mpyshl4, I3 mux1 (every mbtype4), I4 mux2, I5-I8 pshr/pshl
// by register and immediate, I9 popcnt/clz, I29 czx, I30 tf with every gas spelling; predicated and not, r0/r1/r127 operands, range ends of every count.
	.text
	.global multimedia
	.proc multimedia
multimedia:
	padd1 r8=r9,r10
	;;
	(p6) padd1 r127=r0,r1
	;;
	(p63) padd1 r33=r126,r0
	;;
	padd1.sss r8=r9,r10
	;;
	(p6) padd1.sss r127=r0,r1
	;;
	(p63) padd1.sss r33=r126,r0
	;;
	padd1.uuu r8=r9,r10
	;;
	(p6) padd1.uuu r127=r0,r1
	;;
	(p63) padd1.uuu r33=r126,r0
	;;
	padd1.uus r8=r9,r10
	;;
	(p6) padd1.uus r127=r0,r1
	;;
	(p63) padd1.uus r33=r126,r0
	;;
	padd2 r8=r9,r10
	;;
	(p6) padd2 r127=r0,r1
	;;
	(p63) padd2 r33=r126,r0
	;;
	padd2.sss r8=r9,r10
	;;
	(p6) padd2.sss r127=r0,r1
	;;
	(p63) padd2.sss r33=r126,r0
	;;
	padd2.uuu r8=r9,r10
	;;
	(p6) padd2.uuu r127=r0,r1
	;;
	(p63) padd2.uuu r33=r126,r0
	;;
	padd2.uus r8=r9,r10
	;;
	(p6) padd2.uus r127=r0,r1
	;;
	(p63) padd2.uus r33=r126,r0
	;;
	padd4 r8=r9,r10
	;;
	(p6) padd4 r127=r0,r1
	;;
	(p63) padd4 r33=r126,r0
	;;
	psub1 r8=r9,r10
	;;
	(p6) psub1 r127=r0,r1
	;;
	(p63) psub1 r33=r126,r0
	;;
	psub1.sss r8=r9,r10
	;;
	(p6) psub1.sss r127=r0,r1
	;;
	(p63) psub1.sss r33=r126,r0
	;;
	psub1.uuu r8=r9,r10
	;;
	(p6) psub1.uuu r127=r0,r1
	;;
	(p63) psub1.uuu r33=r126,r0
	;;
	psub1.uus r8=r9,r10
	;;
	(p6) psub1.uus r127=r0,r1
	;;
	(p63) psub1.uus r33=r126,r0
	;;
	psub2 r8=r9,r10
	;;
	(p6) psub2 r127=r0,r1
	;;
	(p63) psub2 r33=r126,r0
	;;
	psub2.sss r8=r9,r10
	;;
	(p6) psub2.sss r127=r0,r1
	;;
	(p63) psub2.sss r33=r126,r0
	;;
	psub2.uuu r8=r9,r10
	;;
	(p6) psub2.uuu r127=r0,r1
	;;
	(p63) psub2.uuu r33=r126,r0
	;;
	psub2.uus r8=r9,r10
	;;
	(p6) psub2.uus r127=r0,r1
	;;
	(p63) psub2.uus r33=r126,r0
	;;
	psub4 r8=r9,r10
	;;
	(p6) psub4 r127=r0,r1
	;;
	(p63) psub4 r33=r126,r0
	;;
	pavg1 r8=r9,r10
	;;
	(p6) pavg1 r127=r0,r1
	;;
	(p63) pavg1 r33=r126,r0
	;;
	pavg1.raz r8=r9,r10
	;;
	(p6) pavg1.raz r127=r0,r1
	;;
	(p63) pavg1.raz r33=r126,r0
	;;
	pavgsub1 r8=r9,r10
	;;
	(p6) pavgsub1 r127=r0,r1
	;;
	(p63) pavgsub1 r33=r126,r0
	;;
	pavg2 r8=r9,r10
	;;
	(p6) pavg2 r127=r0,r1
	;;
	(p63) pavg2 r33=r126,r0
	;;
	pavg2.raz r8=r9,r10
	;;
	(p6) pavg2.raz r127=r0,r1
	;;
	(p63) pavg2.raz r33=r126,r0
	;;
	pavgsub2 r8=r9,r10
	;;
	(p6) pavgsub2 r127=r0,r1
	;;
	(p63) pavgsub2 r33=r126,r0
	;;
	pcmp1.eq r8=r9,r10
	;;
	(p6) pcmp1.eq r127=r0,r1
	;;
	(p63) pcmp1.eq r33=r126,r0
	;;
	pcmp1.gt r8=r9,r10
	;;
	(p6) pcmp1.gt r127=r0,r1
	;;
	(p63) pcmp1.gt r33=r126,r0
	;;
	pcmp2.eq r8=r9,r10
	;;
	(p6) pcmp2.eq r127=r0,r1
	;;
	(p63) pcmp2.eq r33=r126,r0
	;;
	pcmp2.gt r8=r9,r10
	;;
	(p6) pcmp2.gt r127=r0,r1
	;;
	(p63) pcmp2.gt r33=r126,r0
	;;
	pcmp4.eq r8=r9,r10
	;;
	(p6) pcmp4.eq r127=r0,r1
	;;
	(p63) pcmp4.eq r33=r126,r0
	;;
	pcmp4.gt r8=r9,r10
	;;
	(p6) pcmp4.gt r127=r0,r1
	;;
	(p63) pcmp4.gt r33=r126,r0
	;;
	pmpy2.r r8=r9,r10
	;;
	(p6) pmpy2.r r127=r0,r1
	;;
	(p63) pmpy2.r r33=r126,r0
	;;
	pmpy2.l r8=r9,r10
	;;
	(p6) pmpy2.l r127=r0,r1
	;;
	(p63) pmpy2.l r33=r126,r0
	;;
	mix1.r r8=r9,r10
	;;
	(p6) mix1.r r127=r0,r1
	;;
	(p63) mix1.r r33=r126,r0
	;;
	mix1.l r8=r9,r10
	;;
	(p6) mix1.l r127=r0,r1
	;;
	(p63) mix1.l r33=r126,r0
	;;
	unpack1.h r8=r9,r10
	;;
	(p6) unpack1.h r127=r0,r1
	;;
	(p63) unpack1.h r33=r126,r0
	;;
	unpack1.l r8=r9,r10
	;;
	(p6) unpack1.l r127=r0,r1
	;;
	(p63) unpack1.l r33=r126,r0
	;;
	mix2.r r8=r9,r10
	;;
	(p6) mix2.r r127=r0,r1
	;;
	(p63) mix2.r r33=r126,r0
	;;
	mix2.l r8=r9,r10
	;;
	(p6) mix2.l r127=r0,r1
	;;
	(p63) mix2.l r33=r126,r0
	;;
	unpack2.h r8=r9,r10
	;;
	(p6) unpack2.h r127=r0,r1
	;;
	(p63) unpack2.h r33=r126,r0
	;;
	unpack2.l r8=r9,r10
	;;
	(p6) unpack2.l r127=r0,r1
	;;
	(p63) unpack2.l r33=r126,r0
	;;
	mix4.r r8=r9,r10
	;;
	(p6) mix4.r r127=r0,r1
	;;
	(p63) mix4.r r33=r126,r0
	;;
	mix4.l r8=r9,r10
	;;
	(p6) mix4.l r127=r0,r1
	;;
	(p63) mix4.l r33=r126,r0
	;;
	unpack4.h r8=r9,r10
	;;
	(p6) unpack4.h r127=r0,r1
	;;
	(p63) unpack4.h r33=r126,r0
	;;
	unpack4.l r8=r9,r10
	;;
	(p6) unpack4.l r127=r0,r1
	;;
	(p63) unpack4.l r33=r126,r0
	;;
	pack2.uss r8=r9,r10
	;;
	(p6) pack2.uss r127=r0,r1
	;;
	(p63) pack2.uss r33=r126,r0
	;;
	pack2.sss r8=r9,r10
	;;
	(p6) pack2.sss r127=r0,r1
	;;
	(p63) pack2.sss r33=r126,r0
	;;
	pack4.sss r8=r9,r10
	;;
	(p6) pack4.sss r127=r0,r1
	;;
	(p63) pack4.sss r33=r126,r0
	;;
	pmin1.u r8=r9,r10
	;;
	(p6) pmin1.u r127=r0,r1
	;;
	(p63) pmin1.u r33=r126,r0
	;;
	pmax1.u r8=r9,r10
	;;
	(p6) pmax1.u r127=r0,r1
	;;
	(p63) pmax1.u r33=r126,r0
	;;
	pmin2 r8=r9,r10
	;;
	(p6) pmin2 r127=r0,r1
	;;
	(p63) pmin2 r33=r126,r0
	;;
	pmax2 r8=r9,r10
	;;
	(p6) pmax2 r127=r0,r1
	;;
	(p63) pmax2 r33=r126,r0
	;;
	psad1 r8=r9,r10
	;;
	(p6) psad1 r127=r0,r1
	;;
	(p63) psad1 r33=r126,r0
	;;
	mpy4 r8=r9,r10
	;;
	(p6) mpy4 r127=r0,r1
	;;
	(p63) mpy4 r33=r126,r0
	;;
	mpyshl4 r8=r9,r10
	;;
	(p6) mpyshl4 r127=r0,r1
	;;
	(p63) mpyshl4 r33=r126,r0
	;;
	pshl2 r8=r9,r10
	;;
	(p6) pshl2 r127=r0,r1
	;;
	(p63) pshl2 r33=r126,r0
	;;
	pshl4 r8=r9,r10
	;;
	(p6) pshl4 r127=r0,r1
	;;
	(p63) pshl4 r33=r126,r0
	;;
	pshladd2 r8=r9,1,r10
	;;
	(p6) pshladd2 r127=r0,2,r1
	;;
	(p63) pshladd2 r33=r126,3,r0
	;;
	pshradd2 r8=r9,1,r10
	;;
	(p6) pshradd2 r127=r0,2,r1
	;;
	(p63) pshradd2 r33=r126,3,r0
	;;
	pmpyshr2 r20=r21,r22,0
	;;
	(p6) pmpyshr2 r20=r21,r22,7
	;;
	pmpyshr2 r20=r21,r22,15
	;;
	(p6) pmpyshr2 r20=r21,r22,16
	;;
	pmpyshr2.u r20=r21,r22,0
	;;
	(p6) pmpyshr2.u r20=r21,r22,7
	;;
	pmpyshr2.u r20=r21,r22,15
	;;
	(p6) pmpyshr2.u r20=r21,r22,16
	;;
	mux1 r23=r24,@brcst
	;;
	(p7) mux1 r127=r1,@brcst
	;;
	mux1 r23=r24,@mix
	;;
	(p7) mux1 r127=r1,@mix
	;;
	mux1 r23=r24,@shuf
	;;
	(p7) mux1 r127=r1,@shuf
	;;
	mux1 r23=r24,@alt
	;;
	(p7) mux1 r127=r1,@alt
	;;
	mux1 r23=r24,@rev
	;;
	(p7) mux1 r127=r1,@rev
	;;
	mux2 r25=r26,0
	;;
	mux2 r25=r26,0x1b
	;;
	mux2 r25=r26,0xe4
	;;
	mux2 r25=r26,0xff
	;;
	mux2 r25=r26,0x55
	;;
	(p8) mux2 r127=r0,0xaa
	;;
	pshr2 r8=r9,r10
	;;
	(p6) pshr2 r127=r0,r1
	;;
	(p63) pshr2 r33=r126,r0
	;;
	pshr2 r27=r28,0
	;;
	(p6) pshr2 r27=r28,1
	;;
	(p63) pshr2 r27=r28,15
	;;
	pshr2 r27=r28,16
	;;
	(p6) pshr2 r27=r28,31
	;;
	pshr4 r8=r9,r10
	;;
	(p6) pshr4 r127=r0,r1
	;;
	(p63) pshr4 r33=r126,r0
	;;
	pshr4 r27=r28,0
	;;
	(p6) pshr4 r27=r28,1
	;;
	(p63) pshr4 r27=r28,15
	;;
	pshr4 r27=r28,16
	;;
	(p6) pshr4 r27=r28,31
	;;
	pshr2.u r8=r9,r10
	;;
	(p6) pshr2.u r127=r0,r1
	;;
	(p63) pshr2.u r33=r126,r0
	;;
	pshr2.u r27=r28,0
	;;
	(p6) pshr2.u r27=r28,1
	;;
	(p63) pshr2.u r27=r28,15
	;;
	pshr2.u r27=r28,16
	;;
	(p6) pshr2.u r27=r28,31
	;;
	pshr4.u r8=r9,r10
	;;
	(p6) pshr4.u r127=r0,r1
	;;
	(p63) pshr4.u r33=r126,r0
	;;
	pshr4.u r27=r28,0
	;;
	(p6) pshr4.u r27=r28,1
	;;
	(p63) pshr4.u r27=r28,15
	;;
	pshr4.u r27=r28,16
	;;
	(p6) pshr4.u r27=r28,31
	;;
	pshl2 r29=r30,0
	;;
	(p6) pshl2 r29=r30,1
	;;
	(p63) pshl2 r29=r30,15
	;;
	pshl2 r29=r30,16
	;;
	(p6) pshl2 r29=r30,31
	;;
	pshl4 r29=r30,0
	;;
	(p6) pshl4 r29=r30,1
	;;
	(p63) pshl4 r29=r30,15
	;;
	pshl4 r29=r30,16
	;;
	(p6) pshl4 r29=r30,31
	;;
	popcnt r8=r10
	;;
	(p6) popcnt r127=r1
	;;
	(p63) popcnt r33=r0
	;;
	clz r8=r10
	;;
	(p6) clz r127=r1
	;;
	(p63) clz r33=r0
	;;
	czx1.l r8=r10
	;;
	(p6) czx1.l r127=r1
	;;
	(p63) czx1.l r33=r0
	;;
	czx1.r r8=r10
	;;
	(p6) czx1.r r127=r1
	;;
	(p63) czx1.r r33=r0
	;;
	czx2.l r8=r10
	;;
	(p6) czx2.l r127=r1
	;;
	(p63) czx2.l r33=r0
	;;
	czx2.r r8=r10
	;;
	(p6) czx2.r r127=r1
	;;
	(p63) czx2.r r33=r0
	;;
	tf.z p6,p7=32
	;;
	(p5) tf.nz p6,p7=34
	;;
	tf.z.unc p6,p7=36
	;;
	(p5) tf.nz.unc p6,p7=38
	;;
	tf.z.and p6,p7=40
	;;
	(p5) tf.nz.andcm p6,p7=42
	;;
	tf.nz.and p6,p7=44
	;;
	(p5) tf.z.andcm p6,p7=46
	;;
	tf.z.or p6,p7=48
	;;
	(p5) tf.nz.orcm p6,p7=50
	;;
	tf.nz.or p6,p7=52
	;;
	(p5) tf.z.orcm p6,p7=54
	;;
	tf.z.or.andcm p6,p7=56
	;;
	(p5) tf.nz.and.orcm p6,p7=58
	;;
	tf.nz.or.andcm p6,p7=60
	;;
	(p5) tf.z.and.orcm p6,p7=63
	;;
	tf.z p62,p63=32
	;;
	.endp multimedia
