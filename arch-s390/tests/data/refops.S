# Hand-written functions using the reference list's unprivileged instructions the way entry.S
# and vtime.c do (LG/STG/SLG/ALG/MVC/CLC, STMG/LMG, LAY, LGRL, TMHH/TM/NI/OI/NIHH/XC, BRASL,
# BASR, SRAG, CLG, LAAG, MSG, DLG, RISBG, TMLH, CG, SLGR). Each takes r2 = a scratch area
# (at least 64 bytes), r3/r4 = values, and returns r2; the driver records the CC.
	.text
	.globl	r_vtime
# The UPDATE_VTIME shape on a fake lowcore at r2: user += exit - enter, system += last - exit.
r_vtime:
	stg	%r3,0(%r2)		# enter
	stg	%r4,8(%r2)		# exit
	lg	%r0,8(%r2)
	slg	%r0,0(%r2)
	alg	%r0,16(%r2)
	lg	%r1,24(%r2)
	slg	%r1,8(%r2)
	alg	%r1,32(%r2)
	stg	%r0,16(%r2)
	stg	%r1,32(%r2)
	mvc	24(8,%r2),0(%r2)
	clc	0(8,%r2),8(%r2)
	lg	%r2,16(%r2)
	br	%r14

	.globl	r_stm
r_stm:
	stmg	%r6,%r15,48(%r15)
	lay	%r15,-160(%r15)
	lgr	%r6,%r2
	agr	%r3,%r4
	stg	%r3,40(%r6)
	brasl	%r14,r_leaf
	lay	%r15,160(%r15)
	lmg	%r6,%r15,48(%r15)
	srag	%r2,%r2,3
	br	%r14
r_leaf:
	lg	%r2,40(%r2)
	msg	%r2,40(%r6)
	cg	%r2,0(%r6)
	br	%r14

	.globl	r_tm
r_tm:
	lgr	%r1,%r2
	tmhh	%r3,0x0001
	jo	1f
	jz	2f
	lghi	%r2,10
	j	3f
1:	lghi	%r2,20
	j	3f
2:	lghi	%r2,30
3:	stc	%r4,0(%r1)
	br	%r14

	.globl	r_bits
r_bits:
	lgr	%r1,%r2
	stg	%r3,0(%r1)
	ni	7(%r1),0xf0
	oi	6(%r1),0x81
	tm	7(%r1),0x30
	ipm	%r5
	xc	8(8,%r1),8(%r1)
	nihh	%r3,0x00ff
	tmlh	%r3,0x8001
	lg	%r2,0(%r1)
	xgr	%r2,%r3
	srlg	%r5,%r5,28
	agr	%r2,%r5
	clg	%r2,8(%r1)
	br	%r14

	.globl	r_div
r_div:
	stg	%r4,0(%r2)
	lgr	%r1,%r3
	lghi	%r0,0
	dlg	%r0,0(%r2)
	risbg	%r1,%r0,32,63,32
	laag	%r5,%r1,0(%r2)
	lgr	%r2,%r5
	slgr	%r2,%r1
	br	%r14

	.globl	r_call
r_call:
	stmg	%r14,%r15,112(%r15)
	aghi	%r15,-160
	larl	%r1,r_leaf2
	basr	%r14,%r1
	lgrl	%r3,r_const
	algr	%r2,%r3
	lmg	%r14,%r15,272(%r15)
	br	%r14
r_leaf2:
	sllg	%r2,%r3,4
	lcgr	%r2,%r2
	br	%r14

	.globl	r_fpr
# gcc's spill of GPRs into FPRs under register pressure.
r_fpr:
	ldgr	%f2,%r3
	ldgr	%f4,%r4
	lgdr	%r2,%f4
	lgdr	%r1,%f2
	sgr	%r2,%r1
	br	%r14

	.section .rodata
	.align	8
r_const:
	.quad	0x8000000000000001
	.section .note.GNU-stack,"",@progbits
