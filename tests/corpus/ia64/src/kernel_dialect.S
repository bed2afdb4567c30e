// the kernel's GNU as dialect (issue 13): .xdata1-16 beside code (no flush), [1:] tags with 1b-., .mem.offset, .org, .space with label differences, sym = expr, psr.* masks, .macro/.endm, .rotr/.rotp/.rotf, .serialize.*, .fill, %progbits, '+' in section names, .secalias/.alias
	.section "__ex_table", "a"
	.previous
.macro put, val, name
	data8 \val, \name, 0
.endm
.macro export name,val,sec=
	.section tab\sec+\name,"a"
	.balign 8
tab_\name:
	put \val, str_\name
	.previous
	.section tab_strings,"aMS",%progbits,1
str_\name:
	.asciz "\name"
	.previous
.endm
	PSR_BITS = psr.i | psr.ic | psr.dt
	SIZE = 4 * 8
	.text
	.global f
	.align 32
	.proc f
f:
	rsm psr.i | psr.ic
	movl r8 = PSR_BITS
	adds r9 = SIZE, r0
	.mem.offset 0, 0
	[1:] ld8 r10 = [r11]
	.xdata4 "__ex_table", 1b-., 2f-.
	.mem.offset 8, 0
	st8 [r12] = r13 ;;
	.xdata1 ".data..patch1", 1, 2
	.xdata2 ".data..patch1", 3
	.xdata8 ".data..patch8", 1b-., 7
	.xdata16 ".data..patch16", -1
	.serialize.data
	srlz.d ;;
	.serialize.instruction
	srlz.i ;;
2:	br.ret.sptk.many rp ;;
	.endp f
	.proc loop
loop:
	alloc r2 = ar.pfs, 0, 8, 0, 8
	.rotr a[3], b[2]
	.rotp q[4]
	.rotf g[2]
	mov ar.lc = 3
	mov ar.ec = 2
	mov pr.rot = 1 << 16 ;;
3:	(q[0]) ld8 a[0] = [r14], 8
	(q[1]) add b[0] = a[2], b[1]
	(q[2]) fma.d g[1] = g[0], f1, f0
	br.ctop.sptk.few 3b ;;
	br.ret.sptk.many rp ;;
	.endp loop
	.org f + 0x100
	nop.m 0 ;;
	.org f + 0x120
	nop.i 0 ;;
	.section .rodata
	.align 8
table:
	data8 1, 2
here:
	.space table + 8*4 - here, 0
	.fill 3, 2, 0x1234
	.fill 2, 1, 7
	.org table + 0x40, 0xaa
	data4 0x55
	.secalias .rodata, ".rodata.alias"
	.alias f, "f_alias"
	export f, @fptr(f)
