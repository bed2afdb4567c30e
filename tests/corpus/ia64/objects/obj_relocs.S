// obj_relocs.S: object writer: branches to a global (PCREL21B against it), an undefined external, a local in another code section (section symbol), movl of a global/local (IMM64), data8/data4 of locals/globals/externals (DIR64LSB/DIR32LSB), .sdata "aws", .rodata.str, unwind in two code sections, .unwentry, a .prologue/.body-only procedure (no entry)
	.global gfunc, gext
	.text
	.proc lfunc
lfunc:
	.prologue
	.save ar.pfs, r35
	alloc r35=ar.pfs,0,4,0,0
	.vframe r34
	mov r34=r12
	.save pr, r36
	mov r36=pr
	.savesp ar.lc, 16
	st8 [r12]=r3
	;;
	.body
	br.call.sptk.many b0=gfunc
	br.call.sptk.many b0=gext
	;;
	br.cond.sptk.few lfunc
	br.cond.sptk.few far
	;;
	movl r8=gvar+8
	movl r9=lvar+16
	;;
	.restore sp
	mov r12=r34
	br.ret.sptk.many b0
	;;
	.endp lfunc

	.proc gfunc
gfunc:
	.unwentry
	br.ret.sptk.many b0
	;;
	.endp gfunc

	.proc nounw
nounw:
	.prologue
	.body
	br.ret.sptk.many b0
	;;
	.endp nounw

	.section .text.far,"ax"
	.proc far
far:
	.prologue
	.save rp, r33
	mov r33=b0
	;;
	.body
	br.call.sptk.many b0=lfunc
	;;
	.endp far

	.section .sdata,"aws"
svar:	data8 lfunc
	data4 svar
	data8 gext+32

	.data
	.global gvar
lvar:	data1 1
gvar:	data8 far
	data8 gfunc
	.align 16
	data8.ua lvar

	.bss
bvar:	.skip 24

	.section .rodata.str,"a"
	.ascii "hello"
	.set ABSV, 42
	data8 ABSV
