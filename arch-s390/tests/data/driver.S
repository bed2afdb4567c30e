# Differential-test driver: calls every case of `cases` (function, r2..r6) and records r2 and
# the condition code the function left, then writes `res` (ncases x 16 bytes) and `buf`
# (256 bytes) to stdout and exits. acctemu stops at the first svc and reads both from memory.
	.text
	.globl	_start
_start:
	aghi	%r15,-160
	brasl	%r14,fill
	larl	%r10,cases
	lgrl	%r11,ncases
	larl	%r12,res
.Lloop:
	ltgr	%r11,%r11
	jz	.Ldone
	lg	%r1,0(%r10)
	lmg	%r2,%r6,8(%r10)
	basr	%r14,%r1
	ipm	%r0
	llgfr	%r0,%r0
	srlg	%r0,%r0,28
	stg	%r2,0(%r12)
	stg	%r0,8(%r12)
	aghi	%r10,48
	aghi	%r12,16
	aghi	%r11,-1
	j	.Lloop
.Ldone:
	lghi	%r2,1
	larl	%r3,res
	lgrl	%r4,ncases
	sllg	%r4,%r4,4
	svc	4
	lghi	%r2,1
	larl	%r3,buf
	lghi	%r4,256
	svc	4
	lghi	%r2,0
	svc	1
	.section .note.GNU-stack,"",@progbits
